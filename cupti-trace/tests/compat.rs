//! `cupti-trace`, the old name of `accelprof trace --vendor cupti`, on the mock libcupti: it traces a
//! CUDA program through the CUDA door of `libaccelprof_inject.so` (the one engine), and refuses what
//! only cupti-trace's retired tracer read (`CUPTI_TRACE_*`, its renamed options) with the new names,
//! before the program runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use accelprof_mocks::cupti::MockCupti;

/// The variable that makes this test binary the traced program.
const PROGRAM: &str = "COMPAT_TEST_TRACED_PROGRAM";

/// The traced program (this test binary run again; ignored in a normal run): what the CUDA driver
/// does in `cuInit` with `CUDA_INJECTION64_PATH`, then 20 kernels on the mock.
#[test]
#[ignore = "the traced program of the tests in this file"]
fn traced_program() {
    assert!(std::env::var_os(PROGRAM).is_some(), "run by the tests of this file");
    let m = MockCupti::open(Path::new(accelprof_mocks::cupti::LIBRARY)).expect("the mock's controls");
    m.reset();
    let lib = std::env::var_os("CUDA_INJECTION64_PATH").expect("the launcher sets CUDA_INJECTION64_PATH");
    // SAFETY: the injection library's initialisers are Rust statics only.
    let lib = unsafe { libloading::Library::new(lib) }.expect("the injection library loads");
    // SAFETY: `int InitializeInjection(void)`, as the CUDA driver calls it.
    let init = unsafe { lib.get::<unsafe extern "C" fn() -> i32>(b"InitializeInjection\0") }.unwrap();
    // SAFETY: as above.
    assert_eq!(unsafe { init() }, 1);
    std::mem::forget(lib);
    for _ in 0..20 {
        m.launch_kernel(c"_ZN4demo6kernelEv", 4, 2, 1, 128, 1, 1, 0, 3, 10_000);
    }
}

fn next_to_test(file: &str) -> PathBuf {
    std::env::current_exe().unwrap().with_file_name(file)
}

/// `cupti-trace args... -- <the traced program>`, with this run's libraries and no `CUPTI_TRACE_*`
/// variable of the test's environment.
fn cupti_trace(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cupti-trace"));
    cmd.args(args)
        .arg("--")
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", "traced_program", "--ignored", "--nocapture", "--test-threads=1"])
        .env(PROGRAM, "1")
        .env("CUPTI_LIBRARY_PATH", accelprof_mocks::cupti::LIBRARY)
        .env("ACCELPROF_INJECT_LIBRARY", next_to_test("libaccelprof_inject.so"))
        .env("ACCELPROF_SHIM_LIBRARY", next_to_test("libcupti_shim.so"))
        .env_remove("CUDA_INJECTION64_PATH");
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(|n| n.starts_with("CUPTI_TRACE_")) {
            cmd.env_remove(name);
        }
    }
    cmd.envs(env.iter().copied());
    cmd.output().unwrap()
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cupti-trace-compat-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_old_command_line_traces_through_the_one_engine() {
    let dir = temp_dir("trace");
    let output = dir.join("t.json");
    let out = cupti_trace(&["-o", output.to_str().unwrap(), "--flush-period-ms", "200"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}\n{stderr}", out.status);
    // The engine's own lines: the CUDA door of the injection library, the summary.
    assert!(stderr.contains("through the CUDA door"), "{stderr}");
    assert!(stderr.contains("demo::kernel()"), "the summary: {stderr}");
    let trace: serde_json::Value = serde_json::from_slice(&std::fs::read(&output).unwrap()).unwrap();
    let kernels = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["cat"] == "kernel" && e["name"] == "demo::kernel()")
        .count();
    assert_eq!(kernels, 20, "{stderr}");
    assert_eq!(trace["traceSummary"]["records_dropped"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_retired_tracers_variables_and_options_are_refused_with_their_successors() {
    let dir = temp_dir("refused");
    let output = dir.join("old.json");
    let out = cupti_trace(&[], &[("CUPTI_TRACE_OUTPUT", output.to_str().unwrap())]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("CUPTI_TRACE_OUTPUT is no longer read") && stderr.contains("use ACCELPROF_OUTPUT")
    );
    assert!(!stderr.contains("tracing `"), "nothing ran: {stderr}");

    for (old, new) in
        [(&["--kinds", "memcpy"][..], "--families"), (&["--profiler-range=on"][..], "--capture-range")]
    {
        let out = cupti_trace(old, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{old:?}: {stderr}");
        assert!(
            stderr.contains("cupti-trace's old option: use") && stderr.contains(new),
            "{old:?}: {stderr}"
        );
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "no trace written");
    let _ = std::fs::remove_dir_all(&dir);
}
