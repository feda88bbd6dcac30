//! [`TracerReport`]: what a stopped tracer collected.

use std::fmt::Write;
use std::path::PathBuf;

use accelprof_core::columns::{Family, PerFamily};
use accelprof_core::Names;
use serde_json::{json, Value};

use super::{Distributed, LibraryInfo, Skipped, TraceOutcome, TracerCounts};
use accelprof_export::summary::KernelSummary;

/// What a tracer collected, returned by [`Tracer::stop`](super::Tracer::stop).
#[derive(Debug)]
pub struct TracerReport {
    /// The vendor library used.
    pub library: LibraryInfo,
    /// This process's rank.
    pub distributed: Distributed,
    /// The final tallies: produced = delivered + dropped.
    pub counts: TracerCounts,
    /// Rows delivered per family, in [`Family::ALL`] order (see [`rows_of`](Self::rows_of)).
    pub rows: PerFamily<u64>,
    /// Time per kernel name.
    pub summary: KernelSummary,
    /// Names of the summary's ids.
    pub names: Names,
    /// Each output, in the order of [`TracerConfig::outputs`](super::TracerConfig::outputs).
    pub traces: Vec<TraceOutcome>,
    /// Families (or vendor kinds) asked for and not collected, and why.
    pub skipped: Vec<Skipped>,
    /// What went wrong at the end (a final flush that did not complete), if anything.
    pub errors: Vec<String>,
    /// Collection windows: 1 when collection was never paused, more after
    /// [`Tracer::pause`](super::Tracer::pause) / [`resume`](super::Tracer::resume), a toggle signal
    /// or capture ranges, 0 when collection never began (a delay longer than the run).
    pub windows: u32,
}

impl TracerReport {
    /// Rows delivered of `family`.
    pub fn rows_of(&self, family: Family) -> u64 {
        self.rows.get(family).copied().unwrap_or(0)
    }

    /// Whether everything went to plan: every output written whole, no error at the end, and the
    /// counts add up.
    pub fn is_complete(&self) -> bool {
        self.errors.is_empty() && self.traces.iter().all(|t| t.result.is_ok()) && self.counts.adds_up()
    }

    /// The report as JSON, with every kernel (what the summary JSON holds; a trace file's `traceSummary`
    /// is the same made before the file is finished: its `trace` and `traces` name the outputs without
    /// their sizes).
    pub fn to_json(&self) -> Value {
        self.json(usize::MAX)
    }

    /// The report as the trace files hold it (`traceSummary`, Parquet's `accelprof.summary`), made
    /// before they are finished: `trace` and `traces` name the outputs by their final names (`planned`:
    /// each output's final name, and why it stopped being written when it did), and the figures known
    /// only once a file is finished (`trace_events`, `trace_bytes`, each trace's `events` and `bytes`: a
    /// file cannot hold its own size) are left out. The summary JSON and [`to_json`](Self::to_json) have
    /// them.
    pub(crate) fn embedded_json(&self, top: usize, planned: &[(Option<PathBuf>, Option<String>)]) -> Value {
        let mut doc = self.json(top);
        let name = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
        let first = planned.iter().find(|(p, stopped)| p.is_some() && stopped.is_none());
        let traces: Vec<Value> = planned
            .iter()
            .map(|(path, stopped)| match stopped {
                None => json!({"path": name(path)}),
                Some(e) => json!({"path": name(path), "error": e}),
            })
            .collect();
        if let Some(map) = doc.as_object_mut() {
            map.remove("trace_events");
            map.remove("trace_bytes");
            map.insert("trace".to_owned(), first.and_then(|(p, _)| name(p)).into());
            map.insert("traces".to_owned(), traces.into());
        }
        doc
    }

