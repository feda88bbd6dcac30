//! The switchboard's immutable routing table: which closures a `(domain, cbid)` reaches.
//!
//! Rebuilt whole on every change (subscribe, enable, disable, drop) and published with one
//! atomic swap; the dispatcher reads it without a lock (see [`super::rcu`]).

use std::any::Any;
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::data::CallbackData;

/// A subscriber's closure.
pub(crate) type Callback = Box<dyn Fn(&CallbackData<'_>) + Send + Sync + 'static>;

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

    /// Calls the closure; a panic is caught, counted and its message kept.
    #[inline(always)]
    pub(crate) fn call(&self, data: &CallbackData<'_>) {
        if self.retired.load(Ordering::Relaxed) {
            return;
        }
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| (self.callback)(data))) {
            self.panicked(payload);
        }
    }

    #[cold]
    #[inline(never)]
    fn panicked(&self, payload: Box<dyn Any + Send>) {
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

/// What one subscriber has enabled.
pub(crate) struct Registration {
    pub(crate) handler: Arc<Handler>,
    pub(crate) domains: BTreeSet<u32>,
    pub(crate) ids: BTreeSet<(u32, u32)>,
}

#[derive(Default)]
struct DomainTable {
    /// Handlers with the whole domain enabled.
    all: Box<[Arc<Handler>]>,
    /// Per cbid, every handler it reaches (those of the whole domain included), in subscription
    /// order; empty where no handler enabled that id alone (then `all` applies).
    by_id: Box<[Box<[Arc<Handler>]>]>,
}

/// The routing table.
#[derive(Default)]
pub(crate) struct Snapshot {
    domains: Box<[DomainTable]>,
}

impl Snapshot {
    /// The handlers `(domain, cbid)` reaches, in subscription order.
    #[inline(always)]
    pub(crate) fn handlers(&self, domain: u32, cbid: u32) -> &[Arc<Handler>] {
        let Some(t) = self.domains.get(domain as usize) else { return &[] };
        match t.by_id.get(cbid as usize) {
            Some(list) if !list.is_empty() => list,
            _ => &t.all,
        }
    }

    /// The table for `regs` (in subscription order).
    pub(crate) fn build(regs: &[Registration]) -> Snapshot {
        let max_domain =
            regs.iter().flat_map(|r| r.domains.iter().copied().chain(r.ids.iter().map(|&(d, _)| d))).max();
        let Some(max_domain) = max_domain else { return Snapshot::default() };
        let domains = (0..=max_domain)
            .map(|d| {
                let all: Box<[Arc<Handler>]> =
                    regs.iter().filter(|r| r.domains.contains(&d)).map(|r| r.handler.clone()).collect();
                let ids: BTreeSet<u32> =
                    regs.iter().flat_map(|r| r.ids.iter().filter(|k| k.0 == d).map(|k| k.1)).collect();
                let len = ids.last().map_or(0, |&m| m as usize + 1);
                let mut by_id: Vec<Box<[Arc<Handler>]>> = (0..len).map(|_| Box::default()).collect();
                for &cbid in &ids {
                    by_id[cbid as usize] = regs
                        .iter()
                        .filter(|r| r.domains.contains(&d) || r.ids.contains(&(d, cbid)))
                        .map(|r| r.handler.clone())
                        .collect();
                }
                DomainTable { all, by_id: by_id.into() }
            })
            .collect();
        Snapshot { domains }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(key: u64, domains: &[u32], ids: &[(u32, u32)]) -> Registration {
        Registration {
            handler: Arc::new(Handler::new(key, Box::new(|_| {}))),
            domains: domains.iter().copied().collect(),
            ids: ids.iter().copied().collect(),
        }
    }

    #[test]
    fn ids_reach_their_subscribers_and_the_whole_domain_ones_in_order() {
        let regs = [reg(1, &[2], &[]), reg(2, &[], &[(2, 211), (1, 307)]), reg(3, &[], &[])];
        let s = Snapshot::build(&regs);
        let owners = |d, c| s.handlers(d, c).iter().map(|h| h.owner()).collect::<Vec<_>>();
        let (a, b) = (regs[0].handler.owner(), regs[1].handler.owner());
        assert_eq!(owners(2, 211), vec![a, b]);
        assert_eq!(owners(2, 31), vec![a]);
        assert_eq!(owners(2, 100_000), vec![a]);
        assert_eq!(owners(1, 307), vec![b]);
        assert!(owners(1, 306).is_empty());
        assert!(owners(5, 1).is_empty());
        assert!(Snapshot::build(&[]).handlers(2, 211).is_empty());
    }

    #[test]
    fn a_panicking_closure_is_counted_with_its_message() {
        let h = Handler::new(1, Box::new(|_| panic!("boom")));
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
        // SAFETY: `raw` is API callback data, alive for the call.
        let data = unsafe { CallbackData::new(id, &raw as *const _ as *const _, 130001, &slot) };
        h.call(&data);
        h.call(&data);
        assert_eq!(h.panics(), 2);
        assert_eq!(h.last_panic().as_deref(), Some("boom"));
    }
}
