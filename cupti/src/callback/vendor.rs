//! CUPTI's callback API as the shared switchboard sees it ([`CuptiVendor`]), and the switchboard
//! of each library ([`Hub`]).
//!
//! Before CUPTI 13.2 a process may hold one subscription; the switchboard
//! ([`accelprof_core::callback::Switchboard`]) holds it for every [`Subscriber`] of a library, with
//! reference-counted enables, and keeps it when the last subscriber goes (see
//! [`Cupti::release_subscription`]). From 13.2 on it subscribes with `cuptiSubscribe_v2` and
//! `allowMultipleSubscribers`, so other tools that allow it coexist; with older libraries, or when
//! sharing is refused (13.2 refuses it once any `cuptiSubscribe` subscription has existed in the
//! process), it falls back to `cuptiSubscribe_v2` without it (the holder's name comes back in
//! errors) and then `cuptiSubscribe`.
//!
//! The subscription is made for the first subscriber's closure type (see [`super::anchor`]), whose
//! fast path the switchboard's hooks keep in step with the routing table.
//!
//! [`Subscriber`]: super::Subscriber

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};

use accelprof_core::callback::{
    CallbackArgs, CorrelationSlot, Handler, Routes, SlotData, Switchboard, Target, Vendor,
};
use cupti_sys::{
    CUpti_CallbackDomain, CUpti_CallbackDomain as Domain, CUpti_CallbackId, CUpti_SubscriberHandle,
    CuptiFunctions,
};

use super::anchor::FastPath;
use super::data::CallbackData;
use crate::error::{Error, Result, ResultCode};
use crate::ids::CallbackId;
use crate::library::{check, result_string, Cupti};

/// A library's switchboard.
pub(crate) type Hub = Switchboard<CuptiVendor>;

/// `CUpti_CallbackFunc` without the `Option`.
pub type RawCallback =
    unsafe extern "C" fn(*mut c_void, CUpti_CallbackDomain, CUpti_CallbackId, *const c_void);

/// The name the switchboard subscribes under (CUPTI reports it to other tools that collide with us).
const SUBSCRIBER_NAME: &CStr = c"cupti-rs";

/// `cuptiGetVersion` of the first release whose `cuptiSubscribe_v2` allows several subscribers.
const MULTI_SUBSCRIBER_VERSION: u32 = 130_200;

/// `CUpti_SubscriberParams` of the CUPTI 13.2+ headers: the 13.0 struct (32 bytes) followed by
/// `uint8_t allowMultipleSubscribers; uint8_t padding[7];`.
#[repr(C)]
struct SubscriberParams {
    struct_size: usize,
    subscriber_name: *const c_char,
    old_subscriber_name: *mut c_char,
    old_subscriber_size: usize,
    allow_multiple_subscribers: u8,
    padding: [u8; 7],
}

// Sizes and offsets of the 13.5 headers' struct (its prefix is cupti-sys's 13.0 struct).
const _: () = {
    assert!(std::mem::size_of::<SubscriberParams>() == 40);
    assert!(std::mem::offset_of!(SubscriberParams, allow_multiple_subscribers) == 32);
    assert!(std::mem::size_of::<cupti_sys::CUpti_SubscriberParams>() == 32);
    assert!(std::mem::offset_of!(SubscriberParams, old_subscriber_size) == 24);
};

/// How the switchboard holds CUPTI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionKind {
    /// `cuptiSubscribe_v2` with `allowMultipleSubscribers` (CUPTI 13.2+): other tools that
    /// allow it may subscribe too.
    Shared,
    /// The process's only subscription.
    Exclusive,
}

/// One library's CUPTI, as its switchboard calls it.
pub(crate) struct CuptiVendor {
    functions: CuptiFunctions,
    /// The anchor's fast path (read by the subscription's callback).
    pub(crate) fast: FastPath,
    /// `cuptiGetVersion` as the latest `Cupti` that made the subscription read it.
    pub(crate) version: AtomicU32,
    /// How the subscription was made, while it is held.
    kind: Mutex<Option<SubscriptionKind>>,
}

/// What the trampoline read from one CUPTI callback.
pub(crate) struct Raw {
    pub(crate) id: CallbackId,
    pub(crate) cbdata: *const c_void,
    pub(crate) version: &'static AtomicU32,
}

impl CallbackArgs for CuptiVendor {
    type Data<'a> = CallbackData<'a>;
}

impl SlotData for CuptiVendor {
    type Raw = Raw;

