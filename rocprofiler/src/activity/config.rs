//! How an activity session collects: its kinds and its buffer.

use super::BufferConfig;
use crate::ids::ActivityKinds;

/// Settings of an [`ActivitySession`](super::ActivitySession)
/// ([`Configurator::activity_session`](crate::Configurator::activity_session)).
///
/// Build with struct update syntax: `ActivityConfig { kinds, ..Default::default() }`.
#[derive(Clone, Debug)]
pub struct ActivityConfig {
    /// The kinds traced into the session's buffer (configured in the window; default
    /// [`ActivityKinds::timeline`]). An empty set is refused:
    /// [`ActivityError::NoKinds`](accelprof_core::activity::ActivityError::NoKinds).
    pub kinds: ActivityKinds,
    /// The session's buffer.
    pub buffer: BufferConfig,
}

impl Default for ActivityConfig {
    /// The timeline kinds ([`ActivityKinds::timeline`], as `cupti` and `mspti` default to), the
    /// default buffer.
    fn default() -> Self {
        ActivityConfig { kinds: ActivityKinds::timeline(), buffer: BufferConfig::default() }
    }
}
