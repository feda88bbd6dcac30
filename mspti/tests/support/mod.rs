//! Shared by the mspti tests: each test runs in a child process started the way a user starts
//! an MSPTI program (`libmspti.so` in `LD_PRELOAD`, CANN at `ASCEND_HOME_PATH` and on
//! `LD_LIBRARY_PATH`), the library opened through the safe crate's loader, the runtime driven
//! through the global symbol scope ([`accelprof_mocks::ascend::Acl`]), and the mock's controls.
//!
//! By default the library is the mock built for this checkout with its CANN stand-ins. Set
//! `MSPTI_TEST_LIBRARY=<libmspti.so>` (and `MSPTI_TEST_ASCEND_HOME=<dir whose lib64 holds the CANN
//! libraries>`) to run the same tests against another `libmspti.so`, the real one built from
//! source for example: the build script then sets `cfg(mspti_test_another_library)`, under which
//! the tests that need the mock's controls are `#[ignore]`d with that reason (a test that calls
//! [`mock`] against another library without being marked fails: nothing passes unrun).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};

use accelprof_mocks::ascend::Acl;
use accelprof_mocks::mspti::{MockMspti, Preloaded};
use accelprof_mocks::mspti::{ASCEND_HOME as MOCK_ASCEND_HOME, LIBRARY as MOCK_MSPTI};

#[allow(unused_imports)]
pub use accelprof_mocks::mspti::{ENTER, EXIT, HCCL, RUNTIME};

/// Set in the environment of a child started by [`preloaded`] or [`run_child`].
pub const CHILD: &str = "MSPTI_TEST_CHILD";
/// Why a test that needs the mock's controls fails against another library.
const NEEDS_MOCK: &str = "this test needs the mock's mock_mspti_* controls: mark it \
     #[cfg_attr(mspti_test_another_library, ignore = \"needs the mock's mock_mspti_* controls\")]";

/// The `libmspti.so` under test.
pub fn library() -> String {
    std::env::var("MSPTI_TEST_LIBRARY").unwrap_or_else(|_| MOCK_MSPTI.to_string())
}

/// The CANN home under test (its `lib64` holds the CANN libraries).
pub fn ascend_home() -> String {
    std::env::var("MSPTI_TEST_ASCEND_HOME").unwrap_or_else(|_| MOCK_ASCEND_HOME.to_string())
}

/// Whether the library under test is another than the mock.
pub fn testing_another_library() -> bool {
    std::env::var_os("MSPTI_TEST_LIBRARY").is_some()
}

/// True inside a child started by [`preloaded`] or [`run_child`].
pub fn in_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

fn output_text(out: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// How a test's body is run in a child process started as a user starts an MSPTI program: the
/// test kit's [`Preloaded`] (this test binary started again for the one test, the library under
/// test in `LD_PRELOAD`, its CANN home at `ASCEND_HOME_PATH` and on `LD_LIBRARY_PATH`), with
/// [`CHILD`] set there.
pub fn preloaded() -> Preloaded {
    Preloaded::new().library(library()).ascend_home(ascend_home()).env(CHILD, "1")
}

fn child_command(name: &str, ignored: bool) -> Command {
    let exe = std::env::current_exe().expect("test binary path");
    let mut cmd = Command::new(exe);
    cmd.args([name, "--exact", "--nocapture", "--test-threads=1"]).env(CHILD, "1");
    if ignored {
        cmd.arg("--ignored");
    }
    cmd.env_remove("LD_PRELOAD");
    cmd
}

/// Runs the `#[ignore]`d test `name` of this test binary in a child process, nothing preloaded,
/// with `env` set (`Some`) or removed (`None`) on top of this process's environment.
pub fn run_child(name: &str, env: &[(&str, Option<&str>)]) -> Output {
    let mut cmd = child_command(name, true);
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
    let text = output_text(out);
    assert!(out.status.success() && text.contains("1 passed"), "child failed:\n{text}");
}

/// A session config that enables no kind at start (the tests enable theirs one by one).
#[allow(dead_code)]
pub fn no_kinds() -> mspti::ActivityConfig {
    mspti::ActivityConfig {
        kinds: mspti::ActivityKinds::empty(),
        enable_later: true,
        ..mspti::ActivityConfig::default()
    }
}

/// The library under test, opened through the safe crate's loader (in a preloaded child: the
/// preloaded copy, "already loaded in this process").
pub fn mspti() -> &'static mspti::Mspti {
    static M: OnceLock<mspti::Mspti> = OnceLock::new();
    M.get_or_init(|| mspti::Mspti::open().expect("open libmspti.so"))
}

/// The mock's controls, if the library under test is the mock.
pub fn mock_if_any() -> Option<&'static MockMspti> {
    static M: OnceLock<Option<MockMspti>> = OnceLock::new();
    M.get_or_init(|| {
        let _ = mspti();
        MockMspti::open(library()).ok()
    })
    .as_ref()
}

