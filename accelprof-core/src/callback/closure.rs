//! A user's callback closure and how long it lives: the one scheme of all three vendor crates.
//!
//! A closure given to a vendor crate (`Cupti::subscribe`, `Mspti::subscribe`, rocprofiler's
//! `Configurator::callback_tracing`) is boxed once into a [`Callback`] (its monomorphic call and
//! drop functions next to it, so that a callback reaches it with one indirect call) inside a
//! [`Handler`], which also counts its panics. The handler is owned by reference counts: the
//! subscriber's own, the switchboard's entry for it, and every routing table that reaches it. The
//! closure is freed when the last of them goes, which is:
//!
//! 1. **unregistered in C first**: dropping a subscriber disables, in the vendor library, what only
//!    it had enabled (and gives the subscription back where the switchboard does that), then
//!    publishes a routing table without it and marks the handler retired, so no call of the closure
//!    starts after the drop;
//! 2. **freed after a grace period**: the retired table (the last one that reached the closure) is
//!    freed only once every callback that could have loaded it has returned (see [`super::rcu`]).
//!    Where the subscriber's drop waits (`cupti`'s drop, `mspti`'s `unsubscribe()`), it waits for
//!    that grace period and the closure is gone when it returns; where it must not wait (`mspti`'s
//!    drop, or a drop inside a callback, where the grace period would wait for itself), the table
//!    is deferred and freed by whoever next sees the grace period over: the next change to any
//!    subscriber, or, for vendors whose trampoline asks for it, the last callback out.
//! 3. **late callers find leaked statics**: what a vendor library holds as `userdata` (the
//!    switchboard, or a ticket naming one subscription of it) is never freed, because libraries
//!    may call in after unsubscribing returned (MSPTI and CUPTI do not wait for callbacks in flight);
//!    such a late call finds a table without the closure, or a ticket of a subscription that is no
//!    longer current, and reaches nobody.
//!
//! A closure the vendor can never be told to forget (a rocprofiler-sdk callback service: the SDK
//! cannot remove one) is a handler that is never retired: it lives as long as the process.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use super::sync::{AtomicBool, Ordering};
use super::trampoline::Panics;

/// What a vendor's closures receive: `Fn(&Self::Data<'_>)`.
pub trait CallbackArgs: 'static {
    /// The callback data a closure is called with (`cupti::CallbackData<'a>`, ...).
    type Data<'a>;
}

/// Calls a type-erased closure under `catch_unwind`. One per closure type, made at subscription,
/// so that the closure's body is inlined into it.
pub(crate) type Thunk<A> =
    for<'a, 'b> unsafe fn(*const (), &'b <A as CallbackArgs>::Data<'a>) -> Result<(), Box<dyn Any + Send>>;

/// # Safety
/// `f` is the pointer a live `Box<F>` was turned into.
unsafe fn thunk<A: CallbackArgs, F: Fn(&A::Data<'_>)>(
    f: *const (),
    data: &A::Data<'_>,
) -> Result<(), Box<dyn Any + Send>> {
    // SAFETY: the caller's contract.
    let f = unsafe { &*f.cast::<F>() };
    catch_unwind(AssertUnwindSafe(|| f(data)))
}

/// # Safety
/// `f` is the pointer a `Box<F>` was turned into, not used after this.
unsafe fn drop_box<F>(f: *mut ()) {
    // SAFETY: the caller's contract.
    drop(unsafe { Box::from_raw(f.cast::<F>()) });
}

/// A closure, boxed, with its monomorphic call and drop functions.
pub struct Callback<A: CallbackArgs> {
    closure: NonNull<()>,
    call: Thunk<A>,
    drop: unsafe fn(*mut ()),
}

// SAFETY: built only from `F: Send + Sync` closures (`Callback::new`).
unsafe impl<A: CallbackArgs> Send for Callback<A> {}
// SAFETY: as above.
unsafe impl<A: CallbackArgs> Sync for Callback<A> {}

