//! Lifecycle stress against the mock `libmspti`, through the public API only (each test in a child
//! started with the mock preloaded, as an MSPTI program is): subscribers made, enabled and dropped
//! while other threads make runtime calls; activity sessions made, flushed from several threads,
//! ended and made again while threads produce records; closures and consumers that panic; declined
//! buffers (MSPTI has one policy: a buffer it cannot get costs it the record, which it counts);
//! flushes and subscriptions from inside callbacks and consumers.
//!
//! Every test asserts: no hang (a watchdog aborts the process when a phase makes no progress), no
//! callback after its closure was freed (each closure owns a [`DropFlag`]), and, for activity, that
//! every record the mock produced was delivered or counted as dropped. `ACCELPROF_STRESS_ITERS=<n>`
//! runs `n` rounds per test instead of the default; each test prints its figures.

#[macro_use]
mod support;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Weak};
use std::time::Duration;

use accelprof_mocks::stress::{hush_deliberate_panics, iterations, DropFlag, Watchdog, DELIBERATE};
use mspti::accelprof_core::activity::ActivityError;
use mspti::accelprof_core::FamilySet;
use mspti::activity::ActivitySession;
use mspti::{ActivityConfig, ActivityKind, CallbackDomain, Error, RuntimeCbid};
use support::{mock, mspti, no_kinds, serial, RUNTIME};

const HANG: Duration = Duration::from_secs(60);

