//! The activity API: buffer tracing (kernels, copies, API calls, markers) and buffered counter values,
//! copied out of the SDK's buffers and decoded off its threads into `accelprof-core` columns.
//!
//! ```text
//! SDK's thread:   buffer callback -> records copied into a pooled buffer, handed to the decode thread
//! decode thread:  the walker (crate::decode): records -> columns -> consumers
//! ```
//!
//! - [`ActivitySession`]: a context, its buffer and the buffer-tracing services of the kinds in
//!   [`ActivityConfig`], made in the configure window
//!   ([`Configurator::activity_session`](crate::Configurator::activity_session)); the shared core's
//!   `accelprof_core::activity::Session` over rocprofiler's [`Backend`], with the same calls as the other
//!   vendors' sessions (start, flush, fence, pause, resume, stop, end).
//! - [`Buffer`]: an SDK buffer on its own, for tools that attach services of their own contexts to it
//!   (dispatch counting, several contexts into one buffer).
//! - [`ActivityCounts`]: the core's tallies, with rocprofiler's extras ([`RocprofilerCounts`]).

mod backend;
mod buffer;
mod config;
mod counts;
mod session;

pub use crate::ids::{ActivityKind, ActivityKinds};
pub use accelprof_core::activity::{copy_families, Collected, FlushReport};
pub use backend::{Backend, DropTallies};
pub(crate) use buffer::FRAME_HEADER;
pub use buffer::{Buffer, BufferConfig, CallbackThread, MAX_BUFFER_SIZE, MIN_BUFFER_SIZE};
pub use config::ActivityConfig;
pub use counts::{ActivityCounts, RocprofilerCounts};
pub use session::{ActivitySession, ActivitySwitch, SessionEnd};
