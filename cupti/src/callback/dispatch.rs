//! The C callback CUPTI calls: from CUPTI's `(domain, cbid, data)` to the subscribers' closures.
//!
//! Runs synchronously on the application thread inside the CUDA call. The hot path takes no
//! lock and allocates nothing: a read section (a thread-local store), one atomic load of the
//! routing table, a table lookup, and for API calls a push and pop on the thread's frame stack
//! (see [`super::frames`]). Nothing unwinds into CUPTI: each closure runs under
//! `catch_unwind`, and so does the dispatcher.

use std::cell::Cell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cupti_sys::{CUpti_ApiCallbackSite, CUpti_CallbackData, CUpti_CallbackDomain, CUpti_CallbackId};

use super::data::CallbackData;
use super::frames;
use super::hub::Hub;
use super::rcu;
use super::snapshot::Handler;
use crate::ids::{CallbackDomain, CallbackId};

/// The `CUpti_CallbackFunc` of every hub; `userdata` is the hub.
///
/// # Safety
/// Called by CUPTI with the `userdata` the hub subscribed with (a leaked `Hub`) and the
/// callback data of `domain`, valid for the call.
pub(crate) unsafe extern "C" fn trampoline(
    userdata: *mut c_void,
    domain: CUpti_CallbackDomain,
    cbid: CUpti_CallbackId,
    cbdata: *const c_void,
) {
    if userdata.is_null() || cbdata.is_null() {
        return;
    }
    // SAFETY: `userdata` is the `&'static Hub` passed to `cuptiSubscribe*`.
    let hub = unsafe { &*(userdata as *const Hub) };
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: forwarded from CUPTI (this function's contract).
        unsafe { dispatch(hub, domain.0, cbid, cbdata) }
    }));
    if let Err(payload) = result {
        // Dropping a payload can panic again; leaking it cannot.
        std::mem::forget(payload);
    }
}

/// # Safety
/// As [`trampoline`].
#[inline(always)]
unsafe fn dispatch(hub: &Hub, domain: u32, cbid: u32, cbdata: *const c_void) {
    let guard = rcu::read_lock();
    let handlers = hub.snapshot(&guard).handlers(domain, cbid);
    if handlers.is_empty() {
        return;
    }
    let id = CallbackId::new(CallbackDomain(domain), cbid);
    if id.domain.is_api() {
        // SAFETY: API domains pass `CUpti_CallbackData`.
        unsafe { api(hub, id, &*cbdata.cast::<CUpti_CallbackData>(), handlers) };
    } else {
        let slot = Cell::new(0);
        // SAFETY: `cbdata` is this domain's callback data, valid during the call.
        let data = unsafe { CallbackData::new(id, cbdata, hub.version(), &slot) };
        for h in handlers {
            h.call(&data);
        }
    }
}

/// An API callback: each subscriber gets its own entry/exit slot.
///
/// # Safety
/// `raw` is CUPTI's callback data for `id`, valid during the call.
#[inline(always)]
unsafe fn api(hub: &Hub, id: CallbackId, raw: &CUpti_CallbackData, handlers: &[Arc<Handler>]) {
    let cbdata = (raw as *const CUpti_CallbackData).cast::<c_void>();
    let call = |h: &Handler, value: u64| -> u64 {
        let slot = Cell::new(value);
        // SAFETY: `cbdata` is API callback data, valid during the call.
        let data = unsafe { CallbackData::new(id, cbdata, hub.version(), &slot) };
        h.call(&data);
        slot.get()
    };
    let shared = raw.correlationData;
    let done = frames::with(|f| {
        if raw.callbackSite == CUpti_ApiCallbackSite::CUPTI_API_ENTER {
            let serial = f.open();
            if !shared.is_null() {
                // SAFETY: CUPTI's per-call slot of this subscription, valid during the call.
                unsafe { shared.write(serial) };
            }
            for h in handlers {
                let value = call(h, 0);
                f.store(serial, h.owner(), value);
            }
        } else {
            // SAFETY: as above.
            let serial = if shared.is_null() { 0 } else { unsafe { shared.read() } };
            let start = f.find(serial);
            for h in handlers {
                call(h, start.map_or(0, |s| f.load(s, serial, h.owner())));
            }
            if let Some(s) = start {
                f.close(s);
            }
        }
    });
    if done.is_none() {
        // The thread's locals are being destroyed: no slots, but every closure still runs.
        for h in handlers {
            call(h, 0);
        }
    }
}
