//! The activity buffer queue: client buffers filled with records, handed back in fill order.
//!
//! - A buffer is requested (buffer-requested callback) on the producing thread when a record
//!   needs room, never while the mock holds its lock. A request answered with NULL, size 0, a
//!   buffer that is not 8-byte aligned or too small for the record drops that record and counts
//!   it (`cuptiActivityGetNumDroppedRecords`); a non-NULL unusable buffer is handed back empty.
//! - `maxNumRecords > 0` caps the records per buffer.
//! - A full buffer is closed and delivered by the delivery thread unless it (or a buffer filled
//!   before it) still holds an incomplete record: an in-flight kernel's record is written at
//!   launch with start set and end = completed = 0 and patched when the kernel finishes.
//! - `flush(false)` (flag 0) delivers every closed buffer up to the first one with an
//!   incomplete record, then the partially filled current buffer if it is complete.
//!   `flush(true)` (FORCED) delivers everything, incomplete records included (end = 0); a kernel
//!   that finishes afterwards is never re-delivered (counted as lost).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Mutex, MutexGuard};

use super::worker::{self, Job};
use crate::stats;
use crate::sys::{CUpti_BuffersCallbackCompleteFunc, CUpti_BuffersCallbackRequestFunc};

type RequestFn = unsafe extern "C" fn(*mut *mut u8, *mut usize, *mut usize);
pub type CompleteFn = unsafe extern "C" fn(*mut crate::sys::CUctx_st, u32, *mut u8, usize, usize);

/// A client buffer while the mock owns it.
pub struct Buffer {
    pub ptr: *mut u8,
    pub size: usize,
    /// Bytes of records written (the `validSize` it is completed with).
    pub used: usize,
    max_records: usize,
    records: usize,
    /// Records in it that are not complete yet.
    pending: usize,
    id: u64,
    /// The completion callback registered when the buffer was requested.
    pub complete: CompleteFn,
}

// SAFETY: the buffer is client memory handed to CUPTI; only the mock touches it until it is
// completed, from whichever thread holds the queue lock or the delivery thread afterwards.
unsafe impl Send for Buffer {}

impl Buffer {
    fn fits(&self, len: usize) -> bool {
        self.used + len <= self.size && (self.max_records == 0 || self.records < self.max_records)
    }
}

/// Where an incomplete record lives, to patch it later.
#[derive(Clone, Copy)]
struct Slot {
    buffer: u64,
    offset: usize,
}

struct Queue {
    request: Option<RequestFn>,
    complete: Option<CompleteFn>,
    current: Option<Buffer>,
    /// Full buffers not yet handed to the delivery thread, in fill order.
    closed: VecDeque<Buffer>,
    /// Buffers obtained by a request that raced another one; used next.
    spare: VecDeque<Buffer>,
    /// Incomplete records by key (an in-flight kernel's correlation id).
    incomplete: BTreeMap<u32, Slot>,
    /// Keys of incomplete records a forced flush handed out.
    handed_out: BTreeSet<u32>,
    next_buffer_id: u64,
    /// Dropped since the last `cuptiActivityGetNumDroppedRecords`.
    dropped_unread: u64,
}

static QUEUE: Mutex<Queue> = Mutex::new(Queue {
    request: None,
    complete: None,
    current: None,
    closed: VecDeque::new(),
    spare: VecDeque::new(),
    incomplete: BTreeMap::new(),
    handed_out: BTreeSet::new(),
    next_buffer_id: 1,
    dropped_unread: 0,
});

fn queue() -> MutexGuard<'static, Queue> {
    QUEUE.lock().unwrap_or_else(|e| e.into_inner())
}

impl Queue {
    fn drop_record(&mut self) {
        self.dropped_unread += 1;
        stats::add(&stats::RECORDS_DROPPED, 1);
    }

    /// Moves the deliverable prefix of `closed` to the delivery thread (called with the lock
    /// held, so buffers reach the thread in fill order).
    fn deliver_ready(&mut self) {
        let mut ready = Vec::new();
        while self.closed.front().is_some_and(|b| b.pending == 0) {
            ready.extend(self.closed.pop_front());
        }
        if !ready.is_empty() {
            worker::send(Job::Deliver(ready));
        }
    }

    fn buffer_mut(&mut self, id: u64) -> Option<&mut Buffer> {
        self.current.iter_mut().chain(self.closed.iter_mut()).find(|b| b.id == id)
    }
}

pub fn register(request: CUpti_BuffersCallbackRequestFunc, complete: CUpti_BuffersCallbackCompleteFunc) {
    let mut q = queue();
    q.request = request;
    q.complete = complete;
}

pub fn registered() -> bool {
    queue().request.is_some()
}

