//! The `cupti` callback API on a real GPU with the real `libcupti`, driven by real CUDA work
//! through cudarc. Each test prints a skip message and passes where no CUDA GPU is usable (no
//! driver, no device); the mock-based `callbacks` tests cover the same behaviour there.
//!
//! On a GPU machine: `cargo test -p cupti --test gpu -- --nocapture` (set `CUPTI_LIBRARY_PATH` if
//! `libcupti` is not in a usual place).

#[path = "gpu/workload.rs"]
mod gpu;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use cudarc::driver::CudaContext;
use cupti::{CallParams, CallbackDomain, CallbackSite, Cupti, DriverCbid, ReturnValue};

/// CUPTI's subscription is process-wide: one test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

struct Gpu {
    _serial: MutexGuard<'static, ()>,
    cupti: &'static Cupti,
    ctx: Arc<CudaContext>,
}

/// The GPU, the real CUPTI and a context, or `None` after printing why the test is skipped.
fn gpu_or_skip(test: &str) -> Option<Gpu> {
    let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if let Err(why) = gpu::available() {
        println!("{test}: skipped, no CUDA GPU here ({why})");
        return None;
    }
    let cupti =
        Cupti::global().expect("a GPU is present, so libcupti must be found (set CUPTI_LIBRARY_PATH)");
    let ctx = gpu::context().expect("a context on device 0");
    // Each test's first subscriber makes the subscription (and is served by its fast path).
    // SAFETY: tests run one at a time and leave no thread making CUDA calls behind.
    unsafe { cupti.release_subscription() }.expect("give the previous test's subscription back");
    Some(Gpu { _serial: serial, cupti, ctx })
}

#[derive(Debug, Clone)]
struct Call {
    site: CallbackSite,
    domain: CallbackDomain,
    cbid: u32,
    correlation: u32,
    thread: ThreadId,
    slot: u64,
    params: Option<CallParams>,
    symbol: Option<String>,
    ret: Option<ReturnValue>,
}

type Log = Arc<Mutex<Vec<Call>>>;

