//! The `cupti` callback API against the mock `libcupti`, which plays the CUDA runtime: API calls
//! with ENTER and EXIT callbacks on the calling thread, real params structs, CUPTI's one-subscriber
//! rule, other releases, a machine without a driver.

use std::ffi::c_void;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use accelprof_mocks::cupti::MockCupti;
use cupti::sys::{params, CUpti_CallbackDomain, CUpti_SubscriberHandle};
use cupti::{
    CallParams, CallbackDomain, CallbackSite, Cupti, DriverCbid, Error, ResourceCbid, ReturnValue,
    RuntimeCbid, Subscriber, SubscriptionKind, SynchronizeCbid,
};

struct Env {
    cupti: Cupti,
    mock: MockCupti,
}

static ENV: OnceLock<Env> = OnceLock::new();
static SERIAL: Mutex<()> = Mutex::new(());

/// The mock (reset) and a `Cupti` on it, held for one test: the mock is one per process.
fn env() -> (MutexGuard<'static, ()>, &'static Cupti, &'static MockCupti) {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let env = ENV.get_or_init(|| Env {
        cupti: Cupti::open_path(accelprof_mocks::cupti::LIBRARY).expect("the mock opens as libcupti"),
        mock: MockCupti::open(accelprof_mocks::cupti::LIBRARY).expect("the mock libcupti's controls"),
    });
    // Subscriptions outlive their last subscriber; give the previous test's back before the
    // mock forgets it.
    // SAFETY: tests run one at a time, and none leaves a thread making CUDA calls behind.
    let _ = unsafe { env.cupti.release_subscription() };
    env.mock.reset();
    (guard, &env.cupti, &env.mock)
}

/// A `Cupti` opened now, reading the version the mock plays now.
fn reopen() -> &'static Cupti {
    Box::leak(Box::new(Cupti::open_path(accelprof_mocks::cupti::LIBRARY).expect("the mock opens")))
}

const RUNTIME: u32 = 2;
const DRIVER: u32 = 1;

/// One callback as a closure saw it.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    site: CallbackSite,
    cbid: u32,
    name: Option<&'static str>,
    function: Option<String>,
    correlation: u32,
    slot: u64,
    params: Option<CallParams>,
    symbol: Option<String>,
    ret: Option<ReturnValue>,
}

type Log = Arc<Mutex<Vec<Seen>>>;

