//! Lifecycle stress against the mock rocprofiler-sdk, through the public API only: tools configured,
//! their activity sessions started, flushed from several threads, paused, ended and configured again
//! while threads dispatch kernels and make API calls; callback closures and consumers that panic; the
//! SDK buffer full under both policies (DISCARD drops and counts, LOSSLESS makes the producer wait);
//! flushes from inside consumers and callbacks.
//!
//! The SDK's callback closures live as long as the process (the SDK has no way to unregister one), so
//! "no callback after its closure is freed" holds by construction here; the closures still own a
//! [`DropFlag`] and check it. Every test asserts: no hang (a watchdog aborts the process when a phase
//! makes no progress) and that every record the test produced through the mock (one per dispatch while
//! the session collects) was delivered or counted as dropped. `ACCELPROF_STRESS_ITERS=<n>` runs `n`
//! rounds per test instead of the default; each test prints its figures.

mod support;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use accelprof_core::activity::ActivityError;
use accelprof_mocks::stress::{hush_deliberate_panics, iterations, DropFlag, Watchdog, DELIBERATE};
use rocprofiler::activity::{ActivityConfig, ActivitySession, MIN_BUFFER_SIZE};
use rocprofiler::{BufferConfig, BufferKind, BufferPolicy, CallbackDomain, Error, FamilySet, Subscriber};
use support::tool::{configure, lib};
use support::{ctl, exclusive, gpu};

const HANG: Duration = Duration::from_secs(60);

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

/// The operation number of `hipMalloc` in the mock's lists.
fn hip_malloc() -> i32 {
    let ops = lib().callback_operations(CallbackDomain::HIP_RUNTIME_API).expect("HIP operations");
    ops.iter().find(|(_, n)| n == "hipMalloc").expect("hipMalloc is listed").0 .0
}

