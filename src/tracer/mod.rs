//! The vendor-neutral tracer: [`Tracer`], its [`TracerConfig`], and what it hands back.
//!
//! # The way of a record
//!
//! ```text
//! vendor library -> the vendor crate's activity session (pooled buffers, decoded off the vendor's threads)
//!               -> column batches (accelprof_core::Batch, one schema for every vendor)
//!               -> the tracer's consumer: each output's TraceSink, the kernel summary, the row counts
//!               -> the subscribers of Tracer::subscribe (by FamilySet)
//! ```
//!
//! # Families and each vendor's kinds
//!
//! [`TracerConfig::families`] picks what is collected; each family maps to the vendor's kinds
//! (a family a vendor has no record for is listed in [`Tracer::skipped`] with the reason):
//!
//! | family | CUPTI | MSPTI | rocprofiler-sdk |
//! | --- | --- | --- | --- |
//! | kernels | `CONCURRENT_KERNEL` | `KERNEL` | `KERNEL_DISPATCH` |
//! | copies | `MEMCPY` | `MEMCPY` (preloaded) | `MEMORY_COPY` |
//! | sets | `MEMSET` | `MEMSET` (preloaded) | none |
//! | API calls | `RUNTIME`, `DRIVER` | `ACL_API`, `API`, `NODE_API`, `RUNTIME_API` | `HIP_RUNTIME_API`, `RCCL_API` |
//! | markers | `MARKER` (NVTX) | `MARKER` (MSTX) | `MARKER_CORE_API` (roctx) |
//! | collectives | none (NCCL kernels are kernels) | `HCCL` (preloaded), `COMMUNICATION` | none (RCCL calls are API rows) |
//! | memory | `MEMORY2` | `MEMORY` (preloaded) | none |
//! | synchronizations | `SYNCHRONIZATION` | none | none |
//! | external correlations | `EXTERNAL_CORRELATION` | `EXTERNAL_CORRELATION` | none |
//!
//! "Preloaded": MSPTI writes these only when `libmspti.so` was in `LD_PRELOAD` when the program
//! started ([`Tracer::prepare_process`]). MSPTI writes API, kernel and marker records only while a
//! subscriber exists: the tracer holds one (MSPTI allows one per process).
//!
//! # Columns
//!
//! Every column of [`accelprof_core::columns`] means the same for the three vendors (times in ns on
//! the vendor's clock, mapped to Unix time by [`Tracer::time_map`]; `device` the GPU/NPU ordinal;
//! `stream` the stream or queue; `correlation` links a call to the work it launched). These hold the
//! vendor's own values, named for what they are:
//!
//! | column | CUPTI | MSPTI | rocprofiler-sdk |
//! | --- | --- | --- | --- |
//! | `ApiRow::domain` | callback domain (1 driver, 2 runtime) | activity kind (3 API, 10 ACL_API, ...) | buffer tracing kind |
//! | `ApiRow::cbid` | callback id | 0 | operation |
//! | `KernelRow::context` | CUDA context id | 0 | 0 |
//! | `MarkerRow::flags` | `CUpti_ActivityFlag` | `msptiActivityFlag` | 0 |
//! | `CollectiveRow::data_type` | (none) | `HcclDataType` | (none) |
//!
//! [`Tracer::api_domain_name`] names a `domain` (`cuda_runtime`, `acl_api`, `hip_runtime_api`).

mod backend;
#[cfg(feature = "columns")]
mod columns;
mod config;
pub(crate) mod counts;
mod devices;
mod distributed;
mod env;
mod error;
mod external;
mod finish;
mod info;
mod output;
mod report;
mod signals;
mod sinks;
mod vendor;
mod window;

use std::borrow::Cow;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use accelprof_core::pipeline::ConsumerId;
use accelprof_core::{Batch, FamilySet, Names};
use accelprof_export::trace::{cuda_driver_version, host_name, RunMeta, TimeMap};

