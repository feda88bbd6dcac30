//! The entry/exit slot behind every vendor crate's [`CorrelationSlot`], and the per-thread frame
//! stack that gives each subscriber its own.
//!
//! A closure stores a `u64` in its slot at an API call's ENTER and reads it back at the same call's
//! EXIT. Several subscribers share one vendor subscription, so the dispatcher keeps each one's
//! value in a *frame* on the calling thread's stack (API calls nest strictly on a thread: ENTER and
//! EXIT of a call happen on the calling thread, inner calls complete before outer ones). An EXIT
//! finds its frame again in one of two ways:
//!
//! - **by serial**, where the vendor has a per-call `u64` of its own (CUPTI's `correlationData`):
//!   ENTER stores the frame's serial there (a frame is opened only when a subscriber stores
//!   something), EXIT reads it back. A serial carries the process's random [`tag`] in its upper
//!   half, so an EXIT tells it from a value a vendor crate's fast path stored there itself;
//! - **by call**, where the vendor has none (MSPTI's `correlationData` is garbage): every ENTER
//!   opens a frame for its (subscription, domain, id), and EXIT takes the topmost live frame of the
//!   same call.
//!
//! The frame found is closed with anything left above it (frames of inner calls whose EXIT never
//! came because their callback was switched off in between).
//!
//! **Stale frames** (issue 13): a vendor checks whether an id is enabled at each site of a call.
//! Switched off in the middle of a call, the call's ENTER arrives but its EXIT does not; switched
//! on in the middle, an EXIT arrives without its ENTER. The first leaves a frame behind; the second
//! must not take it as its own (it would read the lost call's value and claim to be paired; by
//! serial, that happens where the vendor does not zero its per-call storage and reuses it). So a
//! frame records its id's *epoch* at ENTER, and every switch-off of an id in the vendor (see
//! [`switched_off`]) moves the epoch on: an EXIT pairs with a frame only if its id was not switched
//! off since. A frame found stale is marked dead (never matched again, kept in place so that the
//! frames above it stay valid), and the EXIT gets an unpaired, zeroed slot: a lost pairing, never a
//! wrong one.
//!
//! No allocation once the stack has grown to the thread's nesting depth; no reference into the
//! stack is held while user code runs (user code may make API calls that push frames): each
//! closure gets a [`CorrelationSlot`] over a cell of the dispatcher's, copied to the frame after
//! it returns.

use std::cell::{Cell, UnsafeCell};
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

// Std's even under loom: epochs only ever move on (see `super::sync`).
use std::sync::atomic::{AtomicU64, Ordering};

/// The `u64` shared by the ENTER and EXIT callbacks of one API call, per subscriber: a value
/// stored at ENTER is read back at EXIT of the same call (0 when nothing was stored).
///
/// Only usable inside the callback it was given to: it borrows the callback's data and is neither
/// `Send` nor `Sync`.
#[derive(Clone, Copy)]
pub struct CorrelationSlot<'a> {
    cell: Option<&'a Cell<u64>>,
    paired: bool,
}

impl<'a> CorrelationSlot<'a> {
    /// A slot over `cell`. `paired`: false at an EXIT known not to follow this subscriber's ENTER
    /// of the same call.
    pub fn new(cell: &'a Cell<u64>, paired: bool) -> Self {
        CorrelationSlot { cell: Some(cell), paired }
    }

    /// No slot (a callback without ENTER and EXIT, or a call the vendor gave none): reads 0,
    /// stores nothing.
    pub fn none() -> Self {
        CorrelationSlot { cell: None, paired: false }
    }

    /// The stored value (at EXIT: what this call's ENTER stored; 0 when nothing was).
    pub fn get(&self) -> u64 {
        self.cell.map_or(0, Cell::get)
    }

    /// Stores `value` (meaningful at ENTER; a store at EXIT is discarded after the callback).
    pub fn set(&self, value: u64) {
        if let Some(c) = self.cell {
            c.set(value)
        }
    }

    /// False at an EXIT whose ENTER this subscriber is known not to have seen (its id was enabled
    /// in the middle of the call, or the only frame found was a lost call's); true otherwise.
    pub fn paired(&self) -> bool {
        self.paired
    }
}

impl fmt::Debug for CorrelationSlot<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CorrelationSlot({}{})", self.get(), if self.paired { "" } else { ", unpaired" })
    }
}

/// Which call a frame belongs to: the vendor subscription (a process-unique generation), the
/// domain and the callback id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallKey {
    /// The subscription's generation ([`super::Routes::generation`]).
    pub generation: u64,
    /// The raw domain.
    pub domain: u32,
    /// The raw callback id.
    pub cbid: u32,
}

