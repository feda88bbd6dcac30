//! The switchboard's general dispatch: from CUPTI's `(domain, cbid, data)` to the subscribers'
//! closures through the routing table ([`accelprof_core::callback::dispatch`]).
//!
//! Runs synchronously on the application thread inside the CUDA call. The hot path takes no
//! lock and allocates nothing: a read section (a thread-local store), one atomic load of the
//! routing table, a table lookup, the closures; for API calls whose closures store a value in
//! their slot, a push and pop on the thread's frame stack. Nothing unwinds into CUPTI: each
//! closure runs under `catch_unwind`, and so does the dispatcher.
//!
//! The switchboard's subscription calls [`super::anchor::entry`], which serves the anchor alone
//! itself and hands everything else to [`general`]; [`trampoline`] is the same without an anchor.

use std::cell::Cell;
use std::ffi::c_void;

use accelprof_core::callback::dispatch::{self, ApiCall};
use accelprof_core::callback::rcu::{self, ReadSection};
use accelprof_core::callback::trampoline::guard;
use accelprof_core::callback::CallKey;
use cupti_sys::{CUpti_ApiCallbackSite, CUpti_CallbackData, CUpti_CallbackDomain, CUpti_CallbackId};

use super::vendor::{Hub, Raw};
use crate::ids::{CallbackDomain, CallbackId};

/// A `CUpti_CallbackFunc` over the general dispatch alone; `userdata` is the switchboard.
///
/// # Safety
/// Called by CUPTI with the `userdata` the switchboard subscribed with (a leaked [`Hub`]) and the
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
    // SAFETY: forwarded from CUPTI (this function's contract).
    guard(|| unsafe { general(hub, domain.0, cbid, cbdata) });
}

/// Dispatches one callback in a read section of its own.
///
/// # Safety
/// `cbdata` is non-null callback data of `domain`, valid during the call.
#[inline(never)]
pub(crate) unsafe fn general(hub: &'static Hub, domain: u32, cbid: u32, cbdata: *const c_void) {
    // SAFETY: forwarded (this function's contract).
    rcu::read(|section| unsafe { in_section(hub, section, domain, cbid, cbdata) })
}

/// [`in_section`], not inlined (for the anchor's entry, which keeps its own code small).
///
/// # Safety
/// As [`general`].
#[inline(never)]
pub(crate) unsafe fn in_section_outlined(
    hub: &'static Hub,
    section: &ReadSection,
    domain: u32,
    cbid: u32,
    cbdata: *const c_void,
) {
    // SAFETY: forwarded (this function's contract).
    unsafe { in_section(hub, section, domain, cbid, cbdata) }
}

/// Dispatches one callback inside the caller's read section. An API call's closures each get
/// their own slot: CUPTI's per-call `correlationData` holds the anchor's value or a frame's serial
/// (see [`accelprof_core::callback::frames`]).
///
/// # Safety
/// As [`general`].
#[inline(always)]
unsafe fn in_section(
    hub: &'static Hub,
    section: &ReadSection,
    domain: u32,
    cbid: u32,
    cbdata: *const c_void,
) {
    let routes = hub.routes(section);
    let reached = routes.get(domain, cbid);
    if reached.is_empty() {
        return;
    }
    let id = CallbackId::new(CallbackDomain(domain), cbid);
    let raw = Raw { id, cbdata, version: &hub.vendor().version };
    if !id.domain.is_api() {
        dispatch::deliver(reached, &raw);
        return;
    }
    // SAFETY: API domains pass `CUpti_CallbackData`, valid during the call.
    let data = unsafe { &*cbdata.cast::<CUpti_CallbackData>() };
    let shared = data.correlationData;
    // SAFETY: CUPTI's per-call slot of our subscription, valid during the call and touched by
    // nobody else; `Cell<u64>` has `u64`'s layout.
    let vendor_slot = (!shared.is_null()).then(|| unsafe { &*shared.cast::<Cell<u64>>() });
    let call = ApiCall {
        key: CallKey { generation: routes.generation(), domain, cbid },
        vendor_slot,
        anchor: routes.anchor(),
    };
    if data.callbackSite == CUpti_ApiCallbackSite::CUPTI_API_ENTER {
        dispatch::enter(reached, &raw, &call, section.frames());
    } else {
        dispatch::exit(reached, &raw, &call, section.frames());
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use std::sync::Arc;

    use accelprof_core::callback::{Callback, Handler, Registration};

    use super::*;
    use crate::callback::data::CallbackData;
    use crate::callback::vendor::CuptiVendor;
    use crate::ids::DriverCbid;

    fn registration(
        ids: &[(u32, u32)],
        f: impl Fn(&CallbackData<'_>) + Send + Sync + 'static,
    ) -> Registration<CuptiVendor> {
        Registration {
            handler: Arc::new(Handler::new(Callback::<CuptiVendor>::new(f))),
            domains: Default::default(),
            ids: ids.iter().copied().collect(),
        }
    }

    /// One API call through the trampoline: ENTER then EXIT with a shared slot, as CUPTI does.
    fn call(hub: &'static Hub, cbid: u32, correlation: u32) {
        let mut shared = 0u64;
        let mut data = crate::callback::data::fake_api_data(
            CUpti_ApiCallbackSite::CUPTI_API_ENTER,
            correlation,
            &mut shared,
        );
        let userdata = hub as *const Hub as *mut c_void;
        for site in [CUpti_ApiCallbackSite::CUPTI_API_ENTER, CUpti_ApiCallbackSite::CUPTI_API_EXIT] {
            data.callbackSite = site;
            let p = std::ptr::from_ref(&data).cast::<c_void>();
            // SAFETY: a live switchboard and API callback data valid for the call.
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
                registration(&[(1, cbid)], move |cb| {
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
        let hub = Hub::preset(CuptiVendor::detached(), regs, false);
        for i in 1..=100 {
            call(hub, cbid, i);
        }
        call(hub, cbid + 1, 101);
        assert_eq!(seen.load(Ordering::Relaxed), 3 * 2 * 100);
        assert_eq!(bad.load(Ordering::Relaxed), 0);
    }
}