    pub(crate) fn json(&self, top: usize) -> Value {
        let ranked = self.summary.ranked();
        let kernels: Vec<Value> = ranked
            .iter()
            .take(top)
            .map(|(name, s)| {
                json!({
                    "name": self.names.resolve(*name),
                    "count": s.count,
                    "total_ns": s.total_ns,
                    "min_ns": s.min_ns,
                    "max_ns": s.max_ns,
                })
            })
            .collect();
        let rows: serde_json::Map<String, Value> =
            Family::ALL.iter().zip(self.rows).map(|(f, n)| (f.name().to_owned(), n.into())).collect();
        let extras: serde_json::Map<String, Value> =
            self.counts.vendor_extras.iter().map(|(k, v)| ((*k).to_owned(), (*v).into())).collect();
        let p = &self.counts.pipeline;
        // The files written, once finished (the summary inside each file is made before).
        let written: Vec<(String, u64, u64)> = self
            .traces
            .iter()
            .filter_map(|t| t.result.as_ref().ok())
            .map(|f| (f.path.display().to_string(), f.events, f.file_bytes))
            .collect();
        let first = written.first().cloned();
        let traces: Vec<Value> = self
            .traces
            .iter()
            .map(|t| match &t.result {
                Ok(f) => {
                    json!({"path": f.path.display().to_string(), "events": f.events, "bytes": f.file_bytes})
                }
                Err(e) => json!({"path": t.path.as_ref().map(|p| p.display().to_string()), "error": e}),
            })
            .collect();
        let mut doc = json!({
            "vendor": self.library.vendor.name(),
            "library": self.library.path.display().to_string(),
            "library_version": self.library.version,
            "rank": self.distributed.rank,
            "world_size": self.distributed.world_size,
            "records_produced": self.counts.produced(),
            "records_delivered": self.counts.delivered(),
            "records_dropped": self.counts.dropped(),
            "vendor_dropped": p.vendor_dropped,
            "buffers_declined": p.buffers_declined,
            "skipped_unknown": p.skipped_unknown,
            "records_filtered": p.records_filtered,
            "records_unconsumed": p.records_unconsumed,
            "other_client": other_client_json(&self.counts.other_client),
            "vendor_counts": extras,
            "rows": rows,
            "kernel_records": self.summary.kernels(),
            "incomplete_kernels": self.summary.incomplete(),
            "distinct_kernels": ranked.len(),
            "kernels": kernels,
            "skipped": self.skipped.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "errors": self.errors,
            "collection_windows": self.windows,
            "buffers_completed": p.buffers_completed,
            "trace": first.as_ref().map(|t| t.0.clone()),
            "trace_events": first.as_ref().map(|t| t.1),
            "trace_bytes": first.map(|t| t.2),
            "traces": traces,
        });
        // The CUDA injection tracer's keys, for the scripts that read its summary.
        if let Some(map) = doc.as_object_mut() {
            if self.library.vendor == super::Vendor::Cupti {
                map.insert("cupti_dropped".to_owned(), p.vendor_dropped.into());
            }
            for key in ["overflow_buffers", "fence_records"] {
                if let Some(v) = self.counts.extra(key) {
                    map.insert(key.to_owned(), v.into());
                }
            }
        }
        doc
    }

    /// What a tracer prints at the end: the kernel table (`top` rows), the record counts per family,
    /// what was not collected, and where each trace went.
    pub fn render(&self, top: usize) -> String {
        let mut out = self.summary.render(&self.names, top);
        let rows: Vec<String> = Family::ALL
            .iter()
            .zip(self.rows)
            .filter(|(_, n)| *n > 0)
            .map(|(family, n)| format!("{} {n}", family.name()))
            .collect();
        let _ = writeln!(out, "records: {}", self.counts);
        if self.counts.other_client.seen() {
            let _ =
                writeln!(out, "{}", self.counts.other_client.summary_line(&self.counts.vendor.to_string()));
        }
        let _ = writeln!(out, "rows: {}", if rows.is_empty() { "none".to_owned() } else { rows.join(", ") });
        if self.windows != 1 {
            let _ = writeln!(out, "collection windows: {}", self.windows);
        }
        for s in &self.skipped {
            let _ = writeln!(out, "not collected: {s}");
        }
        for trace in &self.traces {
            match &trace.result {
                Ok(file) => {
                    let _ = writeln!(
                        out,
                        "trace: {} ({} events, {})",
                        file.path.display(),
                        file.events,
                        human_bytes(file.file_bytes)
                    );
                }
                Err(e) => {
                    let _ = writeln!(out, "trace NOT complete: {e}");
                }
            }
        }
        for e in &self.errors {
            let _ = writeln!(out, "error: {e}");
        }
        // Names and paths are the program's: none may drive the terminal.
        accelprof_export::summary::escape_control_lines(&out).into_owned()
    }
}

/// What another client of the vendor library took, as JSON.
pub(crate) fn other_client_json(o: &accelprof_core::activity::OtherClient) -> Value {
    json!({
        "buffers_taken": o.buffers_taken,
        "foreign_buffers": o.foreign_buffers,
        "missing_since_unix_ns": o.missing_since(),
    })
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
