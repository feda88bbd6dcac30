//! Where the SDK's threads and locks meet a tool: completions on HSA's async-signal thread,
//! the queue's callback lock around the enqueue callbacks, the counting consumer's mutex around
//! inline result delivery, LOSSLESS producers waiting for the buffer callback, a failed setup.
//! The mock models each of them the way the SDK does (it hangs where the SDK deadlocks): the
//! tests that would hang run in a child process with a watchdog.

mod support;

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rocprofiler::activity::{ActivityConfig, ActivitySession};
use rocprofiler::{
    AgentId, BufferConfig, BufferKind, BufferPolicy, CallbackDomain, Context, CounterConfigs, Error,
    FamilySet,
};
use support::tool::{configure, lib};
use support::{ctl, exclusive, gpu, in_child_with_watchdog};

const WATCHDOG: Duration = Duration::from_secs(20);

fn kernel() -> u64 {
    ctl().kernel_symbol(c"k")
}

/// Counter configs collecting `names` on every GPU.
fn configs(names: &[&str]) -> Arc<CounterConfigs> {
    let configs = CounterConfigs::new();
    for g in 0..3 {
        configs.insert(lib().counter_config_by_name(AgentId(gpu(g)), names).unwrap());
    }
    Arc::new(configs)
}

fn is_would_deadlock(r: &Result<(), String>) -> bool {
    matches!(r, Err(e) if e.starts_with("not called:"))
}

/// Issue 19 item 2: the SDK runs the dispatch counting callbacks with the queue's callback
/// read-lock held, and the first start of a counting context takes it for writing: from inside
/// the closure that start never returns. The crate refuses it (before: the child hung).
#[test]
fn starting_a_counting_context_inside_a_dispatch_closure_is_refused() {
    if !in_child_with_watchdog("starting_a_counting_context_inside_a_dispatch_closure_is_refused", WATCHDOG) {
        return;
    }
    let _g = exclusive();
    let cfgs = configs(&["SQ_WAVES"]);
    let other: Arc<Mutex<Option<Context>>> = Arc::default();
    let answers: Arc<Mutex<Vec<Result<(), String>>>> = Arc::default();
    let (o, a, keep) = (other.clone(), answers.clone(), other.clone());
    configure(move |cfg| {
        let first = cfg.create_context()?;
        let c = cfgs.clone();
        cfg.dispatch_counting_callback(
            &first,
            move |req| {
                let second = o.lock().unwrap().expect("made in the setup");
                a.lock().unwrap().push(second.start().map_err(|e| e.to_string()));
                a.lock().unwrap().push(second.stop().map_err(|e| e.to_string()));
                req.collect(&c).unwrap();
            },
            |_| {},
        )?;
        let second = cfg.create_context()?;
        cfg.dispatch_counting_callback(&second, |_| {}, |_| {})?;
        // Disjoint agents, so that the two may count at once (no CONTEXT_CONFLICT first).
        first.set_counting_agents(&[AgentId(gpu(0))])?;
        second.set_counting_agents(&[AgentId(gpu(1))])?;
        *keep.lock().unwrap() = Some(second);
        first.start()
    })
    .unwrap();
    ctl().dispatch(gpu(0), 1, kernel(), 64, 1, 1, 64, 1, 1);
    let answers = answers.lock().unwrap().clone();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(answers.iter().all(is_would_deadlock), "{answers:?}");
    assert!(!other.lock().unwrap().unwrap().is_active().unwrap());
}

