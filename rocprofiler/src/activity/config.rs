//! How an activity session collects: its kinds and its buffer.

use super::BufferConfig;
use crate::ids::ActivityKinds;

/// Settings of an [`ActivitySession`](super::ActivitySession)
/// ([`Configurator::activity_session`](crate::Configurator::activity_session)).
///
/// Build with struct update syntax: `ActivityConfig { kinds, ..Default::default() }`.
#[derive(Clone, Debug, Default)]
pub struct ActivityConfig {
    /// The kinds traced into the session's buffer (configured in the window; default none).
    pub kinds: ActivityKinds,
    /// The session's buffer.
    pub buffer: BufferConfig,
}
