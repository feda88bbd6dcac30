//! The mock `libmspti` ([`LIBRARY`]), the CANN stand-ins it loads ([`ASCEND_HOME`]) and its
//! `mock_mspti_*` controls ([`MockMspti`]), for what the CANN stand-ins cannot make happen: any
//! callback id, a callback stalled across an unsubscribe, records of every kind (and of unknown
//! kinds) written directly, counters. The controls are documented in full where the mock defines
//! them (`libs/mspti/control.rs`).
//!
//! Runtime work itself goes through [`crate::ascend::Acl`], as in a real program.

use std::ffi::{c_char, c_void, CString};

use crate::Result;

/// Absolute path of the mock `libmspti` built for this crate (its file name is `libmspti.so`).
pub const LIBRARY: &str = env!("ACCELPROF_MOCK_MSPTI");

/// A CANN home for the mock `libmspti`: its `lib64` holds stand-ins of the CANN libraries and the
/// NPU driver that the real `libmspti.so` loads (`libascendalog.so`, `libprofapi.so`,
/// `libc_sec.so`, `libascend_hal.so`) and of the runtime, HCCL and MSTX libraries whose calls it
/// interposes (`libascendcl.so`, `libhccl.so`, `libms_tools_ext.so`), laid out like
/// `$ASCEND_HOME_PATH/lib64`. They report to MSPTI as CANN does, so they also drive the real
/// `libmspti.so` built from source.
pub const ASCEND_HOME: &str = env!("ACCELPROF_MOCK_ASCEND_HOME");

/// A directory holding only a `libascendalog.so` that exports `CheckLogLevelForC` and nothing
/// else (what `libmspti.so` needs of the log library).
pub const ASCEND_MIN_LOG: &str = env!("ACCELPROF_MOCK_ASCEND_MIN_LOG");

/// Domain numbers of the C headers.
pub const RUNTIME: u32 = 1;
/// The HCCL domain.
pub const HCCL: u32 = 2;
/// `MSPTI_API_ENTER`.
pub const ENTER: u32 = 0;
/// `MSPTI_API_EXIT`.
pub const EXIT: u32 = 1;

/// The mock `libmspti`'s controls, on a `dlopen` handle of the mock.
///
/// Every control of the mock is a method here: those that take plain values as they are declared
/// (`libs/mspti/controls.rs`, the one declaration the mock is checked against), the others with
/// `&str`, `&[u8]` and closure arguments.
pub struct MockMspti {
    // Boxed: a wrapper stays a pointer wide in the caller's enums and structs.
    controls: Box<Controls>,
    // Declared after `controls`: the library stays loaded while the table is used.
    _lib: libloading::Library,
}

impl std::fmt::Debug for MockMspti {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockMspti").finish_non_exhaustive()
    }
}

macro_rules! mock_controls {
    ($($t:tt)*) => { wrapper_controls!(Controls, MockMspti; $($t)*); };
}

include!("../libs/mspti/controls.rs");

fn c(s: &str) -> CString {
    CString::new(s).expect("no NUL in a mock control's string")
}

/// What [`MockMspti::api_call`] hands the mock for its body: the closure, and where a panic of
/// it waits (it must not unwind through the mock's C frames) to be resumed after the call.
struct BodyCall<'a> {
    body: &'a mut dyn FnMut(),
    panic: Option<Box<dyn std::any::Any + Send>>,
}

unsafe extern "C" fn run_body(arg: *mut c_void) {
    // SAFETY: `api_call` passes a `&mut BodyCall` that lives across the call.
    let call = unsafe { &mut *arg.cast::<BodyCall<'_>>() };
    let body = &mut call.body;
    if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        call.panic = Some(panic);
    }
}

macro_rules! call {
    ($self:ident, $name:ident, fn($($ty:ty),* $(,)?) $(-> $ret:ty)?, $($arg:expr),* $(,)?) => {{
        // SAFETY: the control's declared C signature (checked against the mock's definition);
        // the strings and buffers passed live across the call.
        unsafe { ($self.controls.$name)($($arg),*) }
    }};
}

