use crate::columns::Batch;
use crate::intern::Interner;

/// What one walk over a raw buffer found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkStats {
    /// Records turned into rows.
    pub records: u64,
    /// Records read but not turned into rows (a kind the walker does not decode, or a malformed record);
    /// counted as dropped by the pipeline.
    pub skipped_unknown: u64,
    /// Records read and left out because the user's filter asked for that (e.g. API calls a
    /// filter applied while decoding drops): neither rows nor dropped.
    pub filtered: u64,
    /// Bytes at the end of the buffer that could not be walked: from a record whose size cannot be
    /// known (a kind the walker has no size for, and nothing to ask) to the end. That record is
    /// counted in `skipped_unknown`; the records after it are in no count, and how many they were
    /// cannot be known (a vendor buffer says nothing of its record count). 0 when the walk reached
    /// the end, or lost only a last record cut short (counted in `skipped_unknown`).
    pub abandoned_bytes: u64,
}

/// The vendor-specific part of the pipeline: parses one completed vendor buffer and appends its records
/// as rows to `out`, interning names with `names`.
///
/// Runs on the decode thread only. It must not keep references into `bytes` (the buffer is recycled right
/// after the call). The pipeline counts rows by what was appended to `out`; `WalkStats::records` is the
/// walker's own tally. A panic is caught and counted; rows appended before it are kept.
///
/// Any `FnMut(&[u8], &mut Batch, &mut Interner) -> WalkStats + Send + 'static` is a walker.
pub trait RecordWalker: Send + 'static {
    /// Decode `bytes` (the valid part of one buffer) into `out`.
    fn walk(&mut self, bytes: &[u8], out: &mut Batch, names: &mut Interner) -> WalkStats;
}

impl<F> RecordWalker for F
where
    F: FnMut(&[u8], &mut Batch, &mut Interner) -> WalkStats + Send + 'static,
{
    fn walk(&mut self, bytes: &[u8], out: &mut Batch, names: &mut Interner) -> WalkStats {
        self(bytes, out, names)
    }
}
