//! The C callback CUPTI calls: from CUPTI's `(domain, cbid, data)` to the subscribers' closures.
//!
//! Runs synchronously on the application thread inside the CUDA call. The hot path takes no
//! lock and allocates nothing: a read section (a thread-local store), one atomic load of the
//! routing table, a table lookup, the closures; for API calls whose closures store a value in
//! their slot, a push and pop on the thread's frame stack (see [`super::frames`]). Nothing unwinds into CUPTI: each closure runs under
//! `catch_unwind`, and so does the dispatcher.

use cupti_sys::{CUpti_ApiCallbackSite, CUpti_CallbackData, CUpti_CallbackDomain, CUpti_CallbackId};
use std::cell::Cell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::data::CallbackData;
use super::hub::Hub;
use super::rcu::{self, ReadGuard};
use super::snapshot::Route;
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
    let routes = hub.snapshot(&guard).routes(domain, cbid);
    if routes.is_empty() {
        return;
    }
    let id = CallbackId::new(CallbackDomain(domain), cbid);
    let version = hub.version();
    if id.domain.is_api() {
        // SAFETY: API domains pass `CUpti_CallbackData`.
        unsafe { api(id, version, &*cbdata.cast::<CUpti_CallbackData>(), routes, &guard) };
    } else {
        let slot = Cell::new(0);
        // SAFETY: `cbdata` is this domain's callback data, valid during the call.
        let data = unsafe { CallbackData::new(id, cbdata, version, &slot) };
        for r in routes {
            r.call(&data);
        }
    }
}

/// An API callback: each subscriber gets its own entry/exit slot.
///
/// # Safety
/// `raw` is CUPTI's callback data for `id`, valid during the call.
#[inline(always)]
unsafe fn api(id: CallbackId, version: u32, raw: &CUpti_CallbackData, routes: &[Route], guard: &ReadGuard) {
    let cbdata = (raw as *const CUpti_CallbackData).cast::<c_void>();
    let call = |r: &Route, value: u64| -> u64 {
        let slot = Cell::new(value);
        // SAFETY: `cbdata` is API callback data, valid during the call.
        let data = unsafe { CallbackData::new(id, cbdata, version, &slot) };
        r.call(&data);
        slot.get()
    };
    // CUPTI's per-call slot of our subscription: the serial of this call's frame, 0 if none.
    let shared = raw.correlationData;
    let frames = guard.frames();
    if raw.callbackSite == CUpti_ApiCallbackSite::CUPTI_API_ENTER {
        let mut serial = 0;
        for r in routes {
            let value = call(r, 0);
            if let (Some(f), true) = (frames, value != 0) {
                if serial == 0 {
                    serial = f.open();
                }
                f.store(serial, r.owner(), value);
            }
        }
        if !shared.is_null() {
            // SAFETY: CUPTI's per-call slot, valid during the call.
            unsafe { shared.write(serial) };
        }
    } else {
        // SAFETY: as above.
        let serial = if shared.is_null() { 0 } else { unsafe { shared.read() } };
        let frame = frames.zip((serial != 0).then_some(serial)).and_then(|(f, s)| Some((f, f.find(s)?)));
        for r in routes {
            call(r, frame.map_or(0, |(f, start)| f.load(start, serial, r.owner())));
        }
        if let Some((f, start)) = frame {
            f.close(start);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use cupti_sys::CUpti_CallbackData;

    use std::sync::Arc;

    use super::*;
    use crate::callback::snapshot::{Callback, Registration};
    use crate::ids::DriverCbid;

    fn registration(
        key: u64,
        ids: &[(u32, u32)],
        f: impl Fn(&CallbackData<'_>) + Send + Sync + 'static,
    ) -> Registration {
        Registration::new(key, Callback::new(f), Default::default(), ids.iter().copied().collect())
    }

    /// One API call through the trampoline: ENTER then EXIT with a shared slot, as CUPTI does.
    fn call(hub: &'static Hub, cbid: u32, correlation: u32) {
        let mut shared = 0u64;
        let mut data = CUpti_CallbackData {
            callbackSite: CUpti_ApiCallbackSite::CUPTI_API_ENTER,
            functionName: c"cuCtxGetCurrent".as_ptr(),
            functionParams: std::ptr::null(),
            functionReturnValue: std::ptr::null_mut(),
            symbolName: std::ptr::null(),
            context: std::ptr::null_mut(),
            contextUid: 1,
            correlationData: &mut shared,
            correlationId: correlation,
        };
        let userdata = hub as *const Hub as *mut c_void;
        for site in [CUpti_ApiCallbackSite::CUPTI_API_ENTER, CUpti_ApiCallbackSite::CUPTI_API_EXIT] {
            data.callbackSite = site;
            let p = std::ptr::from_ref(&data).cast::<c_void>();
            // SAFETY: a live hub and API callback data valid for the call.
            unsafe { trampoline(userdata, CallbackDomain::DRIVER_API.into(), cbid, p) };
        }
    }

    #[test]
    fn slots_round_trip_through_the_trampoline_and_unrouted_ids_reach_nobody() {
        let cbid = DriverCbid::cuCtxGetCurrent.0;
        let (seen, bad) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let regs = (1..=3)
            .map(|k| {
                let (seen, bad) = (seen.clone(), bad.clone());
                registration(k, &[(1, cbid)], move |cb| {
                    let api = cb.api().unwrap();
                    let mine = k * 1000 + u64::from(api.correlation_id());
                    if api.is_enter() {
                        api.correlation_slot().set(mine);
                    } else if api.correlation_slot().get() != mine {
                        bad.fetch_add(1, Ordering::Relaxed);
                    }
                    seen.fetch_add(1, Ordering::Relaxed);
                })
            })
            .collect();
        let hub = Hub::detached(regs);
        for i in 1..=100 {
            call(hub, cbid, i);
        }
        call(hub, cbid + 1, 101);
        assert_eq!(seen.load(Ordering::Relaxed), 3 * 2 * 100);
        assert_eq!(bad.load(Ordering::Relaxed), 0);
    }
}
