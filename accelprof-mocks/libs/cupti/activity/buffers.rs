//! The activity buffer queues, one per sink (the V1 API, each V2 subscriber): client buffers filled
//! with records, handed back in fill order.
//!
//! - A buffer is requested (buffer-requested callback) on the producing thread when a record
//!   needs room, never while the mock holds its lock. A request answered with NULL, size 0, a
//!   buffer that is not 8-byte aligned or too small for the record drops that record and counts
//!   it (`cuptiActivityGetNumDroppedRecords`, per sink); a non-NULL unusable buffer is handed back empty.
//! - `maxNumRecords > 0` caps the records per buffer.
//! - A full buffer is closed and delivered by the delivery thread unless it (or a buffer filled
//!   before it) still holds an incomplete record: an in-flight kernel's record is written at
//!   launch with start set and end = completed = 0 and patched when the kernel finishes.
//! - `flush(false)` (flag 0) delivers every closed buffer up to the first one with an
//!   incomplete record, then the partially filled current buffer if it is complete.
//!   `flush(true)` (FORCED) delivers everything, incomplete records included (end = 0); a kernel
//!   that finishes afterwards is never re-delivered (counted as lost). Both flush every sink.
//! - The V1 callbacks are one process-wide pair (vendor notes, seen on an H200 with PyTorch's profiler
//!   as a second client): the last `cuptiActivityRegisterCallbacks` wins, later requests go to its
//!   request callback, and every buffer still in the mock (current, closed, in delivery) is completed
//!   through the completion callback registered at the moment it is handed back, whichever client's
//!   request callback gave it. A client's `cuptiActivityFlushAll` flushes every client's buffers.
//! - A V2 subscriber's buffers are completed through its `_v2` callback, with the record layouts of
//!   its user-defined records (see [`super::udr`]), valid only during the call.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Mutex, MutexGuard};

use super::sinks::{self, MAX_SINKS};
use super::udr::CLayouts;
use super::worker::{self, Job};
use crate::stats;
use crate::sys::v13_5::types as v135;
use crate::sys::{CUpti_BuffersCallbackCompleteFunc, CUpti_BuffersCallbackRequestFunc};
use crate::version;

type RequestFn = unsafe extern "C" fn(*mut *mut u8, *mut usize, *mut usize);
type CompleteFn = unsafe extern "C" fn(*mut crate::sys::CUctx_st, u32, *mut u8, usize, usize);
type RequestFnV2 =
    unsafe extern "C" fn(*mut *mut u8, *mut usize, *mut usize, *mut v135::CUpti_BufferCallbackRequestInfo);
type CompleteFnV2 = unsafe extern "C" fn(*mut u8, usize, usize, *mut v135::CUpti_BufferCallbackCompleteInfo);

/// A sink's buffer callbacks.
#[derive(Clone, Copy)]
enum Callbacks {
    V1(RequestFn, CompleteFn),
    V2(RequestFnV2, CompleteFnV2),
}

/// How a buffer is handed back.
pub enum Completion {
    /// Through the V1 completion callback registered when it is handed back (not when it was requested):
    /// CUPTI has one process-wide pair of V1 callbacks, the last `cuptiActivityRegisterCallbacks` wins, and
    /// a buffer in flight completes to the callbacks registered then, whoever requested it.
    V1,
    /// With the layouts of the sink's user-defined records (`None` for fixed records), built when the
    /// buffer is handed to the delivery thread.
    V2(CompleteFnV2, Option<CLayouts>),
}

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
    /// How it is handed back (see [`Completion`]).
    pub complete: Completion,
}

// SAFETY: the buffer is client memory handed to CUPTI; only the mock touches it until it is
// completed, from whichever thread holds the queue lock or the delivery thread afterwards.
unsafe impl Send for Buffer {}

impl Buffer {
    fn fits(&self, len: usize) -> bool {
        self.used + len <= self.size && (self.max_records == 0 || self.records < self.max_records)
    }
}

/// Where an incomplete record lives, to patch it later: its buffer, offset, and the offsets of its
/// start, end and completed times inside it (those the record holds).
#[derive(Clone, Copy)]
struct Slot {
    buffer: u64,
    offset: usize,
    times: [Option<usize>; 3],
}

