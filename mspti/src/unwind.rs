//! Keeping panics out of C: every function MSPTI calls runs its body inside `catch_unwind`, and a
//! caught panic's payload is dropped here, where its own `Drop` panicking cannot escape either
//! (a panic unwinding out of an `extern "C"` function aborts the process).

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Drops a caught panic's payload; if dropping it panics, that second payload is leaked (it cannot
/// be dropped safely, and must not unwind into the C caller).
pub(crate) fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(again);
    }
}

/// Runs `f` for a C caller: its value, or `None` when it panicked (the panic is swallowed).
pub(crate) fn guard<T>(f: impl FnOnce() -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => Some(v),
        Err(payload) => {
            drop_payload(payload);
            None
        }
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

    #[test]
    fn a_payload_whose_drop_panics_does_not_escape() {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = guard(|| -> u32 { std::panic::panic_any(PanicsOnDrop) });
        std::panic::set_hook(before);
        assert_eq!(r, None);
        assert_eq!(guard(|| 7), Some(7));
    }
}
