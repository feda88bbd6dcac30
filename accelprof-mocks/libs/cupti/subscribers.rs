//! The callback API's subscriber registry: `cuptiSubscribe`, `cuptiSubscribe_v2`,
//! `cuptiUnsubscribe`, `cuptiEnableCallback`, `cuptiEnableDomain`, `cuptiEnableAllDomains`,
//! `cuptiGetCallbackState`, `cuptiSupportedDomains`.
//!
//! Rules (vendor notes and the 13.0/13.2 headers):
//! - One subscriber per process: a second `cuptiSubscribe` returns
//!   `CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED` (39), as does any subscribe while another
//!   tool holds CUPTI (`mock_cupti_set_foreign_subscriber`, e.g. Nsight Systems).
//! - `cuptiSubscribe_v2` (13.0+) takes `CUpti_SubscriberParams`; on 39 it writes the holder's
//!   name to `oldSubscriberName`. Only 13.2+ honours `allowMultipleSubscribers` (a field the
//!   13.0 struct lacks: it is read only when `structSize` covers it): several subscribers then
//!   coexist if every one of them asked for it.
//! - `cuptiSubscribe_v2` before 13.2 refuses a `structSize` larger than its own struct (32
//!   bytes) with `CUPTI_ERROR_INVALID_PARAMETER`, as 13.0.85 does on an H200 for the 40-byte
//!   13.2 struct.
//! - 13.2 (13.2.86 on an H200) refuses `allowMultipleSubscribers` with 39, writing no holder
//!   name, for the rest of the process once a `cuptiSubscribe` subscription has existed, even
//!   after `cuptiUnsubscribe`; `cuptiSubscribe_v2` without it still succeeds. The other way
//!   round too: once a shared subscription has existed, `cuptiSubscribe` returns 39 for good,
//!   while an exclusive `cuptiSubscribe_v2` succeeds. 13.5.25 does neither.
//! - A subscription enables nothing; a new subscriber starts with every callback disabled.
//! - `cuptiUnsubscribe` stops new callbacks to the subscriber; it does not wait for one that is
//!   already running on another thread (callbacks are synchronous on the application threads).
//! - Without a GPU driver, subscribing fails with 999 (13.x) or 15 (12.x), as probed.

use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::Mutex;

use crate::results::{API_NOT_IMPLEMENTED, INVALID_PARAMETER, MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, SUCCESS};
use crate::stats;
use crate::sys::{CUpti_CallbackDomain, CUpti_CallbackFunc, CUpti_SubscriberHandle, CUpti_SubscriberParams};
use crate::version;

/// Handles are made from ids that are never reused, so a stale handle is recognised.
const HANDLE_BASE: usize = 0x5b_0000;
/// `CUPTI_SUBSCRIBER_NAME_MAX_LEN`.
const NAME_MAX_LEN: usize = 53;
/// Byte offset of `allowMultipleSubscribers` in the 13.2 `CUpti_SubscriberParams`.
const ALLOW_MULTIPLE_OFFSET: usize = 32;

/// The callback domains, `CUPTI_CB_DOMAIN_DRIVER_API` (1) to `CUPTI_CB_DOMAIN_STATE` (6).
static DOMAINS: [u32; 6] = [1, 2, 3, 4, 5, 6];

/// One client callback to invoke.
#[derive(Clone, Copy)]
pub struct Target {
    pub subscriber: u64,
    pub callback: unsafe extern "C" fn(*mut c_void, CUpti_CallbackDomain, u32, *const c_void),
    pub userdata: *mut c_void,
}

struct Subscriber {
    id: u64,
    callback: CUpti_CallbackFunc,
    userdata: usize,
    name: Option<CString>,
    allow_multiple: bool,
    /// `enabled[domain][cbid]`, sized by the played version's cbid limits.
    enabled: Vec<Vec<bool>>,
}

impl Subscriber {
    fn enabled_slot(&mut self, domain: u32, cbid: u32) -> Option<&mut bool> {
        self.enabled.get_mut(domain as usize)?.get_mut(cbid as usize)
    }
}

