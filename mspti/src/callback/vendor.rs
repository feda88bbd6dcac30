//! MSPTI's callback API as the shared switchboard sees it ([`MsptiVendor`]), and the switchboard of
//! each library ([`Hub`]).
//!
//! MSPTI allows one subscriber per process (`msptiSubscribe` returns
//! `MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED` while one exists), as CUPTI did before 13.2:
//! the switchboard holds that one subscription for every [`Subscriber`](super::Subscriber) of the
//! library and gives it back when the last one goes, so that another tool may subscribe.
//! `msptiUnsubscribe` does not wait for callbacks in flight, so what MSPTI holds as `userdata` is a
//! leaked ticket of that subscription: a late call finds it no longer current and reaches nobody.

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::{Mutex, MutexGuard};

use accelprof_core::callback::{CallbackArgs, CorrelationSlot, SlotData, Switchboard, Target, Vendor};
use mspti_sys::{msptiCallbackDomain, msptiSubscriberHandle, MsptiFunctions};

use super::data::CallbackData;
use super::trampoline::trampoline;
use crate::error::{check, Error, Result};
use crate::ids::{CallbackId, CallbackSite};
use crate::Mspti;

/// A library's switchboard.
pub(crate) type Hub = Switchboard<MsptiVendor>;

/// Subscriptions of ours that MSPTI holds now (0 or 1: MSPTI allows one).
pub(crate) static SUBSCRIBED: AtomicUsize = AtomicUsize::new(0);

/// One library's MSPTI, as its switchboard calls it.
pub(crate) struct MsptiVendor {
    functions: MsptiFunctions,
}

/// What the trampoline read from one MSPTI callback: the two fields MSPTI fills.
pub(crate) struct Raw {
    pub(crate) id: CallbackId,
    pub(crate) site: CallbackSite,
    /// A static NUL-terminated name, or NULL.
    pub(crate) function_name: *const c_char,
}

impl CallbackArgs for MsptiVendor {
    type Data<'a> = CallbackData<'a>;
}

impl SlotData for MsptiVendor {
    type Raw = Raw;

    fn with_slot<'a>(raw: &'a Raw, slot: CorrelationSlot<'a>) -> CallbackData<'a> {
        let name = raw.function_name;
        // SAFETY: MSPTI passes the API function's name (a static string) or NULL.
        let function_name = (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) });
        CallbackData { id: raw.id, site: raw.site, function_name, slot }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Switchboards by library: two `Mspti` values that opened the same copy share one.
static HUBS: Mutex<Vec<(usize, &'static Hub)>> = Mutex::new(Vec::new());

/// The switchboard of the library `mspti` opened, created on first use.
pub(crate) fn hub_for(mspti: &Mspti) -> Result<&'static Hub> {
    let resolver = mspti.sys().functions().resolver();
    let key = resolver
        .find(c"msptiSubscribe")
        .ok_or(mspti_sys::MissingSymbol::new(resolver.library(), "msptiSubscribe"))?;
    let key = key.as_ptr() as usize;
    let mut hubs = lock(&HUBS);
    if let Some(&(_, hub)) = hubs.iter().find(|(k, _)| *k == key) {
        return Ok(hub);
    }
    let hub = Hub::leak(MsptiVendor { functions: MsptiFunctions::new(resolver.clone()) });
    hubs.push((key, hub));
    Ok(hub)
}

impl MsptiVendor {
    /// [`Error::AnotherCopyLoaded`] when a `libmspti.so` other than this one is loaded in the
    /// process and this one is not the copy in the program's global symbol scope (the preloaded
    /// one, which the program's calls reach): CANN's reporters are one per process, and the copy
    /// that subscribes takes them from the other for good.
    fn refuse_another_copy(&self) -> Result<()> {
        let Some(subscribe) = self.functions.resolver().find(c"msptiSubscribe") else { return Ok(()) };
        if crate::preload::global_symbol(c"msptiSubscribe") == Some(subscribe) {
            return Ok(());
        }
        let Some(ours) = crate::preload::object_of(subscribe) else { return Ok(()) };
        let ours_id = crate::preload::file_id(&ours);
        match crate::preload::loaded_objects().into_iter().find(|name| {
            let file = name.rsplit('/').next().unwrap_or(name);
            file.starts_with("libmspti")
                && file.contains(".so")
                && *name != ours
                && (ours_id.is_none() || crate::preload::file_id(name) != ours_id)
        }) {
            Some(other) => Err(Error::AnotherCopyLoaded { ours, other }),
            None => Ok(()),
        }
    }
}

impl Vendor for MsptiVendor {
    type Error = Error;
    type Entry = ();
    /// The last subscriber's drop gives MSPTI's one subscription back (so that another tool may
    /// subscribe, and MSPTI stops the records it produces only while subscribed).
    const KEEPS_SUBSCRIPTION: bool = false;

    fn subscribe(&self, (): (), userdata: *mut c_void) -> Result<usize> {
        // MSPTI opens the NPU driver at each first subscription and throws (an abort) without it:
        // checked here too, for a copy opened before the driver went (or preloaded).
        mspti_sys::check_driver().map_err(Error::DriverMissing)?;
        self.refuse_another_copy()?;
        let mut handle: msptiSubscriberHandle = std::ptr::null_mut();
        // SAFETY: `handle` is a valid out-pointer; the trampoline matches `msptiCallbackFunc` and
        // `userdata` is the ticket it expects, which is never freed once MSPTI has it.
        let r = unsafe { self.functions.msptiSubscribe(&mut handle, Some(trampoline), userdata) };
        check(r, "subscriber")?;
        SUBSCRIBED.fetch_add(1, SeqCst);
        Ok(handle as usize)
    }

    fn unsubscribe(&self, handle: usize) -> Result<()> {
        // SAFETY: our live handle. MSPTI may still call in late: the ticket is leaked.
        let r =
            check(unsafe { self.functions.msptiUnsubscribe(handle as msptiSubscriberHandle) }, "subscriber");
        SUBSCRIBED.fetch_sub(1, SeqCst);
        r
    }

    fn enable_domain(&self, handle: usize, domain: u32, on: bool) -> Result<()> {
        // SAFETY: our live handle; plain values (MSPTI checks the domain).
        check(
            unsafe {
                self.functions.msptiEnableDomain(
                    u32::from(on),
                    handle as msptiSubscriberHandle,
                    msptiCallbackDomain(domain),
                )
            },
            "domain",
        )
    }

    fn enable_id(&self, handle: usize, domain: u32, cbid: u32, on: bool) -> Result<()> {
        // SAFETY: our live handle; plain values (MSPTI accepts ids below 64 of a known domain).
        check(
            unsafe {
                self.functions.msptiEnableCallback(
                    u32::from(on),
                    handle as msptiSubscriberHandle,
                    msptiCallbackDomain(domain),
                    cbid,
                )
            },
            "domain or callback id (MSPTI accepts ids below 64)",
        )
    }

    fn out_of_range(&self, target: Target) -> Error {
        Error::InvalidParameter(match target {
            Target::Domain(_) => "domain",
            Target::Id(..) => "domain or callback id (MSPTI accepts ids below 64)",
        })
    }
}
