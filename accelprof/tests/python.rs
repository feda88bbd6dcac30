//! The engine injected through the CUDA door of `libaccelprof_inject.so` into a Python program (what
//! `python train.py` under the tracer is), on the mock:
//! the script loads the mock and plays the CUDA driver with ctypes. Python handles SIGINT itself: an
//! uncaught `KeyboardInterrupt` (Ctrl-C) makes it finalize and then kill itself with SIGINT, so C `atexit`
//! handlers never run; the trace must be finished all the same. Needs `python3`. (Ported from
//! cupti-trace's tests of its retired tracer.)

mod support;

use std::os::unix::process::ExitStatusExt;
use std::process::Command;

use support::*;

const SCRIPT: &str = r#"
import ctypes, os, signal, sys, time
mock = ctypes.CDLL(os.environ["CUPTI_LIBRARY_PATH"])
mock.mock_cupti_reset()
tracer = ctypes.CDLL(os.environ["CUDA_INJECTION64_PATH"])
assert tracer.InitializeInjection() == 1  # what the CUDA driver does at cuInit
launch = mock.mock_cupti_launch_kernel
launch.argtypes = [ctypes.c_char_p] + [ctypes.c_uint32] * 7 + [ctypes.c_uint64, ctypes.c_uint64]
launch.restype = ctypes.c_uint32
for _ in range(25):
    launch(b"_ZN4demo6kernelEv", 4, 2, 1, 128, 1, 1, 0, 3, 10000)
print("ready", flush=True)
how = sys.argv[1]
if how == "interrupt":
    raise KeyboardInterrupt  # as Ctrl-C does in the middle of a training loop
if how == "wait":
    while True:
        time.sleep(0.05)
"#;

fn python(how: &str, dir: &std::path::Path) -> Running {
    let script = dir.join("traced.py");
    std::fs::write(&script, SCRIPT).unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(&script)
        .arg(how)
        .env("CUDA_INJECTION64_PATH", tracer_library())
        .env("CUPTI_LIBRARY_PATH", mock_path())
        .env("ACCELPROF_OUTPUT", dir.join("trace.json"));
    Running::spawn(cmd)
}

fn the_trace_is_finished(dir: &std::path::Path, stderr: &str) {
    assert!(files_with(dir, ".partial-").is_empty(), "renamed into place: {stderr}");
    let trace = read_trace(&dir.join("trace.json"));
    assert_eq!(kernels_named(&trace, "demo::kernel()").len(), 25, "{stderr}");
    assert!(trace.get("traceSummary").is_some(), "finished with its summary: {stderr}");
    assert!(stderr.contains("25 kernel launches"), "the summary on stderr: {stderr}");
}

#[test]
fn ctrl_c_in_python_finishes_the_trace_and_python_dies_of_sigint_as_it_would() {
    let dir = temp_dir("python-interrupt");
    let (status, stderr) = python("interrupt", &dir).finish();
    assert_eq!(status.signal(), Some(libc::SIGINT), "Python ends an uncaught KeyboardInterrupt so: {stderr}");
    assert!(stderr.contains("KeyboardInterrupt"), "{stderr}");
    the_trace_is_finished(&dir, &stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_python_program_ending_normally_finishes_the_trace_once() {
    let dir = temp_dir("python-exit");
    let (status, stderr) = python("exit", &dir).finish();
    assert!(status.success(), "{stderr}");
    the_trace_is_finished(&dir, &stderr);
    assert_eq!(
        stderr.matches("kernel launches").count(),
        1,
        "finished once (Py_AtExit, then atexit): {stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_to_python_finishes_the_trace_then_python_dies_of_it() {
    let dir = temp_dir("python-sigterm");
    let running = python("wait", &dir);
    running.wait_for("ready");
    running.signal(libc::SIGTERM);
    let (status, stderr) = running.finish();
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{stderr}");
    the_trace_is_finished(&dir, &stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
