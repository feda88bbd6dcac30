//! The activity API: the process-wide (V1) functions `cuptiActivityEnable`/`Disable`,
//! `EnableRuntimeApi`/`EnableDriverApi`, `RegisterCallbacks`, `FlushAll`, `FlushPeriod`,
//! `GetNextRecord`, `GetNumDroppedRecords` here; the subscriber-scoped (V2) ones in [`v2`];
//! external correlation push/pop in [`external`]. Records go to every sink that records them
//! ([`sinks`]).
//!
//! V1 and V2 in one process (13.3 and later, from the docs: "V1 and V2 APIs cannot be used
//! together", `CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED`): while a subscriber that allows others
//! exists, the V1 activity calls are refused with 39; while the V1 API is in use (its callbacks
//! registered or a kind enabled), the V2 activity calls are. While a V2 subscriber with user-defined
//! records is live, the plain `cuptiGetTimestamp` and external-correlation push/pop return
//! `CUPTI_ERROR_NOT_COMPATIBLE` (seen on 13.3 by PyTorch's CUPTI monitor, which uses the `_v2` forms).

pub mod buffers;
pub mod external;
pub mod kinds;
pub mod records;
pub mod sinks;
pub mod udr;
pub mod v2;
pub mod worker;

use std::sync::atomic::{AtomicU32, Ordering};

use crate::callback_names::{DOMAIN_DRIVER, DOMAIN_RUNTIME};
use crate::results::{
    INVALID_KIND, INVALID_OPERATION, INVALID_PARAMETER, MAX_LIMIT_REACHED,
    MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, NOT_COMPATIBLE, SUCCESS,
};
use crate::sys::{
    CUcontext, CUpti_Activity, CUpti_BuffersCallbackCompleteFunc, CUpti_BuffersCallbackRequestFunc,
};
use crate::{subscribers, version};

/// `CUPTI_ACTIVITY_FLAG_FLUSH_FORCED`.
const FLUSH_FORCED: u32 = 1;

/// The period set by `cuptiActivityFlushPeriod` (ms, 0 = CUPTI's heuristics). Periodic flushing
/// only ever returns full, complete buffers, which the mock's delivery thread hands back as soon
/// as they are, so the value is kept for tests to read and changes no delivery.
static FLUSH_PERIOD_MS: AtomicU32 = AtomicU32::new(0);

pub fn flush_period_ms() -> u32 {
    FLUSH_PERIOD_MS.load(Ordering::Relaxed)
}

/// Writes one record of `kind` (built by `record`, fixed layout) to every sink that records it, as each
/// records it (fixed, or user-defined with the sink's selection).
pub fn emit_if_enabled(kind: u32, record: impl Fn() -> records::Record) {
    for sink in sinks::recording(kind) {
        write(sink, kind, &record(), None);
    }
}

/// Writes a kernel record to every sink recording kernels: as CONCURRENT_KERNEL where that kind is
/// enabled, else KERNEL. `record(kind)` builds it; `in_flight` is its correlation id when the kernel is
/// still running (its times are patched later).
pub fn emit_kernel(record: impl Fn(u32) -> records::Record, in_flight: Option<u32>) {
    for sink in 0..sinks::MAX_SINKS {
        let Some(kind) = kinds::kernel_kind(sink) else { continue };
        let full = record(kind);
        write(sink, kind, &full, in_flight);
    }
}

/// Writes the record of an API call (`kind` RUNTIME or DRIVER, callback id `cbid`) to every sink that
/// records that call, each preceded by EXTERNAL_CORRELATION records for the ids pushed on this thread
/// for that sink (if it records them). Returns whether any sink recorded it.
pub fn emit_api(kind: u32, cbid: u32, correlation: u32, record: impl Fn() -> records::Record) -> bool {
    let domain = if kind == kinds::DRIVER { DOMAIN_DRIVER } else { DOMAIN_RUNTIME };
    let mut any = false;
    for sink in sinks::recording_call(domain, cbid) {
        any = true;
        if sinks::get(sink).kind(kinds::EXTERNAL_CORRELATION) {
            for (external_kind, id) in external::current(sink) {
                let ec = records::external_correlation(external_kind, id, correlation);
                write(sink, kinds::EXTERNAL_CORRELATION, &ec, None);
            }
        }
        write(sink, kind, &record(), None);
    }
    any
}

/// One record into one sink, in the sink's format.
fn write(sink: usize, kind: u32, full: &[u8], in_flight: Option<u32>) {
    let s = sinks::get(sink);
    match s.user_defined().then(|| s.selection(kind)).flatten() {
        Some(selection) => {
            let (bytes, times) = udr::project(kind, &selection, full);
            buffers::emit(sink, &bytes, in_flight.map(|key| (key, times)));
        }
        None => {
            let times = records::kernel_time_offsets(kind);
            buffers::emit(sink, full, in_flight.map(|key| (key, times)));
        }
    }
}

