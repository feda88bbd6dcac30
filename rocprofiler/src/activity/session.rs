//! [`ActivitySession`]: buffer tracing of one context, decoded off the SDK's threads into column
//! batches, with the same calls as the other vendors' sessions.

use std::fmt;

use accelprof_core::activity::{Collected, FlushReport, Session, Switch};
use accelprof_core::pipeline::ConsumerId;
use accelprof_core::{Batch, FamilySet, Names};

use super::backend::Backend;
use super::{ActivityCounts, ActivityKind, Buffer, RocprofilerCounts};
use crate::error::{Error, Result};
use crate::tool::Context;

/// How a session ended ([`ActivitySession::end`]): the final tallies and how the last flush went.
pub type SessionEnd = accelprof_core::activity::SessionEnd<RocprofilerCounts, Error>;

/// Pauses and resumes an [`ActivitySession`] from anywhere ([`ActivitySession::switch`]).
pub type ActivitySwitch = Switch<Backend>;

/// An activity session: a context of its own whose buffer-tracing services write into one buffer, the
/// records copied out on the SDK's thread and decoded on a thread of the session's into column batches.
/// The shared core's [`Session`] over rocprofiler's [`Backend`].
///
/// Made only in the configure window, by
/// [`Configurator::activity_session`](crate::Configurator::activity_session) (the SDK allows contexts,
/// buffers and services only there), so a session that traces a kind it was not configured for cannot
/// be written; starting, pausing, flushing and ending are allowed at any time after. Several sessions
/// may live at once (each buffer callback carries its session).
///
/// ```no_run
/// use rocprofiler::activity::{ActivityConfig, ActivitySession};
/// use rocprofiler::{BufferKind, Configurator, FamilySet, Result, Tool};
///
/// struct Kernels(ActivitySession);
///
/// impl Tool for Kernels {
///     const NAME: &'static str = "kernels";
///     fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
///         let kinds = [BufferKind::KERNEL_DISPATCH, BufferKind::MEMORY_COPY].into_iter().collect();
///         let session = cfg.activity_session(ActivityConfig { kinds, ..Default::default() })?;
///         session.subscribe(FamilySet::KERNEL, |batch, _| println!("{} kernels", batch.kernels.len()));
///         session.start()?;
///         Ok(Kernels(session))
///     }
///     fn finalize(&mut self) {
///         let counts = self.0.counts();
///         assert_eq!(counts.records_produced(), counts.records_delivered() + counts.records_dropped());
///     }
/// }
/// rocprofiler::export_tool!(Kernels);
/// ```
///
/// Ending it ([`stop`](Self::stop), [`end`](Self::end) or drop) flushes a last time, stops its context
/// and stops the decode thread; what the SDK delivers into its buffer later is counted as discarded.
pub struct ActivitySession {
    buffer: Buffer,
    context: Context,
}

impl ActivitySession {
    pub(crate) fn new(buffer: Buffer, context: Context) -> Self {
        ActivitySession { buffer, context }
    }

    fn session(&self) -> &Session<Backend> {
        self.buffer.session()
    }

    /// Starts the session's context (`rocprofiler_start_context`): collection begins. Starting again is
    /// a no-op.
    #[doc(alias = "rocprofiler_start_context")]
    pub fn start(&self) -> Result<()> {
        self.session().start()
    }

    /// Stops the session's context until [`resume`](Self::resume) (`rocprofiler_stop_context`);
    /// `Ok(false)` when it was not collecting. Allowed from any thread, consumers included (not from a
    /// counting record closure: [`Error::WouldDeadlock`]).
    #[doc(alias = "rocprofiler_stop_context")]
    pub fn pause(&self) -> Result<bool> {
        self.session().pause()
    }

    /// Starts the context again after [`pause`](Self::pause); `Ok(false)` when not paused.
    pub fn resume(&self) -> Result<bool> {
        self.session().resume()
    }

    /// Whether the session collects now (started, not paused, not ended).
    pub fn is_collecting(&self) -> bool {
        self.session().is_collecting()
    }

    /// A handle that pauses and resumes this session from anywhere.
    pub fn switch(&self) -> ActivitySwitch {
        self.session().switch()
    }

    /// The kinds traced into the session's buffer.
    pub fn kinds(&self) -> Vec<ActivityKind> {
        self.session().kinds()
    }

    /// Calls `consumer` on the decode thread with each batch holding rows of `families`. A consumer must
    /// not wait for this session ([`flush`](Self::flush) and [`fence`](Self::fence) refuse there).
    pub fn subscribe<F>(&self, families: FamilySet, consumer: F) -> ConsumerId
    where
        F: FnMut(&Batch, &Names) + Send + 'static,
    {
        self.session().subscribe(families, consumer)
    }

    /// Removes a consumer.
    pub fn unsubscribe(&self, id: ConsumerId) -> bool {
        self.session().unsubscribe(id)
    }

    /// A consumer that keeps a copy of every row of `families`; read them with [`Collected::take`].
    pub fn collect(&self, families: FamilySet) -> Collected {
        self.session().collect(families)
    }

    /// The names the batches' `NameId`s refer to.
    pub fn names(&self) -> Names {
        self.session().names()
    }

    /// Makes the SDK deliver what the buffer holds (`rocprofiler_flush_buffer`) and waits until it has
    /// been decoded and delivered. [`ActivityError::OnDecodeThread`](accelprof_core::activity::ActivityError::OnDecodeThread)
    /// inside a consumer.
    #[doc(alias = "rocprofiler_flush_buffer")]
    pub fn flush(&self) -> Result<FlushReport> {
        self.session().flush()
    }

    /// The fence: rocprofiler-sdk delivers a record once its operation completed and has no record that
    /// proves the device finished (`fenced` is false): a flush and a wait, as [`flush`](Self::flush),
    /// serialized with other fences and the end of the session.
    pub fn fence(&self) -> Result<FlushReport> {
        self.session().fence()
    }

    /// The tallies now: see [`ActivityCounts`].
    pub fn counts(&self) -> ActivityCounts {
        self.session().counts()
    }

    /// The session's buffer (to have dispatch counting write into it too:
    /// [`Configurator::dispatch_counting_buffered`](crate::Configurator::dispatch_counting_buffered)).
    pub fn buffer(&self) -> &Buffer {
        &self.buffer
    }

    /// The session's context.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// Ends the session and returns the final tallies; `Err` when the last flush failed (the session is
    /// ended all the same: see [`end`](Self::end) to get the tallies then too).
    pub fn stop(self) -> Result<ActivityCounts> {
        let end = self.end();
        end.fence.map(|_| end.counts)
    }

    /// Ends the session: a last flush, the context stopped, the decode thread drained and stopped; the
    /// final tallies, and how the last flush went.
    pub fn end(self) -> SessionEnd {
        self.session().end()
    }

    /// The shared core's session this one is.
    pub fn core(&self) -> &Session<Backend> {
        self.session()
    }
}

impl Drop for ActivitySession {
    fn drop(&mut self) {
        if !self.session().has_ended() {
            let _ = self.session().end();
        }
    }
}

impl fmt::Debug for ActivitySession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActivitySession")
            .field("buffer", &self.buffer.id())
            .field("context", &self.context.id())
            .field("kinds", &self.kinds())
            .field("counts", &self.counts())
            .finish_non_exhaustive()
    }
}
