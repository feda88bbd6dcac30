//! Opening the mock `libcupti` as a user's program would (`cupti_sys::Library::open`) and its
//! `mock_cupti_*` controls (libloading on the same file: one `dlopen` handle, one mock state).
//!
//! The mock is one per process, so every test takes [`mock`], which serializes the tests of this
//! binary and resets the mock.

use std::ffi::{c_char, c_void, CStr};
use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock};

use cupti_sys::{CUptiResult, CuptiFunctions, Library};

pub struct Mock {
    cupti: Library,
    control: libloading::Library,
}

static MOCK: OnceLock<Mock> = OnceLock::new();
static SERIAL: Mutex<()> = Mutex::new(());

/// The mock, reset, held for the duration of one test.
pub fn mock() -> (MutexGuard<'static, ()>, &'static Mock) {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let m = loaded();
    m.reset();
    super::recorder::clear();
    super::buffers::clear();
    (guard, m)
}

/// The loaded mock without taking the test lock (for callbacks running inside a test).
pub fn loaded() -> &'static Mock {
    MOCK.get_or_init(|| {
        let path = Path::new(accel_profiling::MOCK_CUPTI);
        let cupti = Library::open(Some(path)).expect("the mock libcupti opens through cupti-sys");
        // SAFETY: the mock is a std-only Rust cdylib without initialisers that could misbehave.
        let control = unsafe { libloading::Library::new(path) }.expect("the mock libcupti opens with dlopen");
        Mock { cupti, control }
    })
}

/// The mock as a `cupti_sys::Library` (for code written against any library).
pub fn loaded_library() -> &'static Library {
    &loaded().cupti
}

/// Unwraps a call through the function table: the mock exports every function the tests use.
pub fn ok(r: Result<CUptiResult, cupti_sys::MissingSymbol>) -> u32 {
    r.expect("the mock exports this function").0
}

macro_rules! control {
    ($( $(#[$doc:meta])* fn $name:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        impl Mock {
            $(
                $(#[$doc])*
                #[allow(clippy::too_many_arguments)]
                pub fn $name(&self, $($arg: $ty),*) $(-> $ret)? {
                    let symbol = concat!("mock_cupti_", stringify!($name), "\0");
                    // SAFETY: the mock exports this control with exactly this C signature
                    // (mocks/cupti/control.rs); pointers passed are valid for the call.
                    unsafe {
                        let f = self
                            .control
                            .get::<unsafe extern "C" fn($($ty),*) $(-> $ret)?>(symbol.as_bytes())
                            .expect(symbol);
                        f($($arg),*)
                    }
                }
            )*
        }
    };
}

control! {
    fn reset();
    fn set_version(version: u32);
    fn set_driver_present(present: i32);
    fn set_foreign_subscriber(name: *const c_char);
    fn wait_idle();
    fn set_device(device: u32);
    fn fail_next_call(error: i32);
    fn set_nested_driver_calls(on: i32);
    fn api_call(domain: u32, cbid: u32, name: *const c_char, params: *const c_void, ret: i32) -> u32;
    fn api_enter(domain: u32, cbid: u32, name: *const c_char, params: *const c_void) -> *mut c_void;
    fn api_exit(call: *mut c_void, ret: i32) -> u32;
    fn launch_kernel(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64, duration_ns: u64) -> u32;
    fn launch_kernel_driver(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64, duration_ns: u64) -> u32;
    fn launch_kernel_in_flight(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64) -> u32;
    fn complete_kernel(correlation: u32, duration_ns: u64) -> i32;
    fn memcpy(dst: u64, src: u64, bytes: u64, kind: u32, stream: u64, is_async: i32, duration_ns: u64) -> u32;
    fn memset(dst: u64, value: i32, bytes: u64, stream: u64, is_async: i32, duration_ns: u64) -> u32;
    fn malloc(bytes: u64, address: *mut u64) -> u32;
    fn free(address: u64) -> u32;
    fn device_synchronize() -> u32;
    fn stream_synchronize(stream: u64) -> u32;
    fn resource(cbid: u32, stream: u64);
    fn marker_start(name: *const c_char, domain: *const c_char) -> u32;
    fn marker_end(id: u32);
    fn marker_instant(name: *const c_char, domain: *const c_char) -> u32;
}

impl Mock {
    /// The CUPTI function table, as `cupti-sys` resolved it from the mock.
    pub fn f(&self) -> &CuptiFunctions {
        self.cupti.functions()
    }

    /// `mock_cupti_stat(name)`.
    pub fn stat(&self, name: &CStr) -> u64 {
        // SAFETY: the control's C signature; `name` is a C string.
        unsafe {
            let f = self
                .control
                .get::<unsafe extern "C" fn(*const c_char) -> u64>(b"mock_cupti_stat\0")
                .expect("mock_cupti_stat");
            f(name.as_ptr())
        }
    }

    /// A plain `cudaLaunchKernel` of `name<<<grid, block, shared, stream>>>` lasting `ns`.
    pub fn launch(
        &self,
        name: &CStr,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        stream: u64,
        ns: u64,
    ) -> u32 {
        let [gx, gy, gz] = grid;
        let [bx, by, bz] = block;
        self.launch_kernel(name.as_ptr(), gx, gy, gz, bx, by, bz, shared, stream, ns)
    }

    pub fn launch_in_flight(&self, name: &CStr, stream: u64) -> u32 {
        self.launch_kernel_in_flight(name.as_ptr(), 1, 1, 1, 32, 1, 1, 0, stream)
    }

    pub fn version(&self) -> u32 {
        let mut v = 0;
        // SAFETY: `v` is a valid out-pointer.
        assert_eq!(ok(unsafe { self.f().cuptiGetVersion(&mut v) }), 0);
        v
    }

    /// `cuptiGetTimestamp`.
    pub fn timestamp(&self) -> u64 {
        let mut t = 0;
        // SAFETY: `t` is a valid out-pointer.
        assert_eq!(ok(unsafe { self.f().cuptiGetTimestamp(&mut t) }), 0);
        t
    }

    pub fn enable(&self, kind: u32) {
        // SAFETY: plain value arguments.
        let r = ok(unsafe { self.f().cuptiActivityEnable(cupti_sys::CUpti_ActivityKind(kind)) });
        assert_eq!(r, 0, "enable kind {kind}");
    }

    pub fn disable(&self, kind: u32) {
        // SAFETY: plain value arguments.
        let r = ok(unsafe { self.f().cuptiActivityDisable(cupti_sys::CUpti_ActivityKind(kind)) });
        assert_eq!(r, 0, "disable kind {kind}");
    }

    /// `cuptiActivityFlushAll(flag)`.
    pub fn flush(&self, flag: u32) -> u32 {
        // SAFETY: plain value argument.
        ok(unsafe { self.f().cuptiActivityFlushAll(flag) })
    }

    /// `cuptiActivityGetNumDroppedRecords(NULL, 0, &n)`.
    pub fn dropped(&self) -> usize {
        let mut n = usize::MAX;
        // SAFETY: `n` is a valid out-pointer.
        let r = ok(unsafe { self.f().cuptiActivityGetNumDroppedRecords(std::ptr::null_mut(), 0, &mut n) });
        assert_eq!(r, 0);
        n
    }
}
