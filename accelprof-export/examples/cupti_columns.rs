//! A CUDA injection library writing one process's records in all three formats from the same batches:
//! `rank<R>.parquet`, `rank<R>.pftrace` and `rank<R>.json` (Chrome JSON, as the tracer writes it), so that
//! their kernel counts can be compared. What a tracer that feeds these writers does (the vendor-neutral tracer
//! will); an example, not a tool.
//!
//! ```text
//! cargo build --release -p accelprof-export --example cupti_columns
//! ACCELPROF_OUT=traces/ CUDA_INJECTION64_PATH=$PWD/target/release/examples/libcupti_columns.so python train.py
//! ```
//!
//! `RANK` and `WORLD_SIZE` (as torch.distributed sets them) name the files; kernel names are demangled as
//! PyTorch's profiler shows them; NVTX ranges are recorded when `NVTX_INJECTION64_PATH` names libcupti. A line
//! on stderr at exit says what was written.

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use accelprof_core::{Batch, FamilySet, Names};
use accelprof_export::parquet::{ParquetOptions, ParquetWriter};
use accelprof_export::perfetto::{PerfettoOptions, PerfettoWriter};
use accelprof_export::trace::{ChromeTrace, Style};
use accelprof_export::{BatchWriter, ClockAnchor, RunMeta};
use cupti::activity::{
    unix_now_ns, ActivityConfig, ActivityKind, ActivityKinds, ActivitySession, KernelNameTransform,
};
use cupti::Cupti;

struct Outputs {
    dir: PathBuf,
    stem: String,
    writers: Vec<(&'static str, Option<Box<dyn BatchWriter>>)>,
    json: ChromeTrace,
    errors: Vec<String>,
    kernels: u64,
}

impl Outputs {
    fn add(&mut self, batch: &Batch, names: &Names, time: &accelprof_export::trace::TimeMap) {
        self.kernels += batch.kernels.len() as u64;
        self.json.add_batch(batch, names, time);
        for (what, slot) in &mut self.writers {
            if let Some(w) = slot {
                if let Err(e) = w.write_batch(batch, names) {
                    self.errors.push(format!("{what}: {e}"));
                    *slot = None;
                }
            }
        }
    }
}

struct Running {
    session: ActivitySession<'static>,
    outputs: Arc<Mutex<Outputs>>,
    pid: u32,
}

static RUNNING: Mutex<Option<Running>> = Mutex::new(None);

fn report(msg: &str) {
    eprintln!("[accelprof] {msg}");
}

fn demangle(raw: &[u8]) -> Option<String> {
    if !raw.starts_with(b"_Z") {
        return None;
    }
    cpp_demangle::Symbol::new(raw).ok()?.demangle().ok()
}

fn env_u32(name: &str, default: u32) -> u32 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname").map(|h| h.trim().to_owned()).unwrap_or_default()
}

/// Called by the CUDA driver inside `cuInit` (`CUDA_INJECTION64_PATH`). Returns 1 even when tracing cannot
/// start (the reason is on stderr): the program runs on.
#[no_mangle]
pub extern "C" fn InitializeInjection() -> c_int {
    if catch_unwind(start).is_err() {
        report("internal error while starting; the program runs untraced");
    }
    1
}