/// A closure that logs every API callback; at ENTER it stores `tag * 1_000_000 + correlation`
/// into the slot (when `tag != 0`).
fn recorder(log: &Log, tag: u64) -> impl Fn(&cupti::CallbackData<'_>) + Send + Sync + 'static {
    let log = log.clone();
    move |cb| {
        let Some(api) = cb.api() else { return };
        let slot = api.correlation_slot();
        if api.is_enter() && tag != 0 {
            slot.set(tag * 1_000_000 + u64::from(api.correlation_id()));
        }
        log.lock().unwrap().push(Seen {
            site: api.site(),
            cbid: cb.id().cbid,
            name: cb.name(),
            function: api.function_name().map(str::to_owned),
            correlation: api.correlation_id(),
            slot: slot.get(),
            params: api.params(),
            symbol: api.symbol_name().map(str::to_owned),
            ret: api.return_value(),
        });
    }
}

fn new_log() -> Log {
    Arc::new(Mutex::new(Vec::new()))
}

fn take(log: &Log) -> Vec<Seen> {
    std::mem::take(&mut *log.lock().unwrap())
}

/// `cuptiGetCallbackState` of the shared subscription.
fn cupti_state(cupti: &Cupti, domain: u32, cbid: u32) -> u32 {
    let handle = cupti.raw_subscriber_handle().expect("a subscription exists");
    let mut on = 7;
    // SAFETY: valid out-pointer; a live handle.
    let r = unsafe { cupti.sys().cuptiGetCallbackState(&mut on, handle, CUpti_CallbackDomain(domain), cbid) };
    assert_eq!(r.map(|r| r.0), Ok(0));
    on
}

fn memcpy_params(count: usize) -> params::cudaMemcpy_v3020_params {
    params::cudaMemcpy_v3020_params {
        dst: 0x1000 as *mut c_void,
        src: 0x2000 as *const c_void,
        count,
        kind: params::cudaMemcpyKind::cudaMemcpyHostToDevice,
    }
}

#[test]
fn enter_and_exit_arrive_paired_with_the_right_ids_names_and_correlation_ids() {
    let (_g, cupti, mock) = env();
    let log = new_log();
    let sub = cupti.subscribe(recorder(&log, 0)).unwrap();
    sub.enable_domain(CallbackDomain::RUNTIME_API).unwrap();
    assert!(sub.is_domain_enabled(CallbackDomain::RUNTIME_API));

    let launch = mock.launch(c"my_kernel", [1, 1, 1], [32, 1, 1], 0, 0);
    let mut address = 0;
    let malloc = mock.malloc(64, &mut address);
    let copy = mock.memcpy(address, 0x2000, 64, 1, 0, 0, 100);
    // The driver domain is not enabled: its launch is not seen.
    mock.launch_driver(c"my_kernel", [1, 1, 1], [32, 1, 1], 0, 0);
    drop(sub);

    let seen = take(&log);
    assert_eq!(seen.len(), 6, "{seen:#?}");
    let expected = [
        (launch, RuntimeCbid::cudaLaunchKernel_v7000, "cudaLaunchKernel"),
        (malloc, RuntimeCbid::cudaMalloc_v3020, "cudaMalloc"),
        (copy, RuntimeCbid::cudaMemcpy_v3020, "cudaMemcpy"),
    ];
    for (pair, (correlation, id, name)) in seen.chunks(2).zip(expected) {
        let (enter, exit) = (&pair[0], &pair[1]);
        assert_eq!((enter.site, exit.site), (CallbackSite::ENTER, CallbackSite::EXIT));
        assert_eq!((enter.correlation, exit.correlation), (correlation, correlation));
        assert_eq!((enter.cbid, exit.cbid), (id.0, id.0));
        assert_eq!(enter.name, Some(name));
        assert_eq!(enter.function.as_deref(), Some(name));
        assert_eq!((enter.ret, exit.ret), (None, Some(ReturnValue::Runtime(0))));
    }
    assert!(correlation_ids_increase(&[launch, malloc, copy]));
}

fn correlation_ids_increase(ids: &[u32]) -> bool {
    ids.windows(2).all(|w| w[0] < w[1]) && ids[0] > 0
}

#[test]
fn the_slot_round_trips_per_subscriber_and_across_nested_calls() {
    let (_g, cupti, mock) = env();
    let (log_a, log_b, log_late) = (new_log(), new_log(), new_log());
    let a = cupti.subscribe(recorder(&log_a, 1)).unwrap();
    let b = cupti.subscribe(recorder(&log_b, 2)).unwrap();
    a.enable_domain(CallbackDomain::RUNTIME_API).unwrap();
    b.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap();
    b.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();

    // An outer cudaMemcpy whose ENTER and EXIT enclose a nested cudaMalloc.
    let outer_params = memcpy_params(64);
    // SAFETY: the cudaMemcpy parameters, alive until the call's EXIT below.
    let outer = unsafe {
        mock.api_enter_with_params(
            RUNTIME,
            RuntimeCbid::cudaMemcpy_v3020.0,
            None,
            std::ptr::from_ref(&outer_params).cast(),
        )
    }
    .expect("a runtime call");
    // A subscriber that arrives between ENTER and EXIT finds nothing in its slot.
    let late = cupti.subscribe(recorder(&log_late, 3)).unwrap();
    late.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap();
    let mut address = 0;
    let inner = mock.malloc(16, &mut address);
    let outer = mock.api_exit(outer, 0).expect("ended on its thread");
    drop((a, b, late));

    for (log, tag) in [(&log_a, 1), (&log_b, 2)] {
        let seen = take(log);
        let sites: Vec<_> = seen.iter().map(|s| (s.site, s.correlation)).collect();
        assert_eq!(
            sites,
            [
                (CallbackSite::ENTER, outer),
                (CallbackSite::ENTER, inner),
                (CallbackSite::EXIT, inner),
                (CallbackSite::EXIT, outer)
            ]
        );
        for s in &seen {
            assert_eq!(s.slot, tag * 1_000_000 + u64::from(s.correlation), "{s:?}");
        }
    }
    let late_seen = take(&log_late);
    assert_eq!(late_seen.len(), 1);
    assert_eq!(
        (late_seen[0].site, late_seen[0].correlation, late_seen[0].slot),
        (CallbackSite::EXIT, outer, 0)
    );
}

/// A closure that stores a fresh value (from `next`) in its slot at each ENTER and logs, per
/// callback, `(id, site, correlation id, slot value)`.
#[allow(clippy::type_complexity)]
fn slot_logger(
    next: &Arc<AtomicU64>,
    log: &Arc<Mutex<Vec<(cupti::CallbackId, CallbackSite, u32, u64)>>>,
) -> impl Fn(&cupti::CallbackData<'_>) + Send + Sync + 'static {
    let (next, log) = (next.clone(), log.clone());
    move |cb| {
        let Some(api) = cb.api() else { return };
        let slot = api.correlation_slot();
        if api.is_enter() {
            slot.set(next.fetch_add(1, Ordering::Relaxed));
        }
        log.lock().unwrap().push((cb.id(), api.site(), api.correlation_id(), slot.get()));
    }
}

#[test]
fn slots_round_trip_when_a_runtime_call_and_its_driver_calls_share_a_correlation_id() {
    let (_g, cupti, mock) = env();
    let next = Arc::new(AtomicU64::new(1));
    let logs: Vec<_> = (0..3).map(|_| Arc::new(Mutex::new(Vec::new()))).collect();
    let subs: Vec<_> = logs.iter().map(|log| cupti.subscribe(slot_logger(&next, log)).unwrap()).collect();
    for sub in &subs[..2] {
        sub.enable_domain(CallbackDomain::RUNTIME_API).unwrap();
        sub.enable_domain(CallbackDomain::DRIVER_API).unwrap();
    }
    subs[2].enable_domain(CallbackDomain::DRIVER_API).unwrap();

    // cudaMemcpy -> cuMemcpyHtoD_v2; cudaDeviceSynchronize -> cuCtxGetCurrent, cuCtxSynchronize_v2
    // (two driver calls in a row under one id); cudaLaunchKernel -> cuLaunchKernel.
    let copy = mock.memcpy(0xd000, 0x4000, 4096, 1, 0, 0, 100);
    let sync = mock.device_synchronize();
    let launch = mock.launch(c"k", [1, 1, 1], [32, 1, 1], 0, 0);
    drop(subs);

    for (i, log) in logs.iter().enumerate() {
        let seen = std::mem::take(&mut *log.lock().unwrap());
        let runtime_calls = if i < 2 { 3 } else { 0 };
        assert_eq!(seen.len(), 2 * (runtime_calls + 4), "subscriber {i}: {seen:?}");
        // Each EXIT closes the innermost open call and gets back what its own ENTER stored.
        let mut open: Vec<(cupti::CallbackId, u32, u64)> = Vec::new();
        let mut stored = Vec::new();
        for &(id, site, correlation, value) in &seen {
            if site == CallbackSite::ENTER {
                assert_ne!(value, 0);
                stored.push(value);
                open.push((id, correlation, value));
            } else {
                assert_eq!(open.pop(), Some((id, correlation, value)), "subscriber {i}: {seen:?}");
            }
        }
        assert!(open.is_empty());
        let mut distinct = stored.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), stored.len(), "one value per call");
        // Driver calls carry their runtime call's id: four calls, three ids.
        let driver_ids: Vec<u32> = seen
            .iter()
            .filter(|s| s.0.domain == CallbackDomain::DRIVER_API && s.1 == CallbackSite::ENTER)
            .map(|s| s.2)
            .collect();
        assert_eq!(driver_ids, [copy, sync, sync, launch], "subscriber {i}");
    }
}

