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
//! call [`force_configure`] from a program that profiles itself. [`configure_with`] runs a closure in
//! that window instead: it may borrow the caller's state, and its result is returned to the caller
//! (a program that profiles itself, a plain `#[test]` against the mock SDK).
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
//! # The callback API
//!
//! A [`Subscriber`]: a closure on every traced call of a [`CallbackDomain`] (the SDK's callback
//! tracing kind), at ENTER and EXIT, with a [`CorrelationSlot`] over the SDK's per-call user data.
//! Made in the tool's setup, as everything the SDK configures. (The examples here run against the mock
//! `librocprofiler-sdk` of `accelprof-mocks`, which plays the ROCm runtime: the hidden lines point
//! `ROCPROFILER_LIBRARY_PATH` at it and make the calls a HIP program would make. A program that
//! profiles itself calls [`force_configure`]; a tool library uses [`export_tool!`] as above.)
//!
//! ```
//! use std::sync::Mutex;
//! use rocprofiler::{CallbackDomain, Configurator, Rocprofiler, Subscriber, Tool};
//!
//! /// (operation, the slot's value at EXIT) of each call.
//! static CALLS: Mutex<Vec<(String, u64)>> = Mutex::new(Vec::new());
//!
//! struct HipCalls(Subscriber);
//!
//! impl Tool for HipCalls {
//!     const NAME: &'static str = "hip-calls";
//!     fn setup(cfg: &mut Configurator<'_>) -> rocprofiler::Result<Self> {
//!         let ctx = cfg.create_context()?;
//!         let subscriber = cfg.callback_tracing(&ctx, CallbackDomain::HIP_RUNTIME_API, &[], |cb| {
//!             if cb.is_enter() {
//!                 cb.correlation_slot().set(42); // read back at this call's EXIT
//!             } else if cb.is_exit() {
//!                 let name = cb.function_name().unwrap_or("?").to_owned();
//!                 CALLS.lock().unwrap().push((name, cb.correlation_slot().get()));
//!             }
//!         })?;
//!         ctx.start()?;
//!         Ok(HipCalls(subscriber))
//!     }
//! }
//!
//! fn main() -> Result<(), rocprofiler::Error> {
//! #     std::env::set_var(rocprofiler::sys::LIBRARY_PATH_VAR, accelprof_mocks::rocprofiler::LIBRARY);
//! #     let rocm = accelprof_mocks::rocprofiler::MockRocprofiler::open(accelprof_mocks::rocprofiler::LIBRARY).expect("the mock rocprofiler-sdk's controls");
//!     let sdk = Rocprofiler::global()?; // the copy the runtime loaded, else the search order
//!     rocprofiler::force_configure::<HipCalls>(sdk)?;
//!     // ... the program's HIP calls ...
//! #   let ops = sdk.callback_operations(CallbackDomain::HIP_RUNTIME_API)?;
//! #   let malloc = ops.iter().find(|(_, name)| name == "hipMalloc").expect("listed").0;
//! #   rocm.api_call(CallbackDomain::HIP_RUNTIME_API.0, malloc.0);
//!     assert_eq!(*CALLS.lock().unwrap(), [("hipMalloc".to_owned(), 42)]);
//!     Ok(())
//! }
//! ```
//!
//! # The activity API
//!
//! An [`ActivitySession`]: the SDK's buffer records decoded off its threads into column batches; at
//! the end every record was delivered or counted as dropped. Made in the tool's setup (the only place
//! the SDK allows its buffers and services), started later.
//!
//! ```
//! use std::sync::Mutex;
//! use rocprofiler::{ActivityConfig, ActivitySession, BufferKind, Configurator, FamilySet, Rocprofiler, Tool};
//!
//! static SESSION: Mutex<Option<ActivitySession>> = Mutex::new(None);
//!
//! struct Kernels;
//!
//! impl Tool for Kernels {
//!     const NAME: &'static str = "kernels";
//!     fn setup(cfg: &mut Configurator<'_>) -> rocprofiler::Result<Self> {
//!         let kinds = [BufferKind::KERNEL_DISPATCH].into_iter().collect();
//!         let session = cfg.activity_session(ActivityConfig { kinds, ..ActivityConfig::default() })?;
//!         *SESSION.lock().unwrap() = Some(session);
//!         Ok(Kernels)
//!     }
//! }
//!
//! fn main() -> Result<(), rocprofiler::Error> {
//! #     std::env::set_var(rocprofiler::sys::LIBRARY_PATH_VAR, accelprof_mocks::rocprofiler::LIBRARY);
//! #     let rocm = accelprof_mocks::rocprofiler::MockRocprofiler::open(accelprof_mocks::rocprofiler::LIBRARY).expect("the mock rocprofiler-sdk's controls");
//!     rocprofiler::force_configure::<Kernels>(Rocprofiler::global()?)?;
//!     let session = SESSION.lock().unwrap().take().expect("the setup ran");
//!     let kernels = session.collect(FamilySet::KERNEL);
//!     session.start()?;
//!     // ... the program's kernels ...
//! #   let kernel = rocm.kernel_symbol(c"add_one");
//! #   rocm.dispatch(rocm.gpu_agent(0), 1, kernel, 256, 1, 1, 64, 1, 1);
//!     let counts = session.stop()?; // a last flush, then the session's context stopped
//!     assert_eq!(kernels.take().kernels.len(), 1);
//!     assert!(counts.is_balanced(), "produced = delivered + dropped: {counts:?}");
//!     Ok(())
//! }
//! ```
//!
//! Layers: [`sys`] (generated declarations and the loader) -> [`Rocprofiler`] (the opened SDK,
//! `library.rs`) -> [`tool`] (rocprofiler's own: [`Tool`], the configure window's [`Configurator`],
//! [`Context`]) -> [`callback`] (callback tracing: [`Subscriber`], [`CallbackData`]), [`activity`]
//! ([`ActivitySession`], the shared core's session over the SDK's buffers, and the bare [`Buffer`];
//! records decoded on a pipeline thread into [`accelprof_core`] batches by `decode/`), [`counters`]
//! (rocprofiler's own: agents, counters, dispatch counting: [`CountingRequest`], [`CountingResult`],
//! [`CounterConfigs`]; results arrive later, on the SDK's thread, and [`Context::stop`] drains them)
//! -> ids and enums ([`CallbackDomain`], [`BufferKind`], ...).
//!
//! What the SDK does not check, the crate does before calling it, or makes impossible to write:
//! counter configs come only from the SDK and reach only dispatches on their own agent,
//! dimension ids only from the SDK, tracing kinds and operations are checked against the
//! library's own lists (the SDK registers a service before looking at its operations), and
//! calls that would make the SDK wait for itself are refused ([`Error::WouldDeadlock`]).

pub mod activity;
pub mod callback;
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
pub use callback::{CallbackData, CorrelationSlot, DispatchInfo, KernelDispatch, MemoryCopy, Subscriber};
pub use counters::{
    Agent, AgentKind, Counter, CounterConfig, CounterConfigs, CounterValue, CountingRequest, CountingResult,
    Dimension,
};
pub use error::{Error, Result, ResultCode};
pub use ids::{
    AgentId, BufferKind, BufferPolicy, CallbackDomain, CallbackId, CallbackSite, Correlation, CounterId,
    KernelId, Operation,
};
pub use library::Rocprofiler;
/// The raw declarations and loader (`rocprofiler-sys`), for what this crate does not wrap.
pub use rocprofiler_sys as sys;
pub use tool::{configure_function, configure_with, force_configure, Configurator, Context, Tool};

#[doc(hidden)]
pub mod __private {
    pub use crate::tool::configure;
}

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