/// The epochs of domains (any id of a domain switched off whole) and of ids (hashed: two ids
/// sharing a counter only lose pairings, never make wrong ones).
static DOMAIN_EPOCHS: [AtomicU64; 64] = [const { AtomicU64::new(0) }; 64];
static ID_EPOCHS: [AtomicU64; 4096] = [const { AtomicU64::new(0) }; 4096];

fn id_epoch(domain: u32, cbid: u32) -> &'static AtomicU64 {
    &ID_EPOCHS[((domain as usize) << 10 ^ cbid as usize) % ID_EPOCHS.len()]
}

/// The epoch of `(domain, cbid)` now.
#[inline]
pub fn epoch(domain: u32, cbid: u32) -> u64 {
    let d = DOMAIN_EPOCHS[domain as usize % DOMAIN_EPOCHS.len()].load(Ordering::SeqCst);
    d.wrapping_add(id_epoch(domain, cbid).load(Ordering::SeqCst))
}

/// After the vendor was told to stop delivering `(domain, cbid)`: calls in flight may never see
/// their EXIT, so their frames must not pair with a later EXIT.
pub fn switched_off(domain: u32, cbid: u32) {
    id_epoch(domain, cbid).fetch_add(1, Ordering::SeqCst);
}

/// The same for every id of `domain`.
pub fn domain_switched_off(domain: u32) {
    DOMAIN_EPOCHS[domain as usize % DOMAIN_EPOCHS.len()].fetch_add(1, Ordering::SeqCst);
}

/// The upper half of every serial of this process: random, nonzero.
pub fn tag() -> u32 {
    static TAG: OnceLock<u32> = OnceLock::new();
    *TAG.get_or_init(|| {
        let mut h = RandomState::new().build_hasher();
        h.write_u64(std::process::id().into());
        (h.finish() >> 32) as u32 | 1
    })
}

/// Whether `value` has the form of a serial (a vendor fast path's own value may too, by a 2^-32
/// chance: such a value is looked up, found in no frame, and handed back as it is).
#[inline(always)]
pub fn is_serial_form(value: u64, tag: u32) -> bool {
    (value >> 32) as u32 == tag
}

/// Frames kept per thread at most: past this many, the oldest are dropped (they can only be
/// abandoned ones).
pub const MAX_DEPTH: usize = 256;
/// Entries (frames and values) kept per thread at most.
const MAX_ENTRIES: usize = 16 * MAX_DEPTH;

#[derive(Clone, Copy)]
enum Entry {
    /// A call's frame.
    Frame { serial: u64, key: CallKey, epoch: u64, dead: bool },
    /// A subscriber's value in the frame `serial`.
    Value { serial: u64, owner: u64, value: u64 },
}

/// What an EXIT found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Its frame, starting at this index (now dead: no other EXIT takes it; close it after use).
    Found(usize),
    /// Only a lost call's frame (its id was switched off since it was opened): now dead.
    Stale,
    /// Nothing.
    Missing,
}

/// One thread's stack (kept in its reader slot, see [`super::rcu`]; reached through
/// [`super::rcu::ReadSection::frames`]).
pub struct FrameStack {
    entries: UnsafeCell<Vec<Entry>>,
    next_serial: Cell<u64>,
}

impl fmt::Debug for FrameStack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameStack").field("entries", &self.depth()).finish()
    }
}

impl FrameStack {
    pub(crate) const fn new() -> FrameStack {
        FrameStack { entries: UnsafeCell::new(Vec::new()), next_serial: Cell::new(0) }
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
        // SAFETY: only the thread holding the slot reaches its stack (through its `ReadSection`,
        // which is neither `Send` nor `Sync`), only through this method, whose closures never call out (no user
        // code, no vendor call), so no other `&mut` to it exists.
        f(unsafe { &mut *self.entries.get() })
    }

    /// Opens a frame for an ENTER of `key` and returns its serial (never 0, of the [`tag`]'s
    /// form, unique among the frames of this thread's stack).
    #[inline]
    pub fn open(&self, key: CallKey) -> u64 {
        let mut n = self.next_serial.get().wrapping_add(1);
        if n == 0 || n > u64::from(u32::MAX) {
            n = 1;
        }
        self.next_serial.set(n);
        let serial = u64::from(tag()) << 32 | n;
        let epoch = epoch(key.domain, key.cbid);
        self.stack(|s| {
            if s.len() >= MAX_DEPTH || top_generation(s).is_some_and(|g| g != key.generation) {
                trim(s, key.generation);
            }
            s.push(Entry::Frame { serial, key, epoch, dead: false });
        });
        serial
    }

