//! One callback through the routing table: each routed closure called in turn, each with its own
//! entry/exit slot (see [`super::frames`]).
//!
//! Runs synchronously on the vendor's thread, inside its read section: no lock, no allocation
//! once the thread's frame stack has grown to its nesting depth.

use std::cell::Cell;

use super::closure::CallbackArgs;
use super::frames::{is_serial_form, tag, CallKey, CorrelationSlot, FrameStack, Lookup};
use super::routes::Route;

/// How a vendor's callback data is made for one closure, with that closure's slot.
pub trait SlotData: CallbackArgs {
    /// What the vendor's trampoline read from the callback (ids, the vendor's data pointer, ...).
    type Raw;

    /// The data one closure is called with.
    fn with_slot<'a>(raw: &'a Self::Raw, slot: CorrelationSlot<'a>) -> Self::Data<'a>;
}

/// One ENTER or EXIT as the dispatch needs to see it.
#[derive(Clone, Copy, Debug)]
pub struct ApiCall<'c> {
    /// The call.
    pub key: CallKey,
    /// The vendor's own per-call `u64`, shared by ENTER and EXIT, where it has a usable one
    /// (CUPTI's `correlationData`): frames are then found by the serial stored there. `None` (MSPTI,
    /// whose pointer is garbage): frames are found by [`ApiCall::key`].
    pub vendor_slot: Option<&'c Cell<u64>>,
    /// The subscriber whose value may sit in the vendor slot without a frame (a fast path's; 0 for
    /// none): an EXIT that finds no frame hands the vendor slot's value to it.
    pub anchor: u64,
}

#[inline(always)]
fn call<A: SlotData>(route: &Route<A>, raw: &A::Raw, value: u64, paired: bool) -> u64 {
    let cell = Cell::new(value);
    route.call(&A::with_slot(raw, CorrelationSlot::new(&cell, paired)));
    cell.get()
}

/// A callback without ENTER and EXIT: every closure gets no slot.
#[inline(always)]
pub fn deliver<A: SlotData>(routes: &[Route<A>], raw: &A::Raw) {
    for r in routes {
        r.call(&A::with_slot(raw, CorrelationSlot::none()));
    }
}

/// An ENTER: each closure gets a zeroed slot; what it stored is kept for the EXIT.
///
/// With a vendor slot: 0 when nobody stored anything, the anchor's value when only the anchor did,
/// else the serial of a frame holding every value. Without: a frame for the call, always, holding
/// every routed subscriber's value (so that the EXIT knows who saw the ENTER).
#[inline(always)]
pub fn enter<A: SlotData>(routes: &[Route<A>], raw: &A::Raw, c: &ApiCall<'_>, frames: Option<&FrameStack>) {
    let Some(shared) = c.vendor_slot else {
        let Some(f) = frames else {
            for r in routes {
                call(r, raw, 0, true);
            }
            return;
        };
        let serial = f.open(c.key);
        for r in routes {
            let value = call(r, raw, 0, true);
            f.store(serial, r.owner(), value);
        }
        return;
    };
    let mut serial = 0;
    let mut anchor_value = 0;
    for r in routes {
        let value = call(r, raw, 0, true);
        if value == 0 {
            continue;
        }
        if r.owner() == c.anchor && serial == 0 {
            anchor_value = value;
            continue;
        }
        let Some(f) = frames else { continue };
        if serial == 0 {
            serial = f.open(c.key);
            if anchor_value != 0 {
                f.store(serial, c.anchor, anchor_value);
            }
        }
        f.store(serial, r.owner(), value);
    }
    shared.set(if serial != 0 { serial } else { anchor_value });
}

/// An EXIT: each closure gets what it stored at the same call's ENTER (0 if nothing), unpaired
/// where it is known not to have seen that ENTER; the call's frame is closed.
#[inline(always)]
pub fn exit<A: SlotData>(routes: &[Route<A>], raw: &A::Raw, c: &ApiCall<'_>, frames: Option<&FrameStack>) {
    let value = c.vendor_slot.map_or(0, Cell::get);
    let lookup = match (frames, c.vendor_slot) {
        (None, _) => Lookup::Missing,
        (Some(f), None) => f.find_call(c.key),
        (Some(f), Some(_)) if is_serial_form(value, tag()) => f.find_serial(value, c.key),
        (Some(_), Some(_)) => Lookup::Missing,
    };
    match (lookup, frames) {
        (Lookup::Found(start), Some(f)) => {
            let by_call = c.vendor_slot.is_none();
            for r in routes {
                let (mine, paired) = match f.load(start, r.owner()) {
                    Some(v) => (v, true),
                    None => (0, !by_call),
                };
                call(r, raw, mine, paired);
            }
            f.close(start);
        }
        (Lookup::Missing, _) if c.vendor_slot.is_some() => {
            for r in routes {
                let mine = if r.owner() == c.anchor { value } else { 0 };
                call(r, raw, mine, true);
            }
        }
        _ => {
            for r in routes {
                call(r, raw, 0, false);
            }
        }
    }
}