use backend::{Backend, Located};
use window::Window;

pub use accelprof_export::summary::{KernelStat, KernelSummary};
pub use config::{BufferPolicy, CaptureRange, Synchronize, SynchronizeFn, TracerConfig};
pub use counts::TracerCounts;
pub(crate) use distributed::substitute;
pub use distributed::{Distributed, MAX_RANK};
pub use env::{parse_duration, parse_families, parse_signal, DEFAULT_OUTPUT};
pub use error::{TracerError, VendorAttempt, VendorError};
pub use external::ExternalIds;
pub use info::{LibraryInfo, Skipped};
pub use output::{FileSinkFn, Format, Output, SinkFn};
pub use report::TracerReport;
pub use signals::signal_name;
pub use sinks::TraceOutcome;
pub use vendor::Vendor;

/// A tool library's door for rocprofiler-sdk: the tracer's setup inside the SDK's configure window
/// (see [`setup_in_configure_window`]).
#[cfg(feature = "rocprofiler")]
pub use backend::setup_in_configure_window;

/// `CLOCK_REALTIME` in ns.
pub(crate) fn unix_now_ns() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// Records of the vendor library the machine has, as shared column batches, to trace files and
/// subscribers.
///
/// ```no_run
/// use accel_profiling::{Tracer, TracerConfig};
///
/// let tracer = Tracer::new(TracerConfig { outputs: vec!["trace.json".into()], ..Default::default() })?;
/// tracer.start()?;
/// // ... work on the GPU/NPU ...
/// let report = tracer.stop();
/// print!("{}", report.render(15));
/// # Ok::<(), accel_profiling::TracerError>(())
/// ```
///
/// [`new`](Self::new) finds the library and sets up the collection (nothing is collected yet, so
/// consumers [subscribed](Self::subscribe) before [`start`](Self::start) see every record);
/// [`flush`](Self::flush) hands over everything collected so far (the files are whole traces up to
/// there); [`stop`](Self::stop) ends it and returns the [`TracerReport`]. Dropping a tracer stops it
/// too (the files are finished; the report is lost).
///
/// One tracer at a time per process: every vendor's activity records are process-wide (a second
/// one is the vendor crate's "session already running" error).
pub struct Tracer {
    inner: Arc<Inner>,
}

/// What the tracer's own threads (the window's timer, the signal thread) share with it.
pub(crate) struct Inner {
    /// Never held while waiting for the decode thread (a consumer there may call the tracer).
    backend: Mutex<Option<Box<dyn Backend>>>,
    /// The backend's flush, called without the lock above.
    flusher: backend::Flusher,
    /// The outputs are being (or were) finished before `stop`: `start` does nothing.
    finishing: AtomicBool,
    collected: sinks::Shared,
    info: LibraryInfo,
    distributed: Distributed,
    names: Names,
    time_map: TimeMap,
    summary_top: usize,
    partials: Vec<PathBuf>,
    window: Arc<Window>,
    /// When collection waits after `start` (a delay or a capture range), and for how long it runs.
    delay: std::time::Duration,
    duration: Option<std::time::Duration>,
    capture_range: CaptureRange,
    /// What the vendor's capture-range observer holds (a CUPTI subscriber), until the end.
    range_guard: Mutex<Option<Box<dyn Send>>>,
    /// The signal handling's hold on this tracer (the handlers act on it while it lives).
    signal_target: Mutex<Option<Arc<signals::Target>>>,
    /// The terminating signals that finish this tracer's outputs, and its toggle signal, as installed.
    signals: Mutex<(Vec<i32>, Option<i32>)>,
    /// Where the end goes besides the outputs: the summary JSON, stderr, the launcher.
    end_options: finish::EndOptions,
    /// The report of outputs finished before `stop` (the duration's end, a signal).
    early: Mutex<Option<TracerReport>>,
}