    #[inline(always)]
    fn with_slot<'a>(raw: &'a Raw, slot: CorrelationSlot<'a>) -> CallbackData<'a> {
        // SAFETY: the trampoline made `raw` from CUPTI's callback data of `raw.id`'s domain, valid
        // for the callback, which outlives every closure call it makes.
        unsafe { CallbackData::new(raw.id, raw.cbdata, raw.version, slot) }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Switchboards by library: two `Cupti` values that opened the same file share one.
static HUBS: Mutex<Vec<(usize, &'static Hub)>> = Mutex::new(Vec::new());

/// The switchboard of the library `cupti` opened, created on first use.
pub(crate) fn hub_for(cupti: &Cupti) -> Result<&'static Hub> {
    let resolver = cupti.functions().resolver();
    let key = resolver
        .find(c"cuptiSubscribe")
        .ok_or(cupti_sys::MissingSymbol::new(resolver.library(), "cuptiSubscribe"))?;
    let key = key.as_ptr() as usize;
    let mut hubs = lock(&HUBS);
    if let Some(&(_, hub)) = hubs.iter().find(|(k, _)| *k == key) {
        return Ok(hub);
    }
    let hub = Hub::leak(CuptiVendor::new(CuptiFunctions::new(resolver.clone()), cupti.api_version()));
    hubs.push((key, hub));
    Ok(hub)
}

impl CuptiVendor {
    fn new(functions: CuptiFunctions, version: u32) -> CuptiVendor {
        CuptiVendor {
            functions,
            fast: FastPath::new(),
            version: AtomicU32::new(version),
            kind: Mutex::new(None),
        }
    }

    /// A CUPTI of no library (nothing is ever called through it), for dispatcher tests and
    /// benchmarks.
    pub(crate) fn detached() -> CuptiVendor {
        // SAFETY: the resolver finds nothing, so no function is ever called through it.
        let resolver = unsafe { cupti_sys::Resolver::new("no library", |_| None) };
        CuptiVendor::new(CuptiFunctions::new(resolver), 130001)
    }

    /// How the subscription is held now.
    pub(crate) fn kind(&self) -> Option<SubscriptionKind> {
        *lock(&self.kind)
    }

    /// The error of a result that is not `CUPTI_SUCCESS`.
    fn error(&self, function: &'static str, code: ResultCode) -> Error {
        let error = Error::from_code(code, function).unwrap_or(Error::Unknown { function, code, name: None });
        error.named(|| result_string(&self.functions, code))
    }

    /// Makes the real subscription for `callback`: `cuptiSubscribe_v2` allowing other
    /// subscribers (13.2+), else (older, or sharing refused) `cuptiSubscribe_v2` without, else
    /// `cuptiSubscribe`; `userdata` the switchboard (which lives for the rest of the process).
    fn subscribe_with(
        &self,
        callback: cupti_sys::CUpti_CallbackFunc,
        userdata: *mut c_void,
    ) -> Result<(usize, SubscriptionKind)> {
        let version = self.version.load(Ordering::Relaxed);
        if !cupti_sys::is_api_version_12(version) && self.functions.has("cuptiSubscribe_v2") {
            let mut attempts = vec![false];
            if version >= MULTI_SUBSCRIBER_VERSION {
                attempts.insert(0, true);
            }
            for allow_multiple in attempts {
                let mut holder = [0 as c_char; 64];
                let mut params = SubscriberParams {
                    struct_size: if allow_multiple {
                        std::mem::size_of::<SubscriberParams>()
                    } else {
                        std::mem::size_of::<cupti_sys::CUpti_SubscriberParams>()
                    },
                    subscriber_name: SUBSCRIBER_NAME.as_ptr(),
                    old_subscriber_name: holder.as_mut_ptr(),
                    old_subscriber_size: holder.len(),
                    allow_multiple_subscribers: u8::from(allow_multiple),
                    padding: [0; 7],
                };
                let mut handle: CUpti_SubscriberHandle = std::ptr::null_mut();
                // SAFETY: valid out-pointers; `params` is laid out as the headers say and its
                // `struct_size` covers only the fields this release reads; the callback and
                // `userdata` (a leaked switchboard) live for the rest of the process.
                let r = unsafe {
                    self.functions.cuptiSubscribe_v2(
                        &mut handle,
                        callback,
                        userdata,
                        (&mut params as *mut SubscriberParams).cast(),
                    )
                };
                let kind =
                    if allow_multiple { SubscriptionKind::Shared } else { SubscriptionKind::Exclusive };
                match r.map(ResultCode::from) {
                    Ok(ResultCode::SUCCESS) => return Ok((handle as usize, kind)),
                    // Sharing refused: CUPTI 13.2 refuses it for the rest of the process once a
                    // `cuptiSubscribe` subscription has existed, even after it was given back
                    // (seen on an H200 with the 13.2.86 wheel); the process's only subscription
                    // may still be free.
                    Ok(ResultCode::MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) if allow_multiple => continue,
                    Ok(ResultCode::MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) => {
                        // SAFETY: CUPTI wrote a NUL-terminated name into `holder`, or nothing.
                        let name = unsafe { CStr::from_ptr(holder.as_ptr()) }.to_string_lossy().into_owned();
                        return Err(Error::MultipleSubscribers {
                            function: "cuptiSubscribe_v2",
                            holder: (!name.is_empty()).then_some(name),
                        });
                    }
                    // Not offered by this build: try the next form.
                    Ok(ResultCode::API_NOT_IMPLEMENTED) | Ok(ResultCode::INVALID_PARAMETER) | Err(_) => {
                        continue
                    }
                    Ok(code) => return Err(self.error("cuptiSubscribe_v2", code)),
                }
            }
        }
        let mut handle: CUpti_SubscriberHandle = std::ptr::null_mut();
        // SAFETY: as above.
        let r = unsafe { self.functions.cuptiSubscribe(&mut handle, callback, userdata) };
        check(&self.functions, "cuptiSubscribe", r)?;
        Ok((handle as usize, SubscriptionKind::Exclusive))
    }
}

impl Vendor for CuptiVendor {
    type Error = Error;
    type Entry = RawCallback;
    /// CUPTI 13.0 was seen (on an H200, driver 580) to crash other threads' CUDA calls when a
    /// subscription is dropped while they run: it is given back only by
    /// [`Cupti::release_subscription`].
    const KEEPS_SUBSCRIPTION: bool = true;

    fn subscribe(&self, entry: RawCallback, userdata: *mut c_void) -> Result<usize> {
        let (handle, kind) = self.subscribe_with(Some(entry), userdata)?;
        *lock(&self.kind) = Some(kind);
        Ok(handle)
    }

    fn unsubscribe(&self, handle: usize) -> Result<()> {
        *lock(&self.kind) = None;
        // SAFETY: `handle` is the live subscription this switchboard made; the caller of
        // `release_subscription` guarantees no CUDA call is in flight.
        let r = unsafe { self.functions.cuptiUnsubscribe(handle as CUpti_SubscriberHandle) };
        check(&self.functions, "cuptiUnsubscribe", r)
    }

    /// CUPTI answers `CUPTI_ERROR_INVALID_PARAMETER` for a handle that is not one of its
    /// subscribers (a test's mock `libcupti` reset since), asked about the driver API's first id
    /// (`cuInit`); any other answer, or a library without the function, keeps the subscription.
    fn holds(&self, handle: usize) -> bool {
        let mut enabled = 0u32;
        // SAFETY: a valid out-pointer and plain values; `handle` is the subscription this
        // switchboard made (CUPTI validates it).
        let r = unsafe {
            self.functions.cuptiGetCallbackState(
                &mut enabled,
                handle as CUpti_SubscriberHandle,
                CUpti_CallbackDomain::CUPTI_CB_DOMAIN_DRIVER_API,
                1,
            )
        };
        !matches!(r.map(ResultCode::from), Ok(ResultCode::INVALID_PARAMETER))
    }

    fn enable_domain(&self, handle: usize, domain: u32, on: bool) -> Result<()> {
        // SAFETY: plain values; `handle` is this switchboard's live subscription.
        let r = unsafe {
            self.functions.cuptiEnableDomain(u32::from(on), handle as CUpti_SubscriberHandle, Domain(domain))
        };
        check(&self.functions, "cuptiEnableDomain", r)
    }

    fn enable_id(&self, handle: usize, domain: u32, cbid: u32, on: bool) -> Result<()> {
        // SAFETY: plain values; `handle` is this switchboard's live subscription.
        let r = unsafe {
            self.functions.cuptiEnableCallback(
                u32::from(on),
                handle as CUpti_SubscriberHandle,
                Domain(domain),
                cbid,
            )
        };
        check(&self.functions, "cuptiEnableCallback", r)
    }

    fn out_of_range(&self, target: Target) -> Error {
        let function = match target {
            Target::Domain(_) => "cuptiEnableDomain",
            Target::Id(..) => "cuptiEnableCallback",
        };
        Error::InvalidParameter { function }
    }

    fn anchoring(&self, anchor: &Handler<Self>) {
        self.fast.anchor(anchor);
    }

    fn sharing(&self) {
        // The anchor's fast path must no longer take whatever CUPTI delivers as its own.
        self.fast.clear();
    }

    fn publishing(&self, next: &Routes<Self>) {
        // The fast path stops serving before a table routing anyone else is published...
        if next.anchor_ids().is_none() {
            self.fast.clear();
        }
    }

    fn published(&self, now: &Routes<Self>, own: bool) {
        // ...and serves the anchor's ids only once a table routing the anchor alone is.
        if let Some(ids) = now.anchor_ids() {
            self.fast.serve(ids, own, now.generation());
        }
    }

    fn unanchored(&self) {
        self.fast.clear();
    }
}
