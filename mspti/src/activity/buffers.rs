//! MSPTI's buffer callbacks. They carry no user data, so the running session is reached
//! through a global pointer, protected without locks (the request runs under MSPTI's internal
//! lock and completions run on MSPTI's threads: neither may block on anything user code holds).
//!
//! A callback raises [`IN_CALLBACK`] before it loads [`CURRENT`] and lowers it when done; a
//! session that ends first swaps [`CURRENT`] to null and then waits for [`IN_CALLBACK`] to be
//! zero before freeing what it pointed to. Our callbacks never block (a lock-free pool pop or
//! push and an unbounded channel send), so that wait is short. Buffers completed when no session
//! runs are freed and counted as orphaned.

use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering::SeqCst};

use accelprof_core::{ActivityBuffer, Handoff};

/// What the callbacks need of a running session.
pub(crate) struct Shared {
    pub(crate) handoff: Handoff,
    /// Declined buffers MSPTI handed back as NULL/0/0 (each cost at least one record).
    pub(crate) null_completions: AtomicU64,
    /// Buffers handed back with a size we did not hand out (leaked rather than freed wrongly).
    pub(crate) foreign_buffers: AtomicU64,
    /// Buffers MSPTI took and gave back (watched by the rescue thread).
    pub(crate) flow: std::sync::Arc<super::rescue::Flow>,
}

static CURRENT: AtomicPtr<Shared> = AtomicPtr::new(ptr::null_mut());
static IN_CALLBACK: AtomicUsize = AtomicUsize::new(0);
/// Buffers completed while no session ran (freed undecoded).
pub(crate) static ORPHANED_BUFFERS: AtomicU64 = AtomicU64::new(0);

struct Hazard;

impl Hazard {
    fn enter() -> (Hazard, Option<&'static Shared>) {
        IN_CALLBACK.fetch_add(1, SeqCst);
        let p = CURRENT.load(SeqCst);
        // SAFETY: `IN_CALLBACK` was raised before the load, so `uninstall` cannot free `p` until
        // this hazard drops; the `'static` never escapes the callback that holds the hazard.
        (Hazard, unsafe { p.as_ref() })
    }
}

impl Drop for Hazard {
    fn drop(&mut self) {
        IN_CALLBACK.fetch_sub(1, SeqCst);
    }
}

/// Makes `shared` the session the callbacks serve.
pub(crate) fn install(shared: Box<Shared>) {
    let old = CURRENT.swap(Box::into_raw(shared), SeqCst);
    debug_assert!(old.is_null(), "one session at a time");
}

/// Stops serving the session and returns it once no callback can still be using it.
pub(crate) fn uninstall() -> Option<Box<Shared>> {
    let p = CURRENT.swap(ptr::null_mut(), SeqCst);
    while IN_CALLBACK.load(SeqCst) != 0 {
        std::thread::yield_now();
    }
    // SAFETY: `p` came from `Box::into_raw` in `install`; no callback holds it any more.
    (!p.is_null()).then(|| unsafe { Box::from_raw(p) })
}

/// `msptiBuffersCallbackRequestFunc`: a pool buffer, or NULL (declined, counted) when the pool
/// is at its bound or no session runs. Called under MSPTI's internal lock: it calls no MSPTI
/// function and takes no lock.
pub(crate) unsafe extern "C" fn buffer_requested(
    buffer: *mut *mut u8,
    size: *mut usize,
    max_records: *mut usize,
) {
    if buffer.is_null() || size.is_null() {
        return;
    }
    let given = crate::unwind::guard(|| {
        let (_hazard, shared) = Hazard::enter();
        let s = shared?;
        let buf = s.handoff.request_buffer()?;
        s.flow.handed_out.fetch_add(1, SeqCst);
        Some(buf.into_raw())
    })
    .flatten();
    let (ptr, len) = given.unwrap_or((ptr::null_mut(), 0));
    // SAFETY: MSPTI passes valid out-pointers (checked non-null above; `max_records` may be NULL).
    unsafe {
        *buffer = ptr;
        *size = len;
        if !max_records.is_null() {
            *max_records = 0;
        }
    }
}

/// `msptiBuffersCallbackCompleteFunc`: hands the buffer to the decode thread and returns. Runs
/// on MSPTI's completion threads (one per buffer, concurrently) or inside `FlushAll`.
pub(crate) unsafe extern "C" fn buffer_completed(buffer: *mut u8, size: usize, valid: usize) {
    crate::unwind::guard(|| {
        let (_hazard, shared) = Hazard::enter();
        if buffer.is_null() {
            // A declined buffer: MSPTI dropped the record that asked for it.
            if let Some(s) = shared {
                s.null_completions.fetch_add(1, SeqCst);
                s.handoff.vendor_dropped(1);
            }
            return;
        }
        if size == 0 || size % 8 != 0 {
            if let Some(s) = shared {
                s.foreign_buffers.fetch_add(1, SeqCst);
            }
            return;
        }
        // SAFETY: every non-NULL buffer MSPTI holds came from `buffer_requested`, which handed
        // out `into_raw` pairs, and MSPTI returns each once with the size we gave it.
        let buf = unsafe { ActivityBuffer::from_raw(buffer, size) };
        match shared {
            Some(s) => {
                s.flow.returned.fetch_add(1, SeqCst);
                s.handoff.completed(buf, valid.min(size))
            }
            None => {
                ORPHANED_BUFFERS.fetch_add(1, SeqCst);
                drop(buf);
            }
        }
    });
}
