//! [`ActivitySession`]: CUPTI activity records, decoded off CUPTI's thread into column batches.

use std::fmt;
use std::sync::{Arc, Mutex};

use accelprof_core::activity::{Collected, Session, SessionConfig, Switch};
use accelprof_core::{BufferPool, PipelineConfig};
use cupti_sys::v13_5::CUpti_ActivitySynchronizationFieldIds as SyncField;
use cupti_sys::CuptiFunctions;

use super::api::Api;
use super::backend::Backend;
use super::periodic::PeriodicFlush;
use super::probe::stride_probe;
use super::{
    ActivityConfig, ActivityCounts, ActivityKind, ApiFilter, ApiFilterAt, BufferPolicy, CuptiCounts,
    FieldSelection, RecordClock,
};
use crate::decode::{DecoderShared, RecordLayouts, Walker};
use crate::{Cupti, Error, Result};

/// Buffers allocated when the session is created, so CUPTI's first requests do not allocate.
const WARM_BUFFERS: usize = 2;

/// How a session ended ([`ActivitySession::end`]): the final tallies and how the last fence went.
pub type SessionEnd = accelprof_core::activity::SessionEnd<CuptiCounts, Error>;

/// Pauses and resumes an [`ActivitySession`] from anywhere ([`ActivitySession::switch`]).
pub type ActivitySwitch<'lib> = Switch<Backend<'lib>>;

/// An activity session: CUPTI hands buffers of records to a bounded lock-free pool, the completion
/// callback only hands them to a decode thread, which turns them into column batches for the consumers.
/// The session is the shared core's [`Session`] over CUPTI's [`Backend`].
///
/// One per process (CUPTI's buffer callbacks are process-wide): creating a second while one lives is
/// [`ActivityError::SessionActive`](accelprof_core::activity::ActivityError::SessionActive). Typical
/// use:
///
/// ```no_run
/// use cupti::activity::{ActivityConfig, ActivitySession};
/// use cupti::FamilySet;
///
/// let cupti = cupti::Cupti::open()?;
/// let session = ActivitySession::new(&cupti, ActivityConfig::default())?;
/// let kernels = session.collect(FamilySet::KERNEL);
/// session.start()?;
/// // ... CUDA work ...
/// session.fence()?; // every record of work issued up to here is delivered
/// let batch = kernels.take();
/// println!("{} kernels", batch.kernels.len());
/// let counts = session.stop()?;
/// assert_eq!(counts.records_produced(), counts.records_delivered() + counts.records_dropped());
/// # Ok::<(), cupti::Error>(())
/// ```
///
/// The session borrows the library, so it cannot outlive it:
///
/// ```compile_fail
/// let session = {
///     let cupti = cupti::Cupti::open().unwrap();
///     cupti::activity::ActivitySession::new(&cupti, Default::default()).unwrap()
/// };
/// ```
///
/// Ending the session (`stop`, `end`, or drop) fences a last time, disables its kinds, then, only while
/// CUPTI still holds some of its buffers, issues the only FORCED flush this crate ever makes, so CUPTI
/// hands back every buffer before the memory is released: a kernel still running at that moment is
/// delivered with `end = 0`. During collection flushes are never forced (a forced flush returns in-flight
/// kernels with `end = 0` and never re-delivers them).
pub struct ActivitySession<'lib> {
    session: Session<Backend<'lib>>,
    cupti: &'lib Cupti,
    config: ActivityConfig,
    backend_note: Option<String>,
    clock: RecordClock,
    periodic: Mutex<Option<PeriodicFlush>>,
}

