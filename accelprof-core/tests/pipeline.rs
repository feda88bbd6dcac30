mod common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use accelprof_core::columns::FamilySet;
use accelprof_core::pipeline::{Counts, Pipeline, PipelineConfig, PipelineError};
use accelprof_core::pool::BufferPool;
use common::{hand_off, walker, API, FILTERED, KERNEL, PANIC};

fn start(delay: Duration, batch_rows: usize, max_buffers: usize) -> Pipeline {
    let pool = BufferPool::new(1024, max_buffers);
    let config = PipelineConfig { batch_rows, ..Default::default() };
    Pipeline::start(walker(delay), pool, config).unwrap()
}

/// Collects every kernel correlation id a consumer sees.
fn collect_kernels(pipeline: &Pipeline) -> Arc<Mutex<Vec<u64>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    pipeline.subscribe(FamilySet::KERNEL, move |batch, _| {
        sink.lock().unwrap().extend_from_slice(batch.kernels.correlation());
    });
    seen
}

fn assert_quiet_and_balanced(counts: &Counts) {
    assert_eq!(counts.records_pending(), 0, "{counts:?}");
    assert_eq!(counts.records_produced(), counts.records_delivered + counts.records_dropped(), "{counts:?}");
}

#[test]
fn delivers_every_record_and_the_counts_add_up() {
    let pipeline = start(Duration::ZERO, 1_000_000, 4);
    let kernels = collect_kernels(&pipeline);
    let names_seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&names_seen);
    pipeline.subscribe(FamilySet::API, move |batch, names| {
        sink.lock().unwrap().extend(batch.api_calls.name().iter().map(|id| names.resolve(*id).to_owned()));
    });
    let handoff = pipeline.handoff();
    for b in 0..10u64 {
        hand_off(&handoff, &[(KERNEL, b * 10), (API, b * 10 + 1), (77, 0), (KERNEL, b * 10 + 2)]);
    }
    handoff.vendor_dropped(5);
    pipeline.sync().unwrap();

    let mut expected: Vec<u64> = (0..10).flat_map(|b| [b * 10, b * 10 + 2]).collect();
    expected.sort();
    let mut got = kernels.lock().unwrap().clone();
    got.sort();
    assert_eq!(got, expected);
    assert_eq!(*names_seen.lock().unwrap(), vec!["cudaLaunchKernel".to_owned(); 10]);

    let counts = pipeline.counts();
    assert_eq!(counts.buffers_completed, 10);
    assert_eq!(counts.records_decoded, 30);
    assert_eq!(counts.records_delivered, 30);
    assert_eq!(counts.skipped_unknown, 10);
    assert_eq!(counts.vendor_dropped, 5);
    assert_eq!(counts.records_produced(), 45);
    assert_quiet_and_balanced(&counts);
    assert_eq!(pipeline.pool().stats().in_flight, 0, "every buffer went back to the pool");
}

#[test]
fn records_a_filter_left_out_are_counted_as_filtered_not_dropped() {
    let pipeline = start(Duration::ZERO, 1_000_000, 4);
    let kernels = collect_kernels(&pipeline);
    pipeline.subscribe(FamilySet::API, |_, _| {});
    let handoff = pipeline.handoff();
    for b in 0..4u64 {
        hand_off(&handoff, &[(FILTERED, 0), (KERNEL, b), (FILTERED, 0), (API, b), (77, 0)]);
    }
    pipeline.sync().unwrap();
    let counts = pipeline.counts();
    assert_eq!(kernels.lock().unwrap().len(), 4);
    assert_eq!((counts.records_decoded, counts.records_delivered), (8, 8));
    assert_eq!((counts.records_filtered, counts.skipped_unknown), (8, 4));
    assert_eq!(counts.records_dropped(), 4, "filtered records are not dropped");
    assert_eq!(counts.records_produced(), 20, "produced = decoded + skipped + vendor_dropped + filtered");
    assert_eq!(
        counts.records_produced(),
        counts.records_delivered + counts.records_dropped() + counts.records_filtered
    );
}

