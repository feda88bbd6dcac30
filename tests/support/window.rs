//! The capture window and signal scenarios, written once and run on each vendor's mock (the
//! vendor's test file gives the configuration and a way to run `n` kernels).

use std::path::Path;
use std::time::{Duration, Instant};

use accel_profiling::{CaptureRange, Family, Tracer, TracerConfig, TracerError, Vendor};

/// Waits until `done` (polled), failing after 20 s with `what`.
pub fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Work while paused is not collected; the report counts two windows.
pub fn pause_and_resume(config: TracerConfig, kernels: &dyn Fn(usize)) {
    let tracer = Tracer::new(config).expect("a tracer on the mock");
    assert!(!tracer.pause() && !tracer.resume(), "nothing switches before start");
    tracer.start().expect("start");
    assert!(tracer.is_collecting());
    kernels(3);
    assert!(tracer.pause(), "paused");
    assert!(!tracer.pause() && !tracer.is_collecting(), "paused once");
    kernels(5);
    assert!(tracer.resume(), "resumed");
    assert!(!tracer.resume() && tracer.is_collecting());
    kernels(2);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 5, "the 3 before and the 2 after: {}", report.render(5));
    assert_eq!(report.windows, 2, "{}", report.render(5));
    assert!(report.counts.adds_up(), "{}", report.counts);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.to_json()["collection_windows"], 2);
    assert!(report.render(5).contains("collection windows: 2"), "{}", report.render(5));
}

/// Collection begins after the delay, ends after the duration: the outputs and the summary JSON are
/// finished then (before `stop`), the program runs on, and `stop` returns that report.
pub fn delay_then_duration(mut config: TracerConfig, dir: &Path, kernels: &dyn Fn(usize)) {
    let (trace, summary) = (dir.join("window.json"), dir.join("summary.json"));
    config.outputs = vec![trace.as_path().into()];
    config.summary_json = Some(summary.clone());
    config.delay = Duration::from_millis(400);
    config.duration = Some(Duration::from_millis(1500));
    let vendor = config.vendor;
    let tracer = Tracer::new(config).expect("a tracer on the mock");
    tracer.start().expect("start");
    tracer.start().expect("a second start is a no-op (no second window timer)");
    let partial = tracer.partial_paths()[0].clone();
    let suffix = format!(".partial-{}", std::process::id());
    assert!(partial.to_string_lossy().contains(&suffix) && partial.exists(), "{}", partial.display());
    assert!(!trace.exists(), "named .partial-<pid> until finished");
    assert!(!tracer.is_collecting(), "waiting for the delay");
    kernels(4);
    wait_until("the end of the delay", || tracer.is_collecting());
    kernels(3);
    wait_until("the outputs finished at the end of the duration", || trace.exists() && summary.exists());
    assert!(!tracer.is_collecting() && !tracer.resume(), "the window is over for good");
    assert!(!partial.exists(), "renamed into place");
    kernels(6);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 3, "only the window's kernels: {}", report.render(5));
    assert_eq!(report.windows, 1);
    assert!(report.traces.len() == 1 && report.traces[0].result.is_ok(), "{:?}", report.traces);
    assert_eq!(super::trace::check(&trace).count("kernel"), 3);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary).expect("the summary JSON")).expect("JSON");
    assert_eq!(json["vendor"], vendor.name());
    assert_eq!(json["kernel_records"], 3);
    assert_eq!(json["collection_windows"], 1);
    assert_eq!(json["trace"], trace.display().to_string());
    assert_eq!(json["records_dropped"], 0);
    // The keys the CUDA injection tracer's summary had, for the scripts that read it.
    assert_eq!(json["cupti_dropped"].as_u64(), (vendor == Vendor::Cupti).then_some(0), "{json}");
}

