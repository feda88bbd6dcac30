//! Which of CUPTI's activity APIs a session uses, and the calls it makes through it.
//!
//! - [`Api::Global`]: the process-wide (V1) functions, `cuptiActivityEnable` and the like, with
//!   CUPTI's fixed record layouts. Every CUPTI before 13.3 works this way.
//! - [`Api::Subscriber`]: a subscriber of the session's own, `cuptiSubscribe_v2` allowing other
//!   subscribers, reached through the V2 functions (`cuptiActivityEnable_v2`, ...), with user-defined
//!   records holding the selected fields only. CUPTI 13.3 and later: another tool (a framework's
//!   profiler, a monitoring agent) can trace the same process with its own subscriber. CUPTI refuses to
//!   mix V1 and V2 activity calls in one process, so everything of such a session goes through the V2
//!   functions (its timestamps and external correlation ids too).
//!
//! What is enabled is a property of this side's configuration: the kinds, the [`ApiFilter`] and the
//! [`FieldSelection`].

use std::ffi::{c_int, c_void};
use std::mem::{offset_of, size_of};
use std::path::PathBuf;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Mutex;

use cupti_sys::v13_5 as sys13;
use cupti_sys::{
    CUptiResult, CUpti_ActivityAttribute, CUpti_ActivityKind, CUpti_ActivityThreadIdType,
    CUpti_SubscriberHandle, CUpti_Subscriber_st,
};

use super::filter::CbidFilter;
use super::{buffers, ActivityKind, ActivityKinds, ApiFilter, FieldSelection};
use crate::ids::{DriverCbid, RuntimeCbid};
use crate::{Cupti, Error, Result};

/// First `cuptiGetVersion` with production user-defined records and multiple subscribers (13.3).
pub const VERSION_13_3: u32 = 130_300;
/// First `cuptiGetVersion` whose `CUpti_ActivityConfig` takes per-cbid options (13.4).
pub const VERSION_13_4: u32 = 130_400;
/// First `cuptiGetVersion` of the 13.5 headers (its callback ids).
const VERSION_13_5: u32 = 130_500;

/// Which activity API a session uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ActivityApi {
    /// The V2 API with user-defined records when the library supports them (13.3 and later; 13.4 when
    /// API calls are filtered, since 13.3 does not filter them under user-defined records) and every
    /// kind collected is one the decoder reads as user-defined records
    /// ([`is_user_defined_decodable`](super::is_user_defined_decodable)); otherwise, or when CUPTI refuses
    /// the V2 subscriber, the V1 API.
    #[default]
    Auto,
    /// Always the process-wide V1 functions and fixed record layouts.
    V1,
    /// The V2 API with user-defined records, or an error when it cannot be used.
    V2,
}

/// A CUPTI subscriber handle (an opaque pointer CUPTI owns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Subscriber(pub(crate) CUpti_SubscriberHandle);

// SAFETY: the handle is an opaque token CUPTI accepts from any thread; we never dereference it.
unsafe impl Send for Subscriber {}
// SAFETY: as above.
unsafe impl Sync for Subscriber {}

/// The session's side of CUPTI's activity API (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Api {
    Global,
    Subscriber(Subscriber),
}

/// The subscriber of a live V2 session (null when none): [`Cupti::timestamp`] and external correlation
/// go through the V2 functions while one is live, since CUPTI refuses the V1 ones then.
static LIVE_SUBSCRIBER: AtomicPtr<CUpti_Subscriber_st> = AtomicPtr::new(ptr::null_mut());

/// Activity subscribers made so far, one per library file, kept for the life of the process:
/// `cuptiUnsubscribe` while other threads make CUDA calls crashes CUPTI 13.0 and 13.2, and a later session
/// reuses it (its user-defined-record mode and buffer callbacks are set once, before any kind is enabled).
static SUBSCRIBERS: Mutex<Vec<(PathBuf, Subscriber)>> = Mutex::new(Vec::new());

/// The name our activity subscriber gives CUPTI (shown to other tools that are refused).
const SUBSCRIBER_NAME: &std::ffi::CStr = c"accel-profiling activity session";

