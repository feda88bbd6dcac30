//! Safe access to AMD's rocprofiler-sdk: tool registration, callback and buffer tracing decoded
//! into shared column batches, agents and counters, and per-agent dispatch counting.
//!
//! Nothing links the SDK: the library is found at run time (inside a ROCm process, the copy the
//! runtime loaded), every missing function is a per-call [`Error::MissingSymbol`], and every SDK
//! status has its own [`Error`] variant.
//!
//! A tool is a type implementing [`Tool`]. Its [`Tool::setup`] runs while rocprofiler configures
//! tools and receives a [`Configurator`], the only way to create contexts, buffers and services,
//! so setup calls outside that window cannot be written. Export it from a `cdylib` with
//! [`export_tool!`] and run a HIP program with `ROCP_TOOL_LIBRARIES=/path/to/libmytool.so`, or
//! call [`force_configure`] from a program that profiles itself.
//!
//! ```no_run
//! use std::sync::{Arc, Mutex};
//! use rocprofiler::{ActivityConfig, ActivitySession, BufferKind, Configurator, FamilySet, Result, Tool};
//!
//! struct Kernels(ActivitySession, Arc<Mutex<usize>>);
//!
//! impl Tool for Kernels {
//!     const NAME: &'static str = "kernel-count";
//!     fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
//!         let kinds = [BufferKind::KERNEL_DISPATCH].into_iter().collect();
//!         let session = cfg.activity_session(ActivityConfig { kinds, ..Default::default() })?;
//!         let seen = Arc::new(Mutex::new(0));
//!         let sink = seen.clone();
//!         session.subscribe(FamilySet::KERNEL, move |batch, _names| {
//!             *sink.lock().unwrap() += batch.kernels.len();
//!         });
//!         session.start()?;
//!         Ok(Kernels(session, seen))
//!     }
//!     fn finalize(&mut self) {
//!         eprintln!("{} kernels", self.1.lock().unwrap());
//!     }
//! }
//! rocprofiler::export_tool!(Kernels);
//! ```
//!
//! Layers: [`sys`] (generated declarations and the loader) -> [`Rocprofiler`] (the opened SDK,
//! `library.rs`) -> [`tool`] (rocprofiler's own: [`Tool`], the configure window's [`Configurator`],
//! [`Context`]) -> callback tracing ([`CallbackRecord`]), [`activity`] ([`ActivitySession`], the shared
//! core's session over the SDK's buffers, and the bare [`Buffer`]; records decoded on a pipeline thread
//! into [`accelprof_core`] batches by `decode/`), [`counters`] (rocprofiler's own: agents, counters,
//! dispatch counting: [`CountingRequest`], [`CountingResult`], [`CounterConfigs`]; results arrive
//! later, on the SDK's thread, and [`Context::stop`] drains them) -> ids and enums
//! ([`CallbackKind`], [`BufferKind`], ...).
//!
//! What the SDK does not check, the crate does before calling it, or makes impossible to write:
//! counter configs come only from the SDK and reach only dispatches on their own agent,
//! dimension ids only from the SDK, tracing kinds and operations are checked against the
//! library's own lists (the SDK registers a service before looking at its operations), and
//! calls that would make the SDK wait for itself are refused ([`Error::WouldDeadlock`]).

pub mod activity;
mod callback_tracing;
pub mod counters;
pub mod decode;
mod error;
mod ids;
mod library;
pub mod tool;

/// The shared core these types come from (column batches, name tables, the decode pipeline, trace
/// export), for what a consumer needs beyond the few re-exported here.
pub use accelprof_core;
pub use accelprof_core::{Batch, FamilySet, Names};
pub use activity::{
    ActivityConfig, ActivityCounts, ActivityKind, ActivityKinds, ActivitySession, Buffer, BufferConfig,
    CallbackThread, MAX_BUFFER_SIZE, MIN_BUFFER_SIZE,
};
pub use callback_tracing::{CallbackRecord, DispatchInfo, KernelDispatch, MemoryCopy};
pub use counters::{
    Agent, AgentKind, Counter, CounterConfig, CounterConfigs, CounterValue, CountingRequest, CountingResult,
    Dimension,
};
pub use error::{Error, Result, ResultCode};
pub use ids::{
    AgentId, BufferKind, BufferPolicy, CallbackKind, Correlation, CounterId, KernelId, Operation, Phase,
};
pub use library::Rocprofiler;
/// The raw declarations and loader (`rocprofiler-sys`), for what this crate does not wrap.
pub use rocprofiler_sys as sys;
pub use tool::{configure_function, force_configure, Configurator, Context, Tool};

#[doc(hidden)]
pub mod __private {
    pub use crate::tool::configure;
}

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