struct Registry {
    subscribers: Vec<Subscriber>,
    next_id: u64,
    /// Another tool holding CUPTI (`mock_cupti_set_foreign_subscriber`).
    foreign: Option<CString>,
    /// A `cuptiSubscribe` subscription has existed (13.2 refuses sharing from then on).
    legacy_seen: bool,
    /// A shared `cuptiSubscribe_v2` subscription has existed (13.2 refuses `cuptiSubscribe`
    /// from then on).
    shared_seen: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    subscribers: Vec::new(),
    next_id: 1,
    foreign: None,
    legacy_seen: false,
    shared_seen: false,
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

fn handle_of(id: u64) -> CUpti_SubscriberHandle {
    (HANDLE_BASE + id as usize * 16) as CUpti_SubscriberHandle
}

fn id_of(handle: CUpti_SubscriberHandle) -> Option<u64> {
    let h = handle as usize;
    (h > HANDLE_BASE && (h - HANDLE_BASE) % 16 == 0).then(|| ((h - HANDLE_BASE) / 16) as u64)
}

fn empty_enable_table() -> Vec<Vec<bool>> {
    (0..=6u32).map(|d| vec![false; version::cbid_limit(d).unwrap_or(0) as usize]).collect()
}

/// The callbacks of one callback site, in subscription order: the first [`Targets::INLINE`] on the
/// stack (a heap allocation per site cost as much as the rest of finding them), any more on the heap.
pub struct Targets {
    inline: [Option<Target>; Targets::INLINE],
    more: Vec<Target>,
}

impl Targets {
    const INLINE: usize = 4;

    pub fn iter(&self) -> impl Iterator<Item = &Target> {
        self.inline.iter().map_while(Option::as_ref).chain(&self.more)
    }
}

/// The callbacks enabled for `(domain, cbid)`, in subscription order.
pub fn targets(domain: u32, cbid: u32) -> Targets {
    let reg = registry();
    let mut out = Targets { inline: [None; Targets::INLINE], more: Vec::new() };
    let enabled = reg.subscribers.iter().filter_map(|s| {
        let on = s.enabled.get(domain as usize)?.get(cbid as usize).copied()?;
        let callback = s.callback?;
        on.then_some(Target { subscriber: s.id, callback, userdata: s.userdata as *mut c_void })
    });
    for (i, target) in enabled.enumerate() {
        match out.inline.get_mut(i) {
            Some(slot) => *slot = Some(target),
            None => out.more.push(target),
        }
    }
    out
}

/// The id of the live subscriber behind `handle`.
pub fn live_id(handle: CUpti_SubscriberHandle) -> Option<u64> {
    let id = id_of(handle)?;
    registry().subscribers.iter().any(|s| s.id == id).then_some(id)
}

/// Whether a subscriber that allows others is live (multiple-subscriber mode).
pub fn shared_live() -> bool {
    registry().subscribers.iter().any(|s| s.allow_multiple)
}

/// Whether any subscriber is live.
pub fn any_live() -> bool {
    !registry().subscribers.is_empty()
}

pub fn count() -> u64 {
    registry().subscribers.len() as u64
}

pub fn set_foreign(name: Option<CString>) {
    registry().foreign = name;
}

/// Forgets that a `cuptiSubscribe` subscription has existed (a new process, as far as 13.2's
/// sharing rule goes).
pub fn forget_history() {
    let mut reg = registry();
    reg.legacy_seen = false;
    reg.shared_seen = false;
}

pub fn reset() {
    let mut reg = registry();
    reg.subscribers.clear();
    reg.foreign = None;
    reg.legacy_seen = false;
    reg.shared_seen = false;
}

/// Writes `name` into the client's `oldSubscriberName` buffer, truncated and NUL-terminated.
///
/// # Safety
/// `dst` is NULL or writable for `size` bytes.
unsafe fn write_name(dst: *mut c_char, size: usize, name: &CStr) {
    if dst.is_null() || size == 0 {
        return;
    }
    let bytes = name.to_bytes();
    let n = bytes.len().min(size - 1);
    // SAFETY: `dst` has room for `size >= n + 1` bytes (caller's contract).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.cast::<u8>(), n);
        *dst.add(n) = 0;
    }
}

