//! CUPTI's buffer callbacks: the two `extern "C"` trampolines CUPTI calls, and the route they reach the
//! live session through.
//!
//! `cuptiActivityRegisterCallbacks` takes two plain function pointers and no user data, and CUPTI calls
//! them from any thread (requests on the thread producing records, completions on CUPTI's own thread).
//! The trampolines find the session through [`ROUTE`], the shared core's [`RouteSlot`]: buffers tracked
//! until CUPTI hands them back, foreign buffers left alone, quiescence before a route is freed, parked
//! routes for buffers CUPTI keeps past a session (see `accelprof_core::activity`). A V2 subscriber's
//! completion carries the buffer's record layouts (user-defined records): they are noted for the decoder
//! before the buffer is handed over.

use std::ptr;
use std::sync::Arc;

use accelprof_core::activity::{RouteSlot, RouteStats};
use accelprof_core::callback::trampoline::guard;
use cupti_sys::v13_5::{CUpti_BufferCallbackCompleteInfo, CUpti_BufferCallbackRequestInfo};
use cupti_sys::CUcontext;

use crate::decode::DecoderShared;

/// The route of CUPTI's buffer callbacks to the live session (its decoder's shared state with it).
pub(crate) static ROUTE: RouteSlot<Arc<DecoderShared>> = RouteSlot::new();

/// The process-wide tallies of CUPTI's buffer callbacks (requests with no session live, buffers that were
/// not ours, buffers handed back after their session ended).
pub fn route_stats() -> RouteStats {
    ROUTE.stats()
}

/// `CUpti_BuffersCallbackRequestFunc`: a buffer from the live session's pool.
pub(crate) unsafe extern "C" fn buffer_requested(
    buffer: *mut *mut u8,
    size: *mut usize,
    max_num_records: *mut usize,
) {
    let _ = guard(|| {
        if buffer.is_null() || size.is_null() {
            return;
        }
        let (ptr, len) = ROUTE.request().unwrap_or((ptr::null_mut(), 0));
        // SAFETY: CUPTI passes valid out-pointers (checked non-null above; `max_num_records` below).
        unsafe {
            *buffer = ptr;
            *size = len;
            if !max_num_records.is_null() {
                *max_num_records = 0;
            }
        }
    });
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
    let _ = guard(|| {
        if buffer.is_null() {
            return;
        }
        let note = |decoder: &Arc<DecoderShared>| {
            if !info.is_null() {
                // SAFETY: `info` is the completion info CUPTI passed to the callback running now, and
                // `buffer` is the buffer it describes.
                unsafe { decoder.layouts.note(buffer, info) };
            }
        };
        // SAFETY: CUPTI hands the buffer back in its completion callback: it is done writing to it.
        unsafe { ROUTE.complete(buffer, valid_size, note) };
    });
}
