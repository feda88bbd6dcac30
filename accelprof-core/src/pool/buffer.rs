use std::fmt;

/// One fixed-size, 8-byte aligned heap block that a vendor library fills with activity records.
///
/// Backed by `u64`s, so the address meets the 8-byte alignment CUPTI, rocprofiler and MSPTI require.
/// Hand it to C with [`into_raw`](Self::into_raw) and take it back with [`from_raw`](Self::from_raw) in the
/// completion callback. Give it back to its [`BufferPool`](super::BufferPool) when done: dropping it frees
/// the memory, but the pool keeps counting it as in flight unless you call
/// [`BufferPool::discard`](super::BufferPool::discard).
pub struct ActivityBuffer {
    words: Box<[u64]>,
}

impl ActivityBuffer {
    /// A zero-filled buffer of `size_bytes` rounded up to a multiple of 8; `None` when the allocator
    /// refuses (never an abort: this runs in a vendor's buffer callback).
    pub(crate) fn try_zeroed(size_bytes: usize) -> Option<Self> {
        let words = size_bytes.div_ceil(8);
        let mut block: Vec<u64> = Vec::new();
        block.try_reserve_exact(words).ok()?;
        block.resize(words, 0);
        Some(ActivityBuffer { words: block.into_boxed_slice() })
    }

    /// The buffer's size in bytes (always a multiple of 8).
    pub fn len(&self) -> usize {
        self.words.len() * 8
    }

    /// True for a zero-sized buffer (a pool never hands one out).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The first `valid` bytes (the part the vendor filled); `valid` larger than the buffer is clamped.
    pub fn as_slice(&self, valid: usize) -> &[u8] {
        let len = valid.min(self.len());
        // SAFETY: `words` is a live allocation of `self.len()` bytes; `len <= self.len()`; u8 has no
        // alignment or validity requirement, and the borrow of `self` keeps the memory alive and unaliased
        // by writers for the returned lifetime.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), len) }
    }

    /// The whole buffer, writable (for tests and mocks that fill it the way a vendor would).
    pub fn as_mut_bytes(&mut self) -> &mut [u8] {
        let len = self.len();
        // SAFETY: as in `as_slice`, and `&mut self` makes this the only reference to the memory.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast::<u8>(), len) }
    }

    /// Gives up ownership so the block can be handed to C: returns its address and size in bytes.
    ///
    /// The memory stays allocated until [`from_raw`](Self::from_raw) takes it back; a pointer that is
    /// never taken back leaks the buffer.
    pub fn into_raw(self) -> (*mut u8, usize) {
        let size = self.len();
        let ptr = Box::into_raw(self.words).cast::<u8>();
        (ptr, size)
    }

    /// Takes back a buffer previously given away with [`into_raw`](Self::into_raw).
    ///
    /// # Safety
    /// `ptr` and `size` must be exactly a pair returned by `into_raw`, and that pair must not have been
    /// taken back already (each `into_raw` is matched by exactly one `from_raw`). The vendor library must be
    /// done writing to the block.
    pub unsafe fn from_raw(ptr: *mut u8, size: usize) -> Self {
        let words = std::ptr::slice_from_raw_parts_mut(ptr.cast::<u64>(), size / 8);
        // SAFETY: the caller guarantees `(ptr, size)` came from `into_raw`, which produced it from
        // `Box<[u64]>` of `size / 8` words with `Box::into_raw`, and that it is reclaimed only once.
        ActivityBuffer { words: unsafe { Box::from_raw(words) } }
    }
}

impl fmt::Debug for ActivityBuffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActivityBuffer").field("ptr", &self.words.as_ptr()).field("len", &self.len()).finish()
    }
}
