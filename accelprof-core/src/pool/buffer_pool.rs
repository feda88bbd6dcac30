// loom's under `--cfg loom` (the model in `loom_models`).
use crate::callback::sync::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use crossbeam_queue::ArrayQueue;

use super::{ActivityBuffer, OverflowStats, PoolError, PoolStats};

/// A bounded, lock-free pool of equally sized [`ActivityBuffer`]s.
///
/// `take` and `give_back` never block and never take a lock (a `crossbeam_queue::ArrayQueue` of free
/// buffers plus atomic counters), so they are safe to call from a vendor's buffer callbacks. At most
/// `max_in_flight` buffers exist at once: when all of them are handed out, `take` returns `None` and counts a
/// declined request; the caller then tells the vendor it has no buffer (the vendor drops and counts records).
///
/// A pool made with [`try_with_overflow`](Self::try_with_overflow) also lends up to `max_overflow` extra
/// buffers beyond that bound ([`take_overflow`](Self::take_overflow)), for a lossless policy: each one counts
/// against `max_overflow` from the moment it is handed out until it is given back (or discarded), wherever
/// it is in between (with the vendor, or waiting for the decode thread), so the bound holds for the memory.
/// Overflow buffers are one word larger than the pool's own, which is how the pool tells them apart.
pub struct BufferPool {
    free: ArrayQueue<ActivityBuffer>,
    buffer_size: usize,
    max_in_flight: usize,
    allocated: AtomicUsize,
    declined: AtomicU64,
    max_overflow: usize,
    overflow_out: AtomicUsize,
    overflow_total: AtomicU64,
    /// How long a producer may wait for the decode thread to return a buffer, in ns (0: never waits).
    producer_wait_ns: AtomicU64,
}

impl BufferPool {
    /// The largest buffer a pool hands out: 1 GiB (vendors advise 1 to 10 MB).
    pub const MAX_BUFFER_SIZE: usize = 1 << 30;
    /// The smallest buffer [`try_new`](Self::try_new) makes: 512 bytes. A vendor writes whole records
    /// only (a CUDA kernel record is 216 bytes), so a smaller buffer would lose most or all of them.
    pub const MIN_BUFFER_SIZE: usize = 512;
    /// The largest bound on buffers in flight: 65,536 (the free list is allocated up front, one slot per
    /// buffer of the bound).
    pub const MAX_IN_FLIGHT: usize = 1 << 16;

    /// A pool of buffers of `buffer_size` bytes (rounded up to a multiple of 8, at least 8), of which at most
    /// `max_in_flight` (at least 1) exist at once. Nothing is allocated until the first `take` (or
    /// [`warm`](Self::warm)).
    ///
    /// Sizes above [`MAX_BUFFER_SIZE`](Self::MAX_BUFFER_SIZE) and [`MAX_IN_FLIGHT`](Self::MAX_IN_FLIGHT) are
    /// lowered to them; [`try_new`](Self::try_new) refuses them instead.
    pub fn new(buffer_size: usize, max_in_flight: usize) -> Arc<BufferPool> {
        Self::build(buffer_size.min(Self::MAX_BUFFER_SIZE), max_in_flight.min(Self::MAX_IN_FLIGHT), 0)
    }

    /// As [`new`](Self::new), but a size above the limits, or a buffer below
    /// [`MIN_BUFFER_SIZE`](Self::MIN_BUFFER_SIZE), is a [`PoolError`] (nothing is allocated).
    pub fn try_new(buffer_size: usize, max_in_flight: usize) -> Result<Arc<BufferPool>, PoolError> {
        Self::try_with_overflow(buffer_size, max_in_flight, 0)
    }

    /// As [`try_new`](Self::try_new), and up to `max_overflow` extra buffers may be lent beyond the bound
    /// at once ([`take_overflow`](Self::take_overflow)); `max_overflow` above
    /// [`MAX_IN_FLIGHT`](Self::MAX_IN_FLIGHT) is a [`PoolError`] too.
    pub fn try_with_overflow(
        buffer_size: usize,
        max_in_flight: usize,
        max_overflow: usize,
    ) -> Result<Arc<BufferPool>, PoolError> {
        if buffer_size > Self::MAX_BUFFER_SIZE {
            return Err(PoolError::BufferTooLarge { requested: buffer_size, limit: Self::MAX_BUFFER_SIZE });
        }
        if buffer_size < Self::MIN_BUFFER_SIZE {
            return Err(PoolError::BufferTooSmall { requested: buffer_size, limit: Self::MIN_BUFFER_SIZE });
        }
        for requested in [max_in_flight, max_overflow] {
            if requested > Self::MAX_IN_FLIGHT {
                return Err(PoolError::TooManyBuffers { requested, limit: Self::MAX_IN_FLIGHT });
            }
        }
        Ok(Self::build(buffer_size, max_in_flight, max_overflow))
    }

    /// Within the limits: the rounding below cannot overflow.
    fn build(buffer_size: usize, max_in_flight: usize, max_overflow: usize) -> Arc<BufferPool> {
        let buffer_size = buffer_size.max(8).div_ceil(8) * 8;
        let max_in_flight = max_in_flight.max(1);
        Arc::new(BufferPool {
            free: ArrayQueue::new(max_in_flight),
            buffer_size,
            max_in_flight,
            allocated: AtomicUsize::new(0),
            declined: AtomicU64::new(0),
            max_overflow,
            overflow_out: AtomicUsize::new(0),
            overflow_total: AtomicU64::new(0),
            producer_wait_ns: AtomicU64::new(0),
        })
    }

