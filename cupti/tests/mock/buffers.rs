//! Buffer-requested and buffer-completed callbacks for `cuptiActivityRegisterCallbacks`, with
//! the behaviours a client may have (give a buffer, decline, give a misaligned one, cap the
//! records), recording which thread each ran on and the records each buffer held (walked with
//! the library's own `cuptiActivityGetNextRecord`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread::ThreadId;

use cupti_sys::{CUcontext, CUpti_Activity};

use super::harness::{loaded, ok};

/// How the request callback answers.
pub const GIVE: u32 = 0;
pub const DECLINE_NULL: u32 = 1;
pub const DECLINE_SIZE0: u32 = 2;
pub const MISALIGNED: u32 = 3;

static MODE: AtomicU32 = AtomicU32::new(GIVE);
static SIZE: AtomicUsize = AtomicUsize::new(1 << 20);
static MAX_RECORDS: AtomicUsize = AtomicUsize::new(0);

/// Allocations handed out: buffer address -> (allocation address, u64 count).
static ALLOCATIONS: Mutex<Option<HashMap<usize, (usize, usize)>>> = Mutex::new(None);
static REQUESTS: Mutex<Vec<ThreadId>> = Mutex::new(Vec::new());
static COMPLETED: Mutex<Vec<Completed>> = Mutex::new(Vec::new());

/// One buffer-completed call.
#[derive(Debug, Clone)]
pub struct Completed {
    pub thread: ThreadId,
    pub size: usize,
    pub valid: usize,
    /// Each record's bytes, as `cuptiActivityGetNextRecord` delimited them.
    pub records: Vec<Vec<u8>>,
    /// What ended the walk (12 = MAX_LIMIT_REACHED at the end).
    pub walk_end: u32,
}

pub fn clear() {
    MODE.store(GIVE, Ordering::Relaxed);
    SIZE.store(1 << 20, Ordering::Relaxed);
    MAX_RECORDS.store(0, Ordering::Relaxed);
    REQUESTS.lock().unwrap_or_else(|e| e.into_inner()).clear();
    COMPLETED.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

pub fn set_mode(mode: u32) {
    MODE.store(mode, Ordering::Relaxed);
}

pub fn set_size(bytes: usize) {
    SIZE.store(bytes, Ordering::Relaxed);
}

pub fn set_max_records(n: usize) {
    MAX_RECORDS.store(n, Ordering::Relaxed);
}

pub fn requests() -> Vec<ThreadId> {
    REQUESTS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

pub fn completed() -> Vec<Completed> {
    COMPLETED.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Every delivered record, in delivery order.
pub fn records() -> Vec<Vec<u8>> {
    completed().into_iter().flat_map(|c| c.records).collect()
}

/// Registers the two callbacks with the mock.
pub fn register() {
    let f = loaded().f();
    // SAFETY: both callbacks have CUPTI's signatures and live for the whole process.
    let r = ok(unsafe { f.cuptiActivityRegisterCallbacks(Some(requested), Some(completed_cb)) });
    assert_eq!(r, 0);
}

unsafe extern "C" fn requested(buffer: *mut *mut u8, size: *mut usize, max_records: *mut usize) {
    REQUESTS.lock().unwrap_or_else(|e| e.into_inner()).push(std::thread::current().id());
    let mode = MODE.load(Ordering::Relaxed);
    let bytes = SIZE.load(Ordering::Relaxed);
    // SAFETY: CUPTI passes three writable out-pointers.
    unsafe {
        *max_records = MAX_RECORDS.load(Ordering::Relaxed);
        match mode {
            DECLINE_NULL => {
                *buffer = std::ptr::null_mut();
                *size = bytes;
            }
            DECLINE_SIZE0 => {
                *buffer = alloc(bytes, 0);
                *size = 0;
            }
            MISALIGNED => {
                *buffer = alloc(bytes + 8, 4);
                *size = bytes;
            }
            _ => {
                *buffer = alloc(bytes, 0);
                *size = bytes;
            }
        }
    }
}

/// An 8-byte aligned allocation of `bytes`, handed out `skew` bytes in.
fn alloc(bytes: usize, skew: usize) -> *mut u8 {
    let words = bytes.div_ceil(8).max(1);
    let base = Box::into_raw(vec![0u64; words].into_boxed_slice()).cast::<u64>() as usize;
    let handed = base + skew;
    ALLOCATIONS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(handed, (base, words));
    handed as *mut u8
}

fn release(buffer: *mut u8) {
    let entry = ALLOCATIONS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
        .and_then(|m| m.remove(&(buffer as usize)));
    if let Some((base, words)) = entry {
        // SAFETY: `base` came from `Box::into_raw` of a `[u64]` of `words` elements in `alloc`.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(base as *mut u64, words)) });
    }
}

unsafe extern "C" fn completed_cb(_ctx: CUcontext, _stream: u32, buffer: *mut u8, size: usize, valid: usize) {
    let f = loaded().f();
    let mut records = Vec::new();
    let mut record: *mut CUpti_Activity = std::ptr::null_mut();
    let walk_end = loop {
        // SAFETY: `buffer` holds `valid` bytes of records; `record` is NULL or the previous one.
        let r = ok(unsafe { f.cuptiActivityGetNextRecord(buffer, valid, &mut record) });
        if r != 0 {
            break r;
        }
        records.push(record as usize - buffer as usize);
    };
    let mut bounds = records.clone();
    bounds.push(valid);
    let bytes = records
        .iter()
        .zip(bounds.iter().skip(1))
        // SAFETY: both offsets lie within the `valid` bytes of the buffer.
        .map(|(&a, &b)| unsafe { std::slice::from_raw_parts(buffer.add(a), b - a) }.to_vec())
        .collect();
    COMPLETED.lock().unwrap_or_else(|e| e.into_inner()).push(Completed {
        thread: std::thread::current().id(),
        size,
        valid,
        records: bytes,
        walk_end,
    });
    release(buffer);
}