impl MockMspti {
    /// The controls of the library at `path` (the same file a loader opened: one mock state per
    /// process); [`Error::NotTheMock`](crate::Error::NotTheMock) when it has none (it is not the
    /// mock).
    pub fn open(path: impl AsRef<std::ffi::OsStr>) -> Result<MockMspti> {
        let path = path.as_ref();
        // The caller's loader already opened (and checked) it, or it is this crate's mock, whose
        // initialisers only load the CANN stand-ins.
        let lib = crate::error::open_library(path)?;
        let controls = Box::new(Controls::resolve(&lib, path)?);
        Ok(MockMspti { controls, _lib: lib })
    }

    /// Plays one API call: correlation id (launch and memory calls), ENTER, `body`, EXIT, and its
    /// ACL_API record while subscribed. Returns the thread's correlation id after it.
    pub fn api_call(&self, domain: u32, cbid: u32, name: &str, body: Option<&mut dyn FnMut()>) -> u64 {
        let name = c(name);
        match body {
            None => call!(
                self,
                api_call,
                fn(u32, u32, *const c_char, Option<unsafe extern "C" fn(*mut c_void)>, *mut c_void) -> u64,
                domain,
                cbid,
                name.as_ptr(),
                None,
                std::ptr::null_mut()
            ),
            Some(body) => {
                let mut call = BodyCall { body, panic: None };
                let arg = (&mut call as *mut BodyCall<'_>).cast::<c_void>();
                let id = call!(
                    self,
                    api_call,
                    fn(
                        u32,
                        u32,
                        *const c_char,
                        Option<unsafe extern "C" fn(*mut c_void)>,
                        *mut c_void,
                    ) -> u64,
                    domain,
                    cbid,
                    name.as_ptr(),
                    Some(run_body),
                    arg
                );
                if let Some(panic) = call.panic {
                    std::panic::resume_unwind(panic);
                }
                id
            }
        }
    }

    /// Takes the subscriber snapshot of a callback about to run, without running it (0: none).
    pub fn stall_callback(&self, domain: u32, cbid: u32, site: u32, name: &str) -> u64 {
        let name = c(name);
        call!(
            self,
            stall_callback,
            fn(u32, u32, u32, *const c_char) -> u64,
            domain,
            cbid,
            site,
            name.as_ptr()
        )
    }

    /// An API-layout record of `kind`.
    #[allow(clippy::too_many_arguments)]
    pub fn api_record(&self, kind: u32, start: u64, end: u64, pid: u32, tid: u32, corr: u64, name: &str) {
        let name = c(name);
        call!(
            self,
            api_record,
            fn(u32, u64, u64, u32, u32, u64, *const c_char),
            kind,
            start,
            end,
            pid,
            tid,
            corr,
            name.as_ptr()
        )
    }

    /// A kernel record.
    #[allow(clippy::too_many_arguments)]
    pub fn kernel(&self, start: u64, end: u64, device: u32, stream: u32, corr: u64, ty: &str, name: &str) {
        let (ty, name) = (c(ty), c(name));
        call!(
            self,
            kernel,
            fn(u64, u64, u32, u32, u64, *const c_char, *const c_char),
            start,
            end,
            device,
            stream,
            corr,
            ty.as_ptr(),
            name.as_ptr()
        )
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
        let name = c(name);
        let domain = domain.map(c);
        let d = domain.as_ref().map_or(std::ptr::null(), |d| d.as_ptr());
        call!(
            self,
            marker,
            fn(u32, u32, u64, u64, u32, u32, *const c_char, *const c_char),
            flag,
            source,
            ts,
            id,
            a,
            b,
            name.as_ptr(),
            d
        )
    }

    /// An HCCL record.
    #[allow(clippy::too_many_arguments)]
    pub fn hccl(&self, start: u64, end: u64, device: u32, stream: u32, bw: f64, name: &str, comm: &str) {
        let (name, comm) = (c(name), c(comm));
        call!(
            self,
            hccl,
            fn(u64, u64, u32, u32, f64, *const c_char, *const c_char),
            start,
            end,
            device,
            stream,
            bw,
            name.as_ptr(),
            comm.as_ptr()
        )
    }

    /// A communication record, written directly (the HCCL stand-in's collectives also give one
    /// each, built by the mock from CANN's reports as the real library builds it, while
    /// COMMUNICATION is enabled).
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
        let (alg, name, comm) = (c(alg), c(name), c(comm));
        call!(
            self,
            communication,
            fn(u32, u64, u32, u32, u64, u64, *const c_char, *const c_char, *const c_char, u64),
            data_type,
            count,
            device,
            stream,
            start,
            end,
            alg.as_ptr(),
            name.as_ptr(),
            comm.as_ptr(),
            corr
        )
    }

