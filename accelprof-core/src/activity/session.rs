use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::fence;
use super::route::{Attached, Route};
use super::{ActivityBackend, ActivityCounts, ActivityError, Collected, FlushDepth, OtherClient};
use crate::columns::{Batch, FamilySet};
use crate::intern::Names;
use crate::pipeline::{ConsumerId, Handoff, Pipeline, PipelineConfig, RecordWalker};
use crate::pool::BufferPool;

/// How a [`Session`] waits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionConfig {
    /// The decode thread's batching.
    pub pipeline: PipelineConfig,
    /// How long a fence waits for its record before giving up (default 10 s).
    pub fence_timeout: Duration,
    /// How long a fence waits for its record before synchronizing the device again (default 100 ms).
    pub resync_after: Duration,
    /// How long the end of a session waits for the vendor to hand back the buffers of its final forced
    /// flush (default 2 s).
    pub return_wait: Duration,
    /// Whether [`Session::start`] may start with no kind selected, the kinds enabled after it one by one
    /// (default false: [`ActivityError::NoKinds`]). MSPTI's sessions are used that way (each kind
    /// refused on its own, once the session runs).
    pub start_empty: bool,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            pipeline: PipelineConfig::default(),
            fence_timeout: Duration::from_secs(10),
            resync_after: Duration::from_millis(100),
            return_wait: Duration::from_secs(2),
            start_empty: false,
        }
    }
}

/// What one flush or fence did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlushReport {
    /// True when the fence synchronized the device and its probe saw a record past the fence point: every
    /// record of work issued before the call has been delivered. False for a plain flush, and for a fence
    /// where no device work could exist or the vendor has no probe (its flush is the fence then).
    pub fenced: bool,
    /// Flush rounds (a vendor flush and a wait for the decode thread) until then.
    pub rounds: u32,
    /// Time spent.
    pub waited: Duration,
}

/// How a session ended ([`Session::end`]).
#[derive(Debug)]
pub struct SessionEnd<V, E> {
    /// The final tallies (after the last flush: nothing is pending).
    pub counts: ActivityCounts<V>,
    /// The last fence; an error means records of work still running at the end may have come back
    /// incomplete from the final forced flush, or not at all (they are counted then).
    pub fence: Result<FlushReport, E>,
}

/// What the session and its [`Switch`]es share.
struct Shared<B: ActivityBackend> {
    backend: B,
    state: Mutex<State<B::Kind>>,
}

/// What is enabled in the vendor (guarded: calls may come from several threads, and from consumers).
struct State<K> {
    /// The kinds collected: enabled in the vendor while `started && !paused`.
    kinds: Vec<K>,
    started: bool,
    paused: bool,
    ended: bool,
}

impl<K> State<K> {
    /// Whether the kinds are enabled in the vendor now.
    fn on(&self) -> bool {
        self.started && !self.paused
    }
}

impl<B: ActivityBackend> Shared<B> {
    fn lock(&self) -> MutexGuard<'_, State<B::Kind>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Enables every kind, then the switch; on error nothing stays enabled.
    fn switch_on(&self, state: &State<B::Kind>) -> Result<(), B::Error> {
        for (i, kind) in state.kinds.iter().enumerate() {
            if let Err(e) = self.backend.enable(*kind) {
                for kind in state.kinds[..i].iter().rev() {
                    let _ = self.backend.disable(*kind);
                }
                return Err(e);
            }
        }
        if let Err(e) = self.backend.collect(true) {
            for kind in state.kinds.iter().rev() {
                let _ = self.backend.disable(*kind);
            }
            return Err(e);
        }
        Ok(())
    }

    /// Turns the switch off, then disables every kind; the first error, after trying them all.
    fn switch_off(&self, state: &State<B::Kind>) -> Result<(), B::Error> {
        let mut result = self.backend.collect(false);
        for kind in state.kinds.iter().rev() {
            let r = self.backend.disable(*kind);
            if result.is_ok() {
                result = r;
            }
        }
        result
    }

    fn pause(&self) -> Result<bool, B::Error> {
        let mut state = self.lock();
        if !state.on() || state.ended {
            return Ok(false);
        }
        state.paused = true;
        self.switch_off(&state).map(|()| true)
    }

    fn resume(&self) -> Result<bool, B::Error> {
        let mut state = self.lock();
        if !state.started || !state.paused || state.ended {
            return Ok(false);
        }
        self.switch_on(&state)?;
        state.paused = false;
        Ok(true)
    }
}

