//! Two CUPTI clients in one process on the mock `libcupti`: the test kit's Kineto-like client
//! (`accelprof_mocks::cupti::KinetoClient`), which calls the `cupti*` symbols through the global
//! scope (as `libtorch_cuda` does through its PLT), in Kineto's order of calls, and our `cupti` crate's `ActivitySession` plus a raw subscriber through
//! `cupti-sys`. Each scenario runs in a child process of this test binary, with the shim in
//! `LD_PRELOAD` or without it.

use std::ffi::c_void;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use accelprof_core::FamilySet;
use accelprof_mocks::cupti::{KinetoClient, KinetoConfig, MockCupti, LIBRARY};
use cupti::activity::{ActivityConfig, ActivityKind, ActivitySession, DeviceSync};
use cupti::Cupti;

const KERNELS: u64 = 40;
/// Kernels launched before Kineto registers its clock (the clock test).
const PRE_KERNELS: u64 = 5;
const DOMAIN_RUNTIME_API: u32 = 2;
/// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000`.
const LAUNCH: u32 = 211;
/// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020`.
const GET_DEVICE: u32 = 10;

fn shim() -> PathBuf {
    // `cargo test` builds the library (cdylib and rlib) into `deps/`, next to this test binary.
    let exe = std::env::current_exe().unwrap();
    let shim = exe.parent().unwrap().join("libcupti_shim.so");
    assert!(shim.is_file(), "{} is built with this crate", shim.display());
    shim
}

/// Runs scenario `order` in a child, with or without the shim; its counts.
fn run(order: &str, with_shim: bool) -> Counts {
    run_with(order, with_shim, false)
}

/// As [`run`]; `clock`: the Kineto-like client registers a timestamp callback (CLOCK_MONOTONIC).
fn run_with(order: &str, with_shim: bool, clock: bool) -> Counts {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child", "--ignored", "--nocapture", "--test-threads=1"])
        .env("SHIM_TEST_ORDER", order)
        .env("SHIM_TEST_CLOCK", if clock { "1" } else { "0" });
    if with_shim {
        cmd.env("LD_PRELOAD", shim());
    } else {
        cmd.env_remove("LD_PRELOAD");
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let line = text
        .lines()
        .find_map(|l| l.find("COUNTS ").map(|at| &l[at..]))
        .unwrap_or_else(|| panic!("no counts:\n{text}"));
    let field = |name: &str| -> u64 {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("{name} in {line}"))
            .parse()
            .unwrap()
    };
    Counts {
        kineto_kernels: field("kineto_kernels"),
        kineto_unknown: field("kineto_unknown"),
        kineto_get_device: field("kineto_get_device"),
        kineto_callbacks: field("kineto_callbacks"),
        ours_kernels: field("ours_kernels"),
        ours_callbacks: field("ours_callbacks"),
        ours_dropped: field("ours_dropped"),
        ours_balanced: field("ours_balanced"),
        kineto_first: field("kineto_first"),
        kineto_last: field("kineto_last"),
        ours_first: field("ours_first"),
        ours_last: field("ours_last"),
        mono_before: field("mono_before"),
        mono_after: field("mono_after"),
        real_before: field("real_before"),
        real_after: field("real_after"),
        unconverted: field("unconverted"),
        ours_api_first: field("ours_api_first"),
        ours_api_last: field("ours_api_last"),
        real_start: field("real_start"),
    }
}

#[derive(Debug)]
struct Counts {
    kineto_kernels: u64,
    kineto_unknown: u64,
    kineto_get_device: u64,
    kineto_callbacks: u64,
    ours_kernels: u64,
    ours_callbacks: u64,
    ours_dropped: u64,
    ours_balanced: u64,
    /// Earliest and latest kernel start in each client's records.
    kineto_first: u64,
    kineto_last: u64,
    ours_first: u64,
    ours_last: u64,
    /// CLOCK_MONOTONIC and CLOCK_REALTIME ns read before the first launch and after the last kernel.
    mono_before: u64,
    mono_after: u64,
    real_before: u64,
    real_after: u64,
    /// `accelprof_cupti_shim_unconverted` of our slot (0 without the shim).
    unconverted: u64,
    /// Earliest and latest start of our API records, and CLOCK_REALTIME before our session started.
    ours_api_first: u64,
    ours_api_last: u64,
    real_start: u64,
}