impl fmt::Debug for Tracer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tracer")
            .field("library", &self.inner.info)
            .field("distributed", &self.inner.distributed)
            .field("partials", &self.inner.partials)
            .field("collecting", &self.inner.window.is_collecting())
            .finish_non_exhaustive()
    }
}

/// The library `config` names, or the first the search finds.
fn find(config: &TracerConfig) -> Result<Located, TracerError> {
    if config.library.is_some() && config.vendor == Vendor::Auto {
        return Err(TracerError::Config(
            "TracerConfig::library names a file: say whose library it is (TracerConfig::vendor)".into(),
        ));
    }
    if config.vendor != Vendor::Auto {
        if !config.vendor.is_built() {
            return Err(TracerError::NotBuilt(config.vendor));
        }
        return backend::locate(config.vendor, config.library.as_deref())
            .map_err(|a| TracerError::NotFound { attempts: vec![a] });
    }
    let mut attempts = Vec::new();
    for vendor in Vendor::SEARCH_ORDER {
        if !vendor.is_built() {
            attempts.push(VendorAttempt::not_built(vendor));
            continue;
        }
        match backend::locate(vendor, None) {
            Ok(located) => return Ok(located),
            Err(attempt) => attempts.push(attempt),
        }
    }
    Err(TracerError::NotFound { attempts })
}

impl Tracer {
    /// Finds the library (see [`Vendor::Auto`]), sets up its collection of
    /// [`TracerConfig::families`] and creates the outputs. Nothing is collected until
    /// [`start`](Self::start).
    ///
    /// Errors: [`TracerError::NotFound`] (every vendor's search, with what it tried),
    /// [`TracerError::NotBuilt`], [`TracerError::Config`] (a rank that cannot be, a file every rank
    /// would write, a toggle signal that cannot toggle, or not in this process: another is its toggle
    /// signal already, or an earlier tracer ends the trace on it), [`TracerError::UnknownFormat`], [`TracerError::Output`]
    /// (a file that cannot be created; a name longer than the 255 bytes a file name may have, `%p` and
    /// `%r` replaced),
    /// [`TracerError::Unsupported`] (a capture range the vendor cannot observe), and
    /// [`TracerError::Vendor`] when the vendor refuses the setup (another session running, ...).
    pub fn new(config: TracerConfig) -> Result<Tracer, TracerError> {
        let launcher_report = config.launcher_report.clone();
        Tracer::set_up(config).inspect_err(|e| {
            // Under the launcher, which says why the run has no trace (once: a front door says only that
            // tracing did not start). Not told, it is said here.
            if let Some(dir) = &launcher_report {
                let line = crate::launcher::Line::StartFailed(e.to_string());
                if let Err(io) = crate::launcher::tell(dir, &line) {
                    finish::say(&format!(
                        "could not tell the launcher ({}): {io}; tracing did not start: {e}",
                        dir.display()
                    ));
                }
            }
        })
    }

