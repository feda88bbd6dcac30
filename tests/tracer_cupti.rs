//! The tracer on the mock `libcupti`, in this process as a program that traces itself: the mock's
//! controls play the CUDA program (API calls, kernels, copies, sets, NVTX ranges on the calling
//! thread), the tracer delivers them to subscribers and writes them to its outputs.

mod support;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use accel_profiling::accelprof_core::activity::ActivityError;
use accel_profiling::accelprof_export::trace::{ChromeTraceWriter, RunMeta, TimeMap, TraceFile, TraceSink};
use accel_profiling::{
    Batch, Distributed, Family, FamilySet, Format, Names, Output, Synchronize, Tracer, TracerConfig,
    TracerError, Vendor,
};
use accelprof_mocks::cupti::{MockCupti, LIBRARY};
use serde_json::Value;

/// The mock's controls (the same file the tracer opens: one mock per process).
fn mock() -> &'static MockCupti {
    static MOCK: OnceLock<MockCupti> = OnceLock::new();
    MOCK.get_or_init(|| MockCupti::open(LIBRARY).expect("the mock libcupti's controls"))
}

/// One tracer at a time: CUPTI's activity records are process-wide.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn config(outputs: Vec<Output>) -> TracerConfig {
    TracerConfig {
        vendor: Vendor::Cupti,
        library: Some(LIBRARY.into()),
        outputs,
        distributed: Some(Distributed::default()),
        // The mock's cudaDeviceSynchronize: CUPTI's fence then proves every record is in.
        synchronize: Some(Synchronize::new(|| {
            mock().device_synchronize();
            Ok(true)
        })),
        ..TracerConfig::default()
    }
}

/// A small CUDA program on device `device`: an allocation, an NVTX range around a copy in, three
/// runtime launches and one driver launch of two kernels, a set and a copy out; a synchronize and
/// a free.
fn program(device: u32) {
    let m = mock();
    m.set_device(device);
    let mut address = 0u64;
    m.malloc(4096, &mut address);
    let range = m.marker_start(c"phase", None);
    m.memcpy(address, 0x7000_0000, 4096, 1, 1, 1, 1_000);
    for _ in 0..3 {
        m.launch(c"k_runtime", [2, 1, 1], [64, 1, 1], 0, 1);
    }
    m.launch_driver(c"k_driver", [4, 1, 1], [128, 1, 1], 1024, 1);
    m.memset(address, 0, 4096, 1, 1, 500);
    m.memcpy(0x7000_0000, address, 4096, 2, 1, 1, 1_000);
    m.marker_end(range);
    m.device_synchronize();
    m.free(address);
}

