use std::sync::Arc;
use std::time::Duration;

use crate::pipeline::PipelineError;
use crate::pool::PoolError;

/// Why an activity session refused or could not finish a call, whatever the vendor. Each vendor crate's
/// `Error` holds it as `Error::Activity`.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ActivityError {
    /// Another activity session of this vendor is running in this process. The vendor's buffer callbacks
    /// are process-wide (plain function pointers, no user data), so a process has one session at a time.
    #[error(
        "an activity session is already running in this process: {vendor}'s activity buffer callbacks are \
         process-wide, so a process has one session at a time; end that session first"
    )]
    SessionActive {
        /// The vendor library (`"CUPTI"`, `"MSPTI"`).
        vendor: &'static str,
    },
    /// Called on the session's decode thread (inside a consumer), where waiting for the decode thread
    /// would wait for itself. Refused before anything is locked or waited for.
    #[error(
        "{call} was called on the activity session's decode thread (inside a consumer), where it would wait \
         for itself: call it from another thread"
    )]
    OnDecodeThread {
        /// The call refused (`"ActivitySession::flush"`).
        call: &'static str,
    },
    /// Called inside a vendor callback, where waiting for the decode thread could wait forever: a
    /// consumer on that thread may be waiting for every running callback to return (dropping a
    /// subscriber waits for that). Refused before anything is locked or waited for.
    #[error(
        "{call} was called inside a vendor callback, where waiting for the activity session's decode thread \
         could wait for the callback itself (a consumer dropping a subscriber waits for running callbacks): \
         call it from outside the callback"
    )]
    InCallback {
        /// The call refused (`"ActivitySession::flush"`).
        call: &'static str,
    },
    /// The session was started with no kind selected: it would collect nothing. Select kinds in the
    /// config (each vendor's default is its timeline kinds) or enable one before starting.
    #[error(
        "the activity session was started with no kind selected: it would collect nothing (select kinds in \
         its config, whose default is the timeline, or enable one before starting)"
    )]
    NoKinds,
    /// The session has ended ([`Session::end`](super::Session::end)).
    #[error("the activity session has ended")]
    Ended,
    /// The fence saw no record past its fence point in time: records of work issued before the call may
    /// still be in flight (they are delivered later or counted, never lost silently).
    #[error(
        "fence: no record past the fence point was decoded within {waited:?}; records issued before the call \
         may still be in flight"
    )]
    FenceTimeout {
        /// How long the fence waited.
        waited: Duration,
    },
    /// The kind cannot be enabled any more (rocprofiler-sdk configures services only while tools are
    /// configured).
    #[error("{kind} cannot be enabled now: {why}")]
    KindLocked {
        /// The kind, as the vendor names it.
        kind: String,
        /// Why.
        why: &'static str,
    },
    /// The session's buffer pool refused the sizes asked for.
    #[error("the activity session's buffers: {0}")]
    Pool(#[from] PoolError),
    /// The session's decode pipeline could not be started, or has stopped.
    #[error("the activity session's decode pipeline: {0}")]
    Pipeline(#[from] PipelineError),
    /// A thread of the session (a periodic flush, a watcher) could not be started.
    #[error("could not start the activity session's {thread} thread: {source}")]
    Spawn {
        /// Which thread.
        thread: &'static str,
        /// The system's reason.
        #[source]
        source: Arc<std::io::Error>,
    },
}

impl ActivityError {
    /// [`ActivityError::Spawn`] from the error of `std::thread::Builder::spawn`.
    pub fn spawn(thread: &'static str, error: std::io::Error) -> Self {
        ActivityError::Spawn { thread, source: Arc::new(error) }
    }
}
