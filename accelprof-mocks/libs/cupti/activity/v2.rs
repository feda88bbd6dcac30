//! The subscriber-scoped (V2) activity API of 13.2 and later: `cuptiActivityEnable_v2`/`Disable_v2`,
//! `EnableAndDump_v2`, `RegisterCallbacks_v2`, `Set`/`GetAttribute_v2`, `EnableRuntimeApi_v2`/
//! `EnableDriverApi_v2`, `GetNextRecord_v2`, `GetNumDroppedRecords_v2`, external correlation `_v2`,
//! `cuptiGetTimestamp_v2`, `cuptiIsTracingSessionRunning`. Each acts on the subscriber's own sink.
//!
//! Rules (the 13.5 headers' and CUPTI guide's documentation unless marked; the mock is strict where
//! they leave room):
//! - Before 13.2 these functions do not exist: the mock answers `CUPTI_ERROR_API_NOT_IMPLEMENTED` and
//!   counts `absent_symbol_calls`, as for `cuptiSubscribe_v2` under 12.x.
//! - The handle must be a live subscriber's (`INVALID_PARAMETER` otherwise). While the V1 activity API
//!   is in use, every call here returns 39.
//! - `CUPTI_ACTIVITY_ATTR_USER_DEFINED_RECORDS` must be set before any kind is enabled on the subscriber
//!   (else `INVALID_OPERATION`). With it, `cuptiActivityEnable_v2` needs a field selection whose first
//!   field is the kind field (0), every id below the kind's `*_FIELD_MAX`; a kind whose user-defined
//!   records the mock does not write is `NOT_SUPPORTED`; changing a kind's selection without a forced
//!   flush since it was last enabled is `INVALID_OPERATION` (the documented procedure is disable,
//!   `cuptiActivityFlushAll(1)`, enable).
//! - `CUpti_ActivityConfig::pKindOptions` (13.4; a larger `structSize` is `INVALID_PARAMETER` before
//!   it): for RUNTIME/DRIVER, `CUpti_ActivityApiOptions` whose `pCbidOptions` lists ids to allow
//!   (`enable` 1: only those) or deny (0); ids outside the release's range are `INVALID_PARAMETER`.
//! - `cuptiActivityEnableRuntimeApi_v2`/`DriverApi_v2`: with user-defined records, only from 13.4
//!   (`NOT_SUPPORTED` before) and only once the kind is enabled (`INVALID_OPERATION`).

use std::mem::{offset_of, size_of};

use super::{buffers, enable_api, external, kinds, sinks, udr, v1_in_use};
use crate::callback_names::{DOMAIN_DRIVER, DOMAIN_RUNTIME};
use crate::results::{
    API_NOT_IMPLEMENTED, INVALID_KIND, INVALID_OPERATION, INVALID_PARAMETER,
    MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, NOT_SUPPORTED, SUCCESS,
};
use crate::sys::v13_5::types as v135;
use crate::sys::{CUcontext, CUpti_Activity, CUpti_SubscriberHandle};
use crate::{clock, stats, subscribers, version};

