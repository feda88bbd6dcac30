//! How a traced process ends, against the mock libcupti, in child processes that load the engine
//! through the CUDA door of `libaccelprof_inject.so` (as the CUDA driver does with
//! `CUDA_INJECTION64_PATH`): SIGTERM and SIGINT mid-run finish the trace and the summary, then the
//! process dies of the signal; a crash (SIGSEGV, abort, `_exit`) leaves every batch written so far in a
//! whole `.partial` trace, which `accelprof recover` closes; collection paused and resumed by a signal,
//! by `cudaProfilerStart`/`Stop`, and by a duration. (Ported from cupti-trace's tests of its retired
//! tracer.)

mod support;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::time::Duration;

use support::*;

const CHILD: &str = "traced_child";

/// The traced program of every test here (run in a child process; ignored in a normal run).
#[test]
#[ignore = "the child process of the tests in this file"]
fn traced_child() {
    support::child::run();
}

/// A traced child of `scenario`, its trace in `dir/trace.json` (`extra` variables added).
fn traced(scenario: &str, dir: &Path, extra: &[(&str, &str)]) -> Running {
    let mut cmd = child_command(CHILD, scenario);
    cmd.env("CUDA_INJECTION64_PATH", tracer_library())
        .env("ACCELPROF_OUTPUT", dir.join("trace.json"))
        .env("ACCELPROF_FLUSH_PERIOD_MS", "200")
        .env("TEST_DIR", dir);
    for (k, v) in extra {
        cmd.env(k, v);
    }
    Running::spawn(cmd)
}