/// A cheap handle that pauses and resumes a [`Session`] from anywhere (a timer thread, a signal handler's
/// thread, a callback), without borrowing the session. After the session ended it does nothing.
pub struct Switch<B: ActivityBackend> {
    shared: Arc<Shared<B>>,
}

impl<B: ActivityBackend> Clone for Switch<B> {
    fn clone(&self) -> Self {
        Switch { shared: Arc::clone(&self.shared) }
    }
}

impl<B: ActivityBackend> Switch<B> {
    /// See [`Session::pause`].
    pub fn pause(&self) -> Result<bool, B::Error> {
        self.shared.pause()
    }

    /// See [`Session::resume`].
    pub fn resume(&self) -> Result<bool, B::Error> {
        self.shared.resume()
    }

    /// See [`Session::is_collecting`].
    pub fn is_collecting(&self) -> bool {
        let state = self.shared.lock();
        state.on() && !state.ended
    }
}

impl<B: ActivityBackend> fmt::Debug for Switch<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Switch").field("collecting", &self.is_collecting()).finish()
    }
}

/// An activity session, written once for every vendor over a small vendor [`ActivityBackend`]: the vendor
/// hands buffers of records to a bounded lock-free pool, its buffer callbacks only hand them to a decode
/// thread ([`Pipeline`]), which turns them into column batches for the consumers.
///
/// What it does for every vendor:
/// - the one-session guard and the routing of process-wide buffer callbacks (through the backend's
///   [`RouteSlot`](super::RouteSlot), when the vendor's callbacks carry no user data);
/// - enabling the kinds at [`start`](Self::start), [`pause`](Self::pause) and [`resume`](Self::resume);
/// - [`flush`](Self::flush) and the [`fence`](Self::fence) loop;
/// - the ledger ([`counts`](Self::counts): produced = delivered + dropped), and what another client of the
///   vendor library took from it ([`OtherClient`](super::OtherClient): buffers never given back after the
///   final forced flush, buffers not ours completed to our callbacks);
/// - the teardown order at [`end`](Self::end) (or drop): a last fence, the kinds disabled, a forced flush
///   only while the vendor still holds buffers, the route detached once no callback can reach it (parked
///   when the vendor keeps buffers), the decode thread drained and stopped.
///
/// Calls that wait for the decode thread ([`flush`](Self::flush), [`fence`](Self::fence)) are refused at
/// once on that thread (inside a consumer) with [`ActivityError::OnDecodeThread`], before anything is
/// locked; no lock a consumer can take is held while the decode thread is waited for, so a consumer may
/// pause, resume, read counts or subscribe while another thread waits in a fence.
pub struct Session<B: ActivityBackend> {
    shared: Arc<Shared<B>>,
    pipeline: Pipeline,
    handoff: Handoff,
    route: Mutex<Option<Attached<B::RouteData>>>,
    /// What another client of the vendor library took, as found at the end.
    other_client: Mutex<Option<OtherClient>>,
    /// Fences run one at a time (never taken on the decode thread).
    fence_serial: Mutex<()>,
    config: SessionConfig,
}

impl<B: ActivityBackend> Session<B> {
    /// Sets up a session: the decode thread running `walker` over buffers of `pool`, the route of the
    /// vendor's buffer callbacks, the callbacks registered. Nothing is collected before
    /// [`start`](Self::start), so consumers subscribed in between see every record. `kinds` are the kinds
    /// enabled at start.
    ///
    /// [`ActivityError::SessionActive`] when the backend's route has a session attached already.
    pub fn new<W: RecordWalker>(
        backend: B,
        walker: W,
        pool: Arc<BufferPool>,
        kinds: impl IntoIterator<Item = B::Kind>,
        config: SessionConfig,
    ) -> Result<Self, B::Error> {
        let route = backend.route();
        let active = || ActivityError::SessionActive { vendor: B::VENDOR };
        if route.as_ref().is_some_and(|(slot, _)| slot.is_live()) {
            return Err(active().into());
        }
        let pipeline = Pipeline::start(walker, pool, config.pipeline.clone()).map_err(ActivityError::from)?;
        let handoff = pipeline.handoff();
        let attached = match route {
            Some((slot, data)) => {
                Some(slot.attach(Box::new(Route::new(handoff.clone(), data))).map_err(|_| active())?)
            }
            None => None,
        };
        let mut kinds_vec: Vec<B::Kind> = Vec::new();
        for kind in kinds {
            if !kinds_vec.contains(&kind) {
                kinds_vec.push(kind);
            }
        }
        let state = State { kinds: kinds_vec, started: false, paused: false, ended: false };
        let session = Session {
            shared: Arc::new(Shared { backend, state: Mutex::new(state) }),
            pipeline,
            handoff,
            route: Mutex::new(attached),
            other_client: Mutex::new(None),
            fence_serial: Mutex::new(()),
            config,
        };
        if let Err(e) = session.shared.backend.register() {
            drop(session);
            return Err(e);
        }
        Ok(session)
    }

