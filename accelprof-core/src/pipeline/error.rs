use std::sync::Arc;

/// Why a pipeline operation did not complete.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// The decode thread could not be started.
    #[error("could not start the decode thread: {0}")]
    Spawn(#[source] Arc<std::io::Error>),
    /// The decode thread is no longer running (it was shut down).
    #[error("the decode thread is no longer running")]
    Stopped,
    /// Called from the decode thread itself (inside a consumer), where waiting for that thread would
    /// deadlock.
    #[error("sync() was called on the decode thread (inside a consumer); it would wait for itself")]
    OnDecodeThread,
    /// `sync_timeout` ran out before the decode thread caught up.
    #[error("the decode thread did not reach the fence in time")]
    Timeout,
}
