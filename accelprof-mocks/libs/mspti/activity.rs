//! The activity API: kind switches, the client's buffers, completion threads, flushing and the
//! thread-local record cursor.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::records::{kind, size_of_kind};
use crate::result::*;

type RequestFunc = Option<unsafe extern "C" fn(*mut *mut u8, *mut usize, *mut usize)>;
type CompleteFunc = Option<unsafe extern "C" fn(*mut u8, usize, usize)>;

static SWITCH: [AtomicBool; kind::COUNT as usize] = [const { AtomicBool::new(false) }; kind::COUNT as usize];
static LD_PRELOAD_CHECK: OnceLock<bool> = OnceLock::new();
static REQUEST: AtomicUsize = AtomicUsize::new(0);
static COMPLETE: AtomicUsize = AtomicUsize::new(0);

/// Counters the controls report.
pub static RECORDED: AtomicU64 = AtomicU64::new(0);
pub static DROPPED: AtomicU64 = AtomicU64::new(0);
pub static REQUESTED: AtomicU64 = AtomicU64::new(0);
pub static DECLINED: AtomicU64 = AtomicU64::new(0);
pub static COMPLETED: AtomicU64 = AtomicU64::new(0);
pub static COMPLETED_NULL: AtomicU64 = AtomicU64::new(0);
pub static MISALIGNED: AtomicU64 = AtomicU64::new(0);
pub static MAX_CONCURRENT_COMPLETIONS: AtomicU64 = AtomicU64::new(0);
static CONCURRENT_COMPLETIONS: AtomicU64 = AtomicU64::new(0);
pub static COMPLETION_DELAY_US: AtomicU64 = AtomicU64::new(0);
pub static FLUSH_PERIOD_MS: AtomicU32 = AtomicU32::new(0);
pub static NEXT_RECORD_CALLS: AtomicU64 = AtomicU64::new(0);

/// A client buffer: address, size, bytes written.
#[derive(Clone, Copy)]
struct Buf {
    ptr: usize,
    size: usize,
    valid: usize,
}

/// `buf_mtx_`: the buffer being filled. Held while the request callback runs.
static CURRENT: Mutex<Option<Buf>> = Mutex::new(None);

/// `cv_mtx_`: full buffers waiting for the manager thread, and the completion threads.
struct Manager {
    full: VecDeque<Buf>,
    workers: Vec<JoinHandle<()>>,
    started: bool,
}
static MANAGER: Mutex<Manager> =
    Mutex::new(Manager { full: VecDeque::new(), workers: Vec::new(), started: false });
static WAKE: Condvar = Condvar::new();

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn supported(k: u32) -> bool {
    (kind::MARKER..kind::COUNT).contains(&k)
}

/// Whether a kind is switched on (records of other kinds are not written).
pub fn is_enabled(k: u32) -> bool {
    supported(k) && SWITCH[k as usize].load(Ordering::SeqCst)
}

#[no_mangle]
pub extern "C" fn msptiActivityEnable(k: u32) -> u32 {
    if crate::reentered("msptiActivityEnable") {
        return INNER;
    }
    if !supported(k) {
        return INVALID_PARAMETER;
    }
    let needs_preload = matches!(k, kind::HCCL | kind::MEMORY | kind::MEMSET | kind::MEMCPY);
    if needs_preload && !crate::ld_preload_has_mspti(&LD_PRELOAD_CHECK) {
        return WITHOUT_LD_PRELOAD;
    }
    SWITCH[k as usize].store(true, Ordering::SeqCst);
    crate::reporters::on_enable(k);
    SUCCESS
}

#[no_mangle]
pub extern "C" fn msptiActivityDisable(k: u32) -> u32 {
    if crate::reentered("msptiActivityDisable") {
        return INNER;
    }
    if !supported(k) {
        return INVALID_PARAMETER;
    }
    // The device data still in the driver is read (at most 20 ms) before the kind goes off.
    crate::reporters::on_disable(k);
    SWITCH[k as usize].store(false, Ordering::SeqCst);
    SUCCESS
}

/// The real function indexes its array of 13 switches with `kind` unchecked: a kind of 13 or
/// more reads past it (garbage, or SIGSEGV far enough out). The mock aborts, loudly.
#[no_mangle]
pub extern "C" fn msptiActivityIsEnabled(k: u32) -> bool {
    if crate::reentered("msptiActivityIsEnabled") {
        return false;
    }
    if k >= kind::COUNT {
        eprintln!(
            "mock libmspti: msptiActivityIsEnabled({k}) indexes an array of {} switches unchecked: the real \
             library reads out of bounds here (garbage, or SIGSEGV)",
            kind::COUNT
        );
        std::process::abort();
    }
    is_enabled(k)
}

