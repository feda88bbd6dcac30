//! The activity API: records of kernels, API calls, markers, memory operations and collectives,
//! collected through pooled buffers and decoded off MSPTI's threads into `accelprof-core` columns.

mod buffers;
mod config;
mod counts;
mod decode;
mod rescue;
mod session;

pub use config::ActivityConfig;
pub use counts::ActivityCounts;
pub use decode::data_type_size;
pub use session::Activity;
