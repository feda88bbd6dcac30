//! Model checks of the callback machinery's concurrency, with loom (`RUSTFLAGS="--cfg loom"`; see
//! `docs/CHECKS.md` and `.ci/loom`). Built with that flag, [`super::sync`] hands the real
//! algorithms loom's atomics, mutexes, statics and thread-locals, so what is checked here is
//! `rcu`, the switchboard, the routing table and the closure's lifetime as they are.
//!
//! A freed value is caught by a [`Slab`]: its free (its owner's drop) writes to a loom `UnsafeCell`
//! that every use reads, and loom fails an execution where that write is not ordered after
//! (happens after) every read: a use after free, or a free under a running call.
//!
//! Each model prints the executions it explored; `LOOM_MAX_PREEMPTIONS` (default here: 3) bounds
//! the preemptions per execution.

use std::cell::Cell;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize as StdUsize, Ordering::SeqCst};
use std::sync::Arc as StdArc;

use loom::cell::UnsafeCell;
use loom::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize};
use loom::sync::Arc;
use loom::thread;

use super::closure::{CallbackArgs, Handler};
use super::dispatch::{self, SlotData};
use super::frames::CorrelationSlot;
use super::rcu;
use super::switchboard::Switchboard;
use super::sync::Ordering::{AcqRel, Acquire, Release};
use super::vendor::{Target, Vendor};

/// Runs `f` under loom's exhaustive scheduler and reports how many executions it explored.
pub(crate) fn check(name: &str, f: impl Fn() + Send + Sync + 'static) {
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(3);
    }
    let bound = builder.preemption_bound;
    let runs = StdArc::new(StdUsize::new(0));
    let counted = runs.clone();
    builder.check(move || {
        counted.fetch_add(1, SeqCst);
        f()
    });
    eprintln!("loom model {name}: {} executions explored (preemption bound {bound:?})", runs.load(SeqCst));
}

/// A value whose freeing loom checks against every read of it. Its memory is never given back
/// (leaked, a few bytes per execution), so that a read after the "free" is reported by loom as
/// unordered with the free's write instead of reading reused memory.
struct Slab {
    value: UnsafeCell<u64>,
    /// Counts frees (shared with the model, which asserts "exactly once"); loom's, so that the
    /// free is a step of its own that the model checker can schedule other threads before.
    frees: StdArc<AtomicUsize>,
}

// SAFETY: shared access only reads the cell; the one write (`free`) is checked by loom against
// every read, which is what the models are for.
unsafe impl Sync for Slab {}

impl Slab {
    fn leak(value: u64, frees: &StdArc<AtomicUsize>) -> &'static Slab {
        Box::leak(Box::new(Slab { value: UnsafeCell::new(value), frees: frees.clone() }))
    }

    /// Reads the value (a read loom orders against the free's write).
    fn read(&self) -> u64 {
        // SAFETY: loom checks every access of the cell.
        self.value.with(|p| unsafe { *p })
    }

    /// The free: a write that must happen after every read.
    fn free(&self) {
        // SAFETY: as above; a read not ordered before this is what loom reports.
        self.value.with_mut(|p| unsafe { *p = u64::MAX });
        self.frees.fetch_add(1, SeqCst);
    }
}