/// Why a V1 activity call is refused now, if it is (see the module docs).
pub fn v1_refused() -> Option<u32> {
    (version::get() >= version::V13_3 && subscribers::shared_live())
        .then_some(MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
}

/// Whether the plain (V1) timestamp and external-correlation calls are refused as incompatible now.
pub fn v1_not_compatible() -> Option<u32> {
    (version::get() >= version::V13_3 && sinks::user_defined_live()).then_some(NOT_COMPATIBLE)
}

/// Whether the V1 API is in use (its callbacks registered, or anything enabled through it).
pub fn v1_in_use() -> bool {
    buffers::registered_for(sinks::GLOBAL) || (0..64).any(|k| sinks::get(sinks::GLOBAL).any_call(k))
}

pub fn reset() {
    sinks::reset();
    buffers::reset();
    external::reset();
    FLUSH_PERIOD_MS.store(0, Ordering::Relaxed);
}

#[no_mangle]
pub extern "C" fn cuptiActivityEnable(kind: u32) -> u32 {
    if !version::driver_present() {
        return version::no_driver_error();
    }
    if let Some(code) = v1_refused() {
        return code;
    }
    if !kinds::enableable(kind) {
        return INVALID_KIND;
    }
    sinks::get(sinks::GLOBAL).set_kind(kind, true);
    SUCCESS
}

#[no_mangle]
pub extern "C" fn cuptiActivityDisable(kind: u32) -> u32 {
    if !version::driver_present() {
        return version::no_driver_error();
    }
    if let Some(code) = v1_refused() {
        return code;
    }
    if !kinds::enableable(kind) {
        return INVALID_KIND;
    }
    sinks::get(sinks::GLOBAL).set_kind(kind, false);
    SUCCESS
}

/// `cuptiActivityEnableRuntimeApi` / `cuptiActivityEnableDriverApi` on `sink`: the id on or off for
/// activity records, whatever the kind's state (enabling the kind later turns every id on again). An id
/// outside `1..CUPTI_*_TRACE_CBID_SIZE` of the played release is refused (`INVALID_PARAMETER`; the V1
/// headers document no such check, the V2 ones do: the mock is strict).
pub fn enable_api(sink: usize, domain: u32, cbid: u32, enable: u8) -> u32 {
    let limit = version::cbid_limit(domain).unwrap_or(0);
    if cbid == 0 || cbid >= limit {
        return INVALID_PARAMETER;
    }
    sinks::get(sink).set_cbid(domain, cbid, enable != 0);
    SUCCESS
}

#[no_mangle]
pub extern "C" fn cuptiActivityEnableRuntimeApi(cbid: u32, enable: u8) -> u32 {
    if !version::driver_present() {
        return version::no_driver_error();
    }
    if let Some(code) = v1_refused() {
        return code;
    }
    enable_api(sinks::GLOBAL, DOMAIN_RUNTIME, cbid, enable)
}

#[no_mangle]
pub extern "C" fn cuptiActivityEnableDriverApi(cbid: u32, enable: u8) -> u32 {
    if !version::driver_present() {
        return version::no_driver_error();
    }
    if let Some(code) = v1_refused() {
        return code;
    }
    enable_api(sinks::GLOBAL, DOMAIN_DRIVER, cbid, enable)
}

#[no_mangle]
pub extern "C" fn cuptiActivityRegisterCallbacks(
    requested: CUpti_BuffersCallbackRequestFunc,
    completed: CUpti_BuffersCallbackCompleteFunc,
) -> u32 {
    if requested.is_none() || completed.is_none() {
        return INVALID_PARAMETER;
    }
    if let Some(code) = v1_refused() {
        return code;
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
    if let Some(code) = v1_refused() {
        return code;
    }
    // Every record goes to the global queue; per-context queues stay empty.
    let n = if context.is_null() { buffers::take_dropped(sinks::GLOBAL) as usize } else { 0 };
    // SAFETY: checked non-null; the caller passes a writable size_t.
    unsafe { *dropped = n };
    SUCCESS
}

/// Walks a buffer of fixed records as the real library does (probed): NULL buffer or record slot ->
/// INVALID_PARAMETER; at or past `valid_size` -> MAX_LIMIT_REACHED; a kind this release does not
/// know (0 included) -> INVALID_KIND; a record that does not fit in `valid_size` ->
/// MAX_LIMIT_REACHED. The step is `size_of(kind)` for the kind of the current record.
///
/// # Safety
/// As for `cuptiActivityGetNextRecord`.
pub unsafe fn next_record(
    buffer: *mut u8,
    valid_size: usize,
    record: *mut *mut CUpti_Activity,
    size_of: impl Fn(u32) -> Option<usize>,
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
            match size_of(kind) {
                Some(n) => at + n,
                None => return INVALID_KIND,
            }
        };
        if offset + 4 > valid_size {
            return MAX_LIMIT_REACHED;
        }
        let kind = buffer.add(offset).cast::<u32>().read_unaligned();
        let Some(size) = size_of(kind) else { return INVALID_KIND };
        if offset + size > valid_size {
            return MAX_LIMIT_REACHED;
        }
        *record = buffer.add(offset).cast();
        SUCCESS
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuptiActivityGetNextRecord(
    buffer: *mut u8,
    valid_size: usize,
    record: *mut *mut CUpti_Activity,
) -> u32 {
    // SAFETY: the caller's contract, passed on.
    unsafe { next_record(buffer, valid_size, record, kinds::record_size) }
}
