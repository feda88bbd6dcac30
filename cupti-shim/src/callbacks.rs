//! The callback API: virtual subscribers over one real subscription, enables refcounted per
//! (domain, cbid), callbacks dispatched to each subscriber without a lock, each with its own
//! `correlationData` slot.

use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use cupti_sys::{CUpti_CallbackData, CUpti_CallbackDomain, CUpti_SubscriberHandle};

use crate::real::real;
use crate::{INVALID_PARAMETER, MULTIPLE_SUBSCRIBERS, NOT_INITIALIZED, SUCCESS};

/// Virtual subscribers at most.
pub(crate) const MAX_SUBS: usize = 8;
/// Callback domains (CUPTI 13.x has 1..=6).
const DOMAINS: usize = 8;
/// Callback ids per domain the shim tracks (CUPTI 13.x's largest is below 1,024).
const CBIDS: usize = 2048;
const WORDS: usize = CBIDS / 64;

/// `CUPTI_CB_DOMAIN_DRIVER_API` and `CUPTI_CB_DOMAIN_RUNTIME_API`: their data is `CUpti_CallbackData`.
const DOMAIN_DRIVER: u32 = 1;
const DOMAIN_RUNTIME: u32 = 2;
/// `CUPTI_API_ENTER`.
const API_ENTER: u32 = 0;

type Callback = unsafe extern "C" fn(*mut c_void, CUpti_CallbackDomain, u32, *const c_void);

struct Sub {
    live: AtomicBool,
    callback: AtomicUsize,
    userdata: AtomicUsize,
    /// The activity slot of the client that subscribed (for `cuptiFinalize`).
    owner: AtomicUsize,
    /// Dispatches of this subscriber running now.
    in_flight: AtomicUsize,
    bits: [[AtomicU64; WORDS]; DOMAINS],
}

#[allow(clippy::declare_interior_mutable_const)]
const SUB: Sub = {
    #[allow(clippy::declare_interior_mutable_const)]
    const W: AtomicU64 = AtomicU64::new(0);
    #[allow(clippy::declare_interior_mutable_const)]
    const D: [AtomicU64; WORDS] = [W; WORDS];
    Sub {
        live: AtomicBool::new(false),
        callback: AtomicUsize::new(0),
        userdata: AtomicUsize::new(0),
        owner: AtomicUsize::new(0),
        in_flight: AtomicUsize::new(0),
        bits: [D; DOMAINS],
    }
};

static SUBS: [Sub; MAX_SUBS] = [SUB; MAX_SUBS];

impl Sub {
    fn bit(&self, domain: usize, cbid: usize) -> bool {
        self.bits[domain][cbid / 64].load(Ordering::Acquire) & (1 << (cbid % 64)) != 0
    }
    fn set_bit(&self, domain: usize, cbid: usize, on: bool) {
        let mask = 1u64 << (cbid % 64);
        if on {
            self.bits[domain][cbid / 64].fetch_or(mask, Ordering::AcqRel);
        } else {
            self.bits[domain][cbid / 64].fetch_and(!mask, Ordering::AcqRel);
        }
    }
}

/// What mutators share (never held while a client is called).
struct State {
    /// The real subscription, once made.
    real_sub: Option<usize>,
    /// Per (domain, cbid): how many virtual subscribers enabled it.
    counts: Vec<u16>,
}

static STATE: Mutex<State> = Mutex::new(State { real_sub: None, counts: Vec::new() });

fn state() -> MutexGuard<'static, State> {
    let mut s = STATE.lock().unwrap_or_else(|e| e.into_inner());
    if s.counts.is_empty() {
        s.counts = vec![0; DOMAINS * CBIDS];
    }
    s
}

