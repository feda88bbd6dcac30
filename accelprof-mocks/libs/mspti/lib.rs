//! Mock `libmspti.so`: the 15 functions of Huawei Ascend's MSPTI and its interposed `aclrt*` and
//! `Hccl*` wrappers, with the behaviour the vendor notes record for the real library (traps
//! included), plus `mock_mspti_*` controls for what a test cannot make the CANN stand-ins do.
//!
//! It is built like the real one: it needs `libc_sec.so` (a DT_NEEDED entry), opens
//! `libascendalog.so` and `libprofapi.so` from a static constructor and `libascend_hal.so` at
//! `msptiSubscribe`, each from `$ASCEND_HOME_PATH/lib64` or the loader path, and aborts the
//! process when one is missing. Records come the way the real ones do:
//! - API-family records (ACL_API, RUNTIME_API, NODE_API, API) from the runtime's reports through
//!   `libprofapi.so`, KERNEL records from the runtime's task tracks and the driver's STARS channel,
//!   MARKER records from `libms_tools_ext.so`'s table (and, for a mark on a stream, a device
//!   MARKER record from the driver's TS firmware channel): all three only while a subscriber exists
//!   (`reporters.rs`, `mstx.rs`); HCCL records from marks MSPTI puts on the stream around each
//!   collective (`hccl.rs`); CANN's profiling switches sent with `profSetProfCommand`;
//! - MEMORY, MEMSET and MEMCPY records and the callbacks from the `aclrt*`/`Hccl*` wrappers, which a
//!   program reaches only through the global symbol scope (`interpose.rs`).
//!
//! Reading order: [`cann`] (what is loaded when) -> [`callbacks`] -> [`interpose`] ->
//! [`reporters`] and [`mstx`] -> [`activity`] (buffers) -> [`control`].
//!
//! std only: `build.rs` compiles this file alone with `rustc --crate-type cdylib`.

#![allow(non_snake_case, clippy::missing_safety_doc)]
// The workspace's minimum Rust is 1.80: no `is_multiple_of` (1.87).
#![allow(clippy::manual_is_multiple_of)]

mod activity;
mod callbacks;
mod cann;
mod communication;
mod control;
mod correlation;
mod external;
mod hccl;
mod interpose;
mod mstx;
mod records;
mod reporters;

#[path = "../cann/protocol.rs"]
mod protocol;

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
    if FINALIZED.load(std::sync::atomic::Ordering::SeqCst) {
        // The real library's singletons (CallbackManager, the activity manager) are C++ statics:
        // called after their destructors ran (a tool's exit handler registered from a preloaded
        // library's constructor runs inside the loader's _dl_fini, after them), it frees memory
        // twice or crashes in CallbackManager::UnInit (seen on libmspti 26.1).
        eprintln!(
            "mock libmspti: {function} called after libmspti's static destructors ran: the real library \
             crashes here (double free / SIGSEGV in CallbackManager::UnInit)"
        );
        std::process::abort();
    }
    if FIRST_LAUNCH_STATE_DESTROYED.load(std::sync::atomic::Ordering::SeqCst) {
        // The real library's kernel parser (and the other parsers) are function-local C++ statics
        // made at the first task track: their destructors were registered then, after any exit
        // handler registered earlier (one registered in `main` before the first launch, at
        // `aclInit`), so they ran first. Called now, the real library aborts (`std::system_error`,
        // a destroyed mutex) or `msptiUnsubscribe` blocks joining a channel thread stuck on it
        // (seen on libmspti 26.1 with a program that exits without `aclFinalize`).
        eprintln!(
            "mock libmspti: {function} called after the exit handlers destroyed the state libmspti made at the \
             first launch (its parsers' function-local statics): the real library aborts here \
             (terminate called after throwing an instance of 'std::system_error') or hangs"
        );
        std::process::abort();
    }
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

/// Set by the library's destructor (`.fini_array`, as the real library's C++ static destructors run):
/// every later MSPTI call aborts, as the real library crashes then.
static FINALIZED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

extern "C" fn finalize() {
    FINALIZED.store(true, std::sync::atomic::Ordering::SeqCst);
}

#[used]
#[link_section = ".fini_array"]
static FINALIZE: extern "C" fn() = finalize;

/// Set by the exit handler [`first_launch_state_made`] registered: every later MSPTI call aborts.
static FIRST_LAUNCH_STATE_DESTROYED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

extern "C" fn destroy_first_launch_state() {
    FIRST_LAUNCH_STATE_DESTROYED.store(true, std::sync::atomic::Ordering::SeqCst);
}

