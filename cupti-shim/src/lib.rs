//! `libcupti_shim.so`: lets two CUPTI clients share one process on releases with one subscriber
//! and one pair of activity buffer callbacks per process. Preloaded (`LD_PRELOAD`), it defines the
//! process-wide CUPTI calls, makes one real subscription and one real buffer registration with the
//! `libcupti` the program mapped, and fans every callback and every completed buffer out to each
//! client, in that client's own buffers, filtered to what it enabled. Everything it does not define
//! is the real library's. The design, and what a client sees differently: `docs/CUPTI-SHARING.md`.
//!
//! Clients: slot 0 is every caller of the exported symbols (Kineto binds them through its PLT);
//! a library that knows the shim takes a slot of its own with [`accelprof_cupti_shim_client`] and
//! resolves its CUPTI functions with [`accelprof_cupti_shim_symbol`] (`cupti-sys` does, so the
//! `cupti` crate is such a client).
//!
//! Every `extern "C"` entry catches panics (none unwinds into C).

#![allow(non_snake_case)]
// The exported functions are CUPTI's (their safety contract is the C API's documentation).
#![allow(clippy::missing_safety_doc)]

mod activity;
mod callbacks;
mod clock;
mod real;

use std::ffi::{c_char, c_int, c_void, CStr};
use std::panic::catch_unwind;
use std::sync::Mutex;

use cupti_sys::{CUcontext, CUpti_CallbackDomain, CUpti_SubscriberHandle};

use crate::real::{real, CompleteFn, RequestFn, TimestampFn};

const SUCCESS: u32 = 0;
const INVALID_PARAMETER: u32 = 1;
const INVALID_OPERATION: u32 = 7;
const NOT_INITIALIZED: u32 = 15;
const INVALID_KIND: u32 = 22;
const MULTIPLE_SUBSCRIBERS: u32 = 39;
const UNKNOWN: u32 = 999;

/// Runs `f`, answering `CUPTI_ERROR_UNKNOWN` if it panicked.
fn guard(f: impl FnOnce() -> u32) -> u32 {
    catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(UNKNOWN)
}

type SubscriberCallback = unsafe extern "C" fn(*mut c_void, CUpti_CallbackDomain, u32, *const c_void);

/// The functions bound to activity slot `S`.
mod bound {
    use super::*;

    pub unsafe extern "C" fn subscribe<const S: usize>(
        out: *mut CUpti_SubscriberHandle,
        callback: Option<SubscriberCallback>,
        userdata: *mut c_void,
    ) -> u32 {
        guard(|| callbacks::subscribe(S, out, callback, userdata))
    }
    /// `cuptiSubscribe_v2`: a plain subscription (the shim shares anyway); the params are not read.
    pub unsafe extern "C" fn subscribe_v2<const S: usize>(
        out: *mut CUpti_SubscriberHandle,
        callback: Option<SubscriberCallback>,
        userdata: *mut c_void,
        _params: *mut c_void,
    ) -> u32 {
        guard(|| callbacks::subscribe(S, out, callback, userdata))
    }
    pub extern "C" fn register<const S: usize>(
        request: Option<RequestFn>,
        complete: Option<CompleteFn>,
    ) -> u32 {
        guard(|| activity::register(S, request, complete))
    }
    pub extern "C" fn enable<const S: usize>(kind: u32) -> u32 {
        guard(|| activity::set_kind(S, kind, true, None))
    }
    pub extern "C" fn disable<const S: usize>(kind: u32) -> u32 {
        guard(|| activity::set_kind(S, kind, false, None))
    }
    pub extern "C" fn enable_context<const S: usize>(context: CUcontext, kind: u32) -> u32 {
        guard(|| activity::set_kind(S, kind, true, Some(context)))
    }
    pub extern "C" fn disable_context<const S: usize>(context: CUcontext, kind: u32) -> u32 {
        guard(|| activity::set_kind(S, kind, false, Some(context)))
    }
    pub extern "C" fn runtime_api<const S: usize>(cbid: u32, on: u8) -> u32 {
        guard(|| activity::set_api(S, false, cbid, on != 0))
    }
    pub extern "C" fn driver_api<const S: usize>(cbid: u32, on: u8) -> u32 {
        guard(|| activity::set_api(S, true, cbid, on != 0))
    }
    pub extern "C" fn flush_all<const S: usize>(flag: u32) -> u32 {
        guard(|| activity::flush(S, flag))
    }
    pub extern "C" fn flush_period<const S: usize>(ms: u32) -> u32 {
        guard(|| activity::flush_period(S, ms))
    }
    pub unsafe extern "C" fn dropped<const S: usize>(
        context: CUcontext,
        stream: u32,
        out: *mut usize,
    ) -> u32 {
        guard(|| activity::dropped(S, context, stream, out))
    }
    pub extern "C" fn finalize<const S: usize>() -> u32 {
        guard(|| super::finalize(S))
    }
}

