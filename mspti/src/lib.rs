//! Safe access to Huawei Ascend's MSPTI profiling interface (`libmspti.so`).
//!
//! The same shape as `cupti` and `rocprofiler`: a library handle ([`Mspti`]), a callback API
//! ([`Subscriber`]) and an activity API ([`ActivitySession`]). (The examples run against the mock
//! `libmspti.so` of `accelprof-mocks`, which plays the CANN runtime: the hidden lines restart the
//! example with the mock in `LD_PRELOAD`, as MSPTI's callbacks require, and make the runtime calls
//! a program would make.)
//!
//! # The callback API
//!
//! A closure on every enabled runtime or HCCL call, at ENTER and EXIT, with a [`CorrelationSlot`]
//! that carries a value from one to the other. Any number of subscribers share MSPTI's one
//! subscription.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use mspti::{Mspti, RuntimeCbid};
//!
//! fn main() -> Result<(), mspti::Error> {
//! #     use accelprof_mocks::mspti::{ASCEND_HOME, LIBRARY};
//! #     let env = [("ASCEND_HOME_PATH", ASCEND_HOME.as_ref()), ("MSPTI_LIBRARY_PATH", LIBRARY.as_ref())];
//! #     mspti::preload::reexec_with_preload(std::path::Path::new(LIBRARY), &env).expect("the mock preloaded");
//! #     let acl = accelprof_mocks::ascend::Acl::load().expect("the mock ACL runtime");
//! #     acl.init().expect("aclInit");
//!     let mspti = Mspti::open()?; // finds libmspti.so at run time; refuses one that would abort
//!     let calls = Arc::new(Mutex::new(Vec::new()));
//!     let seen = Arc::clone(&calls);
//!     let subscriber = mspti.subscribe(move |cb| {
//!         if cb.is_enter() {
//!             cb.correlation_slot().set(42); // read back at this call's EXIT, on this thread
//!         } else {
//!             seen.lock().unwrap().push((cb.id().runtime(), cb.correlation_slot().get()));
//!         }
//!     })?;
//!     subscriber.enable(RuntimeCbid::MALLOC)?; // needs libmspti.so in LD_PRELOAD
//!     // ... the program's ACL calls ...
//! #   let p = acl.malloc(64).expect("aclrtMalloc");
//! #   acl.free(p).expect("aclrtFree");
//!     assert_eq!(*calls.lock().unwrap(), [(Some(RuntimeCbid::MALLOC), 42)]);
//!     assert_eq!(subscriber.panics(), 0);
//!     Ok(())
//! }
//! ```
//!
//! # The activity API
//!
//! Records decoded off MSPTI's threads into column batches; at the end every record MSPTI produced
//! was delivered or counted as dropped. MSPTI writes API, kernel and marker records only while a
//! subscriber exists.
//!
//! ```
//! use mspti::{ActivityConfig, ActivityKind, ActivitySession, FamilySet, Mspti};
//!
//! fn main() -> Result<(), mspti::Error> {
//! #     use accelprof_mocks::mspti::{ASCEND_HOME, LIBRARY};
//! #     let env = [("ASCEND_HOME_PATH", ASCEND_HOME.as_ref()), ("MSPTI_LIBRARY_PATH", LIBRARY.as_ref())];
//! #     mspti::preload::reexec_with_preload(std::path::Path::new(LIBRARY), &env).expect("the mock preloaded");
//! #     let acl = accelprof_mocks::ascend::Acl::load().expect("the mock ACL runtime");
//! #     acl.init().expect("aclInit");
//!     let mspti = Mspti::open()?;
//!     let _subscriber = mspti.subscribe(|_| {})?; // API records come only while one exists
//!     let kinds = [ActivityKind::ACL_API].into_iter().collect();
//!     let session = ActivitySession::new(&mspti, ActivityConfig { kinds, ..ActivityConfig::default() })?;
//!     let api = session.collect(FamilySet::API);
//!     session.start()?;
//!     // ... the program's ACL calls ...
//! #   let p = acl.malloc(64).expect("aclrtMalloc");
//! #   acl.free(p).expect("aclrtFree");
//!     let counts = session.stop()?; // a last flush, then every buffer back from MSPTI
//!     let batch = api.take();
//!     assert_eq!(batch.api_calls.len(), 2, "aclrtMalloc and aclrtFree");
//!     assert!(counts.is_balanced(), "produced = delivered + dropped: {counts:?}");
//!     Ok(())
//! }
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