#[test]
fn sync_waits_for_everything_handed_off_before_it_with_a_slow_walker_and_many_producers() {
    const PRODUCERS: u64 = 6;
    const BUFFERS: u64 = 60;
    const PER_BUFFER: u64 = 8;
    let pipeline = Arc::new(start(Duration::from_micros(300), 1_000_000, 8));
    // Per producer: how many records were delivered, and that they arrive in handoff order.
    let delivered: Arc<Vec<AtomicU64>> = Arc::new((0..PRODUCERS).map(|_| AtomicU64::new(0)).collect());
    let sink = Arc::clone(&delivered);
    pipeline.subscribe(FamilySet::KERNEL, move |batch, _| {
        for &value in batch.kernels.correlation() {
            let (producer, seq) = ((value >> 32) as usize, value & 0xffff_ffff);
            let before = sink[producer].fetch_add(1, Ordering::SeqCst);
            assert_eq!(before, seq, "producer {producer}: records delivered in order, none missing");
        }
    });
    // Per producer: records whose `completed()` has returned.
    let handed: Arc<Vec<AtomicU64>> = Arc::new((0..PRODUCERS).map(|_| AtomicU64::new(0)).collect());
    let declined_total = Arc::new(AtomicU64::new(0));
    let producers: Vec<_> = (0..PRODUCERS)
        .map(|p| {
            let (handoff, handed, declined_total) =
                (pipeline.handoff(), Arc::clone(&handed), Arc::clone(&declined_total));
            std::thread::spawn(move || {
                for b in 0..BUFFERS {
                    let records: Vec<_> =
                        (0..PER_BUFFER).map(|r| (KERNEL, (p << 32) | (b * PER_BUFFER + r))).collect();
                    declined_total.fetch_add(hand_off(&handoff, &records), Ordering::SeqCst);
                    handed[p as usize].fetch_add(PER_BUFFER, Ordering::SeqCst);
                }
            })
        })
        .collect();

    let mut fences = 0;
    while producers.iter().any(|t| !t.is_finished()) {
        let before: Vec<u64> = handed.iter().map(|h| h.load(Ordering::SeqCst)).collect();
        pipeline.sync().unwrap();
        for (p, handed_before) in before.iter().enumerate() {
            let got = delivered[p].load(Ordering::SeqCst);
            assert!(
                got >= *handed_before,
                "producer {p}: {got} delivered < {handed_before} handed off before sync"
            );
        }
        fences += 1;
    }
    for producer in producers {
        producer.join().unwrap();
    }
    pipeline.sync().unwrap();
    assert!(fences > 0);
    for p in 0..PRODUCERS as usize {
        assert_eq!(delivered[p].load(Ordering::SeqCst), BUFFERS * PER_BUFFER);
    }
    let counts = pipeline.counts();
    assert_eq!(counts.buffers_completed, PRODUCERS * BUFFERS);
    assert_eq!(counts.records_delivered, PRODUCERS * BUFFERS * PER_BUFFER);
    assert_eq!(counts.buffers_declined, declined_total.load(Ordering::SeqCst));
    assert_eq!(counts.buffers_declined, pipeline.pool().stats().declined);
    assert_quiet_and_balanced(&counts);
}