fn assert_both_complete(c: &Counts) {
    assert_eq!(c.kineto_kernels, KERNELS, "Kineto got every kernel: {c:?}");
    assert_eq!(c.kineto_unknown, 0, "no foreign buffer reached Kineto: {c:?}");
    assert_eq!(c.kineto_get_device, 0, "Kineto's cudaGetDevice filter held: {c:?}");
    assert_eq!(c.ours_kernels, KERNELS, "we got every kernel: {c:?}");
    assert_eq!(c.ours_dropped, 0, "{c:?}");
    assert_eq!(c.ours_balanced, 1, "{c:?}");
    assert_eq!(c.kineto_callbacks, KERNELS, "Kineto's subscriber saw every launch: {c:?}");
    assert_eq!(c.ours_callbacks, KERNELS, "our subscriber saw every launch: {c:?}");
}

#[test]
fn both_complete_with_the_shim_session_started_before_kineto() {
    assert_both_complete(&run("before", true));
}

#[test]
fn both_complete_with_the_shim_session_started_after_kineto() {
    assert_both_complete(&run("after", true));
}

/// The same scenarios without the shim: CUPTI's one subscription and one pair of buffer callbacks
/// do not let both complete (this is what the shim is for).
#[test]
fn without_the_shim_one_client_loses() {
    for order in ["before", "after"] {
        let c = run(order, false);
        let whole = c.kineto_kernels == KERNELS
            && c.ours_kernels == KERNELS
            && c.kineto_callbacks == KERNELS
            && c.ours_callbacks == KERNELS;
        assert!(!whole, "{order}: both complete without the shim? {c:?}");
    }
}

/// Kineto registers a timestamp callback (a monotonic clock, as PyTorch 2.11 does), which CUPTI makes
/// the clock of every client's records: with the shim, Kineto's records carry that clock and ours are
/// mapped back to CLOCK_REALTIME.
#[test]
fn with_the_shim_a_kineto_timestamp_callback_leaves_our_records_on_realtime() {
    let c = run_with("before", true, true);
    const SLACK: u64 = 1_000_000_000;
    assert!(
        c.kineto_first + SLACK >= c.mono_before && c.kineto_last <= c.mono_after + SLACK,
        "Kineto's kernels are on its (monotonic) clock: {c:?}"
    );
    assert!(
        c.ours_first + SLACK >= c.real_before && c.ours_last <= c.real_after + SLACK,
        "our kernels are on CLOCK_REALTIME: {c:?}"
    );
    // API records of calls made before Kineto registered its clock kept CUPTI's own, those after it
    // carry Kineto's: each goes back to CLOCK_REALTIME once, none twice.
    assert!(
        c.ours_api_first + SLACK >= c.real_start && c.ours_api_last <= c.real_after + SLACK,
        "our API records are on CLOCK_REALTIME: {c:?}"
    );
    assert_eq!(c.unconverted, 0, "{c:?}");
    // The kernels run before Kineto registered its clock are ours alone, with their times.
    assert!(c.ours_first + SLACK >= c.real_start, "none of ours at 0: {c:?}");
    assert_eq!(c.ours_kernels, KERNELS + PRE_KERNELS, "we got every kernel: {c:?}");
    assert_eq!(c.ours_callbacks, KERNELS + PRE_KERNELS, "our subscriber saw every launch: {c:?}");
    assert_eq!(c.kineto_kernels, KERNELS, "Kineto got the kernels of its window: {c:?}");
    assert_eq!(c.kineto_callbacks, KERNELS, "{c:?}");
    assert_eq!(
        (c.kineto_unknown, c.kineto_get_device, c.ours_dropped, c.ours_balanced),
        (0, 0, 0, 1),
        "{c:?}"
    );
}

// ---- The child ----

static OURS_CALLBACKS: AtomicU64 = AtomicU64::new(0);

