//! [`Correlation`]: the correlation ids of a traced call.

/// Correlation ids of a traced call or of the asynchronous work it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Correlation {
    /// The SDK's id, shared by a call's ENTER, EXIT, its buffer record, and the kernels and
    /// copies it started.
    pub internal: u64,
    /// The tool-provided external id (0 when none).
    pub external: u64,
    /// The enclosing call's internal id (0 when none).
    pub ancestor: u64,
}