/// The live V2 session's subscriber, if any.
pub(crate) fn live_subscriber() -> Option<Subscriber> {
    let p = LIVE_SUBSCRIBER.load(Ordering::Acquire);
    (!p.is_null()).then_some(Subscriber(p))
}

/// Whether a session collecting `kinds` with `filter` can use user-defined records on library `version`.
pub(crate) fn user_defined_possible(version: u32, kinds: ActivityKinds, filter: &ApiFilter) -> bool {
    let filtered = (kinds.contains(ActivityKind::RUNTIME) && !filter.runtime.is_all())
        || (kinds.contains(ActivityKind::DRIVER) && !filter.driver.is_all());
    version >= VERSION_13_3
        && !cupti_sys::is_api_version_12(version)
        && (!filtered || version >= VERSION_13_4)
        && kinds.iter().all(super::is_user_defined_decodable)
}

impl Api {
    /// The API a session with `api`, `kinds` and `filter` uses on `cupti`; the reason V1 was taken
    /// under [`ActivityApi::Auto`] comes with it.
    pub(crate) fn choose(
        cupti: &Cupti,
        api: ActivityApi,
        kinds: ActivityKinds,
        filter: &ApiFilter,
    ) -> Result<(Api, Option<String>)> {
        let possible = user_defined_possible(cupti.api_version(), kinds, filter);
        match api {
            ActivityApi::V1 => Ok((Api::Global, None)),
            ActivityApi::V2 if !possible => Err(Error::NotSupported {
                function: "cuptiActivityEnable_v2 (user-defined records need CUPTI 13.3, 13.4 with an API \
                           filter, and kinds the decoder reads as user-defined records)",
            }),
            ActivityApi::V2 => Ok((Api::Subscriber(obtain_subscriber(cupti)?), None)),
            ActivityApi::Auto if !possible => Ok((Api::Global, None)),
            ActivityApi::Auto => match obtain_subscriber(cupti) {
                Ok(sub) => Ok((Api::Subscriber(sub), None)),
                Err(e) => Ok((Api::Global, Some(format!("the V2 activity API was refused ({e}); V1 used")))),
            },
        }
    }

    /// Whether records come as user-defined records.
    pub(crate) fn user_defined(self) -> bool {
        matches!(self, Api::Subscriber(_))
    }

    /// Marks this API's subscriber as the live one (or none).
    pub(crate) fn set_live(self, live: bool) {
        let p = match (self, live) {
            (Api::Subscriber(s), true) => s.0,
            _ => ptr::null_mut(),
        };
        LIVE_SUBSCRIBER.store(p, Ordering::Release);
    }

    /// Registers the buffer callbacks (V1; a V2 subscriber has its own since it was made).
    pub(crate) fn register_callbacks(self, cupti: &Cupti) -> Result<()> {
        match self {
            // SAFETY: the trampolines have the exact C signatures CUPTI expects and never unwind.
            Api::Global => cupti.check("cuptiActivityRegisterCallbacks", unsafe {
                cupti.functions().cuptiActivityRegisterCallbacks(
                    Some(buffers::buffer_requested),
                    Some(buffers::buffer_completed),
                )
            }),
            Api::Subscriber(_) => Ok(()),
        }
    }

    /// API records carry `gettid` thread ids (`CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM`).
    pub(crate) fn use_system_thread_ids(self, cupti: &Cupti) -> Result<()> {
        let system = CUpti_ActivityThreadIdType(1);
        match self {
            Api::Global => {
                // SAFETY: a plain call.
                let r = unsafe { cupti.functions().cuptiSetThreadIdType(system) };
                cupti.check("cuptiSetThreadIdType", r)
            }
            Api::Subscriber(s) => {
                set_attribute(cupti, s, sys13::CUPTI_ACTIVITY_ATTR_THREAD_ID_TYPE, system.0)
            }
        }
    }

