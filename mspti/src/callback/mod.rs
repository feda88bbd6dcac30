//! The callback API: [`Subscriber`]s holding closures that MSPTI calls at the ENTER and EXIT of
//! runtime and HCCL API calls, each with its own entry/exit [`CorrelationSlot`].
//!
//! MSPTI allows one subscription per process; every [`Subscriber`] of a library shares it through
//! the shared switchboard ([`accelprof_core::callback`]): reference-counted enables (two
//! subscribers never disable each other's ids), each closure called for what it enabled itself,
//! the last subscriber's drop giving the subscription back. The MSPTI side is `vendor` (the
//! subscription) and `trampoline` (the function MSPTI calls).
//!
//! MSPTI's own `correlationData` pointer is garbage (see [`CallbackData`]), so the slot is kept
//! by the crate: a frame per call on the calling thread, found again at EXIT by the call's id.

mod data;
mod subscriber;
mod trampoline;
mod vendor;

pub use accelprof_core::callback::frames::MAX_DEPTH;
pub use accelprof_core::callback::CorrelationSlot;
pub use data::CallbackData;
pub use subscriber::Subscriber;

/// Whether one of our subscriptions exists now (MSPTI produces API, marker and kernel records
/// only then).
pub(crate) fn subscribed() -> bool {
    vendor::SUBSCRIBED.load(std::sync::atomic::Ordering::SeqCst) > 0
}
