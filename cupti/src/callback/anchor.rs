//! The anchor: the subscriber whose closure the library's CUPTI subscription was made for, and
//! its fast path.
//!
//! CUPTI calls one `extern "C"` function per subscription and, before 13.2, allows one
//! subscription per process; the switchboard keeps it for the life of the process (see
//! [`super::vendor`]). The subscriber that made the switchboard subscribe is the *anchor*: the function
//! handed to CUPTI is [`entry`] monomorphized for the anchor's closure type, so while the anchor
//! is the only subscriber with anything enabled, a callback reaches its closure with no routing
//! table, no indirect call and no per-subscriber slot bookkeeping: CUPTI's own `correlationData`
//! is the anchor's slot. Everything else (other subscribers, or the anchor alongside them) goes
//! through the switchboard's general dispatch ([`super::trampoline`]).
//!
//! Which callbacks the fast path serves is kept by the switchboard's hooks in [`FastPath`] (never
//! freed), in one
//! of three modes:
//!
//! - *own*: no other subscriber has had anything enabled since the subscription was made, so
//!   CUPTI's enable state is the anchor's own, and whatever CUPTI delivers is the anchor's (as
//!   for a C tool: a callback CUPTI had already begun when the anchor disabled its id may still
//!   arrive);
//! - *filtered*: the anchor is alone again after others were routed; a bitmap of the ids it
//!   enabled filters out callbacks of ids the others had on (CUPTI may still deliver one it had
//!   begun when they were disabled);
//! - *off*: other subscribers are routed; the general dispatch serves everything.
//!
//! The slot must read 0 at ENTER. CUPTI's headers do not promise that `correlationData` starts
//! at 0, so the fast path zeroes it at each ENTER; but the real libraries do zero it (13.0.85 and
//! 13.5.25 on an H200: no ENTER of 200,000 saw a value stored at the previous EXIT). The fast path
//! checks that on the library it runs on: for the first [`ZERO_CHECKS`] calls of *own* mode it
//! stores a sentinel at each EXIT and looks at each ENTER; if no ENTER ever saw anything but 0,
//! *own* mode stops zeroing (then a callback costs a mode check and the closure), and if one
//! did, it zeroes for the life of the process.
//!
//! The mode goes to *off* before a table routing anyone else is published, and to *own* or
//! *filtered* only after a table routing the anchor alone is. The closure's lifetime is protected
//! in one of two ways:
//!
//! - a closure that owns nothing to drop (`!needs_drop::<F>()`: it captures nothing, or only
//!   references to statics and `Copy` values) is kept by the switchboard until the subscription is
//!   given back ([`crate::Cupti::release_subscription`], whose caller promises that no CUDA call is
//!   in flight), so its
//!   fast path needs no read section at all, as a C tool's static function does not;
//! - any other closure is freed when its subscriber is dropped, after an RCU grace period, so its
//!   fast path runs inside a read section (see [`accelprof_core::callback::rcu`]), as the general
//!   dispatch does.

use std::cell::Cell;
use std::ffi::c_void;
use std::mem::needs_drop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, AtomicU8, Ordering};

use cupti_sys::{CUpti_ApiCallbackSite, CUpti_CallbackData, CUpti_CallbackDomain, CUpti_CallbackId};

use accelprof_core::callback::frames::{self, CallKey, Lookup};
use accelprof_core::callback::routes::{SoloIds, SOLO_CBIDS, SOLO_DOMAINS};
use accelprof_core::callback::trampoline::guard;
use accelprof_core::callback::{rcu, Handler};

use super::data::CallbackData;
use super::trampoline;
use super::vendor::{CuptiVendor, Hub};
use crate::ids::{CallbackDomain, CallbackId};

/// [`FastPath::mode`]: the general dispatch serves everything.
const OFF: u8 = 0;
/// CUPTI's enable state is the anchor's own: it is served whatever CUPTI delivers, and its slot
/// is zeroed at ENTER (while the zeroing check runs, or after it failed).
const OWN: u8 = 1;
/// As [`OWN`], on a library seen to zero the slot itself: nothing but the closure runs.
const OWN_ZEROED: u8 = 2;
/// The anchor is alone again: it is served the ids of [`FastPath::ids`].
const FILTERED: u8 = 3;

/// Calls of *own* mode that check the library's zeroing before it is trusted.
pub(crate) const ZERO_CHECKS: u32 = 4096;
/// Stored into the slot at EXIT while checking: an ENTER that reuses the storage sees it unless
/// the library zeroes.
const SENTINEL: u64 = 0x5e47_1ae1_c0ff_ee00;

