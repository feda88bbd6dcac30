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
//! - [`activity`]: the activity session over a small vendor backend: buffer routing, pause and resume, the
//!   fence, the ledger, the teardown order.
//! - [`pool`]: the bounded, lock-free pool of 8-byte aligned activity buffers handed to the vendor.
//! - [`callback`]: the callback machinery of the vendor crates: the switchboard that shares one
//!   vendor subscription between subscribers, the lock-free routing table and its grace periods,
//!   the entry/exit slot and frame stack, the closure's lifetime, panics kept out of C.
//! - [`ids`]: [`id_newtype!`], the one macro that turns every vendor's C enums into newtypes.
//! - [`intern`]: names (kernels, API calls, markers) stored once and referred to by a [`NameId`].
//! - [`columns`]: one column schema per record family, identical for every vendor, grouped in a [`Batch`].
//! - [`pipeline`]: the decode thread, the [`Handoff`] used on vendor threads, consumers, `sync()`, counts.
//! - [`version`]: [`Version`], what every vendor crate's `version()` returns.
//! - [`time`]: the vendor clock's mapping to Unix time ([`TimeMap`](time::TimeMap)) and its record in a
//!   trace ([`ClockAnchor`](time::ClockAnchor)).
//!
//! No trace writer, compression or JSON lives here: the writers (Chrome JSON, Parquet, Perfetto, Arrow),
//! the kernel summary and demangling are the `accelprof-export` crate's, behind its one sink trait.
//!
//! A vendor crate wires it up like this (the walker here decodes a toy format of one `u64` correlation id
//! per kernel record):
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use accelprof_core::columns::{Batch, FamilySet, KernelRow};
//! use accelprof_core::intern::Interner;
//! use accelprof_core::{BufferPool, Pipeline, PipelineConfig, WalkStats};
//!
//! let walker = |bytes: &[u8], out: &mut Batch, names: &mut Interner| {
//!     let name = names.intern("my_kernel");
//!     let mut stats = WalkStats::default();
//!     for record in bytes.chunks_exact(8) {
//!         let correlation = u64::from_le_bytes(record.try_into().unwrap());
//!         out.kernels.push(KernelRow { correlation, start: 1_000, end: 2_000, name, ..Default::default() });
//!         stats.records += 1;
//!     }
//!     stats
//! };
//! let pool = BufferPool::new(4096, 8);
//! let pipeline = Pipeline::start(walker, pool, PipelineConfig::default())?;
//!
//! // A consumer: here, one that counts kernels (a trace writer of `accelprof-export` plugs in the same way).
//! let kernels = Arc::new(Mutex::new(0usize));
//! let seen = Arc::clone(&kernels);
//! pipeline.subscribe(FamilySet::all(), move |batch, _names| {
//!     *seen.lock().unwrap() += batch.kernels.len();
//! });
//!
//! // In the vendor's buffer callbacks (any thread):
//! let handoff = pipeline.handoff();
//! let mut buf = handoff.request_buffer().expect("pool has room");
//! buf.as_mut_bytes()[..8].copy_from_slice(&42u64.to_le_bytes()); // the vendor writes records
//! handoff.completed(buf, 8);
//!
//! // Flush: (the vendor flushes its buffers first, then)
//! pipeline.sync()?;
//! let counts = pipeline.counts();
//! assert_eq!(counts.records_delivered, 1);
//! assert_eq!(
//!     counts.records_produced(),
//!     counts.records_delivered + counts.records_dropped() + counts.records_filtered
//! );
//! assert_eq!(*kernels.lock().unwrap(), 1);
//! # Ok::<(), accelprof_core::pipeline::PipelineError>(())
//! ```
//!
//! Nothing here knows a vendor: each vendor crate supplies a [`RecordWalker`] that parses its raw
//! buffers, and maps its own enums onto the shared columns.

pub mod activity;
pub mod callback;
pub mod columns;
pub mod ids;
pub mod intern;
pub mod pipeline;
pub mod pool;
pub mod time;
pub mod version;

pub use columns::{Batch, Family, FamilySet, PerFamily};
pub use intern::{NameId, Names};
pub use pipeline::{Counts, Handoff, Pipeline, PipelineConfig, RecordWalker, WalkStats};
pub use pool::{ActivityBuffer, BufferPool, OverflowStats, PoolStats};
pub use version::Version;

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