fn start() {
    let mut slot = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if slot.is_some() {
        return;
    }
    let cupti = match Cupti::global() {
        Ok(c) => c,
        Err(e) => return report(&format!("cannot load CUPTI, not tracing: {e}")),
    };
    let config = ActivityConfig {
        // What the tracer records on CUDA, and NVTX ranges (`ProfilerStep#N` steps; CUPTI sees them when
        // NVTX_INJECTION64_PATH names libcupti).
        kinds: ActivityKinds::timeline().with(ActivityKind::MARKER),
        kernel_names: Some(KernelNameTransform::new(demangle)),
        fence_timeout: std::time::Duration::from_secs(5),
        ..ActivityConfig::default()
    };
    let session = match ActivitySession::new(cupti, config) {
        Ok(s) => s,
        Err(e) => return report(&format!("cannot start tracing: {e}")),
    };
    let (rank, world_size) = (env_u32("RANK", 0), env_u32("WORLD_SIZE", 1));
    let clock = session.clock();
    let meta = RunMeta {
        rank,
        world_size,
        host: host(),
        process_id: std::process::id(),
        vendor: "cupti".into(),
        library_versions: vec![("cupti".into(), cupti.api_version().to_string())],
        clock: ClockAnchor::from_time_map(
            if clock.is_realtime { "CLOCK_REALTIME" } else { "cupti" },
            clock.time_map,
            clock.cupti_ns,
        ),
        backend: (world_size > 1).then(|| "nccl".into()),
        trace_name: Some("accelprof cupti_columns".into()),
        ..RunMeta::default()
    };
    let categories = Style::of_vendor("cupti").categories;
    let dir = PathBuf::from(std::env::var("ACCELPROF_OUT").unwrap_or_else(|_| ".".into()));
    let _ = std::fs::create_dir_all(&dir);
    let stem = format!("rank{rank}");
    let parquet =
        ParquetWriter::create(dir.join(format!("{stem}.parquet")), &meta, ParquetOptions::default());
    let perfetto = PerfettoWriter::create(
        dir.join(format!("{stem}.pftrace")),
        &meta,
        PerfettoOptions { categories: categories.clone(), ..PerfettoOptions::default() },
    );
    let mut errors = Vec::new();
    let mut writers: Vec<(&'static str, Option<Box<dyn BatchWriter>>)> = Vec::new();
    match parquet {
        Ok(w) => writers.push(("parquet", Some(Box::new(w)))),
        Err(e) => errors.push(format!("parquet: {e}")),
    }
    match perfetto {
        Ok(w) => writers.push(("perfetto", Some(Box::new(w)))),
        Err(e) => errors.push(format!("perfetto: {e}")),
    }
    let json = ChromeTrace::new(RunMeta { start_unix_ns: unix_now_ns(), ..meta.clone() });
    let outputs = Arc::new(Mutex::new(Outputs { dir, stem, writers, json, errors, kernels: 0 }));
    let sink = Arc::clone(&outputs);
    let time = clock.time_map;
    session.subscribe(FamilySet::all(), move |batch, names| {
        sink.lock().unwrap_or_else(|e| e.into_inner()).add(batch, names, &time);
    });
    if let Err(e) = session.start() {
        return report(&format!("cannot start tracing: {e}"));
    }
    *slot = Some(Running { session, outputs, pid: std::process::id() });
    // SAFETY: `at_exit` is an `extern "C" fn()` that never unwinds.
    if unsafe { libc::atexit(at_exit) } != 0 {
        report("could not register the exit handler: nothing will be written");
    }
}

extern "C" fn at_exit() {
    let _ = catch_unwind(AssertUnwindSafe(finish));
}

fn finish() {
    let Some(running) = RUNNING.lock().unwrap_or_else(|e| e.into_inner()).take() else { return };
    if running.pid != std::process::id() {
        return; // a forked child inherited the handler, not the session
    }
    let end = running.session.end();
    let mut out = running.outputs.lock().unwrap_or_else(|e| e.into_inner());
    let mut written = Vec::new();
    for (what, slot) in std::mem::take(&mut out.writers) {
        if let Some(w) = slot {
            match w.finish() {
                Ok(f) => written.push(format!("{what} {} ({} bytes)", f.path.display(), f.bytes)),
                Err(e) => out.errors.push(format!("{what}: {e}")),
            }
        }
    }
    let json = out.dir.join(format!("{}.json", out.stem));
    match out.json.write_to(&json) {
        Ok(()) => written.push(format!("json {}", json.display())),
        Err(e) => out.errors.push(format!("json: {e}")),
    }
    report(&format!(
        "{} kernels, {} records delivered, {} lost; wrote {}",
        out.kernels,
        end.counts.pipeline.records_delivered,
        end.counts.records_dropped(),
        written.join(", ")
    ));
    for e in &out.errors {
        report(&format!("error: {e}"));
    }
}