    /// Device timestamps on CUDA event records (13.0 and later; ignored where unsupported).
    pub(crate) fn enable_cuda_event_device_timestamps(self, cupti: &Cupti) {
        match self {
            Api::Global => {
                // SAFETY: a plain call.
                let _ = unsafe { cupti.functions().cuptiActivityEnableCudaEventDeviceTimestamps(1) };
            }
            Api::Subscriber(s) => {
                let _ = set_attribute(
                    cupti,
                    s,
                    sys13::CUPTI_ACTIVITY_ATTR_ENABLE_CUDA_EVENT_DEVICE_TIMESTAMPS,
                    1u8,
                );
            }
        }
    }

    /// Enables `kind`: with `filter` for RUNTIME and DRIVER, with the fields of `fields` for user-defined
    /// records. On error nothing of it stays enabled.
    pub(crate) fn enable(
        self,
        cupti: &Cupti,
        kind: ActivityKind,
        filter: &ApiFilter,
        fields: &FieldSelection,
    ) -> Result<()> {
        match self {
            Api::Global => {
                // SAFETY: a plain call.
                let r = unsafe { cupti.functions().cuptiActivityEnable(CUpti_ActivityKind(kind.0)) };
                cupti.check("cuptiActivityEnable", r)?;
                let only = |f: bool| if f { Strictness::Tolerant } else { Strictness::Strict };
                let result = match kind {
                    ActivityKind::RUNTIME => deny(
                        cupti,
                        &denied_runtime(cupti.api_version(), &filter.runtime),
                        Domain::Runtime,
                        only(matches!(filter.runtime, CbidFilter::Only(_))),
                    ),
                    ActivityKind::DRIVER => deny(
                        cupti,
                        &denied_driver(cupti.api_version(), &filter.driver),
                        Domain::Driver,
                        only(matches!(filter.driver, CbidFilter::Only(_))),
                    ),
                    _ => Ok(()),
                };
                if result.is_err() {
                    let _ = self.disable(cupti, kind);
                }
                result
            }
            Api::Subscriber(s) => enable_v2(cupti, s, kind, filter, fields),
        }
    }

    /// Disables `kind`.
    pub(crate) fn disable(self, cupti: &Cupti, kind: ActivityKind) -> Result<()> {
        match self {
            Api::Global => {
                // SAFETY: a plain call.
                let r = unsafe { cupti.functions().cuptiActivityDisable(CUpti_ActivityKind(kind.0)) };
                cupti.check("cuptiActivityDisable", r)
            }
            Api::Subscriber(s) => {
                // SAFETY: a valid subscriber; a NULL config is allowed.
                let r = unsafe {
                    cupti.functions().cuptiActivityDisable_v2(
                        s.0,
                        CUpti_ActivityKind(kind.0),
                        ptr::null_mut(),
                    )
                };
                cupti.check("cuptiActivityDisable_v2", r)
            }
        }
    }

    /// CUPTI's count of records dropped since the last read (it resets on read).
    pub(crate) fn take_dropped(self, functions: &cupti_sys::CuptiFunctions) -> u64 {
        let mut dropped = 0usize;
        // SAFETY: a NULL context asks for the global queue (reserved under V2); `dropped` is a valid
        // out-pointer; a valid subscriber.
        let r = unsafe {
            match self {
                Api::Global => functions.cuptiActivityGetNumDroppedRecords(ptr::null_mut(), 0, &mut dropped),
                Api::Subscriber(s) => {
                    functions.cuptiActivityGetNumDroppedRecords_v2(s.0, ptr::null_mut(), 0, &mut dropped)
                }
            }
        };
        if r == Ok(CUptiResult::CUPTI_SUCCESS) {
            dropped as u64
        } else {
            0
        }
    }
}

