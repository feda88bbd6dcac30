//! External correlation: per thread, a stack of ids for each `CUpti_ExternalCorrelationKind`
//! (1 UNKNOWN ..= 5 CUSTOM2) and each sink: the V1 functions push on the process-wide (V1) sink's
//! stacks, the `_v2` ones on the subscriber's ("each subscriber maintains its own external
//! correlation context"). While a kind has an id pushed on a thread, each API activity record a sink
//! makes for that thread is preceded by an EXTERNAL_CORRELATION record (if the sink records that kind)
//! linking the top id to the API's correlation id.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use super::sinks::{self, MAX_SINKS};
use crate::results::{INVALID_PARAMETER, QUEUE_EMPTY, SUCCESS};
use crate::version;

const KINDS: usize = 6;

/// Bumped by `mock_cupti_reset`: a thread's stacks from an earlier generation are stale.
static GENERATION: AtomicU64 = AtomicU64::new(0);

type Stacks = [[Vec<u64>; KINDS]; MAX_SINKS];

thread_local! {
    static STACKS: RefCell<(u64, Stacks)> = RefCell::new((0, Default::default()));
}

fn with_stacks<R>(sink: usize, f: impl FnOnce(&mut [Vec<u64>; KINDS]) -> R) -> R {
    let generation = GENERATION.load(Ordering::Relaxed);
    STACKS.with(|s| {
        let mut s = s.borrow_mut();
        if s.0 != generation {
            *s = (generation, Default::default());
        }
        f(&mut s.1[sink])
    })
}

fn valid(kind: u32) -> bool {
    (1..KINDS as u32).contains(&kind)
}

/// `(kind, id)` at the top of each non-empty stack of the calling thread, for `sink`.
pub fn current(sink: usize) -> Vec<(u32, u64)> {
    with_stacks(sink, |stacks| {
        stacks.iter().enumerate().filter_map(|(k, s)| s.last().map(|&id| (k as u32, id))).collect()
    })
}

pub fn reset() {
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// Push on `sink`'s stack of `kind`.
pub fn push(sink: usize, kind: u32, id: u64) -> u32 {
    if !valid(kind) {
        return INVALID_PARAMETER;
    }
    with_stacks(sink, |stacks| stacks[kind as usize].push(id));
    SUCCESS
}

/// Pop `sink`'s stack of `kind`.
///
/// # Safety
/// `last_id` is NULL or writable.
pub unsafe fn pop(sink: usize, kind: u32, last_id: *mut u64) -> u32 {
    if !valid(kind) {
        return INVALID_PARAMETER;
    }
    match with_stacks(sink, |stacks| stacks[kind as usize].pop()) {
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

#[no_mangle]
pub extern "C" fn cuptiActivityPushExternalCorrelationId(kind: u32, id: u64) -> u32 {
    if !valid(kind) {
        return INVALID_PARAMETER;
    }
    if !version::driver_present() {
        return version::no_driver_error();
    }
    if let Some(code) = super::v1_not_compatible().or_else(super::v1_refused) {
        return code;
    }
    push(sinks::GLOBAL, kind, id)
}

#[no_mangle]
pub unsafe extern "C" fn cuptiActivityPopExternalCorrelationId(kind: u32, last_id: *mut u64) -> u32 {
    if !valid(kind) {
        return INVALID_PARAMETER;
    }
    if !version::driver_present() {
        return version::no_driver_error();
    }
    if let Some(code) = super::v1_not_compatible().or_else(super::v1_refused) {
        return code;
    }
    // SAFETY: the caller's contract.
    unsafe { pop(sinks::GLOBAL, kind, last_id) }
}