/// A toggle signal pauses and resumes (run in a child: the handler is the process's).
pub fn toggle_signal(mut config: TracerConfig, kernels: &dyn Fn(usize)) {
    config.toggle_signal = Some(libc::SIGUSR2);
    let tracer = Tracer::new(config).expect("a tracer on the mock");
    assert_eq!((tracer.toggle_signal(), tracer.handled_signals()), (Some(libc::SIGUSR2), Vec::new()));
    tracer.start().expect("start");
    kernels(2);
    // SAFETY: raise(3) with a signal whose handler the tracer installed.
    assert_eq!(unsafe { libc::raise(libc::SIGUSR2) }, 0);
    wait_until("the toggle to pause", || !tracer.is_collecting());
    kernels(7);
    // SAFETY: as above.
    assert_eq!(unsafe { libc::raise(libc::SIGUSR2) }, 0);
    wait_until("the toggle to resume", || tracer.is_collecting());
    kernels(1);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 3, "{}", report.render(5));
    assert_eq!(report.windows, 2);
}

/// A tracer asking for a toggle signal after an earlier tracer of the process set up signal
/// handling without one (run in a child: the handlers are the process's) gets it installed: the
/// signal toggles its collection, and does not kill the program.
pub fn later_toggle_signal(config: TracerConfig, kernels: &dyn Fn(usize)) {
    let first =
        Tracer::new(TracerConfig { handle_signals: true, ..config.clone() }).expect("a tracer on the mock");
    assert_eq!(first.handled_signals(), [libc::SIGINT, libc::SIGTERM, libc::SIGHUP]);
    first.start().expect("start");
    drop(first.stop());
    // A toggle signal an earlier tracer ends the trace on is refused (sent, it ended the trace).
    match Tracer::new(TracerConfig { toggle_signal: Some(libc::SIGHUP), ..config.clone() }) {
        Err(e @ TracerError::Config(_)) => assert!(e.to_string().contains("ends the trace on SIGHUP"), "{e}"),
        other => panic!("SIGHUP: expected TracerError::Config, got {other:?}"),
    }
    toggle_signal(config.clone(), kernels);
    // A third asking for another toggle signal is refused, naming both: it got `Ok` and a line on
    // stderr, and the signal it asked for, which has no handler, killed the program when sent.
    match Tracer::new(TracerConfig { toggle_signal: Some(libc::SIGUSR1), ..config.clone() }) {
        Err(e @ TracerError::Config(_)) => {
            let text = e.to_string();
            assert!(text.contains("SIGUSR1") && text.contains("SIGUSR2"), "{text}");
        }
        other => panic!("another toggle signal: expected TracerError::Config, got {other:?}"),
    }
    // The one installed is taken.
    let fourth = Tracer::new(TracerConfig { toggle_signal: Some(libc::SIGUSR2), ..config })
        .expect("a tracer on the mock");
    assert_eq!(fourth.toggle_signal(), Some(libc::SIGUSR2));
}

/// A toggle signal that cannot toggle (uncatchable, a fault, not a signal, one that ends the
/// trace) is a configuration error naming it, before anything is set up.
pub fn toggle_signal_refused(config: TracerConfig) {
    for signal in [libc::SIGKILL, libc::SIGSTOP, libc::SIGSEGV, libc::SIGINT, 0, -3, 9999] {
        match Tracer::new(TracerConfig { toggle_signal: Some(signal), ..config.clone() }) {
            Err(e @ TracerError::Config(_)) => {
                let text = e.to_string();
                assert!(text.contains("toggle_signal") && text.contains("USR2"), "{text}");
            }
            other => panic!("toggle signal {signal}: expected TracerError::Config, got {other:?}"),
        }
    }
}