/// The V2 subscriber of `cupti`'s library, made on first use: `cuptiSubscribe_v2` allowing other
/// subscribers, user-defined records on, our buffer callbacks registered.
fn obtain_subscriber(cupti: &Cupti) -> Result<Subscriber> {
    let mut made = SUBSCRIBERS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(at) = made.iter().position(|(p, _)| p == cupti.path()) {
        let sub = made[at].1;
        // Still ours, with user-defined records on? (Another tool's `cuptiFinalize` ends every
        // subscription.) Otherwise make a new one.
        if user_defined_on(cupti, sub) {
            return Ok(sub);
        }
        made.swap_remove(at);
    }
    let mut params = sys13::CUpti_SubscriberParams {
        structSize: size_of::<sys13::CUpti_SubscriberParams>(),
        subscriberName: SUBSCRIBER_NAME.as_ptr(),
        oldSubscriberName: ptr::null_mut(),
        oldSubscriberSize: 0,
        allowMultipleSubscribers: 1,
        padding: [0; 7],
    };
    let mut handle: CUpti_SubscriberHandle = ptr::null_mut();
    // SAFETY: valid out-pointer; `params` is the 13.x params struct, its size in `structSize`; no callback
    // (the activity API needs none), so no user data.
    let r = unsafe {
        cupti.functions().cuptiSubscribe_v2(
            &mut handle,
            None,
            ptr::null_mut(),
            (&mut params as *mut sys13::CUpti_SubscriberParams).cast(),
        )
    };
    cupti.check("cuptiSubscribe_v2", r)?;
    let sub = Subscriber(handle);
    let setup =
        set_attribute(cupti, sub, sys13::CUPTI_ACTIVITY_ATTR_USER_DEFINED_RECORDS, 1u8).and_then(|()| {
            // SAFETY: the trampolines have the exact C signatures CUPTI expects and never unwind.
            let r = unsafe {
                cupti.functions().cuptiActivityRegisterCallbacks_v2(
                    handle,
                    Some(buffers::buffer_requested_v2),
                    Some(buffers::buffer_completed_v2),
                )
            };
            cupti.check("cuptiActivityRegisterCallbacks_v2", r)
        });
    if let Err(e) = setup {
        // Nothing was enabled on it and no thread uses it yet: releasing it now is safe.
        // SAFETY: the handle was just made and is used nowhere else.
        let _ = unsafe { cupti.functions().cuptiUnsubscribe(handle) };
        return Err(e);
    }
    made.push((cupti.path().to_owned(), sub));
    Ok(sub)
}

/// Whether `sub` is a live subscriber with user-defined records on.
fn user_defined_on(cupti: &Cupti, sub: Subscriber) -> bool {
    let (mut on, mut size) = (0u8, 1usize);
    // SAFETY: `on` is `size` writable bytes for the call; CUPTI checks the handle.
    let r = unsafe {
        cupti.functions().cuptiActivityGetAttribute_v2(
            sub.0,
            sys13::CUPTI_ACTIVITY_ATTR_USER_DEFINED_RECORDS,
            &mut size,
            (&mut on as *mut u8).cast(),
        )
    };
    r == Ok(CUptiResult::CUPTI_SUCCESS) && on == 1
}

/// `cuptiActivitySetAttribute_v2(sub, attr, value)`.
fn set_attribute<T: Copy>(
    cupti: &Cupti,
    sub: Subscriber,
    attr: CUpti_ActivityAttribute,
    value: T,
) -> Result<()> {
    let mut value = value;
    let mut size = size_of::<T>();
    // SAFETY: `value` is `size` readable bytes for the call; a valid subscriber.
    let r = unsafe {
        cupti.functions().cuptiActivitySetAttribute_v2(
            sub.0,
            attr,
            &mut size,
            (&mut value as *mut T).cast::<c_void>(),
        )
    };
    cupti.check("cuptiActivitySetAttribute_v2", r)
}