#[test]
fn kernels_copies_sets_api_calls_and_markers_reach_subscribers_and_the_trace() {
    let _serial = serial();
    let dir = support::temp_dir("cupti-all");
    let path = dir.join("trace.json");
    let tracer = Tracer::new(config(vec![path.as_path().into()])).expect("a tracer on the mock");
    assert_eq!(tracer.vendor(), Vendor::Cupti);
    assert_eq!(tracer.library().path, Path::new(LIBRARY));
    assert_eq!(tracer.api_domain_name(2).as_deref(), Some("cuda_runtime"));
    assert_eq!(tracer.api_domain_name(1).as_deref(), Some("cuda_driver"));
    let gpu: Arc<Mutex<Batch>> = Arc::default();
    let names: Arc<Mutex<Option<Names>>> = Arc::default();
    let (keep, keep_names) = (gpu.clone(), names.clone());
    tracer.subscribe(FamilySet::GPU, move |batch, n| {
        support::keep(&keep, batch);
        keep_names.lock().unwrap().get_or_insert_with(|| n.clone());
    });
    tracer.start().expect("start");
    program(0);
    let report = tracer.stop();

    assert!(report.is_complete(), "{}", report.render(10));
    for (family, rows) in [(Family::KERNEL, 4), (Family::MEMCPY, 2), (Family::MEMSET, 1), (Family::MARKER, 1)]
    {
        assert_eq!(report.rows_of(family), rows, "{family:?}: {}", report.render(10));
    }
    let api = report.rows_of(Family::API);
    assert!(api >= 9, "malloc, 2 copies, 4 launches, set, synchronize, free: {api}");
    let c = &report.counts;
    assert_eq!(c.vendor, Vendor::Cupti);
    assert!(c.adds_up() && c.dropped() == 0, "{c}");
    assert_eq!(c.delivered(), report.rows.iter().sum::<u64>(), "every row decoded was delivered: {c}");

    // The subscriber saw the same kernels, named.
    let gpu = gpu.lock().unwrap();
    let names = names.lock().unwrap().clone().expect("a batch came");
    let kernel_names: Vec<&str> = gpu.kernels.name().iter().map(|n| names.resolve(*n)).collect();
    assert_eq!(kernel_names.iter().filter(|n| **n == "k_runtime").count(), 3, "{kernel_names:?}");
    assert_eq!(kernel_names.iter().filter(|n| **n == "k_driver").count(), 1, "{kernel_names:?}");
    assert!(gpu.kernels.device().iter().all(|d| *d == 0) && gpu.kernels.stream().iter().all(|s| *s == 1));
    assert_eq!((gpu.memcpys.len(), gpu.memsets.len()), (2, 1));

    // The trace: Kineto's conventions, an arrow from each launch to its GPU work.
    let trace = support::trace::check(&path);
    assert_eq!(trace.count("kernel"), 4, "{:?}", trace.by_cat);
    assert_eq!(trace.count("gpu_memcpy"), 2);
    assert_eq!(trace.count("gpu_memset"), 1);
    assert_eq!(trace.count("user_annotation"), 1);
    assert!(trace.count("cuda_runtime") > 0 && trace.count("cuda_driver") > 0, "{:?}", trace.by_cat);
    assert_eq!(trace.flows, 7, "one arrow per kernel, copy and set");
    assert_eq!(trace.doc["vendor"], "cupti");
    assert_eq!(trace.doc["traceSummary"]["records_delivered"], c.delivered());
    let outcome = &report.traces[0];
    assert_eq!(outcome.path.as_deref(), Some(path.as_path()));
    assert_eq!(outcome.result.as_ref().expect("written").path, path);
}

#[test]
fn a_flush_makes_the_file_on_disk_a_whole_trace_of_everything_so_far() {
    let _serial = serial();
    let dir = support::temp_dir("cupti-flush");
    let path = dir.join("trace.json");
    let tracer = Tracer::new(config(vec![path.as_path().into()])).expect("a tracer on the mock");
    tracer.start().expect("start");
    let m = mock();
    m.launch(c"first", [1, 1, 1], [32, 1, 1], 0, 1);
    m.launch(c"first", [1, 1, 1], [32, 1, 1], 0, 1);
    tracer.flush().expect("flush");
    let partial = tracer.partial_paths()[0].clone();
    assert_ne!(partial, path, "written to a .partial file until the end");
    let text = std::fs::read_to_string(&partial).expect("the partial file");
    let so_far = support::trace::check_text(&text, "the partial trace");
    assert_eq!(so_far.count("kernel"), 2, "both kernels are in after the flush");
    assert!(tracer.counts().adds_up(), "{}", tracer.counts());
    m.launch(c"second", [1, 1, 1], [32, 1, 1], 0, 1);
    let report = tracer.stop();
    assert!(report.is_complete(), "{}", report.render(10));
    assert!(!partial.exists(), "renamed into place");
    assert_eq!(support::trace::check(&path).count("kernel"), 3);
}

#[test]
fn a_flush_before_start_returns_at_once() {
    // Before start no kind is enabled, so the fence's probe record can never come: the fence
    // waited its whole timeout (10 s) and failed.
    let _serial = serial();
    let tracer = Tracer::new(config(Vec::new())).expect("a tracer on the mock");
    let begun = std::time::Instant::now();
    tracer.flush().expect("nothing collected yet: nothing to wait for");
    assert!(begun.elapsed() < std::time::Duration::from_secs(5), "the flush took {:?}", begun.elapsed());
    tracer.start().expect("start");
    mock().launch(c"after", [1, 1, 1], [32, 1, 1], 0, 1);
    tracer.flush().expect("the fence once collecting");
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 1, "{}", report.render(10));
}