/// A consumer that calls its tracer (counts, families, a flush of its own) while another thread
/// flushes: nothing waits for itself. The consumer's flush is refused (it runs on the decode thread
/// the flush waits for); the other thread's flush completes. Fails (instead of hanging) after 20 s.
pub fn consumer_calls_its_tracer(config: TracerConfig, kernels: &'static (dyn Fn(usize) + Sync)) {
    let tracer = std::sync::Arc::new(Tracer::new(config).expect("a tracer on the mock"));
    let weak = std::sync::Arc::downgrade(&tracer);
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    tracer.subscribe(Family::KERNEL.set(), move |batch, _| {
        let Some(tracer) = weak.upgrade() else { return };
        let rows = tracer.counts().pipeline.records_delivered;
        let families = tracer.families();
        let flushed = tracer.flush();
        log.lock().unwrap().push((batch.kernels.len(), rows, families.has(Family::KERNEL), flushed.is_err()));
    });
    tracer.start().expect("start");
    let (done, finished) = std::sync::mpsc::channel();
    let other = tracer.clone();
    std::thread::spawn(move || {
        kernels(2);
        let flushed = other.flush();
        drop(other);
        let _ = done.send(flushed);
    });
    let flushed = finished
        .recv_timeout(Duration::from_secs(20))
        .expect("the flush returned (a consumer calling its tracer hung it)");
    assert!(flushed.is_ok(), "{flushed:?}");
    let tracer = {
        let mut shared = tracer;
        loop {
            match std::sync::Arc::try_unwrap(shared) {
                Ok(alone) => break alone,
                Err(back) => {
                    shared = back;
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
    };
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 2, "{}", report.render(5));
    let seen = seen.lock().unwrap();
    assert!(!seen.is_empty(), "the consumer ran");
    for &(kernels, _, has_kernels, refused) in seen.iter() {
        assert!(kernels > 0 && has_kernels, "{seen:?}");
        assert!(refused, "a flush on the decode thread is refused: {seen:?}");
    }
}

/// A capture range the vendor cannot observe is a typed error naming the vendor.
pub fn capture_range_unsupported(mut config: TracerConfig, vendor: Vendor) {
    config.capture_range = CaptureRange::ProfilerApi;
    match Tracer::new(config) {
        Err(e @ TracerError::Unsupported { vendor: v, .. }) => {
            assert_eq!(v, vendor);
            let text = e.to_string();
            assert!(text.starts_with(&vendor.to_string()) && text.contains("capture range"), "{text}");
        }
        other => panic!("expected TracerError::Unsupported, got {other:?}"),
    }
}

/// Set in the child of [`signal_finishes_the_outputs`]: the directory of its files.
pub const SIGNAL_DIR: &str = "ACCEL_TRACER_TEST_SIGNAL_DIR";

/// The child's half: a tracer that handles signals, three kernels, then SIGTERM to itself. The
/// process must die of it with the outputs finished; returning is a failure.
pub fn signal_child(mut config: TracerConfig, kernels: &dyn Fn(usize)) {
    let dir = std::path::PathBuf::from(std::env::var(SIGNAL_DIR).expect("the parent's directory"));
    config.outputs = vec![dir.join("trace.json").as_path().into()];
    config.summary_json = Some(dir.join("summary.json"));
    config.handle_signals = true;
    config.print_summary = true;
    let tracer = Tracer::new(config).expect("a tracer on the mock");
    // SIGINT and SIGHUP may be ignored where the tests run (a background job, nohup): left alone then.
    assert!(tracer.handled_signals().contains(&libc::SIGTERM), "{:?}", tracer.handled_signals());
    tracer.start().expect("start");
    kernels(3);
    // SAFETY: raise(3); the tracer's handler finishes the outputs and re-raises.
    unsafe { libc::raise(libc::SIGTERM) };
    std::thread::sleep(Duration::from_secs(20));
    panic!("still alive 20 s after SIGTERM");
}

/// The parent's half: the child died of SIGTERM, its trace finished (no partial file left), the
/// summary JSON written, and the summary printed.
pub fn signal_finishes_the_outputs(name: &str, env: super::ChildEnv, vendor: Vendor) {
    use std::os::unix::process::ExitStatusExt;
    let dir = super::temp_dir(name);
    let out = super::child_output(name, &env.set(SIGNAL_DIR, dir.path().display().to_string()));
    let text = super::output_text(&out);
    assert_eq!(out.status.signal(), Some(libc::SIGTERM), "died of the signal: {text}");
    assert!(text.contains("SIGTERM: finishing the outputs"), "{text}");
    assert!(text.contains("records:"), "the summary printed: {text}");
    assert_eq!(super::trace::check(&dir.join("trace.json")).count("kernel"), 3, "{text}");
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).expect("summary JSON")).unwrap();
    assert_eq!((json["vendor"].as_str(), json["kernel_records"].as_u64()), (Some(vendor.name()), Some(3)));
}

