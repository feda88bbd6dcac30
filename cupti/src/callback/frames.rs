//! Per-subscriber entry/exit slots on top of CUPTI's single per-call `correlationData`.
//!
//! All subscribers of a library share one CUPTI subscription, hence one `u64` per API call. When
//! only the library's *anchor* (see [`super::anchor`]) stores a value at ENTER, that value goes
//! into CUPTI's slot as it is. When other subscribers store values too, the dispatcher stores a
//! frame *serial* there and keeps each subscriber's value on a thread-local stack (API calls
//! nest strictly on a thread: ENTER and EXIT of a call happen on the calling thread, inner calls
//! complete before outer ones). At EXIT the serial finds the frame again, each subscriber gets its
//! own value back, and the frame is popped with anything left above it (frames of inner calls
//! whose EXIT was never delivered because their callback was disabled in between).
//!
//! A serial carries the process's random [`tag`] in its upper 32 bits, so that an EXIT can tell
//! it from an anchor's own value (which may have been stored by the anchor's fast path, with no
//! frame): a value whose upper half is not the tag is never looked up, and one that is but names
//! no frame of this thread is the anchor's.
//!
//! A frame is opened only when a subscriber other than the anchor stores a value at ENTER. No
//! allocation once the stack has grown to the thread's nesting depth; no reference into the
//! stack is held while user code runs (user code may make CUDA calls that push frames).

use std::cell::{Cell, UnsafeCell};
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// One entry: a frame marker (`owner == 0`, value unused) or a subscriber's value.
#[derive(Clone, Copy)]
struct Entry {
    serial: u64,
    owner: u64,
    value: u64,
}

/// Past this many entries the stack is assumed to hold only abandoned frames and is cleared.
const MAX_ENTRIES: usize = 4096;

/// The upper half of every serial of this process: random, nonzero.
pub(crate) fn tag() -> u32 {
    static TAG: OnceLock<u32> = OnceLock::new();
    *TAG.get_or_init(|| {
        let mut h = RandomState::new().build_hasher();
        h.write_u64(std::process::id().into());
        (h.finish() >> 32) as u32 | 1
    })
}

/// Whether `value` has the form of a serial (an anchor's value may too, by a 2^-32 chance: such a
/// value is looked up, found in no frame, and handed back as it is).
#[inline(always)]
pub(crate) fn is_serial_form(value: u64, tag: u32) -> bool {
    (value >> 32) as u32 == tag
}

/// One thread's stack (kept in its reader slot, see [`super::rcu`]).
pub(crate) struct Frames {
    entries: UnsafeCell<Vec<Entry>>,
    next_serial: Cell<u64>,
}

impl Frames {
    pub(crate) const fn new() -> Frames {
        Frames { entries: UnsafeCell::new(Vec::new()), next_serial: Cell::new(0) }
    }

    /// Empties the stack (keeping its capacity) for the slot's next thread.
    ///
    /// # Safety
    /// Called by the thread that holds the slot, outside any dispatch.
    pub(crate) unsafe fn clear(&self) {
        self.stack(Vec::clear);
    }

    /// Runs `f` on the stack. `f` must not run user code (which could re-enter).
    #[inline(always)]
    fn stack<R>(&self, f: impl FnOnce(&mut Vec<Entry>) -> R) -> R {
        // SAFETY: only the thread holding the slot reaches its stack (through its `ReadGuard`),
        // only through this method, whose closures never call out (no user code, no CUDA), so
        // no other `&mut` to it exists.
        f(unsafe { &mut *self.entries.get() })
    }

    /// Opens a frame for an ENTER callback and returns its serial (never 0). Serials are unique
    /// among the frames of one thread's stack (the low half counts, wrapping past 2^32 - 1 open
    /// frames only).
    #[inline]
    pub(crate) fn open(&self) -> u64 {
        let mut n = self.next_serial.get().wrapping_add(1);
        if n == 0 || n > u64::from(u32::MAX) {
            n = 1;
        }
        self.next_serial.set(n);
        let serial = u64::from(tag()) << 32 | n;
        self.stack(|s| {
            if s.len() >= MAX_ENTRIES {
                s.clear();
            }
            s.push(Entry { serial, owner: 0, value: 0 });
        });
        serial
    }

    /// Records `owner`'s value in frame `serial` (after its ENTER callback returned).
    #[inline]
    pub(crate) fn store(&self, serial: u64, owner: u64, value: u64) {
        if value != 0 {
            self.stack(|s| s.push(Entry { serial, owner, value }));
        }
    }

    /// Where frame `serial` starts, searching from the top; `None` if it is not on the stack.
    #[inline]
    pub(crate) fn find(&self, serial: u64) -> Option<usize> {
        if serial == 0 {
            return None;
        }
        self.stack(|s| s.iter().rposition(|e| e.owner == 0 && e.serial == serial))
    }

    /// `owner`'s value in the frame starting at `start` (0 if it stored none).
    #[inline]
    pub(crate) fn load(&self, start: usize, serial: u64, owner: u64) -> u64 {
        self.stack(|s| {
            s.get(start + 1..)
                .and_then(|rest| rest.iter().find(|e| e.serial == serial && e.owner == owner))
                .map_or(0, |e| e.value)
        })
    }

    /// Pops the frame starting at `start` and everything above it.
    #[inline]
    pub(crate) fn close(&self, start: usize) {
        self.stack(|s| s.truncate(start));
    }

    #[cfg(test)]
    fn depth(&self) -> usize {
        self.stack(|s| s.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_frames_keep_each_owners_value_and_abandoned_frames_are_dropped() {
        let f = &Frames::new();
        {
            let outer = f.open();
            f.store(outer, 1, 10);
            f.store(outer, 2, 20);
            let inner = f.open();
            f.store(inner, 1, 11);
            // An inner call whose EXIT never comes.
            let abandoned = f.open();
            f.store(abandoned, 1, 99);
            let i = f.find(inner).unwrap();
            assert_eq!(f.load(i, inner, 1), 11);
            assert_eq!(f.load(i, inner, 2), 0);
            f.close(i);
            let o = f.find(outer).unwrap();
            assert_eq!((f.load(o, outer, 1), f.load(o, outer, 2)), (10, 20));
            assert_eq!(f.find(abandoned), None);
            f.close(o);
            assert_eq!(f.depth(), 0);
            assert_eq!(f.find(0), None);
        }
    }

    #[test]
    fn serials_carry_the_tag_and_values_without_it_are_never_frames() {
        let f = Frames::new();
        let (a, b) = (f.open(), f.open());
        assert_ne!(a, b);
        assert!(is_serial_form(a, tag()) && is_serial_form(b, tag()));
        assert!(!is_serial_form(a ^ 1 << 63, tag()));
        // A value of the serial form that names no frame is not found.
        assert_eq!(f.find(u64::from(tag()) << 32 | 0xffff_fff0), None);
        assert_eq!(f.find(b), Some(1));
    }
}
