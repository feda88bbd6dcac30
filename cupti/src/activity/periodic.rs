//! The optional background flush: hands CUPTI's completed buffers over on a fixed period.

use std::thread::JoinHandle;
use std::time::Duration;

use accelprof_core::Handoff;
use crossbeam_channel::{bounded, RecvTimeoutError, Sender};
use cupti_sys::CuptiFunctions;

use super::api::Api;

/// A running periodic flush; stopped (and joined) on drop.
pub(crate) struct PeriodicFlush {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl PeriodicFlush {
    /// Every `period`: `cuptiActivityFlushAll(0)` (completed buffers only, never forced) and a poll of
    /// CUPTI's dropped-record count.
    pub(crate) fn start(
        functions: CuptiFunctions,
        api: Api,
        handoff: Handoff,
        period: Duration,
    ) -> std::io::Result<Self> {
        let (stop, stopped) = bounded::<()>(1);
        let thread = std::thread::Builder::new().name("cupti-flush".into()).spawn(move || loop {
            match stopped.recv_timeout(period) {
                Err(RecvTimeoutError::Timeout) => {
                    // SAFETY: a plain call; flag 0 = completed buffers only.
                    let _ = unsafe { functions.cuptiActivityFlushAll(0) };
                    let dropped = api.take_dropped(&functions);
                    if dropped > 0 {
                        handoff.vendor_dropped(dropped);
                    }
                }
                _ => return,
            }
        })?;
        Ok(PeriodicFlush { stop: Some(stop), thread: Some(thread) })
    }
}

impl Drop for PeriodicFlush {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
