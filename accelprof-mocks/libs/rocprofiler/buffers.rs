//! Buffers: records stored by size against a capacity, handed to the tool's callback on a
//! delivery thread when the watermark is reached or on flush.
//!
//! As in the real library: a record that does not fit is dropped under DISCARD (the cumulative
//! drop count is passed to every callback) and, under LOSSLESS, the producing thread (an API
//! thread, HSA's async-signal thread, the counting thread) flushes the buffer and waits until
//! the buffer callback has returned before it stores the record (`buffer.hpp`): a slow buffer
//! callback stalls whoever produces; reaching the watermark starts an asynchronous flush; `rocprofiler_flush_buffer` waits until the callback
//! has returned. Asking for that wait from inside a callback on the delivery thread waits for
//! itself forever in the real library (its task group waits for every task, the running one
//! included); the mock aborts. `rocprofiler_create_buffer` checks neither the context nor the
//! callback (a NULL callback loses every record silently); callback threads can be created
//! before the configure window (only after it is CONFIGURATION_LOCKED), and thread 0, the
//! internal one every buffer starts on, can be assigned.

use std::cell::Cell;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Mutex, OnceLock};

use crate::state::{state, State, BUFFER_OFFSET};
use crate::*;

/// Bytes a record header takes in the buffer, besides its payload.
const HEADER_BYTES: usize = std::mem::size_of::<rocprofiler_record_header_t>();

pub struct Record {
    pub category: u32,
    pub kind: u32,
    pub payload: Vec<u64>,
}

impl Record {
    pub fn new<T: Copy>(category: u32, kind: u32, payload: &T) -> Record {
        Record { category, kind, payload: words_of(payload) }
    }

    fn bytes(&self) -> usize {
        HEADER_BYTES + self.payload.len() * 8
    }
}

pub struct Buffer {
    pub context: u64,
    pub size: usize,
    pub watermark: usize,
    pub policy: u32,
    pub callback: rocprofiler_buffer_tracing_cb_t,
    pub data: Ptr,
    pub used: usize,
    pub records: Vec<Record>,
    pub drop_count: u64,
    /// Delivery thread (0 = the internal one).
    pub thread: u64,
    pub destroyed: bool,
}

struct Job {
    callback: rocprofiler_buffer_tracing_cb_t,
    context: u64,
    buffer: u64,
    data: Ptr,
    records: Vec<Record>,
    drop_count: u64,
    done: Option<Sender<()>>,
}

thread_local! {
    static ON_DELIVERY_THREAD: Cell<bool> = const { Cell::new(false) };
}

fn workers() -> &'static Mutex<Vec<Sender<Job>>> {
    static WORKERS: OnceLock<Mutex<Vec<Sender<Job>>>> = OnceLock::new();
    WORKERS.get_or_init(|| Mutex::new(Vec::new()))
}

/// The sender of delivery thread `index`, starting threads up to it as needed.
fn worker(index: u64) -> Sender<Job> {
    let mut all = workers().lock().unwrap_or_else(|e| e.into_inner());
    while all.len() <= index as usize {
        let (tx, rx) = channel::<Job>();
        let name = format!("rocprofiler-mock-delivery-{}", all.len());
        std::thread::Builder::new()
            .name(name)
            .spawn(move || {
                ON_DELIVERY_THREAD.with(|f| f.set(true));
                for job in rx {
                    deliver(job);
                }
            })
            .expect("spawn a delivery thread");
        all.push(tx);
    }
    all[index as usize].clone()
}

