//! The activity session and the decoder against the mock `libcupti` (`accelprof-mocks/libs/cupti/`),
//! opened through `cupti::Cupti` exactly as a program opens the real library and driven through its
//! `mock_cupti_*` controls (the test plays the CUDA program). The tracer built on them is tested in
//! the root package (`tests/tracer_cupti.rs`) and through the `accelprof` command.
//!
//! The mock is one per process and the activity callbacks are process-wide: every test takes the
//! [`setup`] lock, which also resets the mock.

use std::collections::{HashMap, HashSet};
use std::ffi::{CStr, CString};
use std::ops::Deref;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use accelprof_core::activity::ActivityError;
use accelprof_core::columns::{CopyKind, MemoryKind};
use accelprof_core::{Batch, FamilySet};
use accelprof_mocks::cupti::MockCupti;
use cupti::activity::{
    route_stats, unix_now_ns, ActivityApi, ActivityConfig, ActivityKind, ActivityKinds, ActivitySession,
    BufferPolicy, DeviceSync, ExternalCorrelationKind,
};
use cupti::decode::{API_DOMAIN_DRIVER, API_DOMAIN_RUNTIME};
use cupti::{Cupti, Error};

#[path = "activity/api_filter.rs"]
mod api_filter;
#[path = "activity/contexts.rs"]
mod contexts;
#[path = "activity/other_client.rs"]
mod other_client;
#[path = "activity/user_defined.rs"]
mod user_defined;

// ---------------------------------------------------------------------------------------------
// The mock and its controls.

/// The mock's controls ([`MockCupti`], reached through `Deref`) and this file's helpers.
struct Mock(MockCupti);

impl Deref for Mock {
    type Target = MockCupti;

    fn deref(&self) -> &MockCupti {
        &self.0
    }
}

static MOCK: OnceLock<Mock> = OnceLock::new();
static CUPTI: OnceLock<Cupti> = OnceLock::new();
static SERIAL: Mutex<()> = Mutex::new(());

fn path() -> &'static Path {
    Path::new(accelprof_mocks::cupti::LIBRARY)
}

fn mock() -> &'static Mock {
    MOCK.get_or_init(|| Mock(MockCupti::open(path()).expect("the mock libcupti's controls")))
}

/// The test lock, a freshly reset mock (13.0), and the process-wide `Cupti` opened on it.
fn setup() -> (MutexGuard<'static, ()>, &'static Cupti, &'static Mock) {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let m = mock();
    m.reset();
    let cupti = CUPTI.get_or_init(|| Cupti::open_path(path()).expect("the mock opens through cupti"));
    (guard, cupti, m)
}

impl Mock {
    /// `name<<<(4,2,1), (128,1,1), 0, stream>>>` lasting 1 us; its correlation id.
    fn launch(&self, name: &CStr, stream: u64) -> u32 {
        self.launch_kernel(name, 4, 2, 1, 128, 1, 1, 0, stream, 1_000)
    }

    /// Records the mock produced: written into our buffers, or dropped for want of one.
    fn produced(&self) -> u64 {
        self.stat(c"records_written") + self.stat(c"records_dropped")
    }
}

/// A session config whose `flush(true)` synchronizes the mock's device.
fn config(kinds: &[ActivityKind]) -> ActivityConfig {
    ActivityConfig {
        kinds: kinds.iter().copied().collect(),
        device_sync: DeviceSync::custom(|| {
            mock().device_synchronize();
            Ok(true)
        }),
        fence_timeout: Duration::from_secs(20),
        ..ActivityConfig::default()
    }
}

const TIMELINE: [ActivityKind; 5] = [
    ActivityKind::CONCURRENT_KERNEL,
    ActivityKind::MEMCPY,
    ActivityKind::MEMSET,
    ActivityKind::RUNTIME,
    ActivityKind::DRIVER,
];

/// `produced == delivered + dropped`, with the fence's own synchronization records apart.
fn assert_accounted(m: &Mock, counts: &cupti::activity::ActivityCounts) {
    let p = counts.pipeline;
    assert_eq!(
        m.produced(),
        p.records_delivered + p.records_dropped() + p.records_filtered + counts.vendor.decoder.fence_records,
        "every record the mock produced is delivered or counted: {counts:#?}"
    );
    assert_eq!(p.records_pending(), 0, "{counts:#?}");
    assert_eq!(p.vendor_dropped, m.stat(c"records_dropped"), "CUPTI's dropped count is surfaced");
}

