//! Safe access to Huawei Ascend's MSPTI profiling interface (`libmspti.so`).
//!
//! ```no_run
//! use mspti::{CallbackDomain, Mspti, RuntimeCbid};
//!
//! let mspti = Mspti::open()?; // finds libmspti.so at run time; refuses one that would abort
//! let subscriber = mspti.subscribe(|cb| {
//!     if cb.is_enter() {
//!         cb.correlation_slot().set(42); // read back at this call's EXIT, on this thread
//!     }
//!     println!("{} {} {:?}", cb.site(), cb.id(), cb.function_name());
//! })?;
//! subscriber.enable_domain(CallbackDomain::RUNTIME)?; // needs libmspti.so in LD_PRELOAD
//! subscriber.enable(RuntimeCbid::LAUNCH)?;
//! # Ok::<(), mspti::Error>(())
//! ```
//!
//! - [`Mspti`] opens the library (see `mspti-sys` for the search order) and owns everything else.
//! - [`Subscriber`]: the callback API (any number of subscribers sharing MSPTI's one
//!   subscription), with the entry/exit [`CorrelationSlot`] kept by this crate because MSPTI's own
//!   `correlationData` pointer is garbage.
//! - [`ActivitySession`]: the activity API into `accelprof-core` column batches ([`decode`] turns MSPTI's
//!   records into rows).
//! - [`preload`]: MSPTI's callbacks need `libmspti.so` in `LD_PRELOAD`.
//! - [`Error`]: every result code, with messages that say what to do.
//!
//! Normal use needs no `unsafe`; the real library's traps (callbacks after unsubscribe,
//! concurrent completion threads, a per-thread record cursor, uninitialised callback fields)
//! are handled inside.

pub mod activity;
pub mod callback;
pub mod decode;
mod error;
pub mod ids;
mod library;
pub mod preload;
mod unwind;

/// The shared core these types come from (column batches, name tables, the decode pipeline, trace
/// export), for what a consumer needs beyond the few re-exported here.
pub use accelprof_core;
pub use accelprof_core::{Batch, FamilySet, Names};
pub use activity::{ActivityConfig, ActivityCounts, ActivityKinds, ActivitySession};
pub use callback::{CallbackData, CorrelationSlot, Subscriber};
pub use error::{Error, Result, ResultCode};
pub use ids::{ActivityKind, CallbackDomain, CallbackId, CallbackSite, ExternalKind, HcclCbid, RuntimeCbid};
pub use library::Mspti;
/// The raw declarations and loader (`mspti-sys`), for what this crate does not wrap.
pub use mspti_sys as sys;

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
