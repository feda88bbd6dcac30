//! Shared by the `mspti_*` tests: opening the mock MSPTI as a user's program opens the real one,
//! its `mock_mspti_*` controls (resolved with libloading), one-test-at-a-time locking (MSPTI's
//! state is process-wide), and running a test body in a child process with its own environment.
#![allow(dead_code)]

use std::ffi::{c_char, c_void, CString};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, Once, OnceLock};

use accel_profiling::{MOCK_ASCEND_HOME, MOCK_MSPTI};

/// Set in the environment of a child started by [`run_child`].
pub const CHILD: &str = "MSPTI_TEST_CHILD";

static ENV: Once = Once::new();

/// The environment a process using MSPTI has: CANN at `ASCEND_HOME_PATH` (the mock's stand-ins)
/// and `libmspti.so` named in `LD_PRELOAD`.
///
/// The real library gets its callbacks by being preloaded, and refuses to enable them unless
/// `LD_PRELOAD` names it; the mock makes the same check, reading the variable the same way
/// (once). The test process sets the variable before the library is first used, which is what
/// the check sees; no test here relies on actual interposition. Tests that need the variable
/// absent run in a child process ([`run_child`]). Set once, before any test opens the library.
pub fn environment() {
    ENV.call_once(|| {
        std::env::set_var("ASCEND_HOME_PATH", MOCK_ASCEND_HOME);
        if std::env::var_os(CHILD).is_none() {
            std::env::set_var("LD_PRELOAD", MOCK_MSPTI);
        }
    });
}

static SERIAL: Mutex<()> = Mutex::new(());

/// Serializes the tests of one file (the library has one subscriber, one set of buffer
/// callbacks) and resets the mock to a freshly loaded state.
pub fn serial() -> MutexGuard<'static, ()> {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    mock().reset();
    guard
}

/// The mock opened through the safe crate's loader, with an explicit path.
pub fn mspti() -> &'static mspti::Mspti {
    static M: OnceLock<mspti::Mspti> = OnceLock::new();
    M.get_or_init(|| {
        environment();
        mspti::Mspti::open_path(MOCK_MSPTI).expect("open the mock libmspti.so")
    })
}

/// The mock's control interface.
pub fn mock() -> &'static Mock {
    static M: OnceLock<Mock> = OnceLock::new();
    M.get_or_init(|| {
        environment();
        // SAFETY: the mock is a Rust cdylib whose constructor only checks for the CANN
        // stand-ins, which `environment` points at.
        let lib = unsafe { libloading::Library::new(MOCK_MSPTI) }.expect("dlopen the mock");
        Mock { lib: Box::leak(Box::new(lib)) }
    })
}

/// Runs the `#[ignore]`d test `name` of this test binary in a child process, with `env` set
/// (`Some`) or removed (`None`) on top of this process's environment.
pub fn run_child(name: &str, env: &[(&str, Option<&str>)]) -> Output {
    let exe = std::env::current_exe().expect("test binary path");
    let mut cmd = Command::new(exe);
    cmd.args([name, "--exact", "--ignored", "--nocapture", "--test-threads=1"]).env(CHILD, "1");
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd.output().expect("run the child test")
}

/// Asserts the child ran its one test and it passed.
pub fn assert_child_passed(out: &Output) {
    let text = format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && text.contains("1 passed"), "child failed:\n{text}");
}

/// True inside a child started by [`run_child`]; a child-only test returns early otherwise.
pub fn in_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

/// The `mock_mspti_*` controls.
pub struct Mock {
    lib: &'static libloading::Library,
}

fn cstr(s: &str) -> CString {
    CString::new(s).expect("no NUL")
}

unsafe extern "C" fn run_body(arg: *mut c_void) {
    // SAFETY: `api_call` passes a `&mut &mut dyn FnMut()` that lives across the call.
    let f = unsafe { &mut *arg.cast::<&mut dyn FnMut()>() };
    f();
}

macro_rules! sym {
    ($self:ident, $name:literal, $ty:ty) => {{
        let name = concat!($name, "\0").as_bytes();
        // SAFETY: the mock exports this control with this signature.
        let s: libloading::Symbol<$ty> = unsafe { $self.lib.get(name) }.expect($name);
        *s
    }};
}

