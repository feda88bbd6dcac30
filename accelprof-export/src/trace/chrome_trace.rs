use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use super::emit::{EventList, Renderer};
use super::layout::{head, hta_guard, tail};
use super::output::{create_private, temporary_path};
use super::{FlowStats, Style, TimeMap, DEFAULT_PENDING_FLOWS};
use crate::RunMeta;
use accelprof_core::columns::Batch;
use accelprof_core::intern::Names;

/// A Chrome trace built in memory: add batches as they are delivered, then [`write_to`](Self::write_to).
///
/// Events are rendered to JSON when added (the batch can be reused right away), flow arrows as soon as
/// both ends are seen (see [`ChromeTraceWriter`](super::ChromeTraceWriter) for the bound on waiting ends).
/// External-correlation rows are not written as events. For a trace that grows with the run, stream it to
/// a file with [`ChromeTraceWriter`](super::ChromeTraceWriter) instead: this one holds every event.
#[derive(Debug)]
pub struct ChromeTrace {
    meta: RunMeta,
    renderer: Renderer,
    events: EventList,
}

impl ChromeTrace {
    /// An empty trace with this metadata, in the style of its vendor ([`Style::of_vendor`]).
    pub fn new(meta: RunMeta) -> Self {
        let style = Style::of_vendor(&meta.vendor);
        Self::with_style(meta, style)
    }

    /// An empty trace with this metadata, its events presented in `style`.
    pub fn with_style(meta: RunMeta, style: Style) -> Self {
        let renderer =
            Renderer::new(style.categories, meta.start_unix_ns, style.device_label, DEFAULT_PENDING_FLOWS);
        ChromeTrace { meta, renderer, events: EventList::default() }
    }

    /// The metadata the file will carry.
    pub fn meta(&self) -> &RunMeta {
        &self.meta
    }

    /// Events added so far from rows and CPU ranges (not counting timeline names and flow arrows).
    pub fn event_count(&self) -> usize {
        self.renderer.stats.rows as usize
    }

    /// What the flow table did.
    pub fn flow_stats(&self) -> FlowStats {
        self.renderer.flow_stats()
    }

    /// Adds every row of `batch` as events; `names` resolves its name ids, `time` maps its timestamps to Unix
    /// time.
    pub fn add_batch(&mut self, batch: &Batch, names: &Names, time: &TimeMap) {
        self.renderer.batch(batch, names, time, &mut self.events, None);
    }

    /// Names a process timeline (a host `pid`, or a device's: by default devices are named `GPU <n>`).
    pub fn add_process_name(&mut self, pid: u64, name: impl Into<String>) {
        self.renderer.process_name(pid, &name.into(), &mut self.events);
    }

    /// Names a thread (or a device stream) timeline.
    pub fn add_thread_name(&mut self, pid: u64, tid: u64, name: impl Into<String>) {
        self.renderer.thread_name(pid, tid, &name.into(), &mut self.events);
    }

    /// Adds a CPU range (e.g. `ProfilerStep#3`, `cat` `cpu_op` or `user_annotation`); times in Unix ns.
    pub fn add_cpu_range(
        &mut self,
        cat: &str,
        name: &str,
        pid: u64,
        tid: u64,
        start_unix_ns: u64,
        end_unix_ns: u64,
    ) {
        self.renderer.cpu_range(cat, name, pid, tid, start_unix_ns, end_unix_ns, &mut self.events);
    }

    /// Moves the events rendered so far into `into` (cleared first; its buffer is kept for the next
    /// events): for writing them elsewhere as they are rendered. The trace then no longer holds them, and
    /// the events rendered next continue the list (they begin with a separator).
    pub fn take_event_bytes(&mut self, into: &mut Vec<u8>) {
        into.clear();
        std::mem::swap(into, &mut self.events.bytes);
        let written = self.events.count > 0 || self.events.after_others;
        self.events.reset(written);
    }

    /// Writes the trace to `path` atomically: into a temporary file in the same directory, then renamed over
    /// `path`. On error the temporary file is removed and `path` is untouched.
    pub fn write_to(&self, path: impl AsRef<Path>) -> io::Result<()> {
        let path = path.as_ref();
        let tmp = temporary_path(path);
        let result = (|| {
            // A new private file, never one that is there (nor through a link).
            let file = create_private(&tmp)?;
            let mut w = BufWriter::new(file);
            self.write(&mut w)?;
            w.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
            fs::rename(&tmp, path)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    /// Writes the trace JSON to any writer.
    pub fn write(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(&head(&self.meta, true)?)?;
        w.write_all(&self.events.bytes)?;
        let stats = &self.renderer.stats;
        let guard = hta_guard(stats, self.events.count, stats.host_pid.unwrap_or(0));
        w.write_all(&tail(guard.as_deref(), None, None)?)
    }
}
