//! [`BufferPolicy`]: what a full buffer does.

/// What a full buffer does with a new record (`rocprofiler_buffer_policy_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferPolicy {
    /// Drop the record and count it (the count reaches the consumer as dropped records).
    Discard,
    /// Flush the buffer and wait for room: nothing is lost, the producing thread may wait.
    Lossless,
}