thread_local! {
    /// How many dispatches this thread is inside (an unsubscribe from a callback must not wait for itself).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
    /// Per-call `correlationData` slots of the subscribers, keyed by CUPTI's slot of the call. Boxed:
    /// a subscriber holds a pointer into its frame while other frames come and go.
    #[allow(clippy::vec_box)]
    static FRAMES: RefCell<Vec<Box<Frame>>> = const { RefCell::new(Vec::new()) };
}

struct Frame {
    key: usize,
    slots: [u64; MAX_SUBS],
}

fn index_of(handle: CUpti_SubscriberHandle) -> Option<usize> {
    SUBS.iter().position(|s| std::ptr::eq(s as *const Sub as *const c_void, handle as *const c_void))
}

/// The real subscription's handle, made on first use.
fn ensure_real(s: &mut State) -> Result<usize, u32> {
    if let Some(h) = s.real_sub {
        return Ok(h);
    }
    let real = real().ok_or(NOT_INITIALIZED)?;
    let subscribe = real.subscribe.ok_or(NOT_INITIALIZED)?;
    let mut handle: CUpti_SubscriberHandle = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; `dispatch` lives for the process and reads no userdata.
    let r = unsafe { subscribe(&mut handle, Some(dispatch), std::ptr::null_mut()) };
    if r != SUCCESS {
        return Err(r);
    }
    s.real_sub = Some(handle as usize);
    Ok(handle as usize)
}

pub(crate) fn subscribe(
    owner: usize,
    out: *mut CUpti_SubscriberHandle,
    callback: Option<Callback>,
    userdata: *mut c_void,
) -> u32 {
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    let mut s = state();
    if let Err(code) = ensure_real(&mut s) {
        return code;
    }
    let Some(i) = SUBS
        .iter()
        .position(|sub| !sub.live.load(Ordering::Acquire) && sub.in_flight.load(Ordering::Acquire) == 0)
    else {
        return MULTIPLE_SUBSCRIBERS;
    };
    let sub = &SUBS[i];
    for d in &sub.bits {
        for w in d {
            w.store(0, Ordering::Release);
        }
    }
    sub.callback.store(callback.map_or(0, |f| f as usize), Ordering::Release);
    sub.userdata.store(userdata as usize, Ordering::Release);
    sub.owner.store(owner, Ordering::Release);
    sub.live.store(true, Ordering::Release);
    // SAFETY: checked non-null; the caller passes a writable handle slot.
    unsafe { *out = sub as *const Sub as CUpti_SubscriberHandle };
    SUCCESS
}

/// Sets `cbids` of `domain` for subscriber `i` and makes the real enables follow the union.
fn set(s: &mut State, i: usize, domain: u32, cbids: &[usize], on: bool, whole_domain: bool) -> u32 {
    let Some(real_sub) = s.real_sub else { return NOT_INITIALIZED };
    let Some(real) = real() else { return NOT_INITIALIZED };
    let d = domain as usize;
    let mut changed = Vec::new();
    for &c in cbids {
        if SUBS[i].bit(d, c) == on {
            continue;
        }
        SUBS[i].set_bit(d, c, on);
        let count = &mut s.counts[d * CBIDS + c];
        if on {
            *count += 1;
            if *count == 1 {
                changed.push(c);
            }
        } else {
            *count -= 1;
            if *count == 0 {
                changed.push(c);
            }
        }
    }
    if changed.is_empty() {
        return SUCCESS;
    }
    let handle = real_sub as CUpti_SubscriberHandle;
    let all_off = s.counts[d * CBIDS..(d + 1) * CBIDS].iter().all(|&c| c == 0);
    if whole_domain && (on || all_off) {
        if let Some(f) = real.enable_domain {
            // SAFETY: plain values and the live real subscription.
            return unsafe { f(u32::from(on), handle, domain) };
        }
    }
    let Some(f) = real.enable_callback else { return NOT_INITIALIZED };
    let mut result = SUCCESS;
    for c in changed {
        // SAFETY: plain values and the live real subscription.
        let r = unsafe { f(u32::from(on), handle, domain, c as u32) };
        if !whole_domain && r != SUCCESS {
            result = r;
        }
    }
    result
}