fn deliver(job: Job) {
    if !job.records.is_empty() {
        if let Some(callback) = job.callback {
            let mut headers: Vec<rocprofiler_record_header_t> = job
                .records
                .iter()
                .map(|r| rocprofiler_record_header_t {
                    __bindgen_anon_1: rocprofiler_record_header_t__bindgen_ty_1 {
                        hash: r.category as u64 | (r.kind as u64) << 32,
                    },
                    payload: r.payload.as_ptr() as *mut std::ffi::c_void,
                })
                .collect();
            let mut pointers: Vec<*mut rocprofiler_record_header_t> =
                headers.iter_mut().map(|h| h as *mut _).collect();
            // SAFETY: the tool registered this callback for this buffer; headers and payloads
            // stay alive until it returns.
            unsafe {
                callback(
                    rocprofiler_context_id_t { handle: job.context },
                    rocprofiler_buffer_id_t { handle: job.buffer },
                    pointers.as_mut_ptr(),
                    pointers.len(),
                    job.data.0,
                    job.drop_count,
                )
            };
        }
    }
    if let Some(done) = job.done {
        let _ = done.send(());
    }
}

/// Takes the buffer's records and queues them for delivery; returns a receiver to wait on.
fn hand_off(st: &mut State, handle: u64, wait: bool) -> Option<Receiver<()>> {
    let buf = st.buffer_mut(handle)?;
    let records = std::mem::take(&mut buf.records);
    buf.used = 0;
    let (done, rx) = if wait {
        let (tx, rx) = channel();
        (Some(tx), Some(rx))
    } else {
        (None, None)
    };
    if records.is_empty() && !wait {
        return None;
    }
    let job = Job {
        callback: buf.callback,
        context: buf.context,
        buffer: handle,
        data: buf.data,
        records,
        drop_count: buf.drop_count,
        done,
    };
    let _ = worker(buf.thread).send(job);
    rx
}

/// Stores a record (called with the state locked, so it does not wait itself). When a LOSSLESS
/// buffer was full, its records were handed to the callback and the producer must wait for it:
/// the returned receiver, to wait on (with [`wait_all`]) once the state lock is released.
#[must_use = "a LOSSLESS flush makes the producer wait for the buffer callback"]
pub fn emplace(st: &mut State, handle: u64, record: Record) -> Option<Receiver<()>> {
    let buf = st.buffer_mut(handle)?;
    let bytes = record.bytes();
    if bytes > buf.size {
        // The real library logs "buffer too small" and loses the record without counting it.
        return None;
    }
    let mut wait = None;
    if buf.used + bytes > buf.size {
        if buf.policy == rocprofiler_buffer_policy_t::ROCPROFILER_BUFFER_POLICY_LOSSLESS.0 {
            // Flush and wait (on the delivery thread itself there is nothing to wait for).
            let own = ON_DELIVERY_THREAD.with(|f| f.get());
            wait = hand_off(st, handle, !own);
        } else {
            buf.drop_count += 1;
            return None;
        }
    }
    let buf = st.buffer_mut(handle)?;
    buf.used += bytes;
    buf.records.push(record);
    if buf.used >= buf.watermark {
        hand_off(st, handle, false);
    }
    wait
}

/// Waits for the buffer callbacks a LOSSLESS flush made the producer wait for.
pub fn wait_all(waits: Vec<Receiver<()>>) {
    for rx in waits {
        let _ = rx.recv();
    }
}

