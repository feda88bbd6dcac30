use std::io;
use std::path::Path;

use serde_json::Value;

use super::emit::{EventList, RenderStats, Renderer};
use super::layout::{devices, head, hta_guard, tail};
use super::output::{is_gzip_name, Output, OutputStats};
use super::{DeviceProperties, FlowStats, Style, TimeMap, TraceFile, TraceSink};
use crate::RunMeta;
use accelprof_core::columns::Batch;
use accelprof_core::intern::Names;

/// Waiting flow ends held at most by default (see [`WriterOptions::pending_flows`]).
pub const DEFAULT_PENDING_FLOWS: usize = 1 << 17;

/// JSON rendered per write by default (see [`WriterOptions::chunk_bytes`]).
pub const DEFAULT_CHUNK_BYTES: usize = 2 << 20;

/// JSON buffered between the caller and the file at most by default (see [`WriterOptions::buffer_bytes`]).
pub const DEFAULT_BUFFER_BYTES: usize = 16 << 20;

/// How a [`ChromeTraceWriter`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriterOptions {
    /// Gzip level (0-9) when the file is compressed; compression is chosen by the name (`.gz`), as
    /// PyTorch's profiler writes `.json.gz`. Default 1: the fastest level, about a fifth of the JSON's
    /// size on traces.
    pub gzip_level: u32,
    /// Flow ends (an API call or a kernel) waiting for their other end, held at most (default 131,072):
    /// the oldest is dropped past it (counted in [`FlowStats`]). 72 bytes each, allocated at the first
    /// batch (9 MiB by default).
    pub pending_flows: usize,
    /// JSON rendered before it is handed to the file (default 2 MiB): a batch of any size is rendered
    /// and written in chunks of about this size, cut between rows (the file is a whole trace after each).
    pub chunk_bytes: usize,
    /// JSON held between the caller and the file at most (default 16 MiB, at least two chunks): chunks
    /// being rendered, queued, compressed or written. When all of it is in flight the caller waits for
    /// the disk (or the compressing threads) rather than holding more.
    pub buffer_bytes: usize,
    /// How the events are presented (their `cat`s, the devices' label); `None` (the default) takes the
    /// style of the metadata's vendor ([`Style::of_vendor`]).
    pub style: Option<Style>,
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            gzip_level: 1,
            pending_flows: DEFAULT_PENDING_FLOWS,
            chunk_bytes: DEFAULT_CHUNK_BYTES,
            buffer_bytes: DEFAULT_BUFFER_BYTES,
            style: None,
        }
    }
}

impl WriterOptions {
    /// The chunk size used (at least 4 KiB).
    fn chunk(&self) -> usize {
        self.chunk_bytes.max(4 << 10)
    }

    /// The style used for a run of `meta`.
    pub(crate) fn style_for(&self, meta: &RunMeta) -> Style {
        self.style.clone().unwrap_or_else(|| Style::of_vendor(&meta.vendor))
    }

    /// The chunk buffers that circulate (at least 2).
    fn buffers(&self) -> usize {
        (self.buffer_bytes / self.chunk()).max(2)
    }
}

/// A Chrome trace written as it is collected: every batch goes to the file when added, and the file is a
/// complete, valid trace after every batch.
///
/// - The file is `<name>.partial-<pid>.json[.gz]` next to the path given until [`finish`](Self::finish)
///   renames it into place; Perfetto and HolisticTraceAnalysis open the `.partial` file as it is.
/// - Rendering happens on the caller's thread, in chunks of [`WriterOptions::chunk_bytes`] whatever the
///   batch's size; compressing (`.json.gz`: gzip members, one per chunk) and writing on threads of the
///   writer's own.
/// - Flow arrows are written as soon as both ends are seen; ends waiting for their other end are bounded
///   ([`WriterOptions::pending_flows`]).
/// - Memory is a fixed budget, whatever the run's length and the batches' size: the flow table, the
///   chunk buffers ([`WriterOptions::buffer_bytes`], a fixed set of buffers reused; the caller waits for
///   one when all are in flight) and the gzip members in flight (about a tenth of their chunk); devices
///   and names grow only with their distinct count.
/// - If the process dies between two chunks the `.partial` file is whole; if it dies while a chunk is
///   being written (a window of one `pwrite`), [`recover`](super::recover) closes it after the last
///   complete event.
#[derive(Debug)]
pub struct ChromeTraceWriter {
    meta: RunMeta,
    renderer: Renderer,
    events: EventList,
    output: Option<OutputHandle>,
    /// Lines handed to the file so far.
    written: u64,
    /// The `deviceProperties` list written in the tail (`Some`) when the head had none.
    late_devices: Option<Vec<u8>>,
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
    pub fn create(path: impl AsRef<Path>, meta: RunMeta) -> io::Result<Self> {
        Self::create_with(path, meta, WriterOptions::default())
    }

