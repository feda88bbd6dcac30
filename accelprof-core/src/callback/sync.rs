//! The synchronization primitives of the callback machinery, in one place: std's, or, built with
//! `--cfg loom`, the model checker's (loom's), so that the models in `callback::loom` check the
//! algorithms themselves, not a copy (see `docs/CHECKS.md`).
//!
//! What loom replaces: the atomics, fences and mutexes the protocols are made of, the statics that
//! hold them ([`statics!`], reset for every explored execution) and the per-thread reader state
//! ([`local!`]). Counters that only hand out unique numbers (handler keys, generations, epochs)
//! and panic statistics stay std's: no protocol rests on them.

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{
    compiler_fence, fence, AtomicBool, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering,
};
#[cfg(not(loom))]
pub(crate) use std::sync::{Mutex, MutexGuard};

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{
    fence, AtomicBool, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering,
};
#[cfg(loom)]
pub(crate) use loom::sync::{Mutex, MutexGuard};

/// loom has no compiler fence; under loom, readers never take the `membarrier` flavour that
/// uses one (`rcu`'s mode stays "fences"), so this is never reached there.
#[cfg(loom)]
pub(crate) fn compiler_fence(order: Ordering) {
    fence(order)
}

/// Locks `m`, taking the data of a poisoned mutex as it is (every critical section here leaves
/// its data consistent before anything that can panic).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One round of a wait loop that has spun `spins` times: spin, then yield, then sleep. Under
/// loom, a yield (the model checker then runs another thread).
#[inline]
pub(crate) fn backoff(spins: u32) {
    #[cfg(loom)]
    {
        let _ = spins;
        loom::thread::yield_now();
    }
    #[cfg(not(loom))]
    {
        if spins < 100 {
            std::hint::spin_loop();
        } else if spins < 1_000 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
    }
}

/// Process-wide statics of the protocols: plain `static`s, or loom's lazy statics (fresh for
/// every execution the model checker explores). Used as `NAME.load(..)`, `lock(&NAME)`.
#[cfg(not(loom))]
macro_rules! statics {
    ($($(#[$m:meta])* static $name:ident: $t:ty = $e:expr;)*) => {
        $($(#[$m])* static $name: $t = $e;)*
    };
}
#[cfg(loom)]
macro_rules! statics {
    ($($(#[$m:meta])* static $name:ident: $t:ty = $e:expr;)*) => {
        loom::lazy_static! { $($(#[$m])* static ref $name: $t = $e;)* }
    };
}

/// A thread-local of the protocols: std's (const-initialized), or loom's.
#[cfg(not(loom))]
macro_rules! local {
    ($(#[$m:meta])* static $name:ident: $t:ty = $e:expr;) => {
        std::thread_local! { $(#[$m])* static $name: $t = const { $e }; }
    };
}
#[cfg(loom)]
macro_rules! local {
    ($(#[$m:meta])* static $name:ident: $t:ty = $e:expr;) => {
        loom::thread_local! { $(#[$m])* static $name: $t = $e; }
    };
}

pub(crate) use {local, statics};
