//! The entry/exit slot, kept by this crate.
//!
//! MSPTI's `correlationData` is supposed to be a `u64` shared by the ENTER and EXIT callbacks
//! of one API call, but in the real library it (like `correlationId` and `functionParams`) is
//! uninitialised stack memory that differs between ENTER and EXIT. It is never read here.
//! Instead each thread keeps a stack of frames: ENTER pushes one, the matching EXIT (same
//! subscription, domain and id) reads it and pops it. API calls nest strictly on a thread, so a
//! stack pairs nested calls correctly. Frames whose EXIT never came (a callback disabled or
//! unsubscribed in the middle of a call) are dropped when an enclosing call's EXIT arrives,
//! when a new subscription is seen on the thread, or when the stack grows past [`MAX_DEPTH`].
//! An EXIT without a frame (enabled in the middle of a call) gets a fresh zeroed slot, and so
//! does an EXIT whose only candidate frame was pushed before its id was last switched off (its
//! epoch, see `epoch.rs`): that frame is a lost EXIT's, not this call's, and is dropped.

use std::cell::{Cell, RefCell};
use std::marker::PhantomData;

/// Frames kept per thread at most.
pub const MAX_DEPTH: usize = 256;

struct Frame {
    id: u64,
    generation: u64,
    domain: u32,
    cbid: u32,
    /// The id's epoch at ENTER.
    epoch: u64,
    /// A lost EXIT's frame found stale: kept in place (indices above it stay valid), never matched.
    dead: bool,
    value: Cell<u64>,
}

thread_local! {
    static FRAMES: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
}

fn next_id() -> u64 {
    NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    })
}

/// The `u64` shared by the ENTER and EXIT callbacks of one API call on this thread.
///
/// Only usable inside the callback it was given to (it is neither `Send` nor `'static`):
///
/// ```compile_fail
/// let mspti = mspti::Mspti::open().unwrap();
/// let kept = std::sync::Mutex::new(None);
/// let _sub = mspti.subscribe(move |cb| {
///     *kept.lock().unwrap() = Some(cb.slot()); // error: the slot cannot leave the callback
/// });
/// ```
#[derive(Debug)]
pub struct Slot<'a> {
    id: u64,
    index: usize,
    from_enter: bool,
    _here: PhantomData<&'a Cell<u64>>,
}

impl Slot<'_> {
    /// The value stored at ENTER (0 when nothing was stored, or at an EXIT without ENTER).
    pub fn get(&self) -> u64 {
        self.with(|v| v.get()).unwrap_or(0)
    }

    /// Stores a value for this call's EXIT callback to read.
    pub fn set(&self, value: u64) {
        self.with(|v| v.set(value));
    }

    /// False at an EXIT whose ENTER this subscription did not see (enabled mid-call).
    pub fn paired(&self) -> bool {
        self.from_enter
    }

    fn with<R>(&self, f: impl FnOnce(&Cell<u64>) -> R) -> Option<R> {
        FRAMES
            .try_with(|frames| {
                let frames = frames.try_borrow().ok()?;
                let frame = frames.get(self.index).filter(|fr| fr.id == self.id)?;
                Some(f(&frame.value))
            })
            .ok()
            .flatten()
    }
}

/// The frame an ENTER callback pushed or an EXIT callback found; popped on drop at EXIT.
pub(crate) struct FrameGuard {
    id: u64,
    index: usize,
    from_enter: bool,
    pop: bool,
}

impl FrameGuard {
    pub(crate) fn slot(&self) -> Slot<'_> {
        Slot { id: self.id, index: self.index, from_enter: self.from_enter, _here: PhantomData }
    }
}

impl Drop for FrameGuard {
    fn drop(&mut self) {
        if !self.pop {
            return;
        }
        let (id, index) = (self.id, self.index);
        let _ = FRAMES.try_with(|frames| {
            if let Ok(mut frames) = frames.try_borrow_mut() {
                if frames.get(index).is_some_and(|f| f.id == id) {
                    frames.truncate(index);
                }
            }
        });
    }
}

/// Which call a frame belongs to: the subscription, the callback id, and the id's epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    pub(crate) generation: u64,
    pub(crate) domain: u32,
    pub(crate) cbid: u32,
    pub(crate) epoch: u64,
}

fn push(frames: &mut Vec<Frame>, key: Key) -> (u64, usize) {
    if frames.last().is_some_and(|f| f.generation != key.generation) {
        frames.retain(|f| f.generation == key.generation);
    }
    if frames.len() >= MAX_DEPTH {
        frames.drain(..frames.len() + 1 - MAX_DEPTH);
    }
    let id = next_id();
    let Key { generation, domain, cbid, epoch } = key;
    frames.push(Frame { id, generation, domain, cbid, epoch, dead: false, value: Cell::new(0) });
    (id, frames.len() - 1)
}

/// At ENTER: a new frame, left on the stack for the EXIT.
pub(crate) fn enter(key: Key) -> Option<FrameGuard> {
    FRAMES
        .try_with(|frames| {
            let mut frames = frames.try_borrow_mut().ok()?;
            let (id, index) = push(&mut frames, key);
            Some(FrameGuard { id, index, from_enter: true, pop: false })
        })
        .ok()
        .flatten()
}

