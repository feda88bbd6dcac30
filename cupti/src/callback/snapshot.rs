//! The switchboard's immutable routing table: which closures a `(domain, cbid)` reaches.
//!
//! Rebuilt whole on every change (subscribe, enable, disable, drop) and published with one
//! atomic swap; the dispatcher reads it without a lock (see [`super::rcu`]).

use std::any::Any;
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::data::CallbackData;

/// Calls a type-erased closure under `catch_unwind`: one per closure type, generated at
/// subscription, so the closure's body is inlined into it (one indirect call per callback, not a
/// `Box<dyn Fn>`'s two dependent loads and a call).
type Thunk = unsafe fn(*const (), &CallbackData<'_>) -> Result<(), Box<dyn Any + Send>>;

/// # Safety
/// `f` is the pointer a `Box<F>` was turned into, still alive.
unsafe fn thunk<F: Fn(&CallbackData<'_>)>(
    f: *const (),
    data: &CallbackData<'_>,
) -> Result<(), Box<dyn Any + Send>> {
    // SAFETY: the caller's contract.
    let f = unsafe { &*f.cast::<F>() };
    catch_unwind(AssertUnwindSafe(|| f(data)))
}

/// # Safety
/// `f` is the pointer a `Box<F>` was turned into, not used after this.
unsafe fn drop_box<F>(f: *mut ()) {
    // SAFETY: the caller's contract.
    drop(unsafe { Box::from_raw(f.cast::<F>()) });
}

/// A subscriber's closure, boxed, with its monomorphic call and drop functions.
pub(crate) struct Callback {
    closure: NonNull<()>,
    call: Thunk,
    drop: unsafe fn(*mut ()),
}

// SAFETY: built only from `F: Send + Sync` closures (`Callback::new`).
unsafe impl Send for Callback {}
// SAFETY: as above.
unsafe impl Sync for Callback {}

impl Callback {
    pub(crate) fn new<F>(f: F) -> Callback
    where
        F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
    {
        // SAFETY: `Box::into_raw` never returns null.
        let closure = unsafe { NonNull::new_unchecked(Box::into_raw(Box::new(f))) }.cast::<()>();
        Callback { closure, call: thunk::<F>, drop: drop_box::<F> }
    }
}

impl Drop for Callback {
    fn drop(&mut self) {
        // SAFETY: `closure` came from the `Box<F>` that `drop` frees; this is its last use.
        unsafe { (self.drop)(self.closure.as_ptr()) }
    }
}

/// One subscriber's closure and its panic count.
pub(crate) struct Handler {
    key: u64,
    callback: Callback,
    /// Set when its subscriber is dropped: a dispatch already holding the old routing table
    /// (the one running the drop, when a closure drops a subscriber) skips it from then on.
    retired: AtomicBool,
    panics: AtomicU64,
    last_panic: Mutex<Option<String>>,
}

impl Handler {
    /// The closure's storage (the `Box<F>` its callback was made from).
    pub(crate) fn closure(&self) -> *const () {
        self.callback.closure.as_ptr()
    }

    /// `key` identifies the subscriber for the life of the process (never reused).
    pub(crate) fn new(key: u64, callback: Callback) -> Self {
        Handler {
            key,
            callback,
            retired: AtomicBool::new(false),
            panics: AtomicU64::new(0),
            last_panic: Mutex::new(None),
        }
    }

    /// This handler as a routing-table entry.
    fn route(&self) -> Route {
        Route { call: self.callback.call, closure: self.callback.closure.as_ptr(), handler: self }
    }

    /// Calls the closure; a panic is caught, counted and its message kept.
    #[cfg(test)]
    pub(crate) fn call(&self, data: &CallbackData<'_>) {
        self.route().call(data)
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn panicked(&self, payload: Box<dyn Any + Send>) {
        self.panics.fetch_add(1, Ordering::Relaxed);
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic with a non-string payload".to_owned());
        // Never wait here: a reader of `last_panic` holds the lock only to clone a string.
        if let Ok(mut last) = self.last_panic.try_lock() {
            *last = Some(message);
        }
        // A payload whose destructor panics must not unwind into CUPTI either.
        let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
    }

    /// Whether [`Handler::retire`] was called.
    #[inline(always)]
    pub(crate) fn is_retired(&self) -> bool {
        self.retired.load(Ordering::Relaxed)
    }

    /// No call starts after this (see `retired`).
    pub(crate) fn retire(&self) {
        self.retired.store(true, Ordering::Relaxed);
    }

    pub(crate) fn panics(&self) -> u64 {
        self.panics.load(Ordering::Relaxed)
    }

    pub(crate) fn last_panic(&self) -> Option<String> {
        self.last_panic.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Identifies the handler in correlation frames.
    #[inline(always)]
    pub(crate) fn owner(&self) -> u64 {
        self.key
    }
}

/// A routing-table entry: a handler's closure inline (its thunk and data), so that a dispatch
/// reaches the call with no load beyond the table itself. Valid while the [`Snapshot`] holding
/// it lives (the snapshot owns the handlers it points into).
#[derive(Clone, Copy)]
pub(crate) struct Route {
    call: Thunk,
    closure: *const (),
    handler: *const Handler,
}

impl Route {
    /// Calls the closure unless its subscriber was dropped; a panic is caught, counted and its
    /// message kept.
    #[inline(always)]
    pub(crate) fn call(&self, data: &CallbackData<'_>) {
        // SAFETY: the snapshot this route was borrowed from owns the handler (an `Arc`).
        let handler = unsafe { &*self.handler };
        if handler.retired.load(Ordering::Relaxed) {
            return;
        }
        // SAFETY: `closure` is the live `Box<F>` of the handler's callback, `call` its thunk.
        if let Err(payload) = unsafe { (self.call)(self.closure, data) } {
            handler.panicked(payload);
        }
    }

    /// Identifies the handler in correlation frames.
    #[inline(always)]
    pub(crate) fn owner(&self) -> u64 {
        // SAFETY: as in `call`.
        unsafe { &*self.handler }.key
    }
}

/// What one subscriber has enabled.
pub(crate) struct Registration {
    pub(crate) handler: Arc<Handler>,
    pub(crate) domains: BTreeSet<u32>,
    pub(crate) ids: BTreeSet<(u32, u32)>,
}

impl Registration {
    pub(crate) fn new(
        key: u64,
        callback: Callback,
        domains: BTreeSet<u32>,
        ids: BTreeSet<(u32, u32)>,
    ) -> Self {
        Registration { handler: Arc::new(Handler::new(key, callback)), domains, ids }
    }
}

/// Domains the table routes: the hub accepts domains up to 64.
const DOMAINS: usize = 65;

/// A run of [`Snapshot::routes`].
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

#[derive(Default)]
struct DomainTable {
    /// The handlers with the whole domain enabled.
    all: Span,
    /// Per cbid, every handler it reaches (those of the whole domain included), in
    /// subscription order; ids past its end reach `all`.
    by_id: Box<[Span]>,
}

/// Domains and cbids below these are routed by [`Snapshot::solo_ids`] when one subscriber
/// has anything enabled (every domain and id CUPTI 13 defines).
pub(crate) const SOLO_DOMAINS: usize = 8;
pub(crate) const SOLO_CBIDS: usize = 1024;

/// [`Snapshot::solo_ids`]: bit `cbid` of row `domain`.
pub(crate) type SoloIds = [[u64; SOLO_CBIDS / 64]; SOLO_DOMAINS];

/// The routing table: one flat array of routes, and per domain (inline) and cbid the run of it
/// that the id reaches; and, when a single subscriber has anything enabled (the common case), a
/// bitmap of what reaches it, inline, so that a dispatch reaches the closure one load after the
/// table's address.
pub(crate) struct Snapshot {
    /// The one subscriber with anything enabled, if only one has.
    solo: Option<Route>,
    /// With `solo`: whether `(domain, cbid)` reaches it, bit `cbid` of row `domain`.
    solo_ids: SoloIds,
    /// The key of the library's anchor (see [`super::anchor`]); 0 when it has none.
    anchor: u64,
    domains: [DomainTable; DOMAINS],
    routes: Box<[Route]>,
    /// Keeps what `routes` points into alive.
    _handlers: Box<[Arc<Handler>]>,
}

// SAFETY: the raw pointers in `routes` point into the handlers the snapshot owns (`Arc`s of
// `Send + Sync` handlers), and are only read.
unsafe impl Send for Snapshot {}
// SAFETY: as above.
unsafe impl Sync for Snapshot {}

impl Default for Snapshot {
    fn default() -> Self {
        Snapshot {
            solo: None,
            solo_ids: [[0; SOLO_CBIDS / 64]; SOLO_DOMAINS],
            anchor: 0,
            domains: std::array::from_fn(|_| DomainTable::default()),
            routes: Box::default(),
            _handlers: Box::default(),
        }
    }
}

impl Snapshot {
    /// The handlers `(domain, cbid)` reaches, in subscription order.
    #[inline(always)]
    pub(crate) fn routes(&self, domain: u32, cbid: u32) -> &[Route] {
        let (d, c) = (domain as usize, cbid as usize);
        if self.solo.is_some() && d < SOLO_DOMAINS && c < SOLO_CBIDS {
            let hit = self.solo_ids[d][c / 64] >> (c % 64) & 1 != 0;
            return if hit { self.solo.as_slice() } else { &[] };
        }
        let Some(t) = self.domains.get(domain as usize) else { return &[] };
        let span = t.by_id.get(cbid as usize).copied().unwrap_or(t.all);
        let start = span.start as usize;
        self.routes.get(start..start + span.len as usize).unwrap_or(&[])
    }

    /// The anchor's key (0: none). An API call's EXIT hands a value found in no frame to it.
    #[inline(always)]
    pub(crate) fn anchor(&self) -> u64 {
        self.anchor
    }

    /// What reaches the anchor, when it is the only subscriber with anything enabled: then the
    /// anchor's fast path may serve these ids alone.
    pub(crate) fn anchor_ids(&self) -> Option<&SoloIds> {
        let solo = self.solo.as_ref()?;
        (self.anchor != 0 && solo.owner() == self.anchor).then_some(&self.solo_ids)
    }

    /// The table for `regs` (in subscription order); `anchor`: the anchor's key, 0 for none.
    pub(crate) fn build(regs: &[Registration], anchor: u64) -> Snapshot {
        let mut s = Snapshot { anchor, ..Snapshot::default() };
        let mut routes: Vec<Route> = Vec::new();
        // Appends the routes of `regs` matching `reaches`, reusing the previous run when equal.
        let mut last: Option<(Vec<u64>, Span)> = None;
        let mut push = |reaches: &dyn Fn(&Registration) -> bool| -> Span {
            let keys: Vec<u64> = regs.iter().filter(|r| reaches(r)).map(|r| r.handler.key).collect();
            if keys.is_empty() {
                return Span::default();
            }
            if let Some((k, span)) = &last {
                if *k == keys {
                    return *span;
                }
            }
            let span = Span { start: routes.len() as u32, len: keys.len() as u32 };
            routes.extend(regs.iter().filter(|r| reaches(r)).map(|r| r.handler.route()));
            last = Some((keys, span));
            span
        };
        for (d, t) in s.domains.iter_mut().enumerate() {
            let d = d as u32;
            t.all = push(&|r| r.domains.contains(&d));
            let ids: BTreeSet<u32> =
                regs.iter().flat_map(|r| r.ids.iter().filter(|k| k.0 == d).map(|k| k.1)).collect();
            let len = ids.last().map_or(0, |&m| m as usize + 1);
            let mut by_id = vec![t.all; len];
            for &cbid in &ids {
                by_id[cbid as usize] = push(&|r| r.domains.contains(&d) || r.ids.contains(&(d, cbid)));
            }
            t.by_id = by_id.into();
        }
        s.routes = routes.into();
        let mut routed = regs.iter().filter(|r| !r.domains.is_empty() || !r.ids.is_empty());
        if let (Some(solo), None) = (routed.next(), routed.next()) {
            s.solo = Some(solo.handler.route());
            for (d, row) in s.solo_ids.iter_mut().enumerate() {
                if solo.domains.contains(&(d as u32)) {
                    *row = [u64::MAX; SOLO_CBIDS / 64];
                }
            }
            for &(d, c) in &solo.ids {
                if let Some(word) =
                    s.solo_ids.get_mut(d as usize).and_then(|row| row.get_mut(c as usize / 64))
                {
                    *word |= 1 << (c % 64);
                }
            }
        }
        s._handlers = regs.iter().map(|r| r.handler.clone()).collect();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    fn reg(key: u64, domains: &[u32], ids: &[(u32, u32)]) -> Registration {
        Registration {
            handler: Arc::new(Handler::new(key, Callback::new(|_| {}))),
            domains: domains.iter().copied().collect(),
            ids: ids.iter().copied().collect(),
        }
    }

    #[test]
    fn ids_reach_their_subscribers_and_the_whole_domain_ones_in_order() {
        let regs = [reg(1, &[2], &[]), reg(2, &[], &[(2, 211), (1, 307)]), reg(3, &[], &[])];
        let s = Snapshot::build(&regs, 0);
        let owners = |d, c| s.routes(d, c).iter().map(|h| h.owner()).collect::<Vec<_>>();
        let (a, b) = (regs[0].handler.owner(), regs[1].handler.owner());
        assert_eq!(owners(2, 211), vec![a, b]);
        assert_eq!(owners(2, 31), vec![a]);
        assert_eq!(owners(2, 100_000), vec![a]);
        assert_eq!(owners(1, 307), vec![b]);
        assert!(owners(1, 306).is_empty());
        assert!(owners(5, 1).is_empty());
        assert!(Snapshot::build(&[], 0).routes(2, 211).is_empty());
    }

    #[test]
    fn a_panicking_closure_is_counted_with_its_message() {
        let h = Handler::new(1, Callback::new(|_| panic!("boom")));
        let slot = std::cell::Cell::new(0);
        let raw = cupti_sys::CUpti_CallbackData {
            callbackSite: cupti_sys::CUpti_ApiCallbackSite::CUPTI_API_ENTER,
            functionName: std::ptr::null(),
            functionParams: std::ptr::null(),
            functionReturnValue: std::ptr::null_mut(),
            symbolName: std::ptr::null(),
            context: std::ptr::null_mut(),
            contextUid: 0,
            correlationData: std::ptr::null_mut(),
            correlationId: 1,
        };
        let id = crate::RuntimeCbid::cudaMemcpy_v3020.id();
        let version = AtomicU32::new(130001);
        // SAFETY: `raw` is API callback data, alive for the call.
        let data = unsafe { CallbackData::new(id, &raw as *const _ as *const _, &version, &slot) };
        h.call(&data);
        h.call(&data);
        assert_eq!(h.panics(), 2);
        assert_eq!(h.last_panic().as_deref(), Some("boom"));
    }
}
