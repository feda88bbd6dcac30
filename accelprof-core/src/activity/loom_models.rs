//! Model checks of the activity routing (`RouteSlot`) with loom: see `crate::callback::loom_models`
//! and `docs/CHECKS.md`. The slot's atomics are loom's under `--cfg loom`; the pool and the
//! channel to the decode thread stay crossbeam's (each step of theirs is one step here).

use loom::thread;

use super::route::{Completion, Route, RouteSlot};
use crate::pipeline::Handoff;
use crate::pool::BufferPool;

/// A slot with a session attached, one buffer of it held by the vendor.
fn attached_with_a_buffer() -> (&'static RouteSlot<()>, Handoff, super::route::Attached<()>, usize) {
    let slot: &'static RouteSlot<()> = Box::leak(Box::new(RouteSlot::new()));
    let handoff = Handoff::unattended(BufferPool::new(64, 2));
    let Ok(attached) = slot.attach(Box::new(Route::new(handoff.clone(), ()))) else { panic!("attach") };
    let (ptr, size) = slot.request().expect("a buffer of the pool");
    assert_eq!(size, 64);
    (slot, handoff, attached, ptr as usize)
}

/// (d) A session ends (its route detached) while the vendor completes one of its buffers: the
/// buffer reaches the decode thread (the completion came first) or is freed as late (counted);
/// never left as someone else's ("foreign": its records in no count, its memory never freed).
#[test]
fn loom_detach_vs_a_completion_delivers_or_counts_the_buffer_late() {
    crate::callback::loom_models::check("activity/detach vs completion", || {
        let (slot, handoff, attached, ptr) = attached_with_a_buffer();
        // SAFETY: a buffer of ours the vendor is done with.
        let vendor = thread::spawn(move || unsafe { slot.complete(ptr as *mut u8, 8, |_| {}) });
        drop(attached);
        let done = vendor.join().unwrap();
        let (stats, counts) = (slot.stats(), handoff.counts());
        match done {
            Completion::Delivered => assert_eq!((counts.buffers_completed, stats.late_buffers), (1, 0)),
            Completion::Late => assert_eq!((counts.buffers_completed, stats.late_buffers), (0, 1)),
            Completion::Foreign => {
                panic!("our buffer, completed while its session ended, taken for another's")
            }
        }
        assert_eq!(stats.foreign_buffers, 0);
    });
}

/// (d) The vendor asks for a buffer and completes it while the session ends: it gets none (an
/// orphan request, counted) or one that is then delivered or counted late; never lost.
#[test]
fn loom_detach_vs_a_request_counts_an_orphan_or_tracks_the_buffer() {
    crate::callback::loom_models::check("activity/detach vs request+completion", || {
        let slot: &'static RouteSlot<()> = Box::leak(Box::new(RouteSlot::new()));
        let handoff = Handoff::unattended(BufferPool::new(64, 2));
        let Ok(attached) = slot.attach(Box::new(Route::new(handoff.clone(), ()))) else { panic!("attach") };
        // (A stack of its own: the default of loom's threads is too small for the allocator's path.)
        let vendor = thread::Builder::new().stack_size(1 << 20).spawn(move || {
            let (ptr, _) = slot.request()?;
            // SAFETY: a buffer of ours the vendor is done with.
            Some(unsafe { slot.complete(ptr, 8, |_| {}) })
        });
        let vendor = vendor.unwrap();
        drop(attached);
        let done = vendor.join().unwrap();
        let (stats, counts) = (slot.stats(), handoff.counts());
        match done {
            None => assert_eq!(stats.orphan_requests, 1, "no buffer, no count"),
            Some(Completion::Delivered) => assert_eq!(counts.buffers_completed, 1),
            Some(Completion::Late) => assert_eq!(stats.late_buffers, 1),
            Some(Completion::Foreign) => panic!("our buffer taken for another's"),
        }
        assert!(!slot.is_live());
    });
}