impl<A: CallbackArgs> Callback<A> {
    /// Boxes `f`.
    pub fn new<F>(f: F) -> Callback<A>
    where
        F: Fn(&A::Data<'_>) + Send + Sync + 'static,
    {
        // SAFETY: `Box::into_raw` never returns null.
        let closure = unsafe { NonNull::new_unchecked(Box::into_raw(Box::new(f))) }.cast::<()>();
        Callback { closure, call: thunk::<A, F>, drop: drop_box::<F> }
    }

    /// The closure's storage (its `Box<F>`), for a vendor's fast path that calls it as `F`.
    pub fn closure(&self) -> *const () {
        self.closure.as_ptr()
    }

    pub(crate) fn thunk(&self) -> Thunk<A> {
        self.call
    }
}

impl<A: CallbackArgs> Drop for Callback<A> {
    fn drop(&mut self) {
        // SAFETY: `closure` came from the `Box<F>` that `drop` frees; this is its last use.
        unsafe { (self.drop)(self.closure.as_ptr()) }
    }
}

impl<A: CallbackArgs> std::fmt::Debug for Callback<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Callback").field("closure", &self.closure).finish_non_exhaustive()
    }
}

/// Keys of handlers: unique in the process (frames and routing tables tell handlers apart by them,
/// whichever vendor they belong to).
static NEXT_KEY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// One subscriber's closure, its key and its panics.
pub struct Handler<A: CallbackArgs> {
    key: u64,
    callback: Callback<A>,
    /// Set when its subscriber is dropped: a dispatch already holding an older routing table
    /// skips it from then on.
    retired: AtomicBool,
    panics: Panics,
}

impl<A: CallbackArgs> Handler<A> {
    /// A handler for `callback` with a key of its own (never 0, never reused in the process).
    pub fn new(callback: Callback<A>) -> Handler<A> {
        let key = NEXT_KEY.fetch_add(1, Ordering::Relaxed);
        Handler { key, callback, retired: AtomicBool::new(false), panics: Panics::new() }
    }

    /// Identifies the handler (in routing tables and entry/exit frames).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The closure's storage (see [`Callback::closure`]).
    pub fn closure(&self) -> *const () {
        self.callback.closure()
    }

    pub(crate) fn callback(&self) -> &Callback<A> {
        &self.callback
    }

    /// Calls the closure unless the handler is retired; a panic is caught and counted.
    #[inline(always)]
    pub fn call(&self, data: &A::Data<'_>) {
        if self.is_retired() {
            return;
        }
        // SAFETY: `closure` is the live `Box<F>` this handler owns, `call` its thunk.
        if let Err(payload) = unsafe { (self.callback.call)(self.callback.closure(), data) } {
            self.panicked(payload);
        }
    }

    /// Counts a panic of the closure caught elsewhere (a vendor's fast path) and drops its payload.
    #[cold]
    #[inline(never)]
    pub fn panicked(&self, payload: Box<dyn Any + Send>) {
        self.panics.record(payload);
    }

    /// Whether [`Handler::retire`] was called.
    #[inline(always)]
    pub fn is_retired(&self) -> bool {
        self.retired.load(Ordering::Relaxed)
    }

    /// No call starts after this (a dispatch that already began may finish).
    pub fn retire(&self) {
        self.retired.store(true, Ordering::Relaxed);
    }

    /// How many times the closure panicked.
    pub fn panics(&self) -> u64 {
        self.panics.count()
    }

    /// The latest panic's message.
    pub fn last_panic(&self) -> Option<String> {
        self.panics.last()
    }
}

impl<A: CallbackArgs> std::fmt::Debug for Handler<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handler")
            .field("key", &self.key)
            .field("retired", &self.is_retired())
            .field("panics", &self.panics())
            .finish_non_exhaustive()
    }
}
