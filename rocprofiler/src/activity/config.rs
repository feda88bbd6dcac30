//! How an activity session collects: its kinds and its buffer.

use super::BufferConfig;
use crate::ids::BufferKind;

/// A rocprofiler activity kind: a buffer tracing kind (`rocprofiler_buffer_tracing_kind_t`).
pub type ActivityKind = BufferKind;

/// A set of [`ActivityKind`]s, in the order they were added.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ActivityKinds(Vec<ActivityKind>);

impl ActivityKinds {
    /// No kind.
    pub const fn empty() -> Self {
        ActivityKinds(Vec::new())
    }

    /// This set and `kind`.
    pub fn with(mut self, kind: ActivityKind) -> Self {
        self.insert(kind);
        self
    }

    /// Adds `kind`; whether it was not there.
    pub fn insert(&mut self, kind: ActivityKind) -> bool {
        let new = !self.contains(kind);
        if new {
            self.0.push(kind);
        }
        new
    }

    /// Removes `kind`.
    pub fn remove(&mut self, kind: ActivityKind) {
        self.0.retain(|k| *k != kind);
    }

    /// Whether `kind` is in the set.
    pub fn contains(&self, kind: ActivityKind) -> bool {
        self.0.contains(&kind)
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The kinds, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = ActivityKind> + '_ {
        self.0.iter().copied()
    }
}

impl FromIterator<ActivityKind> for ActivityKinds {
    fn from_iter<I: IntoIterator<Item = ActivityKind>>(iter: I) -> Self {
        iter.into_iter().fold(ActivityKinds::empty(), ActivityKinds::with)
    }
}

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
