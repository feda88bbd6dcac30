//! Keeping panics out of C, for every function a vendor library calls.
//!
//! A panic that unwinds out of an `extern "C"` function aborts the process, so the body of every
//! such function runs under [`guard`]; a user closure runs under `catch_unwind` in its
//! [`Handler`](super::Handler), which counts the panic and keeps its message ([`Panics`]). A
//! caught payload is dropped by [`drop_payload`], where its own `Drop` panicking cannot escape
//! either (that second payload is leaked: it cannot be dropped safely).

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

// Std's even under loom: a statistic, no protocol (see `super::sync`).
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Runs `f` for a C caller: its value, or `None` when it panicked (the panic is swallowed and its
/// payload dropped by [`drop_payload`]).
#[inline]
pub fn guard<T>(f: impl FnOnce() -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => Some(v),
        Err(payload) => {
            drop_payload(payload);
            None
        }
    }
}

/// Drops a caught panic's payload; if its `Drop` panics, that second payload is leaked.
#[cold]
pub fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(again);
    }
}

/// The message of a panic payload: its `&str` or `String`, else a placeholder.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic with a non-string payload".to_owned())
}

/// How many times a closure panicked, and the latest message: what `Subscriber::panics()` and
/// `Subscriber::last_panic()` report in every vendor crate.
#[derive(Debug, Default)]
pub struct Panics {
    count: AtomicU64,
    last: Mutex<Option<String>>,
}

impl Panics {
    /// None yet.
    pub const fn new() -> Panics {
        Panics { count: AtomicU64::new(0), last: Mutex::new(None) }
    }

    /// Counts one caught panic, keeps its message and drops the payload (see [`drop_payload`]).
    /// Never waits: if a reader of [`Panics::last`] holds the message (only to clone it), this
    /// message is not kept.
    #[cold]
    #[inline(never)]
    pub fn record(&self, payload: Box<dyn Any + Send>) {
        self.count.fetch_add(1, Ordering::Relaxed);
        let message = panic_message(&*payload);
        if let Ok(mut last) = self.last.try_lock() {
            *last = Some(message);
        }
        drop_payload(payload);
    }

    /// Panics caught so far.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The latest panic's message.
    pub fn last(&self) -> Option<String> {
        self.last.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct PanicsOnDrop;
    impl Drop for PanicsOnDrop {
        fn drop(&mut self) {
            panic!("the payload's drop panics");
        }
    }

    fn quiet<T>(f: impl FnOnce() -> T) -> T {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = f();
        std::panic::set_hook(before);
        r
    }

    #[test]
    fn a_payload_whose_drop_panics_does_not_escape() {
        let r = quiet(|| guard(|| -> u32 { std::panic::panic_any(PanicsOnDrop) }));
        assert_eq!(r, None);
        assert_eq!(guard(|| 7), Some(7));
    }

    #[test]
    fn panics_are_counted_with_their_last_message() {
        let p = Panics::new();
        for message in ["first", "second"] {
            let payload = quiet(|| catch_unwind(|| panic!("{message}")).unwrap_err());
            p.record(payload);
        }
        let payload = quiet(|| catch_unwind(|| std::panic::panic_any(PanicsOnDrop)).unwrap_err());
        quiet(|| p.record(payload));
        assert_eq!(p.count(), 3);
        assert_eq!(p.last().as_deref(), Some("panic with a non-string payload"));
    }
}
