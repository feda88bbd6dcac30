//! Routing a vendor's process-wide buffer callbacks to the live session, written once for every vendor
//! whose callbacks carry no user data (CUPTI's `cuptiActivityRegisterCallbacks`, MSPTI's
//! `msptiActivityRegisterCallbacks`: two plain function pointers, called from any thread).
//!
//! The vendor crate keeps one [`RouteSlot`] in a `static` and calls [`RouteSlot::request`] and
//! [`RouteSlot::complete`] from its two `extern "C"` trampolines; the session attaches its route to the
//! slot when it is made and detaches it when it ends. Nothing here takes a lock or blocks: a table scan,
//! a lock-free pool pop or push, a channel send.
//!
//! Lifetime rules (no memory the vendor may still write is ever freed, no route is freed while a callback
//! reads it):
//! - A buffer handed to the vendor is tracked in its route's `outstanding` table until the vendor hands it
//!   back. Only a buffer found there is taken back (with the size we handed out): a buffer that is not ours
//!   (another tool registered its callbacks in between, or the vendor hands back something odd) is left
//!   untouched and counted as foreign.
//! - A session ending detaches its route: no new buffer is handed out, then the callbacks are quiesced (a
//!   count of callbacks in progress drops to zero) before the route is freed. If the vendor still holds
//!   some of its buffers, the route is parked instead: never freed, so a late completion still finds it and
//!   frees the buffer. From before it stops being live until it is parked (or freed), the route is the
//!   slot's `closing` one, so that a completion in between finds it too.
//! - The slot is the one-session guard: attaching fails while a route is live.
//!
//! Another client of the vendor library (a framework's profiler) can register its own callbacks: the last
//! registration wins, and buffers in flight complete to the winner. The route sees both sides of that: a
//! buffer of the other client completed to us is left untouched and counted (per route, with the time the
//! first came), and a buffer of ours completed to the other client stays in `outstanding` (with the time
//! it was handed out), which the session reads once the vendor has given back everything it will.

use std::ptr;
// loom's under `--cfg loom` (the models in `loom_models`).
use crate::callback::sync::{backoff, fence, AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

use crate::pipeline::Handoff;
use crate::pool::ActivityBuffer;

/// Tag bit of an `outstanding` entry: the buffer is an overflow buffer (not from the pool's bound).
const OVERFLOW_TAG: usize = 1;

/// The process-wide route of one vendor's buffer callbacks (keep one in a `static`). `T` is what each
/// session hands its callbacks (see [`RouteSlot::complete`]).
pub struct RouteSlot<T: 'static> {
    /// The live session's route (null when none).
    live: AtomicPtr<Route<T>>,
    /// Head of the list of parked routes (never freed).
    parked: AtomicPtr<Route<T>>,
    /// The route being detached, from before it stops being live until it is parked or freed: a
    /// completion in between finds it here.
    closing: AtomicPtr<Route<T>>,
    /// Callbacks in progress.
    in_callback: AtomicUsize,
    /// Buffer requests that arrived with no session live (declined).
    orphan_requests: AtomicU64,
    /// Completed buffers that were not handed out by us (left untouched).
    foreign_buffers: AtomicU64,
    /// Buffers handed back after their session ended (freed undecoded).
    late_buffers: AtomicU64,
}

/// Process-wide tallies of a [`RouteSlot`], independent of any session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouteStats {
    /// Buffer requests the vendor made while no session was live (answered with no buffer).
    pub orphan_requests: u64,
    /// Completed buffers that were not ours (another tool's callbacks were registered in between, or the
    /// vendor handed back a buffer it never got from us); left untouched.
    pub foreign_buffers: u64,
    /// Buffers the vendor handed back after their session had ended: freed undecoded (their records are in
    /// no session's count).
    pub late_buffers: u64,
}

/// How the live session's buffers flow right now ([`RouteSlot::flow`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BufferFlow {
    /// Buffers the vendor holds now.
    pub held: usize,
    /// Buffers the vendor has handed back so far.
    pub returned: u64,
}

/// What became of a buffer handed to [`RouteSlot::complete`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// One of the live session's buffers: handed to its decode thread.
    Delivered,
    /// One of an ended session's buffers: freed undecoded.
    Late,
    /// Not ours: left untouched.
    Foreign,
}