extern "C" {
    /// libc's `atexit` (a C++ function-local static's destructor is registered the same way, on the
    /// same list, when the static is first made).
    fn atexit(f: extern "C" fn()) -> std::os::raw::c_int;
}

/// The real library makes its kernel parser (`KernelParser::GetInstance()`, a function-local
/// static) at the first runtime task track, i.e. at the program's first kernel launch while
/// subscribed, and C++ registers its destructor with the process's exit handlers then. Exit
/// handlers run last-registered first, so a handler registered before that launch (at `aclInit`)
/// runs after the parser is gone. The mock registers its stand-in destructor at the same moment.
fn first_launch_state_made() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: registers a plain `extern "C" fn()` that only stores a flag.
        unsafe { atexit(destroy_first_launch_state) };
    });
}

/// Runs `f` with the internal-lock marker set on this thread.
fn under_internal_lock<R>(f: impl FnOnce() -> R) -> R {
    let was = HOLDS_INTERNAL_LOCK.with(|c| c.replace(true));
    let r = f();
    HOLDS_INTERNAL_LOCK.with(|c| c.set(was));
    r
}

/// Whether `LD_PRELOAD` names `libmspti.so`, read once and cached, as the real library does
/// (each of its two checks has its own function-local static). Only the variable is read:
/// whether the library was really preloaded is not checked (nor is it by the real one).
fn ld_preload_has_mspti(cache: &std::sync::OnceLock<bool>) -> bool {
    *cache.get_or_init(|| {
        std::env::var_os("LD_PRELOAD").is_some_and(|v| v.to_string_lossy().contains("libmspti.so"))
    })
}

/// Aborts the process the way the real library does where it throws a C++ exception nobody
/// catches, saying so on stderr.
fn abort_like_the_real_library(why: &str) -> ! {
    eprintln!("mock libmspti: {why}; the real library throws a C++ exception here and the process aborts");
    std::process::abort()
}

/// A string whose address stays valid for the life of the process (record names point here).
fn intern_bytes(s: &[u8]) -> *const c_char {
    use std::collections::HashSet;
    use std::ffi::{CStr, CString};
    use std::sync::Mutex;
    static NAMES: Mutex<Option<HashSet<&'static CStr>>> = Mutex::new(None);
    let Ok(s) = CString::new(s) else { return std::ptr::null() };
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let set = names.get_or_insert_with(HashSet::new);
    if let Some(found) = set.get(s.as_c_str()) {
        return found.as_ptr();
    }
    let leaked: &'static CStr = Box::leak(s.into_boxed_c_str());
    set.insert(leaked);
    leaked.as_ptr()
}

/// [`intern_bytes`] of a C string (NULL stays NULL).
fn intern(s: *const c_char) -> *const c_char {
    if s.is_null() {
        return std::ptr::null();
    }
    // SAFETY: the callers' contract: `s` is a NUL-terminated string.
    intern_bytes(unsafe { std::ffi::CStr::from_ptr(s) }.to_bytes())
}

/// Nanoseconds since the Unix epoch (CLOCK_REALTIME), what the real library's timestamps are.
fn now_ns() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// CLOCK_REALTIME minus CLOCK_MONOTONIC_RAW, taken once (the real library syncs the two every 7 s):
/// host API times and device ticks (both CLOCK_MONOTONIC_RAW ns with the stand-ins) become
/// Unix-epoch nanoseconds by adding it.
fn realtime_offset() -> i64 {
    static OFFSET: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *OFFSET.get_or_init(|| {
        let raw = protocol::monotonic_raw_ns() as i64;
        now_ns() as i64 - raw
    })
}

/// A CLOCK_MONOTONIC_RAW time (ns) as CLOCK_REALTIME ns.
fn realtime_from_raw(raw: u64) -> u64 {
    (raw as i64 + realtime_offset()) as u64
}

/// The calling thread's kernel id (what MSPTI records as threadId).
fn thread_id() -> u32 {
    protocol::gettid()
}

/// The controls' one declaration (`controls.rs`, which `accelprof-mocks` compiles into
/// `MockMspti` too): each names a function defined here, with exactly the declared C signature,
/// or the mock does not compile.
macro_rules! mock_controls {
    ($( $(#[$doc:meta])* $kind:ident fn $method:ident = $symbol:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        $( const _: unsafe extern "C" fn($($ty),*) $(-> $ret)? = $symbol; )*
    };
}

mod declared {
    use super::control::*;
    use std::ffi::{c_char, c_void};
    include!("controls.rs");
}
