//! The activity session, written once for every vendor over a small vendor [`ActivityBackend`].
//!
//! ```text
//! vendor thread:  buffer requested -> RouteSlot::request   (a pooled buffer, tracked; or a counted decline)
//! vendor thread:  buffer completed -> RouteSlot::complete  (ours? to the decode thread; returns at once)
//! decode thread:  RecordWalker -> rows -> consumers; the buffer back to the pool
//! caller:         Session::start / pause / resume / flush / fence / end, the ledger in ActivityCounts
//! ```
//!
//! - [`Session`]: the one-session guard, the routing of process-wide buffer callbacks ([`RouteSlot`]:
//!   in-callback quiescence, orphan and foreign counts, parked routes), enabling kinds, pause and resume,
//!   the fence loop, the ledger, the teardown order.
//! - [`ActivityBackend`]: what a vendor crate supplies (`<vendor>/src/activity/backend.rs`): register the
//!   callbacks, enable and disable a kind, flush to a [`FlushDepth`], the vendor's dropped-record count, an
//!   optional fence probe.
//! - [`ActivityCounts`]: the same tallies for every vendor, with the vendor's extras named as such.
//! - [`ActivityError`]: the session's own refusals (typed; each vendor's `Error::Activity` holds one).
//! - [`facade`]: the vendor sessions' pass-throughs to [`Session`] (and the callback subscribers'), written
//!   once as macros each vendor crate calls inside its `impl`.

mod backend;
mod collected;
mod counts;
mod error;
pub mod facade;
mod fence;
#[cfg(all(test, loom))]
mod loom_models;
mod route;
mod session;

pub use backend::{ActivityBackend, FlushDepth};
pub use collected::{copy_families, Collected};
pub use counts::{ActivityCounts, Dropped, OtherClient};
pub use error::ActivityError;
pub use route::{BufferFlow, Completion, RouteSlot, RouteStats};
pub use session::{FlushReport, Session, SessionConfig, SessionEnd, Switch};