/// [`FastPath::zeroing`]: not known yet.
const ZEROING_UNKNOWN: u8 = 0;
/// Every checked ENTER saw 0.
const ZEROING_SEEN: u8 = 1;
/// An ENTER saw something else: always zero.
const ZEROING_ABSENT: u8 = 2;

/// How the fast path serves one callback.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Serve {
    /// [`OWN`]: zero at ENTER, and check the library's zeroing while that runs.
    Own,
    /// [`OWN_ZEROED`]: the closure alone.
    OwnZeroed,
    /// [`FILTERED`]: zero at ENTER; an EXIT may find a frame's serial.
    Filtered,
}

/// The anchor's closure and what it alone is routed, read by [`entry`] without a lock.
pub(crate) struct FastPath {
    /// [`OFF`], [`OWN`], [`OWN_ZEROED`] or [`FILTERED`].
    mode: AtomicU8,
    /// Whether the library zeroes the slot at ENTER: [`ZEROING_UNKNOWN`], [`ZEROING_SEEN`] or
    /// [`ZEROING_ABSENT`]. Kept for the life of the process (one library).
    zeroing: AtomicU8,
    /// Checks left before [`ZEROING_SEEN`].
    zero_checks: AtomicU32,
    /// With [`FILTERED`]: bit `cbid` of row `domain`: the anchor alone receives `(domain, cbid)`.
    ids: [[AtomicU64; SOLO_CBIDS / 64]; SOLO_DOMAINS],
    /// The anchor's closure (its `Box<F>`), set before the subscription is made.
    closure: AtomicPtr<()>,
    /// The anchor's handler, for panic counts and its key.
    handler: AtomicPtr<Handler<CuptiVendor>>,
    /// With [`FILTERED`]: the generation of the subscription (frames of its calls carry it).
    generation: AtomicU64,
    /// [`frames::tag`], copied here so that an EXIT reads it next to the bitmap.
    tag: u32,
}

impl FastPath {
    pub(crate) fn new() -> FastPath {
        FastPath {
            mode: AtomicU8::new(OFF),
            zeroing: AtomicU8::new(ZEROING_UNKNOWN),
            zero_checks: AtomicU32::new(ZERO_CHECKS),
            ids: std::array::from_fn(|_| std::array::from_fn(|_| AtomicU64::new(0))),
            closure: AtomicPtr::new(std::ptr::null_mut()),
            handler: AtomicPtr::new(std::ptr::null_mut()),
            tag: frames::tag(),
            generation: AtomicU64::new(0),
        }
    }

    /// Makes `handler` the anchor (before the subscription that calls [`entry`] for it exists).
    pub(crate) fn anchor(&self, handler: &Handler<CuptiVendor>) {
        self.clear();
        self.closure.store(handler.closure().cast_mut(), Ordering::Release);
        self.handler.store(std::ptr::from_ref(handler).cast_mut(), Ordering::Release);
    }

    /// Serves the anchor alone from now on: everything CUPTI delivers when `own` (no other
    /// subscriber had anything enabled since the subscription was made), else `ids`.
    pub(crate) fn serve(&self, ids: &SoloIds, own: bool, generation: u64) {
        self.generation.store(generation, Ordering::Release);
        if !own {
            for (row, bits) in self.ids.iter().zip(ids) {
                for (word, &b) in row.iter().zip(bits) {
                    word.store(b, Ordering::Release);
                }
            }
        }
        let mode = match (own, self.zeroing.load(Ordering::Acquire)) {
            (false, _) => FILTERED,
            (true, ZEROING_SEEN) => OWN_ZEROED,
            (true, _) => OWN,
        };
        self.mode.store(mode, Ordering::Release);
    }

    /// Whether the library was seen to zero the slot at ENTER (after [`ZERO_CHECKS`] calls of
    /// *own* mode): `None` while unknown.
    pub(crate) fn library_zeroes_slots(&self) -> Option<bool> {
        match self.zeroing.load(Ordering::Acquire) {
            ZEROING_SEEN => Some(true),
            ZEROING_ABSENT => Some(false),
            _ => None,
        }
    }

    /// Whether the library's zeroing is still being checked.
    #[inline(always)]
    fn checking(&self) -> bool {
        self.zeroing.load(Ordering::Relaxed) == ZEROING_UNKNOWN
    }

