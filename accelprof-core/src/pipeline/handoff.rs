use std::fmt;
use std::sync::Arc;

use super::counts::add;
use super::link::Link;
use super::message::Message;
use super::Counts;
use crate::callback::sync::Ordering;
use crate::pool::{ActivityBuffer, BufferPool};

/// The vendor-thread side of a [`Pipeline`](super::Pipeline): hands completed buffers to the decode
/// thread and counts what could not be handled.
///
/// `Clone + Send + Sync`; every method returns at once: no lock, no blocking, no decoding (a channel send
/// and atomic counters). Use it from the vendor's buffer callbacks. It stays usable after the pipeline is
/// dropped: buffers completed then are recycled undecoded and counted as discarded.
#[derive(Clone)]
pub struct Handoff {
    link: Arc<Link>,
}

impl Handoff {
    pub(crate) fn new(link: Arc<Link>) -> Self {
        Handoff { link }
    }

    /// A handoff whose decode thread never runs, for the loom models: what it is given stays in
    /// the channel (counted as completed).
    #[cfg(all(test, loom))]
    pub(crate) fn unattended(pool: Arc<BufferPool>) -> Handoff {
        Handoff::new(Link::new(pool).0)
    }

    /// A buffer for the vendor's buffer request, from the pipeline's pool; `None` (counted as a declined
    /// buffer) when the pool is at its bound.
    pub fn request_buffer(&self) -> Option<ActivityBuffer> {
        let buf = self.link.pool.take();
        if buf.is_none() {
            self.declined();
        }
        buf
    }

    /// A buffer the vendor filled: its first `valid` bytes hold records. Returns at once; the decode thread
    /// walks it and gives it back to the pool.
    pub fn completed(&self, buf: ActivityBuffer, valid: usize) {
        add(&self.link.counters.buffers_completed, 1);
        if valid == 0 {
            self.link.pool.give_back(buf);
            return;
        }
        self.link.send(Message::Buffer { buf, valid });
    }

    /// For a vendor's buffer request when the pool and its overflow are out: waits for the decode thread
    /// to give a buffer back, as the pool's [`producer_wait`](BufferPool::set_producer_wait) says (not at
    /// all by default). Returns the buffer and whether it is an overflow one; `None` when the pool does
    /// not wait, when the pipeline stopped, or when no buffer came back for the whole stall time (then
    /// later calls do not wait until one does). Takes no lock: it sleeps between looks at the pool.
    pub fn wait_for_buffer(&self) -> Option<(ActivityBuffer, bool)> {
        let (link, pool) = (&self.link, &self.link.pool);
        let stall = pool.producer_wait();
        if stall.is_zero() {
            return None;
        }
        let returned = || link.buffers_returned.load(Ordering::Acquire);
        let mut progress = returned();
        if link.stalled_at.load(Ordering::Acquire) == progress + 1 {
            return None;
        }
        let mut since = std::time::Instant::now();
        let mut pause = std::time::Duration::from_micros(20);
        loop {
            if let Some(buf) = pool.take() {
                return Some((buf, false));
            }
            if let Some(buf) = pool.take_overflow() {
                return Some((buf, true));
            }
            // Buffers may be on their way (the vendor's delivery thread, the decode queue): only the
            // decode thread's progress tells whether waiting helps.
            let now = returned();
            if link.is_stopped() {
                return None;
            }
            if now != progress {
                (progress, since) = (now, std::time::Instant::now());
            } else if since.elapsed() >= stall {
                link.stalled_at.store(now + 1, Ordering::Release);
                return None;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(std::time::Duration::from_millis(1));
        }
    }

    /// Counts a vendor buffer request we could not serve (use when not going through
    /// [`request_buffer`](Self::request_buffer), which counts by itself).
    pub fn declined(&self) {
        add(&self.link.counters.buffers_declined, 1);
    }

    /// Counts `records` the vendor reports as lost.
    pub fn vendor_dropped(&self, records: u64) {
        add(&self.link.counters.vendor_dropped, records);
    }

    /// The pipeline's tallies (the same as `Pipeline::counts`; still readable after the pipeline is gone).
    pub fn counts(&self) -> Counts {
        self.link.counters.snapshot()
    }

    /// The pool this pipeline recycles buffers through.
    pub fn pool(&self) -> &Arc<BufferPool> {
        &self.link.pool
    }
}

impl fmt::Debug for Handoff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handoff").field("pool", &self.link.pool).finish_non_exhaustive()
    }
}
