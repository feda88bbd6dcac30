//! A second CUPTI client inside the mock (`mock_cupti_foreign_*`): another tool of the same process, such
//! as PyTorch's profiler (Kineto), that reaches the mock only through CUPTI's public functions, in the
//! order Kineto calls them (`libkineto/src/CuptiActivityApi.cpp`, `CuptiCallbackApi.cpp`):
//!
//! - start (Kineto's `enableCuptiActivities`): `cuptiSubscribe` for its callback switchboard (once, as
//!   Kineto's `initCallbackApi`; a refusal is kept and tracing goes on without callbacks), then
//!   `cuptiActivityRegisterCallbacks` with its own two callbacks, then `cuptiActivityEnable` for MEMCPY,
//!   MEMSET, CONCURRENT_KERNEL, EXTERNAL_CORRELATION, RUNTIME (then
//!   `cuptiActivityEnableRuntimeApi(cudaGetDevice, 0)`), in that order;
//! - flush: `cuptiActivityFlushAll(flag)` (Kineto's warm-up end, `clearActivities`, flushes with 0 and
//!   throws the ready buffers away; the mock keeps counting them);
//! - stop (Kineto's `disableCuptiActivities`, then `activityBuffers`): `cuptiActivityDisable` for the
//!   same kinds, then `cuptiActivityFlushAll(FORCED)`.
//!
//! Its buffer-requested callback allocates 64 kB buffers and remembers them; its buffer-completed callback
//! counts the records of its own buffers and frees them. A buffer it did not allocate (another client's,
//! handed to it because it registered last) is left untouched, as Kineto does ("bufferCompleted called
//! with unknown buffer"): counted (`unknown_buffers`, and the records in it, `unknown_records`, which
//! Kineto does not read: the mock counts them for the tests' ledger) and never freed.
//!
//! `mock_cupti_foreign_start_v2` plays a tool of the per-subscriber API instead (13.3+): its own
//! `cuptiSubscribe_v2` allowing other subscribers, `cuptiActivityRegisterCallbacks_v2`,
//! `cuptiActivityEnable_v2(CONCURRENT_KERNEL)` with fixed records; stop is `cuptiActivityDisable_v2` and
//! a forced flush.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::activity::{self, kinds, v2};
use crate::results::SUCCESS;
use crate::subscribers;
use crate::sys::v13_5::types as v135;
use crate::sys::{CUctx_st, CUpti_Activity, CUpti_SubscriberHandle};

/// Bytes of each buffer the foreign client gives.
const BUFFER_BYTES: usize = 64 * 1024;
/// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020`.
const CUDA_GET_DEVICE: u32 = 10;
/// Kineto's kinds, in the order it enables them.
const KINDS: [u32; 5] =
    [kinds::MEMCPY, kinds::MEMSET, kinds::CONCURRENT_KERNEL, kinds::EXTERNAL_CORRELATION, kinds::RUNTIME];

struct Client {
    /// Addresses of the buffers it gave CUPTI and did not get back yet.
    held: BTreeSet<usize>,
    /// Its callback subscriber (V1) or activity subscriber (V2).
    subscriber: Option<usize>,
    /// The V2 API (its own subscriber) rather than the process-wide functions.
    v2: bool,
}

static CLIENT: Mutex<Client> = Mutex::new(Client { held: BTreeSet::new(), subscriber: None, v2: false });
static RECORDS: AtomicU64 = AtomicU64::new(0);
static KERNELS: AtomicU64 = AtomicU64::new(0);
static BUFFERS: AtomicU64 = AtomicU64::new(0);
static UNKNOWN_BUFFERS: AtomicU64 = AtomicU64::new(0);
static UNKNOWN_RECORDS: AtomicU64 = AtomicU64::new(0);
/// What its `cuptiSubscribe` (or `_v2`) returned (`u64::MAX`: not called yet).
static SUBSCRIBE_RESULT: AtomicU64 = AtomicU64::new(u64::MAX);

fn client() -> std::sync::MutexGuard<'static, Client> {
    CLIENT.lock().unwrap_or_else(|e| e.into_inner())
}

fn layout() -> std::alloc::Layout {
    std::alloc::Layout::from_size_align(BUFFER_BYTES, 8).expect("a valid layout")
}

/// The callback switchboard it subscribes (it only needs to exist).
unsafe extern "C" fn switchboard(
    _: *mut std::ffi::c_void,
    _: crate::sys::CUpti_CallbackDomain,
    _: u32,
    _: *const std::ffi::c_void,
) {
}

