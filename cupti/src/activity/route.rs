//! Routing CUPTI's process-wide buffer callbacks to the live session.
//!
//! `cuptiActivityRegisterCallbacks` takes two plain function pointers and no user data, and CUPTI calls
//! them from any thread (requests on the thread producing records, completions on CUPTI's own thread). The
//! two `extern "C"` trampolines below find the session through a global pointer to its [`Route`], read
//! without a lock.
//!
//! Lifetime rules (no memory CUPTI may still write is ever freed, no route is freed while a callback
//! reads it):
//! - A buffer handed to CUPTI is tracked in its route's `outstanding` table until CUPTI hands it back.
//!   Only a buffer found there is taken back (`ActivityBuffer::from_raw`, with the size we handed out):
//!   a buffer that is not ours (another tool registered its callbacks in between) is left untouched and
//!   counted.
//! - A session ending detaches its route: no new buffer is handed out, then the trampolines are quiesced
//!   (a global count of callbacks in progress drops to zero) before the route is freed. If CUPTI still
//!   holds some of its buffers (it should not, after the final forced flush), the route is parked
//!   instead: never freed, so a late completion still finds it and frees the buffer.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use accelprof_core::{ActivityBuffer, BufferPool, Handoff};
use cupti_sys::v13_5::{CUpti_BufferCallbackCompleteInfo, CUpti_BufferCallbackRequestInfo};
use cupti_sys::CUcontext;

use super::BufferPolicy;
use crate::decode::DecoderShared;

/// The live session's route (null when none).
static LIVE: AtomicPtr<Route> = AtomicPtr::new(ptr::null_mut());
/// Head of the list of parked routes (never freed).
static PARKED: AtomicPtr<Route> = AtomicPtr::new(ptr::null_mut());
/// Trampoline calls in progress.
static IN_CALLBACK: AtomicUsize = AtomicUsize::new(0);
/// Buffer requests that arrived with no session live (declined).
static ORPHAN_REQUESTS: AtomicU64 = AtomicU64::new(0);
/// Completed buffers that were not handed out by us (left untouched).
static FOREIGN_BUFFERS: AtomicU64 = AtomicU64::new(0);

/// Tag bit of an `outstanding` entry: the buffer is an overflow buffer (not from the pool).
const OVERFLOW_TAG: usize = 1;

/// Process-wide tallies of the trampolines, independent of any session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouteStats {
    /// Buffer requests CUPTI made while no session was live (answered with no buffer).
    pub orphan_requests: u64,
    /// Completed buffers that were not ours (another tool's callbacks were registered in between); left
    /// untouched.
    pub foreign_buffers: u64,
}

/// The process-wide trampoline tallies.
pub fn route_stats() -> RouteStats {
    RouteStats {
        orphan_requests: ORPHAN_REQUESTS.load(Ordering::Relaxed),
        foreign_buffers: FOREIGN_BUFFERS.load(Ordering::Relaxed),
    }
}

/// What a session's buffer callbacks need.
pub(crate) struct Route {
    handoff: Handoff,
    pool_size: usize,
    overflow_size: usize,
    policy: BufferPolicy,
    /// Addresses (| OVERFLOW_TAG) of buffers CUPTI holds; 0 = free slot.
    outstanding: Box<[AtomicUsize]>,
    overflow_out: AtomicUsize,
    overflow_total: AtomicU64,
    parked: AtomicBool,
    next_parked: AtomicPtr<Route>,
    /// Where the layouts of user-defined-record buffers go for the decoder.
    decoder: Arc<DecoderShared>,
}

/// Counts a trampoline in progress (for quiescence) while alive.
struct InCallback;

impl InCallback {
    fn enter() -> Self {
        IN_CALLBACK.fetch_add(1, Ordering::SeqCst);
        InCallback
    }
}