#[test]
fn subscribers_share_one_subscription_and_do_not_disable_each_other() {
    let (_g, cupti, mock) = env();
    let (log_a, log_b) = (new_log(), new_log());
    let a = cupti.subscribe(recorder(&log_a, 0)).unwrap();
    let b = cupti.subscribe(recorder(&log_b, 0)).unwrap();
    assert_eq!(mock.stat(c"subscribers"), 1, "two Subscribers, one CUPTI subscription");
    assert_eq!(cupti.subscription(), Some(SubscriptionKind::Exclusive));
    let launch = RuntimeCbid::cudaLaunchKernel_v7000;

    a.enable(launch).unwrap();
    b.enable(launch).unwrap();
    b.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    // B's window closes: A keeps its callbacks.
    b.disable(launch).unwrap();
    assert!(!b.is_enabled(launch) && a.is_enabled(launch));
    assert_eq!(cupti_state(cupti, RUNTIME, launch.0), 1);
    mock.launch(c"k", [1, 1, 1], [1, 1, 1], 0, 0);
    let mut address = 0;
    mock.malloc(8, &mut address);
    let a_seen: Vec<u32> = take(&log_a).iter().map(|s| s.cbid).collect();
    let b_seen: Vec<u32> = take(&log_b).iter().map(|s| s.cbid).collect();
    assert_eq!(a_seen, [launch.0, launch.0], "A sees only what it enabled");
    assert_eq!(b_seen, [RuntimeCbid::cudaMalloc_v3020.0; 2]);

    // A whole domain and a single id: switching the domain off keeps the id on.
    b.enable_domain(CallbackDomain::RUNTIME_API).unwrap();
    a.disable(launch).unwrap();
    assert_eq!(cupti_state(cupti, RUNTIME, launch.0), 1, "B's domain still covers it");
    b.disable_domain(CallbackDomain::RUNTIME_API).unwrap();
    assert_eq!(cupti_state(cupti, RUNTIME, launch.0), 0);
    assert_eq!(cupti_state(cupti, RUNTIME, RuntimeCbid::cudaMalloc_v3020.0), 1, "B enabled it singly");
    assert_eq!(cupti_state(cupti, RUNTIME, RuntimeCbid::cudaFree_v3020.0), 0);
    take(&log_b);
    mock.launch(c"k", [1, 1, 1], [1, 1, 1], 0, 0);
    assert!(take(&log_a).is_empty() && take(&log_b).is_empty());

    // Dropping the last subscriber keeps CUPTI (unsubscribing under traffic crashes the real
    // library); releasing gives it back only once no subscriber is left; the next takes it again.
    drop(a);
    assert_eq!(mock.stat(c"subscribers"), 1);
    // SAFETY: no other thread of this test makes CUDA calls.
    assert!(!unsafe { cupti.release_subscription() }.unwrap(), "b still subscribes");
    assert_eq!(mock.stat(c"subscribers"), 1);
    drop(b);
    assert_eq!(mock.stat(c"subscribers"), 1);
    assert_eq!(cupti.subscription(), Some(SubscriptionKind::Exclusive));
    // SAFETY: as above.
    assert!(unsafe { cupti.release_subscription() }.unwrap());
    assert_eq!(mock.stat(c"subscribers"), 0);
    assert_eq!(cupti.subscription(), None);
    // SAFETY: as above.
    assert!(!unsafe { cupti.release_subscription() }.unwrap(), "nothing left to release");
    let c = cupti.subscribe(|_| {}).unwrap();
    assert_eq!(mock.stat(c"subscribers"), 1);
    drop(c);
    // SAFETY: as above.
    assert!(unsafe { cupti.release_subscription() }.unwrap());
}

#[test]
fn a_panic_in_a_closure_is_caught_counted_and_the_others_still_run() {
    let (_g, cupti, mock) = env();
    let log = new_log();
    let bad = cupti.subscribe(|cb| panic!("closure failed on {}", cb.id())).unwrap();
    let good = cupti.subscribe(recorder(&log, 5)).unwrap();
    bad.enable_domain(CallbackDomain::RUNTIME_API).unwrap();
    good.enable_domain(CallbackDomain::RUNTIME_API).unwrap();
    for _ in 0..3 {
        mock.launch(c"k", [1, 1, 1], [1, 1, 1], 0, 0);
    }
    assert_eq!(bad.panics(), 6);
    assert_eq!(bad.last_panic().as_deref(), Some("closure failed on RUNTIME_API/cudaLaunchKernel"));
    assert_eq!(good.panics(), 0);
    let seen = take(&log);
    assert_eq!(seen.len(), 6);
    assert!(seen.iter().all(|s| s.slot == 5_000_000 + u64::from(s.correlation)));
}

