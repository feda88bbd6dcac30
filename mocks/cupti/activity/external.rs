//! External correlation: a per-thread stack of ids for each `CUpti_ExternalCorrelationKind`
//! (1 UNKNOWN ..= 5 CUSTOM2). While a kind has an id pushed on a thread, each API activity record
//! made on that thread is preceded by an EXTERNAL_CORRELATION record (if that kind is enabled)
//! linking the top id to the API's correlation id.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::results::{INVALID_PARAMETER, QUEUE_EMPTY, SUCCESS};
use crate::version;

const KINDS: usize = 6;

/// Bumped by `mock_cupti_reset`: a thread's stacks from an earlier generation are stale.
static GENERATION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static STACKS: RefCell<(u64, [Vec<u64>; KINDS])> = RefCell::new((0, Default::default()));
}

fn with_stacks<R>(f: impl FnOnce(&mut [Vec<u64>; KINDS]) -> R) -> R {
    let generation = GENERATION.load(Ordering::Relaxed);
    STACKS.with(|s| {
        let mut s = s.borrow_mut();
        if s.0 != generation {
            *s = (generation, Default::default());
        }
        f(&mut s.1)
    })
}

fn valid(kind: u32) -> bool {
    (1..KINDS as u32).contains(&kind)
}

/// `(kind, id)` at the top of each non-empty stack of the calling thread.
pub fn current() -> Vec<(u32, u64)> {
    with_stacks(|stacks| {
        stacks.iter().enumerate().filter_map(|(k, s)| s.last().map(|&id| (k as u32, id))).collect()
    })
}

pub fn reset() {
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

#[no_mangle]
pub extern "C" fn cuptiActivityPushExternalCorrelationId(kind: u32, id: u64) -> u32 {
    if !valid(kind) {
        return INVALID_PARAMETER;
    }
    if !version::driver_present() {
        return version::no_driver_error();
    }
    with_stacks(|stacks| stacks[kind as usize].push(id));
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiActivityPopExternalCorrelationId(kind: u32, last_id: *mut u64) -> u32 {
    if !valid(kind) {
        return INVALID_PARAMETER;
    }
    if !version::driver_present() {
        return version::no_driver_error();
    }
    match with_stacks(|stacks| stacks[kind as usize].pop()) {
        Some(id) => {
            if !last_id.is_null() {
                // SAFETY: checked non-null; the caller passes a writable u64 or NULL.
                unsafe { *last_id = id };
            }
            SUCCESS
        }
        None => QUEUE_EMPTY,
    }
}
