//! The decode pipeline every vendor crate uses, written once.
//!
//! ```text
//! vendor thread:  Handoff::request_buffer()    -> a pooled buffer for the vendor (or a counted decline)
//! vendor thread:  Handoff::completed(buf, n)   -> a channel send; returns at once
//! decode thread:  RecordWalker::walk(bytes)    -> rows appended to the current Batch; buffer back to pool
//!                 batch full / sync / interval -> the Batch goes to every consumer of its families
//! ```
//!
//! The vendor-specific part is the [`RecordWalker`]: it parses one raw buffer and appends rows. Everything
//! else (threading, fences, counting, consumer isolation) lives here.

mod config;
mod consumer;
mod counts;
mod decode_loop;
mod error;
mod handoff;
mod link;
#[cfg(all(test, loom))]
mod loom_models;
mod message;
mod running;
mod walker;

pub use config::PipelineConfig;
pub use consumer::ConsumerId;
pub use counts::Counts;
pub use error::PipelineError;
pub use handoff::Handoff;
pub use running::Pipeline;
pub use walker::{RecordWalker, WalkStats};
