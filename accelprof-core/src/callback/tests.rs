//! The switchboard over a fake vendor: a library with one subscription, whose enables are
//! recorded, played the way the vendor crates' trampolines are called.

use std::collections::BTreeSet;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::{Arc, Barrier, Mutex, MutexGuard};

use super::dispatch::{self, ApiCall, SlotData};
use super::frames::{CallKey, CorrelationSlot};
use super::rcu;
use super::switchboard::{Switchboard, Ticket};
use super::vendor::{Target, Vendor};
use super::CallbackArgs;

/// The callback machinery's global state (grace periods, epochs) is shared by the tests that
/// count on it: one at a time.
pub(crate) fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// A vendor with one subscription; `KEEPS`: whether the switchboard keeps it.
#[derive(Default)]
struct Fake<const KEEPS: bool> {
    /// The subscription's `userdata`, while subscribed.
    userdata: Mutex<Option<usize>>,
    subscribes: AtomicU64,
    /// What the vendor delivers: domains and ids switched on.
    domains: Mutex<BTreeSet<u32>>,
    ids: Mutex<BTreeSet<(u32, u32)>>,
    /// Calls of enable/disable that reached the vendor.
    switches: AtomicU64,
    refuse_subscribe: AtomicBool,
}

/// What a closure sees.
struct Seen<'a> {
    cbid: u32,
    enter: bool,
    slot: CorrelationSlot<'a>,
}

/// What the fake trampoline read.
struct Raw {
    cbid: u32,
    enter: bool,
}

impl<const KEEPS: bool> CallbackArgs for Fake<KEEPS> {
    type Data<'a> = Seen<'a>;
}

impl<const KEEPS: bool> SlotData for Fake<KEEPS> {
    type Raw = Raw;
    fn with_slot<'a>(raw: &'a Raw, slot: CorrelationSlot<'a>) -> Seen<'a> {
        Seen { cbid: raw.cbid, enter: raw.enter, slot }
    }
}

impl<const KEEPS: bool> Vendor for Fake<KEEPS> {
    type Error = String;
    type Entry = ();
    const KEEPS_SUBSCRIPTION: bool = KEEPS;

    fn subscribe(&self, _: (), userdata: *mut c_void) -> Result<usize, String> {
        let mut held = self.userdata.lock().unwrap();
        if held.is_some() || self.refuse_subscribe.load(SeqCst) {
            return Err("one subscriber at a time".into());
        }
        *held = Some(userdata as usize);
        self.subscribes.fetch_add(1, SeqCst);
        Ok(7)
    }

    fn unsubscribe(&self, handle: usize) -> Result<(), String> {
        assert_eq!(handle, 7);
        *self.userdata.lock().unwrap() = None;
        self.domains.lock().unwrap().clear();
        self.ids.lock().unwrap().clear();
        Ok(())
    }

    fn enable_domain(&self, _: usize, domain: u32, on: bool) -> Result<(), String> {
        if domain == 0 {
            return Err("no such domain".into());
        }
        self.switches.fetch_add(1, SeqCst);
        let mut d = self.domains.lock().unwrap();
        if on {
            d.insert(domain)
        } else {
            d.remove(&domain)
        };
        Ok(())
    }

    fn enable_id(&self, _: usize, domain: u32, cbid: u32, on: bool) -> Result<(), String> {
        self.switches.fetch_add(1, SeqCst);
        let mut ids = self.ids.lock().unwrap();
        if on {
            ids.insert((domain, cbid))
        } else {
            ids.remove(&(domain, cbid))
        };
        Ok(())
    }

    fn out_of_range(&self, target: Target) -> String {
        format!("out of range: {target:?}")
    }
}

impl<const KEEPS: bool> Fake<KEEPS> {
    fn delivers(&self, domain: u32, cbid: u32) -> bool {
        self.domains.lock().unwrap().contains(&domain) || self.ids.lock().unwrap().contains(&(domain, cbid))
    }
}

