//! The test kit as a user's tests meet it: a test body run with the mock `libmspti.so` preloaded
//! (once, alone), the one error of every `open`, the typed controls.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use accelprof_mocks::cupti::MockCupti;
use accelprof_mocks::mspti::{run_preloaded, MockMspti};
use accelprof_mocks::rocprofiler::MockRocprofiler;
use accelprof_mocks::{ascend, Error};

/// Where the probes below write one line per run of their body (set by the test that runs them).
const LOG_VAR: &str = "KIT_TEST_LOG";

fn log(what: &str) {
    let Some(path) = std::env::var_os(LOG_VAR) else { return };
    let preloaded = ascend::in_global_scope(c"msptiSubscribe");
    let mut f = std::fs::OpenOptions::new().append(true).open(path).expect("the log, created by the parent");
    writeln!(f, "{what} pid={} preloaded={preloaded}", std::process::id()).expect("write the log");
}

#[test]
#[ignore = "a probe run by a_preloaded_test_runs_once_and_nothing_else_runs_again"]
fn probe_a_plain_test() {
    log("plain");
}

#[test]
#[ignore = "a probe run by a_preloaded_test_runs_once_and_nothing_else_runs_again"]
fn probe_b_preloaded_test() {
    run_preloaded(|| log("preloaded"));
}

/// `run_preloaded` restarts the test binary for its own test only: the other tests of the run
/// (here the plain probe, run before it) do not run a second time, and the body runs once, in a
/// process where MSPTI is preloaded. (`mspti::preload::reexec_with_preload` in a test restarts the
/// binary with its arguments: the plain probe ran twice.)
#[test]
fn a_preloaded_test_runs_once_and_nothing_else_runs_again() {
    let dir = std::env::temp_dir().join(format!("accelprof-mocks-kit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path: PathBuf = dir.join("runs.log");
    std::fs::File::create(&path).expect("the log");
    let out = Command::new(std::env::current_exe().expect("this test binary"))
        .args(["probe_", "--include-ignored", "--test-threads=1"])
        .env(LOG_VAR, &path)
        .env_remove("LD_PRELOAD")
        .env_remove(accelprof_mocks::mspti::PRELOADED_TEST_VAR)
        .output()
        .expect("run the probes");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the probes failed:\n{text}");
    let runs = std::fs::read_to_string(&path).expect("the log");
    let _ = std::fs::remove_dir_all(&dir);
    let lines: Vec<&str> = runs.lines().collect();
    assert_eq!(lines.len(), 2, "each probe's body ran once:\n{runs}\n{text}");
    assert!(lines[0].starts_with("plain ") && lines[0].ends_with("preloaded=false"), "{runs}");
    assert!(lines[1].starts_with("preloaded ") && lines[1].ends_with("preloaded=true"), "{runs}");
    let pid = |l: &str| l.split_whitespace().nth(1).map(str::to_owned);
    assert_ne!(pid(lines[0]), pid(lines[1]), "the preloaded body ran in a child: {runs}");
    assert!(text.contains("test result: ok. 2 passed"), "{text}");
}

/// A panic in a played call's body reaches the test as a panic (the mock's C frames are not
/// unwound through: it is caught in the body's trampoline and resumed after the call), and the
/// mock plays the next call.
#[test]
fn a_panicking_body_of_a_played_mspti_call_is_a_panic_of_the_test() {
    run_preloaded(|| {
        let mock = MockMspti::open(accelprof_mocks::mspti::LIBRARY).expect("the preloaded mock's controls");
        mock.reset();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            mock.api_call(
                accelprof_mocks::mspti::RUNTIME,
                10,
                "aclrtLaunchKernel",
                Some(&mut || panic!("in the body")),
            )
        }));
        let message = caught.expect_err("the body's panic").downcast::<&str>().map(|m| *m);
        assert_eq!(message.ok(), Some("in the body"));
        let mut ran = false;
        mock.api_call(accelprof_mocks::mspti::RUNTIME, 10, "aclrtLaunchKernel", Some(&mut || ran = true));
        assert!(ran, "the next played call runs its body");
    });
}

#[test]
fn every_open_says_why_it_failed_with_the_one_error() {
    // A library that loads but is another vendor's mock: not this vendor's mock.
    let err = MockCupti::open(accelprof_mocks::rocprofiler::LIBRARY).expect_err("not the CUPTI mock");
    assert!(matches!(err, Error::NotTheMock { control: "mock_cupti_reset", .. }), "{err:?}");
    let err = MockRocprofiler::open(accelprof_mocks::cupti::LIBRARY).expect_err("not the rocprofiler mock");
    assert!(matches!(err, Error::NotTheMock { control: "mock_rocprofiler_reset", .. }), "{err:?}");
    let err = MockMspti::open(accelprof_mocks::cupti::LIBRARY).expect_err("not the MSPTI mock");
    assert!(matches!(err, Error::NotTheMock { control: "mock_mspti_reset", .. }), "{err:?}");
    let err =
        accelprof_mocks::cuda::MockCuda::open(accelprof_mocks::cupti::LIBRARY).expect_err("not the driver");
    assert!(matches!(err, Error::NotTheMock { control: "cuInit", .. }), "{err:?}");
    // A file that is not there.
    let err = MockCupti::open("/nonexistent/libcupti.so").expect_err("no such file");
    assert!(matches!(&err, Error::Open { path, .. } if path.ends_with("libcupti.so")), "{err:?}");
    assert!(err.to_string().contains("/nonexistent/libcupti.so"), "{err}");
    // The runtime's library nowhere the loader looks (no CANN here, no ASCEND_HOME_PATH).
    if std::env::var_os("ASCEND_HOME_PATH").is_none() && !ascend::in_global_scope(c"aclInit") {
        let err = ascend::Acl::load().expect_err("no libascendcl.so on this machine");
        assert!(matches!(err, Error::Open { .. }), "{err:?}");
    }
}

#[test]
fn the_cupti_api_call_handle_ends_only_on_its_thread_and_only_once() {
    let _lock = accelprof_mocks::cupti::lock();
    let mock = MockCupti::open(accelprof_mocks::cupti::LIBRARY).expect("the mock's controls");
    mock.reset();
    let call = mock.api_enter(2, 3, None).expect("a runtime call");
    let call = std::thread::scope(|s| s.spawn(|| mock.api_exit(call, 0)).join().expect("no panic"))
        .expect_err("another thread's exit is refused, the call given back");
    let correlation = mock.api_exit(call, 0).expect("ended on its own thread");
    assert_ne!(correlation, 0);
    assert!(mock.api_enter(7, 3, None).is_none(), "no such domain");
}

/// `run_mocked` hands the body a reset mock under its lock, returns the body's result, and refuses
/// to nest (the inner call would wait forever for the lock the outer body holds).
#[test]
fn run_mocked_resets_returns_the_bodys_result_and_refuses_to_nest() {
    use accelprof_mocks::rocprofiler::run_mocked;
    let clients = run_mocked(|mock| {
        assert_eq!(mock.load_tools().0, 0, "a fresh mock runs its window");
        mock.client_count()
    });
    assert_eq!(clients, 0);
    run_mocked(|mock| assert_eq!(mock.load_tools().0, 0, "reset again: the window runs again"));
    let nested = std::panic::catch_unwind(|| run_mocked(|_| run_mocked(|_| ())));
    let payload = nested.expect_err("refused");
    let message = payload.downcast_ref::<&str>().copied().unwrap_or_default();
    assert!(message.contains("inside another run_mocked"), "{message}");
    run_mocked(|_| ()); // the lock was released by the panicking body
}
