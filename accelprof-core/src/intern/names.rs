use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

use super::NameId;

/// log2 of the first segment's length.
const FIRST_SEGMENT_BITS: u32 = 6;
/// Enough segments (each twice the previous) to hold every `u32` id.
const SEGMENTS: usize = 33 - FIRST_SEGMENT_BITS as usize;

type Segment = Box<[OnceLock<Arc<str>>]>;

/// Append-only storage: segment `k` holds `2^(k + FIRST_SEGMENT_BITS)` slots, allocated when first needed,
/// so a slot never moves and readers never lock.
struct Store {
    segments: [OnceLock<Segment>; SEGMENTS],
    len: AtomicU32,
}

/// The read side of an [`Interner`](super::Interner): turns a [`NameId`] back into its string.
///
/// Cheap to clone (one `Arc`), `Send + Sync`, and lock-free: other threads read names while the decode
/// thread interns new ones. A name, once published, never changes or moves.
#[derive(Clone)]
pub struct Names {
    store: Arc<Store>,
}

/// Which segment and slot hold `id`.
fn locate(id: u32) -> (usize, usize) {
    let pos = u64::from(id) + (1 << FIRST_SEGMENT_BITS);
    let bit = 63 - pos.leading_zeros();
    let segment = (bit - FIRST_SEGMENT_BITS) as usize;
    let slot = (pos - (1u64 << bit)) as usize;
    (segment, slot)
}

impl Names {
    pub(crate) fn new() -> Self {
        Names {
            store: Arc::new(Store {
                segments: std::array::from_fn(|_| OnceLock::new()),
                len: AtomicU32::new(0),
            }),
        }
    }

    /// The name of `id`, shared; `None` for [`NameId::NONE`] or an id not (yet) interned.
    pub fn get(&self, id: NameId) -> Option<Arc<str>> {
        self.slot(id).cloned()
    }

    /// The name of `id` borrowed from this handle; `None` for [`NameId::NONE`] or an unknown id.
    pub fn lookup(&self, id: NameId) -> Option<&str> {
        self.slot(id).map(|name| &**name)
    }

    /// The name of `id`, or `""` for [`NameId::NONE`] and unknown ids.
    pub fn resolve(&self, id: NameId) -> &str {
        self.lookup(id).unwrap_or("")
    }

    /// How many names have been published (ids `1..=len` are valid).
    pub fn len(&self) -> usize {
        self.store.len.load(Ordering::Acquire) as usize
    }

    /// True when no name has been interned yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn slot(&self, id: NameId) -> Option<&Arc<str>> {
        if id.is_none() {
            return None;
        }
        let (segment, slot) = locate(id.0);
        self.store.segments[segment].get()?.get(slot)?.get()
    }

    /// Stores `name` under `id`. Only the owning `Interner` calls this (one writer), with ids in order.
    pub(crate) fn publish(&self, id: NameId, name: Arc<str>) {
        let (segment, slot) = locate(id.0);
        let size = 1usize << (segment as u32 + FIRST_SEGMENT_BITS);
        let segment =
            self.store.segments[segment].get_or_init(|| (0..size).map(|_| OnceLock::new()).collect());
        let _ = segment[slot].set(name);
        self.store.len.fetch_max(id.0, Ordering::Release);
    }
}

impl fmt::Debug for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Names").field("len", &self.len()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::locate;

    #[test]
    fn slots_are_dense_and_segments_double() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(63), (0, 63));
        assert_eq!(locate(64), (1, 0));
        assert_eq!(locate(191), (1, 127));
        assert_eq!(locate(192), (2, 0));
        assert_eq!(locate(u32::MAX).0, super::SEGMENTS - 1);
    }
}
