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
//! An EXIT without a frame (enabled in the middle of a call) gets a fresh zeroed slot.

use std::cell::{Cell, RefCell};
use std::marker::PhantomData;

/// Frames kept per thread at most.
pub const MAX_DEPTH: usize = 256;

struct Frame {
    id: u64,
    generation: u64,
    domain: u32,
    cbid: u32,
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

fn push(frames: &mut Vec<Frame>, generation: u64, domain: u32, cbid: u32) -> (u64, usize) {
    if frames.last().is_some_and(|f| f.generation != generation) {
        frames.retain(|f| f.generation == generation);
    }
    if frames.len() >= MAX_DEPTH {
        frames.drain(..frames.len() + 1 - MAX_DEPTH);
    }
    let id = next_id();
    frames.push(Frame { id, generation, domain, cbid, value: Cell::new(0) });
    (id, frames.len() - 1)
}

/// At ENTER: a new frame, left on the stack for the EXIT.
pub(crate) fn enter(generation: u64, domain: u32, cbid: u32) -> Option<FrameGuard> {
    FRAMES
        .try_with(|frames| {
            let mut frames = frames.try_borrow_mut().ok()?;
            let (id, index) = push(&mut frames, generation, domain, cbid);
            Some(FrameGuard { id, index, from_enter: true, pop: false })
        })
        .ok()
        .flatten()
}

/// At EXIT: the matching ENTER's frame (frames above it, whose EXIT never came, are dropped),
/// or a fresh one; popped when the guard drops.
pub(crate) fn exit(generation: u64, domain: u32, cbid: u32) -> Option<FrameGuard> {
    FRAMES
        .try_with(|frames| {
            let mut frames = frames.try_borrow_mut().ok()?;
            let found = frames
                .iter()
                .rposition(|f| f.generation == generation && f.domain == domain && f.cbid == cbid);
            match found {
                Some(index) => {
                    frames.truncate(index + 1);
                    Some(FrameGuard { id: frames[index].id, index, from_enter: true, pop: true })
                }
                None => {
                    let (id, index) = push(&mut frames, generation, domain, cbid);
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

    #[test]
    fn nested_calls_pair_with_their_own_enter() {
        let outer = enter(1, 1, 10).expect("frame");
        outer.slot().set(100);
        let inner = enter(1, 1, 10).expect("frame");
        inner.slot().set(200);
        drop((outer, inner));
        let inner_exit = exit(1, 1, 10).expect("frame");
        assert_eq!(inner_exit.slot().get(), 200);
        drop(inner_exit);
        let outer_exit = exit(1, 1, 10).expect("frame");
        assert_eq!(outer_exit.slot().get(), 100);
        assert!(outer_exit.slot().paired());
        drop(outer_exit);
        assert_eq!(depth(), 0);
    }

    #[test]
    fn lost_exits_are_dropped_by_the_enclosing_exit() {
        let outer = enter(2, 1, 22).expect("frame");
        outer.slot().set(7);
        drop(outer);
        drop(enter(2, 1, 10)); // its EXIT never comes
        let e = exit(2, 1, 22).expect("frame");
        assert_eq!(e.slot().get(), 7);
        drop(e);
        assert_eq!(depth(), 0);
    }

    #[test]
    fn exit_without_enter_gets_a_zeroed_unpaired_slot() {
        let e = exit(3, 2, 1).expect("frame");
        assert_eq!(e.slot().get(), 0);
        assert!(!e.slot().paired());
        drop(e);
        assert_eq!(depth(), 0);
    }

    #[test]
    fn a_new_subscription_forgets_old_frames_and_depth_is_bounded() {
        for _ in 0..(MAX_DEPTH + 10) {
            drop(enter(4, 1, 1));
        }
        assert_eq!(depth(), MAX_DEPTH);
        drop(enter(5, 1, 1));
        assert_eq!(depth(), 1);
        let e = exit(4, 1, 1).expect("frame");
        assert!(!e.slot().paired(), "an old subscription's frames are gone");
    }
}
