//! Mock `libmspti.so`: the 15 functions of Huawei Ascend's MSPTI with the behaviour the vendor
//! notes record for the real library, traps included, plus `mock_mspti_*` controls that play
//! the CANN runtime (API calls with ENTER/EXIT, kernels, markers, HCCL, memory, ...).
//!
//! What it reproduces, as the real library does it:
//! - loading it without CANN's `libascendalog.so`/`libprofapi.so` aborts the process (a static
//!   constructor; see `cann.rs`);
//! - one subscriber (a second gets 2), NULL subscriber 1, NULL callback accepted;
//! - `EnableCallback`/`EnableDomain` accept any cbid < 64, return 0 with nothing subscribed and 6
//!   unless `LD_PRELOAD` (read once, on first use) contains `libmspti.so`; `ActivityEnable` of
//!   HCCL/MEMORY/MEMSET/MEMCPY likewise;
//! - the callback data's `correlationData`, `correlationId`, `functionParams` (and the other
//!   fields the real code leaves unset) are garbage that differs between ENTER and EXIT;
//! - unsubscribe does not wait for callbacks in flight and neither disables kinds nor flushes;
//! - records are written packed at the C offsets (`records.rs`, by byte offset);
//! - `GetNextRecord` keeps a thread-local cursor that ignores which buffer it is given;
//! - the buffer request runs on the producing thread under an internal lock (calling MSPTI from
//!   it is detected, counted and refused instead of deadlocking); a declined buffer is completed
//!   later with NULL/0/0 and its records are lost; full buffers complete on a new thread each;
//!   `FlushAll` is synchronous and completes the partial buffer; `FlushPeriod(0)` disables;
//! - external correlation is one global set of per-kind stacks; popping an empty one gives 5.
//!
//! std only: `build.rs` compiles this file alone with `rustc --crate-type cdylib`.

#![allow(non_snake_case, clippy::missing_safety_doc)]

mod activity;
mod callbacks;
mod cann;
mod control;
mod records;

use std::cell::Cell;
use std::os::raw::c_char;

/// `msptiResult` values.
pub mod result {
    pub const SUCCESS: u32 = 0;
    pub const INVALID_PARAMETER: u32 = 1;
    pub const MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: u32 = 2;
    pub const MAX_LIMIT_REACHED: u32 = 3;
    pub const QUEUE_EMPTY: u32 = 5;
    pub const WITHOUT_LD_PRELOAD: u32 = 6;
    pub const INNER: u32 = 999;
}

thread_local! {
    /// Set while this thread runs a client callback under the library's internal buffer lock.
    static HOLDS_INTERNAL_LOCK: Cell<bool> = const { Cell::new(false) };
}

static REENTRANT_CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Every exported MSPTI function starts here. Called from inside the buffer-request callback
/// (or a completion run under the same lock), the real library deadlocks on its own mutex; the
/// mock counts the call, says so on stderr and refuses it with INNER.
fn reentered(function: &str) -> bool {
    if HOLDS_INTERNAL_LOCK.with(Cell::get) {
        REENTRANT_CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        eprintln!(
            "mock libmspti: {function} called from a buffer callback that runs under MSPTI's internal \
             lock: the real library deadlocks here"
        );
        return true;
    }
    false
}

/// Runs `f` with the internal-lock marker set on this thread.
fn under_internal_lock<R>(f: impl FnOnce() -> R) -> R {
    let was = HOLDS_INTERNAL_LOCK.with(|c| c.replace(true));
    let r = f();
    HOLDS_INTERNAL_LOCK.with(|c| c.set(was));
    r
}

/// Whether `LD_PRELOAD` names `libmspti.so`, read once and cached, as the real library does
/// (each of its two checks has its own function-local static).
fn ld_preload_has_mspti(cache: &std::sync::OnceLock<bool>) -> bool {
    *cache.get_or_init(|| {
        std::env::var_os("LD_PRELOAD").is_some_and(|v| v.to_string_lossy().contains("libmspti.so"))
    })
}

/// A string whose address stays valid for the life of the process (record names point here).
fn intern(s: *const c_char) -> *const c_char {
    use std::collections::HashSet;
    use std::ffi::{CStr, CString};
    use std::sync::Mutex;
    static NAMES: Mutex<Option<HashSet<&'static CStr>>> = Mutex::new(None);
    if s.is_null() {
        return std::ptr::null();
    }
    // SAFETY: the controls' contract: `s` is a NUL-terminated string.
    let s = unsafe { CStr::from_ptr(s) };
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let set = names.get_or_insert_with(HashSet::new);
    if let Some(found) = set.get(s) {
        return found.as_ptr();
    }
    let leaked: &'static CStr = Box::leak(CString::from(s).into_boxed_c_str());
    set.insert(leaked);
    leaked.as_ptr()
}

/// Nanoseconds on a monotonic clock (the mock's stand-in for MSPTI's timestamps).
fn now_ns() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static BASE: OnceLock<Instant> = OnceLock::new();
    let base = *BASE.get_or_init(Instant::now);
    1_000_000_000 + base.elapsed().as_nanos() as u64
}

extern "C" {
    fn gettid() -> i32;
}

/// The calling thread's kernel id (what MSPTI records as threadId).
fn thread_id() -> u32 {
    // SAFETY: gettid has no preconditions.
    unsafe { gettid() as u32 }
}
