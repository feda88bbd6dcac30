//! [`Tracer`]: an activity session whose batches stream to a Chrome trace and a kernel summary.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use accelprof_core::{Batch, Family, FamilySet, Names};
use accelprof_export::demangle::Demangler;
use accelprof_export::trace::{cuda_driver_version, host_name, RunMeta, TraceFile, TraceSink, WriterOptions};
use cupti::activity::{unix_now_ns, ActivityCounts, ActivitySession, ApiFilter, KernelNameTransform};
use cupti::{Cupti, Subscriber};

use crate::collection::Collection;
use crate::outputs::Outputs;
use crate::{KernelSummary, TraceConfig};

/// What the consumer (on the decode thread) builds.
struct TraceState {
    /// The trace being written; `None` without one, or after a write failed.
    sink: Option<Box<dyn TraceSink>>,
    /// Why the trace stopped being written.
    sink_error: Option<String>,
    summary: KernelSummary,
    rows: [u64; Family::ALL.len()],
}

/// A running tracer: CUPTI records of this process stream to a Chrome trace (PyTorch profiler
/// conventions, written batch by batch: see [`ChromeTraceWriter`](accelprof_export::trace::ChromeTraceWriter)),
/// to the other outputs asked for (Parquet, Perfetto), and to a per-kernel summary.
pub struct Tracer {
    session: ActivitySession<'static>,
    state: Arc<Mutex<TraceState>>,
    config: TraceConfig,
    names: Names,
    collection: Arc<Collection>,
    ranges: Option<Subscriber<'static>>,
    partial: Option<PathBuf>,
    /// Every output being written: (partial file, final name).
    files: Vec<(PathBuf, PathBuf)>,
    demangler: Option<&'static str>,
}

impl std::fmt::Debug for Tracer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tracer")
            .field("session", &self.session)
            .field("output", &self.config.output)
            .field("partial", &self.partial)
            .field("collecting", &self.collection.is_collecting())
            .finish_non_exhaustive()
    }
}

/// What a finished trace holds.
#[derive(Debug)]
pub struct TraceReport {
    /// The file asked for, if any.
    pub output: Option<PathBuf>,
    /// The file written (its path, events, size), when it was.
    pub trace: Option<TraceFile>,
    /// Events in it made from records (not counting timeline names and flow arrows).
    pub events: usize,
    /// Rows delivered per family (`Family` order).
    pub rows: [u64; Family::ALL.len()],
    /// The session's final tallies.
    pub counts: ActivityCounts,
    /// Time per kernel.
    pub summary: KernelSummary,
    /// Names of the summary's ids.
    pub names: Names,
    /// `Err` when the trace could not be written completely (the message says why, and where what was
    /// written is).
    pub write_result: Result<(), String>,
    /// The demangler that named the kernels (`abi::__cxa_demangle`, `cpp_demangle`), when demangling.
    pub demangler: Option<&'static str>,
    /// Collection windows (more than 1 when collection was paused and resumed).
    pub windows: u32,
}

/// Kernel names as PyTorch's profiler shows them, each distinct raw name demangled once.
fn kernel_names(demangler: Demangler) -> KernelNameTransform {
    let memo: Mutex<HashMap<Box<[u8]>, Option<String>>> = Mutex::new(HashMap::new());
    KernelNameTransform::new(move |raw: &[u8]| {
        let mut memo = memo.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = memo.get(raw) {
            return known.clone();
        }
        let shown = demangler.demangle(raw);
        memo.insert(raw.into(), shown.clone());
        shown
    })
}

/// `python train.py --lr 1e-3` from `/proc/self/cmdline` (else the executable's name), shortened.
fn process_label() -> String {
    let from_cmdline = std::fs::read("/proc/self/cmdline").ok().map(|raw| {
        raw.split(|b| *b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    });
    let label = from_cmdline.filter(|l| !l.is_empty()).unwrap_or_else(|| {
        std::env::current_exe()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "process".to_owned())
    });
    if label.chars().count() > 80 {
        label.chars().take(77).collect::<String>() + "..."
    } else {
        label
    }
}