    /// Enables the kinds: collection begins. Starting again is a no-op. With no kind selected (none
    /// configured, none [`enable`](Self::enable)d), [`ActivityError::NoKinds`]: it would collect nothing
    /// (unless [`SessionConfig::start_empty`]).
    pub fn start(&self) -> Result<(), B::Error> {
        let mut state = self.shared.lock();
        if state.ended {
            return Err(ActivityError::Ended.into());
        }
        if state.started {
            return Ok(());
        }
        if state.kinds.is_empty() && !self.config.start_empty {
            return Err(ActivityError::NoKinds.into());
        }
        self.shared.switch_on(&state)?;
        state.started = true;
        Ok(())
    }

    /// Stops collecting until [`resume`](Self::resume): the kinds are disabled in the vendor, so a paused
    /// session costs the program nothing; what was collected stays, and a later fence still delivers
    /// everything produced before the pause. `Ok(false)` when not collecting (not started, paused,
    /// ended). Allowed from any thread, consumers included.
    pub fn pause(&self) -> Result<bool, B::Error> {
        self.shared.pause()
    }

    /// Collects again after [`pause`](Self::pause); `Ok(false)` when not paused (or not started, or ended).
    pub fn resume(&self) -> Result<bool, B::Error> {
        self.shared.resume()
    }

    /// Whether [`start`](Self::start) succeeded (and the session has not ended).
    pub fn is_started(&self) -> bool {
        self.shared.lock().started
    }

    /// Whether the session collects now (started, not paused, not ended).
    pub fn is_collecting(&self) -> bool {
        let state = self.shared.lock();
        state.on() && !state.ended
    }

    /// A handle that pauses and resumes this session from anywhere.
    pub fn switch(&self) -> Switch<B> {
        Switch { shared: Arc::clone(&self.shared) }
    }

    /// Collects `kind` too: enabled now when the session collects, else when it starts or resumes.
    pub fn enable(&self, kind: B::Kind) -> Result<(), B::Error> {
        let mut state = self.shared.lock();
        if state.ended {
            return Err(ActivityError::Ended.into());
        }
        if state.kinds.contains(&kind) {
            return Ok(());
        }
        if state.on() {
            self.shared.backend.enable(kind)?;
        }
        state.kinds.push(kind);
        Ok(())
    }

    /// Stops collecting `kind` (disabled now when the session collects).
    pub fn disable(&self, kind: B::Kind) -> Result<(), B::Error> {
        let mut state = self.shared.lock();
        let Some(at) = state.kinds.iter().position(|k| *k == kind) else { return Ok(()) };
        if state.on() && !state.ended {
            self.shared.backend.disable(kind)?;
        }
        state.kinds.remove(at);
        Ok(())
    }

    /// The kinds collected (enabled in the vendor while [`is_collecting`](Self::is_collecting)).
    pub fn kinds(&self) -> Vec<B::Kind> {
        self.shared.lock().kinds.clone()
    }

    /// Makes the vendor hand over every buffer it has ([`FlushDepth::All`]: never cutting records short)
    /// and waits until the decode thread delivered them. Records of work still running are not in it yet;
    /// [`fence`](Self::fence) waits for those.
    pub fn flush(&self) -> Result<FlushReport, B::Error> {
        let begun = Instant::now();
        self.refuse_on_decode_thread("ActivitySession::flush")?;
        self.refuse_ended()?;
        self.shared.backend.flush(FlushDepth::All)?;
        self.poll_dropped();
        self.pipeline.sync().map_err(ActivityError::from)?;
        Ok(FlushReport { fenced: false, rounds: 1, waited: begun.elapsed() })
    }