    /// One checked call of *own* mode is over; after the last, the zeroing is trusted unless a
    /// check failed.
    #[cold]
    fn checked(&self) {
        if self.zero_checks.fetch_sub(1, Ordering::AcqRel) == 1
            && self
                .zeroing
                .compare_exchange(ZEROING_UNKNOWN, ZEROING_SEEN, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            // Unless the switchboard changed the mode meanwhile (it reads `zeroing` when it sets it).
            let _ = self.mode.compare_exchange(OWN, OWN_ZEROED, Ordering::AcqRel, Ordering::Acquire);
        }
    }

    /// An ENTER saw a nonzero slot: the library does not zero it.
    #[cold]
    #[inline(never)]
    fn zeroing_absent(&self) {
        self.zeroing.store(ZEROING_ABSENT, Ordering::Release);
        let _ = self.mode.compare_exchange(OWN_ZEROED, OWN, Ordering::AcqRel, Ordering::Acquire);
    }

    /// Serves nothing from now on (a call already past [`FastPath::serves`] finishes).
    pub(crate) fn clear(&self) {
        self.mode.store(OFF, Ordering::Release);
        for word in self.ids.iter().flatten() {
            word.store(0, Ordering::Release);
        }
    }

    /// Whether `(domain, cbid)` reaches the anchor alone, and how. In *own* modes no call can
    /// have a frame (no other subscriber has been routed since the subscription was made, so
    /// every ENTER was the fast path's).
    #[inline(always)]
    fn serves(&self, domain: u32, cbid: u32) -> Option<Serve> {
        match self.mode.load(Ordering::Acquire) {
            OWN_ZEROED => Some(Serve::OwnZeroed),
            OWN => Some(Serve::Own),
            FILTERED => {
                let (d, c) = (domain as usize, cbid as usize);
                let hit = d < SOLO_DOMAINS
                    && c < SOLO_CBIDS
                    && self.ids[d][c / 64].load(Ordering::Acquire) >> (c % 64) & 1 != 0;
                hit.then_some(Serve::Filtered)
            }
            _ => None,
        }
    }

    /// Whether the anchor's subscriber was dropped (inside a callback, its closure may still be
    /// alive: no call starts after the drop).
    ///
    /// Only valid where [`FastPath::call`] is.
    #[inline(always)]
    fn retired(&self) -> bool {
        // SAFETY: as in `call`: the handler is alive.
        unsafe { &*self.handler.load(Ordering::Acquire) }.is_retired()
    }

    /// Calls the anchor's closure for one callback, CUPTI's `correlationData` being its slot.
    ///
    /// # Safety
    /// `F` is the anchor's closure type; the closure and handler are alive (kept by the switchboard, or
    /// by the caller's read section while [`FastPath::serves`] held); `cbdata` is the
    /// callback data of `domain`, valid during the call.
    #[inline(always)]
    unsafe fn call<F>(&self, how: Serve, version: &AtomicU32, domain: u32, cbid: u32, cbdata: *const c_void)
    where
        F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
    {
        let f: &F = if std::mem::size_of::<F>() == 0 {
            // SAFETY: a closure of no size is read from no memory: any aligned pointer is valid.
            unsafe { NonNull::<F>::dangling().as_ref() }
        } else {
            // SAFETY: the caller's contract: the closure of type `F` is alive.
            unsafe { &*self.closure.load(Ordering::Acquire).cast::<F>() }
        };
        let id = CallbackId::new(CallbackDomain(domain), cbid);
        let result = if how == Serve::OwnZeroed || !id.domain.is_api() {
            // SAFETY: `cbdata` is this domain's callback data, valid during the call; for API
            // calls its `correlationData` is CUPTI's per-call slot of our subscription, zeroed
            // by the library at ENTER (checked), and nobody else's during the call.
            let data = unsafe { CallbackData::with_cupti_slot(id, cbdata, version) };
            catch_unwind(AssertUnwindSafe(|| f(&data)))
        } else {
            // SAFETY: API domains pass `CUpti_CallbackData`, valid during the call.
            let raw = unsafe { &*cbdata.cast::<CUpti_CallbackData>() };
            let shared = raw.correlationData;
            let enter = raw.callbackSite == CUpti_ApiCallbackSite::CUPTI_API_ENTER;
            if !shared.is_null() {
                // SAFETY: CUPTI's per-call slot of our subscription, valid and touched by nobody
                // else during the call; `Cell<u64>` has `u64`'s layout.
                let slot = unsafe { &*shared.cast::<Cell<u64>>() };
                if enter {
                    if how == Serve::Own && self.checking() && slot.get() != 0 {
                        self.zeroing_absent();
                    }
                    slot.set(0);
                } else if how == Serve::Filtered && frames::is_serial_form(slot.get(), self.tag) {
                    slot.set(self.exit_of_framed_call(slot.get(), domain, cbid));
                }
            }
            // SAFETY: as above; the slot (if any) is now the anchor's value for this call.
            let data = unsafe { CallbackData::with_cupti_slot(id, cbdata, version) };
            let result = catch_unwind(AssertUnwindSafe(|| f(&data)));
            if how == Serve::Own && !enter && !shared.is_null() && self.checking() {
                // SAFETY: as above (the call's EXIT: nobody reads the slot after this).
                unsafe { shared.write(SENTINEL) };
                self.checked();
            }
            result
        };
        if let Err(payload) = result {
            // SAFETY: the caller's contract: the handler is alive.
            unsafe { &*self.handler.load(Ordering::Acquire) }.panicked(payload);
        }
    }

