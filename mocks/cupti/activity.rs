//! The activity API: `cuptiActivityEnable`/`Disable`, `RegisterCallbacks`, `FlushAll`,
//! `FlushPeriod`, `GetNextRecord`, `GetNumDroppedRecords` (external correlation push/pop live
//! in [`external`]).

pub mod buffers;
pub mod external;
pub mod kinds;
pub mod records;
pub mod worker;

use std::sync::atomic::{AtomicU32, Ordering};

use crate::results::{INVALID_KIND, INVALID_OPERATION, INVALID_PARAMETER, MAX_LIMIT_REACHED, SUCCESS};
use crate::sys::{
    CUcontext, CUpti_Activity, CUpti_BuffersCallbackCompleteFunc, CUpti_BuffersCallbackRequestFunc,
};
use crate::version;

/// `CUPTI_ACTIVITY_FLAG_FLUSH_FORCED`.
const FLUSH_FORCED: u32 = 1;

/// The period set by `cuptiActivityFlushPeriod` (ms, 0 = CUPTI's heuristics). Periodic flushing
/// only ever returns full, complete buffers, which the mock's delivery thread hands back as soon
/// as they are, so the value is kept for tests to read and changes no delivery.
static FLUSH_PERIOD_MS: AtomicU32 = AtomicU32::new(0);

pub fn flush_period_ms() -> u32 {
    FLUSH_PERIOD_MS.load(Ordering::Relaxed)
}

/// Writes one record of `kind` if that kind is enabled.
pub fn emit_if_enabled(kind: u32, record: impl FnOnce() -> Vec<u8>) {
    if kinds::enabled(kind) {
        buffers::emit(&record(), None);
    }
}

pub fn reset() {
    kinds::reset();
    buffers::reset();
    external::reset();
    FLUSH_PERIOD_MS.store(0, Ordering::Relaxed);
}

#[no_mangle]
pub extern "C" fn cuptiActivityEnable(kind: u32) -> u32 {
    if !version::driver_present() {
        return version::no_driver_error();
    }
    if !kinds::enableable(kind) {
        return INVALID_KIND;
    }
    kinds::set_enabled(kind, true);
    SUCCESS
}

#[no_mangle]
pub extern "C" fn cuptiActivityDisable(kind: u32) -> u32 {
    if !version::driver_present() {
        return version::no_driver_error();
    }
    if !kinds::enableable(kind) {
        return INVALID_KIND;
    }
    kinds::set_enabled(kind, false);
    SUCCESS
}

#[no_mangle]
pub extern "C" fn cuptiActivityRegisterCallbacks(
    requested: CUpti_BuffersCallbackRequestFunc,
    completed: CUpti_BuffersCallbackCompleteFunc,
) -> u32 {
    if requested.is_none() || completed.is_none() {
        return INVALID_PARAMETER;
    }
    buffers::register(requested, completed);
    SUCCESS
}

#[no_mangle]
pub extern "C" fn cuptiActivityFlushAll(flag: u32) -> u32 {
    if !version::driver_present() {
        return version::no_driver_error();
    }
    if !buffers::registered() {
        return INVALID_OPERATION;
    }
    buffers::flush(flag & FLUSH_FORCED != 0);
    SUCCESS
}

#[no_mangle]
pub extern "C" fn cuptiActivityFlushPeriod(time_ms: u32) -> u32 {
    if !version::driver_present() {
        return version::no_driver_error();
    }
    FLUSH_PERIOD_MS.store(time_ms, Ordering::Relaxed);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiActivityGetNumDroppedRecords(
    context: CUcontext,
    _stream_id: u32,
    dropped: *mut usize,
) -> u32 {
    if dropped.is_null() {
        return INVALID_PARAMETER;
    }
    // Every record goes to the global queue; per-context queues stay empty.
    let n = if context.is_null() { buffers::take_dropped() as usize } else { 0 };
    // SAFETY: checked non-null; the caller passes a writable size_t.
    unsafe { *dropped = n };
    SUCCESS
}

/// Walks a buffer as the real library does (probed): NULL buffer or record slot ->
/// INVALID_PARAMETER; at or past `valid_size` -> MAX_LIMIT_REACHED; a kind this release does not
/// know (0 included) -> INVALID_KIND; a record that does not fit in `valid_size` ->
/// MAX_LIMIT_REACHED. The step is the release's record size for the kind of the current record.
#[no_mangle]
pub unsafe extern "C" fn cuptiActivityGetNextRecord(
    buffer: *mut u8,
    valid_size: usize,
    record: *mut *mut CUpti_Activity,
) -> u32 {
    if buffer.is_null() || record.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: the caller passes a buffer of `valid_size` readable bytes and a record slot that
    // is NULL or the previous record returned for this buffer.
    unsafe {
        let prev = *record;
        let offset = if prev.is_null() {
            0
        } else {
            let at = prev.cast::<u8>().offset_from(buffer) as usize;
            let kind = prev.cast::<u32>().read_unaligned();
            match kinds::record_size(kind) {
                Some(n) => at + n,
                None => return INVALID_KIND,
            }
        };
        if offset + 4 > valid_size {
            return MAX_LIMIT_REACHED;
        }
        let kind = buffer.add(offset).cast::<u32>().read_unaligned();
        let Some(size) = kinds::record_size(kind) else { return INVALID_KIND };
        if offset + size > valid_size {
            return MAX_LIMIT_REACHED;
        }
        *record = buffer.add(offset).cast();
        SUCCESS
    }
}