struct Queue {
    sink: usize,
    callbacks: Option<Callbacks>,
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

const fn new_queue(sink: usize) -> Mutex<Queue> {
    Mutex::new(Queue {
        sink,
        callbacks: None,
        current: None,
        closed: VecDeque::new(),
        spare: VecDeque::new(),
        incomplete: BTreeMap::new(),
        handed_out: BTreeSet::new(),
        next_buffer_id: 1,
        dropped_unread: 0,
    })
}

static QUEUES: [Mutex<Queue>; MAX_SINKS] = [
    new_queue(0),
    new_queue(1),
    new_queue(2),
    new_queue(3),
    new_queue(4),
    new_queue(5),
    new_queue(6),
    new_queue(7),
];

fn queue(sink: usize) -> MutexGuard<'static, Queue> {
    QUEUES[sink].lock().unwrap_or_else(|e| e.into_inner())
}

impl Queue {
    fn drop_record(&mut self) {
        self.dropped_unread += 1;
        stats::add(&stats::RECORDS_DROPPED, 1);
    }

    /// The layouts a V2 buffer of this sink is completed with, now.
    fn layouts(&self) -> Option<CLayouts> {
        let sink = sinks::get(self.sink);
        sink.user_defined().then(|| {
            // 13.2 (beta) completes buffers without layouts.
            let with_layouts = version::get() >= version::V13_3;
            CLayouts::new(&sink.selections(), with_layouts, u64::from(crate::clock::system_thread_id()))
        })
    }

    /// Attaches the layouts to the V2 buffers of `out` (called with the lock held, before delivery).
    fn finish(&self, out: &mut [Buffer]) {
        for b in out {
            if let Completion::V2(_, layouts) = &mut b.complete {
                *layouts = self.layouts();
            }
        }
    }

    /// Moves the deliverable prefix of `closed` to the delivery thread (called with the lock
    /// held, so buffers reach the thread in fill order).
    fn deliver_ready(&mut self) {
        let mut ready = Vec::new();
        while self.closed.front().is_some_and(|b| b.pending == 0) {
            ready.extend(self.closed.pop_front());
        }
        if !ready.is_empty() {
            self.finish(&mut ready);
            worker::send(Job::Deliver(ready));
        }
    }

    fn buffer_mut(&mut self, id: u64) -> Option<&mut Buffer> {
        self.current.iter_mut().chain(self.closed.iter_mut()).find(|b| b.id == id)
    }
}

/// The V1 callbacks (`cuptiActivityRegisterCallbacks`).
pub fn register(request: CUpti_BuffersCallbackRequestFunc, complete: CUpti_BuffersCallbackCompleteFunc) {
    queue(sinks::GLOBAL).callbacks = match (request, complete) {
        (Some(r), Some(c)) => Some(Callbacks::V1(r, c)),
        _ => None,
    };
}

/// The V1 completion callback registered now (the one a V1 buffer is handed back through).
pub fn v1_complete() -> Option<CompleteFn> {
    match queue(sinks::GLOBAL).callbacks {
        Some(Callbacks::V1(_, complete)) => Some(complete),
        _ => None,
    }
}

/// A V2 subscriber's callbacks (`cuptiActivityRegisterCallbacks_v2`).
pub fn register_v2(
    sink: usize,
    request: v135::CUpti_BuffersCallbackRequestFunc_v2,
    complete: v135::CUpti_BuffersCallbackCompleteFunc_v2,
) {
    queue(sink).callbacks = match (request, complete) {
        (Some(r), Some(c)) => Some(Callbacks::V2(r, c)),
        _ => None,
    };
}

/// Whether any sink has buffer callbacks.
pub fn registered() -> bool {
    (0..MAX_SINKS).any(|s| queue(s).callbacks.is_some())
}

/// Whether `sink` has buffer callbacks.
pub fn registered_for(sink: usize) -> bool {
    queue(sink).callbacks.is_some()
}

