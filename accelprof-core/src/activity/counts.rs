use crate::pipeline::Counts;
use crate::pool::PoolStats;

/// Everything an activity session counts, the same type for every vendor; `V` holds what only one vendor
/// counts (`cupti::activity::CuptiCounts`, `mspti::activity::MsptiCounts`,
/// `rocprofiler::activity::RocprofilerCounts`), in [`vendor`](Self::vendor).
///
/// The ledger: once the session is quiet (after a fence with no producer running, or at the end),
/// `records_produced() == records_delivered() + records_dropped() + records_filtered()`, and
/// [`dropped`](Self::dropped) says why each dropped record was dropped (records the user's filter left
/// out are not dropped: they were asked to be left out). Where the walker cannot know how many records a buffer held
/// after a record of unknown size, the ledger says so by name: `pipeline.buffers_cut_short` and
/// `pipeline.bytes_abandoned` (and [`is_balanced`](Self::is_balanced) is false).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActivityCounts<V = ()> {
    // No intra-doc link here: the vendor crates' `ActivityCounts` aliases show this field's docs,
    // and rustdoc leaves a link from there unresolved, as a raw path, without a warning.
    /// Buffers, rows decoded, delivered, dropped: the pipeline's `Counts`.
    pub pipeline: Counts,
    /// The buffer pool: allocated, free, in flight, declined.
    pub pool: PoolStats,
    /// Buffers lent beyond the pool's bound under a lossless policy, so far.
    pub overflow_buffers: u64,
    /// Buffers the vendor holds now (handed to it and not yet given back).
    pub buffers_held_by_vendor: usize,
    /// What another client of the vendor library took from this session, or left with it.
    pub other_client: OtherClient,
    /// What only this vendor counts.
    pub vendor: V,
}

/// Another client of the vendor library in the process (a framework's profiler, a monitoring agent), seen
/// through the process-wide buffer callbacks (CUPTI's and MSPTI's V1 activity API: one pair per process, the
/// last registration wins, buffers in flight complete to the winner, and any client's disable or flush acts
/// for every client). What it costs this session is counted here by cause, "taken by another client of the
/// vendor library"; while anything here is non-zero, [`ActivityCounts::is_balanced`] is false.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OtherClient {
    /// Buffers of ours that the vendor never gave back, even after the final forced flush at the end of
    /// the session: it completed them to another client's callbacks (registered after ours). Their records
    /// are in no count: they are the other client's to read now (or to ignore), and we cannot read them
    /// safely (the other client may free or reuse the memory). Known only at the end; the buffers' memory
    /// is never freed (the route is parked), so whatever the other client does with them is safe.
    pub buffers_taken: u64,
    /// When the earliest of those buffers was handed to the vendor (Unix ns): no record written before it
    /// is missing; records from then on may be (those in the taken buffers, and every record written into
    /// the other client's buffers afterwards).
    pub missing_since_unix_ns: Option<u64>,
    /// Buffers that were not ours, completed to our callbacks (another client registered before us and
    /// had buffers in flight): left untouched, never freed (their memory is the other client's, which will
    /// not see them again; the records in them, ours included, are lost to both). Such a client shares the
    /// process-wide state: its disable calls switch our kinds off too, so records may be missing from
    /// [`first_foreign_unix_ns`](Self::first_foreign_unix_ns) on even where no buffer of ours was taken.
    pub foreign_buffers: u64,
    /// When the first such buffer reached our callbacks (Unix ns).
    pub first_foreign_unix_ns: Option<u64>,
}

impl OtherClient {
    /// Whether another client took anything from this session or handed it its buffers.
    pub fn seen(&self) -> bool {
        self.buffers_taken > 0 || self.foreign_buffers > 0
    }

    /// The summary line of a tracer (`vendor`: "CUPTI"), without a newline: what was lost, to whom, from
    /// when. Empty when nothing was seen.
    pub fn summary_line(&self, vendor: &str) -> String {
        if !self.seen() {
            return String::new();
        }
        let since = self.missing_since().map_or_else(
            || "an unknown time".to_owned(),
            |ns| format!("Unix time {}.{:09} s", ns / 1_000_000_000, ns % 1_000_000_000),
        );
        format!(
            "LOST to another client of {vendor} in the process: {} buffers of ours taken (their records are in \
             no count), {} of its buffers handed to us (left untouched); records missing from {since}",
            self.buffers_taken, self.foreign_buffers
        )
    }

    /// From when records may be missing (Unix ns): the earlier of the two times.
    pub fn missing_since(&self) -> Option<u64> {
        match (self.missing_since_unix_ns, self.first_foreign_unix_ns) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
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
    /// Every record the vendor produced, as far as we know: decoded + skipped + lost by the vendor + left
    /// out by the user's filter.
    pub fn records_produced(&self) -> u64 {
        self.pipeline.records_produced()
    }

    /// Records the walker left out because the user's filter asked for that (e.g. CUPTI's API filter
    /// applied while decoding): neither delivered nor dropped.
    pub fn records_filtered(&self) -> u64 {
        self.pipeline.records_filtered
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

    /// Whether the ledger balances: produced = delivered + dropped + filtered, nothing pending, and every record
    /// of every buffer counted (no buffer cut short at a record of unknown size, no walker panic:
    /// records after such a point are in no count, so no balance can be claimed), and no other client of
    /// the vendor library took buffers of ours or handed us its own ([`OtherClient::seen`]: records were
    /// lost that no count holds).
    pub fn is_balanced(&self) -> bool {
        !self.other_client.seen()
            && self.pipeline.records_pending() == 0
            && self.pipeline.buffers_cut_short == 0
            && self.pipeline.walker_panics == 0
            && self.records_produced()
                == self.records_delivered() + self.records_dropped() + self.records_filtered()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_client_unbalances_the_ledger_and_is_named_in_one_line() {
        let quiet = ActivityCounts::<()>::default();
        assert!(quiet.is_balanced());
        assert_eq!(quiet.other_client.summary_line("CUPTI"), "");
        let taken = OtherClient {
            buffers_taken: 2,
            missing_since_unix_ns: Some(1_700_000_000_000_000_123),
            foreign_buffers: 1,
            first_foreign_unix_ns: Some(1_700_000_001_000_000_000),
        };
        // Records a filter left out balance the ledger: neither delivered nor dropped.
        let mut filtered = quiet;
        filtered.pipeline.records_decoded = 3;
        filtered.pipeline.records_delivered = 3;
        filtered.pipeline.records_filtered = 2;
        assert!(filtered.is_balanced() && filtered.records_filtered() == 2);
        assert_eq!((filtered.records_produced(), filtered.records_dropped()), (5, 0));
        let counts = ActivityCounts::<()> { other_client: taken, ..quiet };
        assert!(!counts.is_balanced(), "records were lost that no count holds");
        assert_eq!(taken.missing_since(), Some(1_700_000_000_000_000_123), "the earlier time");
        let line = taken.summary_line("CUPTI");
        assert!(!line.contains('\n'));
        assert_eq!(
            line,
            "LOST to another client of CUPTI in the process: 2 buffers of ours taken (their records are in no \
             count), 1 of its buffers handed to us (left untouched); records missing from Unix time \
             1700000000.000000123 s"
        );
    }
}
