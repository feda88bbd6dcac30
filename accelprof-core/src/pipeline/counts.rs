use std::sync::atomic::{AtomicU64, Ordering};

/// The pipeline's tallies. All record counts are rows (one record = one row).
///
/// The identity that must hold once the pipeline is quiet (after `sync()` with no producer running, or
/// after shutdown): `records_produced() == records_delivered + records_dropped() + records_filtered`
/// (records a filter left out are neither delivered nor dropped: the user asked for them to be left out). While records are in
/// flight, `records_pending()` holds the difference. The identity covers what the walkers could count:
/// a non-zero `buffers_cut_short` (a record whose size could not be known) or `walker_panics` (a walker
/// stopped in the middle of a buffer) means records after that point are in no count, and how many
/// cannot be known; `bytes_abandoned` says how much of the buffers they filled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Buffers handed to `Handoff::completed`.
    pub buffers_completed: u64,
    /// Vendor buffer requests we could not serve (pool at its bound).
    pub buffers_declined: u64,
    /// Buffers completed after the decode thread stopped: recycled undecoded, their records not counted.
    pub buffers_discarded: u64,
    /// Rows appended by the walker.
    pub records_decoded: u64,
    /// Rows handed to at least one consumer subscribed to their family.
    pub records_delivered: u64,
    /// Rows decoded while no consumer was subscribed to their family (dropped, counted).
    pub records_unconsumed: u64,
    /// Records the walker read but did not decode (dropped, counted).
    pub skipped_unknown: u64,
    /// Records the walker read and left out as the user's filter asked (`WalkStats::filtered`): not
    /// dropped, and in no row.
    pub records_filtered: u64,
    /// Records the vendor reports it lost (e.g. no buffer available), from `Handoff::vendor_dropped`.
    pub vendor_dropped: u64,
    /// Consumer calls that panicked (caught; the decode thread keeps going).
    pub consumer_panics: u64,
    /// Walker calls that panicked (caught; the buffer is recycled).
    pub walker_panics: u64,
    /// Buffers whose walk stopped before their end at a record whose size could not be known
    /// (`WalkStats::abandoned_bytes`): the records after it are in no count, how many cannot be known.
    pub buffers_cut_short: u64,
    /// The bytes those buffers held from the record that stopped the walk to their end.
    pub bytes_abandoned: u64,
}

impl Counts {
    /// Every record the vendor produced as far as we know: decoded + skipped + lost by the vendor +
    /// left out by the user's filter.
    pub fn records_produced(&self) -> u64 {
        self.records_decoded + self.skipped_unknown + self.vendor_dropped + self.records_filtered
    }

    /// Records that reached no consumer: unconsumed + skipped + lost by the vendor.
    pub fn records_dropped(&self) -> u64 {
        self.records_unconsumed + self.skipped_unknown + self.vendor_dropped
    }

    /// Decoded rows not yet delivered (0 once the pipeline is quiet).
    pub fn records_pending(&self) -> u64 {
        self.records_decoded.saturating_sub(self.records_delivered + self.records_unconsumed)
    }
}

/// The live counters behind [`Counts`], shared by the pipeline, its handoffs and the decode thread.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) buffers_completed: AtomicU64,
    pub(crate) buffers_declined: AtomicU64,
    pub(crate) buffers_discarded: AtomicU64,
    pub(crate) records_decoded: AtomicU64,
    pub(crate) records_delivered: AtomicU64,
    pub(crate) records_unconsumed: AtomicU64,
    pub(crate) skipped_unknown: AtomicU64,
    pub(crate) records_filtered: AtomicU64,
    pub(crate) vendor_dropped: AtomicU64,
    pub(crate) consumer_panics: AtomicU64,
    pub(crate) walker_panics: AtomicU64,
    pub(crate) buffers_cut_short: AtomicU64,
    pub(crate) bytes_abandoned: AtomicU64,
}

/// Adds `n` to a counter (Release, so a reader that sees the sum sees the work before it).
#[inline]
pub(crate) fn add(counter: &AtomicU64, n: u64) {
    if n != 0 {
        counter.fetch_add(n, Ordering::Release);
    }
}

impl Counters {
    pub(crate) fn snapshot(&self) -> Counts {
        let get = |c: &AtomicU64| c.load(Ordering::Acquire);
        Counts {
            buffers_completed: get(&self.buffers_completed),
            buffers_declined: get(&self.buffers_declined),
            buffers_discarded: get(&self.buffers_discarded),
            records_decoded: get(&self.records_decoded),
            records_delivered: get(&self.records_delivered),
            records_unconsumed: get(&self.records_unconsumed),
            skipped_unknown: get(&self.skipped_unknown),
            records_filtered: get(&self.records_filtered),
            vendor_dropped: get(&self.vendor_dropped),
            consumer_panics: get(&self.consumer_panics),
            walker_panics: get(&self.walker_panics),
            buffers_cut_short: get(&self.buffers_cut_short),
            bytes_abandoned: get(&self.bytes_abandoned),
        }
    }
}
