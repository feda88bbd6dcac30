//! The callback machinery of the three vendor crates, written once: what `cupti::Subscriber`,
//! `mspti::Subscriber` and `rocprofiler::Subscriber` are built from. A tool uses the vendor
//! crate's API; these are its building blocks.
//!
//! One call's way:
//!
//! ```text
//! application thread, inside the vendor's API call:
//!   vendor -> the vendor crate's trampoline (extern "C", under trampoline::guard)
//!          -> rcu::read(|section| ..)                (a thread-local store: no lock, no RMW)
//!          -> Switchboard::routes().get(domain, id)  (one atomic load, a table lookup)
//!          -> dispatch::enter / exit / deliver       (each closure with its own CorrelationSlot,
//!                                                     kept in the thread's FrameStack)
//!          -> Handler: the closure under catch_unwind, panics counted
//! ```
//!
//! - [`switchboard`]: one vendor subscription multiplexed ([`Switchboard`] over a [`Vendor`]),
//!   reference-counted enables per domain and per `(domain, id)`, the routing table ([`Routes`])
//!   republished on every change.
//! - [`rcu`]: when a retired table, and a closure only it reached, may be freed.
//! - [`closure`]: the closure ([`Callback`], [`Handler`]) and the one scheme that decides how long
//!   it lives, for every vendor.
//! - [`frames`]: the entry/exit [`CorrelationSlot`] and the per-thread frame stack behind it, with
//!   the stale-frame rule (an EXIT without ENTER never pairs with a lost call's frame).
//! - [`dispatch`]: one callback through the table.
//! - [`trampoline`]: keeping panics out of C ([`guard`](trampoline::guard), [`Panics`]).
//!
//! Guarantees, for every vendor crate built on these: the callback path takes no lock that user
//! code can hold and allocates nothing once warm; a closure's panic is caught and counted, and its
//! payload dropped where its own `Drop` cannot unwind into C; no call of a closure starts after its
//! subscriber's drop returns; a closure is freed only when no callback can still reach it.

pub mod closure;
pub mod dispatch;
pub mod frames;
pub mod rcu;
pub mod routes;
pub mod switchboard;
pub(crate) mod sync;
pub mod trampoline;
pub mod vendor;

pub use closure::{Callback, CallbackArgs, Handler};
pub use dispatch::{ApiCall, SlotData};
pub use frames::{CallKey, CorrelationSlot, FrameStack};
pub use routes::{Registration, Route, Routes};
pub use switchboard::{Switchboard, Ticket};
pub use trampoline::Panics;
pub use vendor::{Target, Vendor};

#[cfg(all(test, loom))]
pub(crate) mod loom_models;
#[cfg(all(test, not(loom)))]
pub(crate) mod tests;