#[test]
fn rows_of_a_family_nobody_subscribed_to_are_counted_as_unconsumed() {
    let pipeline = start(Duration::ZERO, 1_000_000, 2);
    let kernels = collect_kernels(&pipeline);
    let calls = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&calls);
    pipeline.subscribe(FamilySet::MARKER, move |_, _| {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    hand_off(&pipeline.handoff(), &[(KERNEL, 1), (API, 2), (API, 3)]);
    pipeline.sync().unwrap();
    assert_eq!(*kernels.lock().unwrap(), [1]);
    assert_eq!(calls.load(Ordering::SeqCst), 0, "a consumer is only called for batches with its families");
    let counts = pipeline.counts();
    assert_eq!((counts.records_delivered, counts.records_unconsumed), (1, 2));
    assert_quiet_and_balanced(&counts);
}

#[test]
fn a_panicking_consumer_is_counted_and_does_not_stop_the_others() {
    let pipeline = start(Duration::ZERO, 1_000_000, 2);
    pipeline.subscribe(FamilySet::KERNEL, |_, _| panic!("consumer bug"));
    let kernels = collect_kernels(&pipeline);
    let handoff = pipeline.handoff();
    hand_off(&handoff, &[(KERNEL, 1)]);
    pipeline.sync().unwrap();
    hand_off(&handoff, &[(KERNEL, 2)]);
    pipeline.sync().unwrap();
    assert_eq!(*kernels.lock().unwrap(), [1, 2]);
    let counts = pipeline.counts();
    assert_eq!(counts.consumer_panics, 2);
    assert_eq!(counts.records_delivered, 2);
    assert_quiet_and_balanced(&counts);
}

#[test]
fn a_panicking_walker_is_counted_and_its_buffer_recycled() {
    let pipeline = start(Duration::ZERO, 1_000_000, 1);
    let kernels = collect_kernels(&pipeline);
    let handoff = pipeline.handoff();
    hand_off(&handoff, &[(KERNEL, 1), (PANIC, 0), (KERNEL, 99)]);
    // The pool holds one buffer: this only succeeds if the panicking walk gave it back.
    hand_off(&handoff, &[(KERNEL, 2)]);
    pipeline.sync().unwrap();
    assert_eq!(*kernels.lock().unwrap(), [1, 2], "rows before the panic are kept");
    let counts = pipeline.counts();
    assert_eq!(counts.walker_panics, 1);
    assert_eq!(counts.records_delivered, 2);
}

#[test]
fn unsubscribe_stops_calls_before_it_returns() {
    let pipeline = start(Duration::ZERO, 1_000_000, 2);
    let kernels = collect_kernels(&pipeline);
    let calls = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&calls);
    let id = pipeline.subscribe(FamilySet::all(), move |_, _| {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    let handoff = pipeline.handoff();
    hand_off(&handoff, &[(KERNEL, 1)]);
    pipeline.sync().unwrap();
    assert!(pipeline.unsubscribe(id));
    assert!(!pipeline.unsubscribe(id), "already gone");
    hand_off(&handoff, &[(KERNEL, 2)]);
    pipeline.sync().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(*kernels.lock().unwrap(), [1, 2]);
}

#[test]
fn shutdown_drains_delivers_and_joins() {
    let pipeline = start(Duration::from_millis(2), 1_000_000, 64);
    let kernels = collect_kernels(&pipeline);
    let handoff = pipeline.handoff();
    for i in 0..40 {
        hand_off(&handoff, &[(KERNEL, i)]);
    }
    // No sync: shutdown itself must decode and deliver the 40 queued buffers.
    let counts = pipeline.shutdown();
    assert_eq!(*kernels.lock().unwrap(), (0..40).collect::<Vec<_>>());
    assert_eq!(counts.records_delivered, 40);
    assert_quiet_and_balanced(&counts);
}

#[test]
fn drop_delivers_what_was_queued() {
    let pipeline = start(Duration::from_millis(1), 1_000_000, 16);
    let kernels = collect_kernels(&pipeline);
    let handoff = pipeline.handoff();
    for i in 0..10 {
        hand_off(&handoff, &[(KERNEL, i)]);
    }
    drop(pipeline);
    assert_eq!(kernels.lock().unwrap().len(), 10);
}

#[test]
fn buffers_completed_after_shutdown_are_recycled_and_counted_as_discarded() {
    let pipeline = start(Duration::ZERO, 1_000_000, 2);
    let handoff = pipeline.handoff();
    let pool = Arc::clone(handoff.pool());
    drop(pipeline);
    hand_off(&handoff, &[(KERNEL, 1)]);
    assert_eq!(pool.stats().in_flight, 0, "the undecoded buffer went back to the pool");
    let counts = handoff.counts();
    assert_eq!((counts.buffers_completed, counts.buffers_discarded, counts.records_decoded), (1, 1, 0));
}

#[test]
fn full_batches_are_delivered_without_sync() {
    let pipeline = start(Duration::ZERO, 10, 4);
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&sizes);
    pipeline.subscribe(FamilySet::KERNEL, move |batch, _| sink.lock().unwrap().push(batch.len()));
    let handoff = pipeline.handoff();
    for i in 0..6 {
        hand_off(&handoff, &[(KERNEL, i * 4), (KERNEL, i * 4 + 1), (KERNEL, i * 4 + 2), (KERNEL, i * 4 + 3)]);
    }
    // 6 buffers of 4: full at 12 rows (the batch is delivered after the buffer that reaches 10), twice.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while sizes.lock().unwrap().len() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(*sizes.lock().unwrap(), [12, 12]);
    pipeline.sync().unwrap();
    assert_eq!(*sizes.lock().unwrap(), [12, 12], "sync with an empty batch delivers nothing");
}

#[test]
fn a_flush_interval_delivers_a_partial_batch() {
    let pool = BufferPool::new(1024, 2);
    let config = PipelineConfig {
        batch_rows: 1_000_000,
        flush_interval: Some(Duration::from_millis(5)),
        ..Default::default()
    };
    let pipeline = Pipeline::start(walker(Duration::ZERO), pool, config).unwrap();
    let kernels = collect_kernels(&pipeline);
    hand_off(&pipeline.handoff(), &[(KERNEL, 7)]);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while kernels.lock().unwrap().is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(*kernels.lock().unwrap(), [7], "delivered by the interval, without sync");
}

#[test]
fn declines_are_counted_by_request_buffer_and_by_hand() {
    let pipeline = start(Duration::ZERO, 1_000_000, 1);
    let handoff = pipeline.handoff();
    let held = handoff.request_buffer().unwrap();
    assert!(handoff.request_buffer().is_none());
    handoff.declined();
    assert_eq!(pipeline.counts().buffers_declined, 2);
    assert_eq!(pipeline.pool().stats().declined, 1);
    handoff.completed(held, 0);
    assert_eq!(pipeline.pool().stats().in_flight, 0, "an empty buffer goes straight back");
    assert_eq!(pipeline.counts().buffers_completed, 1);
}

#[test]
fn sync_from_inside_a_consumer_is_an_error_not_a_deadlock() {
    let pipeline = Arc::new(start(Duration::ZERO, 1_000_000, 2));
    let result = Arc::new(Mutex::new(None));
    let (inner, sink) = (Arc::downgrade(&pipeline), Arc::clone(&result));
    let called = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&called);
    pipeline.subscribe(FamilySet::KERNEL, move |_, _| {
        if let Some(pipeline) = inner.upgrade() {
            *sink.lock().unwrap() = Some(pipeline.sync());
        }
        flag.store(true, Ordering::SeqCst);
    });
    hand_off(&pipeline.handoff(), &[(KERNEL, 1)]);
    pipeline.sync().unwrap();
    assert!(called.load(Ordering::SeqCst));
    assert!(matches!(result.lock().unwrap().take(), Some(Err(PipelineError::OnDecodeThread))));
}