#[test]
fn one_file_given_twice_as_outputs_is_refused() {
    // Both wrote the same partial file; the second's rename failed at the end.
    let _serial = serial();
    let dir = support::temp_dir("cupti-twice");
    let path = dir.join("trace.json");
    let again = dir.join(".").join("trace.json");
    match Tracer::new(config(vec![path.as_path().into(), again.as_path().into()])) {
        Err(TracerError::Config(e)) => assert!(e.contains("given twice"), "{e}"),
        other => panic!("not refused: {other:?}"),
    }
    let tracer = Tracer::new(config(vec![path.as_path().into()])).expect("one of it is fine");
    tracer.start().expect("start");
    assert!(tracer.stop().is_complete());
}

#[test]
fn families_cupti_has_no_records_for_are_reported_skipped() {
    let _serial = serial();
    let config = TracerConfig {
        families: FamilySet::KERNEL | FamilySet::COLLECTIVE | FamilySet::COUNTER,
        ..config(Vec::new())
    };
    let tracer = Tracer::new(config).expect("a tracer on the mock");
    assert_eq!(tracer.families(), FamilySet::KERNEL);
    let skipped = tracer.skipped();
    let families: Vec<Family> = skipped.iter().map(|s| s.family).collect();
    assert_eq!(families, [Family::COLLECTIVE, Family::COUNTER], "{skipped:?}");
    assert!(skipped[0].reason.contains("NCCL's kernels are recorded as kernels"), "{}", skipped[0]);
    tracer.start().expect("start");
    mock().launch(c"only_kernels", [1, 1, 1], [32, 1, 1], 0, 1);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 1);
    assert_eq!(report.rows_of(Family::API), 0, "API calls were not asked for");
    assert!(report.render(5).contains("not collected: collective: CUPTI has no collective records"));
}

#[test]
fn one_tracer_at_a_time() {
    let _serial = serial();
    let first = Tracer::new(config(Vec::new())).expect("a tracer on the mock");
    let second = Tracer::new(config(Vec::new())).expect_err("CUPTI's activity records are process-wide");
    assert!(matches!(second, TracerError::Vendor { vendor: Vendor::Cupti, .. }), "{second}");
    let typed = std::error::Error::source(&second).and_then(|e| e.downcast_ref::<cupti::Error>());
    assert!(
        matches!(typed, Some(cupti::Error::Activity(ActivityError::SessionActive { vendor: "CUPTI" }))),
        "the vendor's typed error: {second}"
    );
    drop(first);
    Tracer::new(config(Vec::new())).expect("free again once the first is dropped");
}

/// A sink that keeps counts in memory.
struct MemorySink {
    rows: Arc<AtomicU64>,
    summary: Arc<Mutex<Option<Value>>>,
    partial: PathBuf,
}

impl TraceSink for MemorySink {
    fn add_batch(&mut self, batch: &Batch, _: &Names, _: &TimeMap) -> io::Result<()> {
        self.rows.fetch_add(batch.len() as u64, Ordering::Relaxed);
        Ok(())
    }
    fn add_process_name(&mut self, _: u64, _: &str) -> io::Result<()> {
        Ok(())
    }
    fn add_thread_name(&mut self, _: u64, _: u64, _: &str) -> io::Result<()> {
        Ok(())
    }
    fn sync(&mut self) -> io::Result<()> {
        Ok(())
    }
    fn partial_path(&self) -> &Path {
        &self.partial
    }
    fn finish(self: Box<Self>, summary: Option<&Value>) -> io::Result<TraceFile> {
        *self.summary.lock().unwrap() = summary.cloned();
        Ok(TraceFile {
            path: self.partial.clone(),
            events: 0,
            rows: self.rows.load(Ordering::Relaxed),
            file_bytes: 0,
            json_bytes: 0,
            flows: Default::default(),
        })
    }
}

