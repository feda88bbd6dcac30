//! Who is calling: the calling thread's device (`cudaSetDevice`) and pending failure, the fake
//! context and stream handles and their ids, and `cuptiGetContextId`/`DeviceId`/`StreamId`.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::results::{INVALID_PARAMETER, SUCCESS};
use crate::sys::{CUcontext, CUstream};

/// Stream id of the legacy NULL stream.
pub const NULL_STREAM_ID: u32 = 7;
const CONTEXT_HANDLE_BASE: usize = 0xC0_0000;

/// Bumped by `mock_cupti_reset` so per-thread state from before is forgotten.
static GENERATION: AtomicU64 = AtomicU64::new(0);

#[derive(Default)]
struct ThreadState {
    generation: u64,
    device: u32,
    fail_next: Option<i32>,
}

thread_local! {
    static THREAD: RefCell<ThreadState> = RefCell::new(ThreadState::default());
}

fn with_thread<R>(f: impl FnOnce(&mut ThreadState) -> R) -> R {
    let generation = GENERATION.load(Ordering::Relaxed);
    THREAD.with(|t| {
        let mut t = t.borrow_mut();
        if t.generation != generation {
            *t = ThreadState { generation, ..ThreadState::default() };
        }
        f(&mut t)
    })
}

pub fn set_device(device: u32) {
    with_thread(|t| t.device = device);
}

pub fn current_device() -> u32 {
    with_thread(|t| t.device)
}

/// The next played call on this thread fails with `code` (and causes no GPU work).
pub fn fail_next_call(code: i32) {
    with_thread(|t| t.fail_next = Some(code));
}

pub fn take_failure() -> i32 {
    with_thread(|t| t.fail_next.take()).unwrap_or(0)
}

pub fn context_handle(device: u32) -> CUcontext {
    (CONTEXT_HANDLE_BASE + device as usize * 0x100) as CUcontext
}

fn device_of_context(context: CUcontext) -> Option<u32> {
    let c = context as usize;
    (c >= CONTEXT_HANDLE_BASE && (c - CONTEXT_HANDLE_BASE) % 0x100 == 0)
        .then(|| ((c - CONTEXT_HANDLE_BASE) / 0x100) as u32)
}

pub fn context_id(device: u32) -> u32 {
    device + 1
}

pub fn stream_id(stream: u64) -> u32 {
    if stream == 0 {
        NULL_STREAM_ID
    } else {
        stream as u32
    }
}

pub fn reset() {
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetContextId(context: CUcontext, out: *mut u32) -> u32 {
    let Some(device) = device_of_context(context) else { return INVALID_PARAMETER };
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: checked non-null; the caller passes a writable u32.
    unsafe { *out = context_id(device) };
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetDeviceId(context: CUcontext, out: *mut u32) -> u32 {
    let device = if context.is_null() { Some(current_device()) } else { device_of_context(context) };
    let Some(device) = device else { return INVALID_PARAMETER };
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: as above.
    unsafe { *out = device };
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetStreamId(_context: CUcontext, stream: CUstream, out: *mut u32) -> u32 {
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: as above.
    unsafe { *out = stream_id(stream as u64) };
    SUCCESS
}