    /// The EXIT of a call whose ENTER went through the general dispatch and opened a frame
    /// (other subscribers were routed then): the anchor's value from the frame, which is closed.
    /// A value that names no frame is the anchor's own.
    ///
    /// Only valid where [`FastPath::call`] is.
    #[cold]
    #[inline(never)]
    fn exit_of_framed_call(&self, value: u64, domain: u32, cbid: u32) -> u64 {
        rcu::read(|section| {
            let Some(frames) = section.frames() else { return value };
            let call = CallKey { generation: self.generation.load(Ordering::Acquire), domain, cbid };
            match frames.find_serial(value, call) {
                Lookup::Found(start) => {
                    // SAFETY: as in `call`: the handler is alive.
                    let key = unsafe { &*self.handler.load(Ordering::Acquire) }.key();
                    let mine = frames.load(start, key).unwrap_or(0);
                    frames.close(start);
                    mine
                }
                // Our serial, of a call that lost its EXIT: not this call's value.
                Lookup::Stale => 0,
                Lookup::Missing => value,
            }
        })
    }
}

/// The `CUpti_CallbackFunc` a switchboard subscribes with when its first subscriber's closure has
/// type `F`; `userdata` is the switchboard.
///
/// # Safety
/// Called by CUPTI with the `userdata` the switchboard subscribed with (a leaked [`Hub`] whose
/// anchor's closure has type `F`) and the callback data of `domain`, valid for the call.
pub(crate) unsafe extern "C" fn entry<F>(
    userdata: *mut c_void,
    domain: CUpti_CallbackDomain,
    cbid: CUpti_CallbackId,
    cbdata: *const c_void,
) where
    F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
{
    if cbdata.is_null() {
        return;
    }
    // SAFETY: `userdata` is the `&'static Hub` passed to `cuptiSubscribe*` (never null).
    let hub = unsafe { &*(userdata as *const Hub) };
    let fast = &hub.vendor().fast;
    if !needs_drop::<F>() && fast.mode.load(Ordering::Acquire) == OWN_ZEROED {
        // The common case, kept free of everything else (no registers to save for the rest).
        // SAFETY: the anchor's closure has type `F` (this function's contract); owning nothing
        // to drop, it is kept by the switchboard until the subscription is given back, which no
        // callback outlives. `cbdata` is forwarded from CUPTI.
        unsafe { fast.call::<F>(Serve::OwnZeroed, &hub.vendor().version, domain.0, cbid, cbdata) };
        return;
    }
    // SAFETY: forwarded (this function's contract).
    unsafe { entry_other::<F>(hub, domain.0, cbid, cbdata) }
}