// ---------------------------------------------------------------------------------------------

#[test]
fn flush_sync_delivers_every_record_issued_before_it() {
    let (_g, cupti, m) = setup();
    let session = ActivitySession::new(cupti, config(&TIMELINE)).unwrap();
    let rows = session.collect(FamilySet::all());
    session.start().unwrap();
    let mut launched = Vec::new();
    for i in 0..100u64 {
        launched.push(m.launch_kernel(c"gemm", 8, 4, 2, 256, 2, 1, 2048, 3 + i % 2, 2_000));
    }
    let copies: Vec<u32> = (0..10).map(|_| m.memcpy(0x1000, 0x2000, 4096, 1, 3, 1, 500)).collect();
    let set = m.memset(0x3000, 0x7f, 512, 3, 1, 300);
    let report = session.fence().unwrap();
    assert!(report.fenced, "{report:?}");

    let batch = rows.take();
    assert_eq!(batch.kernels.len(), 100);
    let names = session.names();
    let mut by_correlation: HashMap<u64, usize> = HashMap::new();
    for (i, c) in batch.kernels.correlation().iter().enumerate() {
        by_correlation.insert(*c, i);
    }
    for (i, corr) in launched.iter().enumerate() {
        let row = batch.kernels.row(by_correlation[&u64::from(*corr)]).unwrap();
        assert_eq!(names.resolve(row.name), "gemm");
        assert_eq!((row.grid_x, row.grid_y, row.grid_z, row.block_x, row.block_y), (8, 4, 2, 256, 2));
        assert_eq!(row.stream, 3 + i as u64 % 2);
        assert!(row.shared_memory >= 2048);
        assert!(row.end > row.start && row.end - row.start == 2_000, "{row:?}");
    }
    assert_eq!(batch.memcpys.len(), 10);
    let copy = batch.memcpys.row(0).unwrap();
    assert_eq!(copy.correlation, u64::from(copies[0]));
    assert_eq!((copy.bytes, copy.copy_kind, copy.dst_kind), (4096, CopyKind::HTOD, MemoryKind::DEVICE));
    assert_eq!(batch.memsets.correlation(), &[u64::from(set)]);
    // Each launch has its runtime call, same correlation id, named as Kineto names it.
    let calls: HashMap<u64, &str> = batch
        .api_calls
        .rows()
        .filter(|c| c.domain == API_DOMAIN_RUNTIME)
        .map(|c| (c.correlation, names.resolve(c.name)))
        .collect();
    for corr in &launched {
        assert_eq!(calls.get(&u64::from(*corr)), Some(&"cudaLaunchKernel"));
    }
    let counts = session.stop().unwrap();
    assert_accounted(m, &counts);
    assert_eq!(counts.pipeline.records_dropped(), 0);
}

#[test]
fn every_record_reaches_the_consumer_or_is_counted_under_pressure() {
    let (_g, cupti, m) = setup();
    let delivered = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&delivered);
    let session = ActivitySession::new(
        cupti,
        ActivityConfig {
            buffer_size: 4096,
            max_buffers: 2,
            policy: BufferPolicy::Lossy,
            batch_rows: 64,
            ..config(&TIMELINE)
        },
    )
    .unwrap();
    session.subscribe(FamilySet::all(), move |batch, _| {
        seen.fetch_add(batch.len() as u64, Ordering::Relaxed);
        // A slow consumer: the decode thread falls behind and CUPTI runs out of buffers.
        std::thread::sleep(Duration::from_micros(200));
    });
    session.start().unwrap();
    for i in 0..3000u64 {
        m.launch(c"small", 1 + i % 4);
        if i % 5 == 0 {
            m.memcpy(0x10, 0x20, 64, 2, 1, 1, 100);
        }
    }
    session.fence().unwrap();
    let counts = session.stop().unwrap();
    assert_accounted(m, &counts);
    assert_eq!(delivered.load(Ordering::Relaxed), counts.pipeline.records_delivered);
    assert_eq!(counts.pipeline.buffers_declined, m.stat(c"buffers_declined"));
    assert_eq!(m.stat(c"buffers_held"), 0, "CUPTI gave every buffer back");
}

