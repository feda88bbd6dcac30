//! HSA's async-signal handler thread, as the SDK meets it: a kernel's completion (its
//! KERNEL_DISPATCH COMPLETE callbacks, buffer records and counter results) and a memory copy's
//! EXIT come on this thread, some time after the work ran, never on the thread that launched it.
//!
//! One thread for the process (HSA runs the handlers of every agent's signals on its one
//! async-event thread), first in first out, each completion held until its due time (the
//! completion latency, `mock_rocprofiler_set_completion_latency_us`, 1 ms by default).
//! `rocprofiler_stop_context` waits until the completions queued before it ran (the SDK's queue
//! sync); `mock_rocprofiler_sync` plays a wait for every completion (as a tool has none: after a
//! `hipDeviceSynchronize` the handler may still be running).

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

type Work = Box<dyn FnOnce() + Send>;

struct Completion {
    due: Instant,
    work: Work,
}

#[derive(Default)]
struct Queue {
    pending: VecDeque<Completion>,
    /// Completions queued, and completions run (or discarded), since the process started.
    queued: u64,
    done: u64,
    started: bool,
}

static LATENCY_US: AtomicU64 = AtomicU64::new(1000);

thread_local! {
    static ON_SIGNAL_THREAD: Cell<bool> = const { Cell::new(false) };
}

fn queue() -> (&'static Mutex<Queue>, &'static Condvar) {
    static Q: OnceLock<(Mutex<Queue>, Condvar)> = OnceLock::new();
    let q = Q.get_or_init(|| (Mutex::new(Queue::default()), Condvar::new()));
    (&q.0, &q.1)
}

fn lock() -> MutexGuard<'static, Queue> {
    queue().0.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether the calling thread is the async-signal thread.
pub fn on_signal_thread() -> bool {
    ON_SIGNAL_THREAD.with(Cell::get)
}

fn run() {
    ON_SIGNAL_THREAD.with(|f| f.set(true));
    let (m, cv) = queue();
    let mut q = m.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let Some(due) = q.pending.front().map(|c| c.due) else {
            q = cv.wait(q).unwrap_or_else(|e| e.into_inner());
            continue;
        };
        let now = Instant::now();
        if due > now {
            q = cv.wait_timeout(q, due - now).unwrap_or_else(|e| e.into_inner()).0;
            continue;
        }
        let c = q.pending.pop_front().expect("not empty");
        drop(q);
        (c.work)();
        q = m.lock().unwrap_or_else(|e| e.into_inner());
        q.done += 1;
        cv.notify_all();
    }
}

/// Queues `work` to run on the signal thread after the completion latency; returns its sequence
/// number (for [`wait_for`]).
pub fn submit(work: impl FnOnce() + Send + 'static) -> u64 {
    let (m, cv) = queue();
    let mut q = m.lock().unwrap_or_else(|e| e.into_inner());
    if !q.started {
        q.started = true;
        std::thread::Builder::new()
            .name("rocprofiler-mock-hsa-signal".into())
            .spawn(run)
            .expect("spawn the async-signal thread");
    }
    let due = Instant::now() + Duration::from_micros(LATENCY_US.load(Ordering::Relaxed));
    q.pending.push_back(Completion { due, work: Box::new(work) });
    q.queued += 1;
    cv.notify_all();
    q.queued
}

/// Waits until the completion `seq` (and every one before it) has run. Returns at once on the
/// signal thread itself (it would wait for itself).
pub fn wait_for(seq: u64) {
    if on_signal_thread() {
        return;
    }
    let (m, cv) = queue();
    let mut q = m.lock().unwrap_or_else(|e| e.into_inner());
    while q.done < seq {
        q = cv.wait(q).unwrap_or_else(|e| e.into_inner());
    }
}

/// Waits until every completion queued so far has run.
pub fn sync() {
    let seq = lock().queued;
    wait_for(seq);
}

/// Drops completions that have not run (the library's reset), and waits for one that is running.
pub fn discard() {
    let (m, cv) = queue();
    let mut q = m.lock().unwrap_or_else(|e| e.into_inner());
    let dropped = q.pending.len() as u64;
    q.pending.clear();
    q.done += dropped;
    cv.notify_all();
    if !on_signal_thread() {
        while q.done < q.queued {
            q = cv.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Sets how long after it ran a completion reaches the tools (microseconds; the default is 1000).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_set_completion_latency_us(micros: u64) {
    LATENCY_US.store(micros, Ordering::Relaxed);
}

/// Plays time passing until every completion queued so far (kernels, copies) has been handed
/// to the tools on the async-signal thread; returns once it has.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_sync() {
    sync();
}

/// Completions queued and not yet run.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_completions_pending() -> u64 {
    let q = lock();
    q.queued - q.done
}