/// Frees its slab when dropped: what a closure or a deferred table owns.
struct Tomb(&'static Slab);

impl Drop for Tomb {
    fn drop(&mut self) {
        self.0.free();
    }
}

impl Tomb {
    /// Reads the slab (a method, so that a closure using it owns the whole tomb).
    fn read(&self) -> u64 {
        self.0.read()
    }
}

/// A published pointer to a slab.
fn publish(slab: &'static Slab) -> *mut Slab {
    std::ptr::from_ref(slab).cast_mut()
}

/// (a) The grace period: a reader in its read section against a writer that publishes a new table
/// and frees the old one after `rcu::synchronize`. The reader sees the old table or the new one,
/// whole (the new one's contents happen before its publication), never a freed one.
#[test]
fn loom_rcu_reader_never_sees_a_freed_or_torn_table() {
    check("rcu/synchronize", || {
        let drops = StdArc::new(AtomicUsize::new(0));
        let current = Arc::new(AtomicPtr::new(publish(Slab::leak(1, &drops))));
        let reader = {
            let current = current.clone();
            thread::spawn(move || {
                let v = rcu::read(|_| {
                    // SAFETY: a leaked slab (its free, after a grace period, is what loom checks).
                    unsafe { &*current.load(Acquire) }.read()
                });
                assert!(v == 1 || v == 2, "read {v}: neither the old table nor the new one");
            })
        };
        let old = current.swap(publish(Slab::leak(2, &drops)), AcqRel);
        rcu::synchronize();
        // SAFETY: a leaked slab; unpublished, and the grace period has passed.
        unsafe { &*old }.free();
        assert_eq!(drops.load(SeqCst), 1);
        reader.join().unwrap();
    });
}

/// (a) Nested read sections are one section: a writer's grace period waits for the outer one even
/// after the inner one ended.
#[test]
fn loom_rcu_nested_sections_hold_the_grace_period_off() {
    check("rcu/nested", || {
        let drops = StdArc::new(AtomicUsize::new(0));
        let current = Arc::new(AtomicPtr::new(publish(Slab::leak(1, &drops))));
        let reader = {
            let current = current.clone();
            thread::spawn(move || {
                let v = rcu::read(|_| {
                    // SAFETY: a leaked slab (its free, after a grace period, is what loom checks).
                    let table = unsafe { &*current.load(Acquire) };
                    rcu::read(|_| ());
                    table.read()
                });
                assert!(v == 1 || v == 2);
            })
        };
        let old = current.swap(publish(Slab::leak(2, &drops)), AcqRel);
        rcu::synchronize();
        // SAFETY: a leaked slab; unpublished, and the grace period has passed.
        unsafe { &*old }.free();
        reader.join().unwrap();
    });
}

/// (a, c) Without waiting: the old table is `rcu::defer`red inside the writer and freed by whoever
/// next finds the grace period over, here the reader's own `rcu::poll` once it left its section
/// (a trampoline's last call out) or a later poll. Never under the reader, exactly once.
#[test]
fn loom_rcu_deferred_table_is_freed_once_after_the_last_reader_left() {
    check("rcu/defer+poll", || {
        let drops = StdArc::new(AtomicUsize::new(0));
        let current = Arc::new(AtomicPtr::new(publish(Slab::leak(1, &drops))));
        let reader = {
            let current = current.clone();
            thread::spawn(move || {
                let v = rcu::read(|_| {
                    // SAFETY: a leaked slab (its free, after a grace period, is what loom checks).
                    unsafe { &*current.load(Acquire) }.read()
                });
                rcu::poll();
                assert!(v == 1 || v == 2);
            })
        };
        let old = current.swap(publish(Slab::leak(2, &drops)), AcqRel);
        // SAFETY: a leaked slab; unpublished: freed after a grace period.
        rcu::defer(Box::new(Tomb(unsafe { &*old })));
        reader.join().unwrap();
        rcu::poll();
        assert_eq!(drops.load(SeqCst), 1, "freed once the readers left, by the first poll after");
        assert_eq!(rcu::pending(), 0);
    });
}

/// One call as the model vendor's trampoline read it: `(1, cbid)`; calls of the anchor and of the
/// other subscriber are counted here.
struct Call {
    cbid: u32,
    anchor_hits: Cell<u32>,
    other_hits: Cell<u32>,
    /// The call began after the other subscriber's drop had returned.
    after_drop: bool,
}

impl Call {
    fn new(cbid: u32, after_drop: bool) -> Call {
        Call { cbid, anchor_hits: Cell::new(0), other_hits: Cell::new(0), after_drop }
    }
}

/// A vendor library with one kept subscription (as CUPTI's) and a fast path for the anchor kept by
/// the switchboard's hooks the way `cupti`'s is: off before a subscriber other than the anchor gets
/// anything enabled and before a table routing anyone else is published; on once a table routing
/// the anchor alone is, serving whatever the vendor delivers while the vendor's enables are the
/// anchor's own, else the anchor's ids only. The anchor enables `(1, 1)`; the vendor delivers
/// `(1, 2)` only while it is switched on.
struct Modal {
    userdata: AtomicPtr<c_void>,
    /// The fast path serves the anchor: calls skip the routing table.
    fast: AtomicBool,
    /// ... everything the vendor delivers (its enables are the anchor's own).
    own: AtomicBool,
    /// The anchor's handler, for the fast path (kept alive by the switchboard: its closure owns
    /// nothing to drop and the subscription is kept).
    anchor: AtomicPtr<Handler<Modal>>,
    /// The vendor delivers `(1, 2)`.
    delivers_2: AtomicBool,
}

impl CallbackArgs for Modal {
    type Data<'a> = &'a Call;
}

impl SlotData for Modal {
    type Raw = Call;
    fn with_slot<'a>(raw: &'a Call, _slot: CorrelationSlot<'a>) -> &'a Call {
        raw
    }
}

impl Vendor for Modal {
    type Error = String;
    type Entry = ();
    const KEEPS_SUBSCRIPTION: bool = true;

    fn subscribe(&self, _: (), userdata: *mut c_void) -> Result<usize, String> {
        self.userdata.store(userdata, Release);
        Ok(1)
    }
    fn unsubscribe(&self, _: usize) -> Result<(), String> {
        Ok(())
    }
    fn enable_domain(&self, _: usize, _: u32, _: bool) -> Result<(), String> {
        Ok(())
    }
    fn enable_id(&self, _: usize, _: u32, cbid: u32, on: bool) -> Result<(), String> {
        if cbid == 2 {
            self.delivers_2.store(on, Release);
        }
        Ok(())
    }
    fn out_of_range(&self, target: Target) -> String {
        format!("{target:?}")
    }
    fn anchoring(&self, anchor: &Handler<Self>) {
        self.anchor.store(std::ptr::from_ref(anchor).cast_mut(), Release);
    }
    fn sharing(&self) {
        self.fast.store(false, Release);
    }
    fn publishing(&self, next: &super::Routes<Self>) {
        if next.anchor_ids().is_none() {
            self.fast.store(false, Release);
        }
    }
    fn published(&self, now: &super::Routes<Self>, own: bool) {
        if now.anchor_ids().is_some() {
            self.own.store(own, Release);
            self.fast.store(true, Release);
        }
    }
    fn unanchored(&self) {
        self.fast.store(false, Release);
    }
}

impl Modal {
    fn new() -> Modal {
        Modal {
            userdata: AtomicPtr::new(std::ptr::null_mut()),
            fast: AtomicBool::new(false),
            own: AtomicBool::new(false),
            anchor: AtomicPtr::new(std::ptr::null_mut()),
            delivers_2: AtomicBool::new(false),
        }
    }

    /// The vendor's callback for one call, if it delivers it, as a vendor crate's trampoline makes
    /// it: the fast path while it serves the call, else the routing table in a read section; then a
    /// poll.
    fn call(&self, call: &Call) {
        if call.cbid == 2 && !self.delivers_2.load(Acquire) {
            return;
        }
        if self.fast.load(Acquire) && (self.own.load(Acquire) || call.cbid == 1) {
            // SAFETY: set at subscription; the switchboard keeps the anchor's handler alive while
            // the subscription is held (it is never given back in these models).
            unsafe { &*self.anchor.load(Acquire) }.call(&call);
        } else {
            rcu::read(|section| {
                // SAFETY: the switchboard, leaked.
                let board = unsafe { &*self.userdata.load(Acquire).cast::<Switchboard<Modal>>() };
                dispatch::deliver(board.routes(section).get(1, call.cbid), call);
            });
        }
        rcu::poll();
    }
}

/// The anchor's closure: owns nothing (so the switchboard keeps it for the fast path).
fn anchor_closure(c: &&Call) {
    assert_eq!(c.cbid, 1, "the anchor was called for an id only another subscriber enabled");
    c.anchor_hits.set(c.anchor_hits.get() + 1);
}

/// (b, c) The fast-path mode switches and a closure's end. The anchor is alone with `(1, 1)` (the
/// fast path serves whatever the vendor delivers) while another subscriber subscribes, enables
/// `(1, 2)` (the fast path switches off before the vendor delivers it; the table routes each id to
/// its subscriber) and is dropped with a waiting drop (the table routes the anchor alone again:
/// the fast path serves its ids only). Meanwhile a thread calls `(1, 2)` then `(1, 1)`. The anchor
/// gets every `(1, 1)` exactly once (fast path or table, never both, never neither) and never a
/// `(1, 2)`; the other gets each `(1, 2)` at most once and never a `(1, 1)`; no call that begins
/// after its drop returned reaches it; its closure never runs after it was freed and is freed
/// exactly once, by the time its last handle goes.
#[test]
fn loom_switchboard_modes_and_a_waiting_drop() {
    check("switchboard/modes+drop", || {
        let board = Switchboard::leak(Modal::new());
        let anchor = board.register(anchor_closure, ()).unwrap();
        board.enable(anchor.key(), Target::Id(1, 1)).unwrap();
        let vendor = board.vendor();
        assert!(vendor.fast.load(Acquire) && vendor.own.load(Acquire), "the anchor alone: all fast");

        let dropped = Arc::new(AtomicBool::new(false));
        let caller = {
            let dropped = dropped.clone();
            thread::spawn(move || {
                for cbid in [2, 1] {
                    let call = Call::new(cbid, dropped.load(Acquire));
                    board.vendor().call(&call);
                    let hits = (call.anchor_hits.get(), call.other_hits.get());
                    if cbid == 1 {
                        assert_eq!(hits, (1, 0), "(1, 1): the anchor exactly once, the other never");
                    } else {
                        assert!(hits.0 == 0 && hits.1 <= 1, "(1, 2): the other at most once: {hits:?}");
                    }
                }
            })
        };

        let drops = StdArc::new(AtomicUsize::new(0));
        let cell = Tomb(Slab::leak(7, &drops));
        let other = board
            .register(
                move |c: &&Call| {
                    assert!(!c.after_drop, "called after its subscriber's drop returned");
                    assert_eq!(cell.read(), 7, "called after its closure was freed");
                    c.other_hits.set(c.other_hits.get() + 1);
                },
                (),
            )
            .unwrap();
        board.enable(other.key(), Target::Id(1, 2)).unwrap();
        assert!(!vendor.fast.load(Acquire), "shared: no fast path");
        board.unregister(other.key(), true).unwrap();
        assert!(vendor.fast.load(Acquire) && !vendor.own.load(Acquire), "alone again: its ids, fast");
        drop(other);
        assert_eq!(drops.load(SeqCst), 1, "freed when its waiting drop returned");
        dropped.store(true, Release);
        caller.join().unwrap();
        assert_eq!(drops.load(SeqCst), 1);
    });
}

/// (c) Last call out: a subscriber dropped without waiting (as `mspti`'s drop, or a drop inside a
/// callback) while a call of it runs. The retired table is deferred; the closure is not freed under
/// the running call, is freed exactly once, by the caller's poll after its read section or the
/// next poll, and nothing is left pending.
#[test]
fn loom_a_deferred_drop_frees_the_closure_after_the_last_call_out() {
    check("switchboard/deferred drop", || {
        let board = Switchboard::leak(Modal::new());
        let anchor = board.register(anchor_closure, ()).unwrap();
        board.enable(anchor.key(), Target::Id(1, 1)).unwrap();
        let drops = StdArc::new(AtomicUsize::new(0));
        let cell = Tomb(Slab::leak(7, &drops));
        let calls = StdArc::new(StdUsize::new(0));
        let counted = calls.clone();
        let other = board
            .register(
                move |c: &&Call| {
                    assert_eq!(cell.read(), 7, "called after its closure was freed");
                    counted.fetch_add(1, SeqCst);
                    c.other_hits.set(c.other_hits.get() + 1);
                },
                (),
            )
            .unwrap();
        board.enable(other.key(), Target::Id(1, 1)).unwrap();
        let key = other.key();
        drop(other);

        let caller = thread::spawn(move || {
            let call = Call::new(1, false);
            board.vendor().call(&call);
            assert_eq!(call.anchor_hits.get(), 1);
        });
        board.unregister(key, false).unwrap();
        caller.join().unwrap();
        rcu::poll();
        assert_eq!(drops.load(SeqCst), 1, "freed exactly once, once no call could reach it");
        assert!(calls.load(SeqCst) <= 1);
        assert_eq!(rcu::pending(), 0);
    });
}

/// (c) A waiting drop against another thread's reclaim: a table that reached the subscriber was
/// deferred (its second enable retired it) and a caller's poll may be freeing it right when the
/// drop waits. When the drop returns (and the last handle is gone), the closure is freed.
#[test]
fn loom_a_waiting_drop_returns_after_the_closure_is_freed_even_under_another_threads_reclaim() {
    check("switchboard/waiting drop vs reclaim", || {
        let board = Switchboard::leak(Modal::new());
        let anchor = board.register(anchor_closure, ()).unwrap();
        board.enable(anchor.key(), Target::Id(1, 1)).unwrap();
        let drops = StdArc::new(AtomicUsize::new(0));
        let cell = Tomb(Slab::leak(7, &drops));
        let other = board
            .register(
                move |c: &&Call| {
                    assert_eq!(cell.read(), 7, "called after its closure was freed");
                    c.other_hits.set(c.other_hits.get() + 1);
                },
                (),
            )
            .unwrap();
        board.enable(other.key(), Target::Id(1, 1)).unwrap();
        let caller = thread::spawn(move || {
            let call = Call::new(1, false);
            board.vendor().call(&call);
            assert_eq!(call.anchor_hits.get(), 1);
        });
        // Retires the table above (it reaches `other`) into the deferred list.
        board.enable(other.key(), Target::Id(1, 2)).unwrap();
        board.unregister(other.key(), true).unwrap();
        drop(other);
        assert_eq!(drops.load(SeqCst), 1, "freed when its waiting drop returned");
        caller.join().unwrap();
        assert_eq!(drops.load(SeqCst), 1);
    });
}

/// (a, c) `rcu::synchronize` frees what was deferred before it, even when another thread's poll
/// took it out of the deferred list first and is still freeing it: when `synchronize` returns,
/// the item is freed (a waiting subscriber drop counts on this for its closure).
#[test]
fn loom_rcu_synchronize_returns_after_what_was_deferred_before_it_is_freed() {
    check("rcu/synchronize vs a poll's reclaim", || {
        let frees = StdArc::new(AtomicUsize::new(0));
        let deferred = Arc::new(AtomicBool::new(false));
        let other = {
            let (frees, deferred) = (frees.clone(), deferred.clone());
            thread::spawn(move || {
                rcu::read(|_| {
                    rcu::defer(Box::new(Tomb(Slab::leak(1, &frees))));
                    deferred.store(true, Release);
                });
                rcu::poll();
            })
        };
        while !deferred.load(Acquire) {
            thread::yield_now();
        }
        rcu::synchronize();
        assert_eq!(frees.load(SeqCst), 1, "deferred before the grace period, not yet freed after it");
        other.join().unwrap();
    });
}