/// What a session's buffer callbacks need (owned by the slot while attached).
pub(crate) struct Route<T> {
    handoff: Handoff,
    pool_size: usize,
    overflow_size: usize,
    /// Addresses (| OVERFLOW_TAG) of buffers the vendor holds; 0 = free slot.
    outstanding: Box<[AtomicUsize]>,
    /// When the buffer in the same slot of `outstanding` was handed to the vendor (Unix ns).
    requested_at: Box<[AtomicU64]>,
    returned: AtomicU64,
    /// Buffers that were not ours, completed to our callbacks while this route was live.
    foreign: AtomicU64,
    /// When the first of them came (Unix ns; 0: none yet).
    first_foreign_ns: AtomicU64,
    parked: AtomicBool,
    next_parked: AtomicPtr<Route<T>>,
    data: T,
}

/// Counts a callback in progress (for quiescence) while alive.
struct InCallback<'a>(&'a AtomicUsize);

impl<'a> InCallback<'a> {
    fn enter(count: &'a AtomicUsize) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        // Orders the count before the route loads that follow, against `RouteSlot::quiesce`'s fence
        // (a store-buffering pair: SeqCst accesses alone order it too, fences make it plain, and
        // checkable by loom, which models SeqCst fences but not SeqCst accesses).
        fence(Ordering::SeqCst);
        InCallback(count)
    }
}

impl Drop for InCallback<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl<T> Route<T> {
    pub(crate) fn new(handoff: Handoff, data: T) -> Route<T> {
        let pool = handoff.pool();
        let (pool_size, overflow_size) = (pool.buffer_size(), pool.overflow_size());
        let slots = pool.max_in_flight() + pool.max_overflow();
        Route {
            handoff,
            pool_size,
            overflow_size,
            outstanding: (0..slots).map(|_| AtomicUsize::new(0)).collect(),
            requested_at: (0..slots).map(|_| AtomicU64::new(0)).collect(),
            returned: AtomicU64::new(0),
            foreign: AtomicU64::new(0),
            first_foreign_ns: AtomicU64::new(0),
            parked: AtomicBool::new(false),
            next_parked: AtomicPtr::new(ptr::null_mut()),
            data,
        }
    }

    /// Buffers the vendor holds now.
    pub(crate) fn outstanding(&self) -> usize {
        self.outstanding.iter().filter(|s| s.load(Ordering::Acquire) != 0).count()
    }

    /// The buffers the vendor holds now, and when the earliest of them was handed to it (Unix ns).
    pub(crate) fn held_since(&self) -> (usize, Option<u64>) {
        let mut held = 0;
        let mut since: Option<u64> = None;
        for (slot, at) in self.outstanding.iter().zip(self.requested_at.iter()) {
            if slot.load(Ordering::Acquire) != 0 {
                held += 1;
                let at = at.load(Ordering::Relaxed);
                since = Some(since.map_or(at, |s| s.min(at)));
            }
        }
        (held, since)
    }

    /// Buffers not ours that reached our callbacks while this route was live, and when the first came.
    pub(crate) fn foreign(&self) -> (u64, Option<u64>) {
        let first = self.first_foreign_ns.load(Ordering::Relaxed);
        (self.foreign.load(Ordering::Relaxed), (first != 0).then_some(first))
    }

    fn note_foreign(&self) {
        let _ =
            self.first_foreign_ns.compare_exchange(0, unix_now_ns(), Ordering::Relaxed, Ordering::Relaxed);
        self.foreign.fetch_add(1, Ordering::Relaxed);
    }

    /// A buffer for the vendor, tracked; `None` (counted as declined) when there is none to give.
    fn request(&self) -> Option<(*mut u8, usize)> {
        let pool = self.handoff.pool();
        // The pool, then its overflow, then (a lossless pool) the decode thread's next returned buffer.
        let (buf, overflow) = match pool.take() {
            Some(buf) => (buf, false),
            None => match pool.take_overflow() {
                Some(buf) => (buf, true),
                None => match self.handoff.wait_for_buffer() {
                    Some(taken) => taken,
                    None => {
                        self.handoff.declined();
                        return None;
                    }
                },
            },
        };
        let (ptr, size) = buf.into_raw();
        let entry = ptr as usize | usize::from(overflow);
        let tracked = self
            .outstanding
            .iter()
            .position(|slot| slot.compare_exchange(0, entry, Ordering::AcqRel, Ordering::Relaxed).is_ok());
        if let Some(at) = tracked {
            // Read only once the vendor is done (at the end of the session): a stale value for a moment is
            // harmless, and the slot stays ours until the vendor hands the buffer back.
            self.requested_at[at].store(unix_now_ns(), Ordering::Relaxed);
        } else {
            // Cannot happen (one slot per buffer that can exist); decline rather than lose track.
            // SAFETY: `(ptr, size)` came from `into_raw` just above and was not handed to anyone.
            let buf = unsafe { ActivityBuffer::from_raw(ptr, size) };
            pool.give_back(buf);
            self.handoff.declined();
            return None;
        }
        Some((ptr, size))
    }