    /// Raw bytes written as one record, whatever the kind (a newer library's kinds).
    pub fn raw_record(&self, bytes: &[u8]) {
        call!(self, raw_record, fn(*const u8, usize), bytes.as_ptr(), bytes.len())
    }

    /// Plays the lost activity manager thread of the real library (before the first activity session).
    pub fn lose_activity_manager(&self, lost: bool) {
        call!(self, lose_activity_manager, fn(u32), u32::from(lost))
    }

    /// A counter of the mock (see `mock_mspti_counter`); panics on an unknown name.
    pub fn counter(&self, name: &str) -> u64 {
        let n = c(name);
        let v = call!(self, counter, fn(*const c_char) -> u64, n.as_ptr());
        assert_ne!(v, u64::MAX, "unknown mock counter {name}");
        v
    }
}

/// Set in the environment of a test binary that [`Preloaded::run`] restarts: the name of the one
/// test it runs there, with the library preloaded.
pub const PRELOADED_TEST_VAR: &str = "ACCELPROF_MOCKS_PRELOADED_TEST";

/// Runs the calling `#[test]`'s `body` with the mock `libmspti.so` preloaded, as an MSPTI program
/// is started (MSPTI delivers runtime and HCCL callbacks only to a preloaded library: they reach
/// it by interposition). The same as [`Preloaded::new`]`().run(body)`: see [`Preloaded::run`].
///
/// ```no_run
/// #[test]
/// fn my_tool_sees_a_launch() {
///     accelprof_mocks::mspti::run_preloaded(|| {
///         // Here libmspti.so (the mock) is preloaded, CANN's stand-ins at ASCEND_HOME_PATH:
///         // open MSPTI as the tool does, play the program with accelprof_mocks::ascend::Acl.
///     });
/// }
/// ```
pub fn run_preloaded(body: impl FnOnce()) {
    Preloaded::new().run(body)
}

/// Whether this process is a test binary restarted by [`Preloaded::run`] for one test.
pub fn in_preloaded_test() -> bool {
    std::env::var_os(PRELOADED_TEST_VAR).is_some()
}

/// How [`Preloaded::run`] starts the test again: which `libmspti.so` is preloaded, which CANN
/// home is given, what else is set in the environment, and the test's name.
#[derive(Debug, Clone)]
pub struct Preloaded {
    library: std::path::PathBuf,
    ascend_home: std::path::PathBuf,
    env: Vec<(std::ffi::OsString, Option<std::ffi::OsString>)>,
    test: Option<String>,
}

impl Default for Preloaded {
    fn default() -> Preloaded {
        Preloaded::new()
    }
}

impl Preloaded {
    /// The mock ([`LIBRARY`]) with the CANN stand-ins ([`ASCEND_HOME`]).
    pub fn new() -> Preloaded {
        Preloaded { library: LIBRARY.into(), ascend_home: ASCEND_HOME.into(), env: Vec::new(), test: None }
    }

    /// Another `libmspti.so` (the real one built from source, say).
    pub fn library(mut self, path: impl Into<std::path::PathBuf>) -> Preloaded {
        self.library = path.into();
        self
    }

    /// Another CANN home (its `lib64` holds the libraries `libmspti.so` loads).
    pub fn ascend_home(mut self, path: impl Into<std::path::PathBuf>) -> Preloaded {
        self.ascend_home = path.into();
        self
    }

