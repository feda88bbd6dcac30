//! [`ActivitySession`]: MSPTI activity records, decoded off MSPTI's threads into column batches.

use std::fmt;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use accelprof_core::activity::{ActivityError, Session, SessionConfig, Switch};
use accelprof_core::{BufferPool, PipelineConfig};

use super::backend::Backend;
use super::buffers::CallbackTallies;
use super::rescue::{FlushAll, Rescue};
use super::{ActivityConfig, ActivityCounts, MsptiCounts};
use crate::decode::{Walker, WalkerTallies};
use crate::error::{check, Error, Result};
use crate::ids::ActivityKind;
use crate::Mspti;

/// How a session ended ([`ActivitySession::end`]): the final tallies and how the last flush went.
pub type SessionEnd = accelprof_core::activity::SessionEnd<MsptiCounts, Error>;

/// Pauses and resumes an [`ActivitySession`] from anywhere ([`ActivitySession::switch`]).
pub type ActivitySwitch<'m> = Switch<Backend<'m>>;

/// Collects MSPTI activity records into column batches: the shared core's [`Session`] over MSPTI's
/// [`Backend`].
///
/// The way of a record: MSPTI asks for a buffer (on the producing thread, under its internal
/// lock) and gets one from a bounded lock-free pool, or NULL when the pool is at its bound (the
/// record that asked is lost, and counted); MSPTI hands full buffers back on a new thread per
/// buffer, concurrently, and the partial one on [`flush`](Self::flush); each is sent to a decode
/// thread which walks it itself and appends rows to a [`Batch`](accelprof_core::Batch) for the consumers registered with
/// [`subscribe`](Self::subscribe). A thread of the session checks that MSPTI hands full buffers back,
/// and flushes them out when it does not (its manager thread can be lost; see
/// [`ActivityConfig::stuck_buffer_check`]).
///
/// One per process (MSPTI's buffer callbacks are process-wide):
/// [`ActivityError::SessionActive`] while another lives. Ending it ([`stop`](Self::stop),
/// [`end`](Self::end) or drop) flushes a last time, disables the kinds it enabled, delivers what was
/// collected and stops the decode thread.
///
/// ```no_run
/// use mspti::activity::{ActivityConfig, ActivitySession};
/// use mspti::{ActivityKind, FamilySet, Mspti};
///
/// let mspti = Mspti::open()?;
/// // The timeline kinds; the session holds the subscriber MSPTI needs for kernel records.
/// let session = ActivitySession::new(&mspti, ActivityConfig::default())?;
/// let kernels = session.collect(FamilySet::KERNEL);
/// session.start()?; // MEMCPY and MEMSET need libmspti.so preloaded: an error says so
/// session.enable(ActivityKind::MARKER)?; // more kinds
/// // ... work on the NPU ...
/// session.fence()?; // every record MSPTI wrote up to here is delivered
/// println!("{} kernels", kernels.take().kernels.len());
/// let counts = session.stop()?;
/// assert_eq!(counts.records_produced(), counts.records_delivered() + counts.records_dropped());
/// # Ok::<(), mspti::Error>(())
/// ```
pub struct ActivitySession<'m> {
    session: Session<Backend<'m>>,
    mspti: &'m Mspti,
    rescue: Mutex<Option<Rescue>>,
    /// [`ActivityConfig::device_settle`] and its bound.
    settle: (Duration, Duration),
    /// A subscriber doing nothing, held while a configured kind needs one
    /// ([`ActivityKind::NEED_SUBSCRIBER`]); dropped after the session ended.
    _subscriber: Option<crate::Subscriber<'m>>,
}