    /// Takes back a buffer the vendor completed, if it is one of ours: `None` when it is not.
    fn complete(&self, ptr: *mut u8, valid: usize, before: impl FnOnce(&T)) -> Option<Completion> {
        let address = ptr as usize;
        let entry = self.outstanding.iter().find_map(|slot| {
            let entry = slot.load(Ordering::Acquire);
            (entry != 0 && entry & !OVERFLOW_TAG == address)
                .then(|| slot.compare_exchange(entry, 0, Ordering::AcqRel, Ordering::Relaxed).ok())
                .flatten()
        })?;
        let size = if entry & OVERFLOW_TAG != 0 { self.overflow_size } else { self.pool_size };
        // SAFETY: the entry proves `ptr` was produced by `into_raw` of a buffer of `size` bytes in
        // `request` and handed to the vendor, which now hands it back (the caller of `RouteSlot::complete`
        // promises it is done writing); removing the entry made this the only reclaim.
        let buf = unsafe { ActivityBuffer::from_raw(ptr, size) };
        self.returned.fetch_add(1, Ordering::Relaxed);
        if self.parked.load(Ordering::Acquire) {
            // The session is gone: nobody decodes. Free the memory (an overflow buffer stops counting).
            self.handoff.pool().discard(buf);
            return Some(Completion::Late);
        }
        if valid > 0 {
            before(&self.data);
        }
        // The buffer stays counted (in the pool's bound, or against `max_overflow`) until the decode thread
        // gives it back.
        self.handoff.completed(buf, valid.min(size));
        Some(Completion::Delivered)
    }
}