    /// The fence: when it returns `Ok` with `fenced`, every record of work issued before the call has been
    /// delivered. The backend's probe kind is enabled for the fence if the session does not collect it,
    /// the vendor's clock is read, the device synchronized (which makes the vendor write a probe record
    /// past that point), then unforced flushes repeat until such a record has been decoded, synchronizing
    /// again when the vendor reports dropped records or none came for a while
    /// ([`SessionConfig::resync_after`]). Without a probe, before [`start`](Self::start), or when no device
    /// work can exist, it flushes and waits once (`fenced` is false). [`ActivityError::FenceTimeout`] after
    /// [`SessionConfig::fence_timeout`].
    pub fn fence(&self) -> Result<FlushReport, B::Error> {
        let begun = Instant::now();
        self.refuse_on_decode_thread("ActivitySession::fence")?;
        self.refuse_ended()?;
        let _serial = self.fence_serial.lock().unwrap_or_else(|e| e.into_inner());
        self.fence_serialized(begun)
    }

    /// The fence, with `fence_serial` held by the caller.
    fn fence_serialized(&self, begun: Instant) -> Result<FlushReport, B::Error> {
        let backend = &self.shared.backend;
        if !self.shared.lock().started {
            // Before start no kind is enabled, the probe's neither: no record can prove the fence
            // (it would wait for its timeout) and no record of ours can be in flight. A flush.
            backend.flush(FlushDepth::All)?;
            self.poll_dropped();
            self.pipeline.sync().map_err(ActivityError::from)?;
            return Ok(FlushReport { fenced: false, rounds: 1, waited: begun.elapsed() });
        }
        let probe = match backend.fence_kind() {
            Some(kind) => {
                let state = self.shared.lock();
                if state.started && !(state.on() && state.kinds.contains(&kind)) {
                    backend.flush(FlushDepth::All)?;
                    backend.enable(kind)?;
                    Some(kind)
                } else {
                    None
                }
            }
            None => None,
        };
        let fenced = fence::run(backend, &self.pipeline, &self.handoff, &self.config, begun);
        if let Some(kind) = probe {
            let state = self.shared.lock();
            if !(state.on() && state.kinds.contains(&kind)) {
                let _ = backend.flush(FlushDepth::All);
                let _ = backend.disable(kind);
            }
        }
        self.poll_dropped();
        self.pipeline.sync().map_err(ActivityError::from)?;
        fenced
    }

