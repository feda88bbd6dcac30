//! [`Tracer`]: an activity session whose batches become a Chrome trace and a kernel summary.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use accel_core::trace::{Categories, ChromeTrace, TraceMeta};
use accel_core::{Batch, Family, FamilySet, Names};
use cupti::activity::{unix_now_ns, ActivityCounts, ActivitySession, ApiFilter, KernelNameTransform};
use cupti::decode::{API_DOMAIN_DRIVER, API_DOMAIN_OVERHEAD};
use cupti::Cupti;

use crate::{KernelSummary, TraceConfig};

/// What the consumer (on the decode thread) builds.
#[derive(Debug)]
struct TraceState {
    trace: Option<ChromeTrace>,
    summary: KernelSummary,
    rows: [u64; Family::ALL.len()],
}

/// A running tracer: CUPTI records of this process go to a Chrome trace (PyTorch profiler conventions) and
/// a per-kernel summary.
#[derive(Debug)]
pub struct Tracer {
    session: ActivitySession<'static>,
    state: Arc<Mutex<TraceState>>,
    config: TraceConfig,
    names: Names,
}

/// What a finished trace holds.
#[derive(Debug)]
pub struct TraceReport {
    /// The file written, if any.
    pub output: Option<PathBuf>,
    /// Events in it (not counting timeline names and flow arrows).
    pub events: usize,
    /// Rows delivered per family (`Family` order).
    pub rows: [u64; Family::ALL.len()],
    /// The session's final tallies.
    pub counts: ActivityCounts,
    /// Time per kernel.
    pub summary: KernelSummary,
    /// Names of the summary's ids.
    pub names: Names,
    /// `Err` when the trace could not be written (the message says why).
    pub write_result: Result<(), String>,
}

/// C++ names as PyTorch's profiler shows them (`_Z...` demangled; anything else kept).
fn demangle(raw: &[u8]) -> Option<String> {
    if !raw.starts_with(b"_Z") {
        return None;
    }
    let symbol = cpp_demangle::Symbol::new(raw).ok()?;
    symbol.demangle().ok()
}

impl Tracer {
    /// Starts tracing with `cupti` (records from now on).
    pub fn start(cupti: &'static Cupti, config: TraceConfig) -> cupti::Result<Tracer> {
        let mut activity = config.activity.clone();
        if config.demangle && activity.kernel_names.is_none() {
            activity.kernel_names = Some(KernelNameTransform::new(demangle));
        }
        if !activity.api_filter.is_all() && !ApiFilter::supported_by(cupti) {
            // A library that cannot filter API calls (before 12.5) traces every call rather than none.
            crate::report("this CUPTI cannot filter API calls: recording every runtime and driver call");
            activity.api_filter = ApiFilter::all();
        }
        let session = ActivitySession::new(cupti, activity)?;
        let trace = config.output.as_ref().map(|_| {
            let categories = Categories::default()
                .with_api_domain(API_DOMAIN_DRIVER, "cuda_driver")
                .with_api_domain(API_DOMAIN_OVERHEAD, "overhead");
            let mut trace = ChromeTrace::new(TraceMeta {
                base_time_unix_ns: unix_now_ns(),
                rank: config.rank,
                world_size: config.world_size,
                backend: (config.world_size > 1).then(|| "nccl".to_owned()),
                trace_name: Some("cupti-trace".to_owned()),
                categories,
                metadata: vec![
                    ("cupti_version".to_owned(), cupti.version().into()),
                    ("record_clock_is_realtime".to_owned(), session.clock().is_realtime.into()),
                ],
                ..TraceMeta::default()
            });
            let pid = std::process::id();
            let exe = std::env::current_exe()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_else(|| "process".to_owned());
            trace.add_process_name(pid.into(), format!("{exe} (pid {pid})"));
            trace
        });
        let state = Arc::new(Mutex::new(TraceState {
            trace,
            summary: KernelSummary::default(),
            rows: Default::default(),
        }));
        let time = session.clock().time_map;
        let consumer_state = Arc::clone(&state);
        session.subscribe(FamilySet::all(), move |batch: &Batch, names: &Names| {
            let mut s = consumer_state.lock().unwrap_or_else(|e| e.into_inner());
            for (i, family) in Family::ALL.iter().enumerate() {
                s.rows[i] += batch.len_of(*family) as u64;
            }
            s.summary.add(batch);
            if let Some(trace) = s.trace.as_mut() {
                trace.add_batch(batch, names, &time);
            }
        });
        session.start()?;
        let names = session.names();
        Ok(Tracer { session, state, config, names })
    }

    /// The session (to flush, read counts, push external correlation ids).
    pub fn session(&self) -> &ActivitySession<'static> {
        &self.session
    }

    /// Ends the session (final fence and flush), writes the trace, returns what was collected.
    pub fn finish(self) -> TraceReport {
        let Tracer { session, state, config, names } = self;
        let end = session.end();
        if let Err(e) = &end.fence {
            crate::report(&format!(
                "the final fence did not complete ({e}); records were flushed all the same"
            ));
        }
        let counts = end.counts;
        let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
        let events = state.trace.as_ref().map_or(0, ChromeTrace::event_count);
        let write_result = match (&state.trace, &config.output) {
            (Some(trace), Some(path)) => {
                trace.write_to(path).map_err(|e| format!("could not write {}: {e}", path.display()))
            }
            _ => Ok(()),
        };
        state.trace = None;
        TraceReport {
            output: config.output.clone(),
            events,
            rows: state.rows,
            counts,
            summary: std::mem::take(&mut state.summary),
            names,
            write_result,
        }
    }
}

impl TraceReport {
    /// The summary as JSON: kernels per name (by total time), record counts, losses.
    pub fn to_json(&self) -> serde_json::Value {
        let p = &self.counts.pipeline;
        let kernels: Vec<serde_json::Value> = self
            .summary
            .ranked()
            .into_iter()
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
            "fence_records": self.counts.decoder.fence_records,
            "trace": self.output.as_ref().map(|p| p.display().to_string()),
            "trace_events": self.events,
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
        match (&self.output, &self.write_result) {
            (Some(path), Ok(())) => {
                out.push_str(&format!("trace: {} ({} events)\n", path.display(), self.events))
            }
            (Some(_), Err(e)) => out.push_str(&format!("trace NOT written: {e}\n")),
            (None, _) => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn mangled_names_are_demangled_others_kept() {
        assert_eq!(
            super::demangle(b"_Z9vectorAddPKfS0_Pfi").as_deref(),
            Some("vectorAdd(float const*, float const*, float*, int)")
        );
        assert_eq!(super::demangle(b"ampere_sgemm_128x64_tn"), None);
        assert_eq!(super::demangle(b"_Zgarbage"), None);
    }
}