/// Waits until every delivery thread has delivered what was queued before this call.
pub fn quiesce() {
    let count = workers().lock().unwrap_or_else(|e| e.into_inner()).len() as u64;
    for i in 0..count {
        let (tx, rx) = channel();
        let job = Job {
            callback: None,
            context: 0,
            buffer: 0,
            data: Ptr(std::ptr::null_mut()),
            records: Vec::new(),
            drop_count: 0,
            done: Some(tx),
        };
        if worker(i).send(job).is_ok() && !ON_DELIVERY_THREAD.with(|f| f.get()) {
            let _ = rx.recv();
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_create_buffer(
    context: rocprofiler_context_id_t,
    size: usize,
    watermark: usize,
    policy: rocprofiler_buffer_policy_t,
    callback: rocprofiler_buffer_tracing_cb_t,
    callback_data: *mut std::ffi::c_void,
    buffer_id: *mut rocprofiler_buffer_id_t,
) -> rocprofiler_status_t {
    let mut st = state();
    if !st.in_window() {
        return status::CONFIGURATION_LOCKED;
    }
    if buffer_id.is_null() {
        drop(st);
        crash("rocprofiler_create_buffer read the buffer id through a NULL pointer");
    }
    if (*buffer_id).handle != 0 && st.buffer_mut((*buffer_id).handle).is_some() {
        return status::SERVICE_ALREADY_CONFIGURED;
    }
    // Neither the context nor the callback is checked; nor the size, which the SDK maps (and
    // keeps a 16-byte header slot per byte of): past what it can get, ROCP_FATAL or bad_alloc.
    if size > 1 << 30 {
        drop(st);
        crash("rocprofiler_create_buffer could not map or allocate a buffer of that size");
    }
    let handle = BUFFER_OFFSET + st.buffers.len() as u64;
    st.buffers.push(Buffer {
        context: context.handle,
        size,
        watermark: watermark.min(size),
        policy: policy.0,
        callback,
        data: Ptr(callback_data),
        used: 0,
        records: Vec::new(),
        drop_count: 0,
        thread: 0,
        destroyed: false,
    });
    (*buffer_id).handle = handle;
    status::SUCCESS
}

#[no_mangle]
pub extern "C" fn rocprofiler_flush_buffer(buffer_id: rocprofiler_buffer_id_t) -> rocprofiler_status_t {
    let rx = {
        let mut st = state();
        if st.fini_status > 0 {
            return status::FINALIZED;
        }
        if st.buffer_mut(buffer_id.handle).is_none() {
            return status::BUFFER_NOT_FOUND;
        }
        if ON_DELIVERY_THREAD.with(|f| f.get()) {
            drop(st);
            crash("rocprofiler_flush_buffer from a buffer callback waits for its own delivery thread");
        }
        hand_off(&mut st, buffer_id.handle, true)
    };
    if let Some(rx) = rx {
        let _ = rx.recv();
    }
    status::SUCCESS
}

#[no_mangle]
pub extern "C" fn rocprofiler_destroy_buffer(buffer_id: rocprofiler_buffer_id_t) -> rocprofiler_status_t {
    let mut st = state();
    match st.buffer_mut(buffer_id.handle) {
        Some(buf) => {
            buf.destroyed = true;
            buf.records.clear();
            status::SUCCESS
        }
        None => status::BUFFER_NOT_FOUND,
    }
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_create_callback_thread(
    cb_thread_id: *mut rocprofiler_callback_thread_t,
) -> rocprofiler_status_t {
    let mut st = state();
    // Before the window too; only after it is this locked.
    if st.init_status > 0 {
        return status::CONFIGURATION_LOCKED;
    }
    if cb_thread_id.is_null() {
        drop(st);
        crash("rocprofiler_create_callback_thread wrote through a NULL pointer");
    }
    st.callback_threads += 1;
    (*cb_thread_id).handle = st.callback_threads;
    status::SUCCESS
}

#[no_mangle]
pub extern "C" fn rocprofiler_assign_callback_thread(
    buffer_id: rocprofiler_buffer_id_t,
    cb_thread_id: rocprofiler_callback_thread_t,
) -> rocprofiler_status_t {
    let mut st = state();
    if st.init_status > 0 {
        return status::CONFIGURATION_LOCKED;
    }
    // 0 is the internal thread every buffer starts on.
    if cb_thread_id.handle > st.callback_threads {
        return status::THREAD_NOT_FOUND;
    }
    match st.buffer_mut(buffer_id.handle) {
        Some(buf) => {
            buf.thread = cb_thread_id.handle;
            status::SUCCESS
        }
        None => status::BUFFER_NOT_FOUND,
    }
}

/// Records stored in a buffer and not yet handed to its callback (`u64::MAX`: no such buffer).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_buffer_pending(buffer: u64) -> u64 {
    state().buffer_mut(buffer).map_or(u64::MAX, |b| b.records.len() as u64)
}

/// Waits until every delivery thread has run the callbacks queued so far.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_quiesce() {
    quiesce();
}
