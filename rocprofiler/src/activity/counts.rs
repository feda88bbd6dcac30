//! An activity session's tallies: the shared core's [`ActivityCounts`](accelprof_core::activity::ActivityCounts)
//! with what only rocprofiler-sdk's side counts.

/// What a buffer (or an activity session) has seen. Once flushed: records produced = delivered +
/// dropped, where `pipeline.vendor_dropped` holds the SDK's own drop count (DISCARD policy) and the
/// records the buffer callback could not copy.
pub type ActivityCounts = accelprof_core::activity::ActivityCounts<RocprofilerCounts>;

/// What only rocprofiler-sdk's side of a session counts ([`ActivityCounts::vendor`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RocprofilerCounts {
    /// Records the SDK reported dropped so far (its cumulative drop count).
    pub sdk_drop_count: u64,
    /// Records the buffer callback could not copy out of the SDK's buffer (no pooled buffer free, a
    /// record of a layout this crate does not know).
    pub copy_failures: u64,
}
