//! What the decode thread tells other threads while it walks: the fence clock and the decoder's own tallies.

use std::sync::atomic::{AtomicU64, Ordering};

use super::LayoutBook;

/// State the walker (on the decode thread) shares with the session (on any thread). Lock-free.
#[derive(Debug, Default)]
pub struct DecoderShared {
    /// Largest `end` of a SYNCHRONIZATION record decoded so far (the `flush(sync)` fence waits for it).
    max_sync_end: AtomicU64,
    fence_records: AtomicU64,
    truncated_buffers: AtomicU64,
    stride_corrections: AtomicU64,
    open_ranges: AtomicU64,
    unpaired_range_ends: AtomicU64,
    skipped_kinds: AtomicU64,
    /// Layouts of user-defined-record buffers, from CUPTI's completion callback to the walk.
    pub(crate) layouts: LayoutBook,
}

/// The decoder's tallies, besides the rows it appended (which `accelprof_core::Counts` counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecoderStats {
    /// Largest `end` of a SYNCHRONIZATION record decoded so far (CUPTI clock, ns); 0 before any.
    pub max_sync_end: u64,
    /// SYNCHRONIZATION records decoded only for the `flush(sync)` fence (the session did not ask for
    /// synchronizations, so they are not delivered). Records of our own making, not the user's.
    pub fence_records: u64,
    /// Buffers whose walk stopped early at a record whose size is not known (a kind neither our tables nor
    /// the library could size) or that overran the buffer. The record where it stopped is counted in
    /// `Counts::skipped_unknown`; records after it in that buffer are in no count.
    pub truncated_buffers: u64,
    /// Kinds whose record size the library reported differently from our table (the library's was used).
    pub stride_corrections: u64,
    /// NVTX ranges whose start was decoded but whose end was not (yet): not delivered until they end.
    pub open_ranges: u64,
    /// NVTX range ends without a decoded start (the range began before the session): counted as skipped.
    pub unpaired_range_ends: u64,
    /// Bit `k` set: records of activity kind `k` (< 64) were seen and skipped (not decoded).
    pub skipped_kinds: u64,
}

impl DecoderShared {
    /// A snapshot of the tallies.
    pub fn stats(&self) -> DecoderStats {
        let get = |a: &AtomicU64| a.load(Ordering::Acquire);
        DecoderStats {
            max_sync_end: get(&self.max_sync_end),
            fence_records: get(&self.fence_records),
            truncated_buffers: get(&self.truncated_buffers),
            stride_corrections: get(&self.stride_corrections),
            open_ranges: get(&self.open_ranges),
            unpaired_range_ends: get(&self.unpaired_range_ends),
            skipped_kinds: get(&self.skipped_kinds),
        }
    }

    /// Largest `end` of a decoded SYNCHRONIZATION record (0 before any).
    pub fn max_sync_end(&self) -> u64 {
        self.max_sync_end.load(Ordering::Acquire)
    }

    pub(crate) fn sync_seen(&self, end: u64) {
        self.max_sync_end.fetch_max(end, Ordering::AcqRel);
    }

    pub(crate) fn fence_record(&self) {
        self.fence_records.fetch_add(1, Ordering::Release);
    }

    pub(crate) fn truncated(&self) {
        self.truncated_buffers.fetch_add(1, Ordering::Release);
    }

    pub(crate) fn stride_corrected(&self) {
        self.stride_corrections.fetch_add(1, Ordering::Release);
    }

    pub(crate) fn set_open_ranges(&self, n: usize) {
        self.open_ranges.store(n as u64, Ordering::Release);
    }

    pub(crate) fn unpaired_range_end(&self) {
        self.unpaired_range_ends.fetch_add(1, Ordering::Release);
    }

    pub(crate) fn skipped_kind(&self, kind: u32) {
        if kind < 64 {
            self.skipped_kinds.fetch_or(1 << kind, Ordering::Release);
        }
    }
}