    /// `name=value` in the restarted test's environment.
    pub fn env(
        mut self,
        name: impl Into<std::ffi::OsString>,
        value: impl Into<std::ffi::OsString>,
    ) -> Preloaded {
        self.env.push((name.into(), Some(value.into())));
        self
    }

    /// `name` removed from the restarted test's environment.
    pub fn env_remove(mut self, name: impl Into<std::ffi::OsString>) -> Preloaded {
        self.env.push((name.into(), None));
        self
    }

    /// The test's full name (`module::test`), where it cannot be had from the test's thread (the
    /// test harness names each test's thread after the test; a test that runs `body` on another
    /// thread names itself).
    pub fn test_name(mut self, name: impl Into<String>) -> Preloaded {
        self.test = Some(name.into());
        self
    }

    /// Runs `body` in a child process: this test binary started again with the library in
    /// `LD_PRELOAD`, `ASCEND_HOME_PATH` set, its `lib64` first on `LD_LIBRARY_PATH`, and the
    /// arguments `<this test> --exact --include-ignored`: only this test runs there, once, and
    /// calls `body`. Here (the parent) it returns when the child passed, and panics with the
    /// child's output when it failed, so the test's result is the child's. The child's output is
    /// printed here too (the harness shows it for a failed test, or with `--nocapture`).
    ///
    /// Unlike `mspti::preload::reexec_with_preload`, which restarts the whole program with its
    /// own arguments (in a test binary: every test it was asked to run, again), nothing else of
    /// the test binary runs twice.
    ///
    /// # Panics
    /// When the child fails, cannot be started, or did not run exactly this test (a test name
    /// the harness does not know: see [`Preloaded::test_name`]); when called outside a test with
    /// no [`Preloaded::test_name`].
    pub fn run(self, body: impl FnOnce()) {
        let name = match self.test.clone() {
            Some(name) => name,
            None => match std::thread::current().name() {
                Some(name) if name != "main" => name.to_string(),
                _ => panic!(
                    "accelprof_mocks::mspti::Preloaded::run: not on a test's thread (the harness names \
                     it after the test): give the test's name with test_name"
                ),
            },
        };
        if std::env::var_os(PRELOADED_TEST_VAR).is_some_and(|v| v == name.as_str()) {
            assert!(
                crate::ascend::in_global_scope(c"msptiSubscribe"),
                "{name}: restarted with {} in LD_PRELOAD, but MSPTI is not in the global symbol scope",
                self.library.display()
            );
            body();
            return;
        }
        let out = self.command(&name).output().unwrap_or_else(|e| panic!("{name}: starting the child: {e}"));
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        print!("{stdout}");
        eprint!("{stderr}");
        let ran_one = stdout.lines().any(|l| l.starts_with("test result: ") && l.contains(" 1 passed;"));
        assert!(
            out.status.success() && ran_one,
            "{name}: the test, run with {} preloaded, failed ({}):\n{stdout}\n{stderr}",
            self.library.display(),
            out.status
        );
    }

    fn command(&self, name: &str) -> std::process::Command {
        use std::ffi::OsString;
        let exe = std::env::current_exe().expect("the test binary's path");
        let mut cmd = std::process::Command::new(exe);
        cmd.args([name, "--exact", "--include-ignored", "--nocapture", "--test-threads=1"]);
        let mut preload = OsString::from(self.library.as_os_str());
        if let Some(old) = std::env::var_os("LD_PRELOAD").filter(|o| !o.is_empty()) {
            preload.push(":");
            preload.push(old);
        }
        let mut ld_path = OsString::from(self.ascend_home.join("lib64").as_os_str());
        if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|o| !o.is_empty()) {
            ld_path.push(":");
            ld_path.push(old);
        }
        cmd.env(PRELOADED_TEST_VAR, name)
            .env("LD_PRELOAD", preload)
            .env("ASCEND_HOME_PATH", &self.ascend_home)
            .env("LD_LIBRARY_PATH", ld_path);
        for (k, v) in &self.env {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        cmd
    }
}

/// The lock of the mock `libmspti`: one mock state per process, so tests that drive it take this
/// first (and then `reset` it). A test that panicked while holding it does not poison it for the
/// others.
pub fn lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
