//! The decoder: records copied out of the SDK's buffers become [`accelprof_core`] column batches.
//!
//! The buffer callback (`activity/buffer.rs`) copies each record into a pooled buffer as a frame
//! (category, kind, payload length, padding; then the payload padded to 8 bytes); the walker
//! (`walker.rs`) runs on the decode thread and turns frames into rows: kernel dispatches, memory
//! copies, API calls, markers, counter values. Kernel names and marker messages come from callback
//! tracing of a context of the crate's own (`names.rs`).

mod names;
mod walker;

pub(crate) use names::{KernelNames, MarkerMessages};
pub(crate) use walker::Walker;