/// A session (made in a fresh configure window of the mock) whose buffer is small under `policy`,
/// and a HIP API callback closure that panics now and then and flushes the session from the calling
/// thread now and then.
fn configured(
    policy: BufferPolicy,
    slot: &Arc<Mutex<Option<Weak<ActivitySession>>>>,
    flushes: &Arc<AtomicU64>,
) -> (Arc<ActivitySession>, Subscriber, Arc<AtomicBool>) {
    let out: Arc<Mutex<Option<(ActivitySession, Subscriber)>>> = Arc::default();
    let o = Arc::clone(&out);
    let (flag, freed) = DropFlag::new();
    let (slot_in, fl) = (Arc::clone(slot), Arc::clone(flushes));
    configure(move |cfg| {
        let kinds = [BufferKind::KERNEL_DISPATCH].into_iter().collect();
        let buffer = BufferConfig {
            size: MIN_BUFFER_SIZE,
            // DISCARD: no watermark below the size, so a full buffer drops (and counts) records.
            watermark: if policy == BufferPolicy::Discard { MIN_BUFFER_SIZE } else { MIN_BUFFER_SIZE / 2 },
            policy,
            copy_buffer_size: MIN_BUFFER_SIZE,
            max_buffers: 2,
            batch_rows: 16,
        };
        let session = cfg.activity_session(ActivityConfig { kinds, buffer })?;
        let ctx = cfg.create_context()?;
        let calls = AtomicU64::new(0);
        let sub = cfg.callback_tracing(&ctx, CallbackDomain::HIP_RUNTIME_API, &[], move |_| {
            flag.check();
            let i = calls.fetch_add(1, Ordering::Relaxed);
            if i % 13 == 5 {
                panic!("{DELIBERATE}: a callback closure fails");
            }
            if i % 17 == 3 {
                let s = slot_in.lock().unwrap().as_ref().and_then(Weak::upgrade);
                if let Some(s) = s {
                    if s.flush().is_ok() {
                        fl.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        })?;
        ctx.start()?;
        *o.lock().unwrap() = Some((session, sub));
        Ok(())
    })
    .expect("the tool's setup succeeds");
    let (session, sub) = out.lock().unwrap().take().expect("setup ran");
    let session = Arc::new(session);
    *slot.lock().unwrap() = Some(Arc::downgrade(&session));
    (session, sub, freed)
}

#[test]
fn sessions_configured_flushed_ended_and_configured_again_under_producers_in_both_policies() {
    let _g = exclusive();
    hush_deliberate_panics();
    let dog = Watchdog::start("rocprofiler activity cycles", HANG);
    let rounds = iterations(20);
    let producers = 2u64;
    let per_producer = 300u64;
    let op = hip_malloc();
    let hip = CallbackDomain::HIP_RUNTIME_API.0;
    let violations_before = DropFlag::violations();
    let (mut produced_total, mut delivered_total, mut dropped_total) = (0u64, 0u64, 0u64);
    let (mut consumer_panics, mut callback_panics, mut refused, mut vendor_dropped) =
        (0u64, 0u64, 0u64, 0u64);
    let mut sdk_dropped = 0u64;
    let flushes_in_callbacks = Arc::new(AtomicU64::new(0));
    for round in 0..rounds {
        dog.progress(&format!("round {round}: configure"));
        if round > 0 {
            // A new process as far as the SDK knows: the previous tool is gone.
            ctl().reset();
        }
        let policy = if round % 2 == 0 { BufferPolicy::Discard } else { BufferPolicy::Lossless };
        let slot = Arc::new(Mutex::new(None));
        let (session, sub, _closure_freed) = configured(policy, &slot, &flushes_in_callbacks);
        let weak = Arc::downgrade(&session);
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
        session.start().expect("start");
        let kernel = ctl().kernel_symbol(c"stress_kernel");
        let dispatched = Arc::new(AtomicU64::new(0));
        let threads: Vec<_> = (0..producers)
            .map(|t| {
                let dispatched = Arc::clone(&dispatched);
                std::thread::spawn(move || {
                    for i in 0..per_producer {
                        if ctl().dispatch(gpu(t as u32 % 2), 1 + t, kernel, 64, 1, 1, 64, 1, 1) != 0 {
                            dispatched.fetch_add(1, Ordering::Relaxed);
                        }
                        if i % 3 == 0 {
                            ctl().api_call(hip, op);
                        }
                    }
                })
            })
            .collect();
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
        dog.progress(&format!("round {round}: producing and flushing"));
        for t in threads.into_iter().chain(flushers) {
            t.join().expect("a producing or flushing thread failed");
        }
        if round % 3 == 0 {
            assert!(session.pause().unwrap());
            ctl().dispatch(gpu(0), 9, kernel, 1, 1, 1, 1, 1, 1); // not collected: paused
            assert!(session.resume().unwrap());
        }
        dog.progress(&format!("round {round}: end"));
        *slot.lock().unwrap() = None;
        let session = unwrap_arc(session);
        let counts = if round % 4 == 1 { session.end().counts } else { session.stop().expect("stop") };
        let produced = dispatched.load(Ordering::Relaxed);
        assert!(freed.load(Ordering::SeqCst), "round {round}: the consumer is freed at the end");
        assert_eq!(counts.pipeline.records_pending(), 0, "round {round}: {counts:#?}");
        assert_eq!(
            produced,
            counts.pipeline.records_delivered + counts.pipeline.records_dropped(),
            "round {round}: every dispatch's record is delivered or counted: {counts:#?}"
        );
        assert!(counts.is_balanced(), "round {round}: {counts:#?}");
        assert_eq!(delivered.load(Ordering::Relaxed), counts.pipeline.records_delivered, "round {round}");
        if policy == BufferPolicy::Lossless {
            // The SDK loses nothing; what the copy pool (2 buffers) could not take is counted.
            assert_eq!(counts.vendor.sdk_drop_count, 0, "round {round}: LOSSLESS loses nothing in the SDK");
        }
        sdk_dropped += counts.vendor.sdk_drop_count;
        produced_total += produced;
        delivered_total += counts.pipeline.records_delivered;
        dropped_total += counts.pipeline.records_dropped();
        vendor_dropped += counts.pipeline.vendor_dropped;
        consumer_panics += counts.pipeline.consumer_panics;
        callback_panics += sub.panics();
        refused += inside_refused.load(Ordering::Relaxed);
    }
    let violations = DropFlag::violations() - violations_before;
    eprintln!(
        "rocprofiler activity: {rounds} configured sessions (DISCARD and LOSSLESS, 4 KiB SDK buffers), \
         {producers} producer threads x {per_producer} dispatches, 2 flushing threads; records produced \
         {produced_total} = delivered {delivered_total} + dropped {dropped_total} (lost before decoding: {vendor_dropped}, of which by the SDK under DISCARD: {sdk_dropped}); \
         {consumer_panics} consumer and {callback_panics} callback panics caught, {refused} flushes refused \
         inside consumers, {} flushes from inside callbacks, {violations} violations",
        flushes_in_callbacks.load(Ordering::Relaxed)
    );
    assert_eq!(violations, 0);
    assert_eq!(produced_total, delivered_total + dropped_total);
    assert!(delivered_total > 0 && consumer_panics > 0 && callback_panics > 0 && refused > 0);
}
