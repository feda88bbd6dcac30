//! The switchboard: one real CUPTI subscription per library, shared by every [`Subscriber`].
//!
//! Before CUPTI 13.2 a process may hold one subscription; the hub holds it and fans callbacks
//! out to the subscribers' closures. It keeps a reference count per enabled domain and per
//! enabled `(domain, cbid)`, so CUPTI is told to enable on the first subscriber that wants a
//! callback and to disable when the last one stops: two subscribers scoping the same id to
//! different windows never disable each other. From 13.2 on it subscribes with
//! `cuptiSubscribe_v2` and `allowMultipleSubscribers`, so other tools that allow it coexist;
//! with older libraries, or when sharing is refused (13.2 refuses it once any `cuptiSubscribe`
//! subscription has existed in the process), it falls back to `cuptiSubscribe_v2` without it
//! (the holder's name comes back in errors) and then `cuptiSubscribe`.
//!
//! The subscription is made for the first subscriber's closure type (see [`super::anchor`]).
//!
//! Changes happen under a mutex that the callback path never takes; each one publishes a new
//! routing [`Snapshot`] and frees the old one after an RCU grace period (see [`super::rcu`]).
//!
//! [`Subscriber`]: super::Subscriber

use std::collections::BTreeMap;
use std::ffi::{c_char, c_void, CStr};
use std::fmt;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use cupti_sys::{CUpti_CallbackDomain, CUpti_CallbackFunc, CUpti_SubscriberHandle, CuptiFunctions};

use super::anchor::{entry, FastPath};
use super::data::CallbackData;
use super::rcu;
use super::snapshot::{Callback, Handler, Registration, Snapshot};
use crate::error::{Error, Result, ResultCode};
use crate::library::{check, result_string, Cupti};

/// The name the hub subscribes under (CUPTI reports it to other tools that collide with us).
const SUBSCRIBER_NAME: &CStr = c"cupti-rs";

/// `cuptiGetVersion` of the first release whose `cuptiSubscribe_v2` allows several subscribers.
const MULTI_SUBSCRIBER_VERSION: u32 = 130_200;

/// Domains and cbids beyond these are rejected before reaching CUPTI (they would only size the
/// routing table).
const MAX_DOMAIN: u32 = 64;
const MAX_CBID: u32 = 1 << 16;

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

/// What a subscriber turns on or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    Domain(u32),
    Id(u32, u32),
}

/// How the hub holds CUPTI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionKind {
    /// `cuptiSubscribe_v2` with `allowMultipleSubscribers` (CUPTI 13.2+): other tools that
    /// allow it may subscribe too.
    Shared,
    /// The process's only subscription.
    Exclusive,
}

struct State {
    /// The real subscription and how it was made; `None` before the first subscriber and after
    /// an explicit release.
    subscription: Option<(usize, SubscriptionKind)>,
    /// The key of the subscriber the subscription was made for (see [`super::anchor`]), until
    /// the subscription is given back; it stays after that subscriber is dropped, reaching
    /// nobody.
    anchor: Option<u64>,
    /// The anchor's handler, when its closure owns nothing to drop: kept until the subscription
    /// is given back, since its fast path runs without a read section.
    anchor_kept: Option<Arc<Handler>>,
    /// Another subscriber has had something enabled since the subscription was made (so CUPTI
    /// may still deliver its callbacks; see [`super::anchor`]).
    shared_since_anchor: bool,
    regs: Vec<Registration>,
    next_key: u64,
    domain_arms: BTreeMap<u32, usize>,
    id_arms: BTreeMap<(u32, u32), usize>,
}

/// One library's switchboard. Leaked: CUPTI may call the trampoline with it after
/// `cuptiUnsubscribe` returns (it does not wait for callbacks in flight).
pub(crate) struct Hub {
    functions: CuptiFunctions,
    /// The anchor's fast path (read by the subscription's callback).
    fast: FastPath,
    /// `cuptiGetVersion` as the latest subscribing `Cupti` read it.
    version: AtomicU32,
    current: AtomicPtr<Snapshot>,
    state: Mutex<State>,
    /// Snapshots retired inside a callback, freed after a later grace period. Boxed: readers
    /// may still point into these very allocations.
    #[allow(clippy::vec_box)]
    deferred: Mutex<Vec<Box<Snapshot>>>,
}

