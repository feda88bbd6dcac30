//! [`ActivitySession`]: CUPTI activity records, decoded off CUPTI's thread into column batches.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use accelprof_core::pipeline::ConsumerId;
use accelprof_core::{Batch, BufferPool, FamilySet, Handoff, Names, Pipeline, PipelineConfig};
use cupti_sys::v13_5::CUpti_ActivitySynchronizationFieldIds as SyncField;
use cupti_sys::CuptiFunctions;

use super::backend::Backend;
use super::driver_sync::synchronize_devices;
use super::periodic::PeriodicFlush;
use super::probe::stride_probe;
use super::route::{self, Route};
use super::{ActivityConfig, ActivityCounts, ActivityKind, DeviceSync, FieldSelection, RecordClock};
use crate::decode::{CuptiWalker, DecoderShared, RecordLayouts};
use crate::{Cupti, Error, Result};

/// `CUPTI_ACTIVITY_FLAG_FLUSH_FORCED`.
const FLUSH_FORCED: u32 = 1;
/// Buffers allocated when the session is created, so CUPTI's first requests do not allocate.
const WARM_BUFFERS: usize = 2;
/// How long the fence waits for its record before synchronizing the device again.
const RESYNC_AFTER: Duration = Duration::from_millis(100);
/// How long the end of a session waits for CUPTI to hand back the buffers of its final flush.
const RETURN_WAIT: Duration = Duration::from_secs(2);

/// The route pointer, owned by the session until detached.
struct RouteHandle(*const Route);

// SAFETY: a `Route` is `Send + Sync` (a `Handoff`, atomics); the handle only reads through it, and the
// route outlives the handle (freed in `detach`, called once, when the session ends).
unsafe impl Send for RouteHandle {}
// SAFETY: as above.
unsafe impl Sync for RouteHandle {}

/// What one `flush` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlushReport {
    /// True when a device synchronization ran and its SYNCHRONIZATION record (past the fence point) was
    /// decoded: every record of work issued before the call has been delivered.
    pub fenced: bool,
    /// Flush rounds (`cuptiActivityFlushAll` + waiting for the decode thread) until then.
    pub rounds: u32,
    /// Time spent.
    pub waited: Duration,
}

/// An activity session: CUPTI hands buffers of records to a bounded lock-free pool, the completion
/// callback only hands them to a decode thread, which turns them into column batches for the consumers.
///
/// One per process (CUPTI's buffer callbacks are process-wide): creating a second while one lives is
/// [`Error::ActivitySessionActive`]. Typical use:
///
/// ```no_run
/// use cupti::activity::{ActivityConfig, ActivitySession};
/// use accelprof_core::FamilySet;
///
/// let cupti = cupti::Cupti::load()?;
/// let session = ActivitySession::new(&cupti, ActivityConfig::default())?;
/// let kernels = session.collect(FamilySet::KERNEL);
/// session.start()?;
/// // ... CUDA work ...
/// session.flush(true)?; // every record up to here is delivered
/// let batch = kernels.take();
/// println!("{} kernels", batch.kernels.len());
/// let counts = session.stop()?;
/// assert_eq!(counts.pipeline.records_produced(), counts.pipeline.records_delivered + counts.pipeline.records_dropped());
/// # Ok::<(), cupti::Error>(())
/// ```
///
/// The session borrows the library, so it cannot outlive it:
///
/// ```compile_fail
/// let session = {
///     let cupti = cupti::Cupti::load().unwrap();
///     cupti::activity::ActivitySession::new(&cupti, Default::default()).unwrap()
/// };
/// ```
///
/// Ending the session (`stop`, or drop) fences a last time, disables its kinds, then issues the only
/// FORCED flush this crate ever makes, so CUPTI hands back every buffer before the memory is released:
/// a kernel still running at that moment is delivered with `end = 0`. During collection flushes are never
/// forced (a forced flush returns in-flight kernels with `end = 0` and never re-delivers them).
pub struct ActivitySession<'lib> {
    cupti: &'lib Cupti,
    config: ActivityConfig,
    backend: Backend,
    backend_note: Option<String>,
    pipeline: Option<Pipeline>,
    handoff: Handoff,
    shared: Arc<DecoderShared>,
    route: Option<RouteHandle>,
    clock: RecordClock,
    state: Mutex<State>,
    periodic: Mutex<Option<PeriodicFlush>>,
}

/// What was enabled in CUPTI (guarded: `start`, `flush(true)` and `stop` may run on different threads).
#[derive(Default)]
struct State {
    enabled: Vec<ActivityKind>,
    started: bool,
    /// The fields asked for so far (config and [`ActivitySession::select_fields`]); enabled at `start`.
    fields: FieldSelection,
}

