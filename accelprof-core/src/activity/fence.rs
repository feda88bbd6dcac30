//! The fence loop, written once: flush and wait until the backend's probe has seen a record past the fence
//! point, synchronizing the device again when that record may have been lost.

use std::time::{Duration, Instant};

use super::{ActivityBackend, ActivityError, FlushDepth, FlushReport, SessionConfig};
use crate::pipeline::{Handoff, Pipeline};

/// The first pause between rounds; doubled each round up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_micros(200);
/// The longest pause between rounds.
const MAX_PAUSE: Duration = Duration::from_millis(10);

/// Reads the backend's count of records dropped since the last read, adds it to the ledger, returns it.
pub(crate) fn poll_dropped<B: ActivityBackend>(backend: &B, handoff: &Handoff) -> u64 {
    let dropped = backend.take_dropped();
    if dropped > 0 {
        handoff.vendor_dropped(dropped);
    }
    dropped
}

/// The fence proper (see [`Session::fence`](super::Session::fence)).
///
/// The probe's record can itself be lost (a declined buffer, the vendor dropping it): when the vendor
/// reports dropped records, or no probe record arrived for `resync_after`, the device is synchronized
/// again. Any probe record past `mark` proves the fence, so the mark stays the same.
pub(crate) fn run<B: ActivityBackend>(
    backend: &B,
    pipeline: &Pipeline,
    handoff: &Handoff,
    config: &SessionConfig,
    begun: Instant,
) -> Result<FlushReport, B::Error> {
    let mark = backend.fence_mark()?;
    let synced = match mark {
        Some(_) => backend.synchronize()?,
        None => false,
    };
    let mut last_sync = Instant::now();
    let mut rounds = 0;
    let mut pause = FIRST_PAUSE;
    loop {
        rounds += 1;
        backend.flush(FlushDepth::All)?;
        pipeline.sync().map_err(ActivityError::from)?;
        match mark {
            Some(mark) if synced && !backend.fence_reached(mark) => {}
            _ => return Ok(FlushReport { fenced: synced, rounds, waited: begun.elapsed() }),
        }
        if begun.elapsed() >= config.fence_timeout {
            return Err(ActivityError::FenceTimeout { waited: begun.elapsed() }.into());
        }
        let dropped = poll_dropped(backend, handoff);
        if dropped > 0 || last_sync.elapsed() >= config.resync_after {
            backend.synchronize()?;
            last_sync = Instant::now();
            pause = FIRST_PAUSE;
            continue;
        }
        // Vendors hand flushed buffers back on their own threads, shortly after the flush returns.
        std::thread::sleep(pause);
        pause = (pause * 2).min(MAX_PAUSE);
    }
}