#[test]
fn outputs_are_sinks_picked_by_name_or_given() {
    let _serial = serial();
    let dir = support::temp_dir("cupti-outputs");
    let sqlite = dir.join("trace.sqlite");
    let e = Tracer::new(config(vec![sqlite.as_path().into()])).expect_err("no SQLite writer here");
    match &e {
        TracerError::UnknownFormat { path, known } => {
            assert_eq!(path, &sqlite);
            assert_eq!(&known[..2], &["*.json", "*.json.gz"], "{e}");
        }
        other => panic!("{other}"),
    }
    // An empty name says so (it read ": no trace format for this name").
    let e = Tracer::new(config(vec![Path::new("").into()])).expect_err("an empty name");
    assert!(e.to_string().starts_with("an empty output name: no trace format"), "{e}");

    // Another crate's format (a stand-in here), a caller's own sink and a gzip trace, together.
    let stand_in = Format::new("a stand-in for SQLite", ["sqlite"], |path, meta| {
        Ok(Box::new(ChromeTraceWriter::create(path.with_extension("json"), meta.clone())?)
            as Box<dyn TraceSink>)
    });
    let (rows, summary) = (Arc::new(AtomicU64::new(0)), Arc::new(Mutex::new(None)));
    let (sink_rows, sink_summary) = (rows.clone(), summary.clone());
    let memory = Output::sink(move |meta: &RunMeta| {
        assert_eq!(meta.rank, 0);
        Ok(Box::new(MemorySink {
            rows: sink_rows.clone(),
            summary: sink_summary.clone(),
            partial: "memory".into(),
        }) as Box<dyn TraceSink>)
    });
    let gz = dir.join("trace.json.gz");
    let mut config = config(vec![sqlite.as_path().into(), memory, gz.as_path().into()]);
    config.formats.push(stand_in);
    let tracer = Tracer::new(config).expect("every output has a sink");
    tracer.start().expect("start");
    program(0);
    let report = tracer.stop();
    assert!(report.is_complete(), "{}", report.render(5));
    let delivered = report.counts.delivered();
    assert_eq!(rows.load(Ordering::Relaxed), delivered, "the caller's sink got every row");
    let summary = summary.lock().unwrap().clone().expect("finished with the summary");
    assert_eq!(summary["records_delivered"], delivered);
    assert_eq!(support::trace::check(&dir.join("trace.json")).count("kernel"), 4, "the stand-in's file");
    let gz_file = report.traces[2].result.as_ref().expect("the gzip trace");
    assert!(gz_file.file_bytes > 0 && gz_file.file_bytes < gz_file.json_bytes, "{gz_file:?}");
}

#[test]
fn a_rank_names_its_file_and_its_trace() {
    let _serial = serial();
    let dir = support::temp_dir("cupti-rank");
    let rank = Distributed { rank: 1, world_size: 2, local_rank: Some(1) };
    let shared = TracerConfig { distributed: Some(rank), ..config(vec![dir.join("trace.json").into()]) };
    let e = Tracer::new(shared).expect_err("both ranks would write trace.json");
    assert!(matches!(&e, TracerError::Config(m) if m.contains("put %r")), "{e}");

    let config = TracerConfig { distributed: Some(rank), ..config(vec![dir.join("trace_%r.json").into()]) };
    let tracer = Tracer::new(config).expect("a tracer of rank 1");
    assert_eq!(tracer.distributed(), rank);
    tracer.start().expect("start");
    program(1);
    let report = tracer.stop();
    assert!(report.is_complete(), "{}", report.render(5));
    let trace = support::trace::check(&dir.join("trace_1.json"));
    assert_eq!(trace.rank, 1);
    assert_eq!(trace.doc["distributedInfo"]["world_size"], 2);
    assert_eq!(trace.doc["distributedInfo"]["backend"], "nccl");
    assert_eq!(trace.doc["local_rank"], 1);
    assert_eq!(trace.kernel_devices, [1].into_iter().collect(), "the rank's kernels on its device");
}

/// `n` runtime launches of one kernel on stream 1.
fn kernels(n: usize) {
    for _ in 0..n {
        mock().launch(c"k_window", [1, 1, 1], [32, 1, 1], 0, 1);
    }
}

#[test]
fn paused_work_is_not_collected_and_the_windows_are_counted() {
    let _serial = serial();
    support::window::pause_and_resume(config(Vec::new()), &kernels);
}

#[test]
fn collection_begins_after_the_delay_and_the_outputs_are_finished_after_the_duration() {
    let _serial = serial();
    let dir = support::temp_dir("cupti-window");
    support::window::delay_then_duration(config(Vec::new()), dir.path(), &kernels);
}

#[test]
fn the_file_follows_the_run_within_the_flush_period() {
    let _serial = serial();
    let dir = support::temp_dir("cupti-periodic");
    support::window::the_file_follows_the_run(config(Vec::new()), dir.path(), &kernels);
}