unsafe extern "C" fn requested(buffer: *mut *mut u8, size: *mut usize, max_records: *mut usize) {
    // SAFETY: a non-zero size.
    let p = unsafe { std::alloc::alloc(layout()) };
    if !p.is_null() {
        client().held.insert(p as usize);
    }
    // SAFETY: CUPTI's out-pointers.
    unsafe {
        *buffer = p;
        *size = if p.is_null() { 0 } else { BUFFER_BYTES };
        *max_records = 0;
    }
}

unsafe extern "C" fn requested_v2(
    buffer: *mut *mut u8,
    size: *mut usize,
    max_records: *mut usize,
    _info: *mut v135::CUpti_BufferCallbackRequestInfo,
) {
    // SAFETY: CUPTI's out-pointers, passed on.
    unsafe { requested(buffer, size, max_records) }
}

/// Counts the fixed records in `valid` bytes of `buffer`: (records, kernels).
///
/// # Safety
/// `buffer` holds `valid` bytes of records the mock wrote.
unsafe fn count(buffer: *mut u8, valid: usize) -> (u64, u64) {
    let (mut records, mut kernels) = (0, 0);
    let mut record: *mut CUpti_Activity = std::ptr::null_mut();
    // SAFETY: the caller's contract; `record` is NULL or the previous record of this buffer.
    while unsafe { activity::next_record(buffer, valid, &mut record, kinds::record_size) } == SUCCESS {
        records += 1;
        // SAFETY: a record starts with its u32 kind.
        let kind = unsafe { record.cast::<u32>().read_unaligned() };
        kernels += u64::from(kind == kinds::CONCURRENT_KERNEL || kind == kinds::KERNEL);
    }
    (records, kernels)
}

unsafe extern "C" fn completed(_: *mut CUctx_st, _: u32, buffer: *mut u8, _size: usize, valid: usize) {
    if buffer.is_null() {
        return;
    }
    let ours = client().held.remove(&(buffer as usize));
    // SAFETY: a completed buffer holds `valid` bytes of records (our own, or the other client's: read
    // here only to count, never freed or written).
    let (records, kernels) = unsafe { count(buffer, valid) };
    if !ours {
        UNKNOWN_BUFFERS.fetch_add(1, Ordering::Relaxed);
        UNKNOWN_RECORDS.fetch_add(records, Ordering::Relaxed);
        return;
    }
    BUFFERS.fetch_add(1, Ordering::Relaxed);
    RECORDS.fetch_add(records, Ordering::Relaxed);
    KERNELS.fetch_add(kernels, Ordering::Relaxed);
    // SAFETY: allocated by `requested` with this layout and handed back once.
    unsafe { std::alloc::dealloc(buffer, layout()) };
}

unsafe extern "C" fn completed_v2(
    buffer: *mut u8,
    size: usize,
    valid: usize,
    _info: *mut v135::CUpti_BufferCallbackCompleteInfo,
) {
    // SAFETY: CUPTI's arguments, passed on (fixed records: the info carries no layouts to read).
    unsafe { completed(std::ptr::null_mut(), 0, buffer, size, valid) }
}

/// Kineto's start; returns what `cuptiActivityRegisterCallbacks` returned (the first failing enable's
/// code otherwise). `cuptiSubscribe`'s result is `foreign_stat("subscribe_result")`.
#[no_mangle]
pub extern "C" fn mock_cupti_foreign_start() -> u32 {
    // Kineto subscribes once per process (its callback API's first use).
    if SUBSCRIBE_RESULT.load(Ordering::Relaxed) == u64::MAX {
        let mut handle: CUpti_SubscriberHandle = std::ptr::null_mut();
        // SAFETY: a valid out-pointer; the switchboard lives as long as the library.
        let r = unsafe { subscribers::cuptiSubscribe(&mut handle, Some(switchboard), std::ptr::null_mut()) };
        SUBSCRIBE_RESULT.store(u64::from(r), Ordering::Relaxed);
        if r == SUCCESS {
            client().subscriber = Some(handle as usize);
        }
    }
    client().v2 = false;
    let r = activity::cuptiActivityRegisterCallbacks(Some(requested), Some(completed));
    if r != SUCCESS {
        return r;
    }
    for kind in KINDS {
        let r = activity::cuptiActivityEnable(kind);
        if r != SUCCESS {
            return r;
        }
        if kind == kinds::RUNTIME {
            let _ = activity::cuptiActivityEnableRuntimeApi(CUDA_GET_DEVICE, 0);
        }
    }
    SUCCESS
}