/// Hubs by library: two `Cupti` values that opened the same file share one.
static HUBS: Mutex<Vec<(usize, &'static Hub)>> = Mutex::new(Vec::new());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl fmt::Debug for Hub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let st = lock(&self.state);
        f.debug_struct("Hub")
            .field("subscription", &st.subscription.map(|s| s.1))
            .field("subscribers", &st.regs.len())
            .finish_non_exhaustive()
    }
}

impl Hub {
    /// The hub of the library `cupti` opened, created on first use.
    pub(crate) fn for_library(cupti: &Cupti) -> Result<&'static Hub> {
        let resolver = cupti.functions().resolver();
        let key = resolver
            .find(c"cuptiSubscribe")
            .ok_or(cupti_sys::MissingSymbol::new(resolver.library(), "cuptiSubscribe"))?;
        let key = key.as_ptr() as usize;
        let mut hubs = lock(&HUBS);
        if let Some(&(_, hub)) = hubs.iter().find(|(k, _)| *k == key) {
            return Ok(hub);
        }
        let hub: &'static Hub =
            Box::leak(Box::new(Hub::new(CuptiFunctions::new(resolver.clone()), cupti.version())));
        hubs.push((key, hub));
        Ok(hub)
    }

    fn new(functions: CuptiFunctions, version: u32) -> Hub {
        Hub {
            functions,
            fast: FastPath::new(),
            version: AtomicU32::new(version),
            current: AtomicPtr::new(Box::into_raw(Box::default())),
            state: Mutex::new(State {
                subscription: None,
                anchor: None,
                anchor_kept: None,
                shared_since_anchor: false,
                regs: Vec::new(),
                next_key: 1,
                domain_arms: BTreeMap::new(),
                id_arms: BTreeMap::new(),
            }),
            deferred: Mutex::new(Vec::new()),
        }
    }

    /// A hub over no library with `regs` routed, for dispatcher tests and benchmarks; with
    /// `anchored`, the first of `regs` is the anchor (the hub keeps every registration).
    pub(crate) fn detached(regs: Vec<Registration>, anchored: bool) -> &'static Hub {
        rcu::init();
        // SAFETY: the resolver finds nothing, so no function is ever called through it.
        let resolver = unsafe { cupti_sys::Resolver::new("no library", |_| None) };
        let hub: &'static Hub = Box::leak(Box::new(Hub::new(CuptiFunctions::new(resolver), 130001)));
        let mut st = lock(&hub.state);
        if let (true, Some(first)) = (anchored, regs.first()) {
            hub.fast.anchor(&first.handler);
            st.anchor = Some(first.handler.owner());
            // As if the others had been enabled after the anchor subscribed.
            st.shared_since_anchor = regs.len() > 1;
        }
        st.regs = regs;
        let old = hub.publish(&st);
        drop(st);
        hub.retire(old);
        hub
    }

    /// `cuptiGetVersion` of the library.
    #[inline(always)]
    pub(crate) fn version(&self) -> u32 {
        self.version.load(Ordering::Relaxed)
    }

    /// The same, for [`CallbackData`] to read when it needs it.
    #[inline(always)]
    pub(crate) fn version_cell(&self) -> &AtomicU32 {
        &self.version
    }

    /// Whether the library was seen to zero each API call's slot at ENTER (see
    /// [`super::anchor`]); `None` until its first subscriber's fast path has checked.
    pub(crate) fn library_zeroes_slots(&self) -> Option<bool> {
        self.fast.library_zeroes_slots()
    }

    /// The anchor's fast path.
    #[inline(always)]
    pub(crate) fn fast_path(&self) -> &FastPath {
        &self.fast
    }

    /// The routing table now. Valid while the caller's read section lasts.
    #[inline(always)]
    pub(crate) fn snapshot<'g>(&self, _guard: &'g rcu::ReadGuard) -> &'g Snapshot {
        // SAFETY: `current` is never null; a snapshot is freed only after a grace period, which
        // the caller's read section (witnessed by `_guard`) holds off.
        unsafe { &*self.current.load(Ordering::Acquire) }
    }

    /// The real subscription's kind, or `None` before the first subscriber and after [`Hub::release`].
    pub(crate) fn subscription(&self) -> Option<SubscriptionKind> {
        lock(&self.state).subscription.map(|s| s.1)
    }

    /// The raw CUPTI subscriber handle while the hub holds a subscription.
    pub(crate) fn raw_handle(&self) -> Option<CUpti_SubscriberHandle> {
        lock(&self.state).subscription.map(|s| s.0 as CUpti_SubscriberHandle)
    }

    /// Adds a subscriber with nothing enabled. The first one makes the CUPTI subscription, for
    /// its closure: it is the anchor (see [`super::anchor`]).
    pub(crate) fn register<F>(&'static self, cupti: &Cupti, f: F) -> Result<Arc<Handler>>
    where
        F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
    {
        rcu::init();
        let mut st = lock(&self.state);
        let key = st.next_key;
        let handler = Arc::new(Handler::new(key, Callback::new(f)));
        if st.subscription.is_none() {
            self.version.store(cupti.version(), Ordering::Relaxed);
            // Before CUPTI can call `entry::<F>`: it reads the anchor's closure from here.
            self.fast.anchor(&handler);
            st.subscription = Some(self.subscribe(Some(entry::<F>))?);
            st.anchor = Some(key);
            st.anchor_kept = (!std::mem::needs_drop::<F>()).then(|| handler.clone());
            st.shared_since_anchor = false;
        }
        st.next_key += 1;
        st.regs.push(Registration {
            handler: handler.clone(),
            domains: Default::default(),
            ids: Default::default(),
        });
        Ok(handler)
    }

    /// Turns `target` on for subscriber `key`.
    pub(crate) fn enable(&self, key: u64, target: Target) -> Result<()> {
        match target {
            Target::Domain(d) if d > MAX_DOMAIN => {
                return Err(Error::InvalidParameter { function: "cuptiEnableDomain" })
            }
            Target::Id(d, c) if d > MAX_DOMAIN || c > MAX_CBID => {
                return Err(Error::InvalidParameter { function: "cuptiEnableCallback" })
            }
            _ => {}
        }
        let mut st = lock(&self.state);
        let Some(i) = st.regs.iter().position(|r| r.handler.owner() == key) else { return Ok(()) };
        if Self::has(&st.regs[i], target) {
            return Ok(());
        }
        if st.anchor != Some(key) {
            // Before CUPTI delivers anything for another subscriber: the anchor's fast path must
            // no longer take whatever CUPTI delivers as its own.
            st.shared_since_anchor = true;
            self.fast.clear();
        }
        self.arm(&mut st, target)?;
        match target {
            Target::Domain(d) => st.regs[i].domains.insert(d),
            Target::Id(d, c) => st.regs[i].ids.insert((d, c)),
        };
        let old = self.publish(&st);
        drop(st);
        self.retire(old);
        Ok(())
    }

    /// Turns `target` off for subscriber `key`. The routing changes even if CUPTI refuses to
    /// disable (then it keeps calling, and nobody is reached).
    pub(crate) fn disable(&self, key: u64, target: Target) -> Result<()> {
        let mut st = lock(&self.state);
        let Some(i) = st.regs.iter().position(|r| r.handler.owner() == key) else { return Ok(()) };
        let removed = match target {
            Target::Domain(d) => st.regs[i].domains.remove(&d),
            Target::Id(d, c) => st.regs[i].ids.remove(&(d, c)),
        };
        if !removed {
            return Ok(());
        }
        let result = self.disarm(&mut st, target);
        let old = self.publish(&st);
        drop(st);
        self.retire(old);
        result
    }

    /// Whether subscriber `key` has `target` on.
    pub(crate) fn is_enabled(&self, key: u64, target: Target) -> bool {
        let st = lock(&self.state);
        st.regs.iter().find(|r| r.handler.owner() == key).is_some_and(|r| Self::has(r, target))
    }

    /// Removes subscriber `key`: disables what only it had on, and returns once no callback can
    /// reach its closure any more (or, when called from inside a callback, leaves the freeing to
    /// a later grace period). The real CUPTI subscription is kept even when `key` was the last
    /// subscriber: CUPTI 13.0 was seen (on an H200, driver 580) to crash other threads' CUDA
    /// calls when a subscription is dropped while they run, so it is given back only by
    /// [`Hub::release`], which the caller promises to call when no CUDA call is in flight.
    pub(crate) fn unregister(&self, key: u64) {
        let mut st = lock(&self.state);
        let Some(i) = st.regs.iter().position(|r| r.handler.owner() == key) else { return };
        let reg = st.regs.remove(i);
        reg.handler.retire();
        if st.anchor == Some(key) {
            // No fast call starts from here on (the routing table follows below).
            self.fast.clear();
        }
        for &d in &reg.domains {
            let _ = self.disarm(&mut st, Target::Domain(d));
        }
        for &(d, c) in &reg.ids {
            let _ = self.disarm(&mut st, Target::Id(d, c));
        }
        // The real subscription stays when the last subscriber goes (see `release`).
        let old = self.publish(&st);
        drop(st);
        drop(reg);
        self.retire(old);
    }

    /// Gives the real CUPTI subscription back when no subscriber is left; `Ok(false)` when
    /// subscribers remain (nothing changes) or nothing was held.
    ///
    /// # Safety
    /// No other thread may be inside a CUDA call: the real CUPTI 13.0 was seen to crash a thread
    /// calling `cuDeviceGetCount` while another unsubscribed.
    pub(crate) unsafe fn release(&self) -> Result<bool> {
        let mut st = lock(&self.state);
        if !st.regs.is_empty() {
            return Ok(false);
        }
        let Some((handle, _)) = st.subscription.take() else { return Ok(false) };
        // SAFETY: `handle` is the live subscription this hub made; the caller guarantees no
        // CUDA call is in flight.
        let r = unsafe { self.functions.cuptiUnsubscribe(handle as CUpti_SubscriberHandle) };
        // No callback is running (the caller's promise), and CUPTI makes no new one: the kept
        // anchor closure can go.
        self.fast.clear();
        st.anchor = None;
        let kept = st.anchor_kept.take();
        let old = self.publish(&st);
        drop(st);
        self.retire(old);
        drop(kept);
        check(&self.functions, "cuptiUnsubscribe", r)?;
        Ok(true)
    }

    fn has(reg: &Registration, target: Target) -> bool {
        match target {
            Target::Domain(d) => reg.domains.contains(&d),
            Target::Id(d, c) => reg.ids.contains(&(d, c)),
        }
    }

    /// Counts one more user of `target`, enabling it in CUPTI on the first.
    fn arm(&self, st: &mut State, target: Target) -> Result<()> {
        let handle = st.subscription.map(|s| s.0 as CUpti_SubscriberHandle).unwrap_or(std::ptr::null_mut());
        match target {
            Target::Domain(d) => {
                if st.domain_arms.get(&d).copied().unwrap_or(0) == 0 {
                    self.enable_domain_in_cupti(handle, d, true)?;
                }
                *st.domain_arms.entry(d).or_insert(0) += 1;
            }
            Target::Id(d, c) => {
                let whole_domain = st.domain_arms.get(&d).copied().unwrap_or(0) > 0;
                if st.id_arms.get(&(d, c)).copied().unwrap_or(0) == 0 && !whole_domain {
                    self.enable_id_in_cupti(handle, d, c, true)?;
                }
                *st.id_arms.entry((d, c)).or_insert(0) += 1;
            }
        }
        Ok(())
    }

    /// Counts one user less of `target`, disabling it in CUPTI after the last (and keeping the
    /// ids that others enabled singly when a whole domain goes off).
    fn disarm(&self, st: &mut State, target: Target) -> Result<()> {
        let handle = st.subscription.map(|s| s.0 as CUpti_SubscriberHandle).unwrap_or(std::ptr::null_mut());
        match target {
            Target::Domain(d) => {
                let Some(n) = st.domain_arms.get_mut(&d) else { return Ok(()) };
                *n -= 1;
                if *n > 0 {
                    return Ok(());
                }
                st.domain_arms.remove(&d);
                let mut result = self.enable_domain_in_cupti(handle, d, false);
                let kept: Vec<u32> = st.id_arms.keys().filter(|k| k.0 == d).map(|k| k.1).collect();
                for c in kept {
                    if let Err(e) = self.enable_id_in_cupti(handle, d, c, true) {
                        result = result.and(Err(e));
                    }
                }
                result
            }
            Target::Id(d, c) => {
                let Some(n) = st.id_arms.get_mut(&(d, c)) else { return Ok(()) };
                *n -= 1;
                if *n > 0 {
                    return Ok(());
                }
                st.id_arms.remove(&(d, c));
                if st.domain_arms.get(&d).copied().unwrap_or(0) > 0 {
                    return Ok(()); // still on for the whole domain
                }
                self.enable_id_in_cupti(handle, d, c, false)
            }
        }
    }

    fn enable_domain_in_cupti(&self, handle: CUpti_SubscriberHandle, d: u32, on: bool) -> Result<()> {
        // SAFETY: plain values; `handle` is this hub's live subscription.
        let r = unsafe { self.functions.cuptiEnableDomain(u32::from(on), handle, CUpti_CallbackDomain(d)) };
        check(&self.functions, "cuptiEnableDomain", r)
    }

    fn enable_id_in_cupti(&self, handle: CUpti_SubscriberHandle, d: u32, c: u32, on: bool) -> Result<()> {
        // SAFETY: plain values; `handle` is this hub's live subscription.
        let r =
            unsafe { self.functions.cuptiEnableCallback(u32::from(on), handle, CUpti_CallbackDomain(d), c) };
        check(&self.functions, "cuptiEnableCallback", r)
    }

    /// The error of a result that is not `CUPTI_SUCCESS`.
    fn error(&self, function: &'static str, code: ResultCode) -> Error {
        let message = || result_string(&self.functions, code).unwrap_or_default();
        Error::from_code(function, code, message).unwrap_or_else(|| Error::Cupti {
            function,
            code,
            message: message(),
        })
    }

    /// Publishes the routing table for `st` and returns the one it replaces. The anchor's fast
    /// path stops serving before a table routing anyone else is published, and serves the
    /// anchor's ids only once a table routing the anchor alone is.
    fn publish(&self, st: &State) -> Box<Snapshot> {
        let table = Box::new(Snapshot::build(&st.regs, st.anchor.unwrap_or(0)));
        let anchor_alone = table.anchor_ids().copied();
        if anchor_alone.is_none() {
            self.fast.clear();
        }
        let new = Box::into_raw(table);
        let old = self.current.swap(new, Ordering::AcqRel);
        if let Some(ids) = anchor_alone {
            self.fast.serve(&ids, !st.shared_since_anchor);
        }
        // SAFETY: every pointer stored in `current` came from `Box::into_raw`; this one is now
        // unpublished and owned here (readers may still use it until a grace period passes).
        unsafe { Box::from_raw(old) }
    }

    /// Frees `old` once no reader can hold it: after a grace period, or, inside a callback
    /// (where a grace period would wait for itself), after a later one.
    fn retire(&self, old: Box<Snapshot>) {
        if rcu::in_read_section() {
            lock(&self.deferred).push(old);
            return;
        }
        let earlier = std::mem::take(&mut *lock(&self.deferred));
        rcu::synchronize();
        drop(old);
        drop(earlier);
    }

    /// Makes the real subscription for `callback`: `cuptiSubscribe_v2` allowing other
    /// subscribers (13.2+), else (older, or sharing refused) `cuptiSubscribe_v2` without, else
    /// `cuptiSubscribe`.
    fn subscribe(&'static self, callback: CUpti_CallbackFunc) -> Result<(usize, SubscriptionKind)> {
        let userdata = self as *const Hub as *mut c_void;
        let version = self.version();
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
                // `userdata` (a leaked hub) live for the rest of the process.
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