type Body = Option<unsafe extern "C" fn(*mut c_void)>;

impl Mock {
    /// Back to a freshly loaded library (the `LD_PRELOAD` answers stay cached).
    pub fn reset(&self) {
        let f = sym!(self, "mock_mspti_reset", extern "C" fn());
        f()
    }

    /// Plays one API call: ENTER, `body`, EXIT, and its API record. Returns its correlation id.
    pub fn api_call(&self, domain: u32, cbid: u32, name: &str, body: Option<&mut dyn FnMut()>) -> u64 {
        let f = sym!(
            self,
            "mock_mspti_api_call",
            unsafe extern "C" fn(u32, u32, *const c_char, Body, *mut c_void) -> u64
        );
        let name = cstr(name);
        match body {
            // SAFETY: no body; the name lives across the call.
            None => unsafe { f(domain, cbid, name.as_ptr(), None, std::ptr::null_mut()) },
            Some(mut body) => {
                let arg = (&mut body as *mut &mut dyn FnMut()).cast::<c_void>();
                // SAFETY: `run_body` reads `arg` as the `&mut dyn FnMut()` it is.
                unsafe { f(domain, cbid, name.as_ptr(), Some(run_body), arg) }
            }
        }
    }

    /// The correlation id of the innermost API call being played on this thread.
    pub fn current_correlation(&self) -> u64 {
        sym!(self, "mock_mspti_current_correlation", extern "C" fn() -> u64)()
    }

    /// Takes the subscriber snapshot of a callback about to run, without running it (0: none).
    pub fn stall_callback(&self, domain: u32, cbid: u32, site: u32, name: &str) -> u64 {
        let f = sym!(self, "mock_mspti_stall_callback", extern "C" fn(u32, u32, u32, *const c_char) -> u64);
        let name = cstr(name);
        f(domain, cbid, site, name.as_ptr())
    }

    /// Runs a stalled callback now (1 if it existed).
    pub fn release_stalled(&self, token: u64) -> u32 {
        sym!(self, "mock_mspti_release_stalled", extern "C" fn(u64) -> u32)(token)
    }

    /// An API-layout record of `kind`.
    #[allow(clippy::too_many_arguments)]
    pub fn api_record(&self, kind: u32, start: u64, end: u64, pid: u32, tid: u32, corr: u64, name: &str) {
        let f =
            sym!(self, "mock_mspti_api_record", extern "C" fn(u32, u64, u64, u32, u32, u64, *const c_char));
        let name = cstr(name);
        f(kind, start, end, pid, tid, corr, name.as_ptr())
    }

    /// A kernel record.
    #[allow(clippy::too_many_arguments)]
    pub fn kernel(&self, start: u64, end: u64, device: u32, stream: u32, corr: u64, ty: &str, name: &str) {
        let f = sym!(
            self,
            "mock_mspti_kernel",
            extern "C" fn(u64, u64, u32, u32, u64, *const c_char, *const c_char)
        );
        let (ty, name) = (cstr(ty), cstr(name));
        f(start, end, device, stream, corr, ty.as_ptr(), name.as_ptr())
    }

    /// A marker record (`a`/`b`: pid/tid for host markers, device/stream for device ones).
    #[allow(clippy::too_many_arguments)]
    pub fn marker(
        &self,
        flag: u32,
        source: u32,
        ts: u64,
        id: u64,
        a: u32,
        b: u32,
        name: &str,
        domain: Option<&str>,
    ) {
        let f = sym!(
            self,
            "mock_mspti_marker",
            extern "C" fn(u32, u32, u64, u64, u32, u32, *const c_char, *const c_char)
        );
        let name = cstr(name);
        let domain = domain.map(cstr);
        f(flag, source, ts, id, a, b, name.as_ptr(), domain.as_ref().map_or(std::ptr::null(), |d| d.as_ptr()))
    }

    /// MSTX's `mstxMarkA` stand-in.
    pub fn mstx_mark(&self, message: &str) {
        let f = sym!(self, "mstxMarkA", extern "C" fn(*const c_char, *mut c_void));
        let m = cstr(message);
        f(m.as_ptr(), std::ptr::null_mut())
    }