#[no_mangle]
pub extern "C" fn msptiActivityRegisterCallbacks(request: RequestFunc, complete: CompleteFunc) -> u32 {
    if crate::reentered("msptiActivityRegisterCallbacks") {
        return INNER;
    }
    let (Some(request), Some(complete)) = (request, complete) else {
        return INVALID_PARAMETER;
    };
    REQUEST.store(request as usize, Ordering::SeqCst);
    COMPLETE.store(complete as usize, Ordering::SeqCst);
    let mut m = lock(&MANAGER);
    if !m.started {
        // Started once per process, as the real one (`t_.joinable()`), and when it lost the race
        // for its run flag it is not started again either.
        m.started = true;
        let lost = MANAGER_LOST.load(Ordering::SeqCst);
        std::thread::Builder::new()
            .name("ActivityManager".into())
            .spawn(move || {
                if !lost {
                    manager_thread()
                }
            })
            .expect("spawn the activity manager thread");
    }
    SUCCESS
}

/// Whether the manager thread, when started, exits at once: the real one is started before the
/// flag it checks is set, and sees it false in about 1 run of 6. Full buffers then stay queued
/// (and `FlushPeriod` does nothing) until `FlushAll` completes them.
pub static MANAGER_LOST: AtomicBool = AtomicBool::new(false);

/// Asks the client for a buffer, on this (the producing) thread, under `buf_mtx_`.
fn request_buffer() -> Buf {
    let f = REQUEST.load(Ordering::SeqCst);
    if f == 0 {
        return Buf { ptr: 0, size: 0, valid: 0 };
    }
    // SAFETY: stored from a non-null `RequestFunc` in RegisterCallbacks.
    let f: unsafe extern "C" fn(*mut *mut u8, *mut usize, *mut usize) = unsafe { std::mem::transmute(f) };
    let (mut ptr, mut size, mut max_records) = (std::ptr::null_mut::<u8>(), 0usize, 0usize);
    // SAFETY: three valid out-pointers, as the C signature asks.
    crate::under_internal_lock(|| unsafe { f(&mut ptr, &mut size, &mut max_records) });
    REQUESTED.fetch_add(1, Ordering::SeqCst);
    if ptr.is_null() {
        // Declined: kept with whatever size the client wrote. With 0 the next record finds it
        // "80% full" and asks again; with more, every record is dropped into it until a flush.
        DECLINED.fetch_add(1, Ordering::SeqCst);
        return Buf { ptr: 0, size, valid: 0 };
    }
    if ptr as usize % 8 != 0 {
        MISALIGNED.fetch_add(1, Ordering::SeqCst);
    }
    Buf { ptr: ptr as usize, size, valid: 0 }
}

/// Hands a buffer back to the client (`UnInit`).
fn complete(b: Buf) {
    let f = COMPLETE.load(Ordering::SeqCst);
    if f == 0 {
        return;
    }
    // SAFETY: stored from a non-null `CompleteFunc` in RegisterCallbacks.
    let f: unsafe extern "C" fn(*mut u8, usize, usize) = unsafe { std::mem::transmute(f) };
    let now = CONCURRENT_COMPLETIONS.fetch_add(1, Ordering::SeqCst) + 1;
    MAX_CONCURRENT_COMPLETIONS.fetch_max(now, Ordering::SeqCst);
    let delay = COMPLETION_DELAY_US.load(Ordering::SeqCst);
    if delay > 0 {
        std::thread::sleep(Duration::from_micros(delay));
    }
    if b.ptr == 0 {
        COMPLETED_NULL.fetch_add(1, Ordering::SeqCst);
    }
    // SAFETY: the client's buffer (or NULL, with the size the client wrote, for a declined one),
    // with what was written.
    unsafe { f(b.ptr as *mut u8, b.size, b.valid) };
    CONCURRENT_COMPLETIONS.fetch_sub(1, Ordering::SeqCst);
    COMPLETED.fetch_add(1, Ordering::SeqCst);
}

/// Full buffers waiting for the manager thread.
pub fn queued_full() -> u64 {
    lock(&MANAGER).full.len() as u64
}

/// `ActivityManager::Run`: wakes on a full buffer (or each period when periodic flushing is
/// on) and completes every full buffer on a thread of its own.
fn manager_thread() {
    let mut m = lock(&MANAGER);
    loop {
        let period = FLUSH_PERIOD_MS.load(Ordering::SeqCst);
        let wait =
            if period == 0 { Duration::from_millis(100) } else { Duration::from_millis(period.into()) };
        m = WAKE.wait_timeout(m, wait).unwrap_or_else(|e| e.into_inner()).0;
        while let Some(b) = m.full.pop_front() {
            let worker = std::thread::Builder::new()
                .name("mspti-complete".into())
                .spawn(move || complete(b))
                .expect("spawn a completion thread");
            m.workers.push(worker);
        }
    }
}

