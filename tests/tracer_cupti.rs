//! The tracer on the mock `libcupti`, in this process as a program that traces itself: the mock's
//! controls play the CUDA program (API calls, kernels, copies, sets, NVTX ranges on the calling
//! thread), the tracer delivers them to subscribers and writes them to its outputs.

mod support;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use accel_profiling::accelprof_core::activity::ActivityError;
use accel_profiling::accelprof_core::trace::{ChromeTraceWriter, TimeMap, TraceFile, TraceMeta, TraceSink};
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

    // Another crate's format (a stand-in here), a caller's own sink and a gzip trace, together.
    let stand_in = Format::new("a stand-in for SQLite", ["sqlite"], |path, meta| {
        Ok(Box::new(ChromeTraceWriter::create(path.with_extension("json"), meta.clone())?)
            as Box<dyn TraceSink>)
    });
    let (rows, summary) = (Arc::new(AtomicU64::new(0)), Arc::new(Mutex::new(None)));
    let (sink_rows, sink_summary) = (rows.clone(), summary.clone());
    let memory = Output::sink(move |meta: &TraceMeta| {
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
