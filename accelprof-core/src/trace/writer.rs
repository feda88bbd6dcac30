use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::emit::{EventList, Renderer};
use super::layout::{head, hta_guard, tail};
use super::output::{is_gzip_name, Output, OutputStats};
use super::{FlowStats, TimeMap, TraceMeta, TraceSink};
use crate::columns::Batch;
use crate::intern::Names;

/// Waiting flow ends held at most by default (see [`WriterOptions::pending_flows`]).
pub const DEFAULT_PENDING_FLOWS: usize = 1 << 17;

/// How a [`ChromeTraceWriter`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriterOptions {
    /// Gzip level (0-9) when the file is compressed; compression is chosen by the name (`.gz`), as
    /// PyTorch's profiler writes `.json.gz`. Default 1: the fastest level, about a fifth of the JSON's
    /// size on traces.
    pub gzip_level: u32,
    /// Flow ends (an API call or a kernel) waiting for their other end, held at most (default 131,072):
    /// the oldest is dropped past it (counted in [`FlowStats`]). About 80 bytes each.
    pub pending_flows: usize,
    /// Chunks queued for the writing thread at most (default 4); a slower disk then slows the caller.
    pub queue: usize,
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions { gzip_level: 1, pending_flows: DEFAULT_PENDING_FLOWS, queue: 4 }
    }
}

/// A trace file that was finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceFile {
    /// Where it is.
    pub path: PathBuf,
    /// Lines of `traceEvents` (timeline names and flow ends included).
    pub events: u64,
    /// Events made from rows and CPU ranges.
    pub rows: u64,
    /// Its size on disk.
    pub file_bytes: u64,
    /// Its size as JSON (before compression).
    pub json_bytes: u64,
    /// What the flow table did.
    pub flows: FlowStats,
}

/// A Chrome trace written as it is collected: every batch goes to the file when added, and the file is a
/// complete, valid trace after every batch.
///
/// - The file is `<name>.partial-<pid>.json[.gz]` next to the path given until [`finish`](Self::finish)
///   renames it into place; Perfetto and HolisticTraceAnalysis open the `.partial` file as it is.
/// - Rendering happens on the caller's thread; compressing (`.json.gz`: gzip members, one per batch) and
///   writing on a thread of the writer's own, behind a bounded queue.
/// - Flow arrows are written as soon as both ends are seen; ends waiting for their other end are bounded
///   ([`WriterOptions::pending_flows`]). The writer holds no state that grows with the run's length: the
///   flow table and the chunk buffers are bounded; devices and names grow only with their distinct count.
/// - If the process dies between two batches the `.partial` file is whole; if it dies while a batch is
///   being written (a window of one `pwrite`), [`recover`](super::recover) closes it after the last
///   complete event.
#[derive(Debug)]
pub struct ChromeTraceWriter {
    meta: TraceMeta,
    renderer: Renderer,
    events: EventList,
    output: Option<OutputHandle>,
    /// Lines written to the file so far.
    written: u64,
}

/// The output, kept out of `Debug`.
struct OutputHandle(Output);

impl std::fmt::Debug for OutputHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output").field("partial", &self.0.partial).field("path", &self.0.path).finish()
    }
}

impl ChromeTraceWriter {
    /// Starts writing a trace for `path` (see the type's docs), with the default options.
    pub fn create(path: impl AsRef<Path>, meta: TraceMeta) -> io::Result<Self> {
        Self::create_with(path, meta, WriterOptions::default())
    }

    /// Starts writing a trace for `path` with `options`.
    pub fn create_with(path: impl AsRef<Path>, meta: TraceMeta, options: WriterOptions) -> io::Result<Self> {
        let path = path.as_ref();
        let gzip = is_gzip_name(path).then_some(options.gzip_level.min(9));
        let output = Output::create(path, &head(&meta)?, &tail(None, None)?, gzip, options.queue)?;
        let renderer = Renderer::new(
            meta.categories.clone(),
            meta.base_time_unix_ns,
            meta.device_label.clone(),
            options.pending_flows,
        );
        Ok(ChromeTraceWriter {
            meta,
            renderer,
            events: EventList::default(),
            output: Some(OutputHandle(output)),
            written: 0,
        })
    }

    /// The path the finished trace gets.
    pub fn path(&self) -> &Path {
        &self.output().path
    }

    /// The file being written until then.
    pub fn partial_path(&self) -> &Path {
        &self.output().partial
    }

    /// The metadata written.
    pub fn meta(&self) -> &TraceMeta {
        &self.meta
    }

    /// Lines of `traceEvents` rendered so far.
    pub fn events(&self) -> u64 {
        self.written
    }

