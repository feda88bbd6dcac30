//! The callback API: one subscriber, per-domain cbid bitmaps, and the firing of ENTER/EXIT
//! callbacks with the uninitialised fields the real library leaves in `msptiCallbackData`.
//!
//! Subscribing does more than the callback API suggests, as in the real library: it registers the
//! reporters through which the runtime's API records and task tracks arrive, hands MSTX's table to
//! MSPTI (markers), and opens the NPU driver and starts reading its channels (kernels). So API,
//! marker and kernel records exist only while a subscriber does; unsubscribing undoes all of it
//! (but disables no activity kind and flushes nothing).

use std::cell::Cell;
use std::os::raw::{c_char, c_void};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::result::*;

pub const DOMAIN_RUNTIME: u32 = 1;
pub const DOMAIN_HCCL: u32 = 2;
const DOMAIN_SIZE: u32 = 3;
pub const SITE_ENTER: u32 = 0;
pub const SITE_EXIT: u32 = 1;

/// `msptiCallbackData`, as the C header lays it out (72 bytes).
#[repr(C)]
pub struct CallbackData {
    pub callback_site: u32,
    pub function_name: *const c_char,
    pub function_params: *const c_void,
    pub function_return_value: *const c_void,
    pub symbol_name: *const c_char,
    pub correlation_id: u64,
    pub reserved1: u64,
    pub reserved2: u64,
    pub correlation_data: *mut u64,
}

pub type CallbackFunc = Option<unsafe extern "C" fn(*mut c_void, u32, u32, *const CallbackData)>;

/// The subscriber object behind the handle (`msptiSubscriber_st`).
pub struct Subscriber {
    pub handle: CallbackFunc,
    pub userdata: *mut c_void,
}

// SAFETY: the userdata pointer is only handed back to the client's callback, as C does.
unsafe impl Send for Subscriber {}
// SAFETY: as above.
unsafe impl Sync for Subscriber {}