/// Issue 19 item 2: results delivered on the completing thread (the SDK's consumer thread is
/// stopped, or its ring full) are processed with the consumer's mutex held, and starting a
/// counting context takes that mutex: a record closure that starts one never returns. The crate
/// refuses it (before: the child hung).
#[test]
fn starting_a_context_from_a_record_closure_is_refused() {
    if !in_child_with_watchdog("starting_a_context_from_a_record_closure_is_refused", WATCHDOG) {
        return;
    }
    let _g = exclusive();
    let cfgs = configs(&["SQ_WAVES"]);
    let slots: Arc<Mutex<Option<(Context, Context)>>> = Arc::default();
    let (tx, rx) = mpsc::channel();
    let (s, keep) = (slots.clone(), slots.clone());
    configure(move |cfg| {
        let first = cfg.create_context()?;
        let tx = Mutex::new(tx);
        cfg.dispatch_counting_callback(
            &first,
            move |req| {
                req.collect(&cfgs).unwrap();
            },
            move |_| {
                let (_, second) = s.lock().unwrap().expect("made in the setup");
                let _ = tx.lock().unwrap().send(second.start().map_err(|e| e.to_string()));
            },
        )?;
        let second = cfg.create_context()?;
        cfg.dispatch_counting_callback(&second, |_| {}, |_| {})?;
        first.set_counting_agents(&[AgentId(gpu(0))])?;
        second.set_counting_agents(&[AgentId(gpu(1))])?;
        *keep.lock().unwrap() = Some((first, second));
        Ok(())
    })
    .unwrap();
    let (first, second) = slots.lock().unwrap().unwrap();
    first.start().unwrap();
    let d = ctl().dispatch_begin(gpu(0), 1, kernel(), 64, 1, 1, 64, 1, 1);
    // The stop stops the SDK's consumer thread: the running kernel's results come inline.
    first.stop().unwrap();
    ctl().dispatch_end(d);
    let answer = rx.recv_timeout(WATCHDOG).expect("the record closure ran");
    assert!(is_would_deadlock(&answer), "{answer:?}");
    assert!(!second.is_active().unwrap());
}

/// Issue 19 item 2: the SDK ignores what a tool's initialize returns, so a setup that failed
/// after starting a context left it collecting. The crate stops what the failed setup started.
#[test]
fn a_failed_setup_leaves_no_context_running() {
    let _g = exclusive();
    let calls = Arc::new(Mutex::new(0u32));
    let slot: Arc<Mutex<Option<Context>>> = Arc::default();
    let (c, s) = (calls.clone(), slot.clone());
    let outcome = configure(move |cfg| {
        let ctx = cfg.create_context()?;
        cfg.callback_tracing(&ctx, CallbackDomain::HIP_RUNTIME_API, &[], move |_| *c.lock().unwrap() += 1)?;
        ctx.start()?;
        *s.lock().unwrap() = Some(ctx);
        Err(Error::InvalidArgument)
    });
    assert!(matches!(outcome, Err(Error::InvalidArgument)), "{outcome:?}");
    let ctx = slot.lock().unwrap().unwrap();
    assert!(!ctx.is_active().unwrap(), "the failed setup's context was stopped");
    ctl().api_call(5, 5);
    assert_eq!(*calls.lock().unwrap(), 0, "nothing reaches a failed tool's closures");
}

fn kernel_session(buffer: BufferConfig) -> ActivitySession {
    let slot: Arc<Mutex<Option<ActivitySession>>> = Arc::default();
    let s = slot.clone();
    configure(move |cfg| {
        let kinds = [BufferKind::KERNEL_DISPATCH, BufferKind::HIP_RUNTIME_API].into_iter().collect();
        *s.lock().unwrap() = Some(cfg.activity_session(ActivityConfig { kinds, buffer })?);
        Ok(())
    })
    .unwrap();
    let session = slot.lock().unwrap().take();
    session.expect("setup ran")
}

/// Issue 19 item 9: kernel records come on HSA's async-signal thread after the kernel ran, not
/// before the launch returns. A session stopped right after the work still has every kernel: its
/// context's stop is the SDK's drain (the completions enqueued before it), and the crate flushes
/// after it (before: the records reached the SDK's buffer after the session's last flush, and
/// were lost to it).
#[test]
fn a_session_stopped_right_after_the_work_has_every_kernel() {
    let _g = exclusive();
    ctl().set_completion_latency_us(20_000);
    let session = kernel_session(BufferConfig::default());
    let kernels = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    let k = kernel();
    for _ in 0..5 {
        ctl().dispatch(gpu(0), 1, k, 64, 1, 1, 64, 1, 1);
    }
    assert!(ctl().completions_pending() > 0, "the completions have not run yet");
    let counts = session.stop().unwrap();
    ctl().set_completion_latency_us(1000);
    assert_eq!(kernels.take().kernels.len(), 5, "{counts:?}");
    assert_eq!(counts.records_delivered(), 5);
    assert!(counts.is_balanced(), "{counts:?}");
}

/// Issue 19 item 9: the SDK reports a kernel only when HSA could read its timing.
#[test]
fn a_kernel_without_timing_has_no_record() {
    let _g = exclusive();
    let session = kernel_session(BufferConfig::default());
    let kernels = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    let k = kernel();
    let timed = ctl().dispatch_begin(gpu(0), 1, k, 64, 1, 1, 64, 1, 1);
    let untimed = ctl().dispatch_begin(gpu(0), 1, k, 64, 1, 1, 64, 1, 1);
    assert_eq!(ctl().dispatch_fail_timing(untimed), 0);
    ctl().dispatch_end(untimed);
    ctl().dispatch_end(timed);
    session.stop().unwrap();
    assert_eq!(kernels.take().kernels.len(), 1, "only the timed kernel");
}