/// Fills exactly one 4 KiB buffer: 16 launches of 256 bytes (runtime record 40 + kernel record 216).
fn fill_one_buffer(m: &Mock) {
    for _ in 0..16 {
        m.launch(c"fill", 1);
    }
}

/// A session whose decode thread blocks in its consumer once `gate` is set, until released.
fn blocking_session<'a>(
    cupti: &'a Cupti,
    policy: BufferPolicy,
) -> (ActivitySession<'a>, mpsc::Receiver<()>, mpsc::Sender<()>) {
    let session = ActivitySession::new(
        cupti,
        ActivityConfig {
            kinds: [ActivityKind::CONCURRENT_KERNEL, ActivityKind::RUNTIME].into_iter().collect(),
            buffer_size: 4096,
            max_buffers: 2,
            policy,
            batch_rows: 1,
            // The consumer blocks until released: a lossless request gives up waiting soon.
            stall_timeout: Duration::from_millis(100),
            ..config(&[])
        },
    )
    .unwrap();
    let (entered_tx, entered) = mpsc::channel();
    let (release, release_rx) = mpsc::channel::<()>();
    let release_rx = Mutex::new(Some(release_rx));
    session.subscribe(FamilySet::all(), move |_, _| {
        if let Some(rx) = release_rx.lock().unwrap().take() {
            let _ = entered_tx.send(());
            let _ = rx.recv();
        }
    });
    session.start().unwrap();
    (session, entered, release)
}

#[test]
fn declined_buffers_are_counted_and_what_cupti_dropped_is_surfaced() {
    let (_g, cupti, m) = setup();
    let (session, entered, release) = blocking_session(cupti, BufferPolicy::Lossy);
    // Buffer 1 fills and is handed back; the decode thread decodes it (back to the pool) and blocks.
    fill_one_buffer(m);
    m.launch(c"next", 1);
    entered.recv_timeout(Duration::from_secs(10)).expect("the decode thread reached the consumer");
    // Buffer 2 fills and waits at the blocked decode thread; buffer 1 (recycled) fills and needs a third:
    // the pool is at its bound, the request is declined and CUPTI drops records.
    fill_one_buffer(m);
    fill_one_buffer(m);
    for _ in 0..20 {
        m.launch(c"dropped", 1);
    }
    let declined = m.stat(c"buffers_declined");
    assert!(declined > 0 && m.stat(c"records_dropped") > 0);
    release.send(()).unwrap();
    session.fence().unwrap();
    // The fence's own records may have met the pool still empty too: every decline is counted, ours and
    // the mock's alike.
    let counts = session.counts();
    let declined_now = m.stat(c"buffers_declined");
    assert!(declined_now >= declined);
    assert_eq!(counts.pipeline.buffers_declined, declined_now, "{counts:#?}");
    assert_eq!(counts.pool.declined, declined_now);
    assert_eq!(counts.overflow_buffers, 0);
    let counts = session.stop().unwrap();
    assert!(counts.pipeline.vendor_dropped > 0);
    assert_accounted(m, &counts);
}

#[test]
fn the_lossless_policy_hands_out_extra_buffers_instead_of_dropping() {
    let (_g, cupti, m) = setup();
    let (session, entered, release) = blocking_session(cupti, BufferPolicy::Lossless { max_overflow: 4 });
    fill_one_buffer(m);
    m.launch(c"next", 1);
    entered.recv_timeout(Duration::from_secs(10)).unwrap();
    fill_one_buffer(m);
    fill_one_buffer(m);
    for _ in 0..20 {
        m.launch(c"kept", 1);
    }
    assert_eq!(m.stat(c"buffers_declined"), 0);
    assert_eq!(m.stat(c"records_dropped"), 0);
    release.send(()).unwrap();
    session.fence().unwrap();
    let counts = session.stop().unwrap();
    assert!(counts.overflow_buffers >= 1, "{counts:#?}");
    assert_eq!(counts.pipeline.records_dropped(), 0);
    assert_accounted(m, &counts);
    // 16 * 3 + 21 launches, two records each, plus the fences' synchronize calls.
    assert!(counts.pipeline.records_delivered >= 2 * (48 + 21));
}

