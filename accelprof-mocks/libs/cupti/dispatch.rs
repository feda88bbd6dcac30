//! Invoking client callbacks, synchronously on the calling thread as CUPTI does.
//!
//! API callbacks get a real `CUpti_CallbackData` per site. `correlationData` points at a u64
//! slot owned by the call (one per subscriber), zero at ENTER and shared by ENTER and EXIT, so a
//! value stored at ENTER is read back at EXIT. The set of callbacks is looked up again at EXIT:
//! a subscriber that unsubscribed (or disabled the id) in between gets no EXIT.

use std::ffi::{c_char, c_void, CStr};

use crate::stats;
use crate::subscribers::{self, Target};
use crate::sys::{
    CUcontext, CUpti_ApiCallbackSite, CUpti_CallbackData, CUpti_CallbackDomain, CUpti_ResourceData,
    CUpti_ResourceData__bindgen_ty_1, CUpti_SynchronizeData, CUstream,
};

pub const DOMAIN_RESOURCE: u32 = 3;
pub const DOMAIN_SYNCHRONIZE: u32 = 4;

fn invoke(target: &Target, domain: u32, cbid: u32, data: *const c_void) {
    stats::add(&stats::CALLBACKS_IN_FLIGHT, 1);
    // SAFETY: the client registered this function with CUPTI's callback signature; `data`
    // points at the callback data of `domain` and lives until the call returns.
    unsafe { (target.callback)(target.userdata, CUpti_CallbackDomain(domain), cbid, data) };
    stats::sub(&stats::CALLBACKS_IN_FLIGHT, 1);
    stats::add(&stats::CALLBACKS_DELIVERED, 1);
}

/// What the callbacks of one runtime or driver API call see.
pub struct ApiCallInfo {
    pub domain: u32,
    pub cbid: u32,
    pub function_name: &'static CStr,
    pub symbol_name: Option<&'static CStr>,
    pub params: *const c_void,
    pub context: CUcontext,
    pub context_uid: u32,
    pub correlation_id: u32,
}

/// What a call's `correlationData` slots hold at ENTER: 0, as the real 13.0.85 and 13.5.25
/// libraries give (probed on an H200); anything else plays a release that does not zero them
/// (`mock_cupti_set_slot_fill`).
static SLOT_FILL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub fn set_slot_fill(value: u64) {
    SLOT_FILL.store(value, std::sync::atomic::Ordering::Relaxed);
}

/// The per-subscriber `correlationData` slots of one call, each boxed so that its address stays
/// the same from ENTER to EXIT however many subscribers join.
#[derive(Default)]
pub struct CorrelationSlots {
    slots: Vec<(u64, Box<u64>)>,
}

impl CorrelationSlots {
    fn slot(&mut self, subscriber: u64) -> *mut u64 {
        let i = match self.slots.iter().position(|(s, _)| *s == subscriber) {
            Some(i) => i,
            None => {
                let fill = SLOT_FILL.load(std::sync::atomic::Ordering::Relaxed);
                self.slots.push((subscriber, Box::new(fill)));
                self.slots.len() - 1
            }
        };
        &mut *self.slots[i].1
    }
}

/// Runs the ENTER (`exit == false`) or EXIT callbacks of an API call. `return_value` points at
/// the call's `cudaError_t` / `CUresult` (meaningful at EXIT).
pub fn api_site(info: &ApiCallInfo, exit: bool, return_value: *mut i32, slots: &mut CorrelationSlots) {
    let targets = subscribers::targets(info.domain, info.cbid);
    let site =
        if exit { CUpti_ApiCallbackSite::CUPTI_API_EXIT } else { CUpti_ApiCallbackSite::CUPTI_API_ENTER };
    for target in targets.iter() {
        let data = CUpti_CallbackData {
            callbackSite: site,
            functionName: info.function_name.as_ptr(),
            functionParams: info.params,
            functionReturnValue: return_value.cast(),
            symbolName: info.symbol_name.map_or(std::ptr::null::<c_char>(), CStr::as_ptr),
            context: info.context,
            contextUid: info.context_uid,
            correlationData: slots.slot(target.subscriber),
            correlationId: info.correlation_id,
        };
        invoke(target, info.domain, info.cbid, (&data as *const CUpti_CallbackData).cast());
    }
}

/// A RESOURCE-domain callback (`CUPTI_CBID_RESOURCE_*`) with its `CUpti_ResourceData`.
pub fn resource(cbid: u32, context: CUcontext, stream: CUstream) {
    let data = CUpti_ResourceData {
        context,
        resourceHandle: CUpti_ResourceData__bindgen_ty_1 { stream },
        resourceDescriptor: std::ptr::null_mut(),
    };
    for target in subscribers::targets(DOMAIN_RESOURCE, cbid).iter() {
        invoke(target, DOMAIN_RESOURCE, cbid, (&data as *const CUpti_ResourceData).cast());
    }
}

/// A SYNCHRONIZE-domain callback (`CUPTI_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED` = 1,
/// `_CONTEXT_SYNCHRONIZED` = 2), issued once the synchronization has completed.
pub fn synchronized(cbid: u32, context: CUcontext, stream: CUstream) {
    let data = CUpti_SynchronizeData { context, stream };
    for target in subscribers::targets(DOMAIN_SYNCHRONIZE, cbid).iter() {
        invoke(target, DOMAIN_SYNCHRONIZE, cbid, (&data as *const CUpti_SynchronizeData).cast());
    }
}
