//! Arrow record batches from the shared column batches (feature `arrow`).
//!
//! One schema per record family ([`schema`]), the same for CUPTI, rocprofiler and MSPTI; [`ArrowEncoder`]
//! turns a [`Batch`](accelprof_core::Batch) into one record batch per family, [`ArrowDecoder`] turns record
//! batches back into a `Batch`. The [`events_schema`] table puts every family's rows in one table with a
//! `rank` and a `family` column: what a Parquet file holds.
//!
//! # Columns
//!
//! Timestamps are nanoseconds on the records' clock (the file's clock anchor maps them to Unix time). The
//! shared columns' unsigned integers are stored with the same bits in signed Arrow types (`Int64`, `Int32`,
//! `Int16`), which Spark, Trino and Hive read (they have no unsigned 64-bit type): values below 2^63 read as
//! themselves, and the host "device" of a marker (`u32::MAX`) reads as -1. Names are
//! `Dictionary(UInt32, Utf8)`; the shared enums (`copy_kind`, `src_kind`, `dst_kind`, `memory_kind`) are
//! `Dictionary(UInt8, Utf8)` labels (Kineto's: `HtoD`, `Pageable`, ...; `Unknown(<code>)` for a code the
//! shared enum does not name). Columns marked "raw" hold the vendor's own code, which the file's `vendor`
//! says how to read.
//!
//! | family | columns |
//! |---|---|
//! | kernel | `start_ns`, `end_ns`, `device`, `context`, `stream`, `correlation`, `name`, `grid_x`, `grid_y`, `grid_z`, `block_x`, `block_y`, `block_z`, `shared_memory` (bytes per block), `registers` (per thread) |
//! | memcpy | `start_ns`, `end_ns`, `device`, `context`, `stream`, `correlation`, `name` (Kineto's: `Memcpy HtoD (Pageable -> Device)`), `bytes`, `copy_kind`, `src_kind`, `dst_kind`, `is_async` |
//! | memset | `start_ns`, `end_ns`, `device`, `context`, `stream`, `correlation`, `name` (`Memset (Device)`), `bytes`, `memset_value`, `memory_kind` |
//! | api | `start_ns`, `end_ns`, `process`, `thread`, `correlation`, `name`, `api_domain` (raw), `cbid` (raw) |
//! | marker | `start_ns`, `end_ns`, `marker_id`, `process`, `thread`, `device` (-1 on the host), `stream`, `domain`, `name`, `marker_flags` (raw) |
//! | collective | `start_ns`, `end_ns`, `device`, `stream`, `correlation`, `name`, `comm_name`, `elements`, `bytes`, `bandwidth_gbps`, `data_type` (raw), `algorithm` |
//! | memory | `start_ns`, `end_ns`, `device`, `stream`, `correlation`, `address`, `bytes`, `memory_op` (raw), `memory_kind_raw` (raw), `process` |
//! | sync | `start_ns`, `end_ns`, `device`, `context`, `stream`, `correlation`, `sync_type` (raw), `event`, `name` |
//! | external_correlation | `external_kind` (raw), `external_id`, `correlation` |
//! | counter | `start_ns`, `end_ns`, `device`, `correlation`, `name` (the counter), `value` |
//!
//! Each family's columns are declared once, in `arrow/columns.rs`: per column its name, the row field it
//! holds and how it is stored, whether Parquet delta-encodes it (`start_ns`, `end_ns`, `correlation`: they
//! grow with time), and the Chrome trace's `args` key where the Chrome writer shows it (Kineto's spelling
//! where it differs, e.g. `registers` is `registers per thread`). The schemas, [`ArrowEncoder`],
//! [`ArrowDecoder`], the events table and the Parquet writer's settings are derived from it; tests check
//! the table above, the row structs' fields, the Chrome writer's `args` and a Parquet file's encodings
//! against it. A column the shared batches gain later is added to its family there (and to the table
//! above); a vendor-specific column is named for its vendor (`cupti_...`, `rocprofiler_...`, `mspti_...`)
//! and is null in other vendors' files. A column's name is never changed: files already written hold it.

mod columns;
mod decode;
mod encode;
mod events;
mod labels;
mod names;

pub use decode::ArrowDecoder;
pub use encode::{schema, ArrowEncoder, SCHEMA_VERSION};
pub use events::{events_schema, split_events, EventsTable};
pub use labels::{copy_kind_label, memory_kind_label};

#[cfg(feature = "parquet")]
pub(crate) use columns::delta_encoded;