    /// Records `owner`'s value in the frame `serial` (after its ENTER callback returned).
    #[inline]
    pub fn store(&self, serial: u64, owner: u64, value: u64) {
        self.stack(|s| s.push(Entry::Value { serial, owner, value }));
    }

    /// The frame whose serial is `serial`, if it belongs to the call `key` and its id was not
    /// switched off since it was opened.
    #[inline]
    pub fn find_serial(&self, serial: u64, key: CallKey) -> Lookup {
        if serial == 0 {
            return Lookup::Missing;
        }
        self.stack(|s| {
            let i = s.iter().rposition(|e| matches!(e, Entry::Frame { serial: f, .. } if *f == serial));
            match i {
                Some(i) => take(s, i, key),
                None => Lookup::Missing,
            }
        })
    }

    /// The topmost live frame of the call `key`, if its id was not switched off since it was
    /// opened.
    #[inline]
    pub fn find_call(&self, key: CallKey) -> Lookup {
        self.stack(|s| {
            let i =
                s.iter().rposition(|e| matches!(e, Entry::Frame { key: k, dead: false, .. } if *k == key));
            match i {
                Some(i) => take(s, i, key),
                None => Lookup::Missing,
            }
        })
    }

    /// `owner`'s value in the frame starting at `start`; `None` if it stored none.
    #[inline]
    pub fn load(&self, start: usize, owner: u64) -> Option<u64> {
        self.stack(|s| {
            let Some(Entry::Frame { serial, .. }) = s.get(start).copied() else { return None };
            s[start + 1..].iter().find_map(|e| match *e {
                Entry::Value { serial: f, owner: o, value } if f == serial && o == owner => Some(value),
                _ => None,
            })
        })
    }

    /// Pops the frame starting at `start` and everything above it.
    #[inline]
    pub fn close(&self, start: usize) {
        self.stack(|s| s.truncate(start));
    }

    /// Entries on the stack (frames and values).
    pub fn depth(&self) -> usize {
        self.stack(|s| s.len())
    }
}

/// Marks the frame at `i` dead, and says whether it is `key`'s live frame.
fn take(s: &mut [Entry], i: usize, key: CallKey) -> Lookup {
    let Entry::Frame { key: k, epoch, dead, .. } = &mut s[i] else { return Lookup::Missing };
    let live = !*dead && *k == key && *epoch == self::epoch(key.domain, key.cbid);
    *dead = true;
    if live {
        Lookup::Found(i)
    } else {
        Lookup::Stale
    }
}

/// The generation of the topmost frame.
fn top_generation(s: &[Entry]) -> Option<u64> {
    s.iter().rev().find_map(|e| match e {
        Entry::Frame { key, .. } => Some(key.generation),
        Entry::Value { .. } => None,
    })
}

