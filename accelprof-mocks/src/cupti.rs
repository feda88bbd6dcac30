//! The mock `libcupti` ([`LIBRARY`]) and its `mock_cupti_*` controls ([`MockCupti`]): the caller
//! plays the CUDA runtime and the environment. Played calls run on the calling thread, as the real
//! CUDA call would, and return the call's correlation id. The controls are documented in full where
//! the mock defines them (`libs/cupti/control.rs`); their one declaration is
//! `libs/cupti/controls.rs`.

use std::ffi::{c_char, c_void, CStr};
use std::ptr::NonNull;

use crate::Result;

pub use crate::kineto::{
    load_global, KinetoClient, KinetoConfig, KinetoTally, KINETO_BUFFER_BYTES, KINETO_KINDS,
};

/// Absolute path of the mock `libcupti` built for this crate (its file name is `libcupti.so`).
pub const LIBRARY: &str = env!("ACCELPROF_MOCK_CUPTI");

/// The mock `libcupti`'s controls, on a `dlopen` handle of the mock.
///
/// Every control of the mock is a method here: those that take plain values as they are declared
/// (`libs/cupti/controls.rs`, the one declaration the mock is checked against), those that take
/// a C string or an out-pointer with a typed argument, and the API calls whose `params` the
/// subscribers' callbacks read as `unsafe fn`s.
pub struct MockCupti {
    // Boxed: a wrapper stays a pointer wide in the caller's enums and structs.
    controls: Box<Controls>,
    // Declared after `controls`: the library stays loaded while the table is used.
    _lib: libloading::Library,
}

impl std::fmt::Debug for MockCupti {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockCupti").finish_non_exhaustive()
    }
}

macro_rules! mock_controls {
    ($($t:tt)*) => { wrapper_controls!(Controls, MockCupti; $($t)*); };
}

include!("../libs/cupti/controls.rs");

/// A call begun with [`MockCupti::api_enter`]: its ENTER callbacks ran, its EXIT runs at
/// [`MockCupti::api_exit`].
#[derive(Debug)]
pub struct ApiCall(NonNull<c_void>);

// SAFETY: the handle is an address the mock checks: a call ended on another thread than the one
// that began it is refused and left open (`api_exit` gives the handle back).
unsafe impl Send for ApiCall {}

fn c_or_null(s: Option<&CStr>) -> *const c_char {
    s.map_or(std::ptr::null(), CStr::as_ptr)
}

impl MockCupti {
    /// The mock at `path` ([`LIBRARY`]), its controls looked up; [`Error::NotTheMock`](crate::Error::NotTheMock) for a
    /// library without them.
    pub fn open(path: impl AsRef<std::ffi::OsStr>) -> Result<MockCupti> {
        let path = path.as_ref();
        let lib = crate::error::open_library(path)?;
        let controls = Box::new(Controls::resolve(&lib, path)?);
        Ok(MockCupti { controls, _lib: lib })
    }

    /// A counter or state value of the mock (`"subscribers"`, `"callbacks_delivered"`,
    /// `"records_written"`, ...; `u64::MAX` for an unknown name). The control `mock_cupti_stat`.
    pub fn stat(&self, name: &CStr) -> u64 {
        // SAFETY: `name` is a C string, alive across the call.
        unsafe { (self.controls.stat)(name.as_ptr()) }
    }

    /// A tally of the foreign client (`"records"`, `"kernels"`, `"buffers"` and `"buffers_held"` of its
    /// own buffers; `"unknown_buffers"` and `"unknown_records"`: another client's buffers completed to its
    /// callbacks and left untouched, as Kineto does; `"subscribe_result"`). The control
    /// `mock_cupti_foreign_stat`.
    pub fn foreign_stat(&self, name: &CStr) -> u64 {
        // SAFETY: `name` is a C string, alive across the call.
        unsafe { (self.controls.foreign_stat)(name.as_ptr()) }
    }

    /// Another tool holds CUPTI's subscription under `name` (`None`: nobody). The control
    /// `mock_cupti_set_foreign_subscriber`.
    pub fn set_foreign_subscriber(&self, name: Option<&CStr>) {
        // SAFETY: NULL or a C string (the mock keeps a copy).
        unsafe { (self.controls.set_foreign_subscriber)(c_or_null(name)) }
    }

    /// A runtime (2) or driver (1) API call `cbid` (named `name`, else by its id), from ENTER to
    /// EXIT, returning `ret`, without parameters (`functionParams` NULL); its correlation id (0
    /// for another domain). The control `mock_cupti_api_call`.
    pub fn api_call(&self, domain: u32, cbid: u32, name: Option<&CStr>, ret: i32) -> u32 {
        // SAFETY: NULL parameters; NULL or a C string.
        unsafe { (self.controls.api_call)(domain, cbid, c_or_null(name), std::ptr::null(), ret) }
    }

    /// [`MockCupti::api_call`] with `params` as the callbacks' `functionParams`.
    ///
    /// # Safety
    /// `params` is NULL or points to the parameter struct of `cbid` in the CUPTI headers
    /// (`cuda_runtime_api_params` / `cuda_driver_api_params`), valid for the call: the
    /// subscribers' callbacks read it as that struct.
    pub unsafe fn api_call_with_params(
        &self,
        domain: u32,
        cbid: u32,
        name: Option<&CStr>,
        params: *const c_void,
        ret: i32,
    ) -> u32 {
        // SAFETY: the caller's contract for `params`; NULL or a C string.
        unsafe { (self.controls.api_call)(domain, cbid, c_or_null(name), params, ret) }
    }

