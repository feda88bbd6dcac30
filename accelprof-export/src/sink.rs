//! The writers as a tracer's [`TraceSink`]: [`ParquetSink`] and [`PerfettoSink`] take the same calls as
//! the Chrome trace writer, so that one collection feeds every format at once.
//!
//! A tracer knows its run as a [`RunMeta`] (rank, host, vendor, library versions, devices), the one
//! metadata type of every writer, and hands each batch over with the [`TimeMap`] of the vendor's clock;
//! each sink takes the clock's mapping from the first batch:
//!
//! - Parquet keeps the records' own clock and writes the mapping as the file's clock anchor
//!   (`accelprof.clock`), with the devices learned late and the tracer's summary (`accelprof.summary`),
//!   in the footer at [`finish`](TraceSink::finish). A row group ends at [`sync`](TraceSink::sync) and at
//!   the first batch [`ROW_GROUP_PERIOD`] after the last one ended (a row group per tracer flush), and
//!   goes to the file with a footer naming every row group so far: the `.partial` file a killed process
//!   leaves is readable.
//! - Perfetto writes Unix times (the mapping applied per batch); each batch goes to the file when added,
//!   so its `.partial` file is readable after every batch. Timeline names given to the sink are not written (the tracks are named
//!   by device, stream and thread).

use std::io;
use std::path::{Path, PathBuf};

#[cfg(feature = "parquet")]
use crate::trace::{ClockAnchor, DeviceProperties};
use crate::trace::{FlowStats, TimeMap, TraceFile, TraceSink};
use accelprof_core::{Batch, Names};
use serde_json::Value;

use crate::{Error, Finished, RunMeta};

/// The clock anchor of a vendor clock mapped by `time`: `CLOCK_REALTIME` when the records are Unix
/// times already, else the vendor's clock (named for the vendor) read now (the Parquet sink's metadata).
#[cfg(feature = "parquet")]
fn anchor(vendor: &str, time: TimeMap) -> ClockAnchor {
    if time.offset_ns() == 0 {
        return ClockAnchor::REALTIME;
    }
    let unix = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let record = (unix as i128 - i128::from(time.offset_ns())).clamp(0, i128::from(u64::MAX)) as u64;
    let clock = if vendor.is_empty() { "vendor" } else { vendor };
    ClockAnchor::from_time_map(clock, time, record)
}

fn io_error(e: Error) -> io::Error {
    match e {
        Error::Io(e) => e,
        other => io::Error::other(other),
    }
}

fn trace_file(done: Finished) -> TraceFile {
    let rows = done.total_rows();
    TraceFile {
        path: done.path,
        events: rows,
        rows,
        file_bytes: done.bytes,
        json_bytes: 0,
        flows: FlowStats::default(),
    }
}

/// A [`ParquetWriter`](crate::parquet::ParquetWriter) as a [`TraceSink`] (see the [module](self)).
#[cfg(feature = "parquet")]
#[derive(Debug)]
pub struct ParquetSink {
    writer: crate::parquet::ParquetWriter,
    partial: PathBuf,
    clock_known: bool,
    /// When the last row group ended.
    row_group_since: std::time::Instant,
    /// Row groups ended by the period.
    row_groups: u32,
}

/// A row group ends at the first batch this long after the previous one ended (a tracer hands its
/// batches over at each flush, a second apart by default): a row group per flush period, each written
/// with a footer, so that a killed process's file holds every row group up to about a second before.
/// The footer names every row group, so after the first 64 the period grows with their number (64
/// row groups: 1 s, 128: 2 s, ...): the footer bytes rewritten per second stay about the same however
/// long the run.
#[cfg(feature = "parquet")]
pub const ROW_GROUP_PERIOD: std::time::Duration = std::time::Duration::from_secs(1);

#[cfg(feature = "parquet")]
impl ParquetSink {
    /// Creates the file for `path` (under a temporary name until finished).
    pub fn create(path: &Path, meta: &RunMeta, options: crate::parquet::ParquetOptions) -> io::Result<Self> {
        let writer = crate::parquet::ParquetWriter::create(path, meta, options).map_err(io_error)?;
        let partial = writer.temporary_path().to_path_buf();
        let clock_known = meta.clock != ClockAnchor::REALTIME;
        Ok(ParquetSink {
            writer,
            partial,
            clock_known,
            row_group_since: std::time::Instant::now(),
            row_groups: 0,
        })
    }
}