#[test]
fn typed_params_read_what_the_runtime_passed() {
    let (_g, cupti, mock) = env();
    let log = new_log();
    let sub = cupti.subscribe(recorder(&log, 0)).unwrap();
    sub.enable_domain(CallbackDomain::RUNTIME_API).unwrap();
    sub.enable_domain(CallbackDomain::DRIVER_API).unwrap();

    let launch = |seen: &Seen| match seen.params {
        Some(CallParams::KernelLaunch(k)) => k,
        other => panic!("not a launch: {other:?}"),
    };
    mock.launch(c"_Z9my_kernelPf", [4, 2, 1], [128, 1, 1], 512, 0x55);
    mock.launch_driver(c"driver_kernel", [8, 1, 1], [64, 2, 1], 256, 0x66);
    let seen = take(&log);
    // cudaLaunchKernel encloses the cuLaunchKernel it makes (same correlation id), then the
    // direct cuLaunchKernel.
    let order: Vec<(u32, CallbackSite)> = seen.iter().map(|s| (s.cbid, s.site)).collect();
    let (rt_id, drv_id) = (RuntimeCbid::cudaLaunchKernel_v7000.0, DriverCbid::cuLaunchKernel.0);
    assert_eq!(
        order,
        [
            (rt_id, CallbackSite::ENTER),
            (drv_id, CallbackSite::ENTER),
            (drv_id, CallbackSite::EXIT),
            (rt_id, CallbackSite::EXIT),
            (drv_id, CallbackSite::ENTER),
            (drv_id, CallbackSite::EXIT),
        ]
    );
    assert!(seen[..4].iter().all(|s| s.correlation == seen[0].correlation));
    assert_ne!(seen[4].correlation, seen[0].correlation);
    let (rt, nested, drv) = (launch(&seen[0]), launch(&seen[1]), launch(&seen[4]));
    assert_eq!(((rt.grid.x, rt.grid.y, rt.grid.z), rt.block.x, rt.shared_mem_bytes), ((4, 2, 1), 128, 512));
    assert_eq!((rt.stream, rt.cooperative), (0x55, false));
    assert_eq!(seen[0].symbol.as_deref(), Some("_Z9my_kernelPf"));
    assert_eq!(nested, rt, "the driver launch the runtime makes has the same configuration");
    assert_eq!(seen[1].symbol.as_deref(), Some("_Z9my_kernelPf"));
    assert_eq!(seen[4].cbid, DriverCbid::cuLaunchKernel.0);
    assert_eq!(
        (drv.grid.volume(), drv.block.volume(), drv.shared_mem_bytes, drv.stream),
        (8, 128, 256, 0x66)
    );
    assert_eq!(seen[4].symbol.as_deref(), Some("driver_kernel"));
    assert_eq!(seen[5].ret, Some(ReturnValue::Driver(0)));
    assert_eq!(seen[3].ret, Some(ReturnValue::Runtime(0)));

    mock.memcpy(0xd000, 0x4000, 1 << 20, 1, 9, 1, 1_000);
    mock.memset(0xd000, 3, 4096, 0, 0, 100);
    let mut address = 0;
    mock.malloc(1 << 16, &mut address);
    let seen = take(&log);
    let names: Vec<_> = seen.iter().map(|s| s.name.unwrap_or("?")).collect();
    assert_eq!(
        names,
        [
            "cudaMemcpyAsync",
            "cuMemcpyHtoDAsync_v2",
            "cuMemcpyHtoDAsync_v2",
            "cudaMemcpyAsync",
            "cudaMemset",
            "cuMemsetD8_v2",
            "cuMemsetD8_v2",
            "cudaMemset",
            "cudaMalloc",
            "cuMemAlloc_v2",
            "cuMemAlloc_v2",
            "cudaMalloc",
        ]
    );
    for call in seen.chunks(4) {
        assert!(call.iter().all(|s| s.correlation == call[0].correlation), "{call:?}");
    }
    for i in [0, 1] {
        let Some(CallParams::Memcpy(c)) = seen[i].params else { panic!("{:?}", seen[i]) };
        assert_eq!(
            (c.kind, c.bytes, c.dst, c.src, c.stream),
            (cupti::callback::MemcpyKind::HOST_TO_DEVICE, 1 << 20, 0xd000, 0x4000, Some(9))
        );
    }
    let Some(CallParams::Memset(s)) = seen[4].params else { panic!("{:?}", seen[4]) };
    assert_eq!((s.bytes, s.value, s.element_size, s.dst, s.stream), (4096, 3, 1, 0xd000, None));
    let Some(CallParams::Memset(d)) = seen[5].params else { panic!("{:?}", seen[5]) };
    assert_eq!((d.bytes, d.value, d.element_size, d.dst), (4096, 3, 1, 0xd000));
    let (Some(CallParams::Alloc(enter)), Some(CallParams::Alloc(exit))) = (seen[8].params, seen[11].params)
    else {
        panic!("{:?}", &seen[8..])
    };
    assert_eq!((enter.bytes, enter.address), (1 << 16, None));
    assert_eq!((exit.bytes, exit.address), (1 << 16, Some(address)));
    let Some(CallParams::Alloc(driver_exit)) = seen[10].params else { panic!("{:?}", seen[10]) };
    assert_eq!((driver_exit.bytes, driver_exit.address), (1 << 16, Some(address)));
    assert_ne!(address, 0);

    // A failed call's EXIT carries its error.
    mock.fail_next_call(2);
    mock.memcpy(0xd000, 0x4000, 64, 1, 0, 0, 100);
    let seen = take(&log);
    assert_eq!((seen[0].ret, seen[1].ret), (None, Some(ReturnValue::Runtime(2))));
    assert!(!ReturnValue::Runtime(2).is_success());

    // A driver memset played with its params struct: bytes are N * element size.
    let q = params::cuMemsetD32Async_params { dstDevice: 0xe000, ui: 9, N: 100, hStream: 0x33 as _ };
    // SAFETY: the cuMemsetD32Async parameters, alive across the call.
    unsafe {
        mock.api_call_with_params(
            DRIVER,
            DriverCbid::cuMemsetD32Async.0,
            None,
            std::ptr::from_ref(&q).cast(),
            0,
        )
    };
    let seen = take(&log);
    let Some(CallParams::Memset(s)) = seen[0].params else { panic!("{:?}", seen[0]) };
    assert_eq!((s.bytes, s.value, s.element_size, s.dst, s.stream), (400, 9, 4, 0xe000, Some(0x33)));
    assert_eq!(seen[0].name, Some("cuMemsetD32Async"));
    assert_eq!(seen[0].symbol, None, "symbolName is read for launches only");
    drop(sub);
}

#[test]
fn resource_and_synchronize_callbacks_have_their_views() {
    let (_g, cupti, mock) = env();
    let events = Arc::new(Mutex::new(Vec::new()));
    let ev = events.clone();
    let sub = cupti
        .subscribe(move |cb| {
            let mut ev = ev.lock().unwrap();
            if let Some(r) = cb.resource() {
                ev.push(format!("{} stream={:?}", r.event(), r.stream()));
            } else if let Some(s) = cb.synchronize() {
                ev.push(format!("{} stream={}", cb.name().unwrap_or("?"), s.stream));
            }
            assert!(cb.api().is_none() && cb.site().is_none() && !cb.is_enter() && !cb.is_exit());
        })
        .unwrap();
    sub.enable(ResourceCbid::STREAM_CREATED).unwrap();
    sub.enable_domain(CallbackDomain::SYNCHRONIZE).unwrap();
    mock.resource(ResourceCbid::STREAM_CREATED.0, 0x42);
    mock.resource(ResourceCbid::CONTEXT_CREATED.0, 0);
    mock.stream_synchronize(0x42);
    drop(sub);
    let events = events.lock().unwrap();
    assert_eq!(
        events[..],
        ["STREAM_CREATED stream=Some(66)".to_owned(), "STREAM_SYNCHRONIZED stream=66".to_owned()]
    );
    assert_eq!(SynchronizeCbid::STREAM_SYNCHRONIZED.name(), Some("STREAM_SYNCHRONIZED"));
}

