//! The activity session of the safe `rocprofiler` crate against the mock SDK: made in the configure
//! window, started, paused and resumed through its context, flushed, ended with every record accounted
//! for; calls that would wait for the decode thread refused on it.

mod support;

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use accelprof_core::activity::ActivityError;
use rocprofiler::activity::{ActivityConfig, ActivitySession};
use rocprofiler::{BufferConfig, BufferKind, Error, FamilySet};
use support::tool::configure;
use support::{ctl, exclusive, gpu};

/// `n` kernels, run to completion: their records come on HSA's async-signal thread, and the mock's
/// sync waits until it has handed them to the SDK's buffers.
fn dispatches(n: usize) {
    let k = ctl().kernel_symbol(c"activity_kernel");
    for _ in 0..n {
        ctl().dispatch(gpu(0), 1, k, 256, 1, 1, 64, 1, 1);
    }
    ctl().sync();
}

#[test]
fn a_session_made_in_the_window_starts_pauses_and_resumes_through_its_context() {
    let _g = exclusive();
    let slot: Arc<Mutex<Option<ActivitySession>>> = Arc::default();
    let s = Arc::clone(&slot);
    configure(move |cfg| {
        let kinds = [BufferKind::KERNEL_DISPATCH].into_iter().collect();
        let session = cfg.activity_session(ActivityConfig { kinds, ..ActivityConfig::default() })?;
        *s.lock().unwrap() = Some(session);
        Ok(())
    })
    .expect("setup succeeds");
    let session = slot.lock().unwrap().take().expect("setup ran");
    let kernels = session.collect(FamilySet::KERNEL);
    assert!(!session.is_collecting());
    dispatches(2);
    session.fence().unwrap();
    assert_eq!(kernels.take().kernels.len(), 0, "not started: the context is stopped");

    session.start().unwrap();
    assert!(session.context().is_active().unwrap());
    dispatches(3);
    let report = session.fence().unwrap();
    assert!(!report.fenced, "no probe: the flush is the fence");
    assert_eq!(kernels.take().kernels.len(), 3);

    assert!(session.pause().unwrap());
    assert!(!session.context().is_active().unwrap(), "pausing stops the context");
    dispatches(2);
    session.flush().unwrap();
    assert_eq!(kernels.take().kernels.len(), 0, "paused");
    assert!(session.switch().resume().unwrap());
    dispatches(1);
    session.flush().unwrap();
    assert_eq!(kernels.take().kernels.len(), 1);

    // The window is closed: a kind not configured in it cannot be collected.
    let late = session.core().enable(BufferKind::MEMORY_COPY);
    assert!(matches!(late, Err(Error::Activity(ActivityError::KindLocked { .. }))), "{late:?}");

    let buffer = session.buffer().clone();
    let counts = session.stop().unwrap();
    assert_eq!(counts.records_delivered(), 4);
    assert!(counts.is_balanced(), "{counts:?}");
    assert!(buffer.has_ended());
    assert!(matches!(buffer.flush(), Err(Error::Activity(ActivityError::Ended))));
}

#[test]
fn a_flush_from_inside_a_consumer_is_refused_with_a_typed_error() {
    let _g = exclusive();
    let (tx, rx) = mpsc::channel();
    let slot = Arc::new(Mutex::new(None));
    let s = Arc::clone(&slot);
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
        cfg.buffer_tracing(&ctx, BufferKind::KERNEL_DISPATCH, &[], &buffer)?;
        let inner = buffer.clone();
        let tx = Mutex::new(tx);
        buffer.subscribe(FamilySet::KERNEL, move |_, _| {
            let _ = tx.lock().unwrap().send((inner.flush().map(|_| ()), inner.sync()));
        });
        *s.lock().unwrap() = Some(buffer);
        ctx.start()
    })
    .expect("setup succeeds");
    let buffer = slot.lock().unwrap().take().expect("setup ran");
    dispatches(1);
    buffer.flush().unwrap();
    let (flushed, synced) = rx.recv_timeout(Duration::from_secs(10)).expect("the consumer ran");
    for refused in [flushed, synced] {
        assert!(matches!(refused, Err(Error::Activity(ActivityError::OnDecodeThread { .. }))), "{refused:?}");
    }
    assert_eq!(buffer.counts().records_delivered(), 1);
}

/// `ActivityConfig::default()` collects the timeline, as on every vendor (it was no kind at all: a
/// session that collected nothing); an empty selection is refused in the window, before anything
/// is made.
#[test]
fn the_default_session_collects_the_timeline_and_an_empty_one_is_refused() {
    let _g = exclusive();
    let got = rocprofiler::configure_with(support::tool::lib(), |cfg| {
        let empty = cfg.activity_session(ActivityConfig {
            kinds: rocprofiler::ActivityKinds::empty(),
            ..ActivityConfig::default()
        });
        Ok((empty.map(drop), cfg.activity_session(ActivityConfig::default())?))
    })
    .expect("setup succeeds");
    let (empty, session) = got;
    assert!(matches!(empty, Err(Error::Activity(ActivityError::NoKinds))), "{empty:?}");
    assert_eq!(
        session.kinds(),
        [BufferKind::KERNEL_DISPATCH, BufferKind::MEMORY_COPY, BufferKind::HIP_RUNTIME_API]
    );
    let kernels = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    dispatches(2);
    session.fence().unwrap();
    assert_eq!(kernels.take().kernels.len(), 2);
    session.end();
}