/// `cuptiActivityEnable_v2` with the kind's field selection and, for API kinds on 13.4 and later, its
/// allowlist or denylist of callback ids.
fn enable_v2(
    cupti: &Cupti,
    sub: Subscriber,
    kind: ActivityKind,
    filter: &ApiFilter,
    fields: &FieldSelection,
) -> Result<()> {
    let mut ids: Vec<c_int> = fields.fields(kind).into_iter().map(|f| f as c_int).collect();
    let (only, mut cbids): (bool, Vec<u32>) = match kind {
        ActivityKind::RUNTIME => {
            filter_ids(&filter.runtime, |id| id.0, known(cupti.api_version(), Domain::Runtime))
        }
        ActivityKind::DRIVER => {
            filter_ids(&filter.driver, |id| id.0, known(cupti.api_version(), Domain::Driver))
        }
        _ => (false, Vec::new()),
    };
    let filtered = only || !cbids.is_empty();
    let mut cbid_options = sys13::CUpti_ActivityApiCbidOptions {
        structSize: size_of::<sys13::CUpti_ActivityApiCbidOptions>(),
        pCbids: cbids.as_mut_ptr(),
        numCbids: cbids.len(),
        enable: u8::from(only),
    };
    let mut api_options = sys13::CUpti_ActivityApiOptions {
        structSize: size_of::<sys13::CUpti_ActivityApiOptions>(),
        pCbidOptions: &mut cbid_options,
    };
    let with_options = cupti.api_version() >= VERSION_13_4;
    let mut config = sys13::CUpti_ActivityConfig {
        // 13.3's struct ends before `pKindOptions`.
        structSize: if with_options {
            size_of::<sys13::CUpti_ActivityConfig>()
        } else {
            offset_of!(sys13::CUpti_ActivityConfig, pKindOptions)
        },
        fieldSelection: sys13::CUpti_ActivityFieldSelection {
            structSize: size_of::<sys13::CUpti_ActivityFieldSelection>(),
            numFields: ids.len(),
            pFieldIds: ids.as_mut_ptr(),
        },
        pKindOptions: if with_options && filtered {
            (&mut api_options as *mut sys13::CUpti_ActivityApiOptions).cast()
        } else {
            ptr::null_mut()
        },
    };
    if filtered && !with_options {
        // Chosen only when this cannot happen (see `user_defined_possible`).
        return Err(Error::NotSupported {
            function: "cuptiActivityEnable_v2 (per-cbid options need CUPTI 13.4)",
        });
    }
    // SAFETY: `config` and everything it points to (`ids`, `cbids`, the options) live until the call
    // returns; CUPTI copies what it keeps. A valid subscriber.
    let r =
        unsafe { cupti.functions().cuptiActivityEnable_v2(sub.0, CUpti_ActivityKind(kind.0), &mut config) };
    cupti.check("cuptiActivityEnable_v2", r)
}

/// An API domain, for the per-cbid functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Domain {
    Runtime,
    Driver,
}

/// The callback ids `1..size` the library of `version` knows: ids are only ever passed to CUPTI from
/// this range (a 12.x library's, 13.0's for 13.0 to 13.4, 13.5's from 13.5 on).
fn known(version: u32, domain: Domain) -> impl Fn(u32) -> bool {
    let size = match domain {
        Domain::Runtime if cupti_sys::is_api_version_12(version) => {
            cupti_sys::v12::CUPTI_RUNTIME_TRACE_CBID_SIZE.0
        }
        Domain::Runtime if version >= VERSION_13_5 => sys13::CUPTI_RUNTIME_TRACE_CBID_SIZE.0,
        Domain::Runtime => cupti_sys::CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_SIZE.0,
        Domain::Driver if cupti_sys::is_api_version_12(version) => {
            cupti_sys::v12::CUPTI_DRIVER_TRACE_CBID_SIZE.0
        }
        Domain::Driver if version >= VERSION_13_5 => sys13::CUPTI_DRIVER_TRACE_CBID_SIZE.0,
        Domain::Driver => cupti_sys::CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_SIZE.0,
    };
    move |id| (1..size).contains(&id)
}

/// `(only, ids)`: the ids to allow (`only`) or to deny, those the library knows.
fn filter_ids<C: Ord + Copy>(
    filter: &CbidFilter<C>,
    raw: impl Fn(C) -> u32,
    known: impl Fn(u32) -> bool,
) -> (bool, Vec<u32>) {
    match filter {
        CbidFilter::All => (false, Vec::new()),
        CbidFilter::Except(ids) => (false, ids.iter().map(|&i| raw(i)).filter(|&i| known(i)).collect()),
        CbidFilter::Only(ids) => (true, ids.iter().map(|&i| raw(i)).filter(|&i| known(i)).collect()),
    }
}