fn valid(handle: CUpti_SubscriberHandle, domain: u32) -> Option<usize> {
    let i = index_of(handle)?;
    (SUBS[i].live.load(Ordering::Acquire) && domain > 0 && (domain as usize) < DOMAINS).then_some(i)
}

pub(crate) fn enable_callback(enable: u32, handle: CUpti_SubscriberHandle, domain: u32, cbid: u32) -> u32 {
    let Some(i) = valid(handle, domain) else { return INVALID_PARAMETER };
    if cbid as usize >= CBIDS {
        return INVALID_PARAMETER;
    }
    let mut s = state();
    let r = set(&mut s, i, domain, &[cbid as usize], enable != 0, false);
    if r != SUCCESS {
        // The real library refused the id: undo.
        set(&mut s, i, domain, &[cbid as usize], enable == 0, false);
    }
    r
}

pub(crate) fn enable_domain(enable: u32, handle: CUpti_SubscriberHandle, domain: u32) -> u32 {
    let Some(i) = valid(handle, domain) else { return INVALID_PARAMETER };
    let all: Vec<usize> = (0..CBIDS).collect();
    set(&mut state(), i, domain, &all, enable != 0, true)
}

pub(crate) fn enable_all_domains(enable: u32, handle: CUpti_SubscriberHandle) -> u32 {
    if valid(handle, 1).is_none() {
        return INVALID_PARAMETER;
    }
    let mut result = SUCCESS;
    for domain in 1..7 {
        let r = enable_domain(enable, handle, domain);
        if result == SUCCESS {
            result = r;
        }
    }
    result
}

pub(crate) fn get_state(out: *mut u32, handle: CUpti_SubscriberHandle, domain: u32, cbid: u32) -> u32 {
    let Some(i) = valid(handle, domain) else { return INVALID_PARAMETER };
    if out.is_null() || cbid as usize >= CBIDS {
        return INVALID_PARAMETER;
    }
    // SAFETY: checked non-null; the caller passes a writable uint32_t.
    unsafe { *out = u32::from(SUBS[i].bit(domain as usize, cbid as usize)) };
    SUCCESS
}

pub(crate) fn unsubscribe(handle: CUpti_SubscriberHandle) -> u32 {
    let Some(i) = index_of(handle).filter(|&i| SUBS[i].live.load(Ordering::Acquire)) else {
        return INVALID_PARAMETER;
    };
    release(i);
    SUCCESS
}

/// Disables everything of subscriber `i`, forgets it, and waits for its dispatches on other threads.
fn release(i: usize) {
    {
        let mut s = state();
        let all: Vec<usize> = (0..CBIDS).collect();
        for domain in 1..DOMAINS as u32 {
            set(&mut s, i, domain, &all, false, true);
        }
        SUBS[i].live.store(false, Ordering::Release);
    }
    if DEPTH.with(Cell::get) == 0 {
        while SUBS[i].in_flight.load(Ordering::Acquire) != 0 {
            std::thread::yield_now();
        }
    }
}

/// Releases every subscriber of activity slot `owner` (its `cuptiFinalize` while others stay).
pub(crate) fn release_owner(owner: usize) {
    for (i, sub) in SUBS.iter().enumerate() {
        if sub.live.load(Ordering::Acquire) && sub.owner.load(Ordering::Acquire) == owner {
            release(i);
        }
    }
}

/// Whether a subscriber of another slot than `owner` is live.
pub(crate) fn others_live(owner: usize) -> bool {
    SUBS.iter().any(|s| s.live.load(Ordering::Acquire) && s.owner.load(Ordering::Acquire) != owner)
}

/// After the real `cuptiFinalize`: CUPTI forgot the subscription and its enables.
pub(crate) fn forget_real() {
    let mut s = state();
    s.real_sub = None;
    s.counts.iter_mut().for_each(|c| *c = 0);
    for sub in &SUBS {
        sub.live.store(false, Ordering::Release);
    }
}

