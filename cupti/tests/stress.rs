//! Lifecycle stress against the mock `libcupti`, through the public API only: subscribers and
//! activity sessions made, enabled, flushed, dropped and made again while other threads make CUDA
//! calls and produce records; closures that panic; declined buffers and the pool exhausted under
//! both policies; flushes and subscriptions from inside callbacks and consumers, from several threads
//! at once.
//!
//! Every test asserts: no hang (a watchdog aborts the process when a phase makes no progress), no
//! callback after its closure was freed (each closure owns a [`DropFlag`]), and, for activity, that
//! every record the mock produced was delivered or counted as dropped. `ACCELPROF_STRESS_ITERS=<n>`
//! runs `n` rounds per test instead of the default; each test prints its figures.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Mutex, MutexGuard, OnceLock, Weak};
use std::time::Duration;

use accelprof_core::activity::ActivityError;
use accelprof_core::FamilySet;
use accelprof_mocks::cupti::MockCupti;
use accelprof_mocks::stress::{hush_deliberate_panics, iterations, DropFlag, Watchdog, DELIBERATE};
use cupti::activity::{
    ActivityConfig, ActivityCounts, ActivityKind, ActivitySession, BufferPolicy, DeviceSync,
};
use cupti::sys::params;
use cupti::{CallbackDomain, Cupti, Error, RuntimeCbid};

static MOCK: OnceLock<MockCupti> = OnceLock::new();
static CUPTI: OnceLock<Cupti> = OnceLock::new();
static SERIAL: Mutex<()> = Mutex::new(());

fn path() -> &'static Path {
    Path::new(accelprof_mocks::cupti::LIBRARY)
}

fn mock() -> &'static MockCupti {
    MOCK.get_or_init(|| MockCupti::open(path()).expect("the mock libcupti's controls"))
}

/// One test at a time (the mock is one per process), the mock reset, the process's `Cupti`.
fn setup() -> (MutexGuard<'static, ()>, &'static Cupti, &'static MockCupti) {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let cupti = CUPTI.get_or_init(|| Cupti::open_path(path()).expect("the mock opens through cupti"));
    // SAFETY: tests run one at a time and join their threads before they return.
    let _ = unsafe { cupti.release_subscription() };
    mock().reset();
    (guard, cupti, mock())
}

const HANG: Duration = Duration::from_secs(60);
const RUNTIME: u32 = 2;

/// Threads that play a CUDA program until dropped: launches, copies and plain runtime calls.
struct Traffic {
    stop: Arc<AtomicBool>,
    /// While set, the threads make no calls (see `quiet`).
    hold: Arc<AtomicBool>,
    idle: Arc<AtomicU64>,
    calls: Arc<AtomicU64>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Traffic {
    fn start(threads: usize) -> Traffic {
        let stop = Arc::new(AtomicBool::new(false));
        let calls = Arc::new(AtomicU64::new(0));
        let hold = Arc::new(AtomicBool::new(false));
        let idle = Arc::new(AtomicU64::new(0));
        let threads = (0..threads)
            .map(|t| {
                let (stop, calls) = (Arc::clone(&stop), Arc::clone(&calls));
                let (hold, idle) = (Arc::clone(&hold), Arc::clone(&idle));
                std::thread::spawn(move || {
                    let m = mock();
                    let p = params::cudaMemcpy_v3020_params {
                        dst: 0x1000 as *mut std::ffi::c_void,
                        src: 0x2000 as *const std::ffi::c_void,
                        count: 64,
                        kind: params::cudaMemcpyKind::cudaMemcpyHostToDevice,
                    };
                    let mut i = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        if hold.load(Ordering::SeqCst) {
                            idle.fetch_add(1, Ordering::SeqCst);
                            while hold.load(Ordering::SeqCst) && !stop.load(Ordering::Relaxed) {
                                std::thread::sleep(Duration::from_micros(100));
                            }
                            idle.fetch_sub(1, Ordering::SeqCst);
                            continue;
                        }
                        match i % 4 {
                            0 | 1 => {
                                m.launch(c"stress_kernel", [2, 1, 1], [64, 1, 1], 0, 1 + t as u64);
                            }
                            2 => {
                                m.memcpy(0x10, 0x20, 256, 1, 1 + t as u64, 1, 100);
                            }
                            _ => {
                                let cbid = RuntimeCbid::cudaMemcpy_v3020.0;
                                // SAFETY: the cudaMemcpy parameters, alive across the call.
                                unsafe {
                                    m.api_call_with_params(
                                        RUNTIME,
                                        cbid,
                                        None,
                                        std::ptr::from_ref(&p).cast(),
                                        0,
                                    )
                                };
                            }
                        }
                        i += 1;
                        calls.fetch_add(1, Ordering::Relaxed);
                        if i % 64 == 0 {
                            std::thread::yield_now();
                        }
                    }
                })
            })
            .collect();
        Traffic { stop, hold, idle, calls, threads }
    }

