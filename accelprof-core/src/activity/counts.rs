use crate::pipeline::Counts;
use crate::pool::PoolStats;

/// Everything an activity session counts, the same type for every vendor; `V` holds what only one vendor
/// counts (`cupti::activity::CuptiCounts`, `mspti::activity::MsptiCounts`,
/// `rocprofiler::activity::RocprofilerCounts`), in [`vendor`](Self::vendor).
///
/// The ledger: once the session is quiet (after a fence with no producer running, or at the end),
/// `records_produced() == records_delivered() + records_dropped()`, and [`dropped`](Self::dropped) says
/// why each dropped record was dropped. Where a vendor cannot know how many records it lost (bytes it
/// could not walk), its extras say so by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActivityCounts<V = ()> {
    /// Buffers, rows decoded, delivered, dropped (see [`Counts`]).
    pub pipeline: Counts,
    /// The buffer pool: allocated, free, in flight, declined.
    pub pool: PoolStats,
    /// Buffers lent beyond the pool's bound under a lossless policy, so far.
    pub overflow_buffers: u64,
    /// Buffers the vendor holds now (handed to it and not yet given back).
    pub buffers_held_by_vendor: usize,
    /// What only this vendor counts.
    pub vendor: V,
}

/// Why records were dropped (see [`ActivityCounts::dropped`]); their sum is
/// [`Counts::records_dropped`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Lost by the vendor, which reported them (no buffer to write them in, a full buffer under a
    /// discarding policy).
    pub by_vendor: u64,
    /// Read but not decoded (a kind the decoder does not read, a malformed record).
    pub skipped: u64,
    /// Decoded while no consumer was subscribed to their family.
    pub unconsumed: u64,
}

impl<V> ActivityCounts<V> {
    /// Every record the vendor produced, as far as we know: decoded + skipped + lost by the vendor.
    pub fn records_produced(&self) -> u64 {
        self.pipeline.records_produced()
    }

    /// Records handed to at least one consumer.
    pub fn records_delivered(&self) -> u64 {
        self.pipeline.records_delivered
    }

    /// Records that reached no consumer (the sum of [`dropped`](Self::dropped)).
    pub fn records_dropped(&self) -> u64 {
        self.pipeline.records_dropped()
    }

    /// The dropped records by cause.
    pub fn dropped(&self) -> Dropped {
        Dropped {
            by_vendor: self.pipeline.vendor_dropped,
            skipped: self.pipeline.skipped_unknown,
            unconsumed: self.pipeline.records_unconsumed,
        }
    }

    /// Whether the ledger balances: produced = delivered + dropped, nothing pending.
    pub fn is_balanced(&self) -> bool {
        self.pipeline.records_pending() == 0
            && self.records_produced() == self.records_delivered() + self.records_dropped()
    }
}