/// What a subscribe request asks for.
struct Request {
    callback: CUpti_CallbackFunc,
    userdata: *mut c_void,
    name: Option<CString>,
    allow_multiple: bool,
}

/// Registers a subscriber, or says who is in the way.
fn subscribe(out: *mut CUpti_SubscriberHandle, req: Request) -> Result<(), (u32, Option<CString>)> {
    if out.is_null() {
        return Err((INVALID_PARAMETER, None));
    }
    if !version::driver_present() {
        return Err((version::no_driver_error(), None));
    }
    let mut reg = registry();
    if let Some(foreign) = &reg.foreign {
        return Err((MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, Some(foreign.clone())));
    }
    if let Some(first) = reg.subscribers.first() {
        let all_share = req.allow_multiple && reg.subscribers.iter().all(|s| s.allow_multiple);
        if !all_share {
            let holder = first.name.clone().unwrap_or_default();
            return Err((MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, Some(holder)));
        }
    }
    let id = reg.next_id;
    reg.next_id += 1;
    reg.subscribers.push(Subscriber {
        id,
        callback: req.callback,
        userdata: req.userdata as usize,
        name: req.name,
        allow_multiple: req.allow_multiple,
        enabled: empty_enable_table(),
    });
    // SAFETY: checked non-null above; the caller passes a writable handle slot.
    unsafe { *out = handle_of(id) };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn cuptiSubscribe(
    subscriber: *mut CUpti_SubscriberHandle,
    callback: CUpti_CallbackFunc,
    userdata: *mut c_void,
) -> u32 {
    if version::refuses_sharing_after_legacy() && registry().shared_seen {
        return MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    }
    let req = Request { callback, userdata, name: None, allow_multiple: false };
    match subscribe(subscriber, req) {
        Ok(()) => {
            registry().legacy_seen = true;
            SUCCESS
        }
        Err((code, _)) => code,
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuptiSubscribe_v2(
    subscriber: *mut CUpti_SubscriberHandle,
    callback: CUpti_CallbackFunc,
    userdata: *mut c_void,
    params: *mut CUpti_SubscriberParams,
) -> u32 {
    if !version::has_subscribe_v2() {
        stats::add(&stats::ABSENT_SYMBOL_CALLS, 1);
        return API_NOT_IMPLEMENTED;
    }
    let mut req = Request { callback, userdata, name: None, allow_multiple: false };
    let mut old_name: (*mut c_char, usize) = (std::ptr::null_mut(), 0);
    if !params.is_null() {
        // SAFETY: the caller passes a valid CUpti_SubscriberParams; its first field says how
        // much of it there is, and only fields inside that size are read.
        unsafe {
            let size = (*params).structSize;
            if size < std::mem::size_of::<usize>() {
                return INVALID_PARAMETER;
            }
            if !version::allows_multiple_subscribers() && size > std::mem::size_of::<CUpti_SubscriberParams>()
            {
                return INVALID_PARAMETER;
            }
            if size >= std::mem::size_of::<CUpti_SubscriberParams>() {
                let p = &*params;
                if !p.subscriberName.is_null() {
                    let full = CStr::from_ptr(p.subscriberName).to_bytes();
                    let cut = &full[..full.len().min(NAME_MAX_LEN)];
                    req.name = CString::new(cut).ok();
                }
                old_name = (p.oldSubscriberName, p.oldSubscriberSize);
            }
            if version::allows_multiple_subscribers() && size > ALLOW_MULTIPLE_OFFSET {
                req.allow_multiple = *params.cast::<u8>().add(ALLOW_MULTIPLE_OFFSET) != 0;
            }
        }
    }
    let allow_multiple = req.allow_multiple;
    if allow_multiple && version::refuses_sharing_after_legacy() && registry().legacy_seen {
        return MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    }
    let first_name =
        if allow_multiple { registry().subscribers.first().and_then(|s| s.name.clone()) } else { None };
    match subscribe(subscriber, req) {
        Ok(()) => {
            if allow_multiple {
                registry().shared_seen = true;
            }
            if let Some(first) = first_name {
                // SAFETY: the client's buffer and size from its params.
                unsafe { write_name(old_name.0, old_name.1, &first) };
            }
            SUCCESS
        }
        Err((code, holder)) => {
            if let Some(holder) = holder {
                // SAFETY: as above.
                unsafe { write_name(old_name.0, old_name.1, &holder) };
            }
            code
        }
    }
}

#[no_mangle]
pub extern "C" fn cuptiUnsubscribe(subscriber: CUpti_SubscriberHandle) -> u32 {
    let Some(id) = id_of(subscriber) else { return INVALID_PARAMETER };
    let mut reg = registry();
    let before = reg.subscribers.len();
    reg.subscribers.retain(|s| s.id != id);
    if reg.subscribers.len() == before {
        return INVALID_PARAMETER;
    }
    drop(reg);
    // Its activity stops; buffers it had not been handed are forgotten.
    crate::activity::sinks::release_subscriber(id);
    SUCCESS
}

/// Runs `f` on the subscriber behind `handle`, or returns `INVALID_PARAMETER`.
fn with_subscriber(handle: CUpti_SubscriberHandle, f: impl FnOnce(&mut Subscriber) -> u32) -> u32 {
    let Some(id) = id_of(handle) else { return INVALID_PARAMETER };
    let mut reg = registry();
    match reg.subscribers.iter_mut().find(|s| s.id == id) {
        Some(s) => f(s),
        None => INVALID_PARAMETER,
    }
}

#[no_mangle]
pub extern "C" fn cuptiEnableCallback(
    enable: u32,
    subscriber: CUpti_SubscriberHandle,
    domain: u32,
    cbid: u32,
) -> u32 {
    with_subscriber(subscriber, |s| match s.enabled_slot(domain, cbid) {
        Some(slot) if cbid != 0 => {
            *slot = enable != 0;
            SUCCESS
        }
        _ => INVALID_PARAMETER,
    })
}

#[no_mangle]
pub extern "C" fn cuptiEnableDomain(enable: u32, subscriber: CUpti_SubscriberHandle, domain: u32) -> u32 {
    with_subscriber(subscriber, |s| {
        if !(1..=6).contains(&domain) {
            return INVALID_PARAMETER;
        }
        let ids = &mut s.enabled[domain as usize];
        ids.iter_mut().skip(1).for_each(|e| *e = enable != 0);
        SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cuptiEnableAllDomains(enable: u32, subscriber: CUpti_SubscriberHandle) -> u32 {
    with_subscriber(subscriber, |s| {
        for ids in s.enabled.iter_mut().skip(1) {
            ids.iter_mut().skip(1).for_each(|e| *e = enable != 0);
        }
        SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetCallbackState(
    enable: *mut u32,
    subscriber: CUpti_SubscriberHandle,
    domain: u32,
    cbid: u32,
) -> u32 {
    if enable.is_null() {
        return INVALID_PARAMETER;
    }
    with_subscriber(subscriber, |s| match s.enabled_slot(domain, cbid) {
        Some(slot) if cbid != 0 => {
            // SAFETY: checked non-null; the caller passes a writable u32.
            unsafe { *enable = u32::from(*slot) };
            SUCCESS
        }
        _ => INVALID_PARAMETER,
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuptiSupportedDomains(count: *mut usize, table: *mut *const u32) -> u32 {
    if count.is_null() || table.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: checked non-null; the caller passes writable slots. The table is static.
    unsafe {
        *count = DOMAINS.len();
        *table = DOMAINS.as_ptr();
    }
    SUCCESS
}