#[test]
fn no_forced_flush_during_collection_in_flight_kernels_keep_their_end() {
    let (_g, cupti, m) = setup();
    let session = ActivitySession::new(cupti, config(&TIMELINE)).unwrap();
    let rows = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    let slow = m.launch_kernel_in_flight(c"long_running", 1, 1, 1, 32, 1, 1, 0, 5);
    for _ in 0..10 {
        m.launch(c"quick", 6);
    }
    // A plain flush leaves the buffer holding the running kernel with CUPTI.
    session.flush().unwrap();
    assert_eq!(rows.take().kernels.len(), 0, "nothing was forced out");
    assert_eq!(m.complete_kernel(slow, 7_000), 0, "the record was still CUPTI's to patch, not handed out");
    session.flush().unwrap();
    let batch = rows.take();
    assert_eq!(batch.kernels.len(), 11);
    let i = batch.kernels.correlation().iter().position(|c| *c == u64::from(slow)).unwrap();
    let row = batch.kernels.row(i).unwrap();
    assert_eq!(row.end - row.start, 7_000, "the running kernel kept its real end");

    // flush(true) synchronizes the device, which ends the running kernel: delivered with its end.
    let second = m.launch_kernel_in_flight(c"long_running", 1, 1, 1, 32, 1, 1, 0, 5);
    assert!(session.fence().unwrap().fenced);
    let batch = rows.take();
    let i = batch.kernels.correlation().iter().position(|c| *c == u64::from(second)).unwrap();
    assert!(batch.kernels.end()[i] > batch.kernels.start()[i]);
    assert_eq!(m.stat(c"records_lost_after_forced_flush"), 0);
    session.stop().unwrap();
    assert_eq!(m.stat(c"records_lost_after_forced_flush"), 0);
}

#[test]
fn only_the_end_of_a_session_forces_a_flush_and_every_buffer_comes_back() {
    let (_g, cupti, m) = setup();
    let before = route_stats();
    let session =
        ActivitySession::new(cupti, ActivityConfig { device_sync: DeviceSync::Skip, ..config(&TIMELINE) })
            .unwrap();
    let rows = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    let stuck = m.launch_kernel_in_flight(c"never_ends", 1, 1, 1, 32, 1, 1, 0, 5);
    let report = session.fence().unwrap();
    assert!(!report.fenced, "no device synchronization: nothing to fence on");
    assert_eq!(rows.take().kernels.len(), 0);
    assert_eq!(session.counts().buffers_held_by_vendor, 1);
    let counts = session.stop().unwrap();
    // The final forced flush returned the buffer (and the running kernel, with end = 0).
    assert_eq!(m.stat(c"buffers_held"), 0);
    assert_eq!(counts.buffers_held_by_vendor, 0);
    let batch = rows.take();
    assert_eq!(batch.kernels.correlation(), &[u64::from(stuck)]);
    assert_eq!(batch.kernels.end()[0], 0);
    assert_eq!(m.complete_kernel(stuck, 1_000), 1, "lost to the final forced flush, as documented");
    assert_eq!(route_stats().foreign_buffers, before.foreign_buffers);
    // The route is gone: a new session can start.
    let again = ActivitySession::new(cupti, config(&TIMELINE)).unwrap();
    drop(again);
}