fn clock_ns(clock: libc_clock::ClockId) -> u64 {
    libc_clock::now(clock)
}

/// `clock_gettime` without a `libc` dependency.
mod libc_clock {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    pub type ClockId = i32;
    pub const REALTIME: ClockId = 0;
    pub const MONOTONIC: ClockId = 1;
    pub fn now(clock: ClockId) -> u64 {
        let mut ts = Timespec { sec: 0, nsec: 0 };
        // SAFETY: a valid clock id and out-pointer.
        assert_eq!(unsafe { clock_gettime(clock, &mut ts) }, 0);
        ts.sec as u64 * 1_000_000_000 + ts.nsec as u64
    }
}

/// Kineto's timestamp callback: CLOCK_MONOTONIC ns (ns since boot).
unsafe extern "C" fn monotonic_ns() -> u64 {
    libc_clock::now(libc_clock::MONOTONIC)
}

unsafe extern "C" fn count_callback(userdata: *mut c_void, domain: u32, cbid: u32, data: *const c_void) {
    // SAFETY: runtime API data is a CUpti_CallbackData.
    let d = unsafe { &*data.cast::<cupti_sys::CUpti_CallbackData>() };
    if domain == DOMAIN_RUNTIME_API && cbid == LAUNCH && d.callbackSite.0 == 1 {
        // SAFETY: userdata is one of the two static counters.
        unsafe { &*userdata.cast::<AtomicU64>() }.fetch_add(1, Ordering::Relaxed);
    }
}

/// The Kineto-like client of the test kit, in Kineto's order of calls; it also counts the
/// `cudaLaunchKernel` callbacks of its subscription, and registers its monotonic clock in the
/// clock scenario.
fn kineto_start() -> KinetoClient {
    let mut config = KinetoConfig::default();
    config.count_launches = true;
    if std::env::var("SHIM_TEST_CLOCK").as_deref() == Ok("1") {
        config.timestamp = Some(monotonic_ns);
    }
    let client = KinetoClient::start(config).expect("the Kineto-like client starts");
    println!("kineto: started");
    client
}

