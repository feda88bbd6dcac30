//! The mock's own delivery thread: CUPTI hands completed buffers back on a thread of its own,
//! never on the application thread that filled them, and in fill order.

use std::cell::Cell;
use std::sync::mpsc::{self, Sender, SyncSender};
use std::sync::Mutex;

use super::buffers::{Buffer, Completion};
use crate::stats;
use crate::sys::v13_5::types as v135;

pub enum Job {
    /// Call buffer-completed for each buffer, in order.
    Deliver(Vec<Buffer>),
    /// Signal once every earlier job is done.
    Barrier(SyncSender<()>),
}

static SENDER: Mutex<Option<Sender<Job>>> = Mutex::new(None);

thread_local! {
    static IS_WORKER: Cell<bool> = const { Cell::new(false) };
}

/// Whether the caller is the delivery thread (a completion callback calling back into CUPTI).
pub fn on_worker() -> bool {
    IS_WORKER.with(Cell::get)
}

/// Queues a job, starting the thread on first use.
pub fn send(job: Job) {
    let mut sender = SENDER.lock().unwrap_or_else(|e| e.into_inner());
    let tx = sender.get_or_insert_with(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("cupti-mock-worker".into())
            .spawn(move || {
                IS_WORKER.with(|w| w.set(true));
                for job in rx {
                    run(job);
                }
            })
            .expect("spawn the CUPTI mock delivery thread");
        tx
    });
    // The receiver lives as long as the process: sending cannot fail.
    let _ = tx.send(job);
}

fn run(job: Job) {
    match job {
        Job::Deliver(buffers) => {
            for b in buffers {
                // A timestamp callback registered: the buffer completes on its clock (fixed records;
                // user-defined-record subscribers cannot register one).
                let fixed = matches!(&b.complete, Completion::V1 | Completion::V2(_, None));
                if let (true, Some(offset)) = (fixed, crate::clock::callback_offset()) {
                    // SAFETY: `b.used` bytes of records the mock wrote; it owns the buffer until the call below.
                    unsafe {
                        super::records::restamp(b.ptr, b.used, offset, crate::clock::callback_registered_at())
                    };
                }
                match b.complete {
                    // The V1 callbacks registered now, whoever's request callback gave the buffer (CUPTI's
                    // one process-wide pair: the last registration wins).
                    Completion::V1 => match super::buffers::v1_complete() {
                        // SAFETY: a client registered this completion callback; the buffer came from a
                        // request callback of the V1 API, and ownership passes to the callee here.
                        Some(complete) => unsafe { complete(std::ptr::null_mut(), 0, b.ptr, b.size, b.used) },
                        // Only `mock_cupti_reset` forgets the V1 callbacks (after waiting for deliveries).
                        None => continue,
                    },
                    Completion::V2(complete, layouts) => {
                        let mut plain = v135::CUpti_BufferCallbackCompleteInfo {
                            structSize: std::mem::size_of::<v135::CUpti_BufferCallbackCompleteInfo>(),
                            threadId: 0,
                            ppRecordLayouts: std::ptr::null_mut(),
                            numRecordLayouts: 0,
                        };
                        let mut layouts = layouts;
                        let info = match layouts.as_mut() {
                            Some(l) => &mut *l.info as *mut _,
                            None => &mut plain as *mut _,
                        };
                        // SAFETY: as above; `info` and the layouts it points to live until the call
                        // returns, and are freed right after it (they are valid only for the call).
                        unsafe { complete(b.ptr, b.size, b.used, info) };
                        drop(layouts);
                    }
                }
                stats::add(&stats::BUFFERS_COMPLETED, 1);
            }
        }
        Job::Barrier(done) => {
            let _ = done.send(());
        }
    }
}

/// Waits until every job queued so far has run. On the delivery thread itself it returns at
/// once (it cannot wait for itself).
pub fn wait_idle() {
    if on_worker() {
        return;
    }
    let (tx, rx) = mpsc::sync_channel(1);
    send(Job::Barrier(tx));
    let _ = rx.recv();
}
