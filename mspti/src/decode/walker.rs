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

/// Decodes MSPTI activity buffers into [`accelprof_core`] columns: the crate's
/// [`RecordWalker`](accelprof_core::RecordWalker).
///
/// Records follow each other at their C sizes; an unknown kind ends the walk of a buffer (its
/// size, and so where the next record starts, cannot be known) and is counted, with the bytes
/// left after it.
pub struct Walker {
    pub(crate) tallies: Arc<WalkerTallies>,
    /// Whether the records' string pointers are read (only with [`Walker::new`]'s contract).
    read_strings: bool,
}

impl Walker {
    /// A walker that reads the strings the records point at (kernel, API and marker names,
    /// domains, communicators). The activity session makes one for the buffers MSPTI completes;
    /// to walk bytes from anywhere else, use [`untrusted`](Self::untrusted).
    ///
    /// # Safety
    /// Every buffer this walker is given must be one MSPTI wrote (or written the same way): each
    /// string field of each record it holds is NULL or points to a NUL-terminated string valid for
    /// the whole walk. Following any other value can fault.
    pub unsafe fn new() -> Self {
        Walker { read_strings: true, ..Self::untrusted() }
    }

    /// A walker that follows no pointer in the bytes it is given: every string field reads as no
    /// name ([`NameId::NONE`](accelprof_core::NameId::NONE)); the other fields decode as with
    /// [`new`](Self::new). Any bytes are safe to walk (a file, a fuzzer's input).
    pub fn untrusted() -> Self {
        Walker { tallies: Arc::default(), read_strings: false }
    }

    /// The session's walker, reporting into `tallies`.
    ///
    /// # Safety
    /// As [`new`](Self::new).
    pub(crate) unsafe fn with_tallies(tallies: Arc<WalkerTallies>) -> Self {
        Walker { tallies, read_strings: true }
    }

    /// Bytes after an unknown kind (or a record cut short) that could not be walked, so far.
    pub fn abandoned_bytes(&self) -> u64 {
        self.tallies.abandoned_bytes.load(Relaxed)
    }
}

impl std::fmt::Debug for Walker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Walker").field("read_strings", &self.read_strings).finish_non_exhaustive()
    }
}

impl accelprof_core::RecordWalker for Walker {
    fn walk(&mut self, bytes: &[u8], out: &mut Batch, names: &mut Interner) -> WalkStats {
        let mut stats = WalkStats::default();
        let mut at = 0;
        while let Some(kind) = record_kind(&bytes[at..]) {
            let Some(size) = record_size(kind) else {
                // An unknown kind: its size, and so where the next record starts, cannot be known.
                // The bytes from here may hold records no one can count.
                stats.skipped_unknown += 1;
                stats.abandoned_bytes = (bytes.len() - at) as u64;
                self.tallies.abandoned_bytes.fetch_add(stats.abandoned_bytes, Relaxed);
                self.tallies.last_unknown_kind.store(kind.0.into(), Relaxed);
                break;
            };
            if at + size > bytes.len() {
                // A known kind cut short by the end of the valid bytes: the last record, exactly one lost.
                stats.skipped_unknown += 1;
                break;
            }
            // SAFETY: `read_strings` only with `Walker::new`'s contract, which covers this record.
            unsafe { decode(kind, &bytes[at..at + size], out, names, self.read_strings) };
            stats.records += 1;
            at += size;
        }
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use accelprof_core::{NameId, RecordWalker};
    use mspti_sys::msptiActivityKind as K;

    #[test]
    fn an_untrusted_walker_follows_no_pointer_in_the_bytes() {
        // A kernel record whose type and name point nowhere, then a marker whose name and domain do.
        let kernel = record_size(K::MSPTI_ACTIVITY_KIND_KERNEL).unwrap();
        let marker = record_size(K::MSPTI_ACTIVITY_KIND_MARKER).unwrap();
        let mut bytes = vec![0x41u8; kernel + marker];
        bytes[..4].copy_from_slice(&K::MSPTI_ACTIVITY_KIND_KERNEL.0.to_ne_bytes());
        bytes[kernel..kernel + 4].copy_from_slice(&K::MSPTI_ACTIVITY_KIND_MARKER.0.to_ne_bytes());
        let mut walker = Walker::untrusted();
        let (mut batch, mut names) = (Batch::new(), Interner::new());
        let stats = walker.walk(&bytes, &mut batch, &mut names);
        assert_eq!((stats.records, stats.skipped_unknown), (2, 0));
        assert_eq!(batch.kernels.name(), &[NameId::NONE]);
        assert_eq!(batch.kernels.correlation(), &[0x4141_4141_4141_4141]);
        assert_eq!(batch.markers.len(), 1);
        assert_eq!(names.len(), 0);
        assert_eq!(walker.abandoned_bytes(), 0);
    }
}
