//! An activity session's tallies: the shared core's [`ActivityCounts`](accelprof_core::activity::ActivityCounts)
//! with what only MSPTI's side counts.

/// What an activity session has seen. Once quiet (after a flush with no producer running): records
/// produced = delivered + dropped, where `pipeline.records_dropped()` includes records lost by MSPTI for
/// want of a buffer (`pipeline.vendor_dropped`, one per declined buffer: a lower bound), records of unknown
/// kinds, and rows no consumer asked for. Records after an unknown kind in a buffer are in no count (MSPTI
/// says nothing of a buffer's record count, and the unknown record's size, so where the next one starts,
/// cannot be known): the ledger says so by name, `pipeline.buffers_cut_short` and
/// `pipeline.bytes_abandoned` (the same bytes as `vendor.abandoned_bytes`), and `is_balanced()` is false.
pub type ActivityCounts = accelprof_core::activity::ActivityCounts<MsptiCounts>;

/// What only MSPTI's side of a session counts ([`ActivityCounts::vendor`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MsptiCounts {
    /// Declined buffers MSPTI later handed back as NULL/0/0 (each counted as one record it dropped).
    pub null_completions: u64,
    /// Bytes from an unknown record kind to the end of its buffer, which could not be walked (the records
    /// in them are lost, how many cannot be known; `pipeline.bytes_abandoned` counts the same).
    pub abandoned_bytes: u64,
    /// The last unknown record kind met (0 = none).
    pub last_unknown_kind: u32,
    /// `msptiActivityFlushAll` calls made because MSPTI kept full buffers (its manager thread lost).
    pub rescue_flushes: u64,
    /// Waits for the device's records ([`ActivityConfig::device_settle`](super::ActivityConfig::device_settle))
    /// that ran out with records still arriving: records MSPTI wrote after the session ended (or
    /// after a fence) may be missing, how many cannot be known. Non-zero: the ledger is not whole.
    pub unsettled_waits: u64,
}
