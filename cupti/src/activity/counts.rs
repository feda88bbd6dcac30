//! An activity session's tallies.

use accelprof_core::{Counts, PoolStats};

use crate::decode::DecoderStats;

/// Everything a session counts. "Nothing lost silently": every record CUPTI produced is in
/// `pipeline.records_delivered` or in `pipeline.records_dropped()` (declined buffers make CUPTI drop
/// records, which it reports and we add to `pipeline.vendor_dropped`), except the SYNCHRONIZATION records
/// of `flush(true)`'s own fence when the session does not collect synchronizations
/// (`decoder.fence_records`) and NVTX range starts still waiting for their end (`decoder.open_ranges`; a
/// range is one row made of two records).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActivityCounts {
    /// Buffers, rows decoded, delivered, dropped (see `accelprof_core::Counts`).
    pub pipeline: Counts,
    /// The decoder's own tallies (fence records, truncated buffers, layout corrections, open ranges).
    pub decoder: DecoderStats,
    /// The buffer pool: allocated, free, in flight, declined.
    pub pool: PoolStats,
    /// Buffers allocated beyond the pool's bound under the lossless policy.
    pub overflow_buffers: u64,
    /// Buffers CUPTI holds now.
    pub buffers_held_by_cupti: usize,
}

impl ActivityCounts {
    /// Records CUPTI produced that reached no consumer: dropped by CUPTI for want of a buffer, skipped by
    /// the decoder, or decoded while nobody subscribed to their family.
    pub fn records_lost(&self) -> u64 {
        self.pipeline.records_dropped()
    }
}