    /// Makes a vendor's buffer request wait when every buffer (overflow ones included) is out, for as long
    /// as the decode thread keeps returning buffers: the request is declined only once `stall` passed
    /// without any buffer coming back (a stalled consumer), and later requests do not wait again until one
    /// does. `Duration::ZERO` (the default): never wait. This is what makes a lossless policy lossless: the
    /// producing thread is slowed to the decode thread's pace instead of its records being dropped, and
    /// memory stays within the pool's bound plus its overflow.
    pub fn set_producer_wait(&self, stall: std::time::Duration) {
        let ns = u64::try_from(stall.as_nanos()).unwrap_or(u64::MAX);
        self.producer_wait_ns.store(ns, Ordering::Relaxed);
    }

    /// See [`set_producer_wait`](Self::set_producer_wait).
    pub fn producer_wait(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.producer_wait_ns.load(Ordering::Relaxed))
    }

    /// The size in bytes of every buffer of this pool.
    pub fn buffer_size(&self) -> usize {
        self.buffer_size
    }

    /// The most buffers that exist at once (not counting overflow buffers).
    pub fn max_in_flight(&self) -> usize {
        self.max_in_flight
    }

    /// The most overflow buffers lent at once (0: none, the pool's bound is the whole bound).
    pub fn max_overflow(&self) -> usize {
        self.max_overflow
    }

    /// The size in bytes of an overflow buffer: one word more than the pool's own buffers.
    pub fn overflow_size(&self) -> usize {
        self.buffer_size + 8
    }

    /// Allocates up to `count` buffers now (within the bound) so that later `take`s never allocate.
    /// Returns how many were added.
    pub fn warm(&self, count: usize) -> usize {
        let mut added = 0;
        while added < count && self.reserve_slot() {
            let Some(buf) = ActivityBuffer::try_zeroed(self.buffer_size) else {
                self.release_slot();
                break;
            };
            if self.free.push(buf).is_err() {
                self.release_slot();
                break;
            }
            added += 1;
        }
        added
    }

    /// A free buffer, or a new one while fewer than `max_in_flight` exist; `None` (counted as declined)
    /// when all of them are handed out, or when the allocator refuses a new one. Never blocks, never
    /// aborts.
    pub fn take(&self) -> Option<ActivityBuffer> {
        if let Some(buf) = self.free.pop() {
            return Some(buf);
        }
        if self.reserve_slot() {
            if let Some(buf) = ActivityBuffer::try_zeroed(self.buffer_size) {
                return Some(buf);
            }
            self.release_slot();
        }
        // A buffer may have come back between the first pop and the bound check.
        if let Some(buf) = self.free.pop() {
            return Some(buf);
        }
        self.declined.fetch_add(1, Ordering::Relaxed);
        None
    }

    /// An extra buffer beyond the pool's bound, while fewer than `max_overflow` are lent; `None` (not
    /// counted as declined: [`take`](Self::take) counted that) otherwise, or when the allocator refuses.
    /// It counts against `max_overflow` until it is given back or discarded. Never blocks, never aborts.
    pub fn take_overflow(&self) -> Option<ActivityBuffer> {
        let reserved = self
            .overflow_out
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < self.max_overflow).then_some(n + 1))
            .is_ok();
        if !reserved {
            return None;
        }
        match ActivityBuffer::try_zeroed(self.overflow_size()) {
            Some(buf) => {
                self.overflow_total.fetch_add(1, Ordering::Relaxed);
                Some(buf)
            }
            None => {
                self.release_overflow();
                None
            }
        }
    }

    /// Returns a buffer to the pool for reuse. Never blocks.
    ///
    /// An overflow buffer is freed (and no longer counts against `max_overflow`); a buffer of another
    /// size (not one of ours) is freed and not counted.
    pub fn give_back(&self, buf: ActivityBuffer) {
        if buf.len() != self.buffer_size {
            if buf.len() == self.overflow_size() {
                self.release_overflow();
            }
            return;
        }
        if let Err(buf) = self.free.push(buf) {
            // More buffers came back than the bound allows: one was not ours. Free it.
            drop(buf);
            self.release_slot();
        }
    }

    /// Frees a buffer of this pool instead of recycling it, releasing its slot in the bound.
    pub fn discard(&self, buf: ActivityBuffer) {
        if buf.len() == self.buffer_size {
            self.release_slot();
        } else if buf.len() == self.overflow_size() {
            self.release_overflow();
        }
        drop(buf);
    }

    /// The overflow buffers: lent now, lent so far.
    pub fn overflow_stats(&self) -> OverflowStats {
        OverflowStats {
            in_flight: self.overflow_out.load(Ordering::Acquire),
            total: self.overflow_total.load(Ordering::Relaxed),
        }
    }

    /// The pool's counters now (see [`PoolStats`] on consistency).
    pub fn stats(&self) -> PoolStats {
        let allocated = self.allocated.load(Ordering::Acquire);
        let free = self.free.len();
        PoolStats {
            allocated,
            free,
            in_flight: allocated.saturating_sub(free),
            declined: self.declined.load(Ordering::Relaxed),
        }
    }

    /// Claims one allocation slot under the bound.
    fn reserve_slot(&self) -> bool {
        self.allocated
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < self.max_in_flight).then_some(n + 1))
            .is_ok()
    }

    fn release_overflow(&self) {
        let _ = self.overflow_out.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
    }

    fn release_slot(&self) {
        let _ = self.allocated.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
    }
}

impl std::fmt::Debug for BufferPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BufferPool")
            .field("buffer_size", &self.buffer_size)
            .field("max_in_flight", &self.max_in_flight)
            .field("max_overflow", &self.max_overflow)
            .field("stats", &self.stats())
            .field("overflow", &self.overflow_stats())
            .finish()
    }
}
