//! The columnar formats of `accelprof-export` as tracer outputs (feature `columns`, on by default):
//! [`Format::parquet`] (`.parquet`) and [`Format::perfetto`] (`.pftrace`, `.perfetto-trace`), in
//! [`TracerConfig::formats`](super::TracerConfig::formats) by default next to the Chrome trace. Each is a
//! [`TraceSink`] fed by the same collection, so that `outputs: vec!["t.json.gz".into(),
//! "t.parquet".into(), "t.pftrace".into()]` writes the three from one run.

use accelprof_export::parquet::ParquetOptions;
use accelprof_export::perfetto::PerfettoOptions;
use accelprof_export::sink::{ParquetSink, PerfettoSink};
use accelprof_export::trace::{RunMeta, Style, TraceSink};

use super::Format;

impl Format {
    /// Apache Parquet, one file per process/rank (`accelprof-export`'s events table: every family's rows
    /// with rank and family columns, a row group per flush, the run's metadata in the footer: rank, world
    /// size, host, devices, library versions, clock anchor). The file is readable once the tracer
    /// stopped (its footer comes last); DataFusion (`accelprof-analyze`), pyarrow, DuckDB and Spark read it.
    pub fn parquet() -> Format {
        Format::new("Parquet", ["parquet"], |path, meta| {
            Ok(Box::new(ParquetSink::create(path, meta, ParquetOptions::default())?) as Box<dyn TraceSink>)
        })
    }

    /// Perfetto's own protobuf trace (`TracePacket`s: tracks per device and stream, flows from launches
    /// to GPU work, Unix times), streamed and readable after every flush; the Perfetto UI and trace
    /// processor open it.
    pub fn perfetto() -> Format {
        Format::new("Perfetto protobuf trace", ["pftrace", "perfetto-trace"], |path, meta| {
            Ok(Box::new(PerfettoSink::create(path, meta, perfetto_options(meta))?) as Box<dyn TraceSink>)
        })
    }
}

/// Kineto's categories and the device label of the trace, the process named as in the JSON trace.
fn perfetto_options(meta: &RunMeta) -> PerfettoOptions {
    let pid = meta.process_id;
    PerfettoOptions {
        categories: Style::of_vendor(&meta.vendor).categories,
        device_label: Style::of_vendor(&meta.vendor).device_label,
        process_name: Some(format!("{} (pid {pid})", super::sinks::process_label())),
        ..PerfettoOptions::default()
    }
}
