use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{DeviceProperties, TimeMap};
use accelprof_core::columns::Batch;
use accelprof_core::intern::Names;

/// Where a tracer's batches go: a trace written as records are collected.
///
/// A tracer (any vendor's) hands each delivered [`Batch`] to its sink with the [`Names`] that resolve the
/// batch's ids and the [`TimeMap`] of the vendor's clock, names the timelines it knows, and finishes the
/// sink when it ends (and, when it learns them late, says which devices the records come from). The sink
/// renders and writes on its own terms; what it holds must not grow with the
/// run's length. `ChromeTraceWriter` (feature `chrome`) is the Chrome JSON implementation; other
/// formats (Parquet, Perfetto's protobuf) implement the same trait. Object-safe: `Box<dyn TraceSink>`.
pub trait TraceSink: Send {
    /// Writes the rows of one batch.
    fn add_batch(&mut self, batch: &Batch, names: &Names, time: &TimeMap) -> io::Result<()>;

    /// Names a process timeline (a host process, or a device).
    fn add_process_name(&mut self, pid: u64, name: &str) -> io::Result<()>;

    /// Names a thread (or a device stream) timeline.
    fn add_thread_name(&mut self, pid: u64, tid: u64, name: &str) -> io::Result<()>;

    /// The devices' properties, when the tracer learns them after the sink was made (a CUDA driver
    /// describes its devices only once the program initialized it, usually after the tracer started):
    /// the sink puts them in its metadata. Called at most once, before the batches that follow. A sink
    /// made with devices in its metadata keeps those; the default ignores the call.
    fn add_device_properties(&mut self, devices: &[DeviceProperties]) -> io::Result<()> {
        let _ = devices;
        Ok(())
    }

    /// Waits until everything added so far is readable in the file.
    fn sync(&mut self) -> io::Result<()>;

    /// The file being written (readable after each [`sync`](Self::sync)) until [`finish`](Self::finish).
    fn partial_path(&self) -> &Path;

    /// Ends the trace, with the tracer's `summary` in it when given, and puts the file in place.
    fn finish(self: Box<Self>, summary: Option<&Value>) -> io::Result<TraceFile>;
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

/// What the flow table of a trace writer did (launch -> GPU work arrows by correlation id, waiting ends held in
/// a fixed table of ids: see `WriterOptions::pending_flows`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowStats {
    /// Arrows written.
    pub linked: u64,
    /// API calls whose GPU work had not shown up when a newer id took their place (most API calls
    /// launch nothing: this is not a loss).
    pub launches_evicted: u64,
    /// GPU work whose API call had not shown up when a newer id took its place: arrows not drawn.
    pub targets_evicted: u64,
    /// Ids waiting for their other end now (at most the table's size).
    pub pending: u64,
}