#[test]
fn layouts_of_cupti_12_and_13_both_decode() {
    let (_g, _, m) = setup();
    let kernel12 = std::mem::size_of::<cupti::sys::v13_5::CUpti_ActivityKernel12>();
    let kernel13 = std::mem::size_of::<cupti::sys::v13_5::CUpti_ActivityKernel13>();
    for (version, kernel_size) in
        [(28u32, 208usize), (130001, 216), (130200, 224), (130301, kernel12), (130500, kernel13)]
    {
        m.reset();
        m.set_version(version);
        let cupti = Cupti::open_path(path()).unwrap();
        assert_eq!(cupti.api_version(), version);
        // Fixed layouts on every release (from 13.3 the session would take user-defined records).
        let session =
            ActivitySession::new(&cupti, ActivityConfig { api: ActivityApi::V1, ..config(&TIMELINE) })
                .unwrap();
        assert!(!session.uses_user_defined_records());
        assert_eq!(session.layouts().size_of(ActivityKind::CONCURRENT_KERNEL.0), Some(kernel_size));
        let rows = session.collect(FamilySet::all());
        session.start().unwrap();
        let name = CString::new(format!("kernel_v{version}")).unwrap();
        let k = m.launch_kernel(&name, 2, 3, 4, 32, 4, 1, 1024, 9, 3_000);
        let d = m.launch_kernel_driver(&name, 1, 1, 1, 64, 1, 1, 0, 9, 1_000);
        let c = m.memcpy(0x1, 0x2, 8192, 2, 9, 1, 1_000);
        let s = m.memset(0x3, 1, 256, 9, 1, 500);
        session.fence().unwrap();
        let batch = rows.take();
        let names = session.names();
        let row = batch.kernels.row(0).unwrap();
        assert_eq!(row.correlation, u64::from(k), "version {version}");
        assert_eq!(names.resolve(row.name), name.to_str().unwrap());
        assert_eq!((row.grid_x, row.grid_y, row.grid_z), (2, 3, 4));
        assert_eq!((row.block_x, row.block_y, row.block_z), (32, 4, 1));
        assert_eq!((row.stream, row.end - row.start), (9, 3_000));
        assert!(row.shared_memory >= 1024);
        assert_eq!(batch.kernels.correlation()[1], u64::from(d));
        let copy = batch.memcpys.row(0).unwrap();
        assert_eq!((copy.correlation, copy.bytes, copy.copy_kind), (u64::from(c), 8192, CopyKind::DTOH));
        assert_eq!(batch.memsets.row(0).unwrap().correlation, u64::from(s));
        let driver = batch.api_calls.rows().find(|a| a.correlation == u64::from(d)).unwrap();
        assert_eq!((driver.domain, names.resolve(driver.name)), (API_DOMAIN_DRIVER, "cuLaunchKernel"));
        let counts = session.stop().unwrap();
        assert_eq!(counts.pipeline.skipped_unknown, 0, "version {version}: {counts:#?}");
        assert_eq!(
            (counts.vendor.decoder.truncated_buffers, counts.vendor.decoder.stride_corrections),
            (0, 0)
        );
        assert_accounted(m, &counts);
    }
    m.reset();
}

#[test]
fn concurrent_producers_lose_nothing() {
    let (_g, cupti, m) = setup();
    let session = ActivitySession::new(
        cupti,
        ActivityConfig { buffer_size: 64 << 10, max_buffers: 4, ..config(&TIMELINE) },
    )
    .unwrap();
    let rows = session.collect(FamilySet::all());
    session.start().unwrap();
    let threads: Vec<_> = (0..4u64)
        .map(|t| {
            std::thread::spawn(move || {
                let m = mock();
                let mut ids = Vec::new();
                for i in 0..500 {
                    ids.push(m.launch(c"worker_kernel", 10 + t));
                    if i % 5 == 0 {
                        ids.push(m.memcpy(0x1, 0x2, 128, 3, 10 + t, 1, 200));
                    }
                }
                ids
            })
        })
        .collect();
    let ids: Vec<u32> = threads.into_iter().flat_map(|t| t.join().unwrap()).collect();
    session.fence().unwrap();
    let batch = rows.take();
    assert_eq!(batch.kernels.len(), 2000);
    assert_eq!(batch.memcpys.len(), 400);
    let gpu: HashSet<u64> =
        batch.kernels.correlation().iter().chain(batch.memcpys.correlation()).copied().collect();
    assert_eq!(gpu.len(), 2400, "correlation ids are distinct");
    assert!(ids.iter().all(|id| gpu.contains(&u64::from(*id))));
    let threads: HashSet<u64> = batch.api_calls.thread().iter().copied().collect();
    assert!(threads.len() >= 4);
    let counts = session.stop().unwrap();
    assert_accounted(m, &counts);
    assert_eq!(counts.pipeline.records_dropped(), 0);
}

