//! What MSPTI's `userdata` pointer points at, and how the closure behind it is kept alive for
//! as long as MSPTI can still call it.
//!
//! MSPTI takes a snapshot of the subscriber before it calls back, and `msptiUnsubscribe` does
//! not wait for those calls: a callback can arrive after unsubscribe returned. So:
//!
//! - the [`Registration`] itself is never freed (a few dozen bytes per subscription): a late
//!   call can dereference `userdata` at any time, however late;
//! - the closure is freed once the registration is retired *and* no trampoline is inside it
//!   (a count of calls in flight, taken before the closure is looked at): the last one out
//!   frees it. A call that starts after retirement sees `active == false` and returns without
//!   touching the closure, so no closure call starts after unsubscribe returns.
//!
//! Each registration has its own generation, so a late call of an old subscription never runs
//! the closure of a newer one.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};

pub(crate) struct Registration {
    active: AtomicBool,
    in_flight: AtomicUsize,
    /// Claimed by the one caller that drops the closure.
    freed: AtomicBool,
    /// Set once the closure's drop has returned.
    dropped: AtomicBool,
    closure: *mut (),
    drop_closure: unsafe fn(*mut ()),
    generation: u64,
}

// SAFETY: the closure behind `closure` is `Send + Sync` (required by `Subscriber::new`); the rest
// are atomics and plain values.
unsafe impl Send for Registration {}
// SAFETY: as above.
unsafe impl Sync for Registration {}

static GENERATION: AtomicU64 = AtomicU64::new(1);

unsafe fn drop_boxed<F>(p: *mut ()) {
    // SAFETY: `p` came from `Box::<F>::into_raw` in `Registration::leak` and is dropped once.
    drop(unsafe { Box::from_raw(p.cast::<F>()) });
}

/// One call inside the closure: holds `in_flight` up; frees the closure on the way out if the
/// registration was retired meanwhile and this was the last call.
pub(crate) struct InFlight<'r>(&'r Registration);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if self.0.in_flight.fetch_sub(1, SeqCst) == 1 && !self.0.active.load(SeqCst) {
            self.0.free_closure();
        }
    }
}

impl Registration {
    /// A new active registration owning `closure`, leaked (see the module documentation).
    pub(crate) fn leak<F: Send + Sync + 'static>(closure: F) -> &'static Registration {
        let closure = Box::into_raw(Box::new(closure)).cast::<()>();
        Box::leak(Box::new(Registration {
            active: AtomicBool::new(true),
            in_flight: AtomicUsize::new(0),
            freed: AtomicBool::new(false),
            dropped: AtomicBool::new(false),
            closure,
            drop_closure: drop_boxed::<F>,
            generation: GENERATION.fetch_add(1, SeqCst),
        }))
    }

    /// This subscription's generation (tags the entry/exit slots it creates).
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// Enters a call: `Some` with the closure while the registration is active, `None` after
    /// retirement (the closure may be gone: do not touch it).
    ///
    /// # Safety
    /// `F` must be the type this registration was created with.
    pub(crate) unsafe fn enter<F>(&self) -> Option<(InFlight<'_>, &F)> {
        self.in_flight.fetch_add(1, SeqCst);
        let guard = InFlight(self);
        if !self.active.load(SeqCst) {
            return None;
        }
        // SAFETY: active, and `in_flight` was raised before the check: `free_closure` cannot
        // run until the guard drops (see `retire`). `F` is the creation type (caller's promise).
        Some((guard, unsafe { &*self.closure.cast::<F>() }))
    }

    /// No call starts inside the closure after this returns; the closure is freed now if no
    /// call is inside it, else by the last one to leave.
    pub(crate) fn retire(&self) {
        self.active.store(false, SeqCst);
        if self.in_flight.load(SeqCst) == 0 {
            self.free_closure();
        }
    }

    /// Whether the closure's drop has returned (after retirement, once no call is inside it:
    /// the last call out drops it, and the count of calls falls to zero just before that).
    pub(crate) fn closure_dropped(&self) -> bool {
        self.dropped.load(SeqCst)
    }

    fn free_closure(&self) {
        if !self.freed.swap(true, SeqCst) {
            // SAFETY: exactly once (the swap), after retirement with no call inside: every later
            // `enter` sees `active == false` and never reads `closure`.
            unsafe { (self.drop_closure)(self.closure) };
            self.dropped.store(true, SeqCst);
        }
    }

    /// Frees a registration MSPTI never saw (subscribe failed): closure and all.
    ///
    /// # Safety
    /// `this` came from [`Registration::leak`] and was never handed to MSPTI.
    pub(crate) unsafe fn free_unregistered(this: &'static Registration) {
        this.retire();
        // SAFETY: never shared with MSPTI, so nothing else can reach it (caller's promise).
        drop(unsafe { Box::from_raw((this as *const Registration).cast_mut()) });
    }
}