    fn set_up(config: TracerConfig) -> Result<Tracer, TracerError> {
        if let Some(signal) = config.toggle_signal.filter(|s| !env::is_toggle_signal(*s)) {
            return Err(TracerError::Config(format!(
                "TracerConfig::toggle_signal is {}: {}",
                signals::signal_name(signal),
                env::TOGGLE_SIGNALS
            )));
        }
        signals::check_toggle(config.toggle_signal).map_err(TracerError::Config)?;
        let distributed = match config.distributed {
            Some(d) => d,
            None => Distributed::from_env()?,
        };
        distributed.check()?;
        let located = find(&config)?;
        let backend = backend::build(located, &config)?;
        let info = backend.library().clone();
        let style = backend.trace_style();
        let mut metadata = vec![("library".to_owned(), info.path.display().to_string().into())];
        if let Some(local) = distributed.local_rank {
            metadata.push(("local_rank".to_owned(), local.into()));
        }
        metadata.extend(style.metadata);
        let mut library_versions = vec![(info.vendor.name().to_owned(), info.version.clone())];
        if info.vendor == Vendor::Cupti {
            library_versions.extend(cuda_driver_version().map(|v| ("cuda_driver".to_owned(), v)));
        }
        let mut late_devices = devices::LateDevices::new(info.vendor, &style.devices);
        let meta = RunMeta {
            start_unix_ns: unix_now_ns(),
            rank: distributed.rank,
            world_size: distributed.world_size,
            backend: distributed.is_distributed().then(|| style.comm_backend.to_owned()),
            device_properties: style.devices,
            trace_name: Some(config.trace_name.clone().unwrap_or_else(|| "accel-profiling".to_owned())),
            extra: metadata,
            host: host_name(),
            vendor: info.vendor.name().to_owned(),
            library_versions,
            ..RunMeta::default()
        };
        let window = Window::new(backend.switch());
        let range_guard = match config.capture_range {
            CaptureRange::None => None,
            range => {
                let w = Arc::clone(&window);
                backend.follow_capture_range(
                    range,
                    Box::new(move |on| {
                        if on {
                            w.resume();
                        } else {
                            w.pause();
                        }
                    }),
                )?
            }
        };
        let end_options = finish::EndOptions::new(&config, &distributed)?;
        let collected = sinks::create(
            &config.outputs,
            &config.formats,
            &distributed,
            &meta,
            &sinks::process_label(),
            end_options.launcher_report.as_deref(),
        )?;
        let partials = sinks::lock(&collected).partial_paths();
        for (partial, output) in sinks::lock(&collected).files() {
            end_options.tell(&crate::launcher::Line::Start { partial, output });
        }
        let time_map = backend.time_map();
        let consumer_state = collected.clone();
        backend.subscribe(
            FamilySet::all(),
            Box::new(move |batch: &Batch, names: &Names| {
                let mut collected = sinks::lock(&consumer_state);
                if let Some(devices) = late_devices.poll() {
                    collected.add_device_properties(&devices);
                }
                collected.add(batch, names, &time_map)
            }),
        );
        let periodic = config.flush_period.zip(backend.periodic_flusher());
        let inner = Arc::new(Inner {
            names: backend.names(),
            flusher: backend.flusher(),
            finishing: AtomicBool::new(false),
            backend: Mutex::new(Some(backend)),
            collected,
            info,
            distributed,
            time_map,
            summary_top: config.summary_top,
            partials,
            window,
            delay: config.delay,
            duration: config.duration,
            capture_range: config.capture_range,
            range_guard: Mutex::new(range_guard),
            signal_target: Mutex::new(None),
            signals: Mutex::new((Vec::new(), None)),
            end_options,
            early: Mutex::new(None),
        });
        if let Some((period, flush)) = periodic {
            spawn_periodic_flush(Arc::downgrade(&inner), period, flush);
        }
        if config.handle_signals || config.toggle_signal.is_some() {
            let (on_end, on_toggle) = (Arc::downgrade(&inner), Arc::downgrade(&inner));
            let target = Arc::new(signals::Target {
                end: Box::new(move |signal| {
                    if let Some(inner) = on_end.upgrade() {
                        finish::say(&format!(
                            "{}: finishing the outputs before the program ends",
                            signals::signal_name(signal)
                        ));
                        inner.finish_early();
                    }
                }),
                toggle: Box::new(move || {
                    if let Some(inner) = on_toggle.upgrade() {
                        let on = inner.window.toggle();
                        finish::say(if on { "collection resumed" } else { "collection paused" });
                    }
                }),
                handles_end: config.handle_signals,
                toggle_signal: config.toggle_signal,
            });
            let installed = signals::register(&target);
            for note in &installed.notes {
                finish::say(note);
            }
            let end = if config.handle_signals { installed.end.clone() } else { Vec::new() };
            let toggle = installed.toggle.filter(|t| config.toggle_signal == Some(*t));
            *lock_any(&inner.signals) = (end, toggle);
            *lock_any(&inner.signal_target) = Some(target);
        }
        Ok(Tracer { inner })
    }