#[test]
fn external_correlation_ids_are_per_thread_and_linked() {
    let (_g, cupti, m) = setup();
    let kinds = [ActivityKind::CONCURRENT_KERNEL, ActivityKind::RUNTIME, ActivityKind::EXTERNAL_CORRELATION];
    let session = ActivitySession::new(cupti, config(&kinds)).unwrap();
    let rows = session.collect(FamilySet::all());
    session.start().unwrap();
    let outside = m.launch(c"untagged", 1);
    let a = {
        let scope = cupti.external_correlation(ExternalCorrelationKind::CUSTOM0, 42).unwrap();
        assert_eq!(scope.id(), 42);
        m.launch(c"op_a", 1)
    };
    let b = std::thread::spawn(move || {
        let cupti = CUPTI.get().unwrap();
        cupti.push_external_correlation(ExternalCorrelationKind::CUSTOM1, 7).unwrap();
        let corr = mock().launch(c"op_b", 2);
        assert_eq!(cupti.pop_external_correlation(ExternalCorrelationKind::CUSTOM1).unwrap(), Some(7));
        corr
    })
    .join()
    .unwrap();
    let empty = cupti.pop_external_correlation(ExternalCorrelationKind::CUSTOM0);
    assert!(matches!(empty, Ok(None)), "the empty stack pops None: {empty:?}");
    session.fence().unwrap();
    let batch = rows.take();
    let links: Vec<(u32, u64, u64)> =
        batch.external_correlations.rows().map(|r| (r.external_kind, r.external_id, r.correlation)).collect();
    assert!(links.contains(&(ExternalCorrelationKind::CUSTOM0.0, 42, u64::from(a))), "{links:?}");
    assert!(links.contains(&(ExternalCorrelationKind::CUSTOM1.0, 7, u64::from(b))), "{links:?}");
    assert!(!links.iter().any(|l| l.2 == u64::from(outside)));
    assert_eq!(links.len(), 2, "only the tagged calls: {links:?}");
    session.stop().unwrap();
}

#[test]
fn one_session_per_process() {
    let (_g, cupti, _) = setup();
    let first = ActivitySession::new(cupti, config(&TIMELINE)).unwrap();
    let second = ActivitySession::new(cupti, config(&TIMELINE));
    assert!(matches!(second, Err(Error::Activity(ActivityError::SessionActive { .. }))), "{second:?}");
    drop(first);
    ActivitySession::new(cupti, config(&TIMELINE)).unwrap().stop().unwrap();
}

#[test]
fn timestamps_are_unix_nanoseconds() {
    let (_g, cupti, m) = setup();
    let session = ActivitySession::new(cupti, config(&TIMELINE)).unwrap();
    let clock = session.clock();
    assert!(clock.is_realtime, "{clock:?}");
    let rows = session.collect(FamilySet::KERNEL | FamilySet::API);
    session.start().unwrap();
    let before = unix_now_ns();
    m.launch(c"timed", 1);
    session.fence().unwrap();
    let after = unix_now_ns();
    let batch = rows.take();
    let start = clock.to_unix_ns(batch.kernels.start()[0]);
    let call = clock.to_unix_ns(batch.api_calls.start()[0]);
    assert!((before..=after).contains(&call), "{before} <= {call} <= {after}");
    assert!(start >= call && start <= after + 1_000_000, "kernel start {start}, call {call}, after {after}");
    // API records carry the system thread id (gettid), as PyTorch's profiler records them.
    let tid: u64 = std::fs::read_link("/proc/thread-self")
        .ok()
        .and_then(|p| p.file_name()?.to_str()?.parse().ok())
        .expect("/proc/thread-self names the thread");
    assert_eq!(batch.api_calls.thread()[0], tid);
    session.stop().unwrap();
}

#[test]
fn periodic_flush_delivers_without_being_asked() {
    let (_g, cupti, m) = setup();
    let session = ActivitySession::new(
        cupti,
        ActivityConfig { flush_period: Some(Duration::from_millis(5)), ..config(&TIMELINE) },
    )
    .unwrap();
    let rows = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    for _ in 0..10 {
        m.launch(c"periodic", 1);
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut kernels = 0;
    while kernels < 10 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
        kernels += rows.take().kernels.len();
    }
    assert_eq!(kernels, 10);
    session.stop().unwrap();
}