impl Tracer {
    /// Starts tracing with `cupti`: records from now on (or from the end of the configured delay, or from
    /// the first `cudaProfilerStart` with [`TraceConfig::profiler_range`]).
    pub fn start(cupti: &'static Cupti, config: TraceConfig) -> cupti::Result<Tracer> {
        let mut activity = config.activity.clone();
        let mut demangler = None;
        if config.demangle && activity.kernel_names.is_none() {
            let d = Demangler::new();
            demangler = Some(d.kind().label());
            activity.kernel_names = Some(kernel_names(d));
        }
        if !activity.api_filter.is_all() && !ApiFilter::supported_by(cupti) {
            // A library that cannot filter API calls (before 12.5) traces every call rather than none.
            crate::report("this CUPTI cannot filter API calls: recording every runtime and driver call");
            activity.api_filter = ApiFilter::all();
        }
        let session = ActivitySession::new(cupti, activity)?;
        let mut sink_error = None;
        let mut files = Vec::new();
        let sink: Option<Box<dyn TraceSink>> = config.output.as_ref().and_then(|path| {
            let mut metadata = vec![
                ("cupti_version".to_owned(), cupti.api_version().into()),
                ("record_clock_is_realtime".to_owned(), session.clock().is_realtime.into()),
            ];
            if let Some(kind) = demangler {
                metadata.push(("kernel_name_demangler".to_owned(), kind.into()));
            }
            let mut library_versions = vec![("cupti".to_owned(), cupti.api_version().to_string())];
            library_versions.extend(cuda_driver_version().map(|v| ("cuda_driver".to_owned(), v)));
            let meta = RunMeta {
                host: host_name(),
                vendor: "cupti".to_owned(),
                library_versions,
                start_unix_ns: unix_now_ns(),
                rank: config.rank,
                world_size: config.world_size,
                backend: (config.world_size > 1).then(|| "nccl".to_owned()),
                trace_name: Some("cupti-trace".to_owned()),
                extra: metadata,
                ..RunMeta::default()
            };
            let options = WriterOptions {
                gzip_level: config.gzip_level,
                pending_flows: config.pending_flows,
                ..WriterOptions::default()
            };
            let pid = std::process::id();
            let paths: Vec<PathBuf> =
                std::iter::once(path.clone()).chain(config.more_outputs.iter().cloned()).collect();
            match Outputs::create(&paths, &meta, &options, &format!("{} (pid {pid})", process_label())) {
                Ok(outputs) => {
                    files = outputs.files();
                    Some(Box::new(outputs) as Box<dyn TraceSink>)
                }
                Err(e) => {
                    sink_error = Some(e);
                    None
                }
            }
        });
        let partial = sink.as_ref().map(|s| s.partial_path().to_path_buf());
        let state = Arc::new(Mutex::new(TraceState {
            sink,
            sink_error,
            summary: KernelSummary::default(),
            rows: Default::default(),
        }));
        let time = session.clock().time_map;
        let consumer_state = Arc::clone(&state);
        session.subscribe(FamilySet::all(), move |batch: &Batch, names: &Names| {
            let mut guard = consumer_state.lock().unwrap_or_else(|e| e.into_inner());
            let s = &mut *guard;
            for (i, family) in Family::ALL.iter().enumerate() {
                s.rows[i] += batch.len_of(*family) as u64;
            }
            s.summary.add(batch);
            if let Some(sink) = s.sink.as_mut() {
                if let Err(e) = sink.add_batch(batch, names, &time) {
                    // What was written stays a whole trace in the partial file.
                    s.sink_error = Some(format!("writing {} failed: {e}", sink.partial_path().display()));
                    s.sink = None;
                }
            }
        });
        session.start()?;
        let collection = Collection::new(cupti, session.switch());
        let mut ranges = None;
        if config.profiler_range {
            collection.start_paused();
            ranges = Some(collection.follow_profiler_ranges()?);
        } else if !config.delay.is_zero() {
            collection.start_paused();
        }
        collection
            .schedule(if config.profiler_range { Default::default() } else { config.delay }, config.duration);
        let names = session.names();
        Ok(Tracer { session, state, config, names, collection, ranges, partial, files, demangler })
    }

    /// The session (to flush, read counts, push external correlation ids).
    pub fn session(&self) -> &ActivitySession<'static> {
        &self.session
    }

    /// Pausing and resuming collection.
    pub fn collection(&self) -> &Arc<Collection> {
        &self.collection
    }

    /// The file the trace streams to until it is finished (`None` without a trace).
    pub fn partial_path(&self) -> Option<&std::path::Path> {
        self.partial.as_deref()
    }

    /// Every output file being written, as (the file written until the end, its final name).
    pub fn files(&self) -> &[(PathBuf, PathBuf)] {
        &self.files
    }

    /// Why the trace is not being written (could not be created, or a write failed), if it is not.
    pub fn trace_error(&self) -> Option<String> {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).sink_error.clone()
    }

    /// The configuration.
    pub fn config(&self) -> &TraceConfig {
        &self.config
    }

    /// Hands over what CUPTI has collected and waits until it is in the trace file (a whole trace up to
    /// here: the file at [`partial_path`](Self::partial_path) opens in Perfetto and HTA).
    pub fn checkpoint(&self) -> Result<(), String> {
        self.session.flush().map_err(|e| e.to_string())?;
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match state.sink.as_mut() {
            Some(sink) => sink.sync().map_err(|e| e.to_string()),
            None => state.sink_error.clone().map_or(Ok(()), Err),
        }
    }

    /// Ends the session (final fence and flush), finishes the trace (its summary in it) and renames it into
    /// place, and returns what was collected.
    pub fn finish(self) -> TraceReport {
        let Tracer { session, state, config, names, collection, ranges, demangler, .. } = self;
        collection.end();
        drop(ranges);
        let end = session.end();
        if let Err(e) = &end.fence {
            crate::report(&format!(
                "the final fence did not complete ({e}); records were flushed all the same"
            ));
        }
        let counts = end.counts;
        let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
        let mut report = TraceReport {
            output: config.output.clone(),
            trace: None,
            events: 0,
            rows: state.rows,
            counts,
            summary: std::mem::take(&mut state.summary),
            names,
            write_result: Ok(()),
            demangler,
            windows: collection.windows(),
        };
        let sink = state.sink.take();
        if let Some(error) = state.sink_error.take() {
            report.write_result = Err(error);
        }
        if let Some(sink) = sink {
            let summary = report.summary_json(config.summary_top);
            match sink.finish(Some(&summary)) {
                Ok(file) => {
                    report.events = file.rows as usize;
                    report.trace = Some(file);
                }
                Err(e) => report.write_result = Err(format!("could not finish the trace: {e}")),
            }
        }
        report
    }
}