fn recorder(log: &Log) -> impl Fn(&cupti::CallbackData<'_>) + Send + Sync + 'static {
    let log = log.clone();
    move |cb| {
        let Some(api) = cb.api() else { return };
        let slot = api.correlation_slot();
        if api.is_enter() {
            slot.set(0x00C0_FFEE_0000_0000 | u64::from(api.correlation_id()));
        }
        log.lock().unwrap().push(Call {
            site: api.site(),
            domain: cb.domain(),
            cbid: cb.id().cbid,
            correlation: api.correlation_id(),
            thread: std::thread::current().id(),
            slot: slot.get(),
            params: api.params(),
            symbol: api.symbol_name().map(str::to_owned),
            ret: api.return_value(),
        });
    }
}

#[test]
fn callbacks_arrive_paired_with_matching_correlation_ids_and_slots() {
    let Some(g) = gpu_or_skip("callbacks_arrive_paired") else { return };
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let sub = g.cupti.subscribe(recorder(&log)).unwrap();
    sub.enable_domain(CallbackDomain::DRIVER_API).unwrap();
    sub.enable_domain(CallbackDomain::RUNTIME_API).unwrap();
    gpu::driver_workload(&g.ctx, 3).unwrap();
    if gpu::runtime_available() {
        gpu::runtime_workload().unwrap();
    }
    drop(sub);
    let calls = std::mem::take(&mut *log.lock().unwrap());
    assert!(calls.len() >= 20, "expected a workload's worth of callbacks, got {}", calls.len());

    // Every ENTER has one EXIT of the same id, on the same thread, after it; calls nest per thread.
    let mut open: HashMap<ThreadId, Vec<&Call>> = HashMap::new();
    let mut pairs = 0;
    for c in &calls {
        let stack = open.entry(c.thread).or_default();
        if c.site == CallbackSite::ENTER {
            assert_eq!(c.slot, 0x00C0_FFEE_0000_0000 | u64::from(c.correlation));
            stack.push(c);
        } else {
            let enter = stack.pop().unwrap_or_else(|| panic!("EXIT without ENTER: {c:?}"));
            assert_eq!((enter.correlation, enter.cbid, enter.domain), (c.correlation, c.cbid, c.domain));
            assert_eq!(c.slot, enter.slot, "the slot stored at ENTER is read back at EXIT");
            assert!(c.ret.is_some(), "an EXIT carries the return value: {c:?}");
            pairs += 1;
        }
    }
    assert!(open.values().all(Vec::is_empty), "ENTER without EXIT: {open:?}");
    println!("{pairs} paired calls");

    // The launches carried their configuration and kernel name.
    let launches: Vec<_> = calls
        .iter()
        .filter(|c| c.site == CallbackSite::ENTER && c.cbid == DriverCbid::cuLaunchKernel.0)
        .collect();
    assert_eq!(launches.len(), 3, "three add_one launches");
    for l in launches {
        let Some(CallParams::KernelLaunch(k)) = l.params else { panic!("{l:?}") };
        assert_eq!((k.grid.volume() * k.block.volume()) as usize, gpu::N.div_ceil(1024) * 1024);
        assert_eq!(l.symbol.as_deref(), Some("add_one"));
    }
}

#[test]
fn subscribers_share_the_real_subscription_without_disabling_each_other() {
    let Some(g) = gpu_or_skip("subscribers_share_the_real_subscription") else { return };
    let (a_log, b_log): (Log, Log) = Default::default();
    let a = g.cupti.subscribe(recorder(&a_log)).unwrap();
    let b = g.cupti.subscribe(recorder(&b_log)).unwrap();
    a.enable(DriverCbid::cuLaunchKernel).unwrap();
    b.enable(DriverCbid::cuLaunchKernel).unwrap();
    b.disable(DriverCbid::cuLaunchKernel).unwrap();
    gpu::driver_workload(&g.ctx, 2).unwrap();
    assert_eq!(a_log.lock().unwrap().len(), 4, "A still sees both launches");
    assert!(b_log.lock().unwrap().is_empty());
    drop((a, b));
    // The real subscription is kept (unsubscribing under traffic crashes CUPTI 13.0); other
    // tests of this binary may be making CUDA calls, so it is not released here.
    assert!(g.cupti.subscription().is_some(), "CUPTI kept after the last subscriber");
}

#[test]
fn dropping_subscribers_during_traffic_from_other_threads_is_safe() {
    let Some(g) = gpu_or_skip("dropping_subscribers_during_traffic") else { return };
    let stop = Arc::new(AtomicBool::new(false));
    let traffic: Vec<_> = (0..4)
        .map(|_| {
            let (stop, ctx) = (stop.clone(), g.ctx.clone());
            std::thread::spawn(move || {
                ctx.bind_to_thread().unwrap();
                let mut calls = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    cudarc::driver::result::device::get_count().unwrap();
                    calls += 1;
                }
                calls
            })
        })
        .collect();

    let late = Arc::new(AtomicU64::new(0));
    let bad_slots = Arc::new(AtomicU64::new(0));
    // Each ENTER stores a fresh token in its slot; each EXIT must read back a token no other EXIT
    // read. (CUPTI's correlation ids cannot serve: without activity tracing, CUDA 13.0 was seen to
    // repeat one id for every call of a thread.)
    let next_token = Arc::new(AtomicU64::new(0));
    let completed: Arc<Mutex<HashMap<u64, u32>>> = Default::default();
    let correlation_ids: Arc<Mutex<HashMap<u32, u32>>> = Default::default();
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut rounds = 0;
    while Instant::now() < deadline {
        rounds += 1;
        let dropped = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicU64::new(0));
        let (d, s, l, done, ids, bad, tokens) = (
            dropped.clone(),
            seen.clone(),
            late.clone(),
            completed.clone(),
            correlation_ids.clone(),
            bad_slots.clone(),
            next_token.clone(),
        );
        let sub = g
            .cupti
            .subscribe(move |cb| {
                if d.load(Ordering::SeqCst) {
                    l.fetch_add(1, Ordering::SeqCst);
                }
                if let Some(api) = cb.api() {
                    if api.is_enter() {
                        api.correlation_slot().set(tokens.fetch_add(1, Ordering::Relaxed) + 1);
                    } else {
                        let token = api.correlation_slot().get();
                        if token == 0 {
                            // An EXIT whose ENTER this subscriber did not see (it subscribed
                            // in between) reads 0; anything else must be a fresh token.
                        } else if token > tokens.load(Ordering::Relaxed) {
                            bad.fetch_add(1, Ordering::SeqCst);
                        } else {
                            *done.lock().unwrap().entry(token).or_default() += 1;
                            *ids.lock().unwrap().entry(api.correlation_id()).or_default() += 1;
                        }
                    }
                }
                s.fetch_add(1, Ordering::Relaxed);
            })
            .unwrap();
        sub.enable(DriverCbid::cuDeviceGetCount).unwrap();
        let wait = Instant::now() + Duration::from_millis(100);
        while seen.load(Ordering::Relaxed) < 10 && Instant::now() < wait {
            std::hint::spin_loop();
        }
        drop(sub);
        dropped.store(true, Ordering::SeqCst);
    }
    stop.store(true, Ordering::Relaxed);
    let calls: u64 = traffic.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(late.load(Ordering::SeqCst), 0, "a closure ran after its subscriber was dropped");
    assert_eq!(bad_slots.load(Ordering::SeqCst), 0, "an EXIT read another call's slot");
    let completed = completed.lock().unwrap();
    let twice: Vec<_> = completed.iter().filter(|(_, &n)| n != 1).collect();
    assert!(twice.is_empty(), "each call's slot completed once: {:?}", &twice[..twice.len().min(5)]);
    assert!(!completed.is_empty(), "some calls completed while subscribed");
    let ids = correlation_ids.lock().unwrap().len();
    println!(
        "{} calls completed with their own slot; they carried {ids} distinct correlation ids",
        completed.len()
    );
    println!("{rounds} subscribers came and went during {calls} cuDeviceGetCount calls on 4 threads");
}