/// The real subscription's callback: every live subscriber that enabled (domain, cbid), in order.
unsafe extern "C" fn dispatch(_: *mut c_void, domain: CUpti_CallbackDomain, cbid: u32, data: *const c_void) {
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: CUPTI passes the callback data of `domain`, valid for this call.
        unsafe { dispatch_inner(domain.0, cbid, data) }
    });
}

unsafe fn dispatch_inner(domain: u32, cbid: u32, data: *const c_void) {
    let (d, c) = (domain as usize, cbid as usize);
    if d >= DOMAINS || c >= CBIDS {
        return;
    }
    let api = (domain == DOMAIN_DRIVER || domain == DOMAIN_RUNTIME) && !data.is_null();
    // SAFETY: the API domains' data is a `CUpti_CallbackData` (the caller's contract).
    let call = api.then(|| unsafe { *data.cast::<CUpti_CallbackData>() });
    let key = call.map_or(0, |c| c.correlationData as usize);
    let enter = call.is_some_and(|c| c.callbackSite.0 == API_ENTER);
    // This call's slots: a new frame at ENTER, the ENTER's frame at EXIT.
    let slots: *mut [u64; MAX_SUBS] = if key == 0 {
        std::ptr::null_mut()
    } else {
        FRAMES.with(|f| {
            let mut frames = f.borrow_mut();
            if enter {
                if frames.len() >= 256 {
                    frames.remove(0);
                }
                frames.push(Box::new(Frame { key, slots: [0; MAX_SUBS] }));
            } else if !frames.iter().any(|fr| fr.key == key) {
                frames.push(Box::new(Frame { key, slots: [0; MAX_SUBS] }));
            }
            let frame = frames.iter_mut().rev().find(|fr| fr.key == key).expect("pushed above");
            // The frame is boxed: the address stays put while other frames come and go.
            &mut frame.slots as *mut [u64; MAX_SUBS]
        })
    };
    DEPTH.with(|x| x.set(x.get() + 1));
    for (i, sub) in SUBS.iter().enumerate() {
        if !sub.live.load(Ordering::Acquire) || !sub.bit(d, c) {
            continue;
        }
        sub.in_flight.fetch_add(1, Ordering::AcqRel);
        if sub.live.load(Ordering::Acquire) {
            let f = sub.callback.load(Ordering::Acquire);
            let userdata = sub.userdata.load(Ordering::Acquire) as *mut c_void;
            if f != 0 {
                // SAFETY: `f` is the client's `CUpti_CallbackFunc`, stored from a non-null function
                // pointer at subscribe.
                let f: Callback = unsafe { std::mem::transmute::<usize, Callback>(f) };
                match call {
                    Some(mut own) => {
                        if !slots.is_null() {
                            // SAFETY: `slots` points into a boxed frame of this thread, alive until
                            // this call's EXIT is dispatched.
                            own.correlationData = unsafe { (*slots).as_mut_ptr().add(i) };
                        }
                        // SAFETY: the client's callback with a copy of CUPTI's data for this call.
                        unsafe {
                            f(
                                userdata,
                                CUpti_CallbackDomain(domain),
                                cbid,
                                (&own as *const CUpti_CallbackData).cast(),
                            )
                        };
                    }
                    // SAFETY: the client's callback with CUPTI's data, valid for this call.
                    None => unsafe { f(userdata, CUpti_CallbackDomain(domain), cbid, data) },
                }
            }
        }
        sub.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
    DEPTH.with(|x| x.set(x.get() - 1));
    if key != 0 && !enter {
        FRAMES.with(|f| {
            let mut frames = f.borrow_mut();
            if let Some(at) = frames.iter().rposition(|fr| fr.key == key) {
                frames.remove(at);
            }
        });
    }
}