    /// An HCCL record.
    #[allow(clippy::too_many_arguments)]
    pub fn hccl(&self, start: u64, end: u64, device: u32, stream: u32, bw: f64, name: &str, comm: &str) {
        let f = sym!(
            self,
            "mock_mspti_hccl",
            extern "C" fn(u64, u64, u32, u32, f64, *const c_char, *const c_char)
        );
        let (name, comm) = (cstr(name), cstr(comm));
        f(start, end, device, stream, bw, name.as_ptr(), comm.as_ptr())
    }

    /// A memory record.
    #[allow(clippy::too_many_arguments)]
    pub fn memory(
        &self,
        op: u32,
        kind: u32,
        corr: u64,
        start: u64,
        end: u64,
        address: u64,
        bytes: u64,
        pid: u32,
        device: u32,
        stream: u32,
    ) {
        let f =
            sym!(self, "mock_mspti_memory", extern "C" fn(u32, u32, u64, u64, u64, u64, u64, u32, u32, u32));
        f(op, kind, corr, start, end, address, bytes, pid, device, stream)
    }

    /// A memset record.
    #[allow(clippy::too_many_arguments)]
    pub fn memset(
        &self,
        value: u32,
        bytes: u64,
        start: u64,
        end: u64,
        device: u32,
        stream: u32,
        corr: u64,
        is_async: u8,
    ) {
        let f = sym!(self, "mock_mspti_memset", extern "C" fn(u32, u64, u64, u64, u32, u32, u64, u8));
        f(value, bytes, start, end, device, stream, corr, is_async)
    }

    /// A memcpy record.
    #[allow(clippy::too_many_arguments)]
    pub fn memcpy(
        &self,
        kind: u32,
        bytes: u64,
        start: u64,
        end: u64,
        device: u32,
        stream: u32,
        corr: u64,
        is_async: u8,
    ) {
        let f = sym!(self, "mock_mspti_memcpy", extern "C" fn(u32, u64, u64, u64, u32, u32, u64, u8));
        f(kind, bytes, start, end, device, stream, corr, is_async)
    }

    /// A communication record.
    #[allow(clippy::too_many_arguments)]
    pub fn communication(
        &self,
        data_type: u32,
        count: u64,
        device: u32,
        stream: u32,
        start: u64,
        end: u64,
        alg: &str,
        name: &str,
        comm: &str,
        corr: u64,
    ) {
        let f = sym!(
            self,
            "mock_mspti_communication",
            extern "C" fn(u32, u64, u32, u32, u64, u64, *const c_char, *const c_char, *const c_char, u64)
        );
        let (alg, name, comm) = (cstr(alg), cstr(name), cstr(comm));
        f(data_type, count, device, stream, start, end, alg.as_ptr(), name.as_ptr(), comm.as_ptr(), corr)
    }

    /// Raw bytes written as one record, whatever the kind (a newer library's kinds).
    pub fn raw_record(&self, bytes: &[u8]) {
        let f = sym!(self, "mock_mspti_raw_record", unsafe extern "C" fn(*const u8, usize));
        // SAFETY: a live slice.
        unsafe { f(bytes.as_ptr(), bytes.len()) }
    }

    /// Delays each buffer completion (widens races).
    pub fn set_completion_delay_us(&self, us: u64) {
        sym!(self, "mock_mspti_set_completion_delay_us", extern "C" fn(u64))(us)
    }

    /// A counter of the mock (see `mock_mspti_counter`).
    pub fn counter(&self, name: &str) -> u64 {
        let f = sym!(self, "mock_mspti_counter", unsafe extern "C" fn(*const c_char) -> u64);
        let n = cstr(name);
        // SAFETY: a NUL-terminated name.
        let v = unsafe { f(n.as_ptr()) };
        assert_ne!(v, u64::MAX, "unknown mock counter {name}");
        v
    }
}

/// Domain and site numbers as the C headers have them.
pub const RUNTIME: u32 = 1;
pub const HCCL: u32 = 2;
pub const ENTER: u32 = 0;
pub const EXIT: u32 = 1;
