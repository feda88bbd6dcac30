//! Which real library the mock plays, and whether a GPU driver is present.
//!
//! The version decides everything that differs between releases: the number `cuptiGetVersion`
//! reports (12.x: small integers, 12.9 = 28; 13.x: `130001`), the kernel record layout
//! (`CUpti_ActivityKernel9` 208 bytes, `Kernel10` 216, `Kernel11` 224), the record sizes
//! `cuptiActivityGetNextRecord` walks by, the callback-id ranges, whether `cuptiSubscribe_v2`
//! exists (13.0+) and whether it honours `allowMultipleSubscribers` (13.2+).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crate::sys::v12::types as v12;
use crate::sys::{
    CUpti_CallbackIdResource, CUpti_CallbackIdState, CUpti_CallbackIdSync, CUpti_driver_api_trace_cbid_enum,
    CUpti_nvtx_api_trace_cbid, CUpti_runtime_api_trace_cbid_enum,
};

/// `CUPTI_API_VERSION` of the 13.0 headers, and what the 13.0.85 library reports.
pub const DEFAULT_VERSION: u32 = 130001;
/// First release whose `cuptiSubscribe_v2` allows several subscribers, with the V2 activity API and
/// user-defined records in beta.
pub const V13_2: u32 = 130200;
/// Multiple subscribers and user-defined records in production; every call needs the driver, even
/// `cuptiGetVersion` (13.3.75, 13.4.92 and 13.5.25 without one return 999 from every call, as run).
pub const V13_3: u32 = 130300;
/// Per-cbid options in `CUpti_ActivityConfig` (`pKindOptions`).
pub const V13_4: u32 = 130400;
/// The 13.5 headers (their callback ids and `CUpti_ActivityCudaEvent3`).
pub const V13_5: u32 = 130500;

static VERSION: AtomicU32 = AtomicU32::new(DEFAULT_VERSION);
static DRIVER_PRESENT: AtomicBool = AtomicBool::new(true);

/// The version `cuptiGetVersion` reports.
pub fn get() -> u32 {
    VERSION.load(Ordering::Relaxed)
}

pub fn set(version: u32) {
    VERSION.store(version, Ordering::Relaxed);
}

/// 12.x numbered its API versions with small integers; 13.x uses `major*10000 + minor*100 + patch`.
pub fn is_v12() -> bool {
    get() < 10000
}

/// `cuptiSubscribe_v2` is exported from 13.0 on (12.9 lacks the symbol).
pub fn has_subscribe_v2() -> bool {
    !is_v12()
}

/// 13.2 added `allowMultipleSubscribers` to `CUpti_SubscriberParams`.
pub fn allows_multiple_subscribers() -> bool {
    get() >= V13_2
}

/// 13.2.x refuses `allowMultipleSubscribers` once a `cuptiSubscribe` subscription has existed,
/// and `cuptiSubscribe` once a shared one has (13.2.86, probed; 13.5.25 does neither; 13.3 and
/// 13.4 were not probed and are taken to behave as 13.5).
pub fn refuses_sharing_after_legacy() -> bool {
    (V13_2..V13_2 + 100).contains(&get())
}

pub fn driver_present() -> bool {
    DRIVER_PRESENT.load(Ordering::Relaxed)
}

pub fn set_driver_present(present: bool) {
    DRIVER_PRESENT.store(present, Ordering::Relaxed);
}

/// What the real library returns from calls that need the driver when there is none
/// (probed): 13.0 `CUPTI_ERROR_UNKNOWN` (999), 12.9 `CUPTI_ERROR_NOT_INITIALIZED` (15).
pub fn no_driver_error() -> u32 {
    if is_v12() {
        15
    } else {
        999
    }
}

/// Whether a call into the library fails for want of a driver before doing anything else (13.3 and
/// later without a driver: every function, `cuptiGetVersion` and `cuptiGetResultString` included).
pub fn everything_needs_driver() -> bool {
    !driver_present() && get() >= V13_3
}

/// `CUPTI_*_SIZE` of each callback domain for this version (valid cbids are `1..size`);
/// `None` for an invalid domain. 12.9 has fewer driver, runtime and resource ids than 13.0, 13.5 more.
pub fn cbid_limit(domain: u32) -> Option<u32> {
    let old = is_v12();
    if get() >= V13_5 {
        use crate::sys::v13_5::types as v135;
        match domain {
            1 => return Some(v135::CUPTI_DRIVER_TRACE_CBID_SIZE.0),
            2 => return Some(v135::CUPTI_RUNTIME_TRACE_CBID_SIZE.0),
            3 => return Some(v135::CUPTI_CBID_RESOURCE_SIZE.0),
            _ => {}
        }
    }
    Some(match domain {
        1 if old => v12::CUPTI_DRIVER_TRACE_CBID_SIZE.0,
        1 => CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_SIZE.0,
        2 if old => v12::CUPTI_RUNTIME_TRACE_CBID_SIZE.0,
        2 => CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_SIZE.0,
        3 if old => v12::CUPTI_CBID_RESOURCE_SIZE.0,
        3 => CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_SIZE.0,
        4 => CUpti_CallbackIdSync::CUPTI_CBID_SYNCHRONIZE_SIZE.0,
        5 => CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_SIZE.0,
        6 => CUpti_CallbackIdState::CUPTI_CBID_STATE_SIZE.0,
        _ => return None,
    })
}
