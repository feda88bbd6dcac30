//! Safe access to NVIDIA's CUPTI profiling interface (`libcupti`), loaded at run time.
//!
//! - [`Cupti`] opens the library (see `cupti-sys` for the search order) and owns everything
//!   else; [`Cupti::global`] is a process-wide one.
//! - [`Subscriber`] ([`Cupti::subscribe`]): closures called on every enabled CUDA API call
//!   and event, all sharing CUPTI's single subscription ([`callback`]); typed ids in [`ids`].
//! - [`ActivitySession`] ([`activity`]): what ran on the GPU and when, as column batches
//!   ([`decode`] turns CUPTI's records into rows), with `fence()`, `pause()`/`resume()` and a ledger
//!   where every record is delivered or counted.
//! - [`Error`]: the result codes a caller can act on, every other code kept raw, the loader's
//!   errors and the activity session's.
//!
//! Normal use needs no `unsafe`; the raw library stays reachable through [`Cupti::sys`].
//!
//! # The callback API
//!
//! A closure on every enabled API call, at ENTER and EXIT, with a [`CorrelationSlot`] that carries a
//! value from one to the other. (Each example here runs against the mock `libcupti` of
//! `accelprof-mocks`, which plays the CUDA runtime: the hidden lines point `CUPTI_LIBRARY_PATH` at it
//! and make the calls a CUDA program would make.)
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use cupti::{CallbackDomain, Cupti};
//!
//! fn main() -> Result<(), cupti::Error> {
//! #     std::env::set_var(cupti::sys::LIBRARY_PATH_VAR, accelprof_mocks::cupti::LIBRARY);
//! #     let cuda = accelprof_mocks::cupti::MockCupti::open(accelprof_mocks::cupti::LIBRARY).expect("the mock libcupti's controls");
//!     let cupti = Cupti::open()?; // the search order is cupti-sys's; the error names every place tried
//!     let calls = Arc::new(Mutex::new(Vec::new()));
//!     let seen = Arc::clone(&calls);
//!     let subscriber = cupti.subscribe(move |cb| {
//!         let Some(api) = cb.api() else { return };
//!         if api.is_enter() {
//!             api.correlation_slot().set(u64::from(api.correlation_id())); // read back at EXIT
//!         } else {
//!             let name = api.function_name().unwrap_or("?").to_owned();
//!             seen.lock().unwrap().push((name, api.correlation_slot().get() == u64::from(api.correlation_id())));
//!         }
//!     })?;
//!     subscriber.enable_domain(CallbackDomain::RUNTIME_API)?;
//!     // ... the program's CUDA work ...
//! #   cuda.launch(c"add_one", [4, 1, 1], [256, 1, 1], 0, 0);
//!     let calls = calls.lock().unwrap();
//!     assert_eq!(calls[0].0, "cudaLaunchKernel");
//!     assert!(calls[0].1, "the slot carried ENTER's value to EXIT");
//!     assert_eq!(subscriber.panics(), 0);
//!     Ok(())
//! }
//! ```
//!
//! # The activity API
//!
//! What ran on the device, decoded off CUPTI's threads into column batches; at the end every record
//! CUPTI produced was delivered or counted as dropped.
//!
//! ```
//! use cupti::{ActivityConfig, ActivityKind, ActivitySession, Cupti, FamilySet};
//!
//! fn main() -> Result<(), cupti::Error> {
//! #     std::env::set_var(cupti::sys::LIBRARY_PATH_VAR, accelprof_mocks::cupti::LIBRARY);
//! #     let cuda = accelprof_mocks::cupti::MockCupti::open(accelprof_mocks::cupti::LIBRARY).expect("the mock libcupti's controls");
//!     let cupti = Cupti::open()?;
//!     let kinds = [ActivityKind::CONCURRENT_KERNEL, ActivityKind::MEMCPY].into_iter().collect();
//!     let session = ActivitySession::new(&cupti, ActivityConfig { kinds, ..ActivityConfig::default() })?;
//!     let kernels = session.collect(FamilySet::KERNEL);
//!     session.start()?;
//!     // ... the program's CUDA work ...
//! #   cuda.launch(c"add_one", [4, 1, 1], [256, 1, 1], 0, 0);
//! #   cuda.device_synchronize();
//!     let counts = session.stop()?; // the last fence, then every buffer back from CUPTI
//!     let batch = kernels.take();
//!     assert_eq!(batch.kernels.len(), 1);
//!     assert_eq!(kernels.names().resolve(batch.kernels.name()[0]), "add_one");
//!     assert!(counts.is_balanced(), "produced = delivered + dropped: {counts:?}");
//!     Ok(())
//! }
//! ```

pub mod activity;
pub mod callback;
pub mod decode;
mod error;
pub mod ids;
mod library;

pub use activity::{ActivityConfig, ActivityCounts, ActivityKind, ActivityKinds, ActivitySession};
pub use callback::{
    ApiCallData, CallParams, CallbackData, CorrelationSlot, ReturnValue, Subscriber, SubscriptionKind,
};
/// The raw declarations and loader (`cupti-sys`), for what this crate does not wrap.
pub use cupti_sys as sys;

/// The shared core these types come from (column batches, name tables, the decode pipeline, trace
/// export), for what a consumer needs beyond the few re-exported here.
pub use accelprof_core;
pub use accelprof_core::{Batch, FamilySet, Names};
pub use error::{Error, Result, ResultCode};
pub use ids::{
    CallbackDomain, CallbackId, CallbackSite, DriverCbid, NvtxCbid, ResourceCbid, RuntimeCbid, StateCbid,
    SynchronizeCbid,
};
pub use library::Cupti;

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
