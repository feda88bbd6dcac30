/// Why a [`BufferPool`](super::BufferPool) could not be made with the sizes asked for.
///
/// The limits exist so that a setting such as "1 PiB per buffer" or "2^40 buffers" is refused with this
/// error instead of overflowing a size computation or aborting the process on allocation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PoolError {
    /// The buffer size is above [`BufferPool::MAX_BUFFER_SIZE`](super::BufferPool::MAX_BUFFER_SIZE).
    #[error("a buffer of {requested} bytes is above the pool's limit of {limit} bytes per buffer")]
    BufferTooLarge {
        /// The size asked for.
        requested: usize,
        /// The limit.
        limit: usize,
    },
    /// The buffer size is below [`BufferPool::MIN_BUFFER_SIZE`](super::BufferPool::MIN_BUFFER_SIZE):
    /// the vendor's records would not fit (every one would be dropped).
    #[error(
        "a buffer of {requested} bytes is below the pool's minimum of {limit} bytes per buffer (the vendor's \
         records would not fit)"
    )]
    BufferTooSmall {
        /// The size asked for.
        requested: usize,
        /// The minimum.
        limit: usize,
    },
    /// The bound on buffers in flight is above [`BufferPool::MAX_IN_FLIGHT`](super::BufferPool::MAX_IN_FLIGHT).
    #[error("{requested} buffers in flight is above the pool's limit of {limit}")]
    TooManyBuffers {
        /// The bound asked for.
        requested: usize,
        /// The limit.
        limit: usize,
    },
}