/// The fake vendor's trampoline: one site of an API call with `userdata` (a ticket, or the
/// switchboard where it keeps its subscription), as a vendor crate's trampoline dispatches it.
fn site<const KEEPS: bool>(
    userdata: usize,
    domain: u32,
    cbid: u32,
    enter: bool,
    vendor_slot: Option<&std::cell::Cell<u64>>,
) {
    rcu::read(|section| site_in::<KEEPS>(section, userdata, domain, cbid, enter, vendor_slot));
}

fn site_in<const KEEPS: bool>(
    section: &rcu::ReadSection,
    userdata: usize,
    domain: u32,
    cbid: u32,
    enter: bool,
    vendor_slot: Option<&std::cell::Cell<u64>>,
) {
    let routes = if KEEPS {
        // SAFETY: the switchboard itself (leaked).
        let board = unsafe { &*(userdata as *const Switchboard<Fake<KEEPS>>) };
        board.routes(section)
    } else {
        // SAFETY: a ticket the switchboard leaked.
        let ticket = unsafe { &*(userdata as *const Ticket<Fake<KEEPS>>) };
        let Some(routes) = ticket.routes(section) else { return };
        routes
    };
    let raw = Raw { cbid, enter };
    let call = ApiCall {
        key: CallKey { generation: routes.generation(), domain, cbid },
        vendor_slot,
        anchor: routes.anchor(),
    };
    let r = routes.get(domain, cbid);
    if enter {
        dispatch::enter(r, &raw, &call, section.frames());
    } else {
        dispatch::exit(r, &raw, &call, section.frames());
    }
}

/// A whole call, delivered as the vendor delivers it (each site only while switched on), with
/// `between` run between ENTER and EXIT.
fn api_call<const KEEPS: bool>(
    board: &Switchboard<Fake<KEEPS>>,
    domain: u32,
    cbid: u32,
    between: impl FnOnce(),
) {
    let fake = board.vendor();
    let userdata = || *fake.userdata.lock().unwrap();
    if let (true, Some(u)) = (fake.delivers(domain, cbid), userdata()) {
        site::<KEEPS>(u, domain, cbid, true, None);
    }
    between();
    if let (true, Some(u)) = (fake.delivers(domain, cbid), userdata()) {
        site::<KEEPS>(u, domain, cbid, false, None);
    }
}

type Log = Arc<Mutex<Vec<(u64, u32, bool, u64, bool)>>>;

/// A closure logging (tag, cbid, enter, slot at the call, paired) and storing `tag * 1000 + cbid`
/// at ENTER.
fn logger(tag: u64, log: &Log) -> impl Fn(&Seen<'_>) + Send + Sync + 'static {
    let log = log.clone();
    move |s: &Seen<'_>| {
        log.lock().unwrap().push((tag, s.cbid, s.enter, s.slot.get(), s.slot.paired()));
        if s.enter {
            s.slot.set(tag * 1000 + u64::from(s.cbid));
        }
    }
}

fn take(log: &Log) -> Vec<(u64, u32, bool, u64, bool)> {
    std::mem::take(&mut *log.lock().unwrap())
}