    /// The ENTER callbacks of a runtime (2) or driver (1) API call without parameters; the call,
    /// for [`MockCupti::api_exit`] (`None` for another domain). The control `mock_cupti_api_enter`.
    pub fn api_enter(&self, domain: u32, cbid: u32, name: Option<&CStr>) -> Option<ApiCall> {
        // SAFETY: NULL parameters; NULL or a C string.
        unsafe { self.api_enter_with_params(domain, cbid, name, std::ptr::null()) }
    }

    /// [`MockCupti::api_enter`] with `params` as the callbacks' `functionParams`.
    ///
    /// # Safety
    /// As [`MockCupti::api_call_with_params`], and `params` stays valid until the call's
    /// [`MockCupti::api_exit`].
    pub unsafe fn api_enter_with_params(
        &self,
        domain: u32,
        cbid: u32,
        name: Option<&CStr>,
        params: *const c_void,
    ) -> Option<ApiCall> {
        // SAFETY: the caller's contract for `params`; NULL or a C string.
        let call = unsafe { (self.controls.api_enter)(domain, cbid, c_or_null(name), params) };
        NonNull::new(call).map(ApiCall)
    }

    /// The EXIT callbacks of `call`, returning `ret`; its correlation id. On another thread than
    /// the one that began it (a real call ends where it began) the call is left open and given
    /// back. The control `mock_cupti_api_exit`.
    pub fn api_exit(&self, call: ApiCall, ret: i32) -> std::result::Result<u32, ApiCall> {
        // SAFETY: a handle `mock_cupti_api_enter` returned, not yet ended (`ApiCall` is not
        // `Clone`; a refused exit gives it back).
        match unsafe { (self.controls.api_exit)(call.0.as_ptr(), ret) } {
            0 => Err(call),
            correlation => Ok(correlation),
        }
    }

    /// `cudaLaunchKernel` of `name<<<grid, block, shared, stream>>>` lasting `duration_ns`; its
    /// correlation id. The control `mock_cupti_launch_kernel`.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_kernel(
        &self,
        name: &CStr,
        gx: u32,
        gy: u32,
        gz: u32,
        bx: u32,
        by: u32,
        bz: u32,
        shared: u32,
        stream: u64,
        duration_ns: u64,
    ) -> u32 {
        // SAFETY: a C string, alive across the call.
        unsafe {
            (self.controls.launch_kernel)(name.as_ptr(), gx, gy, gz, bx, by, bz, shared, stream, duration_ns)
        }
    }

    /// The same through `cuLaunchKernel`. The control `mock_cupti_launch_kernel_driver`.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_kernel_driver(
        &self,
        name: &CStr,
        gx: u32,
        gy: u32,
        gz: u32,
        bx: u32,
        by: u32,
        bz: u32,
        shared: u32,
        stream: u64,
        duration_ns: u64,
    ) -> u32 {
        // SAFETY: a C string, alive across the call.
        unsafe {
            (self.controls.launch_kernel_driver)(
                name.as_ptr(),
                gx,
                gy,
                gz,
                bx,
                by,
                bz,
                shared,
                stream,
                duration_ns,
            )
        }
    }

    /// A launch whose kernel runs until [`MockCupti::complete_kernel`]. The control
    /// `mock_cupti_launch_kernel_in_flight`.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_kernel_in_flight(
        &self,
        name: &CStr,
        gx: u32,
        gy: u32,
        gz: u32,
        bx: u32,
        by: u32,
        bz: u32,
        shared: u32,
        stream: u64,
    ) -> u32 {
        // SAFETY: a C string, alive across the call.
        unsafe {
            (self.controls.launch_kernel_in_flight)(name.as_ptr(), gx, gy, gz, bx, by, bz, shared, stream)
        }
    }

    /// `cudaMalloc` of `bytes`; writes the played address to `address`, returns the correlation
    /// id. The control `mock_cupti_malloc`.
    pub fn malloc(&self, bytes: u64, address: &mut u64) -> u32 {
        // SAFETY: a valid out-pointer.
        unsafe { (self.controls.malloc)(bytes, address) }
    }

    /// A marker range start (a MARKER record; `domain` `None`: the default domain); its id. The
    /// control `mock_cupti_marker_start`.
    pub fn marker_start(&self, name: &CStr, domain: Option<&CStr>) -> u32 {
        // SAFETY: C strings (or NULL), alive across the call.
        unsafe { (self.controls.marker_start)(name.as_ptr(), c_or_null(domain)) }
    }

    /// An instantaneous marker; its id. The control `mock_cupti_marker_instant`.
    pub fn marker_instant(&self, name: &CStr, domain: Option<&CStr>) -> u32 {
        // SAFETY: C strings (or NULL), alive across the call.
        unsafe { (self.controls.marker_instant)(name.as_ptr(), c_or_null(domain)) }
    }

    /// `name<<<grid, block, shared, stream>>>` through `cudaLaunchKernel`, lasting 2 us.
    pub fn launch(&self, name: &CStr, grid: [u32; 3], block: [u32; 3], shared: u32, stream: u64) -> u32 {
        let ([gx, gy, gz], [bx, by, bz]) = (grid, block);
        self.launch_kernel(name, gx, gy, gz, bx, by, bz, shared, stream, 2_000)
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
        self.launch_kernel_driver(name, gx, gy, gz, bx, by, bz, shared, stream, 2_000)
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

/// The lock of the mock `libcupti`: one mock state per process, so tests that drive it take this
/// first (and then `reset` it). A test that panicked while holding it does not poison it for the
/// others.
pub fn lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