impl Drop for InCallback {
    fn drop(&mut self) {
        IN_CALLBACK.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Route {
    pub(crate) fn new(handoff: Handoff, policy: BufferPolicy, decoder: Arc<DecoderShared>) -> Route {
        let pool = handoff.pool();
        let pool_size = pool.buffer_size();
        let extra = match policy {
            BufferPolicy::Lossless { max_overflow } => max_overflow,
            BufferPolicy::Lossy => 0,
        };
        let slots = pool.max_in_flight() + extra;
        Route {
            handoff,
            pool_size,
            overflow_size: pool_size + 8,
            policy,
            outstanding: (0..slots).map(|_| AtomicUsize::new(0)).collect(),
            overflow_out: AtomicUsize::new(0),
            overflow_total: AtomicU64::new(0),
            parked: AtomicBool::new(false),
            next_parked: AtomicPtr::new(ptr::null_mut()),
            decoder,
        }
    }

    /// Overflow buffers handed out so far (lossless policy, pool exhausted).
    pub(crate) fn overflow_total(&self) -> u64 {
        self.overflow_total.load(Ordering::Relaxed)
    }

    /// Buffers CUPTI holds now.
    pub(crate) fn outstanding(&self) -> usize {
        self.outstanding.iter().filter(|s| s.load(Ordering::Acquire) != 0).count()
    }

    /// A buffer for CUPTI, tracked; `None` (counted as declined) when there is none to give.
    fn request(&self) -> Option<(*mut u8, usize)> {
        let (buf, overflow) = match self.handoff.pool().take() {
            Some(buf) => (buf, false),
            None => match self.overflow() {
                Some(buf) => (buf, true),
                None => {
                    self.handoff.declined();
                    return None;
                }
            },
        };
        let (ptr, size) = buf.into_raw();
        let entry = ptr as usize | usize::from(overflow);
        let tracked = self
            .outstanding
            .iter()
            .any(|slot| slot.compare_exchange(0, entry, Ordering::AcqRel, Ordering::Relaxed).is_ok());
        if !tracked {
            // Cannot happen (one slot per buffer that can exist); decline rather than lose track.
            // SAFETY: `(ptr, size)` came from `into_raw` just above and was not handed to anyone.
            let buf = unsafe { ActivityBuffer::from_raw(ptr, size) };
            self.release(buf, overflow);
            self.handoff.declined();
            return None;
        }
        Some((ptr, size))
    }

    /// An extra buffer outside the pool's bound, under the lossless policy.
    fn overflow(&self) -> Option<ActivityBuffer> {
        let BufferPolicy::Lossless { max_overflow } = self.policy else { return None };
        if self.overflow_out.fetch_add(1, Ordering::AcqRel) >= max_overflow {
            self.overflow_out.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        // A one-buffer pool of a size the session's pool does not use: when the decode thread gives the
        // buffer back to the session's pool, the size differs and the pool frees it.
        let buf = BufferPool::new(self.overflow_size, 1).take();
        match buf {
            Some(buf) => {
                self.overflow_total.fetch_add(1, Ordering::Relaxed);
                Some(buf)
            }
            None => {
                self.overflow_out.fetch_sub(1, Ordering::AcqRel);
                None
            }
        }
    }

    /// Frees or recycles a buffer that carries no records.
    fn release(&self, buf: ActivityBuffer, overflow: bool) {
        if overflow {
            self.overflow_out.fetch_sub(1, Ordering::AcqRel);
            drop(buf);
        } else {
            self.handoff.pool().give_back(buf);
        }
    }

    /// Takes back a buffer CUPTI completed, if it is one of ours; true when it was. `info` is the V2
    /// completion's info (NULL for V1): its record layouts are noted for the decoder before the buffer is
    /// handed over.
    fn complete(&self, ptr: *mut u8, valid: usize, info: *const CUpti_BufferCallbackCompleteInfo) -> bool {
        let address = ptr as usize;
        let Some(entry) = self.outstanding.iter().find_map(|slot| {
            let entry = slot.load(Ordering::Acquire);
            (entry & !OVERFLOW_TAG == address && entry != 0)
                .then(|| slot.compare_exchange(entry, 0, Ordering::AcqRel, Ordering::Relaxed).ok())
                .flatten()
        }) else {
            return false;
        };
        let overflow = entry & OVERFLOW_TAG != 0;
        let size = if overflow { self.overflow_size } else { self.pool_size };
        // SAFETY: the entry proves `ptr` was produced by `into_raw` of a buffer of `size` bytes in
        // `request`, and handed to CUPTI, which now hands it back (done writing); removing the entry made
        // this the only reclaim.
        let buf = unsafe { ActivityBuffer::from_raw(ptr, size) };
        if self.parked.load(Ordering::Acquire) {
            // The session is gone: nobody decodes. Free the memory.
            if overflow {
                self.overflow_out.fetch_sub(1, Ordering::AcqRel);
                drop(buf);
            } else {
                self.handoff.pool().discard(buf);
            }
            return true;
        }
        if overflow {
            self.overflow_out.fetch_sub(1, Ordering::AcqRel);
        }
        if !info.is_null() && valid > 0 {
            // SAFETY: `info` is the completion info CUPTI passed to the callback running now.
            unsafe { self.decoder.layouts.note(ptr, info) };
        }
        self.handoff.completed(buf, valid.min(size));
        true
    }
}

/// Publishes `route` as the live one. Fails (returning it) when another is live.
pub(crate) fn attach(route: Box<Route>) -> Result<*const Route, Box<Route>> {
    let raw = Box::into_raw(route);
    match LIVE.compare_exchange(ptr::null_mut(), raw, Ordering::SeqCst, Ordering::SeqCst) {
        Ok(_) => Ok(raw),
        // SAFETY: `raw` came from `Box::into_raw` just above and was published nowhere.
        Err(_) => Err(unsafe { Box::from_raw(raw) }),
    }
}

/// Whether a route is live (a session is running).
pub(crate) fn is_live() -> bool {
    !LIVE.load(Ordering::SeqCst).is_null()
}

/// Detaches the live `route` and frees it once no trampoline can be reading it, or parks it (never
/// freed) when CUPTI still holds some of its buffers. Returns the number of buffers still held.
///
/// # Safety
/// `route` was returned by [`attach`] and is not detached yet.
pub(crate) unsafe fn detach(route: *const Route) -> usize {
    let raw = route as *mut Route;
    let _ = LIVE.compare_exchange(raw, ptr::null_mut(), Ordering::SeqCst, Ordering::SeqCst);
    // Quiesce: a trampoline that loaded `raw` before the swap has registered itself in IN_CALLBACK
    // before loading (SeqCst on both sides), so once the count is zero none still reads the route.
    while IN_CALLBACK.load(Ordering::SeqCst) != 0 {
        std::thread::yield_now();
    }
    // SAFETY: the route is alive until freed below (the caller's contract).
    let held = unsafe { &*raw }.outstanding();
    if held == 0 {
        // SAFETY: `raw` came from `Box::into_raw` in `attach`; no trampoline reads it any more and the
        // session does not use it after this call.
        drop(unsafe { Box::from_raw(raw) });
        return 0;
    }
    // SAFETY: as above; parked routes are never freed.
    let parked = unsafe { &*raw };
    parked.parked.store(true, Ordering::Release);
    let mut head = PARKED.load(Ordering::Acquire);
    loop {
        parked.next_parked.store(head, Ordering::Release);
        match PARKED.compare_exchange(head, raw, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return held,
            Err(now) => head = now,
        }
    }
}

/// `CUpti_BuffersCallbackRequestFunc`: a buffer from the live session's pool.
pub(crate) unsafe extern "C" fn buffer_requested(
    buffer: *mut *mut u8,
    size: *mut usize,
    max_num_records: *mut usize,
) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if buffer.is_null() || size.is_null() {
            return;
        }
        let _in = InCallback::enter();
        let route = LIVE.load(Ordering::SeqCst);
        // SAFETY: a live route is not freed while a trampoline is in progress (see `detach`).
        let granted = unsafe { route.as_ref() }.and_then(Route::request);
        if route.is_null() {
            ORPHAN_REQUESTS.fetch_add(1, Ordering::Relaxed);
        }
        let (ptr, len) = granted.unwrap_or((ptr::null_mut(), 0));
        // SAFETY: CUPTI passes valid out-pointers (checked non-null above; `max_num_records` below).
        unsafe {
            *buffer = ptr;
            *size = len;
            if !max_num_records.is_null() {
                *max_num_records = 0;
            }
        }
    }));
}

