//! Our own walker over MSPTI's buffers (never `msptiActivityGetNextRecord`, whose cursor is one
//! per thread whatever buffer it is given).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use accelprof_core::intern::Interner;
use accelprof_core::{Batch, WalkStats};
use mspti_sys::records::{record_kind, record_size};

use super::rows::decode;

/// What the walker saw that the pipeline's counts do not say.
#[derive(Debug, Default)]
pub(crate) struct WalkerTallies {
    /// Bytes after an unknown kind (or a truncated record) that could not be walked.
    pub(crate) abandoned_bytes: AtomicU64,
    /// The last unknown kind met (0 = none).
    pub(crate) last_unknown_kind: AtomicU64,
}

/// Walks one buffer: records follow each other at their C sizes; an unknown kind ends the walk
/// (its size, and so where the next record starts, cannot be known) and is counted.
pub(crate) struct MsptiWalker {
    pub(crate) tallies: Arc<WalkerTallies>,
}

impl accelprof_core::RecordWalker for MsptiWalker {
    fn walk(&mut self, bytes: &[u8], out: &mut Batch, names: &mut Interner) -> WalkStats {
        let mut stats = WalkStats::default();
        let mut at = 0;
        while let Some(kind) = record_kind(&bytes[at..]) {
            let size = record_size(kind).filter(|s| at + s <= bytes.len());
            let Some(size) = size else {
                stats.skipped_unknown += 1;
                self.tallies.abandoned_bytes.fetch_add((bytes.len() - at) as u64, Relaxed);
                self.tallies.last_unknown_kind.store(kind.0.into(), Relaxed);
                break;
            };
            decode(kind, &bytes[at..at + size], out, names);
            stats.records += 1;
            at += size;
        }
        stats
    }
}