#[test]
fn the_toggle_signal_pauses_and_resumes() {
    if !support::in_child("the_toggle_signal_pauses_and_resumes", support::ChildEnv::new()) {
        return;
    }
    support::window::toggle_signal(config(Vec::new()), &kernels);
}

#[test]
fn a_consumer_may_call_its_tracer_while_another_thread_flushes() {
    let _serial = serial();
    support::window::consumer_calls_its_tracer(config(Vec::new()), &kernels);
}

#[test]
fn a_later_tracer_gets_its_toggle_signal() {
    if !support::in_child("a_later_tracer_gets_its_toggle_signal", support::ChildEnv::new()) {
        return;
    }
    support::window::later_toggle_signal(config(Vec::new()), &kernels);
}

#[test]
fn a_toggle_signal_that_cannot_toggle_is_refused() {
    let _serial = serial();
    support::window::toggle_signal_refused(config(Vec::new()));
}

#[test]
fn a_terminating_signal_finishes_the_outputs_then_kills() {
    if support::is_child() {
        return support::window::signal_child(config(Vec::new()), &kernels);
    }
    support::window::signal_finishes_the_outputs(
        "a_terminating_signal_finishes_the_outputs_then_kills",
        support::ChildEnv::new(),
        Vendor::Cupti,
    );
}

#[test]
fn a_terminating_signal_kills_a_program_that_closed_the_signal_pipe() {
    if support::is_child() {
        return support::window::closed_pipe_child(config(Vec::new()));
    }
    support::window::a_closed_signal_pipe_is_never_written(
        "a_terminating_signal_kills_a_program_that_closed_the_signal_pipe",
        support::ChildEnv::new(),
    );
}

/// With the profiler-API capture range, only the work between cudaProfilerStart and
/// cudaProfilerStop is collected, one window per range.
#[test]
fn the_profiler_api_capture_range_collects_between_start_and_stop() {
    let _serial = serial();
    let (start, stop) =
        (cupti::RuntimeCbid::cudaProfilerStart_v4000.0, cupti::RuntimeCbid::cudaProfilerStop_v4000.0);
    let call = |cbid| mock().api_call(2, cbid, None, 0);
    let tracer = Tracer::new(TracerConfig {
        capture_range: accel_profiling::CaptureRange::ProfilerApi,
        ..config(Vec::new())
    })
    .expect("a tracer following cudaProfilerStart/Stop");
    tracer.start().expect("start");
    assert!(!tracer.is_collecting(), "waiting for cudaProfilerStart");
    for round in [7, 3] {
        kernels(5);
        call(start);
        assert!(tracer.is_collecting());
        kernels(round);
        call(stop);
        assert!(!tracer.is_collecting());
    }
    kernels(5);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 10, "{}", report.render(5));
    assert_eq!(report.windows, 2);
}