impl<'lib> ActivitySession<'lib> {
    /// Sets up a session: pool, decode thread, CUPTI's buffer callbacks. Nothing is collected before
    /// [`start`](Self::start), so consumers subscribed in between see every record.
    #[doc(alias = "cuptiActivityRegisterCallbacks")]
    pub fn new(cupti: &'lib Cupti, config: ActivityConfig) -> Result<Self> {
        if route::is_live() {
            return Err(Error::ActivitySessionActive);
        }
        let (backend, backend_note) = Backend::choose(cupti, config.api, config.kinds, &config.api_filter)?;
        let layouts = RecordLayouts::for_version(cupti.version());
        let mut walker =
            CuptiWalker::new(layouts).emit_sync_rows(config.kinds.contains(ActivityKind::SYNCHRONIZATION));
        if !backend.user_defined() {
            if let Some(probe) = stride_probe(cupti) {
                walker = walker.with_stride_probe(probe);
            }
        }
        if let Some(transform) = &config.kernel_names {
            let transform = Arc::clone(&transform.0);
            walker = walker.with_kernel_name_transform(Box::new(move |raw| transform(raw)));
        }
        let shared = walker.shared();
        let pool = BufferPool::try_new(config.buffer_size, config.max_buffers_in_flight)
            .map_err(|e| Error::Pipeline(format!("activity buffers: {e}")))?;
        pool.warm(WARM_BUFFERS.min(config.max_buffers_in_flight));
        let pipeline_config = PipelineConfig {
            batch_rows: config.batch_rows,
            // A periodic flush delivers on its own period too, unless a batch interval is given.
            flush_interval: config.batch_interval.or(config.flush_period),
            thread_name: "cupti-decode".into(),
        };
        let pipeline =
            Pipeline::start(walker, pool, pipeline_config).map_err(|e| Error::Pipeline(e.to_string()))?;
        let handoff = pipeline.handoff();
        let route = route::attach(Box::new(Route::new(handoff.clone(), config.policy, Arc::clone(&shared))))
            .map_err(|_| Error::ActivitySessionActive)?;
        // From here on our timestamps and external correlation go through this backend.
        backend.set_live(true);
        let clock = RecordClock::calibrate(cupti);
        let fields = config.fields.clone();
        let mut session = ActivitySession {
            cupti,
            config,
            backend,
            backend_note,
            pipeline: Some(pipeline),
            handoff,
            shared,
            route: Some(RouteHandle(route)),
            clock: RecordClock::from_readings(0, 0, 0),
            state: Mutex::new(State { fields, ..State::default() }),
            periodic: Mutex::new(None),
        };
        session.clock = clock?;
        backend.register_callbacks(cupti)?;
        Ok(session)
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
        let mut state = self.lock_state();
        if !state.started {
            state.fields.union_with(fields);
            return Ok(());
        }
        if !self.backend.user_defined() || state.fields.contains(fields) {
            return Ok(());
        }
        Err(Error::InvalidOperation { function: "ActivitySession::select_fields (after start)" })
    }

    /// The fields selected so far (enabled in CUPTI once started, when records are user-defined).
    pub fn fields(&self) -> FieldSelection {
        self.lock_state().fields.clone()
    }

    /// Whether records come as user-defined records through a subscriber of this session's own (the V2
    /// activity API, CUPTI 13.3 and later), which lets other tools trace the process at the same time.
    /// False: CUPTI's fixed layouts through the process-wide (V1) functions.
    pub fn uses_user_defined_records(&self) -> bool {
        self.backend.user_defined()
    }

    /// Why [`ActivityApi::Auto`](super::ActivityApi::Auto) fell back to the V1 API although the library
    /// offers the V2 one (CUPTI refused the subscriber), if it did.
    pub fn api_fallback(&self) -> Option<&str> {
        self.backend_note.as_deref()
    }

    /// Calls `consumer` on the decode thread with every later batch holding rows of `families`.
    ///
    /// The batch is passed whole (it may hold other families too). A panic in `consumer` is caught and
    /// counted. Subscribe before [`start`](Self::start) to see every record: rows decoded while no
    /// consumer wants their family are counted as dropped (`Counts::records_unconsumed`).
    pub fn subscribe<F>(&self, families: FamilySet, consumer: F) -> ConsumerId
    where
        F: FnMut(&Batch, &Names) + Send + 'static,
    {
        self.pipeline().subscribe(families, consumer)
    }

