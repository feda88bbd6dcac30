//! Kernel names, interned once per distinct string and looked up by address afterwards.
//!
//! CUPTI's kernel records carry a `const char *name` that is the same pointer for every launch of the same
//! function. Hashing the string for every record would cost more than the rest of the record's decoding,
//! so the walker remembers `address -> (NameId, bytes)` in a small direct-mapped table. An address is not
//! trusted blindly across buffers: a module can be unloaded and another name placed at the same address, so
//! the first hit in each buffer is confirmed by comparing the string with the bytes remembered for it (a
//! `strlen` and a `memcmp`), and a mismatch re-interns by content. Within one buffer the confirmation
//! holds: every record of the buffer that points at that address reads the same bytes during this walk
//! (the string is read where it is now, whatever record points at it). Memory stays bounded: a slot holds
//! one name, and a collision replaces it.

use std::ffi::{c_char, CStr};

use accelprof_core::intern::Interner;
use accelprof_core::NameId;

/// Turns a raw kernel name into the name shown (e.g. demangles it); `None` keeps the raw name. Called
/// once per distinct name (per address and buffer at most), on the decode thread.
pub type NameTransform = Box<dyn Fn(&[u8]) -> Option<String> + Send>;

/// Slots of the table (a power of two).
const SLOTS: usize = 4096;

/// The slot of an address: a multiplicative hash of its bits above the alignment.
#[inline]
fn slot_of(addr: usize) -> usize {
    (((addr as u64) >> 3).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize & (SLOTS - 1)
}

#[derive(Default)]
struct Slot {
    addr: usize,
    /// The walk in which the bytes at `addr` were last confirmed.
    walk: u64,
    id: NameId,
    bytes: Box<[u8]>,
}

/// Address-keyed cache in front of an [`Interner`].
pub(crate) struct NameCache {
    slots: Box<[Slot]>,
    /// Applied to each distinct name before interning (e.g. demangling); `None` keeps it.
    pub(crate) transform: Option<NameTransform>,
    /// Incremented for every buffer walked (starts at 1: 0 marks a never-confirmed slot).
    walk: u64,
}

impl NameCache {
    pub(crate) fn new() -> Self {
        NameCache { slots: (0..SLOTS).map(|_| Slot::default()).collect(), walk: 1, transform: None }
    }

    /// Starts a new buffer: addresses are confirmed again on their first use in it.
    pub(crate) fn next_walk(&mut self) {
        self.walk += 1;
    }

    /// The id of the NUL-terminated string at `ptr` (`NameId::NONE` for NULL).
    ///
    /// # Safety
    /// `ptr` is NULL or points to a NUL-terminated string that stays valid during this call.
    #[inline(always)]
    pub(crate) unsafe fn intern(&mut self, ptr: *const c_char, names: &mut Interner) -> NameId {
        // The hit, inlined into the walk: a slot confirmed in this walk for this address. (A NULL
        // `ptr` never hits: `intern_slow` returns before filling a slot for it, so no slot holds
        // address 0 with a walk number, and an unused slot's walk, 0, is never the current one.)
        let slot = &self.slots[slot_of(ptr as usize)];
        if slot.addr == ptr as usize && slot.walk == self.walk {
            return slot.id;
        }
        // SAFETY: the caller's guarantee, passed on.
        unsafe { self.intern_slow(ptr, names) }
    }

    /// [`intern`](Self::intern) past its hit: the first use of an address in this walk.
    ///
    /// # Safety
    /// As for [`intern`](Self::intern).
    #[cold]
    #[inline(never)]
    unsafe fn intern_slow(&mut self, ptr: *const c_char, names: &mut Interner) -> NameId {
        if ptr.is_null() {
            return NameId::NONE;
        }
        let addr = ptr as usize;
        let walk = self.walk;
        let slot = &mut self.slots[slot_of(addr)];
        // SAFETY: non-null, and the caller guarantees a valid NUL-terminated string for this call.
        let text = unsafe { CStr::from_ptr(ptr) }.to_bytes();
        if slot.addr == addr && *slot.bytes == *text {
            slot.walk = walk;
            return slot.id;
        }
        let shown = self.transform.as_ref().and_then(|f| f(text));
        let id = match shown {
            Some(shown) => names.intern(&shown),
            None => names.intern_bytes(text),
        };
        *slot = Slot { addr, walk, id, bytes: text.into() };
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_address_same_id_and_reused_address_is_rechecked() {
        let mut interner = Interner::new();
        let mut cache = NameCache::new();
        let mut text = *b"kernel_a\0";
        let ptr = text.as_ptr().cast::<c_char>();
        // SAFETY: `text` is NUL-terminated and alive.
        let a = unsafe { cache.intern(ptr, &mut interner) };
        // SAFETY: as above.
        assert_eq!(unsafe { cache.intern(ptr, &mut interner) }, a);
        // Another string at the same address (a module unloaded and another loaded there), seen in the
        // next buffer.
        text[7] = b'b';
        cache.next_walk();
        let ptr = text.as_ptr().cast::<c_char>();
        // SAFETY: as above.
        let b = unsafe { cache.intern(ptr, &mut interner) };
        assert_ne!(a, b);
        assert_eq!(interner.names().resolve(b), "kernel_b");
        // The same content at another address keeps its id (interned by content).
        let copy = *b"kernel_a\0";
        // SAFETY: NUL-terminated and alive.
        assert_eq!(unsafe { cache.intern(copy.as_ptr().cast(), &mut interner) }, a);
        // SAFETY: NULL is allowed.
        assert_eq!(unsafe { cache.intern(std::ptr::null(), &mut interner) }, NameId::NONE);
    }
}
