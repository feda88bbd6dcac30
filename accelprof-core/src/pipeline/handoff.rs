use std::fmt;
use std::sync::Arc;

use super::counts::add;
use super::link::Link;
use super::message::Message;
use super::Counts;
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
