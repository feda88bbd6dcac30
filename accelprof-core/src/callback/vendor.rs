//! [`Vendor`]: what the switchboard needs from a vendor library's callback API.

use std::ffi::c_void;

use super::closure::{CallbackArgs, Handler};
use super::routes::Routes;

/// What a subscriber turns on or off: a whole domain, or one `(domain, cbid)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Every id of a domain.
    Domain(u32),
    /// One id of a domain.
    Id(u32, u32),
}

/// A vendor library's callback API, as the [`Switchboard`](super::Switchboard) multiplexes it: one
/// subscription, domains and ids switched on and off in it.
///
/// The hooks (`anchoring` .. `unanchored`) let a vendor crate keep a fast path for the subscriber
/// the subscription was made for (its *anchor*) while that one is alone; they run under the
/// switchboard's lock, in the order their documentation gives, and default to nothing.
pub trait Vendor: CallbackArgs + Send + Sync + Sized {
    /// The vendor crate's error.
    type Error;
    /// The C function a subscription is made with (chosen per subscription: a vendor crate may
    /// monomorphize it for the first subscriber's closure).
    type Entry: Copy;

    /// `true`: the subscription is kept when the last subscriber goes, until
    /// [`Switchboard::release`](super::Switchboard::release) (CUPTI 13.0 crashes other threads'
    /// calls when unsubscribed under them), and `userdata` is the switchboard itself. `false`: the
    /// last subscriber's drop gives it back (so that another tool may subscribe), and `userdata` is
    /// a [`Ticket`](super::Ticket) of that subscription, so that a late call of it is told apart
    /// from the calls of a newer one.
    const KEEPS_SUBSCRIPTION: bool;

    /// Subscribes `entry` with `userdata`; returns the vendor's subscriber handle.
    fn subscribe(&self, entry: Self::Entry, userdata: *mut c_void) -> Result<usize, Self::Error>;
    /// Gives the subscription `handle` back.
    fn unsubscribe(&self, handle: usize) -> Result<(), Self::Error>;
    /// Switches a whole domain on or off.
    fn enable_domain(&self, handle: usize, domain: u32, on: bool) -> Result<(), Self::Error>;
    /// Switches one id on or off.
    fn enable_id(&self, handle: usize, domain: u32, cbid: u32, on: bool) -> Result<(), Self::Error>;
    /// Whether the library still knows the kept subscription `handle` (asked only where
    /// [`KEEPS_SUBSCRIPTION`](Self::KEEPS_SUBSCRIPTION) and no subscriber is left, before a new one
    /// reuses it). `false` only when the library says the handle is not a subscriber of its own
    /// (a test's mock library reset to a fresh state): the switchboard then forgets it and
    /// subscribes again. Default `true`.
    fn holds(&self, _handle: usize) -> bool {
        true
    }
    /// The error for a target past what the switchboard routes (domains above 64, ids above 65,536),
    /// refused before the vendor is called.
    fn out_of_range(&self, target: Target) -> Self::Error;

    /// Before the subscription is made for `anchor`'s closure.
    fn anchoring(&self, _anchor: &Handler<Self>) {}
    /// Before a subscriber other than the anchor gets anything enabled.
    fn sharing(&self) {}
    /// Before `next` is published.
    fn publishing(&self, _next: &Routes<Self>) {}
    /// After `now` was published. `own`: no subscriber but the anchor has had anything enabled since
    /// the subscription was made (the vendor's enable state is the anchor's own).
    fn published(&self, _now: &Routes<Self>, _own: bool) {}
    /// The anchor was dropped, or the subscription given back (or never made).
    fn unanchored(&self) {}
}