/// The trace on disk follows the run within the flush period, without a flush of the program's: what a
/// crash leaves is about that far behind. rocprofiler-sdk has no period of its own and MSPTI's hands back
/// only full buffers: their traces held nothing but the head until the end (a killed program's trace was
/// empty); the tracer flushes them itself now. `dir` is the test's own directory.
pub fn the_file_follows_the_run(mut config: TracerConfig, dir: &Path, kernels: &dyn Fn(usize)) {
    let path = dir.join("periodic.json");
    config.outputs = vec![path.as_path().into()];
    config.flush_period = Some(Duration::from_millis(100));
    let tracer = Tracer::new(config).expect("a tracer on the mock");
    tracer.start().expect("start");
    kernels(4);
    let partial = accelprof_export::trace::partial_path(&path, std::process::id());
    let on_disk = || {
        // Read between two of the writer's writes (a read that overlapped one is read again).
        std::fs::read(&partial)
            .ok()
            .and_then(|raw| serde_json::from_slice::<serde_json::Value>(&raw).ok())
            .map_or(0, |trace| {
                trace["traceEvents"]
                    .as_array()
                    .map_or(0, |e| e.iter().filter(|e| e["cat"] == "kernel").count())
            })
    };
    wait_until("the kernels in the partial file, within the flush period", || on_disk() == 4);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 4, "{}", report.render(5));
    assert!(report.is_complete(), "{}", report.render(5));
}

/// The child's half of [`a_closed_signal_pipe_is_never_written`]: a tracer that handles signals; then the
/// program closes every descriptor (the signal pipe too) and opens a file of its own, which gets the
/// pipe's write end's number; then SIGTERM to itself. The process must die of it, its file untouched.
pub fn closed_pipe_child(mut config: TracerConfig) {
    let dir = std::path::PathBuf::from(std::env::var(SIGNAL_DIR).expect("the parent's directory"));
    config.outputs = Vec::new();
    config.handle_signals = true;
    let pipes = || -> std::collections::BTreeSet<i32> {
        let listed: Vec<(i32, std::path::PathBuf)> = std::fs::read_dir("/proc/self/fd")
            .unwrap()
            .filter_map(|e| {
                let e = e.ok()?;
                Some((e.file_name().to_str()?.parse().ok()?, std::fs::read_link(e.path()).ok()?))
            })
            .collect();
        listed
            .into_iter()
            .filter(|(_, l)| l.to_string_lossy().starts_with("pipe:"))
            .map(|(fd, _)| fd)
            .collect()
    };
    let before = pipes();
    let tracer = Tracer::new(config).expect("a tracer on the mock");
    assert!(tracer.handled_signals().contains(&libc::SIGTERM), "{:?}", tracer.handled_signals());
    let ours: Vec<i32> = pipes().difference(&before).copied().collect();
    assert_eq!(ours.len(), 2, "the signal pipe's two ends: {ours:?}");
    let victim = dir.join("program.txt");
    std::fs::write(&victim, b"the program's data").unwrap();
    let file = std::fs::OpenOptions::new().read(true).write(true).open(&victim).unwrap();
    for fd in ours {
        // SAFETY: as the program's closefrom then open would: its file at the pipe's numbers.
        assert_eq!(unsafe { libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&file), fd) }, fd);
    }
    // SAFETY: raise(3).
    unsafe { libc::raise(libc::SIGTERM) };
    std::thread::sleep(Duration::from_secs(3));
    println!("survived SIGTERM");
    std::process::exit(0);
}

/// The parent's half: the child died of SIGTERM and its file is as it wrote it. The handler wrote the
/// signal's byte through the pipe's old number (into the program's file), and the signal, taken for sent,
/// never killed the program.
pub fn a_closed_signal_pipe_is_never_written(name: &str, env: super::ChildEnv) {
    use std::os::unix::process::ExitStatusExt;
    let dir = super::temp_dir(name);
    let out = super::child_output(name, &env.set(SIGNAL_DIR, dir.path().display().to_string()));
    let text = super::output_text(&out);
    assert_eq!(std::fs::read(dir.join("program.txt")).unwrap(), b"the program's data", "{text}");
    assert_eq!(out.status.signal(), Some(libc::SIGTERM), "died of the signal: {text}");
}
