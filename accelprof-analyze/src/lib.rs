//! Many ranks' GPU traces analysed with SQL: a directory of per-rank Parquet files written by
//! `accelprof-export` is one table, `events`, queried in-process by Apache DataFusion.
//!
//! The analyses are those HolisticTraceAnalysis (HTA) users reach for first, with HTA's classification of
//! kernels ([`KernelRules`]: NCCL kernels are communication, copies and sets memory, the rest computation):
//!
//! | analysis | function | HTA's |
//! |---|---|---|
//! | time per kernel name per rank | [`Analysis::kernels`] | `get_gpu_kernel_breakdown`, per-kernel table |
//! | time per kernel type per rank | [`Analysis::categories`] | |
//! | computation / communication / memory overlap per rank | [`Analysis::breakdown`], [`Report::breakdown_totals`] | `get_gpu_kernel_breakdown`, kernel-type table |
//! | idle time per rank | [`Analysis::idle`] | `get_temporal_breakdown` |
//! | steps per rank, the slowest rank per step | [`Analysis::steps`], [`Analysis::stragglers`] | `get_potential_stragglers`' late-start metric |
//! | NCCL kernels per rank | [`Analysis::communication`] | |
//!
//! ```no_run
//! use accelprof_analyze::{analyze, Options};
//!
//! let report = analyze("traces/", Options::default())?;
//! for k in report.kernels.iter().filter(|k| k.rank == 0).take(5) {
//!     println!("{} {} x{} {} ns", k.kernel_type, k.name, k.count, k.sum_ns);
//! }
//! for s in &report.stragglers {
//!     println!("step {}: slowest rank {} ({} ns)", s.step, s.slowest_rank, s.slowest_ns);
//! }
//! # Ok::<(), accelprof_analyze::Error>(())
//! ```
//!
//! From the command line: `accelprof-analyze analyze DIR` (add `--json` for machine-readable output,
//! `accelprof-analyze sql` prints the queries, `accelprof-analyze query DIR 'SELECT ...'` runs your own).
//!
//! Memory stays bounded whatever the traces' size: the engine reads only the columns a query needs, row
//! group by row group, and sorts and aggregations spill to temporary files past
//! [`Options::memory_limit`].
//!
//! # The same queries at cluster scale
//!
//! [`sql`] gives each analysis as plain SQL over a table `events` (common table expressions, `LIKE`,
//! `POSITION`, `CASE`, window functions with explicit frames, `STDDEV_SAMP`): define `events` over the
//! files and run the text unchanged. On DuckDB every query gives the rows DataFusion gives
//! (`python/check_duckdb.py`); Spark SQL and Trino accept the same constructs.
//! The files are ordinary Parquet (signed integer columns, dictionary-encoded strings), one per rank, with
//! a `rank` column, so a directory (or an object-store prefix) of them is one table.
//!
//! - DuckDB: `CREATE VIEW events AS SELECT * FROM read_parquet('traces/*.parquet');`
//! - Spark SQL: `spark.read.parquet("s3://bucket/job/").createOrReplaceTempView("events")`, then
//!   `spark.sql(text)`.
//! - Trino (Hive or Iceberg connector): `CREATE TABLE hive.traces.events (...) WITH (external_location =
//!   's3://bucket/job/', format = 'PARQUET')`, with the columns of
//!   `accelprof_export::arrow::events_schema` (`VARCHAR` for the dictionary columns), then
//!   `USE hive.traces;` and the text.
//!
//! Each file's metadata (`accelprof.rank`, `accelprof.host`, `accelprof.clock`, ...) says where it comes
//! from and how its clock maps to Unix time (DuckDB: `parquet_kv_metadata('traces/*.parquet')`).

mod engine;
mod queries;
mod report;
mod report_options;
mod results;
mod rules;

pub use engine::{analyze, Analysis, Options};
pub use queries::{sql, Query, QueryOptions, FINISHED_SQL, GPU_FAMILIES, NAME_SQL};
pub use report::render;
pub use report_options::ReportOptions;
pub use results::{
    state_label, CategoryTime, CommStat, IdleTime, KernelStat, OverlapTime, RankInfo, Report, StepTime,
    Straggler, Unfinished,
};
pub use rules::{KernelRules, KernelType};

/// What can go wrong analysing a directory.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The directory has no `*.parquet` file.
    #[error("no *.parquet file in {0}")]
    NoFiles(std::path::PathBuf),
    /// The directory cannot be listed (or a file's absolute path cannot be made).
    #[error("{0}: {1}")]
    Dir(std::path::PathBuf, std::io::Error),
    /// A file is not one of ours, or cannot be read.
    #[error("{0}: {1}")]
    File(std::path::PathBuf, accelprof_export::Error),
    /// A file lacks a column the table needs, or has one of another type.
    #[error("{0}: {1}")]
    Schema(std::path::PathBuf, String),
    /// Two files hold the same rank (the analyses would add them together): keep one.
    #[error("{} and {} are both rank {rank}", files.0.display(), files.1.display())]
    SameRank {
        /// The rank.
        rank: u32,
        /// The two files.
        files: (std::path::PathBuf, std::path::PathBuf),
    },
    /// A file's path is not UTF-8 (the query engine names files in UTF-8).
    #[error("{0:?}: the path is not UTF-8, which the query engine needs")]
    NotUtf8(std::path::PathBuf),
    /// A file's rows hold values no trace holds: a `rank` column other than its metadata's rank, a
    /// metadata rank past 2^31-1 (the `rank` column is Int32), a negative timestamp (a clock value past
    /// 2^63-1 ns), or a null rank or timestamp. (A row whose end is before its start is no such value: see
    /// [`FINISHED_SQL`].)
    #[error("{0}: {1}")]
    Values(std::path::PathBuf, String),
    /// A figure (a total of durations) is past 2^63-1 ns, 292 years, which no trace reaches: the timestamps
    /// of the files that add to it are corrupt. Reported rather than wrapped or saturated: either would be a
    /// wrong figure that looks like a measurement.
    #[error(
        "{what} is {value} ns, past the 2^63-1 ns (292 years) a figure holds: the timestamps of {} cannot be a trace's",
        files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    TooLarge {
        /// What the figure is.
        what: String,
        /// Its exact value.
        value: i128,
        /// The files that add to it.
        files: Vec<std::path::PathBuf>,
    },
    /// The query engine failed.
    #[error("query engine: {0}")]
    DataFusion(#[from] datafusion::error::DataFusionError),
    /// A result could not be read.
    #[error("arrow: {0}")]
    Arrow(#[from] datafusion::arrow::error::ArrowError),
    /// The directory or the runtime failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// A result had another shape than the query gives.
    #[error("unexpected result: {0}")]
    Unexpected(String),
}

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
