//! The decoder: MSPTI activity buffers become [`accelprof_core`] column batches.
//!
//! The walker (`walker.rs`) is the crate's [`accelprof_core::RecordWalker`]: it runs on the
//! session's decode thread (never on MSPTI's), walks each completed buffer itself, records following each
//! other at their C sizes (an unknown kind ends the walk: its size, and so where the next record starts,
//! cannot be known; the bytes left are counted), and appends one row per record to the per-family columns
//! (`rows.rs`: kernels, API calls, markers, memory operations, collectives, external correlations).

mod rows;
mod walker;

pub use rows::data_type_size;
pub use walker::Walker;

/// The old name of [`Walker`] (every vendor crate's walker is `decode::Walker`).
#[deprecated(note = "renamed `Walker`, the name in every vendor crate")]
pub type MsptiWalker = Walker;
pub(crate) use walker::WalkerTallies;