impl<'lib> ActivitySession<'lib> {
    /// Sets up a session: pool, decode thread, CUPTI's buffer callbacks. Nothing is collected before
    /// [`start`](Self::start), so consumers subscribed in between see every record.
    #[doc(alias = "cuptiActivityRegisterCallbacks")]
    pub fn new(cupti: &'lib Cupti, config: ActivityConfig) -> Result<Self> {
        if super::buffers::ROUTE.is_live() {
            return Err(accelprof_core::activity::ActivityError::SessionActive { vendor: "CUPTI" }.into());
        }
        // What CUPTI filters, and what the walker drops while decoding (counted).
        let (cupti_filter, decode_filter) = match config.api_filter_at {
            ApiFilterAt::Cupti => (config.api_filter.clone(), ApiFilter::all()),
            ApiFilterAt::Decode if ApiFilter::supported_by(cupti) => {
                (super::filter_at::cupti_side(&config.api_filter), config.api_filter.clone())
            }
            ApiFilterAt::Decode => (ApiFilter::all(), config.api_filter.clone()),
        };
        let (api, backend_note) = Api::choose(cupti, config.api, config.kinds, &cupti_filter)?;
        let layouts = RecordLayouts::for_version(cupti.api_version());
        // SAFETY: this walker is given only the buffers CUPTI completed (the session's decode thread
        // walks nothing else), whose string fields CUPTI keeps valid while they are processed.
        let mut walker = unsafe { Walker::new(layouts) }
            .emit_sync_rows(config.kinds.contains(ActivityKind::SYNCHRONIZATION))
            .with_api_filter(decode_filter);
        if !api.user_defined() {
            if let Some(probe) = stride_probe(cupti) {
                walker = walker.with_stride_probe(probe);
            }
        }
        if let Some(transform) = &config.kernel_names {
            let transform = Arc::clone(&transform.0);
            walker = walker.with_kernel_name_transform(Box::new(move |raw| transform(raw)));
        }
        let decoder: Arc<DecoderShared> = walker.shared();
        let max_overflow = match config.policy {
            BufferPolicy::Lossless { max_overflow } => max_overflow,
            BufferPolicy::Lossy => 0,
        };
        let pool = BufferPool::try_with_overflow(config.buffer_size, config.max_buffers, max_overflow)
            .map_err(accelprof_core::activity::ActivityError::from)?;
        if let BufferPolicy::Lossless { .. } = config.policy {
            pool.set_producer_wait(config.stall_timeout);
        }
        pool.warm(WARM_BUFFERS.min(config.max_buffers));
        let session_config = SessionConfig {
            pipeline: PipelineConfig {
                batch_rows: config.batch_rows,
                // A periodic flush delivers on its own period too, unless a batch interval is given.
                flush_interval: config.batch_interval.or(config.flush_period),
                thread_name: "cupti-decode".into(),
            },
            fence_timeout: config.fence_timeout,
            ..SessionConfig::default()
        };
        let backend = Backend {
            cupti,
            api,
            filter: cupti_filter,
            fields: Mutex::new(config.fields.clone()),
            decoder,
            device_sync: config.device_sync.clone(),
        };
        let session = Session::new(backend, walker, pool, config.kinds.iter(), session_config)?;
        let clock = RecordClock::calibrate(cupti)?;
        Ok(ActivitySession { session, cupti, config, backend_note, clock, periodic: Mutex::new(None) })
    }

    /// Asks CUPTI for these fields too (user-defined records, CUPTI 13.3 and later; see
    /// [`FieldSelection`]): a consumer says what it reads, and the session enables the union of what was
    /// asked for when it starts. The decoder fills only the selected columns; the others read 0.
    ///
    /// Before [`start`](Self::start) it always succeeds. After it, changing the selection would need a
    /// forced flush (CUPTI's rule), which a session never makes while collecting: it succeeds when the
    /// fields are already enabled and is [`Error::InvalidOperation`] otherwise. With fixed record layouts
    /// (before 13.3, or [`ActivityApi::V1`](super::ActivityApi::V1)) every field is there anyway.
    pub fn select_fields(&self, fields: &FieldSelection) -> Result<()> {
        let backend = self.session.backend();
        let mut selected = backend.fields();
        if !self.session.is_started() {
            selected.union_with(fields);
            return Ok(());
        }
        if !backend.api.user_defined() || selected.contains(fields) {
            return Ok(());
        }
        Err(Error::InvalidOperation { function: "ActivitySession::select_fields (after start)" })
    }

    /// The fields selected so far (enabled in CUPTI once started, when records are user-defined).
    pub fn fields(&self) -> FieldSelection {
        self.session.backend().fields().clone()
    }

    /// Whether records come as user-defined records through a subscriber of this session's own (the V2
    /// activity API, CUPTI 13.3 and later), which lets other tools trace the process at the same time.
    /// False: CUPTI's fixed layouts through the process-wide (V1) functions.
    pub fn uses_user_defined_records(&self) -> bool {
        self.session.backend().api.user_defined()
    }

    /// Why [`ActivityApi::Auto`](super::ActivityApi::Auto) fell back to the V1 API although the library
    /// offers the V2 one (CUPTI refused the subscriber), if it did.
    pub fn api_fallback(&self) -> Option<&str> {
        self.backend_note.as_deref()
    }