#[test]
fn dropping_the_pipeline_under_running_producers_loses_nothing_silently() {
    let pipeline = start(Duration::from_micros(50), 1_000_000, 16);
    let seen = Arc::new(AtomicU64::new(0));
    let sink = Arc::clone(&seen);
    pipeline.subscribe(FamilySet::KERNEL, move |batch, _| {
        sink.fetch_add(batch.kernels.len() as u64, Ordering::SeqCst);
    });
    let handoff = pipeline.handoff();
    let stop = Arc::new(AtomicBool::new(false));
    let producers: Vec<_> = (0..4)
        .map(|_| {
            let (handoff, stop) = (pipeline.handoff(), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut sent = 0u64;
                while !stop.load(Ordering::SeqCst) {
                    hand_off(&handoff, &[(KERNEL, sent)]);
                    sent += 1;
                }
                sent
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(30));
    drop(pipeline);
    std::thread::sleep(Duration::from_millis(10));
    stop.store(true, Ordering::SeqCst);
    let sent: u64 = producers.into_iter().map(|p| p.join().unwrap()).sum();

    let counts = handoff.counts();
    assert_eq!(counts.buffers_completed, sent);
    assert!(counts.buffers_discarded > 0, "some buffers arrived after the shutdown");
    assert_eq!(
        counts.records_decoded + counts.buffers_discarded,
        sent,
        "each buffer decoded or discarded: {counts:?}"
    );
    assert_eq!(counts.records_delivered, counts.records_decoded);
    assert_eq!(seen.load(Ordering::SeqCst), counts.records_delivered);
    assert_eq!(handoff.pool().stats().in_flight, 0, "every buffer is back in the pool");
}

/// A child forked from the process (Python's multiprocessing `fork`, a C program's fork) has the
/// pipeline's memory but not its decode thread: a flush there (the rocprofiler-sdk tool's finalize, which
/// the SDK's exit handler runs in a child that calls `exit`) waited for that thread forever, and the
/// child never ended. In the child, `sync` is `Stopped` at once and dropping the pipeline waits for nothing.
#[test]
fn a_forked_child_never_waits_for_the_parents_decode_thread() {
    let pipeline = start(Duration::ZERO, 64, 4);
    pipeline.sync().expect("the parent's pipeline runs");
    // SAFETY: fork(2); the child only calls into the pipeline, then _exit(2) (alarm(2) ends a hang).
    let child = unsafe { libc::fork() };
    assert!(child >= 0, "fork failed");
    if child == 0 {
        // SAFETY: alarm(2) and _exit(2) take plain values.
        unsafe { libc::alarm(5) };
        let code = match pipeline.sync() {
            Err(PipelineError::Stopped) => 0,
            _ => 2,
        };
        drop(pipeline);
        // SAFETY: as above.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: waitpid(2) on our own child, into a local.
    assert_eq!(unsafe { libc::waitpid(child, &mut status, 0) }, child);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the child hung (killed by SIGALRM) or its sync was not Stopped: status {status:#x}"
    );
    pipeline.sync().expect("the parent's pipeline still runs");
}
