//! The activity API: what ran on the GPU and when, as column batches, lossless and off CUPTI's threads.
//!
//! ```text
//! CUPTI, producing thread:  buffer requested -> a buffer from the bounded lock-free pool (or a counted decline)
//! CUPTI's thread:           buffer completed -> handed to the decode thread (a channel send), returns
//! decode thread:            CuptiWalker: records -> columns (kernels, copies, API calls, ...) -> consumers
//! ```
//!
//! - [`ActivitySession`]: one per process; [`ActivityConfig`] picks the kinds, which API calls are
//!   recorded ([`ApiFilter`]), the buffers and the loss policy. `flush(true)` is the fence: when it returns, everything issued before it is delivered.
//! - Records decode into `accelprof_core` column families (see [`crate::decode::CuptiWalker`] for which kind
//!   becomes what); timestamps are CUPTI's clock, mapped to Unix time by [`RecordClock`].
//! - [`ExternalCorrelation`]: tag a thread's CUDA calls with your own ids; [`ExternalContexts`]: nested
//!   contexts on one kind, the whole active stack recovered from the innermost id, metadata per context.

mod backend;
mod clock;
mod config;
mod contexts;
mod counts;
mod driver_sync;
mod external;
mod fields;
mod filter;
mod kind;
mod periodic;
mod probe;
mod route;
mod session;

pub use backend::ActivityApi;
pub use clock::{unix_now_ns, RecordClock};
pub use config::{ActivityConfig, BufferPolicy, DeviceSync, DeviceSyncFn, KernelNameTransform};
pub use contexts::{Context, ExternalContexts, Metadata};
pub use counts::ActivityCounts;
pub use external::{ExternalCorrelation, ExternalCorrelationKind};
pub(crate) use fields::KIND_FIELD;
pub use fields::{is_user_defined_decodable, FieldError, FieldSelection};
pub use filter::{ApiFilter, CbidFilter, KINETO_DRIVER_KEPT, KINETO_RUNTIME_LEFT_OUT};
pub use kind::{ActivityKind, ActivityKinds};
pub use route::{route_stats, RouteStats};
pub use session::{copy_families, ActivitySession, Collected, FlushReport, SessionEnd};