/// `CUpti_BuffersCallbackRequestFunc_v2` (a V2 subscriber's): as [`buffer_requested`].
pub(crate) unsafe extern "C" fn buffer_requested_v2(
    buffer: *mut *mut u8,
    size: *mut usize,
    max_num_records: *mut usize,
    _info: *mut CUpti_BufferCallbackRequestInfo,
) {
    // SAFETY: CUPTI's out-pointers, passed on.
    unsafe { buffer_requested(buffer, size, max_num_records) }
}

/// `CUpti_BuffersCallbackCompleteFunc`: hands the buffer to the session's decode thread and returns.
pub(crate) unsafe extern "C" fn buffer_completed(
    _context: CUcontext,
    _stream_id: u32,
    buffer: *mut u8,
    _size: usize,
    valid_size: usize,
) {
    // SAFETY: CUPTI's arguments, passed on; no V2 info.
    unsafe { completed(buffer, valid_size, ptr::null()) }
}

/// `CUpti_BuffersCallbackCompleteFunc_v2` (a V2 subscriber's): as [`buffer_completed`], and the buffer's
/// record layouts (user-defined records) go to the decoder with it.
pub(crate) unsafe extern "C" fn buffer_completed_v2(
    buffer: *mut u8,
    _size: usize,
    valid_size: usize,
    info: *mut CUpti_BufferCallbackCompleteInfo,
) {
    // SAFETY: CUPTI's arguments, passed on.
    unsafe { completed(buffer, valid_size, info) }
}

/// Both completion callbacks: `info` is NULL for V1.
unsafe fn completed(buffer: *mut u8, valid_size: usize, info: *const CUpti_BufferCallbackCompleteInfo) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if buffer.is_null() {
            return;
        }
        let _in = InCallback::enter();
        let live = LIVE.load(Ordering::SeqCst);
        // SAFETY: a live route is not freed while a trampoline is in progress (see `detach`).
        if let Some(route) = unsafe { live.as_ref() } {
            if route.complete(buffer, valid_size, info) {
                return;
            }
        }
        let mut parked = PARKED.load(Ordering::Acquire);
        // SAFETY: parked routes are never freed.
        while let Some(route) = unsafe { parked.as_ref() } {
            if route.complete(buffer, valid_size, info) {
                return;
            }
            parked = route.next_parked.load(Ordering::Acquire);
        }
        FOREIGN_BUFFERS.fetch_add(1, Ordering::Relaxed);
    }));
}
