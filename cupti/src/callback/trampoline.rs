//! The switchboard's general dispatch: from CUPTI's `(domain, cbid, data)` to the subscribers'
//! closures through the routing table.
//!
//! Runs synchronously on the application thread inside the CUDA call. The hot path takes no
//! lock and allocates nothing: a read section (a thread-local store), one atomic load of the
//! routing table, a table lookup, the closures; for API calls whose closures store a value in
//! their slot, a push and pop on the thread's frame stack (see [`super::frames`]). Nothing unwinds
//! into CUPTI: each closure runs under `catch_unwind`, and so does the dispatcher.
//!
//! The hub's subscription calls [`super::anchor::entry`], which serves the anchor alone itself
//! and hands everything else to [`general`]; [`trampoline`] is the same without an anchor.

use cupti_sys::{CUpti_ApiCallbackSite, CUpti_CallbackData, CUpti_CallbackDomain, CUpti_CallbackId};
use std::cell::Cell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicU32;

use super::data::CallbackData;
use super::frames::{self, Frames};
use super::hub::Hub;
use super::rcu::{self, ReadGuard};
use super::snapshot::Route;
use crate::ids::{CallbackDomain, CallbackId};

/// A `CUpti_CallbackFunc` over the general dispatch alone; `userdata` is the hub.
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
        unsafe { general(hub, domain.0, cbid, cbdata) }
    }));
    if let Err(payload) = result {
        // Dropping a payload can panic again; leaking it cannot.
        std::mem::forget(payload);
    }
}

/// Dispatches one callback in a read section of its own.
///
/// # Safety
/// `cbdata` is non-null callback data of `domain`, valid during the call.
#[inline(never)]
pub(crate) unsafe fn general(hub: &Hub, domain: u32, cbid: u32, cbdata: *const c_void) {
    let guard = rcu::read_lock();
    // SAFETY: forwarded (this function's contract).
    unsafe { in_section(hub, &guard, domain, cbid, cbdata) }
}

/// [`in_section`], not inlined (for the anchor's entry, which keeps its own code small).
///
/// # Safety
/// As [`general`].
#[inline(never)]
pub(crate) unsafe fn in_section_outlined(
    hub: &Hub,
    guard: &ReadGuard,
    domain: u32,
    cbid: u32,
    cbdata: *const c_void,
) {
    // SAFETY: forwarded (this function's contract).
    unsafe { in_section(hub, guard, domain, cbid, cbdata) }
}

/// Dispatches one callback inside the caller's read section.
///
/// # Safety
/// As [`general`].
#[inline(always)]
unsafe fn in_section(hub: &Hub, guard: &ReadGuard, domain: u32, cbid: u32, cbdata: *const c_void) {
    let snapshot = hub.snapshot(guard);
    let routes = snapshot.routes(domain, cbid);
    if routes.is_empty() {
        return;
    }
    let id = CallbackId::new(CallbackDomain(domain), cbid);
    let version = hub.version_cell();
    if id.domain.is_api() {
        // SAFETY: API domains pass `CUpti_CallbackData`.
        let raw = unsafe { &*cbdata.cast::<CUpti_CallbackData>() };
        // SAFETY: `raw` is valid during the call (this function's contract).
        unsafe { api(id, version, raw, routes, snapshot.anchor(), guard.frames()) };
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
/// CUPTI's per-call slot holds, after ENTER: 0 when nobody stored a value; the anchor's value
/// when only the anchor (key `anchor`) stored one; else the serial of a frame holding every
/// value (see [`super::frames`]). At EXIT, a value that is no frame's serial is the anchor's.
///
/// # Safety
/// `raw` is CUPTI's callback data for `id`, valid during the call.
#[inline(always)]
unsafe fn api(
    id: CallbackId,
    version: &AtomicU32,
    raw: &CUpti_CallbackData,
    routes: &[Route],
    anchor: u64,
    frames: Option<&Frames>,
) {
    let cbdata = (raw as *const CUpti_CallbackData).cast::<c_void>();
    let call = |r: &Route, value: u64| -> u64 {
        let slot = Cell::new(value);
        // SAFETY: `cbdata` is API callback data, valid during the call.
        let data = unsafe { CallbackData::new(id, cbdata, version, &slot) };
        r.call(&data);
        slot.get()
    };
    let shared = raw.correlationData;
    if raw.callbackSite == CUpti_ApiCallbackSite::CUPTI_API_ENTER {
        // What goes into CUPTI's slot: nothing yet, the anchor's value, or a frame's serial.
        let mut serial = 0;
        let mut anchor_value = 0;
        for r in routes {
            let value = call(r, 0);
            if value == 0 {
                continue;
            }
            if r.owner() == anchor && serial == 0 {
                anchor_value = value;
                continue;
            }
            let Some(f) = frames else { continue };
            if serial == 0 {
                serial = f.open();
                if anchor_value != 0 {
                    f.store(serial, anchor, anchor_value);
                }
            }
            f.store(serial, r.owner(), value);
        }
        if !shared.is_null() {
            // SAFETY: CUPTI's per-call slot, valid during the call.
            unsafe { shared.write(if serial != 0 { serial } else { anchor_value }) };
        }
    } else {
        // SAFETY: as above.
        let value = if shared.is_null() { 0 } else { unsafe { shared.read() } };
        let frame = frames
            .filter(|_| frames::is_serial_form(value, frames::tag()))
            .and_then(|f| Some((f, f.find(value)?)));
        for r in routes {
            let mine = match frame {
                Some((f, start)) => f.load(start, value, r.owner()),
                None if r.owner() == anchor => value,
                None => 0,
            };
            call(r, mine);
        }
        if let Some((f, start)) = frame {
            f.close(start);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

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
        let mut data = crate::callback::data::fake_api_data(
            CUpti_ApiCallbackSite::CUPTI_API_ENTER,
            correlation,
            &mut shared,
        );
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
        let hub = Hub::detached(regs, false);
        for i in 1..=100 {
            call(hub, cbid, i);
        }
        call(hub, cbid + 1, 101);
        assert_eq!(seen.load(Ordering::Relaxed), 3 * 2 * 100);
        assert_eq!(bad.load(Ordering::Relaxed), 0);
    }
}
