//! One tracer over NVIDIA CUPTI, AMD rocprofiler-sdk and Huawei Ascend MSPTI.
//!
//! [`Tracer`] finds the vendor library the machine has (or the one it is told to use), enables the
//! kinds of record every vendor has in some form (kernels, copies, sets, API calls, markers,
//! collectives), and hands the records on as the shared column batches of [`accelprof_core`]: one
//! schema whatever the vendor, so a consumer written once works on all three. It streams them to
//! trace files (a Chrome trace with PyTorch profiler's conventions today; any
//! [`TraceSink`](accelprof_export::trace::TraceSink) plugs in), keeps a per-kernel summary and counts
//! every record: produced = delivered + dropped.
//!
//! ```no_run
//! use accel_profiling::{FamilySet, Tracer, TracerConfig, Vendor};
//!
//! let tracer = Tracer::new(TracerConfig {
//!     vendor: Vendor::Auto,               // CUPTI, rocprofiler-sdk or MSPTI: whichever the machine has
//!     outputs: vec!["trace_%r.json".into()], // %r: the rank (RANK, WORLD_SIZE as torch.distributed sets them)
//!     ..TracerConfig::default()
//! })?;
//! tracer.subscribe(FamilySet::KERNEL, |batch, names| {
//!     for (name, start, end) in batch.kernels.name().iter().zip(batch.kernels.start()).zip(batch.kernels.end())
//!         .map(|((n, s), e)| (n, s, e))
//!     {
//!         println!("{} took {} ns", names.resolve(*name), end.saturating_sub(*start));
//!     }
//! });
//! tracer.start()?;
//! // ... the work to trace ...
//! let report = tracer.stop();
//! print!("{}", report.render(10));
//! assert!(report.counts.adds_up());
//! # Ok::<(), accel_profiling::TracerError>(())
//! ```
//!
//! - Vendors: a cargo feature each (`cupti`, `mspti`, `rocprofiler`, all on by default); with a
//!   feature off that vendor's crate is not built and [`Vendor::Auto`] does not look for it.
//! - What each vendor needs of the process: MSPTI delivers copies, sets, memory and collective records
//!   only when `libmspti.so` was preloaded when the program started ([`Tracer::prepare_process`]
//!   restarts the program that way); rocprofiler-sdk creates the tracer's context in its tool window
//!   (`rocprofiler_force_configure`), once per process.
//! - What each column means for each vendor, and which hold vendor-specific values: see [`tracer`].
//! - The one engine: the front doors (CUDA injection, rocprofiler-sdk tool, Ascend preload) and the
//!   launcher start this [`Tracer`] from [`TracerConfig::from_env`] (the `ACCELPROF_*` variables of
//!   [`settings`]); [`launcher`] is the launcher's private report channel.
//!
//! How the crates fit together: `docs/ARCHITECTURE.md` of the repository; the trace files'
//! conventions: `docs/TRACE-FORMAT.md`.

pub mod launcher;
pub mod settings;
pub mod tracer;

pub use accelprof_core;
pub use accelprof_core::columns::Family;
pub use accelprof_core::{Batch, FamilySet, Names};
pub use accelprof_export;
pub use tracer::{
    BufferPolicy, CaptureRange, Distributed, ExternalIds, Format, LibraryInfo, Output, Skipped, Synchronize,
    TraceOutcome, Tracer, TracerConfig, TracerCounts, TracerError, TracerReport, Vendor, VendorAttempt,
};

// The README's examples are compiled (and the runnable ones run) as doctests (one uses `cupti`).
#[cfg(all(doctest, feature = "cupti"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
