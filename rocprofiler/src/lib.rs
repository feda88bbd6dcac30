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
//! use rocprofiler::{BufferConfig, BufferKind, Configurator, FamilySet, Result, Tool};
//!
//! struct Kernels(Arc<Mutex<usize>>);
//!
//! impl Tool for Kernels {
//!     const NAME: &'static str = "kernel-count";
//!     fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
//!         let ctx = cfg.create_context()?;
//!         let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
//!         cfg.buffer_tracing(&ctx, BufferKind::KERNEL_DISPATCH, &[], &buffer)?;
//!         let seen = Arc::new(Mutex::new(0));
//!         let sink = seen.clone();
//!         buffer.subscribe(FamilySet::KERNEL, move |batch, _names| {
//!             *sink.lock().unwrap() += batch.kernels.len();
//!         });
//!         ctx.start()?;
//!         Ok(Kernels(seen))
//!     }
//!     fn finalize(&mut self) {
//!         eprintln!("{} kernels", self.0.lock().unwrap());
//!     }
//! }
//! rocprofiler::export_tool!(Kernels);
//! ```
//!
//! Layers: [`sys`] (generated declarations and the loader) -> [`Rocprofiler`] (the opened SDK)
//! -> [`Tool`]/[`Configurator`]/[`Context`] -> callback tracing ([`Subscriber`], [`CallbackData`]), buffers
//! ([`Buffer`], decoded on a pipeline thread into [`accelprof_core`] batches), dispatch counting
//! ([`CountingRequest`], [`CountingResult`], [`CounterConfigs`]; results arrive later, on the
//! SDK's thread, and [`Context::stop`] drains them) -> ids and enums ([`CallbackDomain`],
//! [`BufferKind`], ...).
//!
//! What the SDK does not check, the crate does before calling it, or makes impossible to write:
//! counter configs come only from the SDK and reach only dispatches on their own agent,
//! dimension ids only from the SDK, tracing kinds and operations are checked against the
//! library's own lists (the SDK registers a service before looking at its operations), and
//! calls that would make the SDK wait for itself are refused ([`Error::WouldDeadlock`]).

mod agents;
mod buffer;
pub mod callback;
mod configurator;
mod context;
mod counters;
mod decode;
mod dispatch_counting;
mod error;
mod ids;
mod library;
mod tool;

/// The shared core these types come from (column batches, name tables, the decode pipeline, trace
/// export), for what a consumer needs beyond the few re-exported here.
pub use accelprof_core;
pub use accelprof_core::{Batch, FamilySet, Names};
pub use agents::{Agent, AgentKind};
pub use buffer::{Buffer, BufferConfig, CallbackThread, MAX_BUFFER_SIZE, MIN_BUFFER_SIZE};
pub use callback::{CallbackData, CorrelationSlot, DispatchInfo, KernelDispatch, MemoryCopy, Subscriber};
pub use configurator::Configurator;
pub use context::Context;
pub use counters::{Counter, CounterConfig, CounterConfigs, Dimension};
pub use dispatch_counting::{CounterValue, CountingRequest, CountingResult};
pub use error::{check, Error, Result};
pub use ids::{
    AgentId, BufferKind, BufferPolicy, CallbackDomain, CallbackId, CallbackSite, Correlation, CounterId,
    KernelId, Operation,
};
pub use library::Rocprofiler;
pub use rocprofiler_sys as sys;
pub use tool::{configure_function, force_configure, Tool};

#[doc(hidden)]
pub mod __private {
    pub use crate::tool::configure;
}

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
