//! Trace output for the accelprof crates: the shared column batches the vendor crates decode (CUPTI,
//! rocprofiler-sdk, MSPTI) as Chrome trace JSON (Kineto's conventions), Arrow record batches, Parquet
//! files per rank, and Perfetto's own protobuf trace, each written batch by batch as the records arrive,
//! every one behind one sink trait ([`trace::TraceSink`]) and one metadata type ([`RunMeta`]).
//! The kernel summary ([`summary`]) and C++ demangling ([`demangle`]) the tracers print and write are here
//! too: the core crate, which is all a vendor crate depends on, has no writer, compression or JSON.
//!
//! | feature | what |
//! |---|---|
//! | `chrome` | [`trace`]: `ChromeTraceWriter` (streamed `.json` / `.json.gz`, whole after every batch), `ChromeTrace` (in memory), `recover` (closes a file a killed writer left) |
//! | `arrow` | [`arrow`]: one Arrow schema per record family, the same for every vendor; names as dictionary columns |
//! | `parquet` | [`parquet`]: [`ParquetWriter`](parquet::ParquetWriter), one file per process/rank, a row group per flush, the metadata a merge of many ranks needs |
//! | `zstd` | Zstandard compression for Parquet (builds the C library; Snappy, pure Rust, otherwise) |
//! | `perfetto` | [`perfetto`]: [`PerfettoWriter`](perfetto::PerfettoWriter), Perfetto's `TracePacket` stream: tracks per device and stream, flows from launches to GPU work |
//!
//! [`sink`] makes both writers a tracer's [`TraceSink`](trace::TraceSink), the trait the Chrome
//! trace writer implements, so that one collection feeds all three formats.
//!
//! Every writer has the same shape, so a tracer feeds them alike ([`BatchWriter`]): created with the run's
//! metadata ([`RunMeta`]), then `write_batch(&Batch, &Names)` for each batch the pipeline delivers (the batch
//! can be reused as soon as it returns), `flush()` when the tracer flushes, `finish()` at the end, which
//! renames the file from its temporary name into place.
//!
//! ```
//! # #[cfg(all(feature = "parquet", feature = "perfetto"))] {
//! use accelprof_core::columns::KernelRow;
//! use accelprof_core::intern::Interner;
//! use accelprof_core::Batch;
//! use accelprof_export::parquet::{ParquetOptions, ParquetWriter};
//! use accelprof_export::perfetto::{PerfettoOptions, PerfettoWriter};
//! use accelprof_export::{BatchWriter, RunMeta};
//!
//! let dir = std::env::temp_dir().join(format!("accelprof-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let meta = RunMeta { rank: 0, world_size: 1, host: "node0".into(), vendor: "cupti".into(), ..RunMeta::default() };
//! let mut writers: Vec<Box<dyn BatchWriter>> = vec![
//!     Box::new(ParquetWriter::create(dir.join("rank0.parquet"), &meta, ParquetOptions::default())?),
//!     Box::new(PerfettoWriter::create(dir.join("rank0.pftrace"), &meta, PerfettoOptions::default())?),
//! ];
//!
//! // The decode thread's interner and batch (here filled by hand).
//! let mut interner = Interner::new();
//! let mut batch = Batch::new();
//! let name = interner.intern("gemm_kernel");
//! batch.kernels.push(KernelRow { start: 1_000, end: 5_000, stream: 7, correlation: 1, name, ..Default::default() });
//! for w in &mut writers {
//!     w.write_batch(&batch, &interner.names())?;
//! }
//! for w in writers {
//!     let done = w.finish()?;
//!     assert_eq!(done.rows[0], 1); // one kernel
//! }
//! # std::fs::remove_dir_all(&dir)?;
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(any(feature = "parquet", feature = "perfetto"))]
mod atomic_file;
pub mod demangle;
mod guarded_file;
mod meta;
#[cfg(any(feature = "parquet", feature = "perfetto"))]
pub mod sink;
pub mod summary;
pub mod synthetic;
pub mod trace;
mod writer;

#[cfg(feature = "arrow")]
pub mod arrow;
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(feature = "perfetto")]
pub mod perfetto;

pub use meta::{ClockAnchor, RunMeta};
pub use writer::{BatchWriter, Finished};

/// What can go wrong writing or reading a trace.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be written or read.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// Arrow refused a column (a bug of ours, or a file with other columns).
    #[cfg(feature = "arrow")]
    #[error("arrow: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// The Parquet library refused to write or read.
    #[cfg(feature = "parquet")]
    #[error("parquet: {0}")]
    Parquet(#[from] ::parquet::errors::ParquetError),
    /// A Perfetto trace could not be decoded.
    #[cfg(feature = "perfetto")]
    #[error("perfetto: {0}")]
    Protobuf(#[from] prost::DecodeError),
    /// A file does not have the columns or metadata we write.
    #[error("{0}")]
    Schema(String),
}

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(all(doctest, feature = "parquet"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