/// `cuptiFinalize` for slot `slot`: only that slot's state while another client is live.
fn finalize(slot: usize) -> u32 {
    let Some(real) = real() else { return NOT_INITIALIZED };
    if activity::others_active(slot) || callbacks::others_live(slot) {
        callbacks::release_owner(slot);
        return activity::release(slot);
    }
    let Some(f) = real.finalize else { return NOT_INITIALIZED };
    // SAFETY: a plain call; nobody else uses CUPTI through the shim.
    let r = unsafe { f() };
    if r == SUCCESS {
        callbacks::forget_real();
        activity::forget_real();
        clock::forget_real();
    }
    r
}

// The process-wide symbols: slot 0.

#[no_mangle]
pub unsafe extern "C" fn cuptiSubscribe(
    out: *mut CUpti_SubscriberHandle,
    callback: Option<SubscriberCallback>,
    userdata: *mut c_void,
) -> u32 {
    // SAFETY: the caller's contract, passed on.
    unsafe { bound::subscribe::<0>(out, callback, userdata) }
}
#[no_mangle]
pub unsafe extern "C" fn cuptiSubscribe_v2(
    out: *mut CUpti_SubscriberHandle,
    callback: Option<SubscriberCallback>,
    userdata: *mut c_void,
    params: *mut c_void,
) -> u32 {
    // SAFETY: the caller's contract, passed on.
    unsafe { bound::subscribe_v2::<0>(out, callback, userdata, params) }
}
#[no_mangle]
pub extern "C" fn cuptiUnsubscribe(handle: CUpti_SubscriberHandle) -> u32 {
    guard(|| callbacks::unsubscribe(handle))
}
#[no_mangle]
pub extern "C" fn cuptiEnableCallback(
    enable: u32,
    handle: CUpti_SubscriberHandle,
    domain: u32,
    cbid: u32,
) -> u32 {
    guard(|| callbacks::enable_callback(enable, handle, domain, cbid))
}
#[no_mangle]
pub extern "C" fn cuptiEnableDomain(enable: u32, handle: CUpti_SubscriberHandle, domain: u32) -> u32 {
    guard(|| callbacks::enable_domain(enable, handle, domain))
}
#[no_mangle]
pub extern "C" fn cuptiEnableAllDomains(enable: u32, handle: CUpti_SubscriberHandle) -> u32 {
    guard(|| callbacks::enable_all_domains(enable, handle))
}
#[no_mangle]
pub unsafe extern "C" fn cuptiGetCallbackState(
    out: *mut u32,
    handle: CUpti_SubscriberHandle,
    domain: u32,
    cbid: u32,
) -> u32 {
    guard(|| callbacks::get_state(out, handle, domain, cbid))
}
#[no_mangle]
pub extern "C" fn cuptiActivityRegisterCallbacks(
    request: Option<RequestFn>,
    complete: Option<CompleteFn>,
) -> u32 {
    bound::register::<0>(request, complete)
}
#[no_mangle]
pub extern "C" fn cuptiActivityEnable(kind: u32) -> u32 {
    bound::enable::<0>(kind)
}
#[no_mangle]
pub extern "C" fn cuptiActivityDisable(kind: u32) -> u32 {
    bound::disable::<0>(kind)
}
#[no_mangle]
pub extern "C" fn cuptiActivityEnableContext(context: CUcontext, kind: u32) -> u32 {
    bound::enable_context::<0>(context, kind)
}
#[no_mangle]
pub extern "C" fn cuptiActivityDisableContext(context: CUcontext, kind: u32) -> u32 {
    bound::disable_context::<0>(context, kind)
}
#[no_mangle]
pub extern "C" fn cuptiActivityEnableRuntimeApi(cbid: u32, on: u8) -> u32 {
    bound::runtime_api::<0>(cbid, on)
}
#[no_mangle]
pub extern "C" fn cuptiActivityEnableDriverApi(cbid: u32, on: u8) -> u32 {
    bound::driver_api::<0>(cbid, on)
}
#[no_mangle]
pub extern "C" fn cuptiActivityFlushAll(flag: u32) -> u32 {
    bound::flush_all::<0>(flag)
}
#[no_mangle]
pub extern "C" fn cuptiActivityFlushPeriod(ms: u32) -> u32 {
    bound::flush_period::<0>(ms)
}
#[no_mangle]
pub unsafe extern "C" fn cuptiActivityGetNumDroppedRecords(
    context: CUcontext,
    stream: u32,
    out: *mut usize,
) -> u32 {
    // SAFETY: the caller's contract, passed on.
    unsafe { bound::dropped::<0>(context, stream, out) }
}
#[no_mangle]
pub extern "C" fn cuptiFinalize() -> u32 {
    bound::finalize::<0>()
}

/// Forwarded to the real library (the caller's clock becomes the clock of the records CUPTI writes,
/// process-wide, as without the shim) and remembered: the cooperative slots' records are mapped back
/// to CLOCK_REALTIME (`docs/CUPTI-SHARING.md`, "The record clock").
#[no_mangle]
pub extern "C" fn cuptiActivityRegisterTimestampCallback(cb: Option<TimestampFn>) -> u32 {
    guard(|| clock::register(cb))
}

/// Marks the shim present (`dlsym(RTLD_DEFAULT, "accelprof_cupti_shim_marker")`); its value is the
/// version of the cooperative-client interface.
#[no_mangle]
pub static accelprof_cupti_shim_marker: u32 = 1;

