//! [`Switchboard`]: one vendor subscription, shared by every subscriber of a library.
//!
//! CUPTI before 13.2 and MSPTI allow one subscription per process; the switchboard holds it and
//! fans callbacks out to the subscribers' closures. It keeps a reference count per enabled domain
//! and per enabled `(domain, cbid)`, so the vendor is told to enable on the first subscriber that
//! wants a callback and to disable when the last one stops: two subscribers scoping the same id to
//! different windows never disable each other, and each closure sees only what it enabled itself.
//!
//! Changes happen under a mutex that the callback path never takes; each one publishes a new
//! [`Routes`] table with one atomic swap and frees the old one after a grace period (see
//! [`super::rcu`]): enabling and disabling never wait for it (the old table is deferred); dropping
//! a subscriber waits for it where asked to, so that its closure is gone when the drop returns (see
//! [`super::closure`]).

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::fmt;
use std::sync::Arc;

use super::closure::{Callback, Handler};
use super::frames;
use super::rcu::{self, ReadSection};
use super::routes::{Registration, Routes, DOMAINS};
use super::sync::{lock, AtomicPtr, Mutex, MutexGuard, Ordering};
use super::vendor::{Target, Vendor};

/// Domains and cbids beyond these are refused before reaching the vendor (they would only size the
/// routing table).
pub const MAX_DOMAIN: u32 = DOMAINS as u32 - 1;
/// See [`MAX_DOMAIN`].
pub const MAX_CBID: u32 = 1 << 16;

/// Generations of vendor subscriptions: unique in the process, never 0.
static GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// What the vendor holds as `userdata` for one subscription of a switchboard that gives its
/// subscription back ([`Vendor::KEEPS_SUBSCRIPTION`] false). Leaked (a few bytes per subscription):
/// the vendor may call in with it after unsubscribing returned.
pub struct Ticket<V: Vendor> {
    board: &'static Switchboard<V>,
    generation: u64,
}

impl<V: Vendor> Ticket<V> {
    /// The switchboard.
    #[inline(always)]
    pub fn board(&self) -> &'static Switchboard<V> {
        self.board
    }

    /// This subscription's generation.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The routing table, if this ticket's subscription is the one the switchboard routes now
    /// (`None`: a late call of a subscription given back, which reaches nobody).
    #[inline(always)]
    pub fn routes<'g>(&self, section: &'g ReadSection) -> Option<&'g Routes<V>> {
        let routes = self.board.routes(section);
        (routes.generation() == self.generation).then_some(routes)
    }
}

impl<V: Vendor> fmt::Debug for Ticket<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ticket").field("generation", &self.generation).finish_non_exhaustive()
    }
}

struct State<V: Vendor> {
    /// The vendor's handle; `None` before the first subscriber and after the subscription was given
    /// back.
    subscription: Option<usize>,
    /// The subscription's generation (0: none yet).
    generation: u64,
    /// The key of the subscriber the subscription was made for, until the subscription is given
    /// back; where the subscription is kept, it stays after that subscriber is dropped, reaching
    /// nobody.
    anchor: Option<u64>,
    /// Where the subscription is kept: the anchor's handler, when its closure owns nothing to drop,
    /// kept until the subscription is given back (a vendor's fast path may call it without a read
    /// section).
    anchor_kept: Option<Arc<Handler<V>>>,
    /// Another subscriber has had something enabled since the subscription was made.
    shared_since_anchor: bool,
    regs: Vec<Registration<V>>,
    domain_arms: BTreeMap<u32, usize>,
    id_arms: BTreeMap<(u32, u32), usize>,
}

/// One library's switchboard (see the module documentation). Made by [`Switchboard::leak`]: a
/// vendor may call in with it after unsubscribing returned.
pub struct Switchboard<V: Vendor> {
    vendor: V,
    current: AtomicPtr<Routes<V>>,
    state: Mutex<State<V>>,
}

impl<V: Vendor> fmt::Debug for Switchboard<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let st = lock(&self.state);
        f.debug_struct("Switchboard")
            .field("subscribed", &st.subscription.is_some())
            .field("subscribers", &st.regs.len())
            .finish_non_exhaustive()
    }
}