/// The runtime ids to disable after enabling RUNTIME: the denied ones, or for an allowlist every
/// known id but the allowed.
fn denied_runtime(version: u32, filter: &CbidFilter<RuntimeCbid>) -> Vec<u32> {
    denied(filter_ids(filter, |id| id.0, known(version, Domain::Runtime)), known(version, Domain::Runtime))
}

/// As [`denied_runtime`], for the driver.
fn denied_driver(version: u32, filter: &CbidFilter<DriverCbid>) -> Vec<u32> {
    denied(filter_ids(filter, |id| id.0, known(version, Domain::Driver)), known(version, Domain::Driver))
}

fn denied((only, ids): (bool, Vec<u32>), known: impl Fn(u32) -> bool) -> Vec<u32> {
    if !only {
        return ids;
    }
    (1..u32::from(u16::MAX)).take_while(|&i| known(i)).filter(|i| !ids.contains(i)).collect()
}

/// How [`deny`] takes an id the library refuses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strictness {
    /// Every refusal is an error (ids the caller named).
    Strict,
    /// `CUPTI_ERROR_INVALID_PARAMETER` for one id is passed over (the complement of an allowlist: every
    /// id of the headers, some of which a release may not take); calls of that id then keep their
    /// records, which costs records but loses none. Any other error still is one.
    Tolerant,
}

/// Disables each of `ids` (V1) with `cuptiActivityEnableRuntimeApi` / `cuptiActivityEnableDriverApi`.
fn deny(cupti: &Cupti, ids: &[u32], domain: Domain, strictness: Strictness) -> Result<()> {
    let f = cupti.functions();
    for &id in ids {
        // SAFETY: plain values; `id` is one the library knows (see `known`).
        let (name, r) = unsafe {
            match domain {
                Domain::Runtime => ("cuptiActivityEnableRuntimeApi", f.cuptiActivityEnableRuntimeApi(id, 0)),
                Domain::Driver => ("cuptiActivityEnableDriverApi", f.cuptiActivityEnableDriverApi(id, 0)),
            }
        };
        match cupti.check(name, r) {
            Err(Error::InvalidParameter { .. }) if strictness == Strictness::Tolerant => {}
            other => other?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lists_become_every_other_known_id_denied() {
        let v13 = cupti_sys::CUPTI_API_VERSION;
        let allowed = CbidFilter::only([DriverCbid::cuLaunchKernel, DriverCbid(60_000)]);
        let denied = denied_driver(v13, &allowed);
        let size = cupti_sys::CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_SIZE.0;
        assert_eq!(denied.len() as u32, size - 2, "every id 1..SIZE but cuLaunchKernel");
        assert!(!denied.contains(&DriverCbid::cuLaunchKernel.0) && !denied.contains(&0));
        assert!(denied.iter().all(|&i| i < size), "no id the library does not know");
        let except = CbidFilter::except([RuntimeCbid::cudaGetDevice_v3020, RuntimeCbid(60_000)]);
        assert_eq!(denied_runtime(v13, &except), [RuntimeCbid::cudaGetDevice_v3020.0]);
        // 12.9 knows fewer ids than 13.5.
        let newest = sys13::CUPTI_DRIVER_TRACE_CBID_SIZE.0 - 1;
        assert!(known(VERSION_13_5, Domain::Driver)(newest));
        assert!(!known(cupti_sys::v12::CUPTI_API_VERSION, Domain::Driver)(newest));
    }

    #[test]
    fn user_defined_records_need_13_3_and_decodable_kinds() {
        let timeline = ActivityKinds::timeline();
        assert!(!user_defined_possible(130_001, timeline, &ApiFilter::all()));
        assert!(user_defined_possible(130_301, timeline, &ApiFilter::all()));
        assert!(!user_defined_possible(130_301, timeline, &ApiFilter::timeline()), "13.3 cannot filter them");
        assert!(user_defined_possible(130_401, timeline, &ApiFilter::timeline()));
        assert!(!user_defined_possible(130_500, timeline.with(ActivityKind::MARKER), &ApiFilter::all()));
        assert!(!user_defined_possible(28, timeline, &ApiFilter::all()));
    }
}