#[test]
fn markers_and_memory_records() {
    let (_g, cupti, m) = setup();
    let kinds = [ActivityKind::MARKER, ActivityKind::MEMORY, ActivityKind::RUNTIME];
    let session = ActivitySession::new(cupti, config(&kinds)).unwrap();
    let rows = session.collect(FamilySet::MARKER | FamilySet::MEMORY);
    session.start().unwrap();
    let range = m.marker_start(c"forward", Some(c"my_domain"));
    m.marker_instant(c"checkpoint", None);
    m.marker_end(range);
    let mut address = 0;
    m.malloc(1 << 20, &mut address);
    m.free(address);
    session.fence().unwrap();
    let batch = rows.take();
    let names = session.names();
    assert_eq!(batch.markers.len(), 2);
    let forward = batch.markers.rows().find(|r| names.resolve(r.name) == "forward").unwrap();
    assert!(forward.end >= forward.start);
    assert_eq!(names.resolve(forward.domain), "my_domain");
    let instant = batch.markers.rows().find(|r| names.resolve(r.name) == "checkpoint").unwrap();
    assert_eq!(instant.start, instant.end);
    assert_eq!(batch.memory.len(), 2);
    assert!(batch.memory.address().iter().all(|a| *a == address));
    assert_eq!(batch.memory.bytes()[0], 1 << 20);
    let counts = session.stop().unwrap();
    assert_eq!(counts.vendor.decoder.open_ranges, 0);
}

#[test]
fn without_a_driver_starting_fails_with_a_clear_error() {
    let (_g, cupti, m) = setup();
    m.set_driver_present(0);
    let session = ActivitySession::new(cupti, config(&TIMELINE)).unwrap();
    let err = session.start().unwrap_err();
    assert!(err.is_no_driver(), "{err}");
    assert!(err.to_string().contains("cuptiActivityEnable"), "{err}");
    drop(session);
    m.set_driver_present(1);
}

/// Keeps `Batch` in the imports used (the collected rows are batches).
#[allow(dead_code)]
fn _rows_are_batches(b: Batch) -> usize {
    b.len()
}

/// Kinds parse from their short names (`ActivityKind::short_name`), comma-separated.
#[test]
fn kinds_parse_from_the_environment_format() {
    let kinds = ActivityKinds::parse("concurrent_kernel,memcpy,runtime").unwrap();
    assert_eq!(kinds.families(), FamilySet::KERNEL | FamilySet::MEMCPY | FamilySet::API);
}

/// A consumer that calls `flush(true)` while another thread is in `flush(true)` gets a typed refusal at
/// once: the decode thread is the one the other fence waits for, so waiting there would hang both.
#[test]
fn flush_from_a_consumer_during_another_threads_fence_is_refused_not_a_deadlock() {
    let (_g, cupti, m) = setup();
    let session = Arc::new(ActivitySession::new(cupti, config(&TIMELINE)).unwrap());
    let slot: Arc<Mutex<Option<Arc<ActivitySession<'static>>>>> = Arc::new(Mutex::new(None));
    let (inner_tx, inner) = mpsc::channel();
    let inner_slot = Arc::clone(&slot);
    session.subscribe(FamilySet::all(), move |_, _| {
        let session = inner_slot.lock().unwrap().clone();
        if let Some(session) = session {
            let _ = inner_tx.send(session.fence().map(|_| ()));
        }
    });
    *slot.lock().unwrap() = Some(Arc::clone(&session));
    session.start().unwrap();
    m.launch(c"k", 1);
    let outer = Arc::clone(&session);
    let (done_tx, done) = mpsc::channel();
    let other = std::thread::spawn(move || {
        let _ = done_tx.send(outer.fence().map(|r| r.fenced));
    });
    let inner = inner.recv_timeout(Duration::from_secs(10)).expect("the consumer's flush returned");
    assert!(matches!(inner, Err(Error::Activity(ActivityError::OnDecodeThread { .. }))), "{inner:?}");
    let outer = done.recv_timeout(Duration::from_secs(10)).expect("the other thread's fence returned");
    assert!(outer.unwrap(), "the other thread's fence completed");
    other.join().unwrap();
    slot.lock().unwrap().take();
    let session = Arc::try_unwrap(session).expect("the only owner left");
    let counts = session.stop().unwrap();
    assert_accounted(m, &counts);
}

/// Under the lossless policy an overflow buffer counts against `max_overflow` until the decode thread
/// has given it back, not only while CUPTI holds it: a decode thread that falls behind makes requests
/// past the bound declined (and counted) instead of piling up buffers without bound.
#[test]
fn overflow_buffers_are_bounded_while_the_decode_thread_is_behind() {
    let (_g, cupti, m) = setup();
    let (session, entered, release) = blocking_session(cupti, BufferPolicy::Lossless { max_overflow: 2 });
    fill_one_buffer(m);
    m.launch(c"next", 1);
    entered.recv_timeout(Duration::from_secs(10)).expect("the decode thread reached the consumer");
    for _ in 0..10 {
        fill_one_buffer(m);
    }
    let counts = session.counts();
    assert!(counts.overflow_buffers <= 2, "at most max_overflow extra buffers at once: {counts:#?}");
    assert!(m.stat(c"buffers_declined") > 0, "past the bound the requests are declined");
    release.send(()).unwrap();
    session.fence().unwrap();
    let counts = session.stop().unwrap();
    assert!(counts.pipeline.vendor_dropped > 0);
    assert_accounted(m, &counts);
}