    /// Stops calling a consumer (see `Pipeline::unsubscribe`).
    pub fn unsubscribe(&self, id: ConsumerId) -> bool {
        self.pipeline().unsubscribe(id)
    }

    /// A consumer that keeps a copy of every row of `families`; read them with [`Collected::take`].
    pub fn collect(&self, families: FamilySet) -> Collected {
        let collected = Collected { rows: Arc::new(Mutex::new(Batch::new())), names: self.names() };
        let rows = Arc::clone(&collected.rows);
        self.subscribe(families, move |batch, _| {
            let mut rows = rows.lock().unwrap_or_else(|e| e.into_inner());
            copy_families(&mut rows, batch, families);
        });
        collected
    }

    /// Enables the configured kinds: collection begins. Starts the periodic flush if configured.
    #[doc(alias = "cuptiActivityEnable")]
    pub fn start(&self) -> Result<()> {
        let mut state = self.lock_state();
        if state.started {
            return Ok(());
        }
        if self.config.system_thread_ids {
            self.backend.use_system_thread_ids(self.cupti)?;
        }
        // The fence needs the end of synchronizations, whatever was selected.
        let fence = FieldSelection::empty()
            .with(ActivityKind::SYNCHRONIZATION, [SyncField::SYNCHRONIZATION_FIELD_END.0])
            .expect("a field id of the headers");
        state.fields.union_with(&fence);
        let fields = state.fields.clone();
        for kind in self.config.kinds.iter() {
            if let Err(e) = self.enable_with(kind, &fields) {
                for kind in state.enabled.drain(..).rev() {
                    let _ = self.disable(kind);
                }
                return Err(e);
            }
            state.enabled.push(kind);
        }
        if self.config.kinds.contains(ActivityKind::CUDA_EVENT) {
            // Device timestamps for CUDA events exist from 13.0 on; without them records carry none.
            self.backend.enable_cuda_event_device_timestamps(self.cupti);
        }
        state.started = true;
        drop(state);
        if let Some(period) = self.config.flush_period {
            let functions = CuptiFunctions::new(self.cupti.functions().resolver().clone());
            let periodic = PeriodicFlush::start(functions, self.backend, self.handoff.clone(), period)
                .map_err(|e| Error::Pipeline(format!("could not start the periodic flush thread: {e}")))?;
            *self.periodic.lock().unwrap_or_else(|e| e.into_inner()) = Some(periodic);
        }
        Ok(())
    }

    /// Hands over what CUPTI has and waits until the decode thread delivered it.
    ///
    /// - `sync == false`: `cuptiActivityFlushAll(0)` (completed buffers only, never forced), then waits
    ///   until the buffers CUPTI handed back so far are decoded and delivered.
    /// - `sync == true`: the fence. When it returns `Ok` with `fenced`, every record of work issued before
    ///   the call has been delivered: SYNCHRONIZATION is enabled (if the session does not collect it
    ///   anyway), CUPTI's clock is read, the device is synchronized ([`DeviceSync`]; this also makes CUPTI
    ///   write a SYNCHRONIZATION record past that reading), then unforced flushes repeat until a
    ///   synchronization record that recent has been decoded (CUPTI hands buffers back in fill order, so
    ///   everything before it is delivered too); SYNCHRONIZATION is then disabled again. When no device
    ///   work can exist (no CUDA context, or [`DeviceSync::Skip`]), it flushes and waits as with `false`
    ///   (`fenced` is false). [`Error::FenceTimeout`] after `fence_timeout`.
    #[doc(alias = "cuptiActivityFlushAll")]
    pub fn flush(&self, sync: bool) -> Result<FlushReport> {
        let begun = Instant::now();
        if !sync {
            self.flush_completed()?;
            self.wait_delivered()?;
            return Ok(FlushReport { fenced: false, rounds: 1, waited: begun.elapsed() });
        }
        let state = self.lock_state();
        let fence_kind = ActivityKind::SYNCHRONIZATION;
        let added = state.started && !state.enabled.contains(&fence_kind);
        if added {
            self.flush_completed()?;
            self.enable_with(fence_kind, &state.fields)?;
        }
        let fenced = self.fence(begun);
        if added {
            let _ = self.flush_completed();
            let _ = self.disable(fence_kind);
        }
        drop(state);
        self.poll_dropped();
        self.wait_delivered()?;
        fenced
    }