fn ends_cleanly_on(signal: i32, name: &str) {
    let dir = temp_dir(&format!("ends-on-{name}"));
    let child = traced("wait", &dir, &[]);
    child.wait_for("ready");
    // Mid-run: the trace streams to its partial file, already whole.
    let partial = files_with(&dir, ".partial-");
    assert_eq!(partial.len(), 1, "{partial:?}");
    let streamed = wait_for_trace(&partial[0], |t| kernels_named(t, "demo::kernel()").len() == 50);
    assert_eq!(kernels_named(&streamed, "demo::kernel()").len(), 50, "streamed before the signal");
    child.signal(signal);
    let (status, stderr) = child.finish();
    assert_eq!(
        status.signal(),
        Some(signal),
        "the process dies of {name} as it would have: {status:?}\n{stderr}"
    );
    assert!(stderr.contains(&format!("{name}: finishing the outputs")), "{stderr}");
    assert!(stderr.contains("kernel launches") && stderr.contains("demo::kernel()"), "the summary: {stderr}");
    assert!(
        stderr.contains(&format!("trace: {}", dir.join("trace.json").display())),
        "the end line: {stderr}"
    );
    assert!(files_with(&dir, ".partial-").is_empty(), "renamed into place");
    let trace = read_trace(&dir.join("trace.json"));
    assert_eq!(kernels_named(&trace, "demo::kernel()").len(), 50);
    assert!(!kernels_named(&trace, "demo::later()").is_empty());
    assert!(trace["traceSummary"]["records_delivered"].as_u64().unwrap() > 50, "the summary is in the file");
    if let Some(python) = hta_python() {
        let kernels = events(&trace).iter().filter(|e| e["cat"] == "kernel").count();
        check_with_hta(&python, &dir, kernels);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_mid_run_finishes_the_trace_then_the_process_dies_of_it() {
    ends_cleanly_on(libc::SIGTERM, "SIGTERM");
}

#[test]
fn sigint_mid_run_finishes_the_trace_then_the_process_dies_of_it() {
    ends_cleanly_on(libc::SIGINT, "SIGINT");
}

fn crash_leaves_what_was_written(scenario: &str, expect: impl Fn(std::process::ExitStatus) -> bool) {
    let dir = temp_dir(&format!("crash-{scenario}"));
    let child = traced(scenario, &dir, &[]);
    let (status, stderr) = child.finish();
    assert!(expect(status), "{scenario}: {status:?}\n{stderr}");
    assert!(!dir.join("trace.json").exists(), "no finish: the final name never appears");
    let partial = files_with(&dir, ".partial-");
    assert_eq!(partial.len(), 1, "{partial:?}\n{stderr}");
    // Perfetto and HTA open it as it is: a whole trace holding every batch written before the crash.
    let trace = read_trace(&partial[0]);
    assert_eq!(kernels_named(&trace, "demo::kernel()").len(), 50, "{scenario}");
    assert_eq!(trace["distributedInfo"]["rank"], 0);
    // `accelprof recover` gives it its final name.
    let out = accelprof().arg("recover").arg(&partial[0]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("whole, renamed to"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(kernels_named(&read_trace(&dir.join("trace.json")), "demo::kernel()").len(), 50);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_segfault_leaves_every_batch_written_so_far_readable() {
    crash_leaves_what_was_written("segv", |s| s.signal() == Some(libc::SIGSEGV));
}

#[test]
fn an_abort_leaves_every_batch_written_so_far_readable() {
    crash_leaves_what_was_written("abort", |s| s.signal() == Some(libc::SIGABRT));
}

#[test]
fn an_exit_that_skips_atexit_leaves_every_batch_written_so_far_readable() {
    crash_leaves_what_was_written("exit", |s| s.code() == Some(3));
}

#[test]
fn a_toggle_signal_pauses_and_resumes_collection() {
    let dir = temp_dir("toggle");
    let child = traced("toggle", &dir, &[("ACCELPROF_TOGGLE_SIGNAL", "USR2")]);
    child.wait_for("ready1");
    child.signal(libc::SIGUSR2);
    for _ in 0..500 {
        if child.stderr.lock().unwrap().contains("collection paused") {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    std::fs::write(dir.join("go1"), "").unwrap();
    child.wait_for("ready2");
    child.signal(libc::SIGUSR2);
    for _ in 0..500 {
        if child.stderr.lock().unwrap().contains("collection resumed") {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    std::fs::write(dir.join("go2"), "").unwrap();
    let (status, stderr) = child.finish();
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("SIGUSR2 pauses and resumes collection"), "the start line says so: {stderr}");
    let trace = read_trace(&dir.join("trace.json"));
    let count = |tag| kernels_named(&trace, &format!("demo::{tag}()")).len();
    assert_eq!((count("before"), count("paused"), count("after")), (10, 0, 10), "{stderr}");
    assert_eq!(trace["traceSummary"]["collection_windows"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn only_cuda_profiler_ranges_are_collected_when_asked() {
    let dir = temp_dir("ranges");
    let child = traced("ranges", &dir, &[("ACCELPROF_CAPTURE_RANGE", "profiler-api")]);
    let (status, stderr) = child.finish();
    assert!(status.success(), "{stderr}");
    assert!(
        stderr.contains("between the program's profiler start and stop calls (cudaProfilerStart"),
        "{stderr}"
    );
    let trace = read_trace(&dir.join("trace.json"));
    assert_eq!(kernels_named(&trace, "demo::inside()").len(), 10, "{stderr}");
    assert_eq!(kernels_named(&trace, "demo::outside()").len(), 0, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_duration_writes_the_trace_and_the_program_runs_on() {
    let dir = temp_dir("duration");
    let child = traced("duration", &dir, &[("ACCELPROF_DURATION", "300ms")]);
    child.wait_for("ran on after the window");
    let (status, stderr) = child.finish();
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("the collection window is over"), "{stderr}");
    let trace = read_trace(&dir.join("trace.json"));
    assert_eq!(kernels_named(&trace, "demo::early()").len(), 5);
    assert_eq!(kernels_named(&trace, "demo::late()").len(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A streamed trace read while the writer's `pwrite` of a chunk is under way is not whole yet: the
/// wait reads it again (CI once failed on such a read, at `EOF while parsing a string`), and returns
/// the trace once the writer is done.
#[test]
fn the_wait_for_a_streamed_trace_reads_again_a_file_caught_mid_chunk() {
    let dir = temp_dir("mid-chunk");
    let path = dir.join("trace.partial-1.json");
    std::fs::write(&path, br#"{"traceEvents": [{"name": "demo::ker"#).unwrap();
    let writer = {
        let path = path.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            let whole = br#"{"traceEvents": [{"name": "demo::kernel()", "cat": "kernel"}]}"#;
            std::fs::write(&path, whole).unwrap();
        })
    };
    let trace = wait_for_trace(&path, |t| !kernels_named(t, "demo::kernel()").is_empty());
    writer.join().unwrap();
    assert_eq!(kernels_named(&trace, "demo::kernel()").len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