#[test]
#[ignore = "a scenario run by the tests above in a child process"]
fn child() {
    let order = std::env::var("SHIM_TEST_ORDER").expect("run by the parent tests");
    // The mock in the global scope, as a DT_NEEDED libcupti is for the program's own symbols.
    // SAFETY: the mock's initialisers are plain Rust statics.
    let lib = unsafe {
        libloading::os::unix::Library::open(
            Some(LIBRARY),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_GLOBAL,
        )
    }
    .unwrap();
    std::mem::forget(lib);
    let m: &'static MockCupti =
        Box::leak(Box::new(MockCupti::open(LIBRARY).expect("the mock libcupti's controls")));
    let cupti: &'static Cupti = Box::leak(Box::new(Cupti::open_path(LIBRARY).unwrap()));
    let config = ActivityConfig {
        kinds: [ActivityKind::CONCURRENT_KERNEL, ActivityKind::RUNTIME].into_iter().collect(),
        device_sync: DeviceSync::custom(move || {
            m.device_synchronize();
            Ok(true)
        }),
        fence_timeout: Duration::from_secs(2),
        ..ActivityConfig::default()
    };
    let sys: &'static cupti_sys::Library =
        Box::leak(Box::new(cupti_sys::Library::open(Some(std::path::Path::new(LIBRARY))).unwrap()));
    let ours_subscribe = |_: ()| {
        let mut handle: cupti_sys::CUpti_SubscriberHandle = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the callback and its counter live for the process.
        let r = unsafe {
            sys.functions().cuptiSubscribe(
                &mut handle,
                Some(std::mem::transmute::<
                    unsafe extern "C" fn(*mut c_void, u32, u32, *const c_void),
                    unsafe extern "C" fn(*mut c_void, cupti_sys::CUpti_CallbackDomain, u32, *const c_void),
                >(count_callback)),
                (&OURS_CALLBACKS as *const AtomicU64).cast_mut().cast(),
            )
        }
        .unwrap();
        if r.0 == 0 {
            // SAFETY: plain values and the handle just made.
            unsafe {
                sys.functions().cuptiEnableCallback(
                    1,
                    handle,
                    cupti_sys::CUpti_CallbackDomain(DOMAIN_RUNTIME_API),
                    LAUNCH,
                )
            }
            .unwrap();
        } else {
            println!("ours: cuptiSubscribe = {}", r.0);
        }
    };
    let session = ActivitySession::new(cupti, config).unwrap();
    let rows = session.collect(FamilySet::KERNEL | FamilySet::API);
    let real_start = clock_ns(libc_clock::REALTIME);
    let kineto = if order == "before" {
        session.start().unwrap();
        ours_subscribe(());
        // Calls and kernels before Kineto starts (and registers its clock): recorded on CUPTI's own
        // clock; the kernels' device times would be lost (0) in a buffer completed after the clock
        // changed.
        for _ in 0..3 {
            m.api_call(2, GET_DEVICE, None, 0);
        }
        if std::env::var("SHIM_TEST_CLOCK").as_deref() == Ok("1") {
            for _ in 0..PRE_KERNELS {
                m.launch_kernel(c"early", 4, 2, 1, 128, 1, 1, 0, 7, 1_000);
            }
            m.device_synchronize();
        }
        kineto_start()
    } else {
        let kineto = kineto_start();
        session.start().unwrap();
        ours_subscribe(());
        kineto
    };
    let (mono_before, real_before) = (clock_ns(libc_clock::MONOTONIC), clock_ns(libc_clock::REALTIME));
    for _ in 0..KERNELS {
        m.launch_kernel(c"gemm", 4, 2, 1, 128, 1, 1, 0, 7, 1_000);
        m.api_call(2, GET_DEVICE, None, 0);
    }
    m.device_synchronize();
    let (mono_after, real_after) = (clock_ns(libc_clock::MONOTONIC), clock_ns(libc_clock::REALTIME));
    let k = kineto.stop().expect("the Kineto-like client stops");
    let fenced = session.fence().map(|f| f.fenced).unwrap_or(false);
    let batch = rows.take();
    let kernels = batch.kernels.len();
    let ours_first = batch.kernels.start().iter().copied().min().unwrap_or(u64::MAX);
    let ours_last = batch.kernels.start().iter().copied().max().unwrap_or(0);
    let ours_api_first = batch.api_calls.start().iter().copied().min().unwrap_or(u64::MAX);
    let ours_api_last = batch.api_calls.start().iter().copied().max().unwrap_or(0);
    type UnconvertedFn = unsafe extern "C" fn(i32) -> u64;
    // SAFETY: the shim's exported function of this signature (absent without the shim); slot 1 is
    // the cupti crate's.
    let unconverted = match unsafe {
        libloading::os::unix::Library::this().get::<UnconvertedFn>(b"accelprof_cupti_shim_unconverted")
    } {
        // SAFETY: as above; a plain value.
        Ok(f) => unsafe { f(1) },
        Err(_) => 0,
    };
    let (dropped, balanced) = match session.stop() {
        Ok(counts) => (counts.dropped().by_vendor, counts.is_balanced()),
        Err(e) => {
            println!("ours: stop: {e}");
            (u64::MAX, false)
        }
    };
    m.wait_idle();
    println!(
        "COUNTS kineto_kernels={} kineto_unknown={} kineto_get_device={} kineto_callbacks={} ours_kernels={} ours_callbacks={} ours_dropped={} ours_balanced={} fenced={} kineto_first={} kineto_last={} ours_first={} ours_last={} mono_before={mono_before} mono_after={mono_after} real_before={real_before} real_after={real_after} unconverted={unconverted} ours_api_first={ours_api_first} ours_api_last={ours_api_last} real_start={real_start}",
        k.kernels,
        k.unknown_buffers,
        k.get_device_records,
        k.launch_callbacks,
        kernels,
        OURS_CALLBACKS.load(Ordering::Relaxed),
        dropped,
        u8::from(balanced),
        fenced,
        k.first_kernel_start,
        k.last_kernel_start,
        ours_first,
        ours_last,
    );
}