impl<'m> ActivitySession<'m> {
    /// Sets up a session (`msptiActivityRegisterCallbacks`): buffers come from a bounded pool,
    /// completed buffers are decoded off MSPTI's threads into column batches. Nothing is collected
    /// before [`start`](Self::start), which enables the configured kinds; [`enable`](Self::enable) adds
    /// more.
    #[doc(alias = "msptiActivityRegisterCallbacks")]
    pub fn new(mspti: &'m Mspti, config: ActivityConfig) -> Result<Self> {
        // MSPTI writes these kinds only while a subscriber exists: the session keeps one of its own.
        let subscriber = if config.kinds.iter().any(ActivityKind::needs_subscriber) {
            Some(mspti.subscribe(|_| {})?)
        } else {
            None
        };
        let walker = Arc::new(WalkerTallies::default());
        let pool =
            BufferPool::try_new(config.buffer_size, config.max_buffers).map_err(ActivityError::from)?;
        let session_config = SessionConfig {
            pipeline: PipelineConfig {
                batch_rows: config.batch_rows,
                flush_interval: config.batch_interval,
                thread_name: "mspti-decode".into(),
            },
            // No kind at start is an empty selection (an error) unless the caller said the kinds
            // come later, through `enable` once the session runs.
            start_empty: config.enable_later,
            ..SessionConfig::default()
        };
        let backend = Backend {
            mspti,
            callbacks: Arc::new(CallbackTallies::default()),
            walker: Arc::clone(&walker),
            rescues: Arc::new(AtomicU64::new(0)),
            unsettled: Arc::new(AtomicU64::new(0)),
        };
        let rescues = Arc::clone(&backend.rescues);
        let session = Session::new(
            backend,
            // SAFETY: the session's decode thread walks only the buffers MSPTI completed, whose
            // string fields point into MSPTI's name caches (never freed).
            unsafe { Walker::with_tallies(walker) },
            pool,
            config.kinds.iter(),
            session_config,
        )?;
        let settle = (config.device_settle, config.device_settle_max.max(config.device_settle));
        let activity =
            ActivitySession { session, mspti, rescue: Mutex::new(None), settle, _subscriber: subscriber };
        if config.flush_period.is_some() {
            activity.flush_period(config.flush_period)?;
        }
        if let (Some(every), Some(flush)) =
            (config.stuck_buffer_check, mspti.sys().raw_symbol(c"msptiActivityFlushAll"))
        {
            // SAFETY: the library's `msptiActivityFlushAll` (C signature of the bindings); the
            // library is never unloaded, so the address stays valid for the thread's life.
            let flush: FlushAll = unsafe { std::mem::transmute(flush.as_ptr()) };
            let rescue = Rescue::start(flush, rescues, every)
                .map_err(|e| ActivityError::spawn("stuck-buffer check", e))?;
            *activity.rescue.lock().unwrap_or_else(|e| e.into_inner()) = Some(rescue);
        }
        Ok(activity)
    }

    /// Enables the configured kinds (`msptiActivityEnable`): collection begins. Starting again is a
    /// no-op. Unlike `cupti` and `rocprofiler` (whose sessions cannot gain a kind once started, and
    /// refuse to start with none: `ActivityError::NoKinds`), a session with no kind starts here, to
    /// take its kinds one by one with [`enable`](Self::enable) (each refused on its own).
    #[doc(alias = "msptiActivityEnable")]
    pub fn start(&self) -> Result<()> {
        self.session.start()
    }

    /// Collects records of `kind` too: enabled now (`msptiActivityEnable`) once the session started,
    /// else at [`start`](Self::start).
    ///
    /// - HCCL, MEMORY, MEMSET and MEMCPY come from MSPTI's interposed functions: they need
    ///   `libmspti.so` preloaded ([`Error::WithoutLdPreload`] or [`Error::InterpositionNotLive`]).
    /// - MARKER, KERNEL and the API-family kinds (API, ACL_API, NODE_API, RUNTIME_API) are
    ///   produced only while a subscriber exists ([`ActivityKind::NEED_SUBSCRIBER`]): without one of
    ///   this crate's [`Subscriber`](crate::Subscriber)s this returns [`Error::SubscriberRequired`]
    ///   (enabling would succeed in MSPTI and collect nothing). Records stop when the subscriber
    ///   is dropped.
    ///
    /// Both are checked at once, even before the session started.
    #[doc(alias = "msptiActivityEnable")]
    pub fn enable(&self, kind: ActivityKind) -> Result<()> {
        self.session.backend().check_kind(kind)?;
        self.session.enable(kind)
    }

    /// Stops collecting records of `kind` (`msptiActivityDisable`).
    #[doc(alias = "msptiActivityDisable")]
    pub fn disable(&self, kind: ActivityKind) -> Result<()> {
        self.session.disable(kind)
    }

    /// Whether MSPTI collects `kind` now (`msptiActivityIsEnabled`, new in 2026: an older
    /// library gives [`Error::MissingSymbol`]).
    #[doc(alias = "msptiActivityIsEnabled")]
    pub fn is_enabled(&self, kind: ActivityKind) -> Result<bool> {
        // SAFETY: MSPTI indexes an array of its 13 kinds with `kind` unchecked; an `ActivityKind`
        // is one of 0..=12 by construction, within the array of every library that exports this
        // function (it came with kinds 10..=12).
        Ok(unsafe { self.mspti.sys().msptiActivityIsEnabled(kind.into()) }?)
    }