    /// Enables the configured kinds: collection begins. Starts the periodic flush if configured.
    #[doc(alias = "cuptiActivityEnable")]
    pub fn start(&self) -> Result<()> {
        if self.session.is_started() {
            return Ok(());
        }
        let backend = self.session.backend();
        if self.config.system_thread_ids {
            backend.api.use_system_thread_ids(self.cupti)?;
        }
        // The fence needs the end of synchronizations, whatever was selected.
        let fence = FieldSelection::empty()
            .with(ActivityKind::SYNCHRONIZATION, [SyncField::SYNCHRONIZATION_FIELD_END.0])
            .expect("a field id of the headers");
        backend.fields().union_with(&fence);
        self.session.start()?;
        if self.config.kinds.contains(ActivityKind::CUDA_EVENT) {
            // Device timestamps for CUDA events exist from 13.0 on; without them records carry none.
            backend.api.enable_cuda_event_device_timestamps(self.cupti);
        }
        if let Some(period) = self.config.flush_period {
            let functions = CuptiFunctions::new(self.cupti.functions().resolver().clone());
            let periodic =
                PeriodicFlush::start(functions, backend.api, self.session.handoff().clone(), period)
                    .map_err(|e| accelprof_core::activity::ActivityError::spawn("periodic flush", e))?;
            *self.periodic.lock().unwrap_or_else(|e| e.into_inner()) = Some(periodic);
        }
        Ok(())
    }

    accelprof_core::session_facade! {
        vendor: "CUPTI",
        core: |s| &s.session,
        end: |s| s.finish(),
        backend: Backend<'lib>,
        kind: ActivityKind,
        switch: ActivitySwitch<'lib>,
        counts: ActivityCounts,
        session_end: SessionEnd,
        result: Result,

        /// Disables the kinds until [`resume`](Self::resume) (`cuptiActivityDisable`): a paused session costs
        /// the program nothing, and a later fence still delivers what was produced before. `Ok(false)` when it
        /// was not collecting. Allowed from any thread, consumers included.
        #[doc(alias = "cuptiActivityDisable")]
        fn pause;

        /// Hands over what CUPTI has (`cuptiActivityFlushAll(0)`: never forced, so records of work still
        /// running stay with CUPTI) and waits until the decode thread delivered it.
        /// [`ActivityError::OnDecodeThread`](accelprof_core::activity::ActivityError::OnDecodeThread) inside
        /// a consumer.
        #[doc(alias = "cuptiActivityFlushAll")]
        fn flush;

        /// The fence: when it returns `Ok` with `fenced`, every record of work issued before the call has
        /// been delivered. SYNCHRONIZATION is enabled (if the session does not collect it anyway), CUPTI's
        /// clock is read, the device is synchronized ([`DeviceSync`](super::DeviceSync); this also makes CUPTI
        /// write a SYNCHRONIZATION record past that reading), then unforced flushes repeat until a
        /// synchronization record that recent has been decoded (CUPTI hands buffers back in fill order, so
        /// everything before it is delivered too); SYNCHRONIZATION is then disabled again. Before
        /// [`start`](Self::start), or when no device work can exist (no CUDA context, or
        /// [`DeviceSync::Skip`](super::DeviceSync::Skip)), it flushes and waits as [`flush`](Self::flush) does
        /// (`fenced` is false).
        /// [`ActivityError::FenceTimeout`](accelprof_core::activity::ActivityError::FenceTimeout) after
        /// `fence_timeout`; `OnDecodeThread` inside a consumer.
        fn fence;
    }

    /// How record timestamps map to Unix time.
    pub fn clock(&self) -> RecordClock {
        self.clock
    }

    /// The configuration.
    pub fn config(&self) -> &ActivityConfig {
        &self.config
    }

    /// The library.
    pub fn cupti(&self) -> &'lib Cupti {
        self.cupti
    }

    /// The record sizes the decoder started with (chosen from `cuptiGetVersion`).
    pub fn layouts(&self) -> RecordLayouts {
        RecordLayouts::for_version(self.cupti.api_version())
    }

    /// Teardown, once: the periodic flush first, then the core's end.
    fn finish(&self) -> SessionEnd {
        drop(self.periodic.lock().unwrap_or_else(|e| e.into_inner()).take());
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
            .field("kinds", &self.config.kinds)
            .field("backend", self.session.backend())
            .field("clock", &self.clock)
            .field("counts", &self.counts())
            .finish_non_exhaustive()
    }
}

/// A session is shared between threads (a flush on one, counts on another).
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<ActivitySession<'static>>();
    send_sync::<ActivitySwitch<'static>>();
    send_sync::<Collected>();
};