/// The mock's controls. Against another library this fails the test (which should have been
/// ignored there).
pub fn mock() -> &'static MockMspti {
    match mock_if_any() {
        Some(m) => m,
        None => panic!("{NEEDS_MOCK}"),
    }
}

/// The runtime through the global symbol scope, `aclInit` done.
pub fn acl() -> &'static Acl {
    static A: OnceLock<Acl> = OnceLock::new();
    A.get_or_init(|| {
        let acl = Acl::load().expect("load the ACL runtime");
        acl.init().expect("aclInit");
        acl
    })
}

/// What [`call`] uses against another library, made before a test subscribes (so that making it
/// fires no callback): a stream, a kernel, a one-rank communicator and a 64-byte device buffer.
pub struct Fixture {
    pub stream: accelprof_mocks::ascend::Handle,
    pub kernel: accelprof_mocks::ascend::Handle,
    pub comm: Option<(accelprof_mocks::ascend::Handle, accelprof_mocks::ascend::Handle)>,
}

/// The [`Fixture`], made on first use (on device 0, set on the calling thread): a test that drives
/// the runtime itself on the mock too takes it before it subscribes.
pub fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let acl = acl();
        acl.set_device(0).expect("aclrtSetDevice");
        let stream = acl.create_stream().expect("aclrtCreateStream");
        let kernel = acl.kernel("kernels.o", "guide_kernel").expect("a kernel");
        let comm = acl.has_hccl().then(|| {
            let buf = acl.malloc(64).expect("aclrtMalloc");
            (acl.communicator().expect("a one-rank communicator"), buf)
        });
        Fixture { stream, kernel, comm }
    })
}

/// One API call as the program makes it: on the mock, its control plays MSPTI's interposed
/// function (`mock_mspti_api_call`); against another library, the real call through the CANN
/// runtime (`aclrtSetDevice` 1, `aclrtSynchronizeStream` 9, `aclrtLaunchKernel` 10, `aclrtMalloc`
/// 15, `HcclAllReduce` 1, `HcclBarrier` 8), which MSPTI's interposed function reports.
pub fn call(domain: u32, cbid: u32, name: &str) {
    if let Some(m) = mock_if_any() {
        m.api_call(domain, cbid, name, None);
        return;
    }
    let (acl, f) = (acl(), fixture());
    match (domain, cbid) {
        (RUNTIME, 1) => acl.set_device(0).expect("aclrtSetDevice"),
        (RUNTIME, 9) => acl.synchronize_stream(f.stream).expect("aclrtSynchronizeStream"),
        (RUNTIME, 10) => acl.launch(f.kernel, 1, f.stream).expect("aclrtLaunchKernel"),
        (RUNTIME, 15) => drop(acl.malloc(64).expect("aclrtMalloc")),
        (HCCL, 1 | 8) => {
            let (comm, buf) = f.comm.expect("libhccl.so is installed");
            if cbid == 1 {
                acl.all_reduce(buf, buf, 4, comm, f.stream).expect("HcclAllReduce");
            } else {
                acl.barrier(comm, f.stream).expect("HcclBarrier");
            }
        }
        _ => panic!("no real call for {name} ({domain}/{cbid}) here: a test that needs it is for the mock"),
    }
}

static SERIAL: Mutex<()> = Mutex::new(());

/// One test at a time in a process (MSPTI has one subscriber, one set of buffer callbacks), the
/// mock reset to a freshly loaded state.
pub fn serial() -> MutexGuard<'static, ()> {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    match mock_if_any() {
        Some(m) => m.reset(),
        None if in_child() => drop(fixture()),
        None => {}
    }
    guard
}

/// Polls `cond` until it holds or `secs` pass; whether it held.
pub fn wait_for(secs: u64, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while !cond() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    true
}

/// `#[test] fn name() { body }` whose body runs in a preloaded child ([`preloaded`]).
#[allow(unused_macros)]
macro_rules! preloaded_test {
    ($(#[$meta:meta])* fn $name:ident() $body:block) => {
        $(#[$meta])*
        #[test]
        fn $name() {
            crate::support::preloaded().run(|| $body);
        }
    };
}

/// A CANN home whose `lib64` holds the stand-ins except `without` (and, instead of the log
/// library, `log` when given).
pub fn cann_home_without(name: &str, without: &[&str], log: Option<&Path>) -> PathBuf {
    let root = std::env::temp_dir().join(format!("mspti-cann-{name}-{}", std::process::id()));
    let lib64 = root.join("lib64");
    std::fs::create_dir_all(&lib64).expect("mkdir");
    for entry in std::fs::read_dir(Path::new(&ascend_home()).join("lib64")).expect("the stand-ins") {
        let entry = entry.expect("an entry");
        let file = entry.file_name().to_string_lossy().into_owned();
        if without.contains(&file.as_str()) || (log.is_some() && file == "libascendalog.so") {
            continue;
        }
        std::fs::copy(entry.path(), lib64.join(&file)).expect("copy");
    }
    if let Some(log) = log {
        std::fs::copy(log, lib64.join("libascendalog.so")).expect("copy");
    }
    root
}