/// Issue 19 item 10: a full LOSSLESS buffer makes the producing thread (here the API thread)
/// wait for the buffer callback. Ours only copies the records out and hands them on, so a
/// consumer that blocks never stalls the SDK's producers: every call returns while the consumer
/// is blocked, and once it is released every record is delivered.
#[test]
fn a_blocked_consumer_never_stalls_a_producer_of_a_full_lossless_buffer() {
    let _g = exclusive();
    let session = kernel_session(BufferConfig {
        size: rocprofiler::MIN_BUFFER_SIZE,
        watermark: rocprofiler::MIN_BUFFER_SIZE,
        policy: BufferPolicy::Lossless,
        batch_rows: 16,
        ..BufferConfig::default()
    });
    let (gate_tx, gate_rx) = mpsc::channel::<()>();
    let gate = Mutex::new(gate_rx);
    let (entered_tx, entered_rx) = mpsc::channel::<()>();
    let entered = Mutex::new(entered_tx);
    let seen = Arc::new(Mutex::new(0usize));
    let s = seen.clone();
    session.subscribe(FamilySet::API, move |batch, _| {
        let _ = entered.lock().unwrap().send(());
        let _ = gate.lock().unwrap().recv_timeout(WATCHDOG);
        *s.lock().unwrap() += batch.api_calls.len();
    });
    session.start().unwrap();
    // A HIP API record is ~72 bytes: 1000 calls fill the 4 KiB buffer many times over.
    let (done_tx, done_rx) = mpsc::channel();
    let producer = std::thread::spawn(move || {
        for _ in 0..1000 {
            ctl().api_call(5, 5);
        }
        let _ = done_tx.send(());
    });
    entered_rx.recv_timeout(WATCHDOG).expect("the consumer got a batch and is blocked");
    done_rx.recv_timeout(WATCHDOG).expect("every call returned while the consumer was blocked");
    producer.join().unwrap();
    drop(gate_tx);
    let counts = session.stop().unwrap();
    assert_eq!(*seen.lock().unwrap(), 1000, "{counts:?}");
    assert!(counts.is_balanced(), "{counts:?}");
}

/// Issue 19 item 12: a counter config without counters collects nothing: the SDK delivers no
/// result at all for such a dispatch (the mock once delivered an empty one).
#[test]
fn an_empty_counter_config_delivers_no_result() {
    let _g = exclusive();
    let empty = CounterConfigs::new();
    for g in 0..3 {
        empty.insert(lib().counter_config_by_name(AgentId(gpu(g)), &[]).unwrap());
    }
    let results = Arc::new(Mutex::new(0u32));
    let slot: Arc<Mutex<Option<Context>>> = Arc::default();
    let (r, s) = (results.clone(), slot.clone());
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        cfg.dispatch_counting_callback(
            &ctx,
            move |req| assert!(req.collect(&empty).unwrap()),
            move |_| *r.lock().unwrap() += 1,
        )?;
        *s.lock().unwrap() = Some(ctx);
        Ok(())
    })
    .unwrap();
    let ctx = slot.lock().unwrap().unwrap();
    ctx.start().unwrap();
    ctl().dispatch(gpu(0), 1, kernel(), 64, 1, 1, 64, 1, 1);
    ctx.stop().unwrap();
    assert_eq!(*results.lock().unwrap(), 0);
}

/// Issue 19 item 12: SDKs before late start answer CONFIGURATION_LOCKED to a forced
/// configuration after the window; the crate says so, and the setup never ran.
#[test]
fn force_configure_after_the_window_is_locked_without_late_start() {
    let _g = exclusive();
    ctl().set_late_start(0);
    assert_eq!(ctl().load_tools(), rocprofiler::sys::rocprofiler_status_t::ROCPROFILER_STATUS_SUCCESS);
    let ran = Arc::new(Mutex::new(false));
    let r = ran.clone();
    let outcome = configure(move |_| {
        *r.lock().unwrap() = true;
        Ok(())
    });
    ctl().set_late_start(1);
    assert!(matches!(outcome, Err(Error::ConfigurationLocked)), "{outcome:?}");
    assert!(!*ran.lock().unwrap());
    support::tool::setup_slot().take();
}