#[test]
fn errors_are_typed() {
    let (_g, cupti, mock) = env();
    // A raw second subscription while ours holds CUPTI (13.0: one subscriber per process).
    let ours = cupti.subscribe(|_| {}).unwrap();
    let mut raw: CUpti_SubscriberHandle = std::ptr::null_mut();
    // SAFETY: valid out-pointer; no callback.
    let r = unsafe { cupti.sys().cuptiSubscribe(&mut raw, None, std::ptr::null_mut()) }.unwrap();
    let e = Error::from_code(r.into(), "cuptiSubscribe").unwrap();
    assert!(matches!(e, Error::MultipleSubscribers { .. }), "{e}");
    drop(ours);
    // SAFETY: no other thread makes CUDA calls in this test.
    assert!(unsafe { cupti.release_subscription() }.unwrap());

    // Another tool holds CUPTI: 13.x names it.
    mock.set_foreign_subscriber(Some(c"Nsight Systems"));
    let e = cupti.subscribe(|_| {}).unwrap_err();
    let Error::MultipleSubscribers { holder, .. } = &e else { panic!("{e}") };
    assert_eq!(holder.as_deref(), Some("Nsight Systems"));
    assert!(e.to_string().contains("held by \"Nsight Systems\""), "{e}");
    mock.set_foreign_subscriber(None);

    // No GPU driver: 13.x says UNKNOWN, 12.x NOT_INITIALIZED; both read as "no driver".
    mock.set_driver_present(0);
    let e = cupti.subscribe(|_| {}).unwrap_err();
    assert!(matches!(e, Error::Internal { function: "cuptiSubscribe_v2" }) && e.is_no_driver(), "{e}");
    mock.set_version(28);
    let e = reopen().subscribe(|_| {}).unwrap_err();
    assert!(matches!(e, Error::NotInitialized { function: "cuptiSubscribe" }) && e.is_no_driver(), "{e}");
    assert_eq!(cupti.subscription(), None);

    // A library without CUPTI's functions: a typed error naming what it lacks, no panic.
    let e = Cupti::open_path("libm.so.6").unwrap_err();
    let Error::Load(cupti_sys::LoadError::WrongLibrary { missing, .. }) = &e else { panic!("{e}") };
    assert!(missing.contains(&"cuptiGetVersion"), "{e}");
}

/// `cuptiSubscribe_v2` with no callback and the raw 13.2 params struct `params`, as another tool
/// would call it: the result code and the handle.
fn subscribe_v2_raw(cupti: &Cupti, params: &mut [u8; 40]) -> (u32, CUpti_SubscriberHandle) {
    let mut raw: CUpti_SubscriberHandle = std::ptr::null_mut();
    // SAFETY: valid out-pointer; `params` is a 13.2 CUpti_SubscriberParams (size, name, no
    // old-name buffer, allow); no callback, so nothing is ever called back.
    let r = unsafe {
        cupti.sys().cuptiSubscribe_v2(&mut raw, None, std::ptr::null_mut(), params.as_mut_ptr().cast())
    };
    (r.expect("cuptiSubscribe_v2 exists").0, raw)
}

