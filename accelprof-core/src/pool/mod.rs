//! The bounded, lock-free pool of activity buffers handed to the vendor library.
//!
//! The vendor asks for a buffer on its own thread ([`BufferPool::take`]), fills it, and gives it back in a
//! completion callback; we decode it on another thread and recycle it ([`BufferPool::give_back`]). Buffers
//! are fixed-size, 8-byte aligned heap blocks; at most `max_in_flight` exist at once, so a decoder that
//! falls behind makes the pool decline requests (counted) instead of growing memory without bound.

mod buffer;
mod buffer_pool;
mod error;
#[cfg(all(test, loom))]
mod loom_models;
mod stats;

pub use buffer::ActivityBuffer;
pub use buffer_pool::BufferPool;
pub use error::PoolError;
pub use stats::{OverflowStats, PoolStats};
