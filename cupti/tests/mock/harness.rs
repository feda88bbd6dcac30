//! Opening the mock `libcupti` as a user's program would (`cupti_sys::Library::open`) and its
//! `mock_cupti_*` controls (libloading on the same file: one `dlopen` handle, one mock state).
//!
//! The mock is one per process, so every test takes [`mock`], which serializes the tests of this
//! binary and resets the mock.

use std::ffi::CStr;
use std::ops::Deref;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock};

use accelprof_mocks::cupti::MockCupti;
use cupti_sys::{CUptiResult, CuptiFunctions, Library};

/// The mock through `cupti-sys`, and its controls ([`MockCupti`], reached through `Deref`).
pub struct Mock {
    cupti: Library,
    control: MockCupti,
}

impl Deref for Mock {
    type Target = MockCupti;

    fn deref(&self) -> &MockCupti {
        &self.control
    }
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
        let path = Path::new(accelprof_mocks::cupti::LIBRARY);
        let cupti = Library::open(Some(path)).expect("the mock libcupti opens through cupti-sys");
        let control = MockCupti::open(path).expect("the mock libcupti's controls");
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

impl Mock {
    /// The CUPTI function table, as `cupti-sys` resolved it from the mock.
    pub fn f(&self) -> &CuptiFunctions {
        self.cupti.functions()
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
        self.launch_kernel(name, gx, gy, gz, bx, by, bz, shared, stream, ns)
    }

    pub fn launch_in_flight(&self, name: &CStr, stream: u64) -> u32 {
        self.launch_kernel_in_flight(name, 1, 1, 1, 32, 1, 1, 0, stream)
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