/// Under the launcher the tracer claims its output in the launcher's channel: a name another process
/// of the run claimed first becomes `name.<pid>.ext`; it tells the launcher where each file is
/// written and how it ended, as the CUDA injection library did.
#[test]
fn under_the_launcher_outputs_are_claimed_and_the_launcher_is_told() {
    use accel_profiling::launcher::{self, Channel, Line};
    let _serial = serial();
    let dir = support::temp_dir("cupti-launcher");
    let channel = Channel::create().expect("the launcher's channel");
    let (taken, mine) = (dir.join("taken.json"), dir.join("mine.json"));
    assert!(launcher::claim(channel.dir(), &taken), "another process of the run claims it first");
    let tracer = Tracer::new(TracerConfig {
        launcher_report: Some(channel.dir().to_path_buf()),
        ..config(vec![taken.as_path().into(), mine.as_path().into()])
    })
    .expect("a tracer under the launcher");
    tracer.start().expect("start");
    kernels(2);
    let report = tracer.stop();
    let pid = std::process::id();
    let numbered = launcher::numbered(&taken, pid);
    let written: Vec<PathBuf> =
        report.traces.iter().map(|t| t.result.as_ref().expect("written").path.clone()).collect();
    assert_eq!(written, [numbered.clone(), mine.clone()]);
    assert!(numbered.exists() && mine.exists() && !taken.exists());
    let lines = channel.read();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let (from, lines) = &lines[0];
    assert_eq!(*from, pid);
    let starts: Vec<&PathBuf> = lines
        .iter()
        .filter_map(|l| if let Line::Start { output, .. } = l { Some(output) } else { None })
        .collect();
    assert_eq!(starts, [&numbered, &mine], "{lines:?}");
    let ends: Vec<&PathBuf> =
        lines.iter().filter_map(|l| if let Line::End { path, .. } = l { Some(path) } else { None }).collect();
    assert_eq!(ends, [&numbered, &mine], "{lines:?}");
    assert!(!lines.iter().any(|l| matches!(l, Line::Failed(_) | Line::Lost { .. })), "{lines:?}");

    // A tracer that cannot start says why to the launcher.
    let refused = Tracer::new(TracerConfig {
        launcher_report: Some(channel.dir().to_path_buf()),
        ..config(vec![dir.join("trace.txt").as_path().into()])
    });
    assert!(matches!(refused, Err(TracerError::UnknownFormat { .. })), "{refused:?}");
    let lines = channel.read();
    let failed: Vec<&String> = lines[0]
        .1
        .iter()
        .filter_map(|l| if let Line::StartFailed(why) = l { Some(why) } else { None })
        .collect();
    assert_eq!(failed.len(), 1, "{lines:?}");
    assert!(failed[0].contains("trace.txt"), "{failed:?}");
}

/// A second `start` during the delay started a second window timer, whose resume undid a pause
/// made after the first one's.
#[test]
fn a_second_start_does_not_start_a_second_window() {
    let _serial = serial();
    let tracer =
        Tracer::new(TracerConfig { delay: std::time::Duration::from_millis(300), ..config(Vec::new()) })
            .expect("a tracer on the mock");
    tracer.start().expect("start");
    std::thread::sleep(std::time::Duration::from_millis(150));
    tracer.start().expect("start again: a no-op");
    support::window::wait_until("the end of the delay", || tracer.is_collecting());
    assert!(tracer.pause());
    std::thread::sleep(std::time::Duration::from_millis(450));
    assert!(!tracer.is_collecting(), "nothing resumed behind the pause");
    assert_eq!(tracer.stop().windows, 1);
}

