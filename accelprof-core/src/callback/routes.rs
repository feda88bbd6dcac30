//! The switchboard's immutable routing table: which closures a `(domain, cbid)` reaches.
//!
//! Rebuilt whole on every change (subscribe, enable, disable, drop) and published with one atomic
//! swap; the dispatch reads it without a lock, inside a read section (see [`super::rcu`]).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::closure::{CallbackArgs, Handler, Thunk};

/// A routing-table entry: a handler's closure inline (its thunk and data), so that a dispatch
/// reaches the call with no load beyond the table itself. Borrowed from the [`Routes`] holding it,
/// which owns the handler it points into.
pub struct Route<A: CallbackArgs> {
    call: Thunk<A>,
    closure: *const (),
    handler: *const Handler<A>,
}

impl<A: CallbackArgs> Route<A> {
    fn new(handler: &Handler<A>) -> Route<A> {
        Route { call: handler.callback().thunk(), closure: handler.closure(), handler }
    }

    /// Calls the closure unless its subscriber was dropped; a panic is caught, counted and its
    /// message kept.
    #[inline(always)]
    pub fn call(&self, data: &A::Data<'_>) {
        let handler = self.handler();
        if handler.is_retired() {
            return;
        }
        // SAFETY: `closure` is the live `Box<F>` of the handler's callback and `call` its thunk:
        // the table this route is borrowed from owns the handler (an `Arc`).
        if let Err(payload) = unsafe { (self.call)(self.closure, data) } {
            handler.panicked(payload);
        }
    }

    /// The handler's key.
    #[inline(always)]
    pub fn owner(&self) -> u64 {
        self.handler().key()
    }

    /// The handler.
    #[inline(always)]
    pub fn handler(&self) -> &Handler<A> {
        // SAFETY: the table this route is borrowed from owns the handler (an `Arc`), and a route is
        // only ever reached through a borrow of its table.
        unsafe { &*self.handler }
    }
}

impl<A: CallbackArgs> std::fmt::Debug for Route<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Route").field("owner", &self.owner()).finish_non_exhaustive()
    }
}

/// What one subscriber has enabled.
pub struct Registration<A: CallbackArgs> {
    /// Its closure.
    pub handler: Arc<Handler<A>>,
    /// Domains enabled whole.
    pub domains: BTreeSet<u32>,
    /// `(domain, cbid)` pairs enabled singly.
    pub ids: BTreeSet<(u32, u32)>,
}

impl<A: CallbackArgs> std::fmt::Debug for Registration<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registration")
            .field("key", &self.handler.key())
            .field("domains", &self.domains)
            .field("ids", &self.ids)
            .finish()
    }
}

/// Domains the table routes: the switchboard accepts domains up to 64.
pub(crate) const DOMAINS: usize = 65;

/// A run of [`Routes::routes`].
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

#[derive(Default)]
struct DomainTable {
    /// The handlers with the whole domain enabled.
    all: Span,
    /// Per cbid, every handler it reaches (those of the whole domain included), in subscription
    /// order; ids past its end reach `all`.
    by_id: Box<[Span]>,
}

/// Domains and cbids below these are routed by a bitmap ([`Routes::anchor_ids`]) when one subscriber has
/// anything enabled (every domain and id of CUPTI 13, MSPTI and rocprofiler-sdk's API kinds).
pub const SOLO_DOMAINS: usize = 8;
/// See [`SOLO_DOMAINS`].
pub const SOLO_CBIDS: usize = 1024;

/// The lone subscriber's bitmap: bit `cbid` of row `domain`.
pub type SoloIds = [[u64; SOLO_CBIDS / 64]; SOLO_DOMAINS];

/// The routing table: one flat array of routes, and per domain (inline) and cbid the run of it that
/// the id reaches; and, when a single subscriber has anything enabled (the common case), a bitmap
/// of what reaches it, inline, so that a dispatch reaches the closure one load after the table's
/// address.
pub struct Routes<A: CallbackArgs> {
    /// The one subscriber with anything enabled, if only one has.
    solo: Option<Route<A>>,
    /// With `solo`: whether `(domain, cbid)` reaches it, bit `cbid` of row `domain`.
    solo_ids: SoloIds,
    /// The key of the switchboard's anchor (the subscriber its vendor subscription was made for);
    /// 0 when it has none.
    anchor: u64,
    /// The vendor subscription this table routes (0: none).
    generation: u64,
    domains: [DomainTable; DOMAINS],
    routes: Box<[Route<A>]>,
    /// Keeps what `routes` points into alive.
    handlers: Box<[Arc<Handler<A>>]>,
}

// SAFETY: the raw pointers in `routes` point into the handlers the table owns (`Arc`s of handlers,
// which are `Send + Sync`: their closures are), and are only read.
unsafe impl<A: CallbackArgs> Send for Routes<A> {}
// SAFETY: as above.
unsafe impl<A: CallbackArgs> Sync for Routes<A> {}

impl<A: CallbackArgs> Default for Routes<A> {
    fn default() -> Self {
        Routes {
            solo: None,
            solo_ids: [[0; SOLO_CBIDS / 64]; SOLO_DOMAINS],
            anchor: 0,
            generation: 0,
            domains: std::array::from_fn(|_| DomainTable::default()),
            routes: Box::default(),
            handlers: Box::default(),
        }
    }
}

