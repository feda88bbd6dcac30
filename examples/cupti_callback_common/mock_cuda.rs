//! The CUDA runtime played by the mock `libcupti` (its `mock_cupti_*` controls), for the cupti
//! callback examples on machines without a GPU and for the tests. The mock is one per process:
//! the same file that `cupti::Cupti::open` opened, opened again with `dlopen` (same handle).

#![allow(dead_code)]

use std::ffi::{c_char, c_void, CStr};

/// The mock's controls.
pub struct MockCuda {
    lib: libloading::Library,
}

macro_rules! controls {
    ($( $(#[$doc:meta])* fn $name:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        impl MockCuda {
            $(
                $(#[$doc])*
                #[allow(clippy::too_many_arguments)]
                pub fn $name(&self, $($arg: $ty),*) $(-> $ret)? {
                    let symbol = concat!("mock_cupti_", stringify!($name), "\0");
                    // SAFETY: the mock exports this control with this C signature
                    // (mocks/cupti/control.rs); pointer arguments are valid for the call.
                    unsafe {
                        let f = self
                            .lib
                            .get::<unsafe extern "C" fn($($ty),*) $(-> $ret)?>(symbol.as_bytes())
                            .expect(symbol);
                        f($($arg),*)
                    }
                }
            )*
        }
    };
}

controls! {
    /// Back to a freshly loaded library (version 130001, driver present, no subscriber).
    fn reset();
    /// Plays another CUPTI release (28 = 12.9, 130001 = 13.0, 130200 = 13.2).
    fn set_version(version: u32);
    /// 0: no GPU driver (subscribing fails as on such a machine).
    fn set_driver_present(present: i32);
    /// Another tool holds CUPTI (NULL: nobody).
    fn set_foreign_subscriber(name: *const c_char);
    /// The next played call on this thread returns `error`.
    fn fail_next_call(error: i32);
    /// Any runtime (2) or driver (1) API call with `params`; returns its correlation id.
    fn api_call(domain: u32, cbid: u32, name: *const c_char, params: *const c_void, ret: i32) -> u32;
    /// ENTER callbacks of a call; EXIT comes with `api_exit`.
    fn api_enter(domain: u32, cbid: u32, name: *const c_char, params: *const c_void) -> *mut c_void;
    /// EXIT callbacks of a call begun with `api_enter`; returns its correlation id.
    fn api_exit(call: *mut c_void, ret: i32) -> u32;
    fn launch_kernel(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64, duration_ns: u64) -> u32;
    fn launch_kernel_driver(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64, duration_ns: u64) -> u32;
    /// `cudaMemcpy` / `cudaMemcpyAsync` (`kind`: 1 HtoD, 2 DtoH, 3 DtoD).
    fn memcpy(dst: u64, src: u64, bytes: u64, kind: u32, stream: u64, is_async: i32, duration_ns: u64) -> u32;
    /// `cudaMemset` / `cudaMemsetAsync`.
    fn memset(dst: u64, value: i32, bytes: u64, stream: u64, is_async: i32, duration_ns: u64) -> u32;
    /// `cudaMalloc`; writes the address.
    fn malloc(bytes: u64, address: *mut u64) -> u32;
    /// `cudaFree`.
    fn free(address: u64) -> u32;
    /// `cudaDeviceSynchronize` (and a SYNCHRONIZE-domain callback).
    fn device_synchronize() -> u32;
    /// `cudaStreamSynchronize`.
    fn stream_synchronize(stream: u64) -> u32;
    /// A RESOURCE-domain callback (3 = STREAM_CREATED).
    fn resource(cbid: u32, stream: u64);
}

impl MockCuda {
    /// The mock at `path` (`accel_profiling::MOCK_CUPTI`).
    pub fn open(path: &str) -> MockCuda {
        // SAFETY: the mock is a std-only Rust cdylib without initialisers.
        let lib = unsafe { libloading::Library::new(path) }.expect("the mock libcupti opens");
        MockCuda { lib }
    }

    /// A counter of the mock (`"subscribers"`, `"callbacks_delivered"`, `"absent_symbol_calls"`).
    pub fn stat(&self, name: &CStr) -> u64 {
        // SAFETY: the control's C signature; `name` is a C string.
        unsafe {
            let f = self
                .lib
                .get::<unsafe extern "C" fn(*const c_char) -> u64>(b"mock_cupti_stat\0")
                .expect("mock_cupti_stat");
            f(name.as_ptr())
        }
    }

    /// `name<<<grid, block, shared, stream>>>` through `cudaLaunchKernel`.
    pub fn launch(&self, name: &CStr, grid: [u32; 3], block: [u32; 3], shared: u32, stream: u64) -> u32 {
        let ([gx, gy, gz], [bx, by, bz]) = (grid, block);
        self.launch_kernel(name.as_ptr(), gx, gy, gz, bx, by, bz, shared, stream, 2_000)
    }

    /// The same through `cuLaunchKernel`.
    pub fn launch_driver(
        &self,
        name: &CStr,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        stream: u64,
    ) -> u32 {
        let ([gx, gy, gz], [bx, by, bz]) = (grid, block);
        self.launch_kernel_driver(name.as_ptr(), gx, gy, gz, bx, by, bz, shared, stream, 2_000)
    }

    /// A small workload, as the GPU examples run it: allocate, copy in, launch twice (runtime
    /// and driver), copy out, synchronize, free.
    pub fn workload(&self) {
        let mut address = 0u64;
        self.malloc(4096, &mut address);
        self.memcpy(address, 0x7000_0000, 4096, 1, 0, 0, 1_000);
        self.launch(c"add_one", [4, 1, 1], [256, 1, 1], 0, 0);
        self.launch_driver(c"add_one", [4, 1, 1], [256, 1, 1], 0, 0);
        self.memset(address, 0, 4096, 0, 0, 500);
        self.memcpy(0x7000_0000, address, 4096, 2, 0, 0, 1_000);
        self.device_synchronize();
        self.free(address);
    }
}