    /// The library [`new`](Self::new) would use with `config`, without setting anything up.
    pub fn locate(config: &TracerConfig) -> Result<LibraryInfo, TracerError> {
        find(config).map(|l| l.info())
    }

    /// Makes the process ready for the library `config` finds, before anything else runs in it.
    /// Call it first thing in `main`. For MSPTI: unless `libmspti.so` is preloaded already, restarts
    /// the program (same executable, arguments and environment) with it in `LD_PRELOAD`, and does not
    /// return then; MSPTI gets copies, sets, memory and collective records only that way. For the
    /// other vendors, and when no library is found, it does nothing and returns `Ok`.
    pub fn prepare_process(config: &TracerConfig) -> Result<(), TracerError> {
        match find(config) {
            Ok(located) => backend::prepare_process(&located),
            Err(_) => Ok(()),
        }
    }

    /// The backend, while the tracer lives (`stop` consumes it; drop takes it last).
    fn with<T>(&self, f: impl FnOnce(&mut dyn Backend) -> T) -> T {
        self.inner.with(f)
    }

    /// Begins collecting (a no-op once collecting). Kinds the vendor refuses here (MSPTI's copies
    /// without the preload, a kind an older library lacks) are left out and listed in
    /// [`skipped`](Self::skipped). With [`TracerConfig::delay`] collection begins that long after,
    /// with [`TracerConfig::capture_range`] at the program's first profiler start call; with
    /// [`TracerConfig::duration`] it ends that long after it began (the outputs are finished then).
    pub fn start(&self) -> Result<(), TracerError> {
        let inner = &self.inner;
        if inner.finishing.load(Ordering::SeqCst) {
            return Ok(());
        }
        self.with(|b| b.start())?;
        let waits = inner.capture_range != CaptureRange::None || !inner.delay.is_zero();
        if !inner.window.started(waits) {
            return Ok(());
        }
        let weak = Arc::downgrade(inner);
        let delay = if inner.capture_range != CaptureRange::None { Default::default() } else { inner.delay };
        if let Err(e) = inner.window.schedule(delay, inner.duration, move || {
            if let Some(inner) = weak.upgrade() {
                finish::say("the collection window is over: finishing the outputs (the program runs on)");
                inner.finish_early();
            }
        }) {
            finish::say(&e);
        }
        Ok(())
    }

    /// Stops collecting without ending the session: the vendor's kinds are disabled, so records of
    /// work done while paused are not produced (the report counts the windows collection was on).
    /// `false` when it was not collecting (not started, paused already, or ended).
    pub fn pause(&self) -> bool {
        self.inner.window.pause()
    }

    /// Collects again after [`pause`](Self::pause) (or a delay, a capture range, the toggle signal);
    /// `false` when collecting already, not started, or ended.
    pub fn resume(&self) -> bool {
        self.inner.window.resume()
    }

    /// The terminating signals (SIGINT, SIGTERM, SIGHUP) whose arrival finishes this tracer's outputs
    /// before the process dies of them ([`TracerConfig::handle_signals`]; a signal the program
    /// handles itself is left to it, and not listed).
    pub fn handled_signals(&self) -> Vec<i32> {
        lock_any(&self.inner.signals).0.clone()
    }

    /// The signal that pauses and resumes this tracer, when its handler is installed
    /// ([`TracerConfig::toggle_signal`]; not when the program handles that signal itself).
    pub fn toggle_signal(&self) -> Option<i32> {
        lock_any(&self.inner.signals).1
    }

    /// Whether records are collected now (started, not paused, not ended).
    pub fn is_collecting(&self) -> bool {
        self.inner.window.is_collecting()
    }

