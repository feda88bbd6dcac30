/// A snapshot of a [`BufferPool`](super::BufferPool)'s counters.
///
/// The fields are read one after the other while other threads may be taking and giving back buffers,
/// so a snapshot taken during activity is approximate; a snapshot of a quiet pool is exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Buffers that exist now (free or handed out); never more than the pool's `max_in_flight`.
    pub allocated: usize,
    /// Buffers waiting in the pool for the next `take()`.
    pub free: usize,
    /// Buffers handed out and not yet given back (`allocated - free`).
    pub in_flight: usize,
    /// `take()` calls that returned `None` because `max_in_flight` buffers were already handed out.
    pub declined: u64,
}

/// A snapshot of a [`BufferPool`](super::BufferPool)'s overflow buffers (lent beyond its bound under a
/// lossless policy, see [`BufferPool::take_overflow`](super::BufferPool::take_overflow)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OverflowStats {
    /// Overflow buffers lent and not yet given back (never more than `max_overflow`).
    pub in_flight: usize,
    /// Overflow buffers lent so far.
    pub total: u64,
}