/// The sink of `handle`, or the code a call with it returns.
fn sink_of(handle: CUpti_SubscriberHandle) -> Result<usize, u32> {
    if version::is_v12() || version::get() < version::V13_2 {
        stats::add(&stats::ABSENT_SYMBOL_CALLS, 1);
        return Err(API_NOT_IMPLEMENTED);
    }
    if !version::driver_present() {
        return Err(version::no_driver_error());
    }
    let id = subscribers::live_id(handle).ok_or(INVALID_PARAMETER)?;
    if v1_in_use() {
        return Err(MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    }
    sinks::of_subscriber(id).ok_or(crate::results::MAX_LIMIT_REACHED)
}

macro_rules! sink_or_return {
    ($handle:expr) => {
        match sink_of($handle) {
            Ok(sink) => sink,
            Err(code) => return code,
        }
    };
}

/// `CUPTI_ACTIVITY_ATTR_*` values the mock knows.
const ATTR_USER_DEFINED_RECORDS: u32 = v135::CUPTI_ACTIVITY_ATTR_USER_DEFINED_RECORDS.0;
const ATTR_MULTIPLE_SUBSCRIBER_STATE: u32 = v135::CUPTI_ACTIVITY_ATTR_MULTIPLE_SUBSCRIBER_STATE.0;
const ATTR_CUDA_EVENT_DEVICE_TIMESTAMPS: u32 =
    v135::CUPTI_ACTIVITY_ATTR_ENABLE_CUDA_EVENT_DEVICE_TIMESTAMPS.0;
const ATTR_THREAD_ID_TYPE: u32 = v135::CUPTI_ACTIVITY_ATTR_THREAD_ID_TYPE.0;

#[no_mangle]
pub unsafe extern "C" fn cuptiActivitySetAttribute_v2(
    subscriber: CUpti_SubscriberHandle,
    attr: u32,
    size: *mut usize,
    value: *mut u8,
) -> u32 {
    let sink = sink_or_return!(subscriber);
    if size.is_null() || value.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: the caller passes `*size` readable bytes at `value`.
    let (n, byte, word) = unsafe {
        let n = *size;
        let byte = if n >= 1 { *value } else { 0 };
        let word = if n >= 4 { value.cast::<u32>().read_unaligned() } else { u32::from(byte) };
        (n, byte, word)
    };
    let s = sinks::get(sink);
    match attr {
        ATTR_USER_DEFINED_RECORDS => {
            if n != 1 {
                return INVALID_PARAMETER;
            }
            if (0..64).any(|k| s.any_call(k)) {
                return INVALID_OPERATION;
            }
            s.set_user_defined(byte != 0);
        }
        ATTR_THREAD_ID_TYPE => {
            if n != 4 || word > 1 {
                return INVALID_PARAMETER;
            }
            clock::set_thread_id_type(word);
        }
        ATTR_CUDA_EVENT_DEVICE_TIMESTAMPS if n == 1 => {}
        ATTR_MULTIPLE_SUBSCRIBER_STATE => return INVALID_OPERATION,
        _ => return INVALID_PARAMETER,
    }
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiActivityGetAttribute_v2(
    subscriber: CUpti_SubscriberHandle,
    attr: u32,
    size: *mut usize,
    value: *mut u8,
) -> u32 {
    let sink = sink_or_return!(subscriber);
    if size.is_null() || value.is_null() {
        return INVALID_PARAMETER;
    }
    let v = match attr {
        ATTR_USER_DEFINED_RECORDS => u8::from(sinks::get(sink).user_defined()),
        ATTR_MULTIPLE_SUBSCRIBER_STATE => u8::from(subscribers::shared_live()),
        _ => return INVALID_PARAMETER,
    };
    // SAFETY: the caller passes `*size` writable bytes at `value`.
    unsafe {
        if *size < 1 {
            return INVALID_PARAMETER;
        }
        *value = v;
        *size = 1;
    }
    SUCCESS
}

#[no_mangle]
pub extern "C" fn cuptiActivityRegisterCallbacks_v2(
    subscriber: CUpti_SubscriberHandle,
    requested: v135::CUpti_BuffersCallbackRequestFunc_v2,
    completed: v135::CUpti_BuffersCallbackCompleteFunc_v2,
) -> u32 {
    let sink = sink_or_return!(subscriber);
    if requested.is_none() || completed.is_none() {
        return INVALID_PARAMETER;
    }
    buffers::register_v2(sink, requested, completed);
    SUCCESS
}

/// Reads and checks a field selection (user-defined records) for `kind`.
///
/// # Safety
/// `config` is NULL or a `CUpti_ActivityConfig` whose `structSize` says how much of it there is.
unsafe fn selection(kind: u32, config: *const v135::CUpti_ActivityConfig) -> Result<Vec<u32>, u32> {
    // SAFETY: the caller's contract; only fields inside `structSize` are read.
    unsafe {
        let config = config.as_ref().ok_or(INVALID_PARAMETER)?;
        if config.structSize < offset_of!(v135::CUpti_ActivityConfig, pKindOptions) {
            return Err(INVALID_PARAMETER);
        }
        let sel = &config.fieldSelection;
        if sel.structSize < size_of::<v135::CUpti_ActivityFieldSelection>()
            || sel.numFields == 0
            || sel.pFieldIds.is_null()
        {
            return Err(INVALID_PARAMETER);
        }
        let max = udr::field_count(kind).ok_or(NOT_SUPPORTED)?;
        let ids = std::slice::from_raw_parts(sel.pFieldIds, sel.numFields);
        if ids[0] != 0 || ids.iter().any(|&id| id < 0 || id as u32 >= max) {
            return Err(INVALID_PARAMETER);
        }
        let mut out: Vec<u32> = ids.iter().map(|&id| id as u32).collect();
        out.dedup();
        Ok(out)
    }
}

/// Applies `config`'s per-cbid options (13.4) for API kind `kind` of `sink`.
///
/// # Safety
/// As for [`selection`].
unsafe fn kind_options(sink: usize, kind: u32, config: *const v135::CUpti_ActivityConfig) -> u32 {
    // SAFETY: the caller's contract.
    unsafe {
        let Some(config) = config.as_ref() else { return SUCCESS };
        let full = size_of::<v135::CUpti_ActivityConfig>();
        if config.structSize > full || (config.structSize == full && version::get() < version::V13_4) {
            return INVALID_PARAMETER;
        }
        if config.structSize < full || config.pKindOptions.is_null() {
            return SUCCESS;
        }
        let domain = match kind {
            kinds::RUNTIME => DOMAIN_RUNTIME,
            kinds::DRIVER => DOMAIN_DRIVER,
            _ => return SUCCESS,
        };
        let options = &*config.pKindOptions.cast::<v135::CUpti_ActivityApiOptions>();
        if options.structSize < size_of::<v135::CUpti_ActivityApiOptions>() {
            return INVALID_PARAMETER;
        }
        let Some(cbids) = options.pCbidOptions.as_ref() else { return SUCCESS };
        if cbids.structSize < size_of::<v135::CUpti_ActivityApiCbidOptions>()
            || (cbids.numCbids > 0 && cbids.pCbids.is_null())
        {
            return INVALID_PARAMETER;
        }
        let ids = if cbids.numCbids == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(cbids.pCbids, cbids.numCbids)
        };
        let limit = version::cbid_limit(domain).unwrap_or(0);
        if ids.iter().any(|&id| id == 0 || id >= limit) {
            return INVALID_PARAMETER;
        }
        let s = sinks::get(sink);
        if cbids.enable != 0 {
            for cbid in 1..limit {
                s.set_cbid(domain, cbid, ids.contains(&cbid));
            }
        } else {
            for &cbid in ids {
                s.set_cbid(domain, cbid, false);
            }
        }
        SUCCESS
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuptiActivityEnable_v2(
    subscriber: CUpti_SubscriberHandle,
    kind: u32,
    config: *mut v135::CUpti_ActivityConfig,
) -> u32 {
    let sink = sink_or_return!(subscriber);
    if !kinds::enableable(kind) {
        return INVALID_KIND;
    }
    let s = sinks::get(sink);
    if s.user_defined() {
        // SAFETY: the caller passes NULL or a valid config.
        let fields = match unsafe { selection(kind, config) } {
            Ok(f) => f,
            Err(code) => return code,
        };
        if !s.select(kind, fields) {
            return INVALID_OPERATION;
        }
    }
    s.set_kind(kind, true);
    // SAFETY: as above.
    let r = unsafe { kind_options(sink, kind, config) };
    if r != SUCCESS {
        s.set_kind(kind, false);
    }
    r
}

#[no_mangle]
pub unsafe extern "C" fn cuptiActivityEnableAndDump_v2(
    subscriber: CUpti_SubscriberHandle,
    kind: u32,
    config: *mut v135::CUpti_ActivityConfig,
) -> u32 {
    // SAFETY: the caller's contract, passed on (the mock has no resources to dump).
    unsafe { cuptiActivityEnable_v2(subscriber, kind, config) }
}

#[no_mangle]
pub extern "C" fn cuptiActivityDisable_v2(
    subscriber: CUpti_SubscriberHandle,
    kind: u32,
    _config: *mut v135::CUpti_ActivityConfig,
) -> u32 {
    let sink = sink_or_return!(subscriber);
    if !kinds::enableable(kind) {
        return INVALID_KIND;
    }
    sinks::get(sink).set_kind(kind, false);
    SUCCESS
}

fn enable_api_v2(subscriber: CUpti_SubscriberHandle, kind: u32, domain: u32, cbid: u32, enable: u8) -> u32 {
    let sink = sink_or_return!(subscriber);
    let s = sinks::get(sink);
    if s.user_defined() {
        if version::get() < version::V13_4 {
            return NOT_SUPPORTED;
        }
        if !s.kind(kind) {
            return INVALID_OPERATION;
        }
    }
    enable_api(sink, domain, cbid, enable)
}

#[no_mangle]
pub extern "C" fn cuptiActivityEnableRuntimeApi_v2(
    subscriber: CUpti_SubscriberHandle,
    cbid: u32,
    enable: u8,
) -> u32 {
    enable_api_v2(subscriber, kinds::RUNTIME, DOMAIN_RUNTIME, cbid, enable)
}

#[no_mangle]
pub extern "C" fn cuptiActivityEnableDriverApi_v2(
    subscriber: CUpti_SubscriberHandle,
    cbid: u32,
    enable: u8,
) -> u32 {
    enable_api_v2(subscriber, kinds::DRIVER, DOMAIN_DRIVER, cbid, enable)
}

#[no_mangle]
pub unsafe extern "C" fn cuptiActivityGetNumDroppedRecords_v2(
    subscriber: CUpti_SubscriberHandle,
    _context: CUcontext,
    _stream_id: u32,
    dropped: *mut usize,
) -> u32 {
    let sink = sink_or_return!(subscriber);
    if dropped.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: checked non-null; the caller passes a writable size_t.
    unsafe { *dropped = buffers::take_dropped(sink) as usize };
    SUCCESS
}

/// Walks a buffer of `subscriber`'s records: user-defined ones by the layouts of its selections.
#[no_mangle]
pub unsafe extern "C" fn cuptiActivityGetNextRecord_v2(
    subscriber: CUpti_SubscriberHandle,
    buffer: *mut u8,
    valid_size: usize,
    record: *mut *mut CUpti_Activity,
) -> u32 {
    let sink = sink_or_return!(subscriber);
    let s = sinks::get(sink);
    let size_of = |kind: u32| {
        if s.user_defined() {
            s.selection(kind).map(|sel| udr::layout(kind, &sel).1)
        } else {
            kinds::record_size(kind)
        }
    };
    // SAFETY: the caller's contract, passed on.
    unsafe { super::next_record(buffer, valid_size, record, size_of) }
}

#[no_mangle]
pub extern "C" fn cuptiActivityPushExternalCorrelationId_v2(
    subscriber: CUpti_SubscriberHandle,
    kind: u32,
    id: u64,
) -> u32 {
    let sink = sink_or_return!(subscriber);
    external::push(sink, kind, id)
}

#[no_mangle]
pub unsafe extern "C" fn cuptiActivityPopExternalCorrelationId_v2(
    subscriber: CUpti_SubscriberHandle,
    kind: u32,
    last_id: *mut u64,
) -> u32 {
    let sink = sink_or_return!(subscriber);
    // SAFETY: the caller's contract.
    unsafe { external::pop(sink, kind, last_id) }
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetTimestamp_v2(subscriber: CUpti_SubscriberHandle, out: *mut u64) -> u32 {
    let _sink = sink_or_return!(subscriber);
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: the caller passes a writable u64.
    unsafe { *out = clock::now() };
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiIsTracingSessionRunning(out: *mut u8) -> u32 {
    if version::is_v12() || version::get() < version::V13_3 {
        stats::add(&stats::ABSENT_SYMBOL_CALLS, 1);
        return API_NOT_IMPLEMENTED;
    }
    if version::everything_needs_driver() {
        return version::no_driver_error();
    }
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: checked non-null.
    unsafe { *out = u8::from(subscribers::any_live() || v1_in_use()) };
    SUCCESS
}
