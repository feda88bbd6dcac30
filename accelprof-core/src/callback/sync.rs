//! The synchronization primitives of the callback machinery, in one place: std's. A model checker's
//! (loom's) can be swapped in here without touching the algorithms that use them.

pub(crate) use std::sync::atomic::{
    compiler_fence, fence, AtomicBool, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering,
};
pub(crate) use std::sync::{Mutex, MutexGuard};

/// Locks `m`, taking the data of a poisoned mutex as it is (every critical section here leaves
/// its data consistent before anything that can panic).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