    /// Ends the session (see the type's docs) and returns the final tallies and how the last fence went.
    /// Later calls (and drop) do nothing more: they return the tallies with `fence` =
    /// [`ActivityError::Ended`]. On the decode thread (inside a consumer) the fence is refused
    /// ([`ActivityError::OnDecodeThread`]) and nothing waits for the decode thread; the rest is done.
    pub fn end(&self) -> SessionEnd<B::Extras, B::Error> {
        let on_decode_thread = self.pipeline.is_decode_thread();
        let _serial =
            (!on_decode_thread).then(|| self.fence_serial.lock().unwrap_or_else(|e| e.into_inner()));
        let started = {
            let mut state = self.shared.lock();
            if state.ended {
                return SessionEnd { counts: self.counts(), fence: Err(ActivityError::Ended.into()) };
            }
            state.ended = true;
            state.started
        };
        let backend = &self.shared.backend;
        let fence = if on_decode_thread {
            Err(ActivityError::OnDecodeThread { call: "ActivitySession::end" }.into())
        } else if started {
            self.fence_serialized(Instant::now())
        } else {
            Ok(FlushReport::default())
        };
        {
            let mut state = self.shared.lock();
            if state.on() {
                let _ = self.shared.switch_off(&state);
            }
            state.started = false;
        }
        let held = self.buffers_held();
        if held > 0 {
            // The only forced flush: the vendor must give back every buffer before its memory goes.
            let _ = backend.flush(FlushDepth::Forced);
            let begun = Instant::now();
            while self.buffers_held() > 0 && begun.elapsed() < self.config.return_wait {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        self.poll_dropped();
        if !on_decode_thread {
            let _ = self.pipeline.sync();
        }
        // What the vendor did not give back after the forced flush, it gave to another client (see
        // `OtherClient::buffers_taken`).
        let other = self.other_client_now(true);
        *self.other_client.lock().unwrap_or_else(|e| e.into_inner()) = Some(other);
        let last = self.counts();
        drop(self.route.lock().unwrap_or_else(|e| e.into_inner()).take());
        backend.ended();
        let pipeline = self.pipeline.close();
        SessionEnd { counts: ActivityCounts { pipeline, ..last }, fence }
    }

    /// Whether [`end`](Self::end) ran.
    pub fn has_ended(&self) -> bool {
        self.shared.lock().ended
    }

    /// The tallies now. Once the session is quiet (after a fence with no work running, or at the end):
    /// `records_produced() == records_delivered() + records_dropped() + records_filtered()`.
    pub fn counts(&self) -> ActivityCounts<B::Extras> {
        let pool = self.handoff.pool();
        ActivityCounts {
            pipeline: self.handoff.counts(),
            pool: pool.stats(),
            overflow_buffers: pool.overflow_stats().total,
            buffers_held_by_vendor: self.buffers_held(),
            other_client: self.other_client_now(false),
            vendor: self.shared.backend.extras(),
        }
    }

    /// The other client's tally: the one found at the end once ended; else, from the route, the foreign
    /// buffers so far, and (`at_end`) the buffers still held as taken.
    fn other_client_now(&self, at_end: bool) -> OtherClient {
        if let Some(found) = *self.other_client.lock().unwrap_or_else(|e| e.into_inner()) {
            return found;
        }
        let route = self.route.lock().unwrap_or_else(|e| e.into_inner());
        let Some(route) = route.as_ref() else { return OtherClient::default() };
        let (foreign_buffers, first_foreign_unix_ns) = route.foreign();
        let (held, since) = if at_end { route.held_since() } else { (0, None) };
        OtherClient {
            buffers_taken: held as u64,
            missing_since_unix_ns: since,
            foreign_buffers,
            first_foreign_unix_ns,
        }
    }

    /// Calls `consumer` on the decode thread with every later batch holding rows of `families`.
    ///
    /// The batch is passed whole (it may hold other families too). A panic in `consumer` is caught and
    /// counted. Subscribe before [`start`](Self::start) to see every record: rows decoded while no consumer
    /// wants their family are counted as dropped (`Counts::records_unconsumed`).
    pub fn subscribe<F>(&self, families: FamilySet, consumer: F) -> ConsumerId
    where
        F: FnMut(&Batch, &Names) + Send + 'static,
    {
        self.pipeline.subscribe(families, consumer)
    }

    /// Stops calling a consumer (see [`Pipeline::unsubscribe`]).
    pub fn unsubscribe(&self, id: ConsumerId) -> bool {
        self.pipeline.unsubscribe(id)
    }

    /// A consumer that keeps a copy of every row of `families`; read them with [`Collected::take`].
    pub fn collect(&self, families: FamilySet) -> Collected {
        Collected::subscribe(&self.pipeline, families)
    }

    /// Names of the `NameId`s in delivered batches.
    pub fn names(&self) -> Names {
        self.pipeline.names()
    }

    /// The vendor side.
    pub fn backend(&self) -> &B {
        &self.shared.backend
    }

    /// The decode pipeline.
    pub fn pipeline(&self) -> &Pipeline {
        &self.pipeline
    }

    /// The vendor-thread side of the pipeline (for buffer callbacks that carry the session's data).
    pub fn handoff(&self) -> &Handoff {
        &self.handoff
    }

    /// How the session waits.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Reads the vendor's dropped-record count and adds it to the ledger; returns it.
    pub fn poll_dropped(&self) -> u64 {
        fence::poll_dropped(&self.shared.backend, &self.handoff)
    }

    fn buffers_held(&self) -> usize {
        self.route.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map_or(0, Attached::outstanding)
    }

    fn refuse_on_decode_thread(&self, call: &'static str) -> Result<(), B::Error> {
        if self.pipeline.is_decode_thread() {
            return Err(ActivityError::OnDecodeThread { call }.into());
        }
        if crate::callback::rcu::in_read_section() {
            return Err(ActivityError::InCallback { call }.into());
        }
        Ok(())
    }

    fn refuse_ended(&self) -> Result<(), B::Error> {
        if self.shared.lock().ended {
            return Err(ActivityError::Ended.into());
        }
        Ok(())
    }
}

impl<B: ActivityBackend> Drop for Session<B> {
    fn drop(&mut self) {
        let _ = self.end();
    }
}

impl<B: ActivityBackend> fmt::Debug for Session<B>
where
    B::Extras: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("vendor", &B::VENDOR)
            .field("kinds", &self.kinds())
            .field("collecting", &self.is_collecting())
            .field("counts", &self.counts())
            .finish_non_exhaustive()
    }
}
