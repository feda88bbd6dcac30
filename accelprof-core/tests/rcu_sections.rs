//! The callback path's read sections, through the public API only and in safe code.
//!
//! The former API handed out guards (`rcu::read_lock()`): dropped out of order (the outer one
//! first), they marked the thread idle under the inner one, so that a waiting subscriber drop freed
//! the table and the closure the inner guard still borrowed; the inner one's drop then restored a
//! mark that nothing ended, and every later grace period hung. Sections are now scoped
//! (`rcu::read`): they nest lexically, and what is borrowed from one cannot leave it (the misuse
//! does not compile: see the `compile_fail` examples of `rcu::read`).
#![forbid(unsafe_code)]

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use accelprof_core::callback::{rcu, CallbackArgs, Switchboard, Target, Vendor};

struct Quiet;
impl CallbackArgs for Quiet {
    type Data<'a> = u32;
}
impl Vendor for Quiet {
    type Error = String;
    type Entry = ();
    const KEEPS_SUBSCRIPTION: bool = true;
    fn subscribe(&self, _: (), _: *mut c_void) -> Result<usize, String> {
        Ok(1)
    }
    fn unsubscribe(&self, _: usize) -> Result<(), String> {
        Ok(())
    }
    fn enable_domain(&self, _: usize, _: u32, _: bool) -> Result<(), String> {
        Ok(())
    }
    fn enable_id(&self, _: usize, _: u32, _: u32, _: bool) -> Result<(), String> {
        Ok(())
    }
    fn out_of_range(&self, t: Target) -> String {
        format!("{t:?}")
    }
}

struct Flag(Arc<AtomicBool>);
impl Drop for Flag {
    fn drop(&mut self) {
        self.0.store(true, SeqCst);
    }
}

/// A subscriber dropped (waiting) on another thread while this one is in nested read sections,
/// the inner one borrowing the table that reaches its closure: the drop waits for the outer
/// section, the closure is callable (and not freed) until then; afterwards grace periods end.
#[test]
fn a_waiting_drop_waits_for_every_nested_section_and_grace_periods_end_after_them() {
    let board = Switchboard::leak(Quiet);
    let keeper = board.register(|_: &u32| {}, ()).unwrap();
    let freed = Arc::new(AtomicBool::new(false));
    let calls_after_free = Arc::new(AtomicU64::new(0));
    let (flag, seen_freed, late) = (Flag(freed.clone()), freed.clone(), calls_after_free.clone());
    let h = board
        .register(
            move |_: &u32| {
                let _keep = &flag;
                if seen_freed.load(SeqCst) {
                    late.fetch_add(1, SeqCst);
                }
            },
            (),
        )
        .unwrap();
    board.enable(h.key(), Target::Id(1, 1)).unwrap();
    let key = h.key();
    drop(h);

    let (dropped_tx, dropped) = mpsc::channel();
    let dropper = rcu::read(|_outer| {
        let dropper = rcu::read(|inner| {
            let routes = board.routes(inner);
            assert_eq!(routes.get(1, 1).len(), 1);
            let dropper = std::thread::spawn(move || {
                board.unregister(key, true).unwrap();
                dropped_tx.send(()).unwrap();
            });
            assert!(
                dropped.recv_timeout(Duration::from_millis(100)).is_err(),
                "the waiting drop returned inside the inner section"
            );
            assert!(!freed.load(SeqCst), "the closure was freed while the inner section borrowed its table");
            for route in routes.get(1, 1) {
                route.call(&1);
            }
            dropper
        });
        // The inner section is over; the outer one still holds the table off.
        assert!(
            dropped.recv_timeout(Duration::from_millis(100)).is_err(),
            "the waiting drop returned inside the outer section"
        );
        assert!(!freed.load(SeqCst), "the closure was freed while the outer section was running");
        dropper
    });
    assert!(
        dropped.recv_timeout(Duration::from_secs(20)).is_ok(),
        "the waiting drop did not return within 20 s of the last section's end"
    );
    dropper.join().unwrap();
    assert!(freed.load(SeqCst), "freed when the waiting drop returned");
    assert_eq!(calls_after_free.load(SeqCst), 0);

    // No mark is left behind: a later grace period (another waiting drop) ends.
    let (tx, rx) = mpsc::channel();
    let k = keeper.key();
    drop(keeper);
    std::thread::spawn(move || {
        board.unregister(k, true).unwrap();
        tx.send(()).unwrap();
    });
    assert!(rx.recv_timeout(Duration::from_secs(20)).is_ok(), "a later grace period did not end within 20 s");
}

/// A section ends when its closure unwinds: no mark is left behind.
#[test]
fn a_section_whose_closure_panics_ends() {
    let board = Switchboard::leak(Quiet);
    let h = board.register(|_: &u32| {}, ()).unwrap();
    let unwound = std::panic::catch_unwind(|| rcu::read(|_| rcu::read(|_| panic!("in a section"))));
    assert!(unwound.is_err());
    assert!(!rcu::in_read_section());
    let (tx, rx) = mpsc::channel();
    let k = h.key();
    drop(h);
    std::thread::spawn(move || {
        board.unregister(k, true).unwrap();
        tx.send(()).unwrap();
    });
    assert!(
        rx.recv_timeout(Duration::from_secs(20)).is_ok(),
        "a grace period after the unwind did not end within 20 s"
    );
}
