use std::collections::HashMap;
use std::ffi::{c_char, CStr};
use std::fmt;
use std::sync::Arc;

use super::{NameId, Names};

/// The hash of the interner's table.
type NameHash = foldhash::fast::RandomState;

/// Gives each distinct name one [`NameId`]; owned by the single thread that decodes records.
///
/// Names are hashed with foldhash (seeded per interner), whose output depends on every input byte in every
/// output bit: names that differ only in their last bytes (Triton's `triton_poi_fused_add_0`, `_1`, ...)
/// spread over the whole table. (The multiply-rotate FxHash used before left the low bits, which pick the
/// bucket, blind to the last bytes: 65,536 such names shared a few buckets.)
///
/// Lookups of known names hash the bytes and allocate nothing; a new name is copied once and published to
/// the shared [`Names`] (lock-free). Names are keyed by content, never by pointer: a vendor may reuse a
/// string's address for another string.
pub struct Interner {
    names: Names,
    by_content: HashMap<Box<[u8]>, NameId, NameHash>,
    next: u32,
}

impl Interner {
    /// An empty interner.
    pub fn new() -> Self {
        Interner { names: Names::new(), by_content: HashMap::default(), next: 1 }
    }

    /// The read handle consumers (on any thread) use to resolve ids from this interner.
    pub fn names(&self) -> Names {
        self.names.clone()
    }

    /// The id of `name`, interning it on first sight.
    pub fn intern(&mut self, name: &str) -> NameId {
        self.intern_bytes(name.as_bytes())
    }

    /// The id of a name given as bytes; invalid UTF-8 is stored with U+FFFD replacements (but keyed by the
    /// original bytes).
    pub fn intern_bytes(&mut self, bytes: &[u8]) -> NameId {
        if let Some(&id) = self.by_content.get(bytes) {
            return id;
        }
        let Some(after) = self.next.checked_add(1) else {
            // 4 billion distinct names: no id left. Records keep "no name" rather than a wrong one.
            return NameId::NONE;
        };
        let id = NameId(self.next);
        self.next = after;
        let text: Arc<str> = Arc::from(String::from_utf8_lossy(bytes));
        self.names.publish(id, text);
        self.by_content.insert(bytes.into(), id);
        id
    }

    /// The id of a NUL-terminated C string; NULL gives [`NameId::NONE`].
    ///
    /// # Safety
    /// `ptr` is NULL or points to a NUL-terminated string that stays valid and unchanged during this call.
    pub unsafe fn intern_cstr(&mut self, ptr: *const c_char) -> NameId {
        if ptr.is_null() {
            return NameId::NONE;
        }
        // SAFETY: non-null, and the caller guarantees a valid NUL-terminated string for this call.
        let bytes = unsafe { CStr::from_ptr(ptr) }.to_bytes();
        self.intern_bytes(bytes)
    }

    /// How many distinct names were interned.
    pub fn len(&self) -> usize {
        self.by_content.len()
    }

    /// True when nothing was interned yet.
    pub fn is_empty(&self) -> bool {
        self.by_content.is_empty()
    }
}

impl Default for Interner {
    fn default() -> Self {
        Interner::new()
    }
}

impl fmt::Debug for Interner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Interner").field("len", &self.len()).finish()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::hash::BuildHasher;

    use super::NameHash;

    /// The bucket a table of 65,536 buckets would pick is the hash's low 16 bits: names that differ in their
    /// last bytes must spread over them as random values would (about 63% of the buckets hit), not pile up.
    #[test]
    #[cfg_attr(miri, ignore = "a statistic over 65,536 hashes: minutes under Miri, nothing unsafe")]
    fn similar_names_spread_over_the_low_bits() {
        let state = NameHash::default();
        let buckets: HashSet<u64> = (0..65_536)
            .map(|i| state.hash_one(format!("triton_poi_fused_add_{i}").as_bytes()) & 0xFFFF)
            .collect();
        assert!(buckets.len() > 38_000, "{} of 65536 buckets used", buckets.len());
    }
}
