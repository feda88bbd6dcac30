//! [`ActivityKinds`]: a set of MSPTI activity kinds.

use std::fmt;

use crate::ids::ActivityKind;

/// A set of [`ActivityKind`]s (what an [`ActivityConfig`](super::ActivityConfig) collects).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ActivityKinds(u32);

impl ActivityKinds {
    /// No kind.
    pub const fn empty() -> Self {
        ActivityKinds(0)
    }

    /// This set and `kind`.
    pub fn with(mut self, kind: ActivityKind) -> Self {
        self.insert(kind);
        self
    }

    /// Adds `kind`; whether it was not there.
    pub fn insert(&mut self, kind: ActivityKind) -> bool {
        let bit = Self::bit(kind);
        let new = self.0 & bit == 0;
        self.0 |= bit;
        new
    }

    /// Removes `kind`.
    pub fn remove(&mut self, kind: ActivityKind) {
        self.0 &= !Self::bit(kind);
    }

    /// Whether `kind` is in the set.
    pub fn contains(self, kind: ActivityKind) -> bool {
        self.0 & Self::bit(kind) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds, in numeric order.
    pub fn iter(self) -> impl Iterator<Item = ActivityKind> {
        ActivityKind::ALL.iter().copied().filter(move |k| self.contains(*k))
    }

    fn bit(kind: ActivityKind) -> u32 {
        // An `ActivityKind` is one of 0..=12 by construction.
        1 << (u32::from(kind) & 31)
    }
}

impl FromIterator<ActivityKind> for ActivityKinds {
    fn from_iter<I: IntoIterator<Item = ActivityKind>>(iter: I) -> Self {
        iter.into_iter().fold(ActivityKinds::empty(), ActivityKinds::with)
    }
}

impl fmt::Debug for ActivityKinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}
