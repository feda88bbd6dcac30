//! The vendor side of a rocprofiler-sdk activity session: what the shared core's
//! [`Session`](accelprof_core::activity::Session) asks of the SDK.
//!
//! The SDK's buffers belong to a context and are made, with their buffer-tracing services, only in
//! the configure window ([`Configurator`](crate::Configurator)): the backend is the session's buffer,
//! its context (the switch that starts and stops collection) and the kinds configured then. Its
//! buffer callback carries the session's data itself, so no process-wide route is needed, and several
//! sessions may live at once.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use accelprof_core::activity::{ActivityBackend, ActivityError, FlushDepth};
use rocprofiler_sys as sys;

use super::RocprofilerCounts;
use crate::error::{check, Error, Result};
use crate::ids::BufferKind;
use crate::library::Rocprofiler;
use crate::tool::Context;

/// What the buffer callback counts besides the records it hands on.
#[derive(Debug, Default)]
pub struct DropTallies {
    /// The SDK's cumulative drop count, as last delivered.
    pub(crate) last_drop_count: AtomicU64,
    /// Records the callback could not copy (no pooled buffer, an unknown layout).
    pub(crate) copy_failures: AtomicU64,
}

/// How a session reaches rocprofiler-sdk: its buffer, its context (when the session has one of its own)
/// and the kinds configured in the window.
pub struct Backend {
    pub(crate) lib: &'static Rocprofiler,
    /// The SDK's buffer handle (set once the buffer exists).
    pub(crate) buffer: AtomicU64,
    pub(crate) context: Option<Context>,
    pub(crate) kinds: Vec<BufferKind>,
    pub(crate) drops: Arc<DropTallies>,
}

impl ActivityBackend for Backend {
    type Kind = BufferKind;
    type Error = Error;
    type RouteData = ();
    type Extras = RocprofilerCounts;

    const VENDOR: &'static str = "rocprofiler-sdk";

    /// A kind is collected only if its buffer-tracing service was configured in the window.
    fn enable(&self, kind: BufferKind) -> Result<()> {
        if self.kinds.contains(&kind) {
            return Ok(());
        }
        Err(ActivityError::KindLocked {
            kind: kind.name().map_or_else(|| format!("buffer tracing kind {}", kind.0), str::to_owned),
            why: "rocprofiler-sdk configures buffer tracing only while tools are configured: name the kind \
                  in the ActivityConfig given to Configurator::activity_session",
        }
        .into())
    }

    /// Nothing per kind: the services stay configured; the context is the switch.
    fn disable(&self, _kind: BufferKind) -> Result<()> {
        Ok(())
    }

    /// Starts or stops the session's context (`rocprofiler_start_context` / `rocprofiler_stop_context`).
    /// A stop is the SDK's drain: the completions of work enqueued before it (kernel and copy
    /// records, which come later on HSA's async-signal thread) and counter results reach the
    /// buffer during the stop, so the buffer is flushed after it (their records reach the session
    /// before it pauses or ends).
    fn collect(&self, on: bool) -> Result<()> {
        match &self.context {
            Some(ctx) if on => ctx.start(),
            Some(ctx) => {
                let stopped = ctx.stop();
                let flushed = self.flush(FlushDepth::All);
                stopped.and(flushed)
            }
            None => Ok(()),
        }
    }

    /// `rocprofiler_flush_buffer` whatever the depth: the SDK delivers what the buffer holds.
    #[doc(alias = "rocprofiler_flush_buffer")]
    fn flush(&self, _depth: FlushDepth) -> Result<()> {
        let buffer = sys::rocprofiler_buffer_id_t { handle: self.buffer.load(Ordering::Acquire) };
        // SAFETY: a plain id.
        check(unsafe { self.lib.sys().rocprofiler_flush_buffer(buffer) }, "rocprofiler_flush_buffer")
    }

    fn extras(&self) -> RocprofilerCounts {
        RocprofilerCounts {
            sdk_drop_count: self.drops.last_drop_count.load(Ordering::Acquire),
            copy_failures: self.drops.copy_failures.load(Ordering::Relaxed),
        }
    }
}

impl fmt::Debug for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Backend")
            .field("buffer", &self.buffer.load(Ordering::Relaxed))
            .field("context", &self.context.map(|c| c.id()))
            .field("kinds", &self.kinds)
            .finish_non_exhaustive()
    }
}
