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
