//! The `extern "C"` function MSPTI calls: from MSPTI's `(domain, cbid, data)` to the subscribers'
//! closures through the shared switchboard ([`accelprof_core::callback::dispatch`]).

use std::ffi::c_void;
use std::ptr::addr_of;

use accelprof_core::callback::dispatch::{self, ApiCall};
use accelprof_core::callback::trampoline::guard;
use accelprof_core::callback::{rcu, CallKey, Ticket};
use mspti_sys::{msptiCallbackData, msptiCallbackDomain, msptiCallbackId};

use super::vendor::{MsptiVendor, Raw};
use crate::ids::{CallbackDomain, CallbackId, CallbackSite};

/// MSPTI's callback: finds the routing table through `userdata` (a leaked ticket of the
/// subscription; a late call of one given back reaches nobody), builds each closure's
/// [`CallbackData`](super::CallbackData) from the two fields MSPTI fills (`callbackSite`,
/// `functionName`) with the closure's own slot, and calls the closures, each under `catch_unwind`
/// (a panic is counted and never unwinds into C; the API call goes on).
///
/// After its read section, it frees what a subscriber's drop that could not wait left behind,
/// once no callback can reach it any more: the last callback out frees a closure dropped under it.
///
/// # Safety
/// Called by MSPTI with the `userdata` the switchboard subscribed with and callback data valid for
/// the call.
pub(crate) unsafe extern "C" fn trampoline(
    userdata: *mut c_void,
    domain: msptiCallbackDomain,
    cbid: msptiCallbackId,
    cbdata: *const msptiCallbackData,
) {
    if userdata.is_null() || cbdata.is_null() {
        return;
    }
    guard(|| {
        // SAFETY: `userdata` is the ticket passed to msptiSubscribe; tickets are never freed, so
        // even a call that arrives long after unsubscribe finds it.
        let ticket = unsafe { &*userdata.cast::<Ticket<MsptiVendor>>() };
        rcu::read(|section| {
            let Some(routes) = ticket.routes(section) else { return };
            let reached = routes.get(domain.0, cbid);
            if reached.is_empty() {
                return;
            }
            // Only `callbackSite` and `functionName` are initialised by MSPTI; read just those two
            // fields, never the whole struct.
            // SAFETY: `cbdata` is non-null and points at MSPTI's callback data for this call.
            let (site, name) =
                unsafe { (addr_of!((*cbdata).callbackSite).read(), addr_of!((*cbdata).functionName).read()) };
            let site = CallbackSite::from(site);
            let raw = Raw { id: CallbackId::new(CallbackDomain(domain.0), cbid), site, function_name: name };
            // MSPTI's `correlationData` is garbage: frames are found by the call's id.
            let call = ApiCall {
                key: CallKey { generation: routes.generation(), domain: domain.0, cbid },
                vendor_slot: None,
                anchor: 0,
            };
            if site.is_enter() {
                dispatch::enter(reached, &raw, &call, section.frames());
            } else {
                dispatch::exit(reached, &raw, &call, section.frames());
            }
        });
    });
    if !rcu::in_read_section() {
        rcu::poll();
    }
}

// Keeps the parameter types honest against the bindings' `msptiCallbackFunc`.
const _: mspti_sys::msptiCallbackFunc = Some(trampoline);
