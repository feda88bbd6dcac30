//! `mock_mspti_*`: the test-control interface, for what the CANN stand-ins cannot make happen
//! (every callback id, stalled callbacks, records of every kind and of unknown kinds). Each
//! control runs on the calling thread (which is then the "producing" thread that the buffer
//! request runs on). Strings passed in are copied and kept for the life of the process, as
//! MSPTI's are.
//!
//! The record controls (`mock_mspti_kernel`, `_marker`, ...) write a record as if MSPTI produced
//! it, whatever the rules of production (a subscriber for API, marker and kernel records): they
//! test decoding. Production itself is played by the runtime stand-in through the interposed
//! wrappers and the reporters, and by `mock_mspti_api_call`.

use std::collections::HashMap;
use std::os::raw::{c_char, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::activity::{self, record};
use crate::callbacks::{self, Snapshot, DOMAIN_RUNTIME, SITE_ENTER, SITE_EXIT};
use crate::records::{self, kind};
use crate::{correlation, intern, now_ns, thread_id};

thread_local! {
    /// Correlation ids of the API calls this thread is inside, innermost last.
    static CALLS: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The correlation id of the innermost API call this thread is playing (0 outside any), so that
/// a body can write the kernel that call launches with the call's id.
#[no_mangle]
pub extern "C" fn mock_mspti_current_correlation() -> u64 {
    CALLS.with(|c| c.borrow().last().copied().unwrap_or(0))
}

/// A body run between ENTER and EXIT of a played API call (for nested calls).
pub type Body = Option<unsafe extern "C" fn(*mut c_void)>;

/// Plays one runtime or HCCL API call on this thread, as an interposed wrapper and the runtime
/// would: advances the thread's correlation id for a runtime launch or memory call (cbid 10..=36,
/// writing the EXTERNAL_CORRELATION records of the pushed ids), fires ENTER (if enabled), runs
/// `body`, fires EXIT (if still enabled), then, for the RUNTIME domain and while a subscriber
/// exists, writes the ACL_API record the runtime reports (when ACL_API is enabled). Returns the
/// thread's correlation id after the call (0 if it never had one).
#[no_mangle]
pub unsafe extern "C" fn mock_mspti_api_call(
    domain: u32,
    cbid: u32,
    name: *const c_char,
    body: Body,
    arg: *mut c_void,
) -> u64 {
    let name = intern(name);
    let tid = thread_id();
    if domain == DOMAIN_RUNTIME && correlation::advances(cbid) {
        correlation::advance(tid);
    }
    let start = now_ns();
    callbacks::fire(domain, cbid, SITE_ENTER, name);
    if let Some(body) = body {
        CALLS.with(|c| c.borrow_mut().push(correlation::current(tid)));
        // SAFETY: the test's function, with the test's argument.
        unsafe { body(arg) };
        CALLS.with(|c| c.borrow_mut().pop());
    }
    callbacks::fire(domain, cbid, SITE_EXIT, name);
    let end = now_ns().max(start + 1);
    let corr = correlation::current(tid);
    if domain == DOMAIN_RUNTIME && callbacks::subscribed() {
        let r = records::api(kind::ACL_API, start, end, std::process::id(), tid, corr, name);
        record(r.bytes(), false);
    }
    corr
}

/// Stalled callbacks: token -> (snapshot, name address, site).
type Stalled = HashMap<u64, (Snapshot, usize, u32)>;
static STALLED: Mutex<Option<Stalled>> = Mutex::new(None);
static STALL_TOKEN: AtomicU64 = AtomicU64::new(0);

/// Takes the subscriber snapshot a thread inside `ExecuteCallback` takes for (domain, cbid,
/// site) and stops there: the callback has not run yet. Returns a token for
/// `mock_mspti_release_stalled`, or 0 when nothing would fire (not subscribed or not enabled).
#[no_mangle]
pub extern "C" fn mock_mspti_stall_callback(domain: u32, cbid: u32, site: u32, name: *const c_char) -> u64 {
    let Some(snap) = callbacks::snapshot(domain, cbid) else { return 0 };
    let token = STALL_TOKEN.fetch_add(1, Ordering::SeqCst) + 1;
    let name = intern(name) as usize;
    let mut s = STALLED.lock().unwrap_or_else(|e| e.into_inner());
    s.get_or_insert_with(HashMap::new).insert(token, (snap, name, site));
    token
}

/// Lets a stalled callback run now, on this thread, with the subscriber it saw when stalled,
/// even if that subscriber has since unsubscribed. Returns 1 if it ran, 0 for an unknown token.
#[no_mangle]
pub extern "C" fn mock_mspti_release_stalled(token: u64) -> u32 {
    let entry = STALLED.lock().unwrap_or_else(|e| e.into_inner()).as_mut().and_then(|m| m.remove(&token));
    let Some((snap, name, site)) = entry else { return 0 };
    let name = name as *const c_char;
    callbacks::call(&snap, if site == 0 { SITE_ENTER } else { SITE_EXIT }, name);
    1
}

/// An API-layout record of any API kind (API, ACL_API, NODE_API, RUNTIME_API) with given times.
#[no_mangle]
pub extern "C" fn mock_mspti_api_record(
    k: u32,
    start: u64,
    end: u64,
    pid: u32,
    tid: u32,
    corr: u64,
    name: *const c_char,
) {
    record(records::api(k, start, end, pid, tid, corr, intern(name)).bytes(), false);
}

/// A kernel record.
#[no_mangle]
pub extern "C" fn mock_mspti_kernel(
    start: u64,
    end: u64,
    device: u32,
    stream: u32,
    corr: u64,
    ty: *const c_char,
    name: *const c_char,
) {
    record(records::kernel(start, end, device, stream, corr, intern(ty), intern(name)).bytes(), false);
}

/// A marker record, unless its domain is switched off. `object_a`/`object_b` are processId and
/// threadId for host markers (sourceKind 0), deviceId and streamId for device ones.
#[no_mangle]
pub extern "C" fn mock_mspti_marker(
    flag: u32,
    source_kind: u32,
    timestamp: u64,
    id: u64,
    object_a: u32,
    object_b: u32,
    name: *const c_char,
    domain: *const c_char,
) {
    if !crate::mstx::domain_collected(domain) {
        return;
    }
    let r =
        records::marker(flag, source_kind, timestamp, id, object_a, object_b, intern(name), intern(domain));
    record(r.bytes(), false);
}

/// An HCCL record.
#[no_mangle]
pub extern "C" fn mock_mspti_hccl(
    start: u64,
    end: u64,
    device: u32,
    stream: u32,
    bandwidth: f64,
    name: *const c_char,
    comm_name: *const c_char,
) {
    let r = records::hccl(start, end, device, stream, bandwidth, intern(name), intern(comm_name));
    record(r.bytes(), false);
}

/// A memory (allocation/release) record.
#[no_mangle]
pub extern "C" fn mock_mspti_memory(
    op: u32,
    memory_kind: u32,
    corr: u64,
    start: u64,
    end: u64,
    address: u64,
    bytes: u64,
    pid: u32,
    device: u32,
    stream: u32,
) {
    let r = records::memory(op, memory_kind, corr, start, end, address, bytes, pid, device, stream);
    record(r.bytes(), false);
}

/// A memset record.
#[no_mangle]
pub extern "C" fn mock_mspti_memset(
    value: u32,
    bytes: u64,
    start: u64,
    end: u64,
    device: u32,
    stream: u32,
    corr: u64,
    is_async: u8,
) {
    let r = records::memset_or_memcpy(kind::MEMSET, value, bytes, start, end, device, stream, corr, is_async);
    record(r.bytes(), false);
}

/// A memcpy record.
#[no_mangle]
pub extern "C" fn mock_mspti_memcpy(
    copy_kind: u32,
    bytes: u64,
    start: u64,
    end: u64,
    device: u32,
    stream: u32,
    corr: u64,
    is_async: u8,
) {
    let r =
        records::memset_or_memcpy(kind::MEMCPY, copy_kind, bytes, start, end, device, stream, corr, is_async);
    record(r.bytes(), false);
}

/// A communication record.
#[no_mangle]
pub extern "C" fn mock_mspti_communication(
    data_type: u32,
    count: u64,
    device: u32,
    stream: u32,
    start: u64,
    end: u64,
    alg_type: *const c_char,
    name: *const c_char,
    comm_name: *const c_char,
    corr: u64,
) {
    let r = records::communication(
        data_type,
        count,
        device,
        stream,
        start,
        end,
        intern(alg_type),
        intern(name),
        intern(comm_name),
        corr,
    );
    record(r.bytes(), false);
}

/// Raw bytes written as one record whatever its kind, as a newer library writes a kind this
/// one does not know (`len` bytes; the first 4 are the kind).
#[no_mangle]
pub unsafe extern "C" fn mock_mspti_raw_record(bytes: *const u8, len: usize) {
    if bytes.is_null() || len < 4 {
        return;
    }
    // SAFETY: the test passes `len` readable bytes.
    let b = unsafe { std::slice::from_raw_parts(bytes, len) };
    record(b, true);
}

/// Plays the real library's race at `msptiActivityRegisterCallbacks`: the activity manager thread
/// (started once per process) exits at once, so full buffers come back only through `FlushAll`.
/// Call before the first `msptiActivityRegisterCallbacks`; 0 (the default) plays the common case.
#[no_mangle]
pub extern "C" fn mock_mspti_lose_activity_manager(lost: u32) {
    activity::MANAGER_LOST.store(lost != 0, Ordering::SeqCst);
}

/// Makes each buffer completion wait this long before calling the client (widens races).
#[no_mangle]
pub extern "C" fn mock_mspti_set_completion_delay_us(us: u64) {
    activity::COMPLETION_DELAY_US.store(us, Ordering::SeqCst);
}

/// Counters, by name: "recorded", "dropped", "requested", "declined", "completed",
/// "completed_null", "queued_full", "misaligned", "max_concurrent_completions", "reentrant_calls",
/// "garbage_writes", "next_record_calls", "flush_period_ms". Unknown names give `u64::MAX`.
#[no_mangle]
pub unsafe extern "C" fn mock_mspti_counter(name: *const c_char) -> u64 {
    if name.is_null() {
        return u64::MAX;
    }
    // SAFETY: the test passes a NUL-terminated name.
    let name = unsafe { std::ffi::CStr::from_ptr(name) }.to_bytes();
    let c = match name {
        b"recorded" => &activity::RECORDED,
        b"dropped" => &activity::DROPPED,
        b"requested" => &activity::REQUESTED,
        b"declined" => &activity::DECLINED,
        b"completed" => &activity::COMPLETED,
        b"completed_null" => &activity::COMPLETED_NULL,
        b"misaligned" => &activity::MISALIGNED,
        b"max_concurrent_completions" => &activity::MAX_CONCURRENT_COMPLETIONS,
        b"reentrant_calls" => &crate::REENTRANT_CALLS,
        b"garbage_writes" => &callbacks::GARBAGE_WRITES,
        b"next_record_calls" => &activity::NEXT_RECORD_CALLS,
        b"flush_period_ms" => return activity::FLUSH_PERIOD_MS.load(Ordering::SeqCst).into(),
        b"queued_full" => return activity::queued_full(),
        _ => return u64::MAX,
    };
    c.load(Ordering::SeqCst)
}

/// Back to a freshly loaded library (no subscriber, no kinds, no callbacks, counters zero),
/// except what the real one caches for the process: the two `LD_PRELOAD` answers.
#[no_mangle]
pub extern "C" fn mock_mspti_reset() {
    callbacks::reset();
    activity::reset();
    crate::correlation::reset();
    crate::external::reset();
    crate::mstx::reset();
    crate::reporters::reset();
    crate::hccl::reset();
    *STALLED.lock().unwrap_or_else(|e| e.into_inner()) = None;
    crate::REENTRANT_CALLS.store(0, Ordering::SeqCst);
    // The driver stand-in's latency back to its default, nothing in flight.
    let reset_hal = crate::cann::symbol(crate::cann::open_dependency("libascend_hal.so"), "mock_hal_reset");
    if !reset_hal.is_null() {
        // SAFETY: the stand-in's `void mock_hal_reset(void)`.
        let f: extern "C" fn() = unsafe { std::mem::transmute(reset_hal) };
        f();
    }
}