/// Threads that play runtime calls (each an ACL_API record while subscribed) and kernels until
/// stopped.
struct Traffic {
    stop: Arc<AtomicBool>,
    /// While set, the threads make no calls (see `quiet`).
    hold: Arc<AtomicBool>,
    idle: Arc<AtomicU64>,
    calls: Arc<AtomicU64>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Traffic {
    fn start(threads: usize, kernels: bool) -> Traffic {
        let stop = Arc::new(AtomicBool::new(false));
        let calls = Arc::new(AtomicU64::new(0));
        let hold = Arc::new(AtomicBool::new(false));
        let idle = Arc::new(AtomicU64::new(0));
        let threads = (0..threads)
            .map(|t| {
                let (stop, calls) = (Arc::clone(&stop), Arc::clone(&calls));
                let (hold, idle) = (Arc::clone(&hold), Arc::clone(&idle));
                std::thread::spawn(move || {
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
                        if kernels && i % 2 == 0 {
                            mock().kernel(
                                i,
                                i + 1,
                                t as u32,
                                0,
                                (t as u64) << 40 | i,
                                "AI_CORE",
                                "stress_kernel",
                            );
                        } else {
                            mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", None);
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
fn produced() -> u64 {
    mock().counter("recorded") + mock().counter("dropped")
}

fn unwrap_arc<T>(mut arc: Arc<T>) -> T {
    loop {
        match Arc::try_unwrap(arc) {
            Ok(t) => return t,
            Err(a) => {
                arc = a;
                std::thread::yield_now();
            }
        }
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn subscribers_come_and_go_from_several_threads_under_traffic() {
        let _g = serial();
        hush_deliberate_panics();
        let dog = Watchdog::start("mspti callbacks churn", HANG);
        let rounds = iterations(150);
        let traffic = Traffic::start(3, false);
        let violations_before = DropFlag::violations();
        let (seen, panics, nested) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let churners = 3;
        let start = Arc::new(Barrier::new(churners));
        let handles: Vec<_> = (0..churners)
            .map(|c| {
                let (seen, panics, nested, start) =
                    (Arc::clone(&seen), Arc::clone(&panics), Arc::clone(&nested), Arc::clone(&start));
                std::thread::spawn(move || {
                    start.wait();
                    for round in 0..rounds {
                        let (flag, freed) = DropFlag::new();
                        let calls = Arc::new(AtomicU64::new(0));
                        let (s, n, k) = (Arc::clone(&seen), Arc::clone(&nested), Arc::clone(&calls));
                        let sub = mspti()
                            .subscribe(move |_| {
                                flag.check();
                                s.fetch_add(1, Ordering::Relaxed);
                                let i = k.fetch_add(1, Ordering::Relaxed);
                                if round % 7 == 3 && i == 2 {
                                    panic!("{DELIBERATE}: a closure fails in round {round}");
                                }
                                if round % 11 == 5 && i == 1 {
                                    let (inner_flag, _) = DropFlag::new();
                                    if let Ok(inner) = mspti().subscribe(move |_| {
                                        inner_flag.check();
                                    }) {
                                        let _ = inner.enable(RuntimeCbid::LAUNCH);
                                        drop(inner);
                                        n.fetch_add(1, Ordering::Relaxed);
                                    }
                                }
                            })
                            .expect("subscribe");
                        if (round + c as u64) % 2 == 0 {
                            sub.enable_domain(CallbackDomain::RUNTIME).unwrap();
                        } else {
                            sub.enable(RuntimeCbid::LAUNCH).unwrap();
                        }
                        for _ in 0..2_000 {
                            if calls.load(Ordering::Relaxed) >= 4 {
                                break;
                            }
                            std::thread::yield_now();
                        }
                        panics.fetch_add(sub.panics(), Ordering::Relaxed);
                        if round % 2 == 0 {
                            sub.unsubscribe().expect("unsubscribe");
                            assert!(freed.load(Ordering::SeqCst), "the closure is freed when unsubscribe returns");
                        } else {
                            // Drop does not wait: the closure goes once the calls inside it return.
                            drop(sub);
                        }
                    }
                })
            })
            .collect();
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
            "mspti callbacks: {rounds} rounds x {churners} subscribing threads, 3 traffic threads, {calls} calls, \
             {} callbacks, {} panics caught, {} subscriptions from inside callbacks, {violations} violations",
            seen.load(Ordering::Relaxed),
            panics.load(Ordering::Relaxed),
            nested.load(Ordering::Relaxed),
        );
        assert_eq!(violations, 0, "a callback ran after its closure was freed");
        assert!(seen.load(Ordering::Relaxed) > 0, "callbacks ran");
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn sessions_start_flush_end_and_start_again_under_producers_with_declined_buffers() {
        let _g = serial();
        hush_deliberate_panics();
        let dog = Watchdog::start("mspti activity cycles", HANG);
        let rounds = iterations(24);
        let _sub = mspti().subscribe(|_| {}).unwrap();
        let traffic = Traffic::start(2, true);
        let violations_before = DropFlag::violations();
        let (mut produced_total, mut delivered_total, mut dropped_total) = (0, 0, 0);
        let (mut declined, mut consumer_panics, mut refused) = (0, 0, 0u64);
        for round in 0..rounds {
            dog.progress(&format!("round {round}: new"));
            // Small pools: a slow consumer leaves MSPTI without a buffer now and then.
            let config = ActivityConfig {
                buffer_size: 1024,
                max_buffers: 1 + (round as usize % 3),
                batch_rows: 32,
                // The races of flushes and ends, not the wait for the device (tests/activity.rs):
                // its 100 ms per fence would cost seconds here.
                device_settle: Duration::ZERO,
                ..no_kinds()
            };
            let before = produced();
            let session = Arc::new(ActivitySession::new(mspti(), config).expect("a session"));
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
                if batches % 3 == 0 {
                    std::thread::sleep(Duration::from_micros(300));
                }
            });
            session.enable(ActivityKind::KERNEL).unwrap();
            session.enable(ActivityKind::ACL_API).unwrap();
            session.start().expect("start");
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
            dog.progress(&format!("round {round}: end"));
            let session = unwrap_arc(session);
            let counts =
                traffic.quiet(|| if round % 2 == 0 { session.stop().expect("stop") } else { session.end().counts });
            let p = produced() - before;
            assert!(freed.load(Ordering::SeqCst), "round {round}: the consumer is freed at the end");
            assert_eq!(counts.pipeline.records_pending(), 0, "round {round}: {counts:#?}");
            assert_eq!(
                p,
                counts.pipeline.records_delivered + counts.pipeline.records_dropped(),
                "round {round}: every record the mock produced is delivered or counted: {counts:#?}"
            );
            assert!(counts.is_balanced(), "round {round}: {counts:#?}");
            assert_eq!(delivered.load(Ordering::Relaxed), counts.pipeline.records_delivered, "round {round}");
            produced_total += p;
            delivered_total += counts.pipeline.records_delivered;
            dropped_total += counts.pipeline.records_dropped();
            declined += counts.pipeline.buffers_declined;
            consumer_panics += counts.pipeline.consumer_panics;
            refused += inside_refused.load(Ordering::Relaxed);
        }
        let calls = traffic.stop();
        let violations = DropFlag::violations() - violations_before;
        eprintln!(
            "mspti activity: {rounds} sessions (1 KiB buffers, pools of 1 to 3), 2 producer threads, 2 flushing \
             threads, {calls} calls; records produced {produced_total} = delivered {delivered_total} + dropped \
             {dropped_total}; {declined} buffers declined, {consumer_panics} consumer panics caught, {refused} \
             flushes refused inside consumers, {violations} violations"
        );
        assert_eq!(violations, 0, "a consumer ran after its closure was freed");
        assert_eq!(produced_total, delivered_total + dropped_total);
        assert!(produced_total > 0 && delivered_total > 0, "records flowed");
        assert!(consumer_panics > 0 && refused > 0, "the consumers' paths ran");
    }
}

preloaded_test! {
    fn sessions_made_from_several_threads_at_once_are_one_at_a_time() {
        let _g = serial();
        hush_deliberate_panics();
        let dog = Watchdog::start("mspti concurrent sessions", HANG);
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
                        let made = ActivitySession::new(mspti(), no_kinds());
                        match &made {
                            Ok(_) => {
                                let now = live.fetch_add(1, Ordering::SeqCst) + 1;
                                most.fetch_max(now, Ordering::SeqCst);
                            }
                            Err(e) => assert!(
                                matches!(e, Error::Activity(ActivityError::SessionActive { .. })),
                                "the loser is told another session is active: {e}"
                            ),
                        }
                        barrier.wait();
                        let ok = made.is_ok();
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
        eprintln!("mspti sessions at once: {rounds} rounds x {threads} threads: {won} made, {lost} refused");
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn flushes_inside_callbacks_and_subscriptions_inside_consumers_do_not_deadlock() {
        let _g = serial();
        hush_deliberate_panics();
        let dog = Watchdog::start("mspti flush inside callbacks", HANG);
        let rounds = iterations(12);
        let violations_before = DropFlag::violations();
        let (mut produced_total, mut accounted_total, mut flushes_in_callbacks) = (0u64, 0u64, 0u64);
        let not_refused = Arc::new(AtomicU64::new(0));
        for round in 0..rounds {
            dog.progress(&format!("round {round}: setup"));
            let before = produced();
            let session = Arc::new(ActivitySession::new(mspti(), ActivityConfig { buffer_size: 1024, max_buffers: 4, batch_rows: 16, device_settle: Duration::ZERO, ..no_kinds() }).unwrap());
            let (cflag, cfreed) = DropFlag::new();
            session.subscribe(FamilySet::all(), move |_, _| {
                cflag.check();
                let (flag, _) = DropFlag::new();
                if let Ok(sub) = mspti().subscribe(move |_| {
                    flag.check();
                }) {
                    let _ = sub.enable(RuntimeCbid::LAUNCH);
                    drop(sub);
                }
            });
            let weak = Arc::downgrade(&session);
            let flushed = Arc::new(AtomicU64::new(0));
            let fl = Arc::clone(&flushed);
            let wrong = Arc::clone(&not_refused);
            let (flag, freed) = DropFlag::new();
            let sub = mspti()
                .subscribe(move |cb| {
                    flag.check();
                    if !cb.is_exit() {
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
            sub.enable(RuntimeCbid::LAUNCH).unwrap();
            session.enable(ActivityKind::KERNEL).unwrap();
            session.enable(ActivityKind::ACL_API).unwrap();
            session.start().unwrap();
            let traffic = Traffic::start(2, true);
            let mut last = 0;
            while traffic.calls() < 200 {
                if traffic.calls() > last {
                    last = traffic.calls();
                    dog.progress(&format!("round {round}: traffic, {last} calls"));
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            dog.progress(&format!("round {round}: drop the flushing subscriber"));
            traffic.stop();
            sub.unsubscribe().unwrap();
            assert!(freed.load(Ordering::SeqCst));
            dog.progress(&format!("round {round}: stop"));
            let counts = unwrap_arc(session).stop().unwrap();
            assert!(cfreed.load(Ordering::SeqCst));
            let p = produced() - before;
            let accounted = counts.pipeline.records_delivered + counts.pipeline.records_dropped();
            assert_eq!(p, accounted, "round {round}: {counts:#?}");
            assert!(counts.is_balanced(), "round {round}: {counts:#?}");
            produced_total += p;
            accounted_total += accounted;
            flushes_in_callbacks += flushed.load(Ordering::Relaxed);
        }
        let violations = DropFlag::violations() - violations_before;
        eprintln!(
            "mspti re-entry: {rounds} sessions, 2 traffic threads; {flushes_in_callbacks} flushes refused inside \
             callbacks; records produced {produced_total} = delivered + dropped {accounted_total}; {violations} violations"
        );
        assert_eq!(violations, 0);
        assert_eq!(not_refused.load(Ordering::Relaxed), 0, "a flush inside a callback was not refused");
        assert!(flushes_in_callbacks > 0, "flushes were asked for inside callbacks");
    }
}