static SUBSCRIBER: Mutex<Option<Arc<Subscriber>>> = Mutex::new(None);
static INIT: AtomicBool = AtomicBool::new(false);
static CBID_MAP: [AtomicU64; DOMAIN_SIZE as usize] =
    [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
static LD_PRELOAD_CHECK: OnceLock<bool> = OnceLock::new();
pub static GARBAGE_WRITES: AtomicU64 = AtomicU64::new(0);

fn current() -> Option<Arc<Subscriber>> {
    SUBSCRIBER.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

fn handle_of(s: &Arc<Subscriber>) -> *mut c_void {
    Arc::as_ptr(s) as *mut c_void
}

fn valid_domain(domain: u32) -> bool {
    domain > 0 && domain < DOMAIN_SIZE
}

#[no_mangle]
pub unsafe extern "C" fn msptiSubscribe(
    subscriber: *mut *mut c_void,
    callback: CallbackFunc,
    userdata: *mut c_void,
) -> u32 {
    if crate::reentered("msptiSubscribe") {
        return INNER;
    }
    if subscriber.is_null() {
        return INVALID_PARAMETER;
    }
    let mut slot = SUBSCRIBER.lock().unwrap_or_else(|e| e.into_inner());
    if INIT.load(Ordering::SeqCst) {
        return MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    }
    for m in &CBID_MAP {
        m.store(0, Ordering::Relaxed);
    }
    let sub = Arc::new(Subscriber { handle: callback, userdata });
    // SAFETY: checked non-null above; the caller passes a writable handle slot.
    unsafe { *subscriber = handle_of(&sub) };
    *slot = Some(sub);
    INIT.store(true, Ordering::SeqCst);
    crate::reporters::register();
    crate::cann::profapi().enable_mstx(crate::protocol::prof_module::MSPTI);
    // Opens the driver: a missing one aborts here, as the real library's exception does.
    crate::reporters::start_channels();
    SUCCESS
}

#[no_mangle]
pub extern "C" fn msptiUnsubscribe(subscriber: *mut c_void) -> u32 {
    if crate::reentered("msptiUnsubscribe") {
        return INNER;
    }
    let mut slot = SUBSCRIBER.lock().unwrap_or_else(|e| e.into_inner());
    if !INIT.load(Ordering::SeqCst) {
        return SUCCESS;
    }
    if slot.as_ref().map(handle_of) != Some(subscriber) {
        return INVALID_PARAMETER;
    }
    // Callbacks that already took their snapshot of the subscriber still run (see
    // `mock_mspti_stall_callback`); activity kinds stay enabled and nothing is flushed.
    crate::reporters::stop_devices();
    *slot = None;
    for m in &CBID_MAP {
        m.store(0, Ordering::Relaxed);
    }
    crate::cann::profapi().enable_mstx(crate::protocol::prof_module::MSPROF);
    crate::reporters::unregister();
    crate::reporters::stop_channels();
    INIT.store(false, Ordering::SeqCst);
    SUCCESS
}

/// Whether a subscriber exists now (the reporters are registered).
pub fn subscribed() -> bool {
    INIT.load(Ordering::SeqCst)
}

fn register(enable: u32, domain: u32, cbid: u32) -> u32 {
    // Any cbid below 64 is accepted, whether or not the domain has it.
    if !valid_domain(domain) || cbid >= 64 {
        return INVALID_PARAMETER;
    }
    let bit = 1u64 << cbid;
    if enable != 0 {
        CBID_MAP[domain as usize].fetch_or(bit, Ordering::Relaxed);
    } else {
        CBID_MAP[domain as usize].fetch_and(!bit, Ordering::Relaxed);
    }
    SUCCESS
}

fn check_subscriber(subscriber: *mut c_void, domain: u32) -> Option<u32> {
    if !crate::ld_preload_has_mspti(&LD_PRELOAD_CHECK) {
        return Some(WITHOUT_LD_PRELOAD);
    }
    if !INIT.load(Ordering::SeqCst) {
        return Some(SUCCESS);
    }
    if current().as_ref().map(handle_of) != Some(subscriber) || !valid_domain(domain) {
        return Some(INVALID_PARAMETER);
    }
    None
}

#[no_mangle]
pub extern "C" fn msptiEnableCallback(enable: u32, subscriber: *mut c_void, domain: u32, cbid: u32) -> u32 {
    if crate::reentered("msptiEnableCallback") {
        return INNER;
    }
    if let Some(r) = check_subscriber(subscriber, domain) {
        return r;
    }
    register(enable, domain, cbid)
}

#[no_mangle]
pub extern "C" fn msptiEnableDomain(enable: u32, subscriber: *mut c_void, domain: u32) -> u32 {
    if crate::reentered("msptiEnableDomain") {
        return INNER;
    }
    if let Some(r) = check_subscriber(subscriber, domain) {
        return r;
    }
    let ids = match domain {
        DOMAIN_RUNTIME => 1..=36,
        DOMAIN_HCCL => 1..=12,
        _ => return SUCCESS,
    };
    for cbid in ids {
        register(enable, domain, cbid);
    }
    SUCCESS
}

fn enabled(domain: u32, cbid: u32) -> bool {
    INIT.load(Ordering::SeqCst)
        && valid_domain(domain)
        && cbid < 64
        && (CBID_MAP[domain as usize].load(Ordering::Relaxed) >> cbid) & 1 == 1
}

thread_local! {
    /// Stand-in for the stack bytes the real `msptiCallbackData` fields point into.
    static GARBAGE: [Cell<u64>; 32] = const { [const { Cell::new(0) }; 32] };
    static SITE_COUNTER: Cell<u64> = const { Cell::new(0) };
    /// How many callbacks this thread is inside (a callback that calls the runtime nests more):
    /// each depth has its own garbage, as each call's stack frame has its own bytes, and within a
    /// depth two places taken in turn, so that a call's ENTER and EXIT point at different ones
    /// (the sites nested between them come in pairs).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// A subscriber snapshot taken before the enable check passed: what a thread inside
/// `ExecuteCallback` holds while another thread unsubscribes.
pub struct Snapshot {
    sub: Arc<Subscriber>,
    domain: u32,
    cbid: u32,
}

/// Takes the snapshot a firing callback takes, if this (domain, cbid) would fire now.
pub fn snapshot(domain: u32, cbid: u32) -> Option<Snapshot> {
    if !enabled(domain, cbid) {
        return None;
    }
    let sub = current()?;
    Some(Snapshot { sub, domain, cbid })
}

/// Calls the snapshot's callback for one site, as the real `ExecuteCallback` does: only
/// `callbackSite` and `functionName` are set; every other field is stale stack garbage that
/// differs from one call to the next. Writes through `correlationData` are detected and counted.
pub fn call(snap: &Snapshot, site: u32, name: *const c_char) {
    let Some(handle) = snap.sub.handle else { return };
    let n = SITE_COUNTER.with(|c| {
        let v = c.get().wrapping_add(1);
        c.set(v);
        v
    });
    let poison = 0xDEAD_0000_0000_0000 | (n.wrapping_mul(0x9E37_79B9) & 0xFFFF_FFFF_FFFF);
    let depth = DEPTH.with(|d| d.replace(d.get() + 1));
    GARBAGE.with(|g| {
        let at = (depth % 8) * 4 + (n % 2) as usize * 2;
        let (slot, params) = (&g[at], &g[at + 1]);
        slot.set(poison);
        params.set(!poison);
        let data = CallbackData {
            callback_site: site,
            function_name: name,
            function_params: params.as_ptr() as *const c_void,
            function_return_value: params.as_ptr() as *const c_void,
            symbol_name: params.as_ptr() as *const c_char,
            correlation_id: poison ^ 0x5555,
            reserved1: poison.rotate_left(7),
            reserved2: poison.rotate_left(13),
            correlation_data: slot.as_ptr(),
        };
        // SAFETY: the client registered this function for these arguments.
        unsafe { handle(snap.sub.userdata, snap.domain, snap.cbid, &data) };
        if slot.get() != poison {
            GARBAGE_WRITES.fetch_add(1, Ordering::SeqCst);
        }
    });
    DEPTH.with(|d| d.set(depth));
}

/// Fires one site now, if enabled.
pub fn fire(domain: u32, cbid: u32, site: u32, name: *const c_char) {
    if let Some(s) = snapshot(domain, cbid) {
        call(&s, site, name);
    }
}

/// Forgets the subscriber and enabled ids (a control for tests; the real library cannot).
pub fn reset() {
    let mut slot = SUBSCRIBER.lock().unwrap_or_else(|e| e.into_inner());
    if slot.take().is_some() {
        crate::reporters::stop_devices();
        crate::cann::profapi().enable_mstx(crate::protocol::prof_module::MSPROF);
        crate::reporters::unregister();
        crate::reporters::stop_channels();
    }
    drop(slot);
    for m in &CBID_MAP {
        m.store(0, Ordering::Relaxed);
    }
    INIT.store(false, Ordering::SeqCst);
    GARBAGE_WRITES.store(0, Ordering::SeqCst);
}