impl TraceReport {
    /// The summary as JSON: kernels per name (by total time), record counts, losses, the trace file.
    /// A `serde_json::Value` on purpose: the document itself, to serialize or walk.
    pub fn to_json(&self) -> serde_json::Value {
        self.json(usize::MAX)
    }

    /// What the trace file's `traceSummary` holds: [`to_json`](Self::to_json) with the `top` kernels.
    fn summary_json(&self, top: usize) -> serde_json::Value {
        self.json(top)
    }

    fn json(&self, top: usize) -> serde_json::Value {
        let p = &self.counts.pipeline;
        let ranked = self.summary.ranked();
        let distinct = ranked.len();
        let kernels: Vec<serde_json::Value> = ranked
            .into_iter()
            .take(top)
            .map(|(name, s)| {
                serde_json::json!({
                    "name": self.names.resolve(name),
                    "count": s.count,
                    "total_ns": s.total_ns,
                    "min_ns": s.min_ns,
                    "max_ns": s.max_ns,
                })
            })
            .collect();
        let families = [
            "kernel",
            "memcpy",
            "memset",
            "api",
            "marker",
            "collective",
            "memory",
            "sync",
            "external_correlation",
            "counter",
        ];
        let rows: serde_json::Map<String, serde_json::Value> =
            families.iter().zip(self.rows).map(|(f, n)| ((*f).to_owned(), n.into())).collect();
        serde_json::json!({
            "kernel_records": self.summary.kernels(),
            "incomplete_kernels": self.summary.incomplete(),
            "rows": rows,
            "records_delivered": p.records_delivered,
            "records_dropped": p.records_dropped(),
            "cupti_dropped": p.vendor_dropped,
            "buffers_declined": p.buffers_declined,
            "buffers_completed": p.buffers_completed,
            "overflow_buffers": self.counts.overflow_buffers,
            "fence_records": self.counts.vendor.decoder.fence_records,
            "other_client": {
                "buffers_taken": self.counts.other_client.buffers_taken,
                "foreign_buffers": self.counts.other_client.foreign_buffers,
                "missing_since_unix_ns": self.counts.other_client.missing_since(),
            },
            "trace": self.output.as_ref().map(|p| p.display().to_string()),
            "trace_events": self.events,
            "trace_bytes": self.trace.as_ref().map(|t| t.file_bytes),
            "kernel_name_demangler": self.demangler,
            "collection_windows": self.windows,
            "distinct_kernels": distinct,
            "kernels": kernels,
        })
    }

    /// What the tracer prints at exit: the kernel table (`top` rows), then the record counts and where the
    /// trace went.
    pub fn render(&self, top: usize, with_summary: bool) -> String {
        let mut out = String::new();
        if with_summary {
            out.push_str(&self.summary.render(&self.names, top));
        }
        let p = &self.counts.pipeline;
        let labels = [
            "kernel",
            "memcpy",
            "memset",
            "api",
            "marker",
            "collective",
            "memory",
            "sync",
            "external",
            "counter",
        ];
        let rows: Vec<String> = labels
            .iter()
            .zip(self.rows)
            .filter(|(_, n)| *n > 0)
            .map(|(label, n)| format!("{label} {n}"))
            .collect();
        out.push_str(&format!(
            "records: {} delivered ({}), {} dropped (CUPTI dropped {}, buffers declined {}, skipped {}, unconsumed {})\n",
            p.records_delivered,
            rows.join(", "),
            p.records_dropped(),
            p.vendor_dropped,
            p.buffers_declined,
            p.skipped_unknown,
            p.records_unconsumed,
        ));
        if self.counts.other_client.seen() {
            out.push_str(&format!("{}\n", self.counts.other_client.summary_line("CUPTI")));
        }
        match (&self.trace, &self.write_result) {
            (Some(file), Ok(())) => out.push_str(&format!(
                "trace: {} ({} events, {})\n",
                file.path.display(),
                file.events,
                human_bytes(file.file_bytes)
            )),
            (_, Err(e)) => out.push_str(&format!("trace NOT complete: {e}\n")),
            (None, Ok(())) => {}
        }
        out
    }
}

/// `1.5 MB`, `320 kB`, `12 B`.
pub(crate) fn human_bytes(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000_000 => format!("{:.2} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{:.0} kB", b as f64 / 1e3),
        b => format!("{b} B"),
    }
}
