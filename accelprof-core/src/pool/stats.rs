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