/// `cuDeviceGetCount` `calls` times on each of `threads` threads with `ctx` current; returns once
/// all are done.
fn get_count_on_threads(ctx: &Arc<CudaContext>, threads: usize, calls: u64) {
    let threads: Vec<_> = (0..threads)
        .map(|_| {
            let ctx = ctx.clone();
            std::thread::spawn(move || {
                ctx.bind_to_thread().unwrap();
                for _ in 0..calls {
                    cudarc::driver::result::device::get_count().unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

#[test]
fn slots_round_trip_on_every_thread_of_a_busy_process() {
    let Some(g) = gpu_or_skip("slots_round_trip_on_every_thread") else { return };
    const CALLS: u64 = 20_000;
    let (enters, exits, completed, next_token) = (
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let (en, ex, done, tokens) = (enters.clone(), exits.clone(), completed.clone(), next_token.clone());
    let sub = g
        .cupti
        .subscribe(move |cb| {
            let Some(api) = cb.api() else { return };
            if api.is_enter() {
                en.fetch_add(1, Ordering::Relaxed);
                api.correlation_slot().set(tokens.fetch_add(1, Ordering::Relaxed) + 1);
            } else {
                ex.fetch_add(1, Ordering::Relaxed);
                if api.correlation_slot().get() != 0 {
                    done.fetch_add(1, Ordering::Relaxed);
                }
            }
        })
        .unwrap();
    sub.enable(DriverCbid::cuDeviceGetCount).unwrap();
    get_count_on_threads(&g.ctx, 4, CALLS);
    drop(sub);
    let (enters, exits, completed) =
        (enters.load(Ordering::Relaxed), exits.load(Ordering::Relaxed), completed.load(Ordering::Relaxed));
    println!("{enters} ENTER, {exits} EXIT, {completed} EXIT read their ENTER's slot");
    assert_eq!((enters, exits, completed), (4 * CALLS, 4 * CALLS, 4 * CALLS));
}

#[test]
fn slots_round_trip_on_every_thread_when_the_closure_owns_nothing() {
    let Some(g) = gpu_or_skip("slots_round_trip_when_the_closure_owns_nothing") else { return };
    const CALLS: u64 = 20_000;
    // A closure capturing nothing: kept until the subscription is given back, and called without
    // a read section.
    static ENTERS: AtomicU64 = AtomicU64::new(0);
    static EXITS: AtomicU64 = AtomicU64::new(0);
    static COMPLETED: AtomicU64 = AtomicU64::new(0);
    static TOKENS: AtomicU64 = AtomicU64::new(0);
    thread_local! {
        /// The token this thread's latest ENTER stored (the calls do not nest).
        static LAST: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }
    let sub = g
        .cupti
        .subscribe(|cb| {
            let Some(api) = cb.api() else { return };
            if api.is_enter() {
                ENTERS.fetch_add(1, Ordering::Relaxed);
                let token = TOKENS.fetch_add(1, Ordering::Relaxed) + 1;
                api.correlation_slot().set(token);
                LAST.set(token);
            } else {
                EXITS.fetch_add(1, Ordering::Relaxed);
                if api.correlation_slot().get() == LAST.get() {
                    COMPLETED.fetch_add(1, Ordering::Relaxed);
                }
            }
        })
        .unwrap();
    sub.enable(DriverCbid::cuDeviceGetCount).unwrap();
    get_count_on_threads(&g.ctx, 4, CALLS);
    drop(sub);
    let counts = [&ENTERS, &EXITS, &COMPLETED].map(|c| c.load(Ordering::Relaxed));
    println!(
        "{} ENTER, {} EXIT, {} EXIT read the token their own ENTER stored; the library zeroes the slot: {:?}",
        counts[0],
        counts[1],
        counts[2],
        g.cupti.zeroes_correlation_slots()
    );
    assert!(g.cupti.zeroes_correlation_slots().is_some(), "80,000 calls are past the fast path's check");
    assert_eq!(counts, [4 * CALLS; 3]);
    assert_eq!(TOKENS.load(Ordering::Relaxed), 4 * CALLS, "every ENTER stored a fresh token");
}
