//! The callback API: closures that see every CUDA call (and resource, synchronization, NVTX and
//! state events) as it happens, on the calling thread.
//!
//! - [`crate::Cupti::subscribe`] returns a [`Subscriber`]; enable domains or ids on it.
//! - The closure gets a [`CallbackData`]: [`CallbackData::api`] for runtime and driver calls
//!   (site, names, correlation id, return value, [`CallParams`], the [`CorrelationSlot`]),
//!   and views for the other domains.
//!
//! How it works (private modules): `hub` (the switchboard holding CUPTI's one subscription, with
//! reference-counted enables), `anchor` (the function CUPTI calls, made for the closure of the
//! subscriber that subscribed first, and its fast path while that subscriber is alone),
//! `dispatch` (the general dispatch), `snapshot` (the lock-free routing table), `rcu` (when a
//! retired table and its closures may be freed), `frames` (a slot per subscriber per call).
//!
//! Guarantees: the callback path takes no lock and allocates nothing once warm; a closure's panic
//! is caught and counted; when dropping a [`Subscriber`] returns, no call of its closure is
//! running or will start, and the closure has been freed (dropped inside a callback: freed by the
//! next subscriber change made outside one). The one exception is documented on [`Subscriber`]:
//! a first subscriber whose closure owns nothing to drop.

mod anchor;
mod data;
#[doc(hidden)]
pub mod detached;
mod dispatch;
mod frames;
mod hub;
mod params;
mod rcu;
mod snapshot;
mod subscriber;

pub use data::{
    ApiCallData, CallbackData, CorrelationSlot, NvtxData, ResourceData, ReturnValue, StateData,
    SynchronizeData,
};
pub(crate) use hub::Hub;
pub use hub::SubscriptionKind;
pub use params::{Alloc, AllocKind, CallParams, Dim3, Free, KernelLaunch, Memcpy, MemcpyKind, Memset};
pub use rcu::{uses_membarrier, NO_MEMBARRIER_VAR};
pub use subscriber::Subscriber;