#[cfg(feature = "parquet")]
impl TraceSink for ParquetSink {
    fn add_batch(&mut self, batch: &Batch, names: &Names, time: &TimeMap) -> io::Result<()> {
        if !self.clock_known {
            let meta = self.writer.meta_mut();
            meta.clock = anchor(&meta.vendor, *time);
            self.clock_known = true;
        }
        self.writer.write_batch(batch, names).map_err(io_error)?;
        if self.row_group_since.elapsed() >= ROW_GROUP_PERIOD * (self.row_groups / 64).max(1) {
            self.row_groups = self.row_groups.saturating_add(1);
            self.sync()?;
        }
        Ok(())
    }

    fn add_process_name(&mut self, _pid: u64, _name: &str) -> io::Result<()> {
        Ok(())
    }

    fn add_thread_name(&mut self, _pid: u64, _tid: u64, _name: &str) -> io::Result<()> {
        Ok(())
    }

    fn add_device_properties(&mut self, devices: &[DeviceProperties]) -> io::Result<()> {
        let meta = self.writer.meta_mut();
        if meta.device_properties.is_empty() {
            meta.device_properties = devices.to_vec();
        }
        Ok(())
    }

    /// Ends the row group and writes it with a footer (the file is readable with every row group so far).
    fn sync(&mut self) -> io::Result<()> {
        self.row_group_since = std::time::Instant::now();
        self.writer.flush().map_err(io_error)
    }

    fn partial_path(&self) -> &Path {
        &self.partial
    }

    fn finish(mut self: Box<Self>, summary: Option<&Value>) -> io::Result<TraceFile> {
        if let Some(summary) = summary {
            self.writer.add_footer_key("summary", summary.to_string());
        }
        self.writer.finish().map(trace_file).map_err(io_error)
    }
}

/// A [`PerfettoWriter`](crate::perfetto::PerfettoWriter) as a [`TraceSink`] (see the [module](self)).
#[cfg(feature = "perfetto")]
#[derive(Debug)]
pub struct PerfettoSink {
    writer: crate::perfetto::PerfettoWriter,
    partial: PathBuf,
    time: Option<TimeMap>,
}

#[cfg(feature = "perfetto")]
impl PerfettoSink {
    /// Creates the file for `path` (under a temporary name until finished).
    pub fn create(
        path: &Path,
        meta: &RunMeta,
        options: crate::perfetto::PerfettoOptions,
    ) -> io::Result<Self> {
        let writer = crate::perfetto::PerfettoWriter::create(path, meta, options).map_err(io_error)?;
        let partial = writer.temporary_path().map(Path::to_path_buf).unwrap_or_default();
        Ok(PerfettoSink { writer, partial, time: None })
    }
}

#[cfg(feature = "perfetto")]
impl TraceSink for PerfettoSink {
    fn add_batch(&mut self, batch: &Batch, names: &Names, time: &TimeMap) -> io::Result<()> {
        if self.time != Some(*time) {
            self.writer.set_time_map(*time);
            self.time = Some(*time);
        }
        self.writer.write_batch(batch, names).map_err(io_error)?;
        // Each batch's packets go to the file (the OS) at once: a killed process's file holds every
        // batch handed over before the kill.
        self.writer.flush().map_err(io_error)
    }

    fn add_process_name(&mut self, _pid: u64, _name: &str) -> io::Result<()> {
        Ok(())
    }

    fn add_thread_name(&mut self, _pid: u64, _tid: u64, _name: &str) -> io::Result<()> {
        Ok(())
    }

    fn sync(&mut self) -> io::Result<()> {
        self.writer.flush().map_err(io_error)
    }

    fn partial_path(&self) -> &Path {
        &self.partial
    }

    fn finish(self: Box<Self>, _summary: Option<&Value>) -> io::Result<TraceFile> {
        self.writer.finish().map(trace_file).map_err(io_error)
    }
}