/// `ActivityManager::Record`: copies one record into the current buffer, asking for a new one
/// first when there is none or the current one is 80% full; drops it when there is no buffer
/// or no room. Only kinds that are switched on are written, unless `force` (a kind this mock
/// does not know, played by a test).
pub fn record(bytes: &[u8], force: bool) {
    let k = u32::from_ne_bytes(bytes[..4].try_into().expect("4 bytes"));
    if !force && !is_enabled(k) {
        return;
    }
    let mut cur = lock(&CURRENT);
    match *cur {
        None => *cur = Some(request_buffer()),
        Some(b) if b.valid as f64 >= 0.8 * b.size as f64 => {
            {
                let mut m = lock(&MANAGER);
                m.full.push_back(b);
                WAKE.notify_all();
            }
            *cur = Some(request_buffer());
        }
        Some(_) => {}
    }
    let b = cur.as_mut().expect("set above");
    if b.ptr == 0 || bytes.len() > b.size - b.valid {
        DROPPED.fetch_add(1, Ordering::SeqCst);
        return;
    }
    // SAFETY: the client gave `size` writable bytes at `ptr`; `valid + len <= size`.
    let copied = unsafe {
        crate::records::memcpy_s(
            (b.ptr as *mut u8).add(b.valid).cast(),
            b.size - b.valid,
            bytes.as_ptr().cast(),
            bytes.len(),
        )
    };
    if copied != 0 {
        DROPPED.fetch_add(1, Ordering::SeqCst);
        return;
    }
    b.valid += bytes.len();
    RECORDED.fetch_add(1, Ordering::SeqCst);
}

#[no_mangle]
pub extern "C" fn msptiActivityFlushAll(_flag: u32) -> u32 {
    if crate::reentered("msptiActivityFlushAll") {
        return INNER;
    }
    // Full buffers not yet handed to a thread: completed here, on the caller's thread.
    let queued: Vec<Buf> = lock(&MANAGER).full.drain(..).collect();
    for b in queued {
        complete(b);
    }
    // Wait for every completion thread.
    let workers: Vec<JoinHandle<()>> = lock(&MANAGER).workers.drain(..).collect();
    for w in workers {
        let _ = w.join();
    }
    // The partial buffer, completed while `buf_mtx_` is held.
    let mut cur = lock(&CURRENT);
    if let Some(b) = cur.take() {
        crate::under_internal_lock(|| complete(b));
    }
    SUCCESS
}

#[no_mangle]
pub extern "C" fn msptiActivityFlushPeriod(time: u32) -> u32 {
    if crate::reentered("msptiActivityFlushPeriod") {
        return INNER;
    }
    FLUSH_PERIOD_MS.store(time, Ordering::SeqCst);
    if time != 0 {
        WAKE.notify_all();
    }
    SUCCESS
}

thread_local! {
    /// The real cursor: one per thread, whatever buffer is passed.
    static CURSOR: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[no_mangle]
pub unsafe extern "C" fn msptiActivityGetNextRecord(
    buffer: *mut u8,
    valid: usize,
    record: *mut *mut u8,
) -> u32 {
    if crate::reentered("msptiActivityGetNextRecord") {
        return INNER;
    }
    NEXT_RECORD_CALLS.fetch_add(1, Ordering::SeqCst);
    if buffer.is_null() {
        return INVALID_PARAMETER;
    }
    let pos = CURSOR.with(|c| c.get());
    if pos >= valid {
        CURSOR.with(|c| c.set(0));
        return MAX_LIMIT_REACHED;
    }
    // SAFETY: the caller passes a buffer of at least `valid` bytes; `pos < valid`. The kind is
    // read unaligned, which the real library does not bother to do.
    let k = unsafe { std::ptr::read_unaligned(buffer.add(pos).cast::<u32>()) };
    let Some(size) = size_of_kind(k) else { return INNER };
    // SAFETY: `record` is the caller's out-pointer.
    unsafe { *record = buffer.add(pos) };
    CURSOR.with(|c| c.set(pos + size));
    SUCCESS
}

/// Back to a freshly loaded library, except the `LD_PRELOAD` answers (cached for the life of
/// the process, as in the real library) and the manager thread. Buffers still held are
/// forgotten without being completed.
pub fn reset() {
    let workers: Vec<JoinHandle<()>> = lock(&MANAGER).workers.drain(..).collect();
    for w in workers {
        let _ = w.join();
    }
    lock(&MANAGER).full.clear();
    *lock(&CURRENT) = None;
    for s in &SWITCH {
        s.store(false, Ordering::SeqCst);
    }
    REQUEST.store(0, Ordering::SeqCst);
    COMPLETE.store(0, Ordering::SeqCst);
    for c in [
        &RECORDED,
        &DROPPED,
        &REQUESTED,
        &DECLINED,
        &COMPLETED,
        &COMPLETED_NULL,
        &MISALIGNED,
        &MAX_CONCURRENT_COMPLETIONS,
        &COMPLETION_DELAY_US,
        &NEXT_RECORD_CALLS,
    ] {
        c.store(0, Ordering::SeqCst);
    }
    FLUSH_PERIOD_MS.store(0, Ordering::SeqCst);
}
