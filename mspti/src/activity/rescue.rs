//! Getting full buffers back when MSPTI's activity manager thread is gone.
//!
//! MSPTI hands full buffers back from a manager thread that `msptiActivityRegisterCallbacks`
//! starts once per process, before setting the flag that thread checks: when the thread runs
//! first it sees the flag false and exits (7 runs in 40 with the real library). From then on full
//! buffers stay queued inside MSPTI, and `msptiActivityFlushPeriod` does nothing, until
//! `msptiActivityFlushAll`; the bounded pool runs dry meanwhile and records are lost. This thread
//! watches the buffers MSPTI holds: when more than the one it fills stay with it and none comes
//! back for two checks in a row, it calls `msptiActivityFlushAll` (which completes them on this
//! thread). With a live manager full buffers come back within milliseconds and it never acts.

use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use mspti_sys::msptiResult;

use super::buffers::ROUTE;

/// `msptiActivityFlushAll`, resolved from a library that is never unloaded.
pub(crate) type FlushAll = unsafe extern "C" fn(u32) -> msptiResult;

/// The watching thread; stopped (and joined) by [`Rescue::stop`] or on drop.
#[derive(Debug)]
pub(crate) struct Rescue {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Rescue {
    /// Starts checking every `every` (the buffers MSPTI holds and has handed back, from the live session's
    /// route); each flush it makes is counted in `rescues`.
    pub(crate) fn start(
        flush_all: FlushAll,
        rescues: Arc<AtomicU64>,
        every: Duration,
    ) -> std::io::Result<Rescue> {
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let s = Arc::clone(&stop);
        let thread = std::thread::Builder::new().name("mspti-rescue".into()).spawn(move || {
            let (stopped, wake) = &*s;
            let mut last_returned = ROUTE.flow().map_or(0, |f| f.returned);
            let mut stuck = 0;
            let mut guard = stopped.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                guard = wake.wait_timeout(guard, every).unwrap_or_else(|e| e.into_inner()).0;
                if *guard {
                    return;
                }
                let flow = ROUTE.flow().unwrap_or_default();
                let (held, returned) = (flow.held, flow.returned);
                stuck = if held >= 2 && returned == last_returned { stuck + 1 } else { 0 };
                last_returned = returned;
                if stuck >= 2 {
                    drop(guard);
                    // SAFETY: MSPTI's FlushAll, called from a thread of ours (never from one of
                    // its callbacks, whose lock it takes); the flag is unused.
                    unsafe { flush_all(1) };
                    rescues.fetch_add(1, SeqCst);
                    stuck = 0;
                    guard = stopped.lock().unwrap_or_else(|e| e.into_inner());
                }
            }
        })?;
        Ok(Rescue { stop, thread: Some(thread) })
    }

    /// Stops the thread and waits for it.
    pub(crate) fn stop(&mut self) {
        let (stopped, wake) = &*self.stop;
        *stopped.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Rescue {
    fn drop(&mut self) {
        self.stop();
    }
}
