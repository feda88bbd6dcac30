//! How an activity session collects, buffers and batches.

use std::time::Duration;

use super::ActivityKinds;

/// Settings of an [`ActivitySession`](super::ActivitySession).
///
/// Build with struct update syntax: `ActivityConfig { max_buffers: 32, ..Default::default() }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivityConfig {
    /// The kinds enabled at [`start`](super::ActivitySession::start) (default none: enable them with
    /// [`ActivitySession::enable`](super::ActivitySession::enable)).
    pub kinds: ActivityKinds,
    /// Bytes per buffer handed to MSPTI (rounded up to a multiple of 8). MSPTI warns below 2 MiB
    /// and hands a buffer back once it is 80% full.
    pub buffer_size: usize,
    /// Buffers that exist at once, at most (the pool's bound). When all are with MSPTI or
    /// waiting to be decoded, a request is declined: MSPTI then loses records, which are counted.
    pub max_buffers: usize,
    /// Rows per batch handed to consumers (all families together).
    pub batch_rows: usize,
    /// Also hand over a partly filled batch once its oldest row waited this long.
    pub batch_interval: Option<Duration>,
    /// How often to check that MSPTI hands full buffers back, flushing them out when it does not
    /// (its manager thread can be lost at start, see `rescue.rs`); `None`: never check.
    pub stuck_buffer_check: Option<Duration>,
}

impl Default for ActivityConfig {
    /// No kinds, 2 MiB buffers, at most 16 (32 MiB), batches of 16 Ki rows, no time-based delivery,
    /// stuck buffers checked for every 100 ms.
    fn default() -> Self {
        ActivityConfig {
            kinds: ActivityKinds::empty(),
            buffer_size: 2 << 20,
            max_buffers: 16,
            batch_rows: 16 * 1024,
            batch_interval: None,
            stuck_buffer_check: Some(Duration::from_millis(100)),
        }
    }
}
