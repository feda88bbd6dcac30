//! [`ActivityCounts`]: every record accounted for.

use std::sync::atomic::Ordering::{Relaxed, SeqCst};

use accelprof_core::{Counts, PoolStats};

use super::buffers::{Shared, ORPHANED_BUFFERS};
use super::decode::WalkerTallies;

/// What an activity session has seen. Once quiet (after [`Activity::flush_all`](super::Activity::flush_all)
/// with no producer running): records produced = delivered + dropped, where
/// `pipeline.records_dropped()` includes records lost by MSPTI for want of a buffer
/// (`pipeline.vendor_dropped`, one per declined buffer: a lower bound), records of unknown
/// kinds, and rows no consumer asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActivityCounts {
    /// The decode pipeline's tallies.
    pub pipeline: Counts,
    /// The buffer pool's state.
    pub pool: PoolStats,
    /// Declined buffers MSPTI later handed back as NULL/0/0.
    pub null_completions: u64,
    /// Bytes after an unknown record kind that could not be walked (the records in them are lost).
    pub abandoned_bytes: u64,
    /// The last unknown record kind met (0 = none).
    pub last_unknown_kind: u32,
    /// Buffers MSPTI handed back when no session was running (freed undecoded; process-wide).
    pub orphaned_buffers: u64,
    /// `msptiActivityFlushAll` calls made because MSPTI kept full buffers (its manager thread lost).
    pub rescue_flushes: u64,
}

impl ActivityCounts {
    pub(crate) fn gather(pipeline: Counts, pool: PoolStats, tallies: &WalkerTallies) -> ActivityCounts {
        ActivityCounts {
            pipeline,
            pool,
            null_completions: pipeline.vendor_dropped,
            abandoned_bytes: tallies.abandoned_bytes.load(Relaxed),
            last_unknown_kind: tallies.last_unknown_kind.load(Relaxed) as u32,
            orphaned_buffers: ORPHANED_BUFFERS.load(SeqCst),
            rescue_flushes: 0,
        }
    }

    pub(crate) fn add_shared(&mut self, shared: &Shared) {
        self.null_completions = shared.null_completions.load(SeqCst);
        self.rescue_flushes = shared.flow.rescues.load(SeqCst);
    }
}
