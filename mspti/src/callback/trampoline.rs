//! The `extern "C"` function MSPTI calls: one instance per closure type.

use std::ffi::{c_void, CStr};
use std::ptr::addr_of;

use mspti_sys::{msptiApiCallbackSite, msptiCallbackData, msptiCallbackDomain, msptiCallbackId};

use super::data::CallbackData;
use super::registration::Registration;
use super::slot;
use crate::ids::{CallbackId, Domain, Site};

/// MSPTI's callback: finds the closure through `userdata` (a leaked [`Registration`]), builds
/// the [`CallbackData`] from the two fields MSPTI fills (`callbackSite`, `functionName`), keeps
/// the entry/exit slot, and calls the closure inside `catch_unwind`: a panic never unwinds into
/// C (it is swallowed, its payload dropped where its own `Drop` cannot unwind either; the API call
/// goes on).
pub(crate) unsafe extern "C" fn trampoline<F>(
    userdata: *mut c_void,
    domain: msptiCallbackDomain,
    cbid: msptiCallbackId,
    cbdata: *const msptiCallbackData,
) where
    F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
{
    if userdata.is_null() || cbdata.is_null() {
        return;
    }
    crate::unwind::guard(|| {
        // SAFETY: `userdata` is the `Registration` passed to msptiSubscribe; registrations are
        // never freed, so even a call that arrives long after unsubscribe finds it.
        let registration = unsafe { &*userdata.cast::<Registration>() };
        // SAFETY: this trampoline was instantiated for the registration's closure type.
        let Some((_in_flight, closure)) = (unsafe { registration.enter::<F>() }) else {
            return;
        };
        // Only `callbackSite` and `functionName` are initialised by MSPTI; read just those two
        // fields, never the whole struct.
        // SAFETY: `cbdata` is non-null and points at MSPTI's callback data for this call.
        let (site, name) =
            unsafe { (addr_of!((*cbdata).callbackSite).read(), addr_of!((*cbdata).functionName).read()) };
        let site = Site::from(site);
        // SAFETY: MSPTI passes the API function's name (a static string) or NULL.
        let function_name = (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) });
        let key = slot::Key {
            generation: registration.generation(),
            domain: domain.0,
            cbid,
            epoch: super::epoch::current(domain.0, cbid),
        };
        let frame = if site == Site::ENTER { slot::enter(key) } else { slot::exit(key) };
        let Some(frame) = frame else { return };
        let data = CallbackData {
            id: CallbackId::from_raw(Domain(domain.0), cbid),
            site,
            function_name,
            slot: frame.slot(),
        };
        let _inside = super::Inside::new();
        closure(&data);
    });
}

// Keeps the parameter type honest against the bindings' `msptiCallbackFunc`.
const _: mspti_sys::msptiCallbackFunc = Some(trampoline::<fn(&CallbackData<'_>)>);
const _: fn(msptiApiCallbackSite) -> Site = Site::from;