/// At EXIT: the matching ENTER's frame (frames above it, whose EXIT never came, are dropped),
/// or a fresh one; popped when the guard drops. A matching frame from before the id was last
/// switched off is a lost EXIT's: it is dropped and this EXIT gets a fresh, unpaired slot.
pub(crate) fn exit(key: Key) -> Option<FrameGuard> {
    FRAMES
        .try_with(|frames| {
            let mut frames = frames.try_borrow_mut().ok()?;
            let found = frames.iter().rposition(|f| {
                !f.dead && f.generation == key.generation && f.domain == key.domain && f.cbid == key.cbid
            });
            match found {
                Some(index) if frames[index].epoch == key.epoch => {
                    frames.truncate(index + 1);
                    Some(FrameGuard { id: frames[index].id, index, from_enter: true, pop: true })
                }
                stale => {
                    if let Some(index) = stale {
                        frames[index].dead = true;
                    }
                    let (id, index) = push(&mut frames, key);
                    Some(FrameGuard { id, index, from_enter: false, pop: true })
                }
            }
        })
        .ok()
        .flatten()
}

/// Frames on this thread now (for tests).
#[cfg(test)]
pub(crate) fn depth() -> usize {
    FRAMES.with(|f| f.borrow().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(generation: u64, domain: u32, cbid: u32, epoch: u64) -> Key {
        Key { generation, domain, cbid, epoch }
    }

    #[test]
    fn nested_calls_pair_with_their_own_enter() {
        let outer = enter(key(1, 1, 10, 0)).expect("frame");
        outer.slot().set(100);
        let inner = enter(key(1, 1, 10, 0)).expect("frame");
        inner.slot().set(200);
        drop((outer, inner));
        let inner_exit = exit(key(1, 1, 10, 0)).expect("frame");
        assert_eq!(inner_exit.slot().get(), 200);
        drop(inner_exit);
        let outer_exit = exit(key(1, 1, 10, 0)).expect("frame");
        assert_eq!(outer_exit.slot().get(), 100);
        assert!(outer_exit.slot().paired());
        drop(outer_exit);
        assert_eq!(depth(), 0);
    }

    #[test]
    fn lost_exits_are_dropped_by_the_enclosing_exit() {
        let outer = enter(key(2, 1, 22, 0)).expect("frame");
        outer.slot().set(7);
        drop(outer);
        drop(enter(key(2, 1, 10, 0))); // its EXIT never comes
        let e = exit(key(2, 1, 22, 0)).expect("frame");
        assert_eq!(e.slot().get(), 7);
        drop(e);
        assert_eq!(depth(), 0);
    }

    #[test]
    fn exit_without_enter_gets_a_zeroed_unpaired_slot() {
        let e = exit(key(3, 2, 1, 0)).expect("frame");
        assert_eq!(e.slot().get(), 0);
        assert!(!e.slot().paired());
        drop(e);
        assert_eq!(depth(), 0);
    }

    #[test]
    fn a_new_subscription_forgets_old_frames_and_depth_is_bounded() {
        for _ in 0..(MAX_DEPTH + 10) {
            drop(enter(key(4, 1, 1, 0)));
        }
        assert_eq!(depth(), MAX_DEPTH);
        drop(enter(key(5, 1, 1, 0)));
        assert_eq!(depth(), 1);
        let e = exit(key(4, 1, 1, 0)).expect("frame");
        assert!(!e.slot().paired(), "an old subscription's frames are gone");
    }

    /// An ENTER whose EXIT was lost (the id switched off mid-call), then, once switched on again,
    /// an EXIT whose ENTER was not seen: the EXIT must not read the lost call's value nor claim to
    /// be paired.
    #[test]
    fn an_exit_without_enter_does_not_pair_with_a_lost_exits_frame() {
        let lost = enter(key(6, 1, 10, 0)).expect("frame");
        lost.slot().set(0xDEAD);
        drop(lost); // its EXIT never comes: the id is switched off (epoch 0 -> 1)
        let late = exit(key(6, 1, 10, 1)).expect("frame");
        assert!(!late.slot().paired(), "not paired with the lost call's frame");
        assert_eq!(late.slot().get(), 0, "the lost call's value is not read");
        drop(late);
        // A later call pairs normally, and the dead frame is never matched again.
        let next = enter(key(6, 1, 10, 1)).expect("frame");
        next.slot().set(7);
        drop(next);
        let next_exit = exit(key(6, 1, 10, 1)).expect("frame");
        assert!(next_exit.slot().paired());
        assert_eq!(next_exit.slot().get(), 7);
        drop(next_exit);
        let again = exit(key(6, 1, 10, 1)).expect("frame");
        assert!(!again.slot().paired(), "the dead frame stays dead");
    }

    /// A live enclosing call's frame above a lost frame survives the lost frame's removal.
    #[test]
    fn dropping_a_stale_frame_keeps_the_frames_above_it() {
        drop(enter(key(7, 1, 10, 0))); // lost
        let outer = enter(key(7, 1, 22, 0)).expect("frame");
        outer.slot().set(22);
        drop(outer);
        drop(exit(key(7, 1, 10, 1))); // an EXIT without ENTER inside the outer call
        let outer_exit = exit(key(7, 1, 22, 0)).expect("frame");
        assert!(outer_exit.slot().paired());
        assert_eq!(outer_exit.slot().get(), 22);
    }
}