    /// Runs `f` while no thread is inside a call. A record still being written when a session ends
    /// can land in a buffer the vendor asks for after the end's last look (see the closing note of
    /// `sessions_start_flush_end_and_start_again_under_producers_*`): the exact ledger is checked
    /// over ends that no call straddles.
    fn quiet<R>(&self, f: impl FnOnce() -> R) -> R {
        self.hold.store(true, Ordering::SeqCst);
        while self.idle.load(Ordering::SeqCst) < self.threads.len() as u64 {
            std::thread::yield_now();
        }
        let r = f();
        self.hold.store(false, Ordering::SeqCst);
        r
    }

    fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    fn stop(mut self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            t.join().expect("a traffic thread panicked");
        }
        self.calls()
    }
}

/// Records the mock produced so far: written into our buffers, or dropped for want of one.
fn produced(m: &MockCupti) -> u64 {
    m.stat(c"records_written") + m.stat(c"records_dropped")
}

/// The ledger of one session, against what the mock produced during it.
fn assert_balanced(round: u64, produced: u64, counts: &ActivityCounts) {
    let p = counts.pipeline;
    assert_eq!(p.records_pending(), 0, "round {round}: {counts:#?}");
    assert_eq!(
        produced,
        p.records_delivered + p.records_dropped() + counts.vendor.decoder.fence_records,
        "round {round}: every record the mock produced is delivered or counted: {counts:#?}"
    );
    assert!(counts.is_balanced(), "round {round}: {counts:#?}");
}