    /// The fence proper (see [`flush`](Self::flush)).
    ///
    /// The synchronization record can itself be lost (a declined buffer under the lossy policy, CUPTI
    /// dropping it): when CUPTI reports dropped records, or no fence record arrived for a while, the device
    /// is synchronized again. Any synchronization record ending after `target` proves the fence, so the
    /// target stays the same.
    fn fence(&self, begun: Instant) -> Result<FlushReport> {
        let target = self.cupti.timestamp()?;
        let synced = self.synchronize_device()?;
        let mut last_sync = Instant::now();
        let mut rounds = 0;
        let mut pause = Duration::from_micros(200);
        loop {
            rounds += 1;
            self.flush_completed()?;
            self.wait_delivered()?;
            if !synced || self.shared.max_sync_end() >= target {
                return Ok(FlushReport { fenced: synced, rounds, waited: begun.elapsed() });
            }
            if begun.elapsed() >= self.config.fence_timeout {
                return Err(Error::FenceTimeout { waited: begun.elapsed() });
            }
            let dropped = self.poll_dropped();
            if dropped > 0 || last_sync.elapsed() >= RESYNC_AFTER {
                self.synchronize_device()?;
                last_sync = Instant::now();
                pause = Duration::from_micros(200);
                continue;
            }
            // CUPTI hands flushed buffers back on its own thread, shortly after the flush returns.
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }

    /// The configured device synchronization: whether device work was waited for.
    fn synchronize_device(&self) -> Result<bool> {
        match &self.config.device_sync {
            DeviceSync::Driver => synchronize_devices(),
            DeviceSync::Custom(sync) => sync(),
            DeviceSync::Skip => Ok(false),
        }
        .map_err(|e| Error::Pipeline(format!("flush(sync): the device synchronization failed: {e}")))
    }

    /// Ends the session (see the type's docs) and returns the final tallies; `Err` when the last fence
    /// failed (the session is ended all the same: see [`end`](Self::end) to get the tallies then too).
    pub fn stop(self) -> Result<ActivityCounts> {
        let end = self.end();
        end.fence.map(|_| end.counts)
    }

    /// Ends the session (see the type's docs): the final tallies, and how the last fence went.
    pub fn end(mut self) -> SessionEnd {
        self.finish()
    }

    /// The tallies now. Once the session is quiet (after `flush(true)` with no CUDA work running, or at
    /// `stop`): `pipeline.records_produced() == pipeline.records_delivered + pipeline.records_dropped()`.
    pub fn counts(&self) -> ActivityCounts {
        let route = self.route.as_ref().map(|r| {
            // SAFETY: the route lives until `detach`, which takes the handle out first.
            unsafe { &*r.0 }
        });
        ActivityCounts {
            pipeline: self.handoff.counts(),
            decoder: self.shared.stats(),
            pool: self.handoff.pool().stats(),
            overflow_buffers: route.map_or(0, Route::overflow_total),
            buffers_held_by_cupti: route.map_or(0, Route::outstanding),
        }
    }

    /// Names of the `NameId`s in delivered batches.
    pub fn names(&self) -> Names {
        self.pipeline().names()
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
        RecordLayouts::for_version(self.cupti.version())
    }

    fn pipeline(&self) -> &Pipeline {
        self.pipeline.as_ref().expect("the pipeline lives until the session ends")
    }

    fn lock_state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Enables `kind` with the session's API filter and the fields selected so far (`fields`: the state's,
    /// passed in because the caller holds the state's lock).
    fn enable_with(&self, kind: ActivityKind, fields: &FieldSelection) -> Result<()> {
        self.backend.enable(self.cupti, kind, &self.config.api_filter, fields)
    }

    fn disable(&self, kind: ActivityKind) -> Result<()> {
        self.backend.disable(self.cupti, kind)
    }

    /// `cuptiActivityFlushAll(0)`: completed buffers only.
    fn flush_completed(&self) -> Result<()> {
        // SAFETY: a plain call.
        let r = unsafe { self.cupti.functions().cuptiActivityFlushAll(0) };
        self.cupti.check("cuptiActivityFlushAll", r)
    }

    fn poll_dropped(&self) -> u64 {
        poll_dropped(self.cupti.functions(), self.backend, &self.handoff)
    }

    fn wait_delivered(&self) -> Result<()> {
        self.pipeline().sync().map_err(|e| Error::Pipeline(e.to_string()))
    }

    /// Teardown, once: fence, disable, final forced flush, detach, stop the decode thread.
    fn finish(&mut self) -> SessionEnd {
        drop(self.periodic.lock().unwrap_or_else(|e| e.into_inner()).take());
        let mut fence = Ok(FlushReport { fenced: false, rounds: 0, waited: Duration::ZERO });
        let started = self.lock_state().started;
        if started {
            fence = self.flush(true);
            let enabled = std::mem::take(&mut self.lock_state().enabled);
            for kind in enabled.into_iter().rev() {
                let _ = self.disable(kind);
            }
            self.lock_state().started = false;
        }
        if let Some(route) = &self.route {
            // SAFETY: the route lives until `detach` below.
            let route = unsafe { &*route.0 };
            if route.outstanding() > 0 {
                // The only forced flush: CUPTI must give back every buffer before its memory goes.
                // SAFETY: a plain call.
                let _ = unsafe { self.cupti.functions().cuptiActivityFlushAll(FLUSH_FORCED) };
                let begun = Instant::now();
                while route.outstanding() > 0 && begun.elapsed() < RETURN_WAIT {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
        self.poll_dropped();
        let _ = self.wait_delivered();
        let final_counts = self.counts();
        if let Some(route) = self.route.take() {
            // SAFETY: attached in `new`, detached only here (the handle is taken out).
            unsafe { route::detach(route.0) };
        }
        self.backend.set_live(false);
        let pipeline = self.pipeline.take().map(Pipeline::shutdown);
        let counts = ActivityCounts { pipeline: pipeline.unwrap_or(final_counts.pipeline), ..final_counts };
        SessionEnd { counts, fence }
    }
}

impl Drop for ActivitySession<'_> {
    fn drop(&mut self) {
        if self.pipeline.is_some() {
            let _ = self.finish();
        }
    }
}

impl fmt::Debug for ActivitySession<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActivitySession")
            .field("kinds", &self.config.kinds)
            .field("api_filter", &self.config.api_filter.to_string())
            .field("user_defined_records", &self.backend.user_defined())
            .field("clock", &self.clock)
            .field("counts", &self.counts())
            .finish_non_exhaustive()
    }
}

/// Reads CUPTI's count of records dropped since the last read (it resets on read), adds it to the
/// pipeline's `vendor_dropped` and returns it.
pub(crate) fn poll_dropped(functions: &CuptiFunctions, backend: Backend, handoff: &Handoff) -> u64 {
    let dropped = backend.take_dropped(functions);
    if dropped > 0 {
        handoff.vendor_dropped(dropped);
    }
    dropped
}

/// How a session ended ([`ActivitySession::end`]).
#[derive(Debug)]
pub struct SessionEnd {
    /// The final tallies (after the last flush: nothing is pending).
    pub counts: ActivityCounts,
    /// The last fence (`flush(true)`); an error means records of work still running at the end may have
    /// come with `end = 0` from the final forced flush.
    pub fence: Result<FlushReport>,
}

/// Rows of a session kept by [`ActivitySession::collect`].
#[derive(Clone)]
pub struct Collected {
    rows: Arc<Mutex<Batch>>,
    names: Names,
}

impl Collected {
    /// Takes the rows kept so far (call `flush` first to have everything up to now).
    pub fn take(&self) -> Batch {
        std::mem::take(&mut *self.rows.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Names of the rows' `NameId`s.
    pub fn names(&self) -> &Names {
        &self.names
    }
}

impl fmt::Debug for Collected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.rows.lock().map(|b| b.len()).unwrap_or(0);
        f.debug_struct("Collected").field("rows", &rows).finish()
    }
}

/// Appends the rows of `families` of `src` to `dst`.
pub fn copy_families(dst: &mut Batch, src: &Batch, families: FamilySet) {
    if families.contains(FamilySet::KERNEL) {
        dst.kernels.extend_from(&src.kernels);
    }
    if families.contains(FamilySet::MEMCPY) {
        dst.memcpys.extend_from(&src.memcpys);
    }
    if families.contains(FamilySet::MEMSET) {
        dst.memsets.extend_from(&src.memsets);
    }
    if families.contains(FamilySet::API) {
        dst.api_calls.extend_from(&src.api_calls);
    }
    if families.contains(FamilySet::MARKER) {
        dst.markers.extend_from(&src.markers);
    }
    if families.contains(FamilySet::COLLECTIVE) {
        dst.collectives.extend_from(&src.collectives);
    }
    if families.contains(FamilySet::MEMORY) {
        dst.memory.extend_from(&src.memory);
    }
    if families.contains(FamilySet::SYNC) {
        dst.syncs.extend_from(&src.syncs);
    }
    if families.contains(FamilySet::EXTERNAL_CORRELATION) {
        dst.external_correlations.extend_from(&src.external_correlations);
    }
    if families.contains(FamilySet::COUNTER) {
        dst.counters.extend_from(&src.counters);
    }
}

/// A session is shared between threads (a flush on one, counts on another).
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<ActivitySession<'static>>();
    send_sync::<Collected>();
};
