//! The SDK's counting results thread (`counters/sample_processing.cpp`, `consumer_thread_t`).
//!
//! As in the real library: a completed dispatch's counter results are not delivered on the
//! thread that saw it complete; they are queued for one process-wide consumer thread, which
//! emplaces the buffered form into the tool's buffer and calls the callback form's record
//! callback. Starting a counting context starts the thread; stopping *any* counting context
//! stops it after it has delivered everything queued (the only drain a tool has). While the
//! thread is stopped, or when 128 results are already queued, a result is processed on the
//! completing thread itself (HSA's async-signal thread), with the consumer's mutex held
//! (`sample_consumer.hpp`): a record callback there that starts a counting context (the start
//! takes that mutex) waits for itself forever.
//!
//! When the thread delivers is not something a tool can know: here it holds what it is given
//! until a stop drains it, or until `mock_rocprofiler_counting_release` plays time passing. A
//! tool that reads results right after a dispatch sees nothing, as it may on a real machine.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::thread::ThreadId;

use crate::buffers::{emplace, wait_all, Record};
use crate::state::{state, CountingService};
use crate::*;

const CATEGORY_COUNTERS: u32 = 3;
/// The SDK's ring of queued results; past it, results are processed on the completing thread.
const RING: usize = 128;

/// One dispatch's results for one counting service.
pub struct Job {
    pub service: CountingService,
    pub data: rocprofiler_dispatch_counting_service_data_t,
    /// One record per dimension instance of each counter.
    pub records: Vec<rocprofiler_counter_record_t>,
    /// The dispatch's user-data slot as the dispatch callbacks left it.
    pub user_data: rocprofiler_user_data_t,
}

// SAFETY: the job's pointers (callback data, user data) belong to the tool, which registered
// them to be handed back to its callbacks on the SDK's threads.
unsafe impl Send for Job {}

#[derive(Default)]
struct Consumer {
    queue: VecDeque<Job>,
    /// Started by a counting context's start, stopped by a counting context's stop.
    valid: bool,
    /// The thread is running (it exits once stopped and drained).
    running: bool,
    thread: Option<ThreadId>,
    /// Jobs the thread may deliver without a stop (the release control); counts pushes.
    allowed: u64,
    pushed: u64,
    taken: u64,
    done: u64,
}

fn consumer() -> (&'static Mutex<Consumer>, &'static Condvar) {
    static C: OnceLock<(Mutex<Consumer>, Condvar)> = OnceLock::new();
    let c = C.get_or_init(|| (Mutex::new(Consumer::default()), Condvar::new()));
    (&c.0, &c.1)
}

fn lock() -> MutexGuard<'static, Consumer> {
    consumer().0.lock().unwrap_or_else(|e| e.into_inner())
}

/// Delivers one job: the header and records into the buffer, or the record callback.
fn deliver(job: Job) {
    match job.service.buffer {
        Some(buffer) => {
            let header = rocprofiler_dispatch_counting_service_record_t {
                size: std::mem::size_of::<rocprofiler_dispatch_counting_service_record_t>() as u64,
                num_records: job.records.len() as u64,
                correlation_id: job.data.correlation_id,
                start_timestamp: job.data.start_timestamp,
                end_timestamp: job.data.end_timestamp,
                dispatch_info: job.data.dispatch_info,
            };
            let mut st = state();
            let mut waits: Vec<_> =
                emplace(&mut st, buffer, Record::new(CATEGORY_COUNTERS, 1, &header)).into_iter().collect();
            for r in &job.records {
                waits.extend(emplace(&mut st, buffer, Record::new(CATEGORY_COUNTERS, 2, r)));
            }
            drop(st);
            wait_all(waits);
        }
        None => {
            let Some(cb) = job.service.record_cb else {
                crash("counter results for a callback service without a record callback (CHECK failed)")
            };
            let mut records = job.records;
            // SAFETY: the tool configured this record callback; `records` outlives the call.
            unsafe {
                cb(job.data, records.as_mut_ptr(), records.len(), job.user_data, job.service.record_args.0)
            };
        }
    }
}

/// A completed dispatch's results: queued for the thread, or processed here when the thread is
/// stopped or its ring is full, with the consumer's mutex held (`sample_consumer.hpp`): a
/// record callback that starts a counting context then (the start takes that mutex) waits for
/// itself forever.
pub fn add(job: Job) {
    let (m, cv) = consumer();
    let mut c = m.lock().unwrap_or_else(|e| e.into_inner());
    if !c.valid || c.queue.len() >= RING {
        deliver(job);
        drop(c);
        return;
    }
    c.queue.push_back(job);
    c.pushed += 1;
    cv.notify_all();
}

/// A counting context started: the thread runs (again).
pub fn start() {
    let (m, cv) = consumer();
    let mut c = m.lock().unwrap_or_else(|e| e.into_inner());
    if c.valid {
        return;
    }
    c.valid = true;
    // A thread that was told to stop may still be draining: wait for it to exit.
    while c.running {
        c = cv.wait(c).unwrap_or_else(|e| e.into_inner());
    }
    c.running = true;
    std::thread::Builder::new()
        .name("rocprofiler-mock-counting".into())
        .spawn(run)
        .expect("spawn the counting results thread");
}

fn run() {
    let (m, cv) = consumer();
    let mut c = m.lock().unwrap_or_else(|e| e.into_inner());
    c.thread = Some(std::thread::current().id());
    loop {
        let may = !c.queue.is_empty() && (!c.valid || c.taken < c.allowed);
        if may {
            let job = c.queue.pop_front().expect("not empty");
            c.taken += 1;
            drop(c);
            deliver(job);
            c = m.lock().unwrap_or_else(|e| e.into_inner());
            c.done += 1;
            cv.notify_all();
            continue;
        }
        if !c.valid && c.queue.is_empty() {
            c.running = false;
            c.thread = None;
            cv.notify_all();
            return;
        }
        c = cv.wait(c).unwrap_or_else(|e| e.into_inner());
    }
}

/// A counting context stopped: the thread delivers everything queued, then exits; returns once
/// it has. Called without the state lock (delivery takes it).
pub fn stop() {
    let (m, cv) = consumer();
    let mut c = m.lock().unwrap_or_else(|e| e.into_inner());
    if c.thread == Some(std::thread::current().id()) {
        drop(c);
        crash("rocprofiler_stop_context called from the counting results thread (it waits for itself)");
    }
    c.valid = false;
    cv.notify_all();
    while c.running {
        c = cv.wait(c).unwrap_or_else(|e| e.into_inner());
    }
}

/// Forgets queued results without delivering them and stops the thread (the library's reset).
pub fn discard() {
    let (m, cv) = consumer();
    let mut c = m.lock().unwrap_or_else(|e| e.into_inner());
    c.queue.clear();
    c.valid = false;
    cv.notify_all();
    while c.running {
        c = cv.wait(c).unwrap_or_else(|e| e.into_inner());
    }
    *c = Consumer::default();
}

/// Dispatch results the thread holds and has not delivered.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_counting_pending() -> u64 {
    lock().queue.len() as u64
}

/// Plays time passing: the thread delivers every result queued so far; returns once it has.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_counting_release() {
    let (m, cv) = consumer();
    let mut c = m.lock().unwrap_or_else(|e| e.into_inner());
    let target = c.pushed;
    c.allowed = target;
    cv.notify_all();
    while c.running && c.done < target {
        c = cv.wait(c).unwrap_or_else(|e| e.into_inner());
    }
}