impl<A: CallbackArgs> std::fmt::Debug for Routes<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Routes")
            .field("generation", &self.generation)
            .field("anchor", &self.anchor)
            .field("subscribers", &self.handlers.len())
            .finish_non_exhaustive()
    }
}

impl<A: CallbackArgs> Routes<A> {
    /// The handlers `(domain, cbid)` reaches, in subscription order.
    #[inline(always)]
    pub fn get(&self, domain: u32, cbid: u32) -> &[Route<A>] {
        let (d, c) = (domain as usize, cbid as usize);
        if self.solo.is_some() && d < SOLO_DOMAINS && c < SOLO_CBIDS {
            let hit = self.solo_ids[d][c / 64] >> (c % 64) & 1 != 0;
            return if hit { self.solo.as_slice() } else { &[] };
        }
        let Some(t) = self.domains.get(d) else { return &[] };
        let span = t.by_id.get(c).copied().unwrap_or(t.all);
        let start = span.start as usize;
        self.routes.get(start..start + span.len as usize).unwrap_or(&[])
    }

    /// The anchor's key (0: none). An EXIT hands a value found in no frame to it.
    #[inline(always)]
    pub fn anchor(&self) -> u64 {
        self.anchor
    }

    /// The vendor subscription this table routes: a process-unique number, 0 for none. A late call
    /// of an older subscription is told apart by it.
    #[inline(always)]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// What reaches the anchor, when it is the only subscriber with anything enabled: then a
    /// vendor's fast path may serve these ids alone.
    pub fn anchor_ids(&self) -> Option<&SoloIds> {
        let solo = self.solo.as_ref()?;
        (self.anchor != 0 && solo.owner() == self.anchor).then_some(&self.solo_ids)
    }

    /// Subscribers routed anything.
    pub fn routed(&self) -> usize {
        self.handlers.len()
    }

    /// The table for `regs` (in subscription order); `anchor`: the anchor's key, 0 for none.
    pub fn build(regs: &[Registration<A>], anchor: u64, generation: u64) -> Routes<A> {
        let mut s = Routes { anchor, generation, ..Routes::default() };
        let mut routes: Vec<Route<A>> = Vec::new();
        // Appends the routes of `regs` matching `reaches`, reusing the previous run when equal.
        let mut last: Option<(Vec<u64>, Span)> = None;
        let mut push = |reaches: &dyn Fn(&Registration<A>) -> bool| -> Span {
            let keys: Vec<u64> = regs.iter().filter(|r| reaches(r)).map(|r| r.handler.key()).collect();
            if keys.is_empty() {
                return Span::default();
            }
            if let Some((k, span)) = &last {
                if *k == keys {
                    return *span;
                }
            }
            let span = Span { start: routes.len() as u32, len: keys.len() as u32 };
            routes.extend(regs.iter().filter(|r| reaches(r)).map(|r| Route::new(&r.handler)));
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
        let routed: Vec<&Registration<A>> =
            regs.iter().filter(|r| !r.domains.is_empty() || !r.ids.is_empty()).collect();
        if let [solo] = routed[..] {
            s.solo = Some(Route::new(&solo.handler));
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
        s.handlers = routed.iter().map(|r| r.handler.clone()).collect();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::closure::Callback;
    use super::*;

    struct Args;
    impl CallbackArgs for Args {
        type Data<'a> = u32;
    }

    fn reg(domains: &[u32], ids: &[(u32, u32)]) -> Registration<Args> {
        Registration {
            handler: Arc::new(Handler::new(Callback::new(|_: &u32| {}))),
            domains: domains.iter().copied().collect(),
            ids: ids.iter().copied().collect(),
        }
    }

    #[test]
    fn ids_reach_their_subscribers_and_the_whole_domain_ones_in_order() {
        let regs = [reg(&[2], &[]), reg(&[], &[(2, 211), (1, 307)]), reg(&[], &[])];
        let s = Routes::build(&regs, 0, 1);
        let owners = |d, c| s.get(d, c).iter().map(|h| h.owner()).collect::<Vec<_>>();
        let (a, b) = (regs[0].handler.key(), regs[1].handler.key());
        assert_eq!(owners(2, 211), vec![a, b]);
        assert_eq!(owners(2, 31), vec![a]);
        assert_eq!(owners(2, 100_000), vec![a]);
        assert_eq!(owners(1, 307), vec![b]);
        assert!(owners(1, 306).is_empty());
        assert!(owners(5, 1).is_empty());
        assert!(owners(100, 1).is_empty());
        assert_eq!(s.routed(), 2, "the subscriber with nothing enabled is not held");
        assert!(Routes::<Args>::build(&[], 0, 1).get(2, 211).is_empty());
    }

    #[test]
    fn a_lone_subscriber_is_routed_by_its_bitmap_and_the_anchor_alone_is_known() {
        let regs = [reg(&[3], &[(1, 5), (1, 2000)])];
        let key = regs[0].handler.key();
        let s = Routes::build(&regs, key, 9);
        assert_eq!(s.get(3, 999).len(), 1);
        assert_eq!(s.get(1, 5).len(), 1);
        assert!(s.get(1, 6).is_empty());
        assert_eq!(s.get(1, 2000).len(), 1, "past the bitmap: the table");
        assert!(s.anchor_ids().is_some());
        assert_eq!(s.generation(), 9);
        assert!(Routes::build(&regs, key + 1, 9).anchor_ids().is_none(), "alone, but not the anchor");
    }
}
