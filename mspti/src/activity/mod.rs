//! The activity API: records of kernels, API calls, markers, memory operations and collectives,
//! collected through pooled buffers and decoded off MSPTI's threads into `accelprof-core` columns.
//!
//! ```text
//! MSPTI, producing thread:  buffer requested -> a buffer from the bounded lock-free pool (or NULL, counted)
//! MSPTI's threads:          buffer completed -> handed to the decode thread (a channel send), returns
//! decode thread:            the walker (crate::decode): records -> columns -> consumers
//! ```
//!
//! - [`ActivitySession`]: one per process, the shared core's `accelprof_core::activity::Session` over
//!   MSPTI's [`Backend`]; [`ActivityConfig`] picks the kinds ([`ActivityKinds`]), the buffers and the
//!   batches. [`ActivitySession::flush`] hands back every buffer (MSPTI's flush is synchronous);
//!   [`ActivitySession::pause`] and `resume` switch collection off and on.
//! - [`ActivityCounts`]: the core's tallies, with MSPTI's extras ([`MsptiCounts`]).

mod backend;
mod buffers;
mod config;
mod counts;
mod rescue;
mod session;

pub use crate::ids::ActivityKind;
pub use crate::ids::ActivityKinds;
pub use accelprof_core::activity::{copy_families, Collected, FlushReport, RouteStats};
pub use backend::Backend;
pub use buffers::route_stats;
pub use config::ActivityConfig;
pub use counts::{ActivityCounts, MsptiCounts};
pub use session::{ActivitySession, ActivitySwitch, SessionEnd};