/// Writes one record, requesting a buffer if needed. `incomplete` marks an in-flight kernel's
/// record (keyed by its correlation id) that [`complete_record`] patches later. Returns whether
/// the record was written.
pub fn emit(record: &[u8], incomplete: Option<u32>) -> bool {
    let len = record.len();
    loop {
        let mut q = queue();
        let (Some(request), Some(complete)) = (q.request, q.complete) else {
            q.drop_record();
            return false;
        };
        if let Some(cur) = q.current.as_mut() {
            if cur.fits(len) {
                // SAFETY: the buffer is the client's, `size` bytes long and owned by the mock
                // until completed; `used + len <= size`.
                unsafe { std::ptr::copy_nonoverlapping(record.as_ptr(), cur.ptr.add(cur.used), len) };
                let slot = Slot { buffer: cur.id, offset: cur.used };
                cur.used += len;
                cur.records += 1;
                if let Some(key) = incomplete {
                    cur.pending += 1;
                    q.incomplete.insert(key, slot);
                }
                stats::add(&stats::RECORDS_WRITTEN, 1);
                return true;
            }
            let full = q.current.take().expect("checked above");
            q.closed.push_back(full);
            q.deliver_ready();
        }
        if let Some(spare) = q.spare.pop_front() {
            q.current = Some(spare);
            continue;
        }
        drop(q);

        stats::add(&stats::BUFFERS_REQUESTED, 1);
        let (mut ptr, mut size, mut max_records) = (std::ptr::null_mut::<u8>(), 0usize, 0usize);
        // SAFETY: the client registered this request callback; the three out-pointers are valid.
        unsafe { request(&mut ptr, &mut size, &mut max_records) };

        let mut q = queue();
        let id = q.next_buffer_id;
        q.next_buffer_id += 1;
        let buffer = Buffer { ptr, size, used: 0, max_records, records: 0, pending: 0, id, complete };
        if ptr.is_null() || size == 0 || ptr as usize % 8 != 0 || size < len {
            stats::add(&stats::BUFFERS_DECLINED, 1);
            if !ptr.is_null() && ptr as usize % 8 != 0 {
                stats::add(&stats::BUFFERS_MISALIGNED, 1);
            }
            if !ptr.is_null() && size > 0 {
                // Unusable: give it back empty so the client can reclaim it.
                q.closed.push_back(buffer);
                q.deliver_ready();
            }
            q.drop_record();
            return false;
        }
        if q.current.is_none() {
            q.current = Some(buffer);
        } else {
            q.spare.push_back(buffer);
        }
    }
}

/// What became of an incomplete record when its kernel finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completion {
    /// Patched in place; it will be delivered complete.
    Patched,
    /// A forced flush already handed it out with end = 0: the timing is lost.
    Lost,
    /// No record was written for it (kind disabled, or dropped).
    NotRecorded,
}

/// Completes the record keyed `key`: `patch` receives the record's bytes from its start.
pub fn complete_record(key: u32, patch: impl FnOnce(*mut u8)) -> Completion {
    let mut q = queue();
    let Some(slot) = q.incomplete.remove(&key) else {
        if q.handed_out.remove(&key) {
            stats::add(&stats::RECORDS_LOST_AFTER_FORCED_FLUSH, 1);
            return Completion::Lost;
        }
        return Completion::NotRecorded;
    };
    let Some(buffer) = q.buffer_mut(slot.buffer) else { return Completion::NotRecorded };
    // SAFETY: the record was written at this offset of this buffer, which the mock still owns.
    patch(unsafe { buffer.ptr.add(slot.offset) });
    buffer.pending -= 1;
    q.deliver_ready();
    Completion::Patched
}

/// `cuptiActivityFlushAll`: hands buffers to the delivery thread and waits until their
/// completion callbacks (and every earlier one) have returned.
pub fn flush(forced: bool) {
    {
        let mut q = queue();
        let mut out: Vec<Buffer> = Vec::new();
        if forced {
            out.extend(q.closed.drain(..));
            if q.current.as_ref().is_some_and(|b| b.used > 0) {
                out.extend(q.current.take());
            }
            let keys = std::mem::take(&mut q.incomplete).into_keys();
            q.handed_out.extend(keys);
        } else {
            while q.closed.front().is_some_and(|b| b.pending == 0) {
                out.extend(q.closed.pop_front());
            }
            let current_ready = q.current.as_ref().is_some_and(|b| b.used > 0 && b.pending == 0);
            if q.closed.is_empty() && current_ready {
                out.extend(q.current.take());
            }
        }
        if !out.is_empty() {
            worker::send(Job::Deliver(out));
        }
    }
    worker::wait_idle();
}

/// `cuptiActivityGetNumDroppedRecords` for the global queue: the count since the last call.
pub fn take_dropped() -> u64 {
    std::mem::take(&mut queue().dropped_unread)
}

/// Buffers the mock holds (current, closed, spare).
pub fn held() -> u64 {
    let q = queue();
    (q.current.is_some() as usize + q.closed.len() + q.spare.len()) as u64
}

/// Forgets everything: callbacks, held buffers (not handed back), incomplete records.
pub fn reset() {
    worker::wait_idle();
    let mut q = queue();
    q.request = None;
    q.complete = None;
    q.current = None;
    q.closed.clear();
    q.spare.clear();
    q.incomplete.clear();
    q.handed_out.clear();
    q.dropped_unread = 0;
}