#[test]
fn two_subscribers_share_one_subscription_and_never_disable_each_other() {
    let _g = serial();
    let board = Switchboard::leak(Fake::<false>::default());
    let log: Log = Arc::default();
    let a = board.register(logger(1, &log), ()).unwrap();
    let b = board.register(logger(2, &log), ()).unwrap();
    assert_eq!(board.vendor().subscribes.load(SeqCst), 1, "one vendor subscription for both");
    // Different and overlapping ids.
    board.enable(a.key(), Target::Id(1, 10)).unwrap();
    board.enable(a.key(), Target::Id(1, 11)).unwrap();
    board.enable(b.key(), Target::Id(1, 11)).unwrap();
    board.enable(b.key(), Target::Id(1, 12)).unwrap();
    assert_eq!(board.vendor().switches.load(SeqCst), 3, "each id switched on once");
    for cbid in [10, 11, 12] {
        api_call(board, 1, cbid, || {});
    }
    let got = take(&log);
    assert_eq!(
        got,
        [
            (1, 10, true, 0, true),
            (1, 10, false, 1010, true),
            (1, 11, true, 0, true),
            (2, 11, true, 0, true),
            (1, 11, false, 1011, true),
            (2, 11, false, 2011, true),
            (2, 12, true, 0, true),
            (2, 12, false, 2012, true),
        ],
        "each gets its own ids with its own slot"
    );
    // A leaving the shared id leaves it on for B.
    board.disable(a.key(), Target::Id(1, 11)).unwrap();
    assert!(board.vendor().delivers(1, 11));
    api_call(board, 1, 11, || {});
    assert_eq!(take(&log), [(2, 11, true, 0, true), (2, 11, false, 2011, true)]);
    // A's drop leaves B's ids on; B's drop gives the subscription back.
    board.unregister(a.key(), true).unwrap();
    assert!(!board.vendor().delivers(1, 10) && board.vendor().delivers(1, 12));
    board.unregister(b.key(), true).unwrap();
    assert!(board.vendor().userdata.lock().unwrap().is_none(), "the last one out unsubscribes");
    assert_eq!(board.subscription(), None);
}

#[test]
fn a_domain_switched_off_keeps_the_ids_others_enabled_singly() {
    let _g = serial();
    let board = Switchboard::leak(Fake::<true>::default());
    let log: Log = Arc::default();
    let a = board.register(logger(1, &log), ()).unwrap();
    let b = board.register(logger(2, &log), ()).unwrap();
    board.enable(a.key(), Target::Domain(2)).unwrap();
    board.enable(b.key(), Target::Id(2, 5)).unwrap();
    assert_eq!(board.vendor().switches.load(SeqCst), 1, "the id is on through its domain");
    board.disable(a.key(), Target::Domain(2)).unwrap();
    assert!(board.vendor().delivers(2, 5) && !board.vendor().delivers(2, 6));
    assert!(board.is_enabled(b.key(), Target::Id(2, 5)) && !board.is_enabled(a.key(), Target::Domain(2)));
    assert_eq!(board.enable(a.key(), Target::Domain(0)), Err("no such domain".into()));
    assert!(!board.is_enabled(a.key(), Target::Domain(0)), "a refused enable is not recorded");
    assert_eq!(board.enable(a.key(), Target::Id(1, 1 << 20)), Err("out of range: Id(1, 1048576)".into()));
    board.unregister(a.key(), true).unwrap();
    board.unregister(b.key(), true).unwrap();
    assert!(board.subscription().is_some(), "kept when the last subscriber goes");
    // SAFETY: no call is in flight.
    assert_eq!(unsafe { board.release() }, Ok(true));
    assert_eq!(board.subscription(), None);
}

