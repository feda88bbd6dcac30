//! The mock CUDA driver ([`LIBRARY`], `libcuda.so.1`) and its `mock_cuda_*` controls
//! ([`MockCuda`]): the device queries a tracer makes of the driver the program loaded, to describe
//! the devices in its traces. The behaviour is documented where the mock defines it
//! (`libs/cuda/lib.rs`): every device query fails with `CUDA_ERROR_NOT_INITIALIZED` until `cuInit`.
//!
//! A test plays the program: it loads the mock (as the CUDA runtime loads the driver) and calls
//! [`MockCuda::init`]; the code under test then finds it with `dlopen("libcuda.so.1",
//! RTLD_NOLOAD)`, by its soname, as it finds the real driver.

use std::ffi::c_int;

/// Absolute path of the mock driver built for this crate (its file name is `libcuda.so.1`).
pub const LIBRARY: &str = env!("ACCELPROF_MOCK_CUDA");

/// The mock driver, loaded (it stays loaded while this lives) with its controls.
#[derive(Debug)]
pub struct MockCuda {
    lib: libloading::Library,
}

impl MockCuda {
    /// Loads the mock at `path` ([`LIBRARY`]).
    pub fn open(path: impl AsRef<std::ffi::OsStr>) -> MockCuda {
        // SAFETY: the mock is a std-only Rust cdylib without initialisers that could misbehave.
        let lib = unsafe { libloading::Library::new(path) }.expect("the mock libcuda opens");
        MockCuda { lib }
    }

    /// `cuInit(0)`, as the program's CUDA runtime calls it.
    pub fn init(&self) {
        // SAFETY: `CUresult cuInit(unsigned int)`, as the mock defines it.
        let result =
            unsafe { self.lib.get::<unsafe extern "C" fn(u32) -> c_int>(b"cuInit\0").expect("cuInit")(0) };
        assert_eq!(result, 0, "the mock's cuInit");
    }

    /// Back to a freshly loaded driver: not initialized, one device.
    pub fn reset(&self) {
        // SAFETY: `void mock_cuda_reset(void)`, as the mock defines it.
        unsafe { self.lib.get::<unsafe extern "C" fn()>(b"mock_cuda_reset\0").expect("mock_cuda_reset")() };
    }

    /// The number of devices the driver reports (0 to 64).
    pub fn set_device_count(&self, count: u32) {
        let count = c_int::try_from(count).unwrap_or(c_int::MAX);
        // SAFETY: `void mock_cuda_set_device_count(int)`, as the mock defines it.
        unsafe {
            self.lib
                .get::<unsafe extern "C" fn(c_int)>(b"mock_cuda_set_device_count\0")
                .expect("mock_cuda_set_device_count")(count)
        };
    }

    /// Whether `cuInit` was called since the last reset.
    pub fn is_initialized(&self) -> bool {
        // SAFETY: `int mock_cuda_is_initialized(void)`, as the mock defines it.
        let on = unsafe {
            self.lib
                .get::<unsafe extern "C" fn() -> c_int>(b"mock_cuda_is_initialized\0")
                .expect("mock_cuda_is_initialized")()
        };
        on != 0
    }
}
