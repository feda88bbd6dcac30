//! What the `cupti`, `mspti` and `rocprofiler` crates share, written once for all three vendors.
//!
//! One activity record travels the same way whatever the vendor:
//!
//! ```text
//! vendor thread:  buffer requested -> Handoff::request_buffer()  (bounded lock-free pool, no allocation once warm)
//! vendor thread:  buffer completed -> Handoff::completed(buf)    (a channel send; returns at once)
//! decode thread:  RecordWalker::walk -> rows appended to a Batch -> buffer given back to the pool
//!                 full batch, or sync(): the Batch goes to every consumer subscribed to its families
//! ```
//!
//! - [`pool`]: the bounded, lock-free pool of 8-byte aligned activity buffers handed to the vendor.
//! - [`intern`]: names (kernels, API calls, markers) stored once and referred to by a [`NameId`].
//! - [`columns`]: one column schema per record family, identical for every vendor, grouped in a [`Batch`].
//! - [`pipeline`]: the decode thread, the [`Handoff`] used on vendor threads, consumers, `sync()`, counts.
//! - [`trace`]: a Chrome trace JSON writer following the conventions PyTorch's profiler (Kineto) uses, so
//!   Perfetto, chrome://tracing and HolisticTraceAnalysis read our traces.
//!
//! Nothing here knows a vendor: each vendor crate supplies a [`RecordWalker`] that parses its raw
//! buffers, and maps its own enums onto the shared columns.

pub mod columns;
pub mod intern;
pub mod pipeline;
pub mod pool;
pub mod trace;

pub use columns::{Batch, Family, FamilySet};
pub use intern::{NameId, Names};
pub use pipeline::{Counts, Handoff, Pipeline, PipelineConfig, RecordWalker, WalkStats};
pub use pool::{ActivityBuffer, BufferPool, PoolStats};
