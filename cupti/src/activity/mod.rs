//! The activity API: what ran on the GPU and when, as column batches, lossless and off CUPTI's threads.
//!
//! ```text
//! CUPTI, producing thread:  buffer requested -> a buffer from the bounded lock-free pool (or a counted decline)
//! CUPTI's thread:           buffer completed -> handed to the decode thread (a channel send), returns
//! decode thread:            Walker: records -> columns (kernels, copies, API calls, ...) -> consumers
//! ```
//!
//! - [`ActivitySession`]: one per process, the shared core's `accelprof_core::activity::Session` over
//!   CUPTI's [`Backend`]; [`ActivityConfig`] picks the kinds, which API calls are recorded
//!   ([`ApiFilter`], applied inside CUPTI or while decoding: [`ApiFilterAt`]), the buffers and the loss policy. [`ActivitySession::fence`] is the fence: when it
//!   returns, everything issued before it is delivered. [`ActivitySession::pause`] and `resume` switch
//!   collection off and on.
//! - Records decode into `accelprof_core` column families (see [`crate::decode::Walker`] for which kind
//!   becomes what); timestamps are CUPTI's clock, mapped to Unix time by [`RecordClock`].
//! - [`ExternalCorrelation`]: tag a thread's CUDA calls with your own ids; [`ExternalContexts`]: nested
//!   contexts on one kind, the whole active stack recovered from the innermost id, metadata per context.

mod api;
mod backend;
mod buffers;
mod clock;
mod config;
mod contexts;
mod counts;
mod driver_sync;
mod external;
mod fields;
mod filter;
mod filter_at;
mod periodic;
mod probe;
mod session;

pub use crate::ids::{ActivityKind, ActivityKinds};
pub use accelprof_core::activity::{copy_families, Collected, FlushReport, RouteStats};
pub use api::ActivityApi;
pub use backend::Backend;
pub use buffers::route_stats;
pub use clock::{unix_now_ns, RecordClock};
pub use config::{ActivityConfig, BufferPolicy, DeviceSync, DeviceSyncFn, KernelNameTransform};
pub use contexts::{Context, ExternalContexts, Metadata};
pub use counts::{ActivityCounts, CuptiCounts};
pub use external::{ExternalCorrelation, ExternalCorrelationKind};
pub(crate) use fields::KIND_FIELD;
pub use fields::{is_user_defined_decodable, FieldError, FieldSelection};
pub use filter::{ApiFilter, CbidFilter, KINETO_DRIVER_KEPT, KINETO_RUNTIME_LEFT_OUT};
pub use filter_at::{ApiFilterAt, KINETO_CUPTI_DISABLED_DRIVER, KINETO_CUPTI_DISABLED_RUNTIME};
pub use session::{ActivitySession, ActivitySwitch, SessionEnd};
