//! Shared by the rocprofiler test files: the mock's `mock_rocprofiler_*` controls, one test at a
//! time against the mock's process-wide state, and running a test body in a fresh process.

#![allow(dead_code)]

use std::sync::{Mutex, MutexGuard, OnceLock};

use rocprofiler_sys::Library;

pub use accelprof_mocks::rocprofiler::MockRocprofiler as Controls;

/// Set (to anything) in a test's fresh process to play a released SDK: the mock without
/// `rocprofiler_dispatch_counting_service_set_agents`.
pub const MAINLINE_VAR: &str = "ROCPROFILER_TEST_MAINLINE";

/// The mock library this process uses: [`accelprof_mocks::rocprofiler::LIBRARY`], or its mainline
/// build when [`MAINLINE_VAR`] is set.
pub fn mock_path() -> &'static str {
    if std::env::var_os(MAINLINE_VAR).is_some() {
        accelprof_mocks::rocprofiler::LIBRARY_MAINLINE
    } else {
        accelprof_mocks::rocprofiler::LIBRARY
    }
}

/// The mock, opened through `rocprofiler-sys` exactly as a program opens the real SDK, and its
/// controls (a second handle of the same file: one mock state).
pub fn mock() -> &'static (Library, Controls) {
    static MOCK: OnceLock<(Library, Controls)> = OnceLock::new();
    MOCK.get_or_init(|| {
        let lib =
            Library::open(Some(std::path::Path::new(mock_path()))).expect("open the mock librocprofiler-sdk");
        (lib, Controls::open(mock_path()).expect("the mock rocprofiler-sdk's controls"))
    })
}

/// The mock's state is process-wide: tests take this lock and reset the mock first.
pub fn exclusive() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    mock().1.reset();
    guard
}

/// The mock's controls.
pub fn ctl() -> &'static Controls {
    &mock().1
}

/// Handle of GPU `i` of the mock.
pub fn gpu(i: u32) -> u64 {
    mock().1.gpu_agent(i)
}

/// Handle of the mock's CPU agent.
pub fn cpu() -> u64 {
    mock().1.cpu_agent()
}

const CHILD_VAR: &str = "ROCPROFILER_TEST_CHILD";

/// Runs the calling test again in a new process (so that nothing is loaded yet), with `env`.
/// Returns true in that child, where the test body should run; in the parent it waits for the
/// child and fails the test if the child failed.
pub fn in_fresh_process(test: &str, env: &[(&str, Option<&str>)]) -> bool {
    if std::env::var_os(CHILD_VAR).is_some() {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = std::process::Command::new(exe);
    cmd.args([test, "--exact", "--nocapture", "--test-threads=1"]).env(CHILD_VAR, "1");
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().expect("run the test binary");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "child process for {test} failed:\n{text}");
    assert!(text.contains("1 passed"), "child process did not run {test}:\n{text}");
    false
}

/// Runs the calling test again in a new process, where its body should make the mock abort the
/// process (the real SDK crashes there). Returns true in that child; in the parent it checks
/// that the child was killed by SIGABRT and printed `message`.
pub fn in_child_expecting_abort(test: &str, message: &str) -> bool {
    if std::env::var_os(CHILD_VAR).is_some() {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_VAR, "1")
        .output()
        .expect("run the test binary");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(6), "the child for {test} should abort:\n{text}");
    assert!(text.contains(message), "the child for {test} did not say {message:?}:\n{text}");
    false
}

pub mod tool;

/// Runs the calling test again in a new process and fails it if that child does not pass within
/// `limit` (it is killed): for a body that hangs forever where the real SDK deadlocks. Returns
/// true in that child, where the test body should run.
pub fn in_child_with_watchdog(test: &str, limit: std::time::Duration) -> bool {
    if std::env::var_os(CHILD_VAR).is_some() {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let mut child = std::process::Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_VAR, "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run the test binary");
    let begun = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            break Some(status);
        }
        if begun.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let out = child.wait_with_output().expect("the child's output");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let Some(status) = status else { panic!("the child for {test} hung (killed after {limit:?}):\n{text}") };
    assert!(status.success(), "child process for {test} failed:\n{text}");
    assert!(text.contains("1 passed"), "child process did not run {test}:\n{text}");
    false
}
