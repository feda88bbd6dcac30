//! The mock `libcupti` ([`LIBRARY`]) and its `mock_cupti_*` controls ([`MockCupti`]): the caller
//! plays the CUDA runtime and the environment. Played calls run on the calling thread, as the real
//! CUDA call would, and return the call's correlation id. The controls are documented in full where
//! the mock defines them (`libs/cupti/control.rs`).

use std::ffi::{c_char, c_void, CStr};

/// Absolute path of the mock `libcupti` built for this crate (its file name is `libcupti.so`).
pub const LIBRARY: &str = env!("ACCELPROF_MOCK_CUPTI");

/// The mock `libcupti`'s controls, on a `dlopen` handle of the mock.
///
/// Pointer arguments are passed to the mock as they are: they must be NULL or valid for the call
/// as the control describes (C strings, the `params` of a played API call, the handle that
/// [`MockCupti::api_enter`] returned).
#[derive(Debug)]
pub struct MockCupti {
    lib: libloading::Library,
}

macro_rules! controls {
    ($( $(#[$doc:meta])* fn $name:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        impl MockCupti {
            $(
                $(#[$doc])*
                #[allow(clippy::too_many_arguments, clippy::not_unsafe_ptr_arg_deref)]
                pub fn $name(&self, $($arg: $ty),*) $(-> $ret)? {
                    let symbol = concat!("mock_cupti_", stringify!($name), "\0");
                    // SAFETY: the mock exports this control with exactly this C signature
                    // (libs/cupti/control.rs); pointers passed are valid for the call.
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
    /// Waits until every buffer handed to the delivery thread has been completed.
    fn wait_idle();
    /// The calling thread's current device (`cudaSetDevice`).
    fn set_device(device: u32);
    /// The next played call on this thread returns `error`.
    fn fail_next_call(error: i32);
    /// Whether played runtime calls make their driver calls nested, with the runtime call's
    /// correlation id (on by default).
    fn set_nested_driver_calls(on: i32);
    /// What each call's `correlationData` slots hold at ENTER (0 by default, as the real
    /// libraries probed give).
    fn set_slot_fill(value: u64);
    /// Any runtime (2) or driver (1) API call with `params`; returns its correlation id.
    fn api_call(domain: u32, cbid: u32, name: *const c_char, params: *const c_void, ret: i32) -> u32;
    /// ENTER callbacks of a call; EXIT comes with `api_exit`.
    fn api_enter(domain: u32, cbid: u32, name: *const c_char, params: *const c_void) -> *mut c_void;
    /// EXIT callbacks of a call begun with `api_enter`; returns its correlation id.
    fn api_exit(call: *mut c_void, ret: i32) -> u32;
    /// `cudaLaunchKernel` of `name<<<grid, block, shared, stream>>>` lasting `duration_ns`.
    fn launch_kernel(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64, duration_ns: u64) -> u32;
    /// The same through `cuLaunchKernel`.
    fn launch_kernel_driver(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64, duration_ns: u64) -> u32;
    /// A launch whose kernel runs until `complete_kernel`.
    fn launch_kernel_in_flight(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64) -> u32;
    /// Completes the in-flight kernel of launch `correlation`, lasting `duration_ns`.
    fn complete_kernel(correlation: u32, duration_ns: u64) -> i32;
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
    /// A marker range start (MARKER record, `domain` NULL: the default domain); returns its id.
    fn marker_start(name: *const c_char, domain: *const c_char) -> u32;
    /// The end of the marker range `id`.
    fn marker_end(id: u32);
    /// An instantaneous marker; returns its id.
    fn marker_instant(name: *const c_char, domain: *const c_char) -> u32;
    /// A second CUPTI client in the process starts as PyTorch's profiler (Kineto) does: `cuptiSubscribe`
    /// (once; its result is `foreign_stat("subscribe_result")`), `cuptiActivityRegisterCallbacks` with its
    /// own callbacks (the last registration wins), `cuptiActivityEnable` of MEMCPY, MEMSET,
    /// CONCURRENT_KERNEL, EXTERNAL_CORRELATION, RUNTIME. Returns the first failing call's code.
    fn foreign_start() -> u32;
    /// A second client of the per-subscriber API (13.3+): `cuptiSubscribe_v2` allowing others, its own
    /// `_v2` buffer callbacks, CONCURRENT_KERNEL with fixed records.
    fn foreign_start_v2() -> u32;
    /// The foreign client's `cuptiActivityFlushAll(flag)` (1 = FORCED).
    fn foreign_flush(flag: u32) -> u32;
    /// The foreign client stops as Kineto does: its kinds disabled (process-wide under V1), then a
    /// forced flush.
    fn foreign_stop() -> u32;
}

impl MockCupti {
    /// The mock at `path` ([`LIBRARY`]).
    pub fn open(path: impl AsRef<std::ffi::OsStr>) -> MockCupti {
        // SAFETY: the mock is a std-only Rust cdylib without initialisers that could misbehave.
        let lib = unsafe { libloading::Library::new(path) }.expect("the mock libcupti opens");
        MockCupti { lib }
    }

    /// A counter or state value of the mock (`"subscribers"`, `"callbacks_delivered"`,
    /// `"records_written"`, ...; `u64::MAX` for an unknown name).
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

    /// A tally of the foreign client (`"records"`, `"kernels"`, `"buffers"` and `"buffers_held"` of its
    /// own buffers; `"unknown_buffers"` and `"unknown_records"`: another client's buffers completed to its
    /// callbacks and left untouched, as Kineto does; `"subscribe_result"`).
    pub fn foreign_stat(&self, name: &CStr) -> u64 {
        // SAFETY: the control's C signature; `name` is a C string.
        unsafe {
            let f = self
                .lib
                .get::<unsafe extern "C" fn(*const c_char) -> u64>(b"mock_cupti_foreign_stat\0")
                .expect("mock_cupti_foreign_stat");
            f(name.as_ptr())
        }
    }

    /// `name<<<grid, block, shared, stream>>>` through `cudaLaunchKernel`, lasting 2 us.
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