    /// Starts writing a trace for `path` with `options`.
    pub fn create_with(path: impl AsRef<Path>, meta: RunMeta, options: WriterOptions) -> io::Result<Self> {
        let path = path.as_ref();
        let gzip = is_gzip_name(path).then_some(options.gzip_level.min(9));
        // Devices known now go in the head; else the tail lists them, once they are known.
        let in_head = !meta.device_properties.is_empty();
        let late_devices = (!in_head).then(|| b"[]".to_vec());
        let output = Output::create(
            path,
            &head(&meta, in_head)?,
            &tail(None, late_devices.as_deref(), None)?,
            gzip,
            options.chunk(),
            options.buffers(),
        )?;
        let style = options.style_for(&meta);
        let renderer =
            Renderer::new(style.categories, meta.start_unix_ns, style.device_label, options.pending_flows);
        Ok(ChromeTraceWriter {
            meta,
            renderer,
            events: EventList { bytes: output.buffer()?, limit: options.chunk(), ..EventList::default() },
            output: Some(OutputHandle(output)),
            written: 0,
            late_devices,
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
    pub fn meta(&self) -> &RunMeta {
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

    /// Renders `batch` and queues it for the file, chunk by chunk (waiting for a free chunk buffer
    /// while all are in flight); `Err` when an earlier write failed (the file stays valid up to the last
    /// chunk written).
    pub fn add_batch(&mut self, batch: &Batch, names: &Names, time: &TimeMap) -> io::Result<()> {
        self.begin();
        let ChromeTraceWriter { renderer, events, output, written, late_devices, .. } = self;
        let output = &output.as_ref().expect("the output lives until finish").0;
        // Each chunk goes to the file as soon as it is full: a batch of any size takes the same memory.
        // After a failed write the rest of the batch is rendered and dropped chunk by chunk.
        let late = late_devices.as_deref();
        let mut failed = None;
        let mut spill = |events: &mut EventList, stats: &RenderStats| {
            if failed.is_none() {
                failed = send(output, events, written, stats, late).err();
            }
            events.reset(*written > 0);
        };
        renderer.batch(batch, names, time, events, Some(&mut spill));
        if let Some(e) = failed {
            self.events.reset(self.written > 0);
            return Err(e);
        }
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

    /// The devices, learned after the trace began: written as the `deviceProperties` list in the file's
    /// tail (after the events), at once and with every later write. Ignored when the trace's metadata
    /// had devices already (they are in its head).
    pub fn add_device_properties(&mut self, list: &[DeviceProperties]) -> io::Result<()> {
        let Some(late) = self.late_devices.as_mut() else { return Ok(()) };
        late.clear();
        devices(late, list);
        self.meta.device_properties = list.to_vec();
        let output = &self.output.as_ref().expect("the output lives until finish").0;
        let stats = &self.renderer.stats;
        let guard = hta_guard(stats, self.written, stats.host_pid.unwrap_or(0));
        let tail = tail(guard.as_deref(), self.late_devices.as_deref(), None)?;
        // No events: the new tail replaces the old one.
        output.send(output.buffer()?, tail)
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
        let tail = tail(guard.as_deref(), self.late_devices.as_deref(), summary.map(|s| (s, &flows)))?;
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

    /// Prepares the event list for a chunk.
    fn begin(&mut self) {
        self.events.reset(self.written > 0);
    }

    /// Hands the rendered chunk to the writing thread, with the tail that closes the file after it.
    fn send(&mut self) -> io::Result<()> {
        let output = &self.output.as_ref().expect("the output lives until finish").0;
        let sent = send(
            output,
            &mut self.events,
            &mut self.written,
            &self.renderer.stats,
            self.late_devices.as_deref(),
        );
        self.events.reset(self.written > 0);
        sent
    }
}

/// Hands the chunk in `events` to `output` with the tail that closes the file after it (`stats`: what was
/// rendered up to its end), counting its events in `written`, and puts a free buffer in its place (waits
/// for one while all are in flight).
fn send(
    output: &Output,
    events: &mut EventList,
    written: &mut u64,
    stats: &RenderStats,
    late_devices: Option<&[u8]>,
) -> io::Result<()> {
    if events.count == 0 {
        return output.error();
    }
    *written += events.count;
    let guard = hta_guard(stats, *written, stats.host_pid.unwrap_or(0));
    let tail = tail(guard.as_deref(), late_devices, None)?;
    output.send(std::mem::take(&mut events.bytes), tail)?;
    events.bytes = output.buffer()?;
    Ok(())
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

    fn add_device_properties(&mut self, devices: &[DeviceProperties]) -> io::Result<()> {
        ChromeTraceWriter::add_device_properties(self, devices)
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