/// Writes one record into `sink`'s buffers, requesting a buffer if needed. `incomplete` marks an
/// in-flight kernel's record (keyed by its correlation id, with the offsets of its times) that
/// [`complete_record`] patches later. Returns whether the record was written.
pub fn emit(sink: usize, record: &[u8], incomplete: Option<(u32, [Option<usize>; 3])>) -> bool {
    let len = record.len();
    loop {
        let mut q = queue(sink);
        let Some(callbacks) = q.callbacks else {
            q.drop_record();
            return false;
        };
        if let Some(cur) = q.current.as_mut() {
            if cur.fits(len) {
                // SAFETY: the buffer is the client's, `size` bytes long and owned by the mock
                // until completed; `used + len <= size`.
                unsafe { std::ptr::copy_nonoverlapping(record.as_ptr(), cur.ptr.add(cur.used), len) };
                let slot = incomplete.map(|(_, times)| Slot { buffer: cur.id, offset: cur.used, times });
                cur.used += len;
                cur.records += 1;
                if let (Some((key, _)), Some(slot)) = (incomplete, slot) {
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
        let complete = match callbacks {
            Callbacks::V1(request, _) => {
                // SAFETY: the client registered this request callback; the out-pointers are valid.
                unsafe { request(&mut ptr, &mut size, &mut max_records) };
                Completion::V1
            }
            Callbacks::V2(request, complete) => {
                let mut info = v135::CUpti_BufferCallbackRequestInfo {
                    structSize: std::mem::size_of::<v135::CUpti_BufferCallbackRequestInfo>(),
                };
                // SAFETY: as above; `info` lives for the call.
                unsafe { request(&mut ptr, &mut size, &mut max_records, &mut info) };
                Completion::V2(complete, None)
            }
        };

        let mut q = queue(sink);
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
pub enum PatchOutcome {
    /// Patched in place; it will be delivered complete.
    Patched,
    /// A forced flush already handed it out with end = 0: the timing is lost.
    Lost,
    /// No record was written for it (kind disabled, or dropped).
    NotRecorded,
}

/// Completes the records keyed `key` in every sink: their start, end and completed times are written.
/// `Patched` if any sink held one, else `Lost` if a forced flush handed one out, else `NotRecorded`.
pub fn complete_record(key: u32, start: u64, end: u64) -> PatchOutcome {
    let mut outcome = PatchOutcome::NotRecorded;
    for sink in 0..MAX_SINKS {
        let mut q = queue(sink);
        let Some(slot) = q.incomplete.remove(&key) else {
            if q.handed_out.remove(&key) {
                stats::add(&stats::RECORDS_LOST_AFTER_FORCED_FLUSH, 1);
                if outcome == PatchOutcome::NotRecorded {
                    outcome = PatchOutcome::Lost;
                }
            }
            continue;
        };
        let Some(buffer) = q.buffer_mut(slot.buffer) else { continue };
        for (at, value) in slot.times.iter().zip([start, end, end]) {
            if let Some(at) = at {
                // SAFETY: the record was written at `slot.offset` of this buffer, which the mock still owns,
                // and the time field lies inside it.
                unsafe { buffer.ptr.add(slot.offset + at).cast::<u64>().write_unaligned(value) };
            }
        }
        buffer.pending -= 1;
        q.deliver_ready();
        outcome = PatchOutcome::Patched;
    }
    outcome
}

/// `cuptiActivityFlushAll`: hands every sink's buffers to the delivery thread and waits until their
/// completion callbacks (and every earlier one) have returned.
pub fn flush(forced: bool) {
    for sink in 0..MAX_SINKS {
        let mut q = queue(sink);
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
            q.finish(&mut out);
            worker::send(Job::Deliver(out));
        }
    }
    if forced {
        sinks::forced_flush();
    }
    worker::wait_idle();
}

/// `cuptiActivityGetNumDroppedRecords` of `sink`: the count since the last call.
pub fn take_dropped(sink: usize) -> u64 {
    std::mem::take(&mut queue(sink).dropped_unread)
}

/// Buffers the mock holds (current, closed, spare), every sink.
pub fn held() -> u64 {
    (0..MAX_SINKS)
        .map(|s| {
            let q = queue(s);
            (q.current.is_some() as usize + q.closed.len() + q.spare.len()) as u64
        })
        .sum()
}

/// A sink's subscriber is gone: its callbacks and held buffers are forgotten (not handed back).
pub fn forget(sink: usize) {
    let mut q = queue(sink);
    q.callbacks = None;
    q.current = None;
    q.closed.clear();
    q.spare.clear();
    q.incomplete.clear();
    q.handed_out.clear();
    q.dropped_unread = 0;
}

/// Forgets everything: callbacks, held buffers (not handed back), incomplete records.
pub fn reset() {
    worker::wait_idle();
    for sink in 0..MAX_SINKS {
        forget(sink);
    }
}