impl<V: Vendor> Switchboard<V> {
    /// A switchboard over `vendor`, with no subscription yet, for the rest of the process.
    pub fn leak(vendor: V) -> &'static Switchboard<V> {
        Box::leak(Box::new(Switchboard {
            vendor,
            current: AtomicPtr::new(Box::into_raw(Box::default())),
            state: Mutex::new(State {
                subscription: None,
                generation: 0,
                anchor: None,
                anchor_kept: None,
                shared_since_anchor: false,
                regs: Vec::new(),
                domain_arms: BTreeMap::new(),
                id_arms: BTreeMap::new(),
            }),
        }))
    }

    /// A switchboard over `vendor` (which is never called) with `regs` routed as they are, for a
    /// vendor crate's dispatch tests and benchmarks; with `anchored`, the first of `regs` is the
    /// anchor (as if the others had been enabled after it subscribed).
    #[doc(hidden)]
    pub fn preset(vendor: V, regs: Vec<Registration<V>>, anchored: bool) -> &'static Switchboard<V> {
        rcu::init();
        let board = Switchboard::leak(vendor);
        let mut st = lock(&board.state);
        if let (true, Some(first)) = (anchored, regs.first()) {
            board.vendor.anchoring(&first.handler);
            st.anchor = Some(first.handler.key());
            st.shared_since_anchor = regs.len() > 1;
        }
        st.regs = regs;
        st.generation = GENERATION.fetch_add(1, Ordering::Relaxed);
        let old = board.publish(&st);
        drop(st);
        rcu::defer(old);
        board
    }

    /// The vendor.
    #[inline(always)]
    pub fn vendor(&self) -> &V {
        &self.vendor
    }

    /// The routing table now, valid while the caller's read section lasts.
    #[inline(always)]
    pub fn routes<'g>(&self, _section: &'g ReadSection) -> &'g Routes<V> {
        // SAFETY: `current` is never null; a table is freed only after a grace period, which the
        // caller's read section (witnessed by `_section`, which cannot outlive it) holds off.
        unsafe { &*self.current.load(Ordering::Acquire) }
    }

    /// The vendor's handle while the switchboard holds a subscription.
    pub fn subscription(&self) -> Option<usize> {
        lock(&self.state).subscription
    }

    /// Subscribers registered now.
    pub fn subscribers(&self) -> usize {
        lock(&self.state).regs.len()
    }

    /// Adds a subscriber with nothing enabled. When the switchboard holds no subscription, this
    /// one makes it, with `entry` (for this closure: it is the *anchor*).
    pub fn register<F>(&'static self, f: F, entry: V::Entry) -> Result<Arc<Handler<V>>, V::Error>
    where
        F: Fn(&V::Data<'_>) + Send + Sync + 'static,
    {
        rcu::init();
        if V::KEEPS_SUBSCRIPTION {
            self.forget_if_not_held();
        }
        let mut st = lock(&self.state);
        let handler = Arc::new(Handler::new(Callback::new(f)));
        let subscribed = st.subscription.is_none();
        if subscribed {
            let generation = GENERATION.fetch_add(1, Ordering::Relaxed);
            let ticket: *mut Ticket<V> = if V::KEEPS_SUBSCRIPTION {
                std::ptr::null_mut()
            } else {
                Box::into_raw(Box::new(Ticket { board: self, generation }))
            };
            let userdata: *mut c_void =
                if V::KEEPS_SUBSCRIPTION { (self as *const Self).cast_mut().cast() } else { ticket.cast() };
            // Before the vendor can call `entry`: it may look for the anchor's closure.
            self.vendor.anchoring(&handler);
            match self.vendor.subscribe(entry, userdata) {
                Ok(handle) => st.subscription = Some(handle),
                Err(e) => {
                    self.vendor.unanchored();
                    if !ticket.is_null() {
                        // SAFETY: made above by `Box::into_raw`; the vendor refused the
                        // subscription, so it never kept the pointer.
                        drop(unsafe { Box::from_raw(ticket) });
                    }
                    return Err(e);
                }
            }
            st.generation = generation;
            st.anchor = Some(handler.key());
            st.anchor_kept = (V::KEEPS_SUBSCRIPTION && !std::mem::needs_drop::<F>()).then(|| handler.clone());
            st.shared_since_anchor = false;
        }
        st.regs.push(Registration {
            handler: handler.clone(),
            domains: Default::default(),
            ids: Default::default(),
        });
        if subscribed {
            let old = self.publish(&st);
            // Queued under the lock: an unregister waiting on another thread must find it.
            rcu::defer_unpolled(old);
            drop(st);
            rcu::poll();
        }
        Ok(handler)
    }

    /// Turns `target` on for subscriber `key`.
    pub fn enable(&self, key: u64, target: Target) -> Result<(), V::Error> {
        match target {
            Target::Domain(d) if d > MAX_DOMAIN => return Err(self.vendor.out_of_range(target)),
            Target::Id(d, c) if d > MAX_DOMAIN || c > MAX_CBID => {
                return Err(self.vendor.out_of_range(target))
            }
            _ => {}
        }
        let mut st = lock(&self.state);
        let Some(i) = st.regs.iter().position(|r| r.handler.key() == key) else { return Ok(()) };
        if has(&st.regs[i], target) {
            return Ok(());
        }
        if st.anchor != Some(key) {
            // Before the vendor delivers anything for another subscriber.
            st.shared_since_anchor = true;
            self.vendor.sharing();
        }
        self.arm(&mut st, target)?;
        match target {
            Target::Domain(d) => st.regs[i].domains.insert(d),
            Target::Id(d, c) => st.regs[i].ids.insert((d, c)),
        };
        let old = self.publish(&st);
        // Queued under the lock: an unregister waiting on another thread must find it.
        rcu::defer_unpolled(old);
        drop(st);
        rcu::poll();
        Ok(())
    }

    /// Turns `target` off for subscriber `key`. The routing changes even if the vendor refuses to
    /// disable (then it keeps calling, and nobody is reached).
    pub fn disable(&self, key: u64, target: Target) -> Result<(), V::Error> {
        let mut st = lock(&self.state);
        let Some(i) = st.regs.iter().position(|r| r.handler.key() == key) else { return Ok(()) };
        let removed = match target {
            Target::Domain(d) => st.regs[i].domains.remove(&d),
            Target::Id(d, c) => st.regs[i].ids.remove(&(d, c)),
        };
        if !removed {
            return Ok(());
        }
        let result = self.disarm(&mut st, target);
        let old = self.publish(&st);
        // Queued under the lock: an unregister waiting on another thread must find it.
        rcu::defer_unpolled(old);
        drop(st);
        rcu::poll();
        result
    }

    /// Whether subscriber `key` has `target` on.
    pub fn is_enabled(&self, key: u64, target: Target) -> bool {
        let st = lock(&self.state);
        st.regs.iter().find(|r| r.handler.key() == key).is_some_and(|r| has(r, target))
    }

    /// Removes subscriber `key`: no call of its closure starts after this returns; the vendor is
    /// told to disable what only it had on, and, where the subscription is not kept, the last
    /// subscriber gives it back (the vendor's error, if any, is returned; the rest is done anyway).
    ///
    /// With `wait`, returns once no callback can still be running its closure (outside a read
    /// section; inside one, a grace period would wait for itself); the closure is then freed when
    /// the caller drops its own handle. Without, the retired table is deferred: the closure is freed
    /// once the callbacks that could reach it have returned, by whoever sees that first (the next
    /// change, or a vendor trampoline that polls).
    pub fn unregister(&self, key: u64, wait: bool) -> Result<(), V::Error> {
        let mut st = lock(&self.state);
        let Some(i) = st.regs.iter().position(|r| r.handler.key() == key) else { return Ok(()) };
        let reg = st.regs.remove(i);
        reg.handler.retire();
        if st.anchor == Some(key) {
            // No fast call starts from here on (the routing table follows below).
            self.vendor.unanchored();
        }
        for &d in &reg.domains {
            let _ = self.disarm(&mut st, Target::Domain(d));
        }
        for &(d, c) in &reg.ids {
            let _ = self.disarm(&mut st, Target::Id(d, c));
        }
        let mut result = Ok(());
        if !V::KEEPS_SUBSCRIPTION && st.regs.is_empty() {
            if let Some(handle) = st.subscription.take() {
                result = self.vendor.unsubscribe(handle);
                st.anchor = None;
                st.generation = 0;
            }
        }
        let old = self.publish(&st);
        // Queued under the lock, so that a grace period waited for by any unregister that comes
        // after this one (on another thread) frees the tables that still reach its closure.
        rcu::defer_unpolled(old);
        drop(st);
        if wait && !rcu::in_read_section() {
            rcu::synchronize();
        } else {
            rcu::poll();
        }
        drop(reg);
        result
    }

    /// Gives a kept subscription back when no subscriber is left; `Ok(false)` when subscribers
    /// remain (nothing changes) or nothing is held.
    ///
    /// # Safety
    /// The vendor's contract for unsubscribing under running calls: for CUPTI, no other thread may
    /// be inside a CUDA call (the real 13.0 crashed a thread calling `cuDeviceGetCount` while
    /// another unsubscribed).
    ///
    /// Called from inside a callback (a read section on this thread), nothing is released
    /// (`Ok(false)`): the grace period it needs would wait for that callback, which waits for it.
    pub unsafe fn release(&self) -> Result<bool, V::Error> {
        if rcu::in_read_section() {
            return Ok(false);
        }
        let mut st = lock(&self.state);
        if !st.regs.is_empty() {
            return Ok(false);
        }
        let Some(handle) = st.subscription.take() else { return Ok(false) };
        let result = self.vendor.unsubscribe(handle);
        // No callback is running (the caller's promise), and the vendor makes no new one: the kept
        // anchor closure can go.
        self.unanchor(st);
        result.map(|()| true)
    }

    /// Forgets a kept subscription that the library no longer knows ([`Vendor::holds`]), when no
    /// subscriber is left, so that the next subscriber makes a new one: as
    /// [`release`](Self::release), without unsubscribing (the library has no such subscriber). Not
    /// from inside a callback (the grace period would wait for it). [`register`](Self::register)
    /// calls it first; a vendor crate may call it before reading [`subscription`](Self::subscription).
    pub fn forget_if_not_held(&self) {
        if rcu::in_read_section() {
            return;
        }
        let mut st = lock(&self.state);
        let Some(handle) = st.subscription else { return };
        if !st.regs.is_empty() || self.vendor.holds(handle) {
            return;
        }
        st.subscription = None;
        st.domain_arms.clear();
        st.id_arms.clear();
        self.unanchor(st);
    }

    /// With the subscription gone (`st.subscription` is `None`): the vendor told, the anchor and the
    /// generation reset, the empty table published, and after the grace period the old table and the
    /// kept anchor closure dropped (the state's lock released first).
    fn unanchor(&self, mut st: MutexGuard<'_, State<V>>) {
        self.vendor.unanchored();
        st.anchor = None;
        st.generation = 0;
        let kept = st.anchor_kept.take();
        let old = self.publish(&st);
        drop(st);
        rcu::synchronize();
        drop(old);
        drop(kept);
    }

    /// Counts one more user of `target`, enabling it in the vendor on the first.
    fn arm(&self, st: &mut State<V>, target: Target) -> Result<(), V::Error> {
        let handle = st.subscription.unwrap_or(0);
        match target {
            Target::Domain(d) => {
                if st.domain_arms.get(&d).copied().unwrap_or(0) == 0 {
                    self.vendor.enable_domain(handle, d, true)?;
                }
                *st.domain_arms.entry(d).or_insert(0) += 1;
            }
            Target::Id(d, c) => {
                let whole_domain = st.domain_arms.get(&d).copied().unwrap_or(0) > 0;
                if st.id_arms.get(&(d, c)).copied().unwrap_or(0) == 0 && !whole_domain {
                    self.vendor.enable_id(handle, d, c, true)?;
                }
                *st.id_arms.entry((d, c)).or_insert(0) += 1;
            }
        }
        Ok(())
    }

    /// Counts one user less of `target`, disabling it in the vendor after the last (and keeping
    /// the ids that others enabled singly when a whole domain goes off). Every switch-off moves the
    /// id's epoch on (see [`frames`]): calls in flight may lose their EXIT.
    fn disarm(&self, st: &mut State<V>, target: Target) -> Result<(), V::Error> {
        let handle = st.subscription.unwrap_or(0);
        match target {
            Target::Domain(d) => {
                let Some(n) = st.domain_arms.get_mut(&d) else { return Ok(()) };
                *n -= 1;
                if *n > 0 {
                    return Ok(());
                }
                st.domain_arms.remove(&d);
                let mut result = self.vendor.enable_domain(handle, d, false);
                frames::domain_switched_off(d);
                let kept: Vec<u32> = st.id_arms.keys().filter(|k| k.0 == d).map(|k| k.1).collect();
                for c in kept {
                    if let Err(e) = self.vendor.enable_id(handle, d, c, true) {
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
                let result = self.vendor.enable_id(handle, d, c, false);
                frames::switched_off(d, c);
                result
            }
        }
    }

    /// Publishes the routing table for `st` and returns the one it replaces (readers may still use
    /// it until a grace period passes).
    fn publish(&self, st: &State<V>) -> Box<Routes<V>> {
        let next = Box::new(Routes::build(&st.regs, st.anchor.unwrap_or(0), st.generation));
        self.vendor.publishing(&next);
        let next = Box::into_raw(next);
        let old = self.current.swap(next, Ordering::AcqRel);
        // SAFETY: just published; only a writer replaces (and later frees) it, and this one holds
        // the state lock that every writer takes.
        self.vendor.published(unsafe { &*next }, !st.shared_since_anchor);
        // SAFETY: every pointer stored in `current` came from `Box::into_raw`; this one is now
        // unpublished and owned here.
        unsafe { Box::from_raw(old) }
    }
}

fn has<V: Vendor>(reg: &Registration<V>, target: Target) -> bool {
    match target {
        Target::Domain(d) => reg.domains.contains(&d),
        Target::Id(d, c) => reg.ids.contains(&(d, c)),
    }
}