impl<T: Send + Sync + 'static> RouteSlot<T> {
    /// An empty slot (for a `static`).
    #[cfg(not(loom))]
    pub const fn new() -> Self {
        RouteSlot {
            live: AtomicPtr::new(ptr::null_mut()),
            parked: AtomicPtr::new(ptr::null_mut()),
            closing: AtomicPtr::new(ptr::null_mut()),
            in_callback: AtomicUsize::new(0),
            orphan_requests: AtomicU64::new(0),
            foreign_buffers: AtomicU64::new(0),
            late_buffers: AtomicU64::new(0),
        }
    }

    /// An empty slot (under loom, whose atomics are not `const`: made in each model).
    #[cfg(loom)]
    pub fn new() -> Self {
        RouteSlot {
            live: AtomicPtr::new(ptr::null_mut()),
            parked: AtomicPtr::new(ptr::null_mut()),
            closing: AtomicPtr::new(ptr::null_mut()),
            in_callback: AtomicUsize::new(0),
            orphan_requests: AtomicU64::new(0),
            foreign_buffers: AtomicU64::new(0),
            late_buffers: AtomicU64::new(0),
        }
    }

    /// Whether a session is attached.
    pub fn is_live(&self) -> bool {
        !self.live.load(Ordering::SeqCst).is_null()
    }

    /// The process-wide tallies.
    pub fn stats(&self) -> RouteStats {
        RouteStats {
            orphan_requests: self.orphan_requests.load(Ordering::Relaxed),
            foreign_buffers: self.foreign_buffers.load(Ordering::Relaxed),
            late_buffers: self.late_buffers.load(Ordering::Relaxed),
        }
    }

    /// How the live session's buffers flow now (`None` when no session is live). Lock-free; callable from
    /// any thread (a watcher of the session's own, for instance).
    pub fn flow(&self) -> Option<BufferFlow> {
        let _in = InCallback::enter(&self.in_callback);
        let live = self.live.load(Ordering::SeqCst);
        // SAFETY: a live route is not freed while a callback (or this reader, counted alike) is in progress.
        let route = unsafe { live.as_ref() }?;
        Some(BufferFlow { held: route.outstanding(), returned: route.returned.load(Ordering::Relaxed) })
    }

    /// For the vendor's buffer-request callback: a buffer of the live session's pool, tracked, as
    /// `(address, size in bytes)`; `None` when no session is live (counted as an orphan request) or the
    /// session has no buffer to give (counted as declined). Never blocks, never takes a lock.
    pub fn request(&self) -> Option<(*mut u8, usize)> {
        let _in = InCallback::enter(&self.in_callback);
        let live = self.live.load(Ordering::SeqCst);
        // SAFETY: a live route is not freed while a callback is in progress (see `detach`).
        match unsafe { live.as_ref() } {
            Some(route) => route.request(),
            None => {
                self.orphan_requests.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }

    /// For the vendor's buffer-completed callback: takes back the buffer at `ptr`, whose first `valid`
    /// bytes hold records, if it is one we handed out. The live session's buffer goes to its decode thread
    /// (after `before` ran with the session's data, when `valid > 0`); an ended session's is freed; any
    /// other is left untouched and counted. Never blocks, never takes a lock.
    ///
    /// # Safety
    /// The vendor is done with the buffer at `ptr`: it hands it back and will not write to it again.
    pub unsafe fn complete(&self, ptr: *mut u8, valid: usize, before: impl FnOnce(&T)) -> Completion {
        if ptr.is_null() {
            self.foreign_buffers.fetch_add(1, Ordering::Relaxed);
            return Completion::Foreign;
        }
        let _in = InCallback::enter(&self.in_callback);
        let mut before = Some(before);
        let mut before = |data: &T| before.take().map_or((), |f| f(data));
        let live = self.live.load(Ordering::SeqCst);
        // SAFETY: a live route is not freed while a callback is in progress (see `detach`).
        if let Some(route) = unsafe { live.as_ref() } {
            if let Some(done) = route.complete(ptr, valid, &mut before) {
                return done;
            }
        }
        // Then the route being detached, then the parked ones, in this order: a detach parks its route
        // before it stops being `closing` (so a completion that finds `closing` empty after that finds
        // the route parked), and makes it `closing` before it stops being live.
        let closing = self.closing.load(Ordering::SeqCst);
        // SAFETY: a closing route is not freed while a callback is in progress (see `Attached::drop`).
        if let Some(route) = unsafe { closing.as_ref() } {
            if let Some(done) = route.complete(ptr, valid, &mut before) {
                if done == Completion::Late {
                    self.late_buffers.fetch_add(1, Ordering::Relaxed);
                }
                return done;
            }
        }
        let mut parked = self.parked.load(Ordering::Acquire);
        // SAFETY: parked routes are never freed.
        while let Some(route) = unsafe { parked.as_ref() } {
            if let Some(done) = route.complete(ptr, valid, |_| {}) {
                self.late_buffers.fetch_add(1, Ordering::Relaxed);
                return done;
            }
            parked = route.next_parked.load(Ordering::Acquire);
        }
        self.foreign_buffers.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above (`live` was loaded inside this callback's count).
        if let Some(route) = unsafe { live.as_ref() } {
            route.note_foreign();
        }
        Completion::Foreign
    }

    /// For a vendor that reports lost records through its buffer callbacks (MSPTI hands a declined buffer
    /// back as NULL: the record that asked for it is lost): counts `records` as dropped by the vendor in the
    /// live session's ledger, after `note` ran with the session's data; false when no session is live.
    /// Never blocks, never takes a lock.
    pub fn vendor_dropped(&self, records: u64, note: impl FnOnce(&T)) -> bool {
        let _in = InCallback::enter(&self.in_callback);
        let live = self.live.load(Ordering::SeqCst);
        // SAFETY: a live route is not freed while a callback is in progress (see `detach`).
        let Some(route) = (unsafe { live.as_ref() }) else { return false };
        note(&route.data);
        route.handoff.vendor_dropped(records);
        true
    }

    /// Waits until no callback is in progress (one that began before may still read a route that
    /// stopped being live, or `closing`).
    fn quiesce(&self) {
        // Orders the caller's unpublishing before the count's loads (see `InCallback::enter`).
        fence(Ordering::SeqCst);
        let mut spins = 0u32;
        while self.in_callback.load(Ordering::SeqCst) != 0 {
            spins += 1;
            backoff(spins);
        }
    }

    /// Publishes `route` as the live one; `Err` (and the route back) when another is live.
    pub(crate) fn attach(&'static self, route: Box<Route<T>>) -> Result<Attached<T>, Box<Route<T>>> {
        let raw = Box::into_raw(route);
        match self.live.compare_exchange(ptr::null_mut(), raw, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => Ok(Attached { slot: self, route: raw }),
            // SAFETY: `raw` came from `Box::into_raw` just above and was published nowhere.
            Err(_) => Err(unsafe { Box::from_raw(raw) }),
        }
    }
}

impl<T> std::fmt::Debug for RouteSlot<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RouteSlot")
            .field("live", &!self.live.load(Ordering::SeqCst).is_null())
            .field("orphan_requests", &self.orphan_requests.load(Ordering::Relaxed))
            .field("foreign_buffers", &self.foreign_buffers.load(Ordering::Relaxed))
            .field("late_buffers", &self.late_buffers.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl<T: Send + Sync + 'static> Default for RouteSlot<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A route attached to its slot, owned by the session; detached when dropped.
pub(crate) struct Attached<T: Send + Sync + 'static> {
    slot: &'static RouteSlot<T>,
    route: *mut Route<T>,
}

// SAFETY: the route is `Send + Sync` when `T` is (a `Handoff`, atomics, `T`); the handle only reads through
// it, and the route outlives the handle (freed or parked in `drop`).
unsafe impl<T: Send + Sync + 'static> Send for Attached<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync + 'static> Sync for Attached<T> {}

impl<T: Send + Sync + 'static> Attached<T> {
    fn route(&self) -> &Route<T> {
        // SAFETY: the route lives until this handle is dropped (see `Drop`).
        unsafe { &*self.route }
    }

    /// Buffers the vendor holds now.
    pub(crate) fn outstanding(&self) -> usize {
        self.route().outstanding()
    }

    /// Buffers the vendor holds now, and when the earliest of them was handed to it (Unix ns).
    pub(crate) fn held_since(&self) -> (usize, Option<u64>) {
        self.route().held_since()
    }

    /// Buffers not ours that reached our callbacks while this route was live, and when the first came.
    pub(crate) fn foreign(&self) -> (u64, Option<u64>) {
        self.route().foreign()
    }
}

/// The system clock now, in ns since the Unix epoch (0 before it).
fn unix_now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

impl<T: Send + Sync + 'static> Drop for Attached<T> {
    /// Detaches the route and frees it once no callback can be reading it, or parks it (never freed) when
    /// the vendor still holds some of its buffers.
    fn drop(&mut self) {
        let raw = self.route;
        // Reachable as `closing` from before it stops being live until it is parked (found by the loom
        // model of a completion racing a detach: in between, the buffer was taken for a foreign one and
        // lost). One detach at a time uses `closing`.
        let mut spins = 0u32;
        while self
            .slot
            .closing
            .compare_exchange(ptr::null_mut(), raw, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            spins += 1;
            backoff(spins);
        }
        let _ = self.slot.live.compare_exchange(raw, ptr::null_mut(), Ordering::SeqCst, Ordering::SeqCst);
        self.slot.quiesce();
        // SAFETY: the route is alive until freed below. No buffer is handed out from it any more, so
        // `outstanding` only falls from here on.
        if unsafe { &*raw }.outstanding() == 0 {
            self.slot.closing.store(ptr::null_mut(), Ordering::SeqCst);
            // A completion that found it `closing` may still be reading it.
            self.slot.quiesce();
            // SAFETY: `raw` came from `Box::into_raw` in `attach`; no callback reads it any more and the
            // session does not use it after this handle.
            drop(unsafe { Box::from_raw(raw) });
            return;
        }
        // SAFETY: as above; parked routes are never freed.
        let parked = unsafe { &*raw };
        parked.parked.store(true, Ordering::Release);
        let mut head = self.slot.parked.load(Ordering::Acquire);
        loop {
            parked.next_parked.store(head, Ordering::Release);
            match self.slot.parked.compare_exchange(head, raw, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => break,
                Err(now) => head = now,
            }
        }
        self.slot.closing.store(ptr::null_mut(), Ordering::SeqCst);
    }
}
