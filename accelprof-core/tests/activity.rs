//! The activity session written once (`accelprof_core::activity`) over a backend of this file's own: the
//! test plays the vendor (its buffer callbacks through a `RouteSlot`, its flushes, its dropped count).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use accelprof_core::activity::{
    ActivityBackend, ActivityError, Completion, FlushDepth, RouteSlot, Session, SessionConfig,
};
use accelprof_core::columns::KernelRow;
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, BufferPool, FamilySet, PipelineConfig, WalkStats};

/// The slot of this file's vendor (one per process, as a vendor's callbacks are).
static ROUTE: RouteSlot<()> = RouteSlot::new();
/// Tests share the slot: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the vendor was asked, in order.
#[derive(Default)]
struct Calls(Mutex<Vec<String>>);

impl Calls {
    fn push(&self, call: String) {
        self.0.lock().unwrap().push(call);
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// A vendor whose flush hands back nothing (the test completes buffers itself), with a dropped count and a
/// kind that refuses to be enabled.
#[derive(Default)]
struct Vendor {
    calls: Arc<Calls>,
    dropped: AtomicU64,
    /// `enable(REFUSED)` fails.
    refuse: AtomicBool,
    /// Records the next flush hands over (in a buffer filled then, as a vendor hands its buffer over).
    at_next_flush: AtomicU64,
}

const REFUSED: u32 = 99;

impl ActivityBackend for Vendor {
    type Kind = u32;
    type Error = ActivityError;
    type RouteData = ();
    type Extras = ();
    const VENDOR: &'static str = "TEST";

    fn route(&self) -> Option<(&'static RouteSlot<()>, ())> {
        Some((&ROUTE, ()))
    }

    fn register(&self) -> Result<(), ActivityError> {
        self.calls.push("register".into());
        Ok(())
    }

    fn enable(&self, kind: u32) -> Result<(), ActivityError> {
        if kind == REFUSED && self.refuse.load(Ordering::Relaxed) {
            return Err(ActivityError::KindLocked { kind: kind.to_string(), why: "refused" });
        }
        self.calls.push(format!("enable {kind}"));
        Ok(())
    }

    fn disable(&self, kind: u32) -> Result<(), ActivityError> {
        self.calls.push(format!("disable {kind}"));
        Ok(())
    }

    fn flush(&self, depth: FlushDepth) -> Result<(), ActivityError> {
        if depth == FlushDepth::Forced {
            self.calls.push("flush forced".into());
        }
        let records = self.at_next_flush.swap(0, Ordering::Relaxed);
        if records > 0 {
            produce(records);
        }
        Ok(())
    }

    fn take_dropped(&self) -> u64 {
        self.dropped.swap(0, Ordering::Relaxed)
    }
}

/// One kernel row per 8 bytes (the record: its correlation id).
fn walker(bytes: &[u8], out: &mut Batch, _: &mut Interner) -> WalkStats {
    let mut stats = WalkStats::default();
    for record in bytes.chunks_exact(8) {
        let correlation = u64::from_le_bytes(record.try_into().unwrap());
        out.kernels.push(KernelRow { correlation, ..KernelRow::default() });
        stats.records += 1;
    }
    stats
}

fn session(vendor: Vendor, pool: Arc<BufferPool>, kinds: &[u32]) -> Session<Vendor> {
    let pipeline = PipelineConfig { batch_rows: 1, ..PipelineConfig::default() };
    let config =
        SessionConfig { pipeline, return_wait: Duration::from_millis(50), ..SessionConfig::default() };
    Session::new(vendor, walker, pool, kinds.iter().copied(), config).unwrap()
}

/// The vendor fills a buffer it got from the route with `records` records and hands it back.
fn produce(records: u64) -> Completion {
    let (ptr, size) = ROUTE.request().expect("a buffer");
    assert!(records as usize * 8 <= size);
    for i in 0..records {
        // SAFETY: `ptr` points to `size` writable bytes the route handed to "the vendor".
        unsafe { ptr.cast::<u64>().add(i as usize).write(i) };
    }
    // SAFETY: the vendor is done with the buffer.
    unsafe { ROUTE.complete(ptr, records as usize * 8, |_| {}) }
}

#[test]
fn one_session_per_route_and_every_record_accounted() {
    let _g = serial();
    let vendor = Vendor::default();
    let calls = Arc::clone(&vendor.calls);
    let s = session(vendor, BufferPool::new(4096, 4), &[1, 2]);
    let again = Session::new(Vendor::default(), walker, BufferPool::new(64, 1), [], SessionConfig::default());
    assert!(matches!(again, Err(ActivityError::SessionActive { vendor: "TEST" })));
    let kernels = s.collect(FamilySet::KERNEL);
    s.start().unwrap();
    assert_eq!(calls.take(), ["register", "enable 1", "enable 2"]);
    assert_eq!(produce(10), Completion::Delivered);
    assert_eq!(produce(5), Completion::Delivered);
    s.backend().dropped.store(3, Ordering::Relaxed);
    let report = s.fence().unwrap();
    assert!(!report.fenced, "no probe: the flush is the fence");
    assert_eq!(kernels.take().kernels.len(), 15);
    let end = s.end();
    assert!(end.fence.is_ok());
    let c = end.counts;
    assert_eq!((c.records_produced(), c.records_delivered(), c.records_dropped()), (18, 15, 3));
    assert_eq!(c.dropped().by_vendor, 3);
    assert!(c.is_balanced(), "{c:?}");
    assert_eq!(calls.take(), ["disable 2", "disable 1"], "no forced flush: the vendor held no buffer");
    assert!(!ROUTE.is_live());
    drop(s);
    session(Vendor::default(), BufferPool::new(64, 1), &[]).end();
}

#[test]
fn a_buffer_that_is_not_ours_is_left_alone_and_a_late_one_is_freed() {
    let _g = serial();
    let before = ROUTE.stats();
    let s = session(Vendor::default(), BufferPool::new(256, 2), &[1]);
    s.start().unwrap();
    let mut foreign = vec![0u64; 32];
    // SAFETY: a buffer of the test's own, which the route must not take.
    let done = unsafe { ROUTE.complete(foreign.as_mut_ptr().cast(), 256, |_| {}) };
    assert_eq!(done, Completion::Foreign);
    foreign[0] = 1; // still ours to use
    let (held, _) = ROUTE.request().unwrap();
    assert_eq!(s.counts().buffers_held_by_vendor, 1);
    let end = s.end();
    assert_eq!(end.counts.buffers_held_by_vendor, 1, "the vendor kept it through the forced flush");
    assert!(s.backend().calls.take().contains(&"flush forced".to_string()));
    // The route was parked: the late buffer is found and freed, undecoded.
    // SAFETY: the vendor is done with it.
    assert_eq!(unsafe { ROUTE.complete(held, 0, |_| {}) }, Completion::Late);
    let after = ROUTE.stats();
    assert_eq!(after.foreign_buffers, before.foreign_buffers + 1);
    assert_eq!(after.late_buffers, before.late_buffers + 1);
    assert!(ROUTE.request().is_none(), "no session: an orphan request");
    assert_eq!(ROUTE.stats().orphan_requests, after.orphan_requests + 1);
}

#[test]
fn overflow_buffers_count_until_the_decode_thread_gives_them_back() {
    let _g = serial();
    let pool = BufferPool::try_with_overflow(BufferPool::MIN_BUFFER_SIZE, 1, 1).unwrap();
    let s = session(Vendor::default(), Arc::clone(&pool), &[1]);
    let (entered_tx, entered) = mpsc::channel();
    let (release, release_rx) = mpsc::channel::<()>();
    let release_rx = Mutex::new(release_rx);
    s.subscribe(FamilySet::all(), move |_, _| {
        let _ = entered_tx.send(());
        let _ = release_rx.lock().unwrap().recv();
    });
    s.start().unwrap();
    // Batches of 1 row: the decode thread blocks in the consumer after the first buffer.
    assert_eq!(produce(1), Completion::Delivered);
    entered.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(produce(1), Completion::Delivered, "the pool's buffer, back from the decode thread");
    assert_eq!(produce(1), Completion::Delivered, "one overflow buffer");
    assert_eq!(pool.overflow_stats().in_flight, 1, "still waiting for the decode thread");
    assert!(ROUTE.request().is_none(), "past the bound: declined, although the vendor holds nothing");
    assert_eq!(s.counts().pipeline.buffers_declined, 1);
    drop(release);
    s.flush().unwrap();
    assert_eq!(pool.overflow_stats().in_flight, 0);
    assert_eq!(s.counts().overflow_buffers, 1);
    assert_eq!(s.end().counts.records_delivered(), 3);
}

#[test]
fn a_consumer_that_flushes_during_a_fence_is_refused_and_may_pause() {
    let _g = serial();
    let s = Arc::new(session(Vendor::default(), BufferPool::new(4096, 2), &[7]));
    let slot: Arc<Mutex<Option<Arc<Session<Vendor>>>>> = Arc::new(Mutex::new(None));
    let inner = Arc::clone(&slot);
    let (tx, rx) = mpsc::channel();
    s.subscribe(FamilySet::all(), move |_, _| {
        if let Some(s) = inner.lock().unwrap().clone() {
            let _ = tx.send((s.fence().map(|_| ()), s.flush().map(|_| ()), s.pause()));
        }
    });
    *slot.lock().unwrap() = Some(Arc::clone(&s));
    s.start().unwrap();
    // The record comes with the fence's flush: the consumer runs while the other thread is in the fence.
    s.backend().at_next_flush.store(1, Ordering::Relaxed);
    let outer = Arc::clone(&s);
    let fence = std::thread::spawn(move || outer.fence().map(|_| ()));
    let (fenced, flushed, paused) = rx.recv_timeout(Duration::from_secs(10)).expect("no deadlock");
    for refused in [fenced, flushed] {
        assert!(matches!(refused, Err(ActivityError::OnDecodeThread { .. })), "{refused:?}");
    }
    assert!(matches!(paused, Ok(true)), "{paused:?}");
    fence.join().unwrap().unwrap();
    assert!(!s.is_collecting());
    assert!(s.resume().unwrap());
    assert_eq!(s.backend().calls.take(), ["register", "enable 7", "disable 7", "enable 7"]);
    slot.lock().unwrap().take();
    assert!(s.end().counts.is_balanced());
}

#[test]
fn a_kind_that_fails_to_enable_leaves_nothing_enabled() {
    let _g = serial();
    let vendor = Vendor::default();
    vendor.refuse.store(true, Ordering::Relaxed);
    let s = session(vendor, BufferPool::new(64, 1), &[1, REFUSED]);
    assert!(matches!(s.start(), Err(ActivityError::KindLocked { .. })));
    assert_eq!(s.backend().calls.take(), ["register", "enable 1", "disable 1"]);
    assert!(!s.is_collecting());
    s.backend().refuse.store(false, Ordering::Relaxed);
    s.start().unwrap();
    let switch = s.switch();
    assert!(switch.pause().unwrap());
    assert!(!switch.pause().unwrap(), "already paused");
    s.enable(3).unwrap();
    assert!(switch.resume().unwrap());
    s.end();
    assert!(!switch.resume().unwrap(), "the session ended");
    assert!(matches!(s.start(), Err(ActivityError::Ended)));
    assert!(matches!(s.flush(), Err(ActivityError::Ended)));
}

/// An empty selection is an error, not a session that collects nothing: starting with no kind is
/// refused (nothing asked of the vendor), and starts once a kind is enabled.
#[test]
fn a_session_with_no_kind_refuses_to_start_until_one_is_enabled() {
    let _g = serial();
    let s = session(Vendor::default(), BufferPool::new(64, 1), &[]);
    assert!(matches!(s.start(), Err(ActivityError::NoKinds)), "an empty selection");
    assert!(!s.is_started() && !s.is_collecting());
    assert_eq!(s.backend().calls.take(), ["register"], "nothing enabled, the switch not turned on");
    s.enable(2).unwrap();
    s.start().expect("a kind selected");
    assert!(s.is_collecting());
    s.end();
}