/// Releasing the subscription inside a read section (a callback) waited for a grace period that
/// waits for that section: a hang. Now nothing is released there, and it is released after.
#[test]
fn a_release_inside_a_callback_releases_nothing_and_does_not_hang() {
    let _g = serial();
    let board = Switchboard::leak(Fake::<true>::default());
    let log: Log = Arc::default();
    let a = board.register(logger(1, &log), ()).unwrap();
    board.unregister(a.key(), true).unwrap();
    assert!(board.subscription().is_some(), "kept when the last subscriber goes");
    let (done, finished) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
    let (d, f) = (done.clone(), finished.clone());
    std::thread::spawn(move || {
        // SAFETY: no vendor call is in flight (the fake vendor); the section plays a callback.
        let inside = rcu::read(|_| unsafe { board.release() });
        d.store(inside == Ok(false), SeqCst);
        f.store(true, SeqCst);
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !finished.load(SeqCst) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(finished.load(SeqCst), "release inside a read section returned");
    assert!(done.load(SeqCst), "and released nothing");
    assert!(board.subscription().is_some());
    // SAFETY: no call is in flight.
    assert_eq!(unsafe { board.release() }, Ok(true));
}

struct Flag(Arc<AtomicBool>);
impl Drop for Flag {
    fn drop(&mut self) {
        self.0.store(true, SeqCst);
    }
}

#[test]
fn a_dropped_subscriber_is_called_no_more_and_freed_once_no_callback_can_reach_it() {
    let _g = serial();
    let board = Switchboard::leak(Fake::<false>::default());
    // The keeper keeps the subscription while the others come and go.
    let keeper = board.register(|_: &Seen<'_>| {}, ()).unwrap();
    board.enable(keeper.key(), Target::Id(1, 1)).unwrap();

    // Waiting: freed when the drop returns.
    let freed = Arc::new(AtomicBool::new(false));
    let flag = Flag(freed.clone());
    let h = board
        .register(
            move |_: &Seen<'_>| {
                let _keep = &flag;
            },
            (),
        )
        .unwrap();
    board.enable(h.key(), Target::Id(1, 1)).unwrap();
    board.disable(h.key(), Target::Id(1, 1)).unwrap();
    board.enable(h.key(), Target::Id(1, 1)).unwrap();
    let key = h.key();
    drop(h);
    board.unregister(key, true).unwrap();
    assert!(freed.load(SeqCst), "freed when the waiting drop returned, older tables included");

    // Not waiting, with a callback of it running on another thread: freed by that callback's
    // thread once it has left (the poll a trampoline makes after its read section).
    let freed = Arc::new(AtomicBool::new(false));
    let (inside, release) = (Arc::new(Barrier::new(2)), Arc::new(Barrier::new(2)));
    let calls = Arc::new(AtomicU64::new(0));
    let (i, r, c, flag) = (inside.clone(), release.clone(), calls.clone(), Flag(freed.clone()));
    let h = board
        .register(
            move |s: &Seen<'_>| {
                let _keep = &flag;
                c.fetch_add(1, SeqCst);
                if s.enter {
                    i.wait();
                    r.wait();
                }
            },
            (),
        )
        .unwrap();
    board.enable(h.key(), Target::Id(1, 2)).unwrap();
    let key = h.key();
    drop(h);
    let worker = std::thread::spawn(move || {
        api_call(board, 1, 2, || {});
        rcu::poll();
    });
    inside.wait();
    board.unregister(key, false).unwrap();
    assert!(!freed.load(SeqCst), "running: not freed under it");
    release.wait();
    worker.join().unwrap();
    assert!(freed.load(SeqCst), "freed by the last callback out");
    assert_eq!(calls.load(SeqCst), 1, "no EXIT after the drop");
    board.unregister(keeper.key(), true).unwrap();
}

#[test]
fn a_late_call_of_a_subscription_given_back_reaches_nobody() {
    let _g = serial();
    let board = Switchboard::leak(Fake::<false>::default());
    let log: Log = Arc::default();
    let old = board.register(logger(1, &log), ()).unwrap();
    board.enable(old.key(), Target::Id(1, 3)).unwrap();
    let old_ticket = board.vendor().userdata.lock().unwrap().unwrap();
    board.unregister(old.key(), true).unwrap();
    let newer = board.register(logger(2, &log), ()).unwrap();
    board.enable(newer.key(), Target::Id(1, 3)).unwrap();
    let new_ticket = board.vendor().userdata.lock().unwrap().unwrap();
    assert_ne!(old_ticket, new_ticket);
    // The vendor calls in late with the old subscription's userdata.
    site::<false>(old_ticket, 1, 3, true, None);
    assert!(take(&log).is_empty(), "not routed to the newer closure");
    site::<false>(new_ticket, 1, 3, true, None);
    site::<false>(new_ticket, 1, 3, false, None);
    assert_eq!(take(&log), [(2, 3, true, 0, true), (2, 3, false, 2003, true)]);
    board.unregister(newer.key(), true).unwrap();
    // A refused subscription leaves nothing behind.
    board.vendor().refuse_subscribe.store(true, SeqCst);
    assert!(board.register(|_: &Seen<'_>| {}, ()).is_err());
    assert_eq!(board.subscribers(), 0);
}

#[test]
fn an_exit_without_enter_never_pairs_with_the_frame_of_a_call_that_lost_its_exit() {
    let _g = serial();
    let board = Switchboard::leak(Fake::<false>::default());
    let log: Log = Arc::default();
    let a = board.register(logger(1, &log), ()).unwrap();
    let b = board.register(logger(2, &log), ()).unwrap();
    board.enable(a.key(), Target::Id(1, 4)).unwrap();
    // Switched off mid-call: ENTER, no EXIT.
    api_call(board, 1, 4, || board.disable(a.key(), Target::Id(1, 4)).unwrap());
    // Switched on mid-call (for both): EXIT without ENTER.
    api_call(board, 1, 4, || {
        board.enable(a.key(), Target::Id(1, 4)).unwrap();
        board.enable(b.key(), Target::Id(1, 4)).unwrap();
    });
    // A whole call pairs again, for both.
    api_call(board, 1, 4, || {});
    assert_eq!(
        take(&log),
        [
            (1, 4, true, 0, true),
            (1, 4, false, 0, false),
            (2, 4, false, 0, false),
            (1, 4, true, 0, true),
            (2, 4, true, 0, true),
            (1, 4, false, 1004, true),
            (2, 4, false, 2004, true),
        ]
    );
    // B enabled mid-call while A was on: B's EXIT is unpaired, A's is not.
    board.disable(b.key(), Target::Id(1, 4)).unwrap();
    api_call(board, 1, 4, || board.enable(b.key(), Target::Id(1, 4)).unwrap());
    assert_eq!(take(&log), [(1, 4, true, 0, true), (1, 4, false, 1004, true), (2, 4, false, 0, false)]);
    board.unregister(a.key(), true).unwrap();
    board.unregister(b.key(), true).unwrap();
}

#[test]
fn with_a_vendor_slot_the_anchor_keeps_its_value_there_and_others_get_a_frame() {
    let _g = serial();
    let board = Switchboard::leak(Fake::<true>::default());
    let log: Log = Arc::default();
    let a = board.register(logger(1, &log), ()).unwrap();
    let b = board.register(|_: &Seen<'_>| {}, ()).unwrap();
    board.enable(a.key(), Target::Id(1, 8)).unwrap();
    board.enable(b.key(), Target::Id(1, 8)).unwrap();
    let userdata = board.vendor().userdata.lock().unwrap().unwrap();
    let shared = std::cell::Cell::new(0xdead);
    site::<true>(userdata, 1, 8, true, Some(&shared));
    assert_eq!(shared.get(), 1008, "the anchor alone stored: its value, no frame");
    site::<true>(userdata, 1, 8, false, Some(&shared));
    let c = board.register(logger(3, &log), ()).unwrap();
    board.enable(c.key(), Target::Id(1, 8)).unwrap();
    site::<true>(userdata, 1, 8, true, Some(&shared));
    assert!(super::frames::is_serial_form(shared.get(), super::frames::tag()), "a frame's serial");
    site::<true>(userdata, 1, 8, false, Some(&shared));
    let exits: Vec<_> = take(&log).into_iter().filter(|e| !e.2).collect();
    assert_eq!(exits, [(1, 8, false, 1008, true), (1, 8, false, 1008, true), (3, 8, false, 3008, true)]);
    // A handler's panic is counted.
    let p = board.register(|_: &Seen<'_>| panic!("boom"), ()).unwrap();
    board.enable(p.key(), Target::Id(1, 8)).unwrap();
    let before = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    site::<true>(userdata, 1, 8, true, Some(&shared));
    site::<true>(userdata, 1, 8, false, Some(&shared));
    std::panic::set_hook(before);
    assert_eq!((p.panics(), p.last_panic().as_deref()), (2, Some("boom")));
    for h in [a, b, c, p] {
        board.unregister(h.key(), true).unwrap();
    }
}
