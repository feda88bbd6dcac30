//! One runtime or driver API call: a correlation id, ENTER callbacks, EXIT callbacks, then its
//! EXTERNAL_CORRELATION and RUNTIME/DRIVER records.

use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicU32, Ordering};

use super::identity::{context_handle, context_id, current_device};
use super::nesting;
use crate::activity::{self, kinds, records};
use crate::callback_names::{self, DOMAIN_DRIVER, DOMAIN_RUNTIME};
use crate::clock;
use crate::dispatch::{self, ApiCallInfo, CorrelationSlots};
use crate::stats;

static NEXT_CORRELATION: AtomicU32 = AtomicU32::new(1);

/// One API call between its ENTER and EXIT callbacks.
pub struct ApiCall {
    info: ApiCallInfo,
    slots: CorrelationSlots,
    /// The API record's start.
    pub start: u64,
    pub device: u32,
    return_value: i32,
    thread: std::thread::ThreadId,
}

/// Starts an API call on this thread: new correlation id (a driver call inside a runtime call
/// takes the runtime call's, see [`nesting`]), ENTER callbacks.
pub fn begin(
    domain: u32,
    cbid: u32,
    name: Option<&'static CStr>,
    symbol: Option<&'static CStr>,
    params: *const c_void,
) -> ApiCall {
    stats::add(&stats::API_CALLS, 1);
    let device = current_device();
    let function_name = name.or_else(|| callback_names::function_name(domain, cbid)).unwrap_or(c"unknown");
    let correlation_id = nesting::inherited_correlation(domain)
        .unwrap_or_else(|| NEXT_CORRELATION.fetch_add(1, Ordering::Relaxed));
    nesting::opened(domain, correlation_id);
    let mut call = ApiCall {
        info: ApiCallInfo {
            domain,
            cbid,
            function_name,
            symbol_name: symbol,
            params,
            context: context_handle(device),
            context_uid: context_id(device),
            correlation_id,
        },
        slots: CorrelationSlots::default(),
        start: 0,
        device,
        return_value: 0,
        thread: std::thread::current().id(),
    };
    dispatch::api_site(&call.info, false, &mut call.return_value, &mut call.slots);
    call.start = clock::host_now();
    call
}

/// Whether `call` was begun on the calling thread.
pub fn on_own_thread(call: &ApiCall) -> bool {
    call.thread == std::thread::current().id()
}

/// Ends an API call: EXIT callbacks, then its EXTERNAL_CORRELATION and API records.
pub fn finish(mut call: ApiCall, return_value: i32) -> u32 {
    let end = clock::host_now();
    call.return_value = return_value;
    dispatch::api_site(&call.info, true, &mut call.return_value, &mut call.slots);
    nesting::closed(call.info.domain, call.info.correlation_id);

    let kind = match call.info.domain {
        DOMAIN_DRIVER => kinds::DRIVER,
        DOMAIN_RUNTIME => kinds::RUNTIME,
        _ => return call.info.correlation_id,
    };
    let correlation = call.info.correlation_id;
    let thread = clock::record_thread_id();
    activity::emit_api(kind, call.info.cbid, correlation, || {
        records::api(&records::Api {
            kind,
            cbid: call.info.cbid,
            start: call.start,
            end,
            process: clock::process_id(),
            thread,
            correlation,
            return_value: return_value as u32,
        })
    });
    correlation
}

/// A played API call with no GPU work.
pub fn api_call(domain: u32, cbid: u32, name: Option<&'static CStr>, params: *const c_void, ret: i32) -> u32 {
    let call = begin(domain, cbid, name, None, params);
    finish(call, ret)
}
