//! Parquet files, one per process/rank (feature `parquet`).
//!
//! [`ParquetWriter`] writes the [events table](crate::arrow::events_schema) batch by batch, a row group per
//! flush, with the run's metadata ([`metadata`] lists the keys). A directory of such files (one per rank) is
//! one SQL table for DataFusion (`accelprof-analyze`), DuckDB (`read_parquet('dir/*.parquet')`), Spark
//! (`spark.read.parquet(dir)`) or Trino; pyarrow reads a file with `pyarrow.parquet.read_table`, and
//! [`read_parquet`] reads one back into a [`Batch`](accelprof_core::Batch).

pub mod metadata;
mod reader;
mod writer;

pub use reader::{read_meta, read_parquet, ParquetTrace};
pub use writer::{Compression, ParquetOptions, ParquetWriter};