/// What a front door does: the configuration from the `ACCELPROF_*` variables (a process of its
/// own, with them set), and the engine on it.
#[test]
fn the_settings_from_the_environment_drive_the_engine() {
    let dir = std::env::temp_dir().join(format!("accel-tracer-cupti-env-{}", std::process::id()));
    let env = support::ChildEnv::new()
        .set("ACCELPROF_VENDOR", "cupti")
        .set("ACCELPROF_LIBRARY", LIBRARY)
        .set("ACCELPROF_OUTPUT", format!("{0}/t_%p.json.gz,{0}/t_%p.parquet", dir.display()))
        .set("ACCELPROF_SUMMARY_JSON", format!("{}/summary_%p.json", dir.display()))
        .set("ACCELPROF_FAMILIES", "kernel,api")
        .set("ACCELPROF_GZIP_LEVEL", "9")
        .set("ACCELPROF_SIGNALS", "off")
        .set("ACCELPROF_SUMMARY", "off")
        .set("ACCEL_TRACER_TEST_DIR", dir.display().to_string());
    if !support::in_child("the_settings_from_the_environment_drive_the_engine", env) {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let dir = PathBuf::from(std::env::var("ACCEL_TRACER_TEST_DIR").expect("the parent's directory"));
    std::fs::create_dir_all(&dir).unwrap();
    let (config, warnings) = TracerConfig::from_env();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(config.families, FamilySet::KERNEL | FamilySet::API);
    let tracer = Tracer::new(TracerConfig { synchronize: config_sync(), ..config }).expect("the engine");
    assert!(tracer.handled_signals().is_empty() && tracer.toggle_signal().is_none());
    tracer.start().expect("start");
    kernels(4);
    let report = tracer.stop();
    let pid = std::process::id();
    let written: Vec<PathBuf> =
        report.traces.iter().map(|t| t.result.as_ref().expect("written").path.clone()).collect();
    assert_eq!(written, [dir.join(format!("t_{pid}.json.gz")), dir.join(format!("t_{pid}.parquet"))]);
    assert_eq!(report.rows_of(Family::KERNEL), 4);
    assert_eq!(report.rows_of(Family::MEMCPY), 0, "only the families asked for");
    let json: Value =
        serde_json::from_slice(&std::fs::read(dir.join(format!("summary_{pid}.json"))).expect("summary"))
            .unwrap();
    assert_eq!((json["vendor"].as_str(), json["kernel_records"].as_u64()), (Some("cupti"), Some(4)));
}

/// The mock's device synchronize, for a configuration made elsewhere.
fn config_sync() -> Option<Synchronize> {
    config(Vec::new()).synchronize
}

/// Kernel names as PyTorch's profiler shows them: the C++ runtime's `__cxa_demangle`, found in a
/// process whose libstdc++ came in without global visibility (as a Python extension module brings
/// it); the trace says which demangler named them. (Ported from cupti-trace's tests.)
#[test]
fn kernel_names_are_the_cxx_runtimes_as_pytorchs_profiler_shows_them() {
    let _serial = serial();
    // SAFETY: libstdc++'s initialisers are the C++ runtime's own.
    let _cxx = unsafe { libloading::Library::new("libstdc++.so.6") }.expect("libstdc++.so.6 is installed");
    let dir = support::temp_dir("cupti-names");
    let path = dir.join("trace.json");
    let tracer = Tracer::new(config(vec![path.as_path().into()])).expect("a tracer on the mock");
    tracer.start().expect("start");
    let mangled = [
        (
            c"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_",
            "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
        ),
        (
            c"_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastINS0_2OpEEEvRKT_EUliE_EEviT1_",
            "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::Op>(at::native::Op const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::Op>(at::native::Op const&)::{lambda(int)#1})",
        ),
        (c"triton_poi_fused_add_0", "triton_poi_fused_add_0"),
    ];
    let m = mock();
    for (raw, _) in &mangled {
        for _ in 0..3 {
            m.launch(raw, [4, 2, 1], [128, 1, 1], 0, 7);
        }
    }
    m.device_synchronize();
    let report = tracer.stop();
    assert!(report.is_complete(), "{}", report.render(10));
    let trace: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(trace["kernel_name_demangler"], "abi::__cxa_demangle");
    let events = trace["traceEvents"].as_array().unwrap();
    for (raw, shown) in mangled {
        let n = events.iter().filter(|e| e["cat"] == "kernel" && e["name"] == shown).count();
        assert_eq!(n, 3, "{raw:?} is shown as {shown}");
    }
}

#[test]
fn the_api_filter_applied_while_decoding_delivers_the_same_calls_and_counts_the_rest() {
    let _serial = serial();
    let run = |in_decoder: bool| {
        let tracer =
            Tracer::new(TracerConfig { cuda_api_filter_in_decoder: in_decoder, ..config(Vec::new()) })
                .expect("a tracer on the mock");
        let api: Arc<Mutex<Batch>> = Arc::default();
        let keep = api.clone();
        tracer.subscribe(FamilySet::API, move |batch, _| support::keep(&keep, batch));
        tracer.start().expect("start");
        program(0);
        let report = tracer.stop();
        assert!(report.is_complete(), "{}", report.render(10));
        let c = report.counts.clone();
        assert!(c.adds_up() && c.dropped() == 0, "{c}");
        let mut calls: Vec<(u32, u32)> = {
            let b = api.lock().unwrap();
            b.api_calls.domain().iter().zip(b.api_calls.cbid()).map(|(d, c)| (*d, *c)).collect()
        };
        calls.sort();
        (calls, c)
    };
    let (in_cupti, c) = run(false);
    assert_eq!(c.filtered(), 0, "{c}");
    let (in_decoder, c) = run(true);
    assert_eq!(in_decoder, in_cupti, "the timeline filter keeps the same calls wherever it applies");
    // The driver calls under the runtime's (cuMemAlloc, cuMemcpy, ...) are left out by the timeline
    // filter: recorded by CUPTI now, and counted.
    assert!(c.filtered() > 0, "{c}");
    assert_eq!(c.produced(), c.delivered() + c.dropped() + c.filtered(), "{c}");
    assert!(c.to_string().contains("filtered out"), "{c}");
}