    /// Events rendered from rows and CPU ranges so far.
    pub fn rows(&self) -> u64 {
        self.renderer.stats.rows
    }

    /// What the flow table did.
    pub fn flow_stats(&self) -> FlowStats {
        self.renderer.flow_stats()
    }

    /// What the writing thread has written.
    pub fn output_stats(&self) -> OutputStats {
        self.output().stats()
    }

    fn output(&self) -> &Output {
        &self.output.as_ref().expect("the output lives until finish").0
    }

    /// Renders `batch` and queues it for the file; `Err` when an earlier write failed (the file stays
    /// valid up to the last chunk written).
    pub fn add_batch(&mut self, batch: &Batch, names: &Names, time: &TimeMap) -> io::Result<()> {
        self.begin();
        self.renderer.batch(batch, names, time, &mut self.events);
        self.send()
    }

    /// Names a process timeline (a host `pid`, or a device's: by default devices are named `GPU <n>`).
    pub fn add_process_name(&mut self, pid: u64, name: &str) -> io::Result<()> {
        self.begin();
        self.renderer.process_name(pid, name, &mut self.events);
        self.send()
    }

    /// Names a thread (or a device stream) timeline.
    pub fn add_thread_name(&mut self, pid: u64, tid: u64, name: &str) -> io::Result<()> {
        self.begin();
        self.renderer.thread_name(pid, tid, name, &mut self.events);
        self.send()
    }

    /// Adds a CPU range (e.g. `ProfilerStep#3`); times in Unix ns.
    pub fn add_cpu_range(
        &mut self,
        cat: &str,
        name: &str,
        pid: u64,
        tid: u64,
        start_unix_ns: u64,
        end_unix_ns: u64,
    ) -> io::Result<()> {
        self.begin();
        self.renderer.cpu_range(cat, name, pid, tid, start_unix_ns, end_unix_ns, &mut self.events);
        self.send()
    }

    /// Waits until everything added so far is in the file (a whole trace up to here).
    pub fn sync(&self) -> io::Result<()> {
        self.output().sync()
    }

    /// Writes the last tail (with `summary` as `traceSummary` and the flow table's tallies as
    /// `traceFlows`, when given), syncs the file to disk and renames it into place.
    pub fn finish(mut self, summary: Option<&Value>) -> io::Result<TraceFile> {
        let stats = self.renderer.stats;
        let guard = hta_guard(&stats, self.written, stats.host_pid.unwrap_or(0));
        let flows = self.renderer.flow_stats();
        let tail = tail(guard.as_deref(), summary.map(|s| (s, &flows)))?;
        let output = self.output.take().expect("the output lives until finish").0;
        let path = output.path.clone();
        let written = output.finish(tail)?;
        Ok(TraceFile {
            path,
            events: self.written,
            rows: stats.rows,
            file_bytes: written.file_bytes,
            json_bytes: written.json_bytes,
            flows: self.renderer.flow_stats(),
        })
    }

    /// Prepares the event buffer for a chunk.
    fn begin(&mut self) {
        let buffer = self.output().buffer();
        self.events.bytes = buffer;
        self.events.reset(self.written > 0);
    }

    /// Hands the rendered chunk to the writing thread, with the tail that closes the file after it.
    fn send(&mut self) -> io::Result<()> {
        if self.events.count == 0 {
            return self.output().error();
        }
        self.written += self.events.count;
        let stats = self.renderer.stats;
        let guard = hta_guard(&stats, self.written, stats.host_pid.unwrap_or(0));
        let tail = tail(guard.as_deref(), None)?;
        let events = std::mem::take(&mut self.events.bytes);
        self.output().send(events, tail)
    }
}

impl TraceSink for ChromeTraceWriter {
    fn add_batch(&mut self, batch: &Batch, names: &Names, time: &TimeMap) -> io::Result<()> {
        ChromeTraceWriter::add_batch(self, batch, names, time)
    }

    fn add_process_name(&mut self, pid: u64, name: &str) -> io::Result<()> {
        ChromeTraceWriter::add_process_name(self, pid, name)
    }

    fn add_thread_name(&mut self, pid: u64, tid: u64, name: &str) -> io::Result<()> {
        ChromeTraceWriter::add_thread_name(self, pid, tid, name)
    }

    fn sync(&mut self) -> io::Result<()> {
        ChromeTraceWriter::sync(self)
    }

    fn partial_path(&self) -> &Path {
        ChromeTraceWriter::partial_path(self)
    }

    fn finish(self: Box<Self>, summary: Option<&Value>) -> io::Result<TraceFile> {
        ChromeTraceWriter::finish(*self, summary)
    }
}