#[test]
fn each_release_gets_the_subscription_it_supports() {
    let (_g, _, mock) = env();
    // 12.9 has no cuptiSubscribe_v2: plain cuptiSubscribe, never the absent symbol.
    mock.set_version(28);
    let cupti12 = reopen();
    assert!(cupti12.is_12x());
    let sub = cupti12.subscribe(|_| {}).unwrap();
    assert_eq!(cupti12.subscription(), Some(SubscriptionKind::Exclusive));
    assert_eq!(mock.stat(c"absent_symbol_calls"), 0);
    drop(sub);
    // SAFETY: no other thread makes CUDA calls in this test.
    assert!(unsafe { cupti12.release_subscription() }.unwrap());

    // 13.2: shared, so another tool that allows it coexists; one that does not is refused.
    mock.set_version(130_200);
    let cupti132 = reopen();
    let log = new_log();
    let sub = cupti132.subscribe(recorder(&log, 0)).unwrap();
    assert_eq!(cupti132.subscription(), Some(SubscriptionKind::Shared));
    sub.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    let name = c"other tool";
    let mut other = [0u8; 40];
    other[..8].copy_from_slice(&40usize.to_ne_bytes());
    other[8..16].copy_from_slice(&(name.as_ptr() as usize).to_ne_bytes());
    other[32] = 1; // allowMultipleSubscribers
    let (r, raw) = subscribe_v2_raw(cupti132, &mut other);
    assert_eq!(r, 0, "a sharing tool coexists with us");
    assert_eq!(mock.stat(c"subscribers"), 2);
    let mut address = 0;
    mock.malloc(8, &mut address);
    assert_eq!(take(&log).len(), 2, "ours still gets its callbacks");
    // SAFETY: the handle just made.
    assert_eq!(unsafe { cupti132.sys().cuptiUnsubscribe(raw) }.map(|r| r.0), Ok(0));
    let mut raw: CUpti_SubscriberHandle = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    let r = unsafe { cupti132.sys().cuptiSubscribe(&mut raw, None, std::ptr::null_mut()) }.unwrap();
    assert_eq!(r, cupti_sys::CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    drop(sub);
    // SAFETY: no other thread makes CUDA calls in this test.
    assert!(unsafe { cupti132.release_subscription() }.unwrap());

    // 13.2 refuses `cuptiSubscribe` for good once a shared subscription has existed, and
    // sharing once a `cuptiSubscribe` one has (as the real 13.2.86 does): in a fresh process
    // whose first subscription was plain, the hub falls back to the only subscription.
    let mut raw: CUpti_SubscriberHandle = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    let r = unsafe { cupti132.sys().cuptiSubscribe(&mut raw, None, std::ptr::null_mut()) }.unwrap();
    assert_eq!(r, cupti_sys::CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    // A fresh process, as far as the mock's history goes.
    mock.set_version(130_200);
    // SAFETY: valid out-pointer; the handle is given back at once.
    unsafe {
        assert_eq!(cupti132.sys().cuptiSubscribe(&mut raw, None, std::ptr::null_mut()).unwrap().0, 0);
        assert_eq!(cupti132.sys().cuptiUnsubscribe(raw).unwrap().0, 0);
    }
    let sub = cupti132.subscribe(recorder(&log, 0)).unwrap();
    assert_eq!(cupti132.subscription(), Some(SubscriptionKind::Exclusive));
    sub.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    mock.malloc(8, &mut address);
    assert_eq!(take(&log).len(), 2);
    drop(sub);
    // SAFETY: as above.
    assert!(unsafe { cupti132.release_subscription() }.unwrap());

    // 13.0 refuses the 13.2 struct (40 bytes) outright, as the real 13.0.85 does.
    mock.set_version(130_001);
    let cupti130 = reopen();
    let (r, _) = subscribe_v2_raw(cupti130, &mut other);
    assert_eq!(r, cupti_sys::CUptiResult::CUPTI_ERROR_INVALID_PARAMETER.0);
}

#[test]
fn a_subscriber_dropped_inside_a_callback_gets_no_further_calls_and_is_freed_later() {
    let (_g, cupti, mock) = env();
    let victim_calls = Arc::new(AtomicU64::new(0));
    let victim_freed = Arc::new(AtomicBool::new(false));
    let victim: Arc<Mutex<Option<Subscriber<'static>>>> = Arc::new(Mutex::new(None));
    let slot = victim.clone();
    let killer = cupti
        .subscribe(move |cb| {
            if cb.site() == Some(CallbackSite::ENTER) {
                drop(slot.lock().unwrap().take());
            }
        })
        .unwrap();
    killer.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    let (calls, guard) = (victim_calls.clone(), DropFlag(victim_freed.clone()));
    let v = cupti
        .subscribe(move |_| {
            let _keep = &guard;
            calls.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
    v.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    *victim.lock().unwrap() = Some(v);
    let mut address = 0;
    mock.malloc(8, &mut address);
    mock.malloc(8, &mut address);
    assert_eq!(victim_calls.load(Ordering::SeqCst), 0, "dropped at ENTER before its turn");
    assert!(!victim_freed.load(Ordering::SeqCst), "freeing waits for a grace period outside callbacks");
    drop(killer);
    assert!(victim_freed.load(Ordering::SeqCst));
}

/// One `cudaMemcpy` whose ENTER and EXIT are delivered apart, with `between` run in between.
fn memcpy_around(mock: &MockCupti, between: impl FnOnce()) -> u32 {
    let p = memcpy_params(32);
    // SAFETY: the cudaMemcpy parameters, alive until the call's EXIT below.
    let c = unsafe {
        mock.api_enter_with_params(
            RUNTIME,
            RuntimeCbid::cudaMemcpy_v3020.0,
            None,
            std::ptr::from_ref(&p).cast(),
        )
    }
    .expect("a runtime call");
    between();
    mock.api_exit(c, 0).expect("ended on its thread")
}

#[test]
fn slots_survive_subscribers_arriving_and_leaving_between_enter_and_exit() {
    let (_g, cupti, mock) = env();
    // `first` makes the subscription (the anchor: served without the switchboard while it is the
    // only subscriber with anything enabled, CUPTI's own slot holding its value).
    let (log_first, log_second, log_quiet) = (new_log(), new_log(), new_log());
    let first = cupti.subscribe(recorder(&log_first, 1)).unwrap();
    let second = cupti.subscribe(recorder(&log_second, 2)).unwrap();
    let quiet = cupti.subscribe(recorder(&log_quiet, 0)).unwrap();
    first.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap();

    // Alone at ENTER; a second subscriber (storing) at EXIT.
    let c1 = memcpy_around(mock, || second.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap());
    // Both store at ENTER (a frame); the second leaves before EXIT.
    let c2 = memcpy_around(mock, || second.disable(RuntimeCbid::cudaMemcpy_v3020).unwrap());
    // With one that stores nothing at ENTER; it leaves before EXIT.
    quiet.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap();
    let c3 = memcpy_around(mock, || quiet.disable(RuntimeCbid::cudaMemcpy_v3020).unwrap());
    // Both store at ENTER; a third arrives; everyone stays to EXIT.
    second.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap();
    let c4 = memcpy_around(mock, || quiet.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap());
    drop((second, quiet));
    // Alone again.
    let c5 = memcpy_around(mock, || {});

    let seen: Vec<_> = take(&log_first).iter().map(|s| (s.site, s.correlation, s.slot)).collect();
    let expected: Vec<_> = [c1, c2, c3, c4, c5]
        .iter()
        .flat_map(|&c| {
            [CallbackSite::ENTER, CallbackSite::EXIT].map(|site| (site, c, 1_000_000 + u64::from(c)))
        })
        .collect();
    assert_eq!(seen, expected, "the first subscriber's slot round-trips across every change");
    let second_seen: Vec<_> = take(&log_second).iter().map(|s| (s.site, s.correlation, s.slot)).collect();
    assert_eq!(
        second_seen,
        [
            (CallbackSite::EXIT, c1, 0),
            (CallbackSite::ENTER, c2, 2_000_000 + u64::from(c2)),
            (CallbackSite::ENTER, c4, 2_000_000 + u64::from(c4)),
            (CallbackSite::EXIT, c4, 2_000_000 + u64::from(c4)),
        ]
    );
    let quiet_seen: Vec<_> = take(&log_quiet).iter().map(|s| (s.site, s.correlation, s.slot)).collect();
    assert_eq!(quiet_seen, [(CallbackSite::ENTER, c3, 0), (CallbackSite::EXIT, c4, 0)]);
    drop(first);
}

/// Defect (issue 13, CUPTI's side): a call whose EXIT was lost (its id switched off between ENTER
/// and EXIT) leaves its frame behind; a later call whose ENTER was not delivered (switched on in
/// between) and whose `correlationData` was not zeroed (a release that reuses the storage) hands
/// the lost call's serial back at EXIT. That EXIT must not pair with the lost call's frame.
#[test]
fn an_exit_without_enter_never_pairs_with_a_lost_calls_frame() {
    let (_g, cupti, mock) = env();
    let id = RuntimeCbid::cudaMemcpy_v3020;
    let log_first = new_log();
    let paired = Arc::new(Mutex::new(Vec::new()));
    let first = cupti.subscribe(recorder(&log_first, 1)).unwrap();
    let p = paired.clone();
    let second = cupti
        .subscribe(move |cb| {
            let Some(api) = cb.api() else { return };
            if api.is_enter() {
                api.correlation_slot().set(2_000_000 + u64::from(api.correlation_id()));
            } else {
                p.lock().unwrap().push((api.correlation_slot().get(), api.correlation_slot().paired()));
            }
        })
        .unwrap();
    // A subscriber that reads, at EXIT, what CUPTI's own slot holds: the frame's serial.
    let serial = Arc::new(AtomicU64::new(0));
    let s = serial.clone();
    let spy = cupti
        .subscribe(move |cb| {
            let Some(api) = cb.api() else { return };
            let p = api.raw().correlationData;
            if api.is_exit() && !p.is_null() {
                // SAFETY: CUPTI's per-call slot, valid during the callback.
                s.store(unsafe { *p }, Ordering::SeqCst);
            }
        })
        .unwrap();
    let all = [&first, &second, &spy];
    for sub in all {
        sub.enable(id).unwrap();
    }
    // A whole call: both store, so CUPTI's slot holds a frame's serial.
    let c1 = memcpy_around(mock, || {});
    let lost_serial = serial.load(Ordering::SeqCst) + 1; // the next frame this thread opens
                                                         // Switched off between ENTER and EXIT: the frame stays behind.
    let c2 = memcpy_around(mock, || {
        for sub in all {
            sub.disable(id).unwrap();
        }
    });
    assert_eq!(cupti_state(cupti, RUNTIME, id.0), 0);
    // Switched on between ENTER and EXIT, CUPTI's slot holding the lost call's serial.
    mock.set_slot_fill(lost_serial);
    let c3 = memcpy_around(mock, || {
        for sub in all {
            sub.enable(id).unwrap();
        }
    });
    mock.set_slot_fill(0);
    let c4 = memcpy_around(mock, || {});
    let seen: Vec<_> = take(&log_first).iter().map(|s| (s.site, s.correlation, s.slot)).collect();
    let stored = |c: u32| 1_000_000 + u64::from(c);
    assert_eq!(
        seen,
        [
            (CallbackSite::ENTER, c1, stored(c1)),
            (CallbackSite::EXIT, c1, stored(c1)),
            (CallbackSite::ENTER, c2, stored(c2)),
            (CallbackSite::EXIT, c3, 0),
            (CallbackSite::ENTER, c4, stored(c4)),
            (CallbackSite::EXIT, c4, stored(c4)),
        ],
        "the EXIT without ENTER reads nothing, not the lost call's value"
    );
    assert_eq!(
        *paired.lock().unwrap(),
        [(2_000_000 + u64::from(c1), true), (0, false), (2_000_000 + u64::from(c4), true)]
    );
}

#[test]
fn the_first_subscribers_closure_is_freed_at_its_drop_and_the_others_go_on() {
    let (_g, cupti, mock) = env();
    let freed = Arc::new(AtomicBool::new(false));
    let (calls, guard) = (Arc::new(AtomicU64::new(0)), DropFlag(freed.clone()));
    let counted = calls.clone();
    let first = cupti
        .subscribe(move |_| {
            let _keep = &guard;
            counted.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
    first.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    let log = new_log();
    let later = cupti.subscribe(recorder(&log, 5)).unwrap();
    let mut address = 0;
    mock.malloc(8, &mut address);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    drop(first);
    assert!(freed.load(Ordering::SeqCst), "a closure owning state is dropped with its subscriber");
    later.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    let c = mock.malloc(8, &mut address);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    let seen: Vec<_> = take(&log).iter().map(|s| (s.site, s.slot)).collect();
    let value = 5_000_000 + u64::from(c);
    assert_eq!(seen, [(CallbackSite::ENTER, value), (CallbackSite::EXIT, value)]);
    drop(later);
}

#[test]
fn a_first_subscriber_owning_nothing_counts_its_panics_and_stops_at_its_drop() {
    let (_g, cupti, mock) = env();
    static CALLS: AtomicU64 = AtomicU64::new(0);
    CALLS.store(0, Ordering::SeqCst);
    let first = cupti
        .subscribe(|cb| {
            CALLS.fetch_add(1, Ordering::SeqCst);
            if cb.site() == Some(CallbackSite::EXIT) {
                panic!("at exit");
            }
        })
        .unwrap();
    first.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    let mut address = 0;
    mock.malloc(8, &mut address);
    mock.malloc(8, &mut address);
    assert_eq!((CALLS.load(Ordering::SeqCst), first.panics()), (4, 2));
    assert_eq!(first.last_panic().as_deref(), Some("at exit"));
    drop(first);
    mock.malloc(8, &mut address);
    assert_eq!(CALLS.load(Ordering::SeqCst), 4, "no call after the drop returned (this thread)");
}

#[test]
fn the_first_subscriber_takes_cuptis_enables_as_its_own_until_another_is_routed() {
    let (_g, cupti, mock) = env();
    let (log_first, log_other) = (new_log(), new_log());
    let first = cupti.subscribe(recorder(&log_first, 0)).unwrap();
    first.enable(RuntimeCbid::cudaMalloc_v3020).unwrap();
    // An id enabled behind the switchboard's back (the raw handle): while no other subscriber
    // has been routed, CUPTI's enables are the first subscriber's own, as for a C tool.
    let handle = cupti.raw_subscriber_handle().unwrap();
    // SAFETY: the live shared handle; plain values.
    let r = unsafe {
        cupti.sys().cuptiEnableCallback(
            1,
            handle,
            CUpti_CallbackDomain(RUNTIME),
            RuntimeCbid::cudaMemcpy_v3020.0,
        )
    };
    assert_eq!(r.map(|r| r.0), Ok(0));
    let mut address = 0;
    mock.malloc(8, &mut address);
    memcpy_around(mock, || {});
    let cbids: Vec<u32> = take(&log_first).iter().map(|s| s.cbid).collect();
    assert_eq!(cbids.len(), 4, "{cbids:?}");
    assert!(cbids.contains(&RuntimeCbid::cudaMemcpy_v3020.0));

    // Once another subscriber has been routed, the first one gets only what it enabled, even
    // alone again.
    let other = cupti.subscribe(recorder(&log_other, 0)).unwrap();
    other.enable(RuntimeCbid::cudaFree_v3020).unwrap();
    drop(other);
    mock.malloc(8, &mut address);
    memcpy_around(mock, || {});
    let cbids: Vec<u32> = take(&log_first).iter().map(|s| s.cbid).collect();
    assert_eq!(cbids, [RuntimeCbid::cudaMalloc_v3020.0; 2]);
    drop(first);
}

struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[test]
fn dropping_subscribers_during_traffic_from_other_threads_is_safe() {
    let (_g, cupti, mock) = env();
    let stop = Arc::new(AtomicBool::new(false));
    let calls = Arc::new(AtomicU64::new(0));
    let traffic: Vec<_> = (0..4)
        .map(|_| {
            let (stop, calls) = (stop.clone(), calls.clone());
            std::thread::spawn(move || {
                let p = memcpy_params(128);
                while !stop.load(Ordering::Relaxed) {
                    // SAFETY: the cudaMemcpy parameters, alive across the call.
                    unsafe {
                        mock.api_call_with_params(
                            RUNTIME,
                            RuntimeCbid::cudaMemcpy_v3020.0,
                            None,
                            std::ptr::from_ref(&p).cast(),
                            0,
                        )
                    };
                    calls.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();

    // A long-lived subscriber checks its slot on every call while the others come and go.
    let bad_slots = Arc::new(AtomicU64::new(0));
    let steady_subscriber = || {
        let bad = bad_slots.clone();
        let sub = cupti
            .subscribe(move |cb| {
                let api = cb.api().unwrap();
                let slot = api.correlation_slot();
                if api.is_enter() {
                    slot.set(u64::from(api.correlation_id()));
                } else if slot.get() != u64::from(api.correlation_id()) && slot.get() != 0 {
                    bad.fetch_add(1, Ordering::Relaxed);
                }
            })
            .unwrap();
        sub.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap();
        sub
    };
    let mut steady = Some(steady_subscriber());

    let deadline = Instant::now() + Duration::from_secs(2);
    let mut rounds = 0u64;
    let late_calls = Arc::new(AtomicU64::new(0));
    while Instant::now() < deadline || rounds < 50 {
        rounds += 1;
        let dropped = Arc::new(AtomicBool::new(false));
        let freed = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicU64::new(0));
        let (d, s, late, flag) = (dropped.clone(), seen.clone(), late_calls.clone(), DropFlag(freed.clone()));
        let sub = cupti
            .subscribe(move |_| {
                let _keep = &flag;
                if d.load(Ordering::SeqCst) {
                    late.fetch_add(1, Ordering::SeqCst);
                }
                s.fetch_add(1, Ordering::Relaxed);
            })
            .unwrap();
        if rounds % 2 == 0 {
            sub.enable_domain(CallbackDomain::RUNTIME_API).unwrap();
        } else {
            sub.enable(RuntimeCbid::cudaMemcpy_v3020).unwrap();
        }
        let wait = Instant::now() + Duration::from_millis(200);
        while seen.load(Ordering::Relaxed) == 0 && Instant::now() < wait {
            std::hint::spin_loop();
        }
        if rounds % 5 == 0 {
            sub.disable(RuntimeCbid::cudaMemcpy_v3020).unwrap();
        }
        drop(sub);
        dropped.store(true, Ordering::SeqCst);
        assert!(freed.load(Ordering::SeqCst), "the closure is freed when drop returns");
        if rounds % 10 == 0 {
            // Now and then the last subscriber goes: the subscription is kept under traffic.
            drop(steady.take());
            assert!(cupti.subscription().is_some());
            steady = Some(steady_subscriber());
        }
    }
    drop(steady);
    stop.store(true, Ordering::Relaxed);
    eprintln!("{rounds} rounds; readers use membarrier: {}", cupti::callback::uses_membarrier());
    for t in traffic {
        t.join().expect("traffic thread");
    }
    assert_eq!(late_calls.load(Ordering::SeqCst), 0, "a closure ran after its subscriber was dropped");
    assert_eq!(bad_slots.load(Ordering::Relaxed), 0);
    assert!(calls.load(Ordering::Relaxed) > 1_000, "traffic ran: {}", calls.load(Ordering::Relaxed));
    // SAFETY: the traffic threads have ended.
    assert!(unsafe { cupti.release_subscription() }.unwrap());
    assert_eq!(mock.stat(c"subscribers"), 0);
    assert_eq!(mock.stat(c"callbacks_in_flight"), 0);
}

/// The real libraries (`CUPTI_REAL_LIB_13`, `CUPTI_REAL_LIB_12`: a `libcupti.so.*` from the
/// `nvidia-cuda-cupti` 13.0 and `nvidia-cuda-cupti-cu12` 12.9 wheels, see
/// `accelprof-bindgen/regen-cupti.sh`) on a machine without a GPU driver: subscribing fails with the
/// "no driver" error each release gives (13.x through `cuptiSubscribe_v2`, 12.x through
/// `cuptiSubscribe`), and nothing is left subscribed.
#[test]
fn real_libraries_without_a_driver_report_it() {
    let cases = [("CUPTI_REAL_LIB_13", false), ("CUPTI_REAL_LIB_12", true)];
    for (var, is_12) in cases {
        let Some(path) = std::env::var_os(var) else {
            println!("{var} not set: skipped");
            continue;
        };
        let cupti: &'static Cupti = Box::leak(Box::new(Cupti::open_path(&path).unwrap()));
        assert_eq!(cupti.is_12x(), is_12, "{var}: version {}", cupti.api_version());
        if Path::new("/dev/nvidiactl").exists() {
            println!("{var}: a GPU driver is present; the no-driver path is not checked");
            continue;
        }
        let e = cupti.subscribe(|_| {}).unwrap_err();
        assert!(e.is_no_driver(), "{var}: {e}");
        let function = if is_12 { "cuptiSubscribe" } else { "cuptiSubscribe_v2" };
        assert_eq!(
            e.code(),
            Some(if is_12 { cupti::ResultCode::NOT_INITIALIZED } else { cupti::ResultCode::INTERNAL })
        );
        assert!(e.to_string().starts_with(function), "{e}");
        assert_eq!(cupti.subscription(), None);
    }
}