    /// Calls `consumer` on the decode thread with every later batch holding rows of `families` (the
    /// batch is passed whole: it may hold other families too). Subscribe before
    /// [`start`](Self::start) to see every record. A panic in `consumer` is caught and counted
    /// (`counts().pipeline.consumer_panics`). It runs on the vendor pipeline's decode thread, which
    /// [`flush`](Self::flush) and [`stop`](Self::stop) wait for: there, [`flush`](Self::flush) is
    /// refused with the vendor's error (it would wait for itself); the tracer's other methods may be
    /// called.
    pub fn subscribe<F>(&self, families: FamilySet, consumer: F) -> ConsumerId
    where
        F: FnMut(&Batch, &Names) + Send + 'static,
    {
        self.with(|b| b.subscribe(families, Box::new(consumer)))
    }

    /// Stops calling a consumer; whether it was subscribed.
    pub fn unsubscribe(&self, id: ConsumerId) -> bool {
        self.with(|b| b.unsubscribe(id))
    }

    /// Hands over everything the vendor collected so far, delivers it to the subscribers and the
    /// outputs, and waits until the files hold it (each a whole trace up to here). CUPTI's flush is
    /// a fence: records of all work issued before the call are in (see
    /// [`TracerConfig::synchronize`]).
    pub fn flush(&self) -> Result<(), TracerError> {
        (self.inner.flusher)()?;
        sinks::lock(&self.inner.collected).sync().map_err(TracerError::Write)
    }

    /// The tallies now (they add up once the tracer is quiet: after a flush with no work running).
    pub fn counts(&self) -> TracerCounts {
        self.with(|b| b.counts())
    }

    /// The library used.
    pub fn library(&self) -> &LibraryInfo {
        &self.inner.info
    }

    /// Which vendor.
    pub fn vendor(&self) -> Vendor {
        self.inner.info.vendor
    }

    /// This process's rank.
    pub fn distributed(&self) -> Distributed {
        self.inner.distributed
    }

    /// The families collected (those asked for that the vendor has).
    pub fn families(&self) -> FamilySet {
        self.with(|b| b.families())
    }

    /// Families (or vendor kinds) asked for and not collected, and why.
    pub fn skipped(&self) -> Vec<Skipped> {
        self.with(|b| b.skipped().to_vec())
    }

    /// The names of the batches' name ids.
    pub fn names(&self) -> Names {
        self.inner.names.clone()
    }

    /// Maps the records' timestamps (the vendor's clock) to Unix time.
    pub fn time_map(&self) -> TimeMap {
        self.inner.time_map
    }

    /// The files being written until [`stop`](Self::stop) (each a whole trace after every
    /// [`flush`](Self::flush)), with `.partial-<pid>` in the name until finished (`trace.partial-<pid>.json`).
    pub fn partial_paths(&self) -> &[PathBuf] {
        &self.inner.partials
    }

    /// The vendor's name of an API row's raw `domain` (`cuda_runtime`, `cuda_driver`, `acl_api`,
    /// `hip_runtime_api`, ...).
    pub fn api_domain_name(&self, domain: u32) -> Option<Cow<'static, str>> {
        self.with(|b| b.api_domain_name(domain))
    }

    /// Ends the collection (everything the vendor has is handed over and delivered), finishes the
    /// outputs (the report's summary in each) and returns what was collected. When the outputs were
    /// finished before (the end of [`TracerConfig::duration`]), the report is that one with the
    /// final counts.
    pub fn stop(self) -> TracerReport {
        self.inner.end().expect("a tracer ends once")
    }
}