/// Makes room before a frame of subscription `generation` is opened: frames of other
/// subscriptions go (a new one's calls never pair with an old one's), and past [`MAX_DEPTH`] frames
/// or `MAX_ENTRIES` entries the oldest frames go.
#[cold]
#[inline(never)]
fn trim(s: &mut Vec<Entry>, generation: u64) {
    let mut keep = true;
    s.retain(|e| {
        if let Entry::Frame { key, .. } = e {
            keep = key.generation == generation;
        }
        keep
    });
    let is_frame = |e: &Entry| matches!(e, Entry::Frame { .. });
    while !s.is_empty() && (s.iter().filter(|e| is_frame(e)).count() >= MAX_DEPTH || s.len() >= MAX_ENTRIES) {
        let next = s.iter().skip(1).position(is_frame).map_or(s.len(), |j| j + 1);
        s.drain(..next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(generation: u64, cbid: u32) -> CallKey {
        CallKey { generation, domain: 60, cbid }
    }

    #[test]
    fn nested_frames_keep_each_owners_value_and_abandoned_frames_are_dropped() {
        let f = &FrameStack::new();
        let outer = f.open(key(1, 1));
        f.store(outer, 1, 10);
        f.store(outer, 2, 20);
        let inner = f.open(key(1, 2));
        f.store(inner, 1, 11);
        // An inner call whose EXIT never comes.
        let abandoned = f.open(key(1, 3));
        f.store(abandoned, 1, 99);
        let Lookup::Found(i) = f.find_serial(inner, key(1, 2)) else { panic!("inner") };
        assert_eq!((f.load(i, 1), f.load(i, 2)), (Some(11), None));
        f.close(i);
        let Lookup::Found(o) = f.find_call(key(1, 1)) else { panic!("outer") };
        assert_eq!((f.load(o, 1), f.load(o, 2)), (Some(10), Some(20)));
        assert_eq!(f.find_serial(abandoned, key(1, 3)), Lookup::Missing, "dropped with the inner call");
        f.close(o);
        assert_eq!(f.depth(), 0);
        assert_eq!(f.find_serial(0, key(1, 1)), Lookup::Missing);
    }

    #[test]
    fn serials_carry_the_tag_and_values_without_it_are_never_frames() {
        let f = FrameStack::new();
        let (a, b) = (f.open(key(1, 1)), f.open(key(1, 1)));
        assert_ne!(a, b);
        assert!(is_serial_form(a, tag()) && is_serial_form(b, tag()));
        assert!(!is_serial_form(a ^ 1 << 63, tag()));
        assert_eq!(f.find_serial(u64::from(tag()) << 32 | 0xffff_fff0, key(1, 1)), Lookup::Missing);
        assert_eq!(f.find_serial(b, key(1, 1)), Lookup::Found(1));
        assert_eq!(f.find_serial(a, key(1, 2)), Lookup::Stale, "another call's frame");
    }

    /// An ENTER whose EXIT was lost (its id switched off mid-call), then, once switched on again,
    /// an EXIT whose ENTER was not seen: the EXIT must not take the lost call's frame, by call or by
    /// serial (a vendor that reuses its per-call storage without zeroing hands the old serial back).
    #[test]
    fn an_exit_without_enter_never_pairs_with_a_lost_calls_frame() {
        for by_serial in [false, true] {
            let f = FrameStack::new();
            let k = CallKey { generation: 7, domain: 61, cbid: if by_serial { 11 } else { 10 } };
            let lost = f.open(k);
            f.store(lost, 1, 0xDEAD);
            switched_off(k.domain, k.cbid);
            let found = if by_serial { f.find_serial(lost, k) } else { f.find_call(k) };
            assert_eq!(found, Lookup::Stale);
            assert_eq!(f.find_call(k), Lookup::Missing, "the dead frame is never matched again");
            // A whole call afterwards pairs.
            let next = f.open(k);
            f.store(next, 1, 7);
            let Lookup::Found(i) = (if by_serial { f.find_serial(next, k) } else { f.find_call(k) }) else {
                panic!("the next call pairs")
            };
            assert_eq!(f.load(i, 1), Some(7));
            f.close(i);
            assert_eq!(f.depth(), 2, "the dead frame and its value stay until an enclosing call ends");
        }
        // A whole domain switched off makes its frames stale too.
        let f = FrameStack::new();
        let k = CallKey { generation: 7, domain: 62, cbid: 3 };
        f.open(k);
        domain_switched_off(62);
        assert_eq!(f.find_call(k), Lookup::Stale);
    }

    #[test]
    fn a_live_frame_above_a_dead_one_survives() {
        let f = FrameStack::new();
        let lost = CallKey { generation: 1, domain: 63, cbid: 10 };
        let outer = CallKey { generation: 1, domain: 63, cbid: 22 };
        f.open(lost);
        let o = f.open(outer);
        f.store(o, 1, 22);
        switched_off(lost.domain, lost.cbid);
        assert_eq!(f.find_call(lost), Lookup::Stale);
        let Lookup::Found(i) = f.find_call(outer) else { panic!("outer") };
        assert_eq!(f.load(i, 1), Some(22));
    }

    #[test]
    fn a_new_subscription_forgets_old_frames_and_depth_is_bounded() {
        let f = FrameStack::new();
        for _ in 0..(MAX_DEPTH + 10) {
            f.open(key(4, 1));
        }
        assert!(f.depth() <= MAX_DEPTH, "{}", f.depth());
        for _ in 0..(MAX_DEPTH - 1) {
            f.open(key(4, 1));
        }
        f.open(key(5, 1));
        assert_eq!(f.depth(), 1, "the old subscription's frames are gone");
        assert_eq!(f.find_call(key(4, 1)), Lookup::Missing);
        let many = f.open(key(5, 2));
        for owner in 0..(MAX_ENTRIES as u64) {
            f.store(many, owner, owner);
        }
        f.open(key(5, 3));
        assert!(f.depth() < MAX_ENTRIES);
    }

    #[test]
    fn slots_read_zero_without_a_cell_and_say_whether_they_are_paired() {
        let none = CorrelationSlot::none();
        none.set(5);
        assert_eq!((none.get(), none.paired()), (0, false));
        let cell = Cell::new(3);
        let slot = CorrelationSlot::new(&cell, true);
        slot.set(4);
        assert_eq!((slot.get(), cell.get(), slot.paired()), (4, 4, true));
        assert_eq!(format!("{none:?}"), "CorrelationSlot(0, unpaired)");
    }
}
