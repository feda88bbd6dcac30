//! MSPTI's buffer callbacks: the two `extern "C"` trampolines MSPTI calls, and the route they reach the
//! live session through.
//!
//! `msptiActivityRegisterCallbacks` takes two plain function pointers and no user data. The request runs
//! on the producing thread under MSPTI's internal lock, completions on MSPTI's threads (one per buffer,
//! concurrently) or inside `msptiActivityFlushAll`: neither may block on anything user code holds. The
//! trampolines find the session through [`ROUTE`], the shared core's [`RouteSlot`]: buffers tracked until
//! MSPTI hands them back (only those are freed: a buffer that is not ours is left alone and counted),
//! quiescence before a route is freed, parked routes for buffers MSPTI keeps past a session (see
//! `accelprof_core::activity`).

use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use accelprof_core::activity::{RouteSlot, RouteStats};

/// What the callbacks count for the live session besides its buffers.
#[derive(Debug, Default)]
pub struct CallbackTallies {
    /// Declined buffers MSPTI handed back as NULL/0/0 (each cost at least one record).
    pub(crate) null_completions: AtomicU64,
}

/// The route of MSPTI's buffer callbacks to the live session.
pub(crate) static ROUTE: RouteSlot<Arc<CallbackTallies>> = RouteSlot::new();

/// The process-wide tallies of MSPTI's buffer callbacks (requests with no session live, buffers that were
/// not ours, buffers handed back after their session ended).
pub fn route_stats() -> RouteStats {
    ROUTE.stats()
}

/// `msptiBuffersCallbackRequestFunc`: a pool buffer, or NULL (declined, counted) when the pool
/// is at its bound or no session runs. Called under MSPTI's internal lock: it calls no MSPTI
/// function and takes no lock.
pub(crate) unsafe extern "C" fn buffer_requested(
    buffer: *mut *mut u8,
    size: *mut usize,
    max_records: *mut usize,
) {
    if buffer.is_null() || size.is_null() {
        return;
    }
    let given = accelprof_core::callback::trampoline::guard(|| ROUTE.request()).flatten();
    let (ptr, len) = given.unwrap_or((ptr::null_mut(), 0));
    // SAFETY: MSPTI passes valid out-pointers (checked non-null above; `max_records` may be NULL).
    unsafe {
        *buffer = ptr;
        *size = len;
        if !max_records.is_null() {
            *max_records = 0;
        }
    }
}

/// `msptiBuffersCallbackCompleteFunc`: hands the buffer to the decode thread and returns. Runs
/// on MSPTI's completion threads (one per buffer, concurrently) or inside `FlushAll`.
pub(crate) unsafe extern "C" fn buffer_completed(buffer: *mut u8, _size: usize, valid: usize) {
    accelprof_core::callback::trampoline::guard(|| {
        if buffer.is_null() {
            // A declined buffer: MSPTI dropped the record that asked for it.
            ROUTE.vendor_dropped(1, |tallies| {
                tallies.null_completions.fetch_add(1, Ordering::Relaxed);
            });
            return;
        }
        // SAFETY: MSPTI hands the buffer back in its completion callback: it is done writing to it.
        unsafe { ROUTE.complete(buffer, valid, |_| {}) };
    });
}
