//! The mock CUDA driver ([`LIBRARY`], `libcuda.so.1`) and its `mock_cuda_*` controls
//! ([`MockCuda`]): the device queries a tracer makes of the driver the program loaded, to describe
//! the devices in its traces. The behaviour is documented where the mock defines it
//! (`libs/cuda/lib.rs`): every device query fails with `CUDA_ERROR_NOT_INITIALIZED` until `cuInit`.
//!
//! A test plays the program: it loads the mock (as the CUDA runtime loads the driver) and calls
//! [`MockCuda::init`]; the code under test then finds it with `dlopen("libcuda.so.1",
//! RTLD_NOLOAD)`, by its soname, as it finds the real driver.

use std::ffi::{c_int, c_uint};

/// Absolute path of the mock driver built for this crate (its file name is `libcuda.so.1`).
pub const LIBRARY: &str = env!("ACCELPROF_MOCK_CUDA");

/// The mock driver, loaded (it stays loaded while this lives) with its controls (declared once,
/// in `libs/cuda/controls.rs`, which the mock is checked against).
pub struct MockCuda {
    // Boxed: a wrapper stays a pointer wide in the caller's enums and structs.
    controls: Box<Controls>,
    // Declared after `controls`: the library stays loaded while the table is used.
    _lib: libloading::Library,
}

impl std::fmt::Debug for MockCuda {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockCuda").finish_non_exhaustive()
    }
}

macro_rules! mock_controls {
    ($($t:tt)*) => { wrapper_controls!(Controls, MockCuda; $($t)*); };
}

include!("../libs/cuda/controls.rs");

impl MockCuda {
    /// Loads the mock at `path` ([`LIBRARY`]), its controls looked up;
    /// [`Error::NotTheMock`](crate::Error::NotTheMock) for a library without them (the real driver).
    pub fn open(path: impl AsRef<std::ffi::OsStr>) -> crate::Result<MockCuda> {
        let path = path.as_ref();
        let lib = crate::error::open_library(path)?;
        let controls = Box::new(Controls::resolve(&lib, path)?);
        Ok(MockCuda { controls, _lib: lib })
    }

    /// `cuInit(0)`, as the program's CUDA runtime calls it; its `CUresult` as an error.
    pub fn init(&self) -> crate::Result<()> {
        // SAFETY: `CUresult cuInit(unsigned int)`: a plain value.
        match unsafe { (self.controls.cu_init)(0) } {
            0 => Ok(()),
            code => Err(crate::Error::Call { function: "cuInit", code }),
        }
    }

    /// The number of devices the driver reports (0 to 64).
    pub fn set_device_count(&self, count: u32) {
        let count = c_int::try_from(count).unwrap_or(c_int::MAX);
        // SAFETY: `void mock_cuda_set_device_count(int)`: a plain value.
        unsafe { (self.controls.set_device_count)(count) }
    }

    /// Whether `cuInit` was called since the last reset.
    pub fn is_initialized(&self) -> bool {
        // SAFETY: `int mock_cuda_is_initialized(void)`.
        unsafe { (self.controls.is_initialized)() != 0 }
    }
}