/// [`entry`] for every case but a closure owning nothing in [`OWN_ZEROED`] mode.
///
/// # Safety
/// As [`entry`], `cbdata` non-null.
#[inline(never)]
unsafe fn entry_other<F>(hub: &'static Hub, domain: u32, cbid: u32, cbdata: *const c_void)
where
    F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
{
    guard(|| {
        let fast = &hub.vendor().fast;
        let version = &hub.vendor().version;
        if !needs_drop::<F>() {
            if let Some(how) = fast.serves(domain, cbid) {
                // SAFETY: as in `entry`.
                unsafe { fast.call::<F>(how, version, domain, cbid, cbdata) };
            } else {
                // SAFETY: forwarded from CUPTI (this function's contract).
                unsafe { trampoline::general(hub, domain, cbid, cbdata) };
            }
            return;
        }
        rcu::read(|section| match fast.serves(domain, cbid) {
            Some(how) if !fast.retired() => {
                // SAFETY: the anchor's closure has type `F`; it is freed only after a grace
                // period that begins once the mode just read is cleared, and this read section
                // holds it off.
                unsafe { fast.call::<F>(how, version, domain, cbid, cbdata) };
            }
            // SAFETY: forwarded from CUPTI (this function's contract).
            _ => unsafe { trampoline::in_section_outlined(hub, section, domain, cbid, cbdata) },
        });
    });
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU64;
    use std::sync::Arc;

    use super::*;
    use crate::callback::detached::{Detached, RawCallback};
    use crate::ids::DriverCbid;

    /// One ENTER or EXIT of `cuCtxGetCurrent` with CUPTI's per-call slot `shared`.
    fn deliver(d: &Detached, site: CUpti_ApiCallbackSite, shared: &mut u64) {
        let data = crate::callback::data::fake_api_data(site, 7, shared);
        let callback: RawCallback = d.callback();
        let p = std::ptr::from_ref(&data).cast::<c_void>();
        // SAFETY: the detached switchboard's own callback and userdata, and API callback data valid for
        // the call.
        unsafe {
            callback(d.userdata(), CallbackDomain::DRIVER_API.into(), DriverCbid::cuCtxGetCurrent.0, p)
        };
    }

    fn storing(value: u64, seen: &Arc<AtomicU64>) -> impl Fn(&CallbackData<'_>) + Send + Sync + 'static {
        let seen = seen.clone();
        move |cb| {
            let api = cb.api().unwrap();
            if api.is_enter() {
                api.correlation_slot().set(value);
            } else {
                seen.store(api.correlation_slot().get(), Ordering::SeqCst);
            }
        }
    }

    #[test]
    fn the_anchor_alone_keeps_its_value_in_cuptis_slot_and_others_get_a_frame() {
        let id = CallbackId::from(DriverCbid::cuCtxGetCurrent);
        let seen = Arc::new(AtomicU64::new(0));
        // Alone: the fast path, CUPTI's slot holds the anchor's value itself.
        let alone = Detached::builder().route(&[], &[id], storing(41, &seen)).build();
        let mut shared = 0xdead;
        deliver(&alone, CUpti_ApiCallbackSite::CUPTI_API_ENTER, &mut shared);
        assert_eq!(shared, 41);
        deliver(&alone, CUpti_ApiCallbackSite::CUPTI_API_EXIT, &mut shared);
        assert_eq!(seen.load(Ordering::SeqCst), 41);

        // With another subscriber storing too: a frame, whose serial is in CUPTI's slot.
        let other = Arc::new(AtomicU64::new(0));
        let two = Detached::builder()
            .route(&[], &[id], storing(42, &seen))
            .route(&[], &[id], storing(43, &other))
            .build();
        deliver(&two, CUpti_ApiCallbackSite::CUPTI_API_ENTER, &mut shared);
        assert!(frames::is_serial_form(shared, frames::tag()), "{shared:#x}");
        deliver(&two, CUpti_ApiCallbackSite::CUPTI_API_EXIT, &mut shared);
        assert_eq!((seen.load(Ordering::SeqCst), other.load(Ordering::SeqCst)), (42, 43));

        // The anchor storing alone among two: its value, no frame.
        let quiet =
            Detached::builder().route(&[], &[id], storing(44, &seen)).route(&[], &[id], |_| {}).build();
        deliver(&quiet, CUpti_ApiCallbackSite::CUPTI_API_ENTER, &mut shared);
        assert_eq!(shared, 44);
        deliver(&quiet, CUpti_ApiCallbackSite::CUPTI_API_EXIT, &mut shared);
        assert_eq!(seen.load(Ordering::SeqCst), 44);
    }

    #[test]
    fn a_panic_on_the_fast_path_is_caught_and_counted() {
        let id = CallbackId::from(DriverCbid::cuCtxGetCurrent);
        let d = Detached::builder().route(&[], &[id], |_| panic!("fast boom")).build();
        let mut shared = 0;
        deliver(&d, CUpti_ApiCallbackSite::CUPTI_API_ENTER, &mut shared);
        deliver(&d, CUpti_ApiCallbackSite::CUPTI_API_EXIT, &mut shared);
        let handler = d.hub().vendor().fast.handler.load(Ordering::SeqCst);
        // SAFETY: a detached hub keeps its handlers for the process.
        let handler = unsafe { &*handler };
        assert_eq!(handler.panics(), 2);
        assert_eq!(handler.last_panic().as_deref(), Some("fast boom"));
    }
}
