//! An activity session's tallies: the shared core's [`ActivityCounts`](accelprof_core::activity::ActivityCounts)
//! with what only MSPTI's side counts.

/// What an activity session has seen. Once quiet (after a flush with no producer running): records
/// produced = delivered + dropped, where `pipeline.records_dropped()` includes records lost by MSPTI for
/// want of a buffer (`pipeline.vendor_dropped`, one per declined buffer: a lower bound), records of unknown
/// kinds, and rows no consumer asked for. Records after an unknown kind in a buffer are in no count: their
/// bytes are (`vendor.abandoned_bytes`).
pub type ActivityCounts = accelprof_core::activity::ActivityCounts<MsptiCounts>;

/// What only MSPTI's side of a session counts ([`ActivityCounts::vendor`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MsptiCounts {
    /// Declined buffers MSPTI later handed back as NULL/0/0 (each counted as one record it dropped).
    pub null_completions: u64,
    /// Bytes after an unknown record kind that could not be walked (the records in them are lost, how
    /// many cannot be known).
    pub abandoned_bytes: u64,
    /// The last unknown record kind met (0 = none).
    pub last_unknown_kind: u32,
    /// `msptiActivityFlushAll` calls made because MSPTI kept full buffers (its manager thread lost).
    pub rescue_flushes: u64,
}
