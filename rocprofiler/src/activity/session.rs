//! [`ActivitySession`]: buffer tracing of one context, decoded off the SDK's threads into column
//! batches, with the same calls as the other vendors' sessions.

use std::fmt;

use accelprof_core::activity::Switch;

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
/// The shared core's [`Session`](accelprof_core::activity::Session) over rocprofiler's [`Backend`].
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

    /// Starts the session's context (`rocprofiler_start_context`): collection begins. Starting again is
    /// a no-op.
    #[doc(alias = "rocprofiler_start_context")]
    pub fn start(&self) -> Result<()> {
        self.core().start()
    }

    accelprof_core::session_facade! {
        vendor: "rocprofiler-sdk",
        core: |s| s.buffer.session(),
        end: |s| s.core().end(),
        backend: Backend,
        kind: ActivityKind,
        switch: ActivitySwitch,
        counts: ActivityCounts,
        session_end: SessionEnd,
        result: Result,

        /// Stops the session's context until [`resume`](Self::resume) (`rocprofiler_stop_context`);
        /// `Ok(false)` when it was not collecting. Allowed from any thread, consumers included (not from a
        /// counting record closure: [`Error::WouldDeadlock`]).
        #[doc(alias = "rocprofiler_stop_context")]
        fn pause;

        /// Makes the SDK deliver what the buffer holds (`rocprofiler_flush_buffer`) and waits until it has
        /// been decoded and delivered. [`ActivityError::OnDecodeThread`](accelprof_core::activity::ActivityError::OnDecodeThread)
        /// inside a consumer.
        #[doc(alias = "rocprofiler_flush_buffer")]
        fn flush;

        /// The fence: rocprofiler-sdk delivers a record once its operation completed and has no record that
        /// proves the device finished (`fenced` is false): a flush and a wait, as [`flush`](Self::flush),
        /// serialized with other fences and the end of the session.
        fn fence;
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
}

impl Drop for ActivitySession {
    fn drop(&mut self) {
        if !self.core().has_ended() {
            let _ = self.core().end();
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
