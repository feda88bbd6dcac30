//! The callback API: closures that see every CUDA call (and resource, synchronization, NVTX and
//! state events) as it happens, on the calling thread.
//!
//! - [`crate::Cupti::subscribe`] returns a [`Subscriber`]; enable domains or ids on it.
//! - The closure gets a [`CallbackData`]: [`CallbackData::api`] for runtime and driver calls
//!   (site, names, correlation id, return value, [`CallParams`], the [`CorrelationSlot`]),
//!   and views for the other domains.
//!
//! How it works: every subscriber of a library shares CUPTI's one subscription through the shared
//! switchboard ([`accelprof_core::callback`]: reference-counted enables, the lock-free routing
//! table, the frame stack behind each subscriber's slot, closure lifetimes, panics caught). The
//! CUPTI side is `vendor` (the subscription, `cuptiSubscribe_v2` and its fallbacks),
//! `trampoline` (the general dispatch) and `anchor` (the function CUPTI calls, made for the
//! closure of the subscriber that subscribed first, and its fast path while that subscriber is
//! alone: CUPTI's own `correlationData` as its slot).
//!
//! Guarantees: the callback path takes no lock and allocates nothing once warm; a closure's panic
//! is caught and counted; when dropping a [`Subscriber`] returns, no call of its closure is
//! running or will start, and the closure has been freed (dropped inside a callback: freed once no
//! callback can reach it, by a later change). The one exception is documented on [`Subscriber`]:
//! a first subscriber whose closure owns nothing to drop.

mod anchor;
mod data;
#[doc(hidden)]
pub mod detached;
mod params;
mod subscriber;
mod trampoline;
mod vendor;

pub use accelprof_core::callback::rcu::{uses_membarrier, NO_MEMBARRIER_VAR};
pub use data::{
    ApiCallData, CallbackData, CorrelationSlot, NvtxData, ResourceData, ReturnValue, StateData,
    SynchronizeData,
};
pub use params::{Alloc, AllocKind, CallParams, Dim3, Free, KernelLaunch, Memcpy, MemcpyKind, Memset};
pub use subscriber::Subscriber;
pub use vendor::SubscriptionKind;
pub(crate) use vendor::{hub_for, Hub};
