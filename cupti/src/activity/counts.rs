//! An activity session's tallies: the shared core's [`ActivityCounts`](accelprof_core::activity::ActivityCounts)
//! with what only CUPTI's decoder counts.

use crate::decode::DecoderStats;

/// Everything a session counts. "Nothing lost silently": every record CUPTI produced is in
/// `pipeline.records_delivered` or in `pipeline.records_dropped()` (declined buffers make CUPTI drop
/// records, which it reports and we add to `pipeline.vendor_dropped`), except the SYNCHRONIZATION records
/// of the fence's own probe when the session does not collect synchronizations
/// (`vendor.decoder.fence_records`) and NVTX range starts still waiting for their end
/// (`vendor.decoder.open_ranges`; a range is one row made of two records).
pub type ActivityCounts = accelprof_core::activity::ActivityCounts<CuptiCounts>;

/// What only CUPTI's side of a session counts ([`ActivityCounts::vendor`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CuptiCounts {
    /// The decoder's own tallies (fence records, truncated buffers, layout corrections, open ranges).
    pub decoder: DecoderStats,
}