/// A lock that a panic elsewhere does not poison for good.
fn lock_any<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, Option<Box<dyn Backend>>> {
        lock_any(&self.backend)
    }

    fn with<T>(&self, f: impl FnOnce(&mut dyn Backend) -> T) -> T {
        let mut guard = self.lock();
        f(guard.as_deref_mut().expect("the backend lives as long as the tracer"))
    }

    /// The report of what was collected so far (`counts` the backend's), with every output finished.
    fn report(&self, counts: TracerCounts, skipped: Vec<Skipped>, mut errors: Vec<String>) -> TracerReport {
        let mut collected = sinks::lock(&self.collected);
        errors.extend(self.window.errors());
        let mut report = TracerReport {
            library: self.info.clone(),
            distributed: self.distributed,
            counts,
            rows: collected.rows,
            summary: std::mem::take(&mut collected.summary),
            names: self.names.clone(),
            traces: Vec::new(),
            skipped,
            errors,
            windows: self.window.windows(),
        };
        let summary = report.embedded_json(self.summary_top, &collected.planned());
        report.traces = collected.finish(&summary);
        report
    }

    /// Finishes the outputs now, collection paused for good (the end of the duration, a terminating
    /// signal); the session goes on until `stop` (records still arriving are counted, not written).
    fn finish_early(&self) {
        let mut early = lock_any(&self.early);
        if early.is_some() {
            return;
        }
        self.finishing.store(true, Ordering::SeqCst);
        self.window.close();
        self.window.pause();
        let mut errors = Vec::new();
        // Without the backend's lock: a consumer may call the tracer while this waits for it.
        if let Err(e) = (self.flusher)() {
            errors.push(format!("the flush before finishing the outputs did not complete: {e}"));
        }
        let Some((counts, skipped)) = self.lock().as_deref().map(|b| (b.counts(), b.skipped().to_vec()))
        else {
            return;
        };
        let report = self.report(counts, skipped, errors);
        self.end_options.ended(&report, self.summary_top);
        *early = Some(report);
    }

    fn end(&self) -> Option<TracerReport> {
        let mut early = lock_any(&self.early);
        let backend = self.lock().take()?;
        self.window.close();
        drop(lock_any(&self.range_guard).take());
        drop(lock_any(&self.signal_target).take());
        let skipped = backend.skipped().to_vec();
        // The backend's last deliveries run the consumer, which takes `collected`: not held here.
        let stopped = backend.stop();
        if let Some(mut report) = early.take() {
            report.counts = stopped.counts;
            report.errors.extend(stopped.error);
            return Some(report);
        }
        let report = self.report(stopped.counts, skipped, stopped.error.into_iter().collect());
        self.end_options.ended(&report, self.summary_top);
        Some(report)
    }
}

/// The tracer's own periodic flush, for a vendor whose library does not hand partly filled buffers
/// over by itself ([`Backend::periodic_flusher`]): every `period` the buffers are handed over and
/// streamed to the outputs, so that what a crash leaves is about that far behind, as with CUPTI. Ends
/// with the tracer, or once its outputs are being finished; the tracer is not held while it flushes.
fn spawn_periodic_flush(inner: std::sync::Weak<Inner>, period: std::time::Duration, flush: backend::Flusher) {
    let step = period.min(std::time::Duration::from_millis(50));
    let spawned = std::thread::Builder::new().name("accelprof-flush".into()).spawn(move || {
        let mut next = std::time::Instant::now() + period;
        loop {
            std::thread::sleep(step);
            {
                let Some(inner) = inner.upgrade() else { return };
                if inner.finishing.load(Ordering::SeqCst) || inner.lock().is_none() {
                    return;
                }
            }
            if std::time::Instant::now() < next {
                continue;
            }
            // A flush that fails is the final flush's to report; the next period tries again.
            let _ = flush();
            next = std::time::Instant::now() + period;
        }
    });
    if let Err(e) = spawned {
        finish::say(&format!("no periodic flush (the trace is written when buffers fill): {e}"));
    }
}

impl Drop for Tracer {
    fn drop(&mut self) {
        let _ = self.inner.end();
    }
}

/// A tracer is shared between threads (a flush on one, counts on another).
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Tracer>();
};