    accelprof_core::session_facade! {
        vendor: "MSPTI",
        core: |s| &s.session,
        end: |s| s.finish(),
        backend: Backend<'m>,
        kind: ActivityKind,
        switch: ActivitySwitch<'m>,
        counts: ActivityCounts,
        session_end: SessionEnd,
        result: Result,

        /// Disables the kinds until [`resume`](Self::resume) (`msptiActivityDisable`); `Ok(false)` when it
        /// was not collecting. Allowed from any thread, consumers included.
        #[doc(alias = "msptiActivityDisable")]
        fn pause;

        /// Makes MSPTI hand back every buffer, the partly filled one included
        /// (`msptiActivityFlushAll`, synchronous), then waits until all of it has been decoded and
        /// delivered to the consumers. Records of calls still running are not in it yet.
        /// [`ActivityError::OnDecodeThread`] inside a consumer.
        #[doc(alias = "msptiActivityFlushAll")]
        fn flush;

        /// The fence. MSPTI's flush is synchronous and MSPTI has no record that proves the device finished
        /// (`fenced` is false): while a kind written from the device's data is collected
        /// ([`ActivityKind::FROM_DEVICE`]), it first waits [`ActivityConfig::device_settle`], flushing
        /// (the device's data of work done before arrives with a latency); then a flush and a wait, as
        /// [`flush`](Self::flush), serialized with other fences and the end of the session.
        fn fence(before: |s| s.settle_device(false));
    }

    /// Waits for the device's records of the work done before now (see
    /// [`ActivityConfig::device_settle`]), flushing as they come: for the configured time, and at
    /// the end of the session (`until_quiet`) also until none came for that long, at most
    /// [`ActivityConfig::device_settle_max`] (a wait that runs out is counted).
    fn settle_device(&self, until_quiet: bool) -> Result<()> {
        let (quiet, max) = self.settle;
        if quiet.is_zero()
            || !self.session.is_collecting()
            || !self.session.kinds().iter().any(|k| k.from_device())
        {
            return Ok(());
        }
        let start = Instant::now();
        let mut seen = None;
        let mut last_change = start;
        let step = (quiet / 8).clamp(Duration::from_millis(1), Duration::from_millis(20));
        loop {
            self.session.flush()?;
            let produced = self.session.counts().records_produced();
            let now = Instant::now();
            if seen != Some(produced) {
                seen = Some(produced);
                last_change = now;
            }
            if now - start >= quiet && (!until_quiet || now - last_change >= quiet) {
                return Ok(());
            }
            if now - start >= max {
                self.session.backend().unsettled.fetch_add(1, Relaxed);
                return Ok(());
            }
            std::thread::sleep(step);
        }
    }

    /// Sets MSPTI's periodic flush (`msptiActivityFlushPeriod`): every `period` MSPTI hands back
    /// the buffers that are full; `None` turns it off (period 0). Below 1 ms counts as 1 ms.
    #[doc(alias = "msptiActivityFlushPeriod")]
    pub fn flush_period(&self, period: Option<Duration>) -> Result<()> {
        let ms = period.map_or(0, |p| p.as_millis().clamp(1, u32::MAX.into()) as u32);
        // SAFETY: a plain value.
        check(unsafe { self.mspti.sys().msptiActivityFlushPeriod(ms) }, "msptiActivityFlushPeriod")
    }

    /// The library.
    pub fn mspti(&self) -> &'m Mspti {
        self.mspti
    }

    /// Teardown, once: the device's records waited for while their kinds are still enabled
    /// (MSPTI drops what it writes after `msptiActivityDisable`), the stuck-buffer thread (it calls
    /// MSPTI), then the core's end (a last fence, the kinds disabled, a forced flush).
    fn finish(&self) -> SessionEnd {
        // A failed flush here is the core's last fence's to report.
        let _ = self.settle_device(true);
        if let Some(mut rescue) = self.rescue.lock().unwrap_or_else(|e| e.into_inner()).take() {
            rescue.stop();
        }
        self.session.end()
    }
}

impl Drop for ActivitySession<'_> {
    fn drop(&mut self) {
        if !self.session.has_ended() {
            let _ = self.finish();
        }
    }
}

impl fmt::Debug for ActivitySession<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActivitySession")
            .field("kinds", &self.kinds())
            .field("counts", &self.counts())
            .finish_non_exhaustive()
    }
}

/// A session is shared between threads (a flush on one, counts on another).
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<ActivitySession<'static>>();
};
