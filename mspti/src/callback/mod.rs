//! The callback API: a [`Subscriber`] holding a closure that MSPTI calls at the ENTER and EXIT
//! of runtime and HCCL API calls, and the entry/exit [`Slot`] this crate keeps for each call.

mod data;
mod epoch;
mod registration;
mod slot;
mod subscriber;
mod trampoline;

pub use data::CallbackData;
pub use slot::{Slot, MAX_DEPTH};
pub use subscriber::Subscriber;

/// Subscriptions of ours that MSPTI holds now (0 or 1: MSPTI allows one).
static SUBSCRIBED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Whether one of our subscriptions exists now (MSPTI produces API, marker and kernel records
/// only then).
pub(crate) fn subscribed() -> bool {
    SUBSCRIBED.load(std::sync::atomic::Ordering::SeqCst) > 0
}

std::thread_local! {
    static INSIDE: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Whether this thread is inside one of our callback closures now.
pub(crate) fn inside_callback() -> bool {
    INSIDE.with(|c| c.get() > 0)
}

/// Marks this thread as inside a callback closure while alive.
pub(crate) struct Inside;

impl Inside {
    pub(crate) fn new() -> Inside {
        INSIDE.with(|c| c.set(c.get() + 1));
        Inside
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        INSIDE.with(|c| c.set(c.get().saturating_sub(1)));
    }
}