/// A fast producer against a slow consumer: under the lossless policy every record is delivered (the
/// producing thread waits for the decode thread once the pool and its overflow are out); before, requests
/// past the overflow buffers were declined and CUPTI dropped their records (42.6 % of 6 M on a long run).
#[test]
fn lossless_delivers_every_record_to_a_slow_consumer() {
    let (_g, cupti, m) = setup();
    let session = ActivitySession::new(
        cupti,
        ActivityConfig {
            kinds: [ActivityKind::CONCURRENT_KERNEL, ActivityKind::RUNTIME].into_iter().collect(),
            buffer_size: 4096,
            max_buffers: 2,
            policy: BufferPolicy::Lossless { max_overflow: 1 },
            batch_rows: 16,
            ..config(&[])
        },
    )
    .unwrap();
    let delivered = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&delivered);
    session.subscribe(FamilySet::all(), move |batch, _| {
        seen.fetch_add(batch.len() as u64, Ordering::Relaxed);
        std::thread::sleep(Duration::from_micros(500));
    });
    session.start().unwrap();
    let launches = 4000u64;
    for _ in 0..launches {
        m.launch(c"fast", 1);
    }
    session.fence().unwrap();
    let counts = session.stop().unwrap();
    assert_eq!(m.stat(c"buffers_declined"), 0, "{counts:#?}");
    assert_eq!(counts.pipeline.records_dropped(), 0, "{counts:#?}");
    assert!(delivered.load(Ordering::Relaxed) >= 2 * launches, "{counts:#?}");
    assert_accounted(m, &counts);
}

/// Issue 14: a session asked for a buffer or a bound past the pool's limits gets a typed error back
/// (it used to overflow a multiplication or abort on allocation). (Ported from cupti-trace's tests.)
#[test]
fn sizes_past_the_pools_limits_are_an_error_from_the_session_not_an_abort() {
    let (_g, cupti, _m) = setup();
    for (buffer_size, max_buffers) in [(1usize << 50, 16), (usize::MAX, 16), (4 << 20, 1 << 40)] {
        let config = ActivityConfig { buffer_size, max_buffers, ..Default::default() };
        let err = ActivitySession::new(cupti, config).unwrap_err();
        assert!(err.to_string().contains("above the pool's limit"), "{err}");
    }
    // And the session can be made afterwards (nothing was left half set up).
    let session = ActivitySession::new(cupti, ActivityConfig::default()).unwrap();
    drop(session);
}

/// A buffer too small for CUPTI's records (0, 1 byte, ...) is refused when the session is made: it
/// used to be accepted, and every record was then dropped (counted, so the tool saw nothing at all).
#[test]
fn a_buffer_too_small_for_a_record_is_an_error_from_the_session() {
    let (_g, cupti, _m) = setup();
    for buffer_size in [0, 1, 8, 511] {
        let config = ActivityConfig { buffer_size, ..Default::default() };
        let err = ActivitySession::new(cupti, config).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(&format!("{buffer_size} bytes is below the pool's minimum of 512")), "{text}");
    }
    let session =
        ActivitySession::new(cupti, ActivityConfig { buffer_size: 512, ..Default::default() }).unwrap();
    drop(session);
}

/// An empty selection is an error, as on every vendor: a session with no kind refuses to start
/// (nothing is enabled in CUPTI); the default selection is the timeline.
#[test]
fn a_session_with_no_kind_refuses_to_start() {
    let (_g, cupti, _mock) = setup();
    let session = ActivitySession::new(cupti, config(&[])).unwrap();
    let err = session.start().expect_err("no kind selected");
    assert!(matches!(err, Error::Activity(ActivityError::NoKinds)), "{err}");
    assert!(!session.is_collecting());
    session.end();
    assert!(ActivityConfig::default().kinds == ActivityKinds::timeline(), "the default is the timeline");
}