/// A tool of the per-subscriber API (13.3+): its own sharing subscriber, its own buffer callbacks,
/// CONCURRENT_KERNEL with fixed records. Returns the first failing call's code.
#[no_mangle]
pub extern "C" fn mock_cupti_foreign_start_v2() -> u32 {
    let mut params = v135::CUpti_SubscriberParams {
        structSize: std::mem::size_of::<v135::CUpti_SubscriberParams>(),
        subscriberName: c"foreign profiler".as_ptr(),
        oldSubscriberName: std::ptr::null_mut(),
        oldSubscriberSize: 0,
        allowMultipleSubscribers: 1,
        padding: [0; 7],
    };
    let mut handle: CUpti_SubscriberHandle = std::ptr::null_mut();
    // SAFETY: valid pointers for the call; the 13.5 params struct, its size in `structSize`.
    let r = unsafe {
        subscribers::cuptiSubscribe_v2(
            &mut handle,
            None,
            std::ptr::null_mut(),
            (&mut params as *mut v135::CUpti_SubscriberParams).cast(),
        )
    };
    SUBSCRIBE_RESULT.store(u64::from(r), Ordering::Relaxed);
    if r != SUCCESS {
        return r;
    }
    {
        let mut c = client();
        c.subscriber = Some(handle as usize);
        c.v2 = true;
    }
    let r = v2::cuptiActivityRegisterCallbacks_v2(handle, Some(requested_v2), Some(completed_v2));
    if r != SUCCESS {
        return r;
    }
    // SAFETY: a NULL config is allowed for fixed records.
    unsafe { v2::cuptiActivityEnable_v2(handle, kinds::CONCURRENT_KERNEL, std::ptr::null_mut()) }
}

/// `cuptiActivityFlushAll(flag)` (0, or 1 = FORCED), as the foreign client calls it.
#[no_mangle]
pub extern "C" fn mock_cupti_foreign_flush(flag: u32) -> u32 {
    activity::cuptiActivityFlushAll(flag)
}

/// Kineto's stop: its kinds disabled (each a process-wide switch under V1), then a forced flush.
#[no_mangle]
pub extern "C" fn mock_cupti_foreign_stop() -> u32 {
    let (v2_api, subscriber) = {
        let c = client();
        (c.v2, c.subscriber)
    };
    let mut result = SUCCESS;
    if v2_api {
        let handle = subscriber.unwrap_or(0) as CUpti_SubscriberHandle;
        result = v2::cuptiActivityDisable_v2(handle, kinds::CONCURRENT_KERNEL, std::ptr::null_mut());
    } else {
        for kind in KINDS {
            let r = activity::cuptiActivityDisable(kind);
            if result == SUCCESS {
                result = r;
            }
        }
    }
    let r = activity::cuptiActivityFlushAll(1);
    if result == SUCCESS {
        result = r;
    }
    result
}

/// A tally of the foreign client by name (`mock_cupti_foreign_stat`).
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_foreign_stat(name: *const std::ffi::c_char) -> u64 {
    if name.is_null() {
        return u64::MAX;
    }
    // SAFETY: a C string (caller's contract).
    match unsafe { std::ffi::CStr::from_ptr(name) }.to_str() {
        Ok(name) => stat(name),
        Err(_) => u64::MAX,
    }
}

/// A tally of the foreign client (`u64::MAX` for an unknown name): `records` and `kernels` (in its own
/// buffers), `buffers` (its own, handed back), `buffers_held` (its own, not handed back),
/// `unknown_buffers` and `unknown_records` (another client's buffers completed to it, left untouched),
/// `subscribe_result`.
pub fn stat(name: &str) -> u64 {
    match name {
        "records" => RECORDS.load(Ordering::Relaxed),
        "kernels" => KERNELS.load(Ordering::Relaxed),
        "buffers" => BUFFERS.load(Ordering::Relaxed),
        "buffers_held" => client().held.len() as u64,
        "unknown_buffers" => UNKNOWN_BUFFERS.load(Ordering::Relaxed),
        "unknown_records" => UNKNOWN_RECORDS.load(Ordering::Relaxed),
        "subscribe_result" => SUBSCRIBE_RESULT.load(Ordering::Relaxed),
        _ => u64::MAX,
    }
}

/// Forgets the foreign client (after the mock forgot every buffer it held): its buffers are freed.
pub fn reset() {
    let mut c = client();
    for p in std::mem::take(&mut c.held) {
        // SAFETY: allocated by `requested` with this layout; the mock no longer holds it (reset first).
        unsafe { std::alloc::dealloc(p as *mut u8, layout()) };
    }
    c.subscriber = None;
    c.v2 = false;
    for counter in [&RECORDS, &KERNELS, &BUFFERS, &UNKNOWN_BUFFERS, &UNKNOWN_RECORDS] {
        counter.store(0, Ordering::Relaxed);
    }
    SUBSCRIBE_RESULT.store(u64::MAX, Ordering::Relaxed);
}