/// Names of the cooperative slots handed out (slot 0 is the global one).
static CLIENTS: Mutex<[Option<String>; activity::SLOTS]> = Mutex::new([const { None }; activity::SLOTS]);

/// A slot for a cooperative client named `name` (the same name gets the same slot); -1 when none is
/// free or `name` is NULL.
#[no_mangle]
pub unsafe extern "C" fn accelprof_cupti_shim_client(name: *const c_char) -> c_int {
    if name.is_null() {
        return -1;
    }
    catch_unwind(|| {
        // SAFETY: the caller passes a NUL-terminated string.
        let name = unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned();
        let mut clients = CLIENTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = clients.iter().skip(1).position(|c| c.as_deref() == Some(&name)) {
            return i as c_int + 1;
        }
        match clients.iter().skip(1).position(Option::is_none) {
            Some(i) => {
                clients[i + 1] = Some(name);
                i as c_int + 1
            }
            None => -1,
        }
    })
    .unwrap_or(-1)
}

macro_rules! per_slot {
    ($slot:expr, $f:ident) => {
        match $slot {
            0 => bound::$f::<0> as *mut c_void,
            1 => bound::$f::<1> as *mut c_void,
            2 => bound::$f::<2> as *mut c_void,
            _ => bound::$f::<3> as *mut c_void,
        }
    };
}

/// The function `name` for slot `slot`: the shim's own for the calls it shares, NULL for the calls
/// a client of the shim must not use (`cuptiSubscribe_v2` and the V2 activity functions), the real
/// library's otherwise (NULL when it lacks it, or no libcupti is mapped).
#[no_mangle]
pub unsafe extern "C" fn accelprof_cupti_shim_symbol(slot: c_int, name: *const c_char) -> *mut c_void {
    if name.is_null() || slot < 0 || slot as usize >= activity::SLOTS {
        return std::ptr::null_mut();
    }
    catch_unwind(|| {
        // SAFETY: the caller passes a NUL-terminated string.
        let cname = unsafe { CStr::from_ptr(name) };
        let s = slot as usize;
        let Ok(text) = cname.to_str() else { return std::ptr::null_mut() };
        match text {
            "cuptiSubscribe" => per_slot!(s, subscribe),
            "cuptiActivityRegisterCallbacks" => per_slot!(s, register),
            "cuptiActivityEnable" => per_slot!(s, enable),
            "cuptiActivityDisable" => per_slot!(s, disable),
            "cuptiActivityEnableContext" => per_slot!(s, enable_context),
            "cuptiActivityDisableContext" => per_slot!(s, disable_context),
            "cuptiActivityEnableRuntimeApi" => per_slot!(s, runtime_api),
            "cuptiActivityEnableDriverApi" => per_slot!(s, driver_api),
            "cuptiActivityFlushAll" => per_slot!(s, flush_all),
            "cuptiActivityFlushPeriod" => per_slot!(s, flush_period),
            "cuptiActivityGetNumDroppedRecords" => per_slot!(s, dropped),
            "cuptiFinalize" => per_slot!(s, finalize),
            "cuptiUnsubscribe" => cuptiUnsubscribe as *mut c_void,
            "cuptiEnableCallback" => cuptiEnableCallback as *mut c_void,
            "cuptiEnableDomain" => cuptiEnableDomain as *mut c_void,
            "cuptiEnableAllDomains" => cuptiEnableAllDomains as *mut c_void,
            "cuptiGetCallbackState" => cuptiGetCallbackState as *mut c_void,
            "cuptiActivityRegisterTimestampCallback" => cuptiActivityRegisterTimestampCallback as *mut c_void,
            "cuptiSubscribe_v2" => std::ptr::null_mut(),
            t if t.starts_with("cuptiActivity") && t.ends_with("_v2") => std::ptr::null_mut(),
            _ => real().map_or(std::ptr::null_mut(), |r| r.symbol(cname)),
        }
    })
    .unwrap_or(std::ptr::null_mut())
}

/// Whether slot `slot` has buffer callbacks registered (1) or not (0): for tests and diagnostics.
#[no_mangle]
pub extern "C" fn accelprof_cupti_shim_registered(slot: c_int) -> c_int {
    if slot < 0 || slot as usize >= activity::SLOTS {
        return 0;
    }
    catch_unwind(|| c_int::from(activity::registered(slot as usize))).unwrap_or(0)
}

/// Records slot `slot` received with a foreign record clock set (a client's
/// `cuptiActivityRegisterTimestampCallback`) that the shim could not map back to CLOCK_REALTIME (a kind
/// or CUPTI version whose layout it does not know): delivered as CUPTI wrote them, and counted here.
/// Always 0 for slot 0 (its records are never converted); 0 for a slot out of range.
#[no_mangle]
pub extern "C" fn accelprof_cupti_shim_unconverted(slot: c_int) -> u64 {
    if slot < 0 || slot as usize >= activity::SLOTS {
        return 0;
    }
    catch_unwind(|| clock::unconverted(slot as usize)).unwrap_or(0)
}

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
