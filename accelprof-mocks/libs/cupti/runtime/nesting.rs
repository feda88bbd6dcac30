//! Driver calls inside runtime calls, as the real CUDA runtime makes them.
//!
//! The real runtime implements its API through the driver API: `cudaMemcpy` (HtoD) calls
//! `cuMemcpyHtoD_v2`, `cudaDeviceSynchronize` calls `cuCtxGetCurrent` then `cuCtxSynchronize_v2`
//! (observed with CUDA 13.0 on an H200). Those driver calls run on the same thread between the
//! runtime call's ENTER and EXIT callbacks, and every driver call made while a runtime call is in
//! progress on a thread carries **the runtime call's correlation id** (in its callbacks and in its
//! DRIVER record, written before the RUNTIME record since it ends first).
//!
//! On by default; `mock_cupti_set_nested_driver_calls(0)` plays runtime calls without driver
//! calls underneath and gives every call its own correlation id. A runtime call that fails
//! (`mock_cupti_fail_next_call`) is rejected before it reaches the driver: no driver call.

use std::cell::RefCell;
use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::api_call::{begin, finish};
use crate::callback_names::{DOMAIN_DRIVER, DOMAIN_RUNTIME};

static ENABLED: AtomicBool = AtomicBool::new(true);

/// Bumped by `mock_cupti_reset`, so runtime calls left open before it are forgotten.
static GENERATION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// (generation, correlation ids of the runtime calls in progress on this thread, innermost last).
    static OPEN_RUNTIME_CALLS: RefCell<(u64, Vec<u32>)> = const { RefCell::new((0, Vec::new())) };
}

fn with_open<R>(f: impl FnOnce(&mut Vec<u32>) -> R) -> R {
    let generation = GENERATION.load(Ordering::Relaxed);
    OPEN_RUNTIME_CALLS.with(|open| {
        let mut open = open.borrow_mut();
        if open.0 != generation {
            *open = (generation, Vec::new());
        }
        f(&mut open.1)
    })
}

/// Whether played runtime calls make their driver calls (and driver calls inside runtime calls
/// share their correlation id).
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Back to the default (on), no runtime call open on any thread.
pub fn reset() {
    ENABLED.store(true, Ordering::Relaxed);
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// The correlation id a call of `domain` beginning now on this thread inherits: a driver call
/// inside a runtime call gets the innermost runtime call's id.
pub fn inherited_correlation(domain: u32) -> Option<u32> {
    (domain == DOMAIN_DRIVER && enabled()).then(|| with_open(|open| open.last().copied())).flatten()
}

/// A call of `domain` with `correlation` began on this thread.
pub fn opened(domain: u32, correlation: u32) {
    if domain == DOMAIN_RUNTIME {
        with_open(|open| open.push(correlation));
    }
}

/// A call of `domain` with `correlation` ended on this thread (calls begun with
/// `mock_cupti_api_enter` may end out of order: the innermost with this id is removed).
pub fn closed(domain: u32, correlation: u32) {
    if domain == DOMAIN_RUNTIME {
        with_open(|open| {
            if let Some(i) = open.iter().rposition(|&c| c == correlation) {
                open.remove(i);
            }
        });
    }
}

/// The driver call `cbid` (with `params` as `functionParams`, `symbol` as `symbolName`) that the
/// runtime call in progress makes, running `body` (the work the driver does: waiting,
/// allocating) between its ENTER and EXIT. Without nesting only `body` runs. Returns what `body`
/// returns.
pub fn driver_call<R>(
    cbid: u32,
    symbol: Option<&'static CStr>,
    params: *const c_void,
    body: impl FnOnce() -> R,
) -> R {
    if !enabled() {
        return body();
    }
    let call = begin(DOMAIN_DRIVER, cbid, None, symbol, params);
    let result = body();
    finish(call, 0);
    result
}