#[test]
fn subscribers_come_and_go_from_several_threads_under_traffic() {
    let (_g, cupti, m) = setup();
    hush_deliberate_panics();
    let dog = Watchdog::start("cupti callbacks churn", HANG);
    let rounds = iterations(150);
    let traffic = Traffic::start(3);
    let violations_before = DropFlag::violations();
    let seen = Arc::new(AtomicU64::new(0));
    let panics = Arc::new(AtomicU64::new(0));
    let nested = Arc::new(AtomicU64::new(0));
    let late_frees = Arc::new(AtomicU64::new(0));
    let churners = 3;
    let start = Arc::new(Barrier::new(churners));
    let handles: Vec<_> = (0..churners)
        .map(|c| {
            let (seen, panics, nested, start) =
                (Arc::clone(&seen), Arc::clone(&panics), Arc::clone(&nested), Arc::clone(&start));
            let late = Arc::clone(&late_frees);
            std::thread::spawn(move || {
                start.wait();
                for round in 0..rounds {
                    let (flag, freed) = DropFlag::new();
                    let calls = Arc::new(AtomicU64::new(0));
                    let (s, n, k) = (Arc::clone(&seen), Arc::clone(&nested), Arc::clone(&calls));
                    let sub = cupti
                        .subscribe(move |cb| {
                            flag.check();
                            s.fetch_add(1, Ordering::Relaxed);
                            let i = k.fetch_add(1, Ordering::Relaxed);
                            if round % 7 == 3 && i == 2 {
                                panic!("{DELIBERATE}: a closure fails in round {round}");
                            }
                            // Subscribe, enable and drop from inside a callback now and then.
                            if round % 11 == 5 && i == 1 {
                                let (inner_flag, _) = DropFlag::new();
                                if let Ok(inner) = cupti.subscribe(move |_| {
                                    inner_flag.check();
                                }) {
                                    let _ = inner.enable_domain(CallbackDomain::DRIVER_API);
                                    drop(inner);
                                    n.fetch_add(1, Ordering::Relaxed);
                                }
                            }
                            let _ = cb.name();
                        })
                        .expect("subscribe");
                    match (round + c as u64) % 3 {
                        0 => sub.enable_domain(CallbackDomain::RUNTIME_API).unwrap(),
                        1 => sub.enable(RuntimeCbid::cudaLaunchKernel_v7000).unwrap(),
                        _ => {
                            sub.enable_domain(CallbackDomain::DRIVER_API).unwrap();
                            sub.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap();
                        }
                    }
                    // Let some callbacks in (bounded: traffic may be slow on a loaded machine).
                    for _ in 0..2_000 {
                        if calls.load(Ordering::Relaxed) >= 4 {
                            break;
                        }
                        std::thread::yield_now();
                    }
                    if round % 5 == 0 {
                        let _ = sub.disable_domain(CallbackDomain::RUNTIME_API);
                    }
                    panics.fetch_add(sub.panics(), Ordering::Relaxed);
                    drop(sub);
                    if !freed.load(Ordering::SeqCst) {
                        // The promise is that it is freed when drop returns: a late one is
                        // counted (the figures print it; 0 expected) and must be gone soon.
                        late.fetch_add(1, Ordering::Relaxed);
                        let begun = std::time::Instant::now();
                        while !freed.load(Ordering::SeqCst) {
                            assert!(begun.elapsed() < Duration::from_secs(10), "the closure is never freed");
                            std::thread::yield_now();
                        }
                    }
                }
            })
        })
        .collect();
    // The churners report progress through the callback count; the watchdog sees the main thread.
    let mut joined = Vec::new();
    let mut last = (0, 0);
    for h in handles {
        loop {
            if h.is_finished() {
                joined.push(h.join());
                break;
            }
            let now = (seen.load(Ordering::Relaxed), traffic.calls());
            if now != last {
                last = now;
                dog.progress(&format!("churning: {} callbacks, {} calls", now.0, now.1));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let calls = traffic.stop();
    for j in joined {
        j.expect("a churning thread failed");
    }
    let violations = DropFlag::violations() - violations_before;
    eprintln!(
        "cupti callbacks: {rounds} rounds x {churners} subscribing threads, 3 traffic threads, {calls} calls, \
         {} callbacks, {} panics caught, {} subscriptions from inside callbacks, {} closures freed just after \
         their drop returned, {violations} violations",
        seen.load(Ordering::Relaxed),
        panics.load(Ordering::Relaxed),
        nested.load(Ordering::Relaxed),
        late_frees.load(Ordering::Relaxed),
    );
    assert_eq!(violations, 0, "a callback ran after its closure was freed");
    assert!(seen.load(Ordering::Relaxed) > 0, "callbacks ran");
    assert_eq!(late_frees.load(Ordering::Relaxed), 0, "a closure outlived its subscriber's drop");
    // SAFETY: the traffic threads have ended.
    let _ = unsafe { cupti.release_subscription() };
    assert_eq!(m.stat(c"callbacks_in_flight"), 0);
}

/// A session config over a small pool under `policy`, its fence synchronizing the mock.
fn small_config(policy: BufferPolicy, buffers: usize) -> ActivityConfig {
    ActivityConfig {
        kinds: [ActivityKind::CONCURRENT_KERNEL, ActivityKind::MEMCPY, ActivityKind::RUNTIME]
            .into_iter()
            .collect(),
        buffer_size: 4096,
        max_buffers: buffers,
        policy,
        batch_rows: 32,
        device_sync: DeviceSync::custom(|| {
            mock().device_synchronize();
            Ok(true)
        }),
        fence_timeout: Duration::from_secs(20),
        ..ActivityConfig::default()
    }
}

#[test]
fn sessions_start_flush_end_and_start_again_under_producers_in_both_policies() {
    let (_g, cupti, m) = setup();
    hush_deliberate_panics();
    let dog = Watchdog::start("cupti activity cycles", HANG);
    let rounds = iterations(24);
    let traffic = Traffic::start(2);
    let violations_before = DropFlag::violations();
    let (mut produced_total, mut delivered_total, mut dropped_total, mut fence_total) = (0, 0, 0, 0);
    let (mut declined, mut overflow, mut consumer_panics, mut refused) = (0, 0, 0, 0u64);
    for round in 0..rounds {
        dog.progress(&format!("round {round}: new"));
        let policy =
            if round % 2 == 0 { BufferPolicy::Lossy } else { BufferPolicy::Lossless { max_overflow: 2 } };
        let before = produced(m);
        let session: Arc<ActivitySession<'static>> =
            Arc::new(ActivitySession::new(cupti, small_config(policy, 2)).expect("a session"));
        let weak: Weak<ActivitySession<'static>> = Arc::downgrade(&session);
        let (flag, freed) = DropFlag::new();
        let delivered = Arc::new(AtomicU64::new(0));
        let d = Arc::clone(&delivered);
        let inside_refused = Arc::new(AtomicU64::new(0));
        let r = Arc::clone(&inside_refused);
        let mut batches = 0u64;
        session.subscribe(FamilySet::all(), move |batch, _| {
            flag.check();
            d.fetch_add(batch.len() as u64, Ordering::Relaxed);
            batches += 1;
            // From inside a consumer: a flush and a fence are refused at once, never a hang.
            if batches % 4 == 1 {
                if let Some(s) = weak.upgrade() {
                    for result in [s.flush(), s.fence()] {
                        match result {
                            Err(Error::Activity(ActivityError::OnDecodeThread { .. }))
                            | Err(Error::Activity(ActivityError::Ended)) => {
                                r.fetch_add(1, Ordering::Relaxed);
                            }
                            other => panic!("a flush inside a consumer: {other:?}"),
                        }
                    }
                }
            }
            if batches % 9 == 4 {
                panic!("{DELIBERATE}: a consumer fails");
            }
            // A slow consumer now and then: the decode thread falls behind, the pool runs dry.
            if batches % 3 == 0 {
                std::thread::sleep(Duration::from_micros(300));
            }
        });
        session.start().expect("start");
        // Flushes and fences from several threads at once while the producers run.
        let flushers: Vec<_> = (0..2)
            .map(|f| {
                let s = Arc::clone(&session);
                std::thread::spawn(move || {
                    for i in 0..4 {
                        let r = if (i + f) % 2 == 0 { s.flush() } else { s.fence() };
                        r.unwrap_or_else(|e| panic!("flush from thread {f}: {e}"));
                    }
                })
            })
            .collect();
        dog.progress(&format!("round {round}: flushing from two threads"));
        for f in flushers {
            f.join().expect("a flushing thread failed");
        }
        if round % 3 == 0 {
            session.pause().unwrap();
            session.resume().unwrap();
        }
        dog.progress(&format!("round {round}: stop"));
        // The consumer may hold an upgraded reference for a moment.
        let mut session = session;
        let session = loop {
            match Arc::try_unwrap(session) {
                Ok(s) => break s,
                Err(s) => {
                    session = s;
                    std::thread::yield_now();
                }
            }
        };
        let counts =
            traffic
                .quiet(|| if round % 4 == 3 { session.end().counts } else { session.stop().expect("stop") });
        let after = produced(m);
        assert!(freed.load(Ordering::SeqCst), "round {round}: the consumer is freed at the end");
        assert_balanced(round, after - before, &counts);
        assert_eq!(delivered.load(Ordering::Relaxed), counts.pipeline.records_delivered, "round {round}");
        produced_total += after - before;
        delivered_total += counts.pipeline.records_delivered;
        dropped_total += counts.pipeline.records_dropped();
        fence_total += counts.vendor.decoder.fence_records;
        declined += counts.pipeline.buffers_declined;
        overflow += counts.overflow_buffers;
        consumer_panics += counts.pipeline.consumer_panics;
        refused += inside_refused.load(Ordering::Relaxed);
    }
    let calls = traffic.stop();
    let violations = DropFlag::violations() - violations_before;
    eprintln!(
        "cupti activity: {rounds} sessions (lossy and lossless, 2 x 4 KiB buffers), 2 producer threads, \
         2 flushing threads, {calls} calls; records produced {produced_total} = delivered {delivered_total} + \
         dropped {dropped_total} + fence probes {fence_total}; {declined} buffers declined, {overflow} \
         overflow buffers, {consumer_panics} consumer panics caught, {refused} flushes refused inside \
         consumers, {violations} violations"
    );
    assert_eq!(violations, 0, "a consumer ran after its closure was freed");
    assert_eq!(produced_total, delivered_total + dropped_total + fence_total);
    assert!(produced_total > 0 && delivered_total > 0, "records flowed");
    assert!(consumer_panics > 0 && refused > 0, "the consumers' paths ran");
}

#[test]
fn sessions_made_from_several_threads_at_once_are_one_at_a_time() {
    let (_g, cupti, _m) = setup();
    hush_deliberate_panics();
    let dog = Watchdog::start("cupti concurrent sessions", HANG);
    let rounds = iterations(40);
    let threads = 4;
    let (mut won, mut lost) = (0u64, 0u64);
    for round in 0..rounds {
        dog.progress(&format!("round {round}"));
        let barrier = Arc::new(Barrier::new(threads));
        let live = Arc::new(AtomicU64::new(0));
        let most = Arc::new(AtomicU64::new(0));
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (barrier, live, most) = (Arc::clone(&barrier), Arc::clone(&live), Arc::clone(&most));
                std::thread::spawn(move || {
                    barrier.wait();
                    let made = ActivitySession::new(cupti, small_config(BufferPolicy::Lossy, 2));
                    let ok = made.is_ok();
                    if ok {
                        let now = live.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                    } else if let Err(e) = &made {
                        assert!(
                            matches!(e, Error::Activity(ActivityError::SessionActive { .. })),
                            "the loser is told another session is active: {e}"
                        );
                    }
                    // Everyone meets again while the winners still hold their session.
                    barrier.wait();
                    if let Ok(s) = made {
                        s.stop().expect("stop");
                        live.fetch_sub(1, Ordering::SeqCst);
                    }
                    ok
                })
            })
            .collect();
        for h in handles {
            if h.join().expect("a session thread failed") {
                won += 1;
            } else {
                lost += 1;
            }
        }
        assert_eq!(most.load(Ordering::SeqCst), 1, "round {round}: one session at a time");
    }
    eprintln!("cupti sessions at once: {rounds} rounds x {threads} threads: {won} made, {lost} refused");
}

#[test]
fn flushes_inside_callbacks_and_subscriptions_inside_consumers_do_not_deadlock() {
    let (_g, cupti, m) = setup();
    hush_deliberate_panics();
    let dog = Watchdog::start("cupti flush inside callbacks", HANG);
    let rounds = iterations(12);
    let violations_before = DropFlag::violations();
    let (mut produced_total, mut accounted_total, mut flushes_in_callbacks) = (0u64, 0u64, 0u64);
    let not_refused = Arc::new(AtomicU64::new(0));
    for round in 0..rounds {
        dog.progress(&format!("round {round}: setup"));
        let before = produced(m);
        let session: Arc<ActivitySession<'static>> = Arc::new(
            ActivitySession::new(cupti, small_config(BufferPolicy::Lossless { max_overflow: 4 }, 4)).unwrap(),
        );
        // A consumer that subscribes (and drops) a callback subscriber on the decode thread.
        let (cflag, cfreed) = DropFlag::new();
        session.subscribe(FamilySet::all(), move |_, _| {
            cflag.check();
            let (flag, _) = DropFlag::new();
            if let Ok(sub) = cupti.subscribe(move |_| {
                flag.check();
            }) {
                let _ = sub.enable(RuntimeCbid::cudaLaunchKernel_v7000);
                drop(sub);
            }
        });
        session.start().unwrap();
        // A callback subscriber whose closure flushes the session from the application's thread.
        let weak = Arc::downgrade(&session);
        let flushed = Arc::new(AtomicU64::new(0));
        let fl = Arc::clone(&flushed);
        let wrong = Arc::clone(&not_refused);
        let (flag, freed) = DropFlag::new();
        let sub = cupti
            .subscribe(move |cb| {
                flag.check();
                let Some(api) = cb.api() else { return };
                if api.is_enter() {
                    return;
                }
                if let Some(s) = weak.upgrade() {
                    // Waiting for the decode thread here could wait for this very callback (the
                    // consumer drops a subscriber, which waits for running callbacks): refused.
                    match (s.flush(), s.fence()) {
                        (
                            Err(Error::Activity(ActivityError::InCallback { .. })),
                            Err(Error::Activity(ActivityError::InCallback { .. })),
                        ) => fl.fetch_add(1, Ordering::Relaxed),
                        _ => wrong.fetch_add(1, Ordering::Relaxed),
                    };
                }
            })
            .unwrap();
        sub.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap();
        let traffic = Traffic::start(2);
        let mut last = 0;
        while traffic.calls() < 200 {
            if traffic.calls() > last {
                last = traffic.calls();
                dog.progress(&format!("round {round}: traffic, {last} calls"));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        dog.progress(&format!("round {round}: drop the flushing subscriber"));
        drop(sub);
        assert!(freed.load(Ordering::SeqCst));
        traffic.stop();
        dog.progress(&format!("round {round}: stop"));
        let mut session = session;
        let session = loop {
            match Arc::try_unwrap(session) {
                Ok(s) => break s,
                Err(s) => {
                    session = s;
                    std::thread::yield_now();
                }
            }
        };
        let counts = session.stop().unwrap();
        assert!(cfreed.load(Ordering::SeqCst));
        let p = produced(m) - before;
        assert_balanced(round, p, &counts);
        produced_total += p;
        accounted_total += counts.pipeline.records_delivered
            + counts.pipeline.records_dropped()
            + counts.vendor.decoder.fence_records;
        flushes_in_callbacks += flushed.load(Ordering::Relaxed);
    }
    let violations = DropFlag::violations() - violations_before;
    eprintln!(
        "cupti re-entry: {rounds} sessions, 2 traffic threads; {flushes_in_callbacks} flushes refused inside \
         callbacks; records produced {produced_total} = delivered + dropped + fence probes {accounted_total}; \
         {violations} violations"
    );
    assert_eq!(violations, 0);
    assert_eq!(not_refused.load(Ordering::Relaxed), 0, "a flush inside a callback was not refused");
    assert!(flushes_in_callbacks > 0, "flushes were asked for inside callbacks");
    // SAFETY: no thread makes calls any more.
    let _ = unsafe { cupti.release_subscription() };
}
