use std::fmt;

/// One record family (one columns struct of a [`Batch`](super::Batch)). A newtype over `u8`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Family(pub u8);

impl Family {
    /// [`KernelColumns`](super::KernelColumns).
    pub const KERNEL: Family = Family(0);
    /// [`MemcpyColumns`](super::MemcpyColumns).
    pub const MEMCPY: Family = Family(1);
    /// [`MemsetColumns`](super::MemsetColumns).
    pub const MEMSET: Family = Family(2);
    /// [`ApiColumns`](super::ApiColumns).
    pub const API: Family = Family(3);
    /// [`MarkerColumns`](super::MarkerColumns).
    pub const MARKER: Family = Family(4);
    /// [`CollectiveColumns`](super::CollectiveColumns).
    pub const COLLECTIVE: Family = Family(5);
    /// [`MemoryColumns`](super::MemoryColumns).
    pub const MEMORY: Family = Family(6);
    /// [`SyncColumns`](super::SyncColumns).
    pub const SYNC: Family = Family(7);
    /// [`ExternalCorrelationColumns`](super::ExternalCorrelationColumns).
    pub const EXTERNAL_CORRELATION: Family = Family(8);
    /// [`CounterColumns`](super::CounterColumns).
    pub const COUNTER: Family = Family(9);

    /// Every family, in order.
    pub const ALL: [Family; 10] = [
        Family::KERNEL,
        Family::MEMCPY,
        Family::MEMSET,
        Family::API,
        Family::MARKER,
        Family::COLLECTIVE,
        Family::MEMORY,
        Family::SYNC,
        Family::EXTERNAL_CORRELATION,
        Family::COUNTER,
    ];

    /// A short lowercase name (`kernel`, `memcpy`, ...), `unknown` for other values.
    pub fn name(self) -> &'static str {
        match self {
            Family::KERNEL => "kernel",
            Family::MEMCPY => "memcpy",
            Family::MEMSET => "memset",
            Family::API => "api",
            Family::MARKER => "marker",
            Family::COLLECTIVE => "collective",
            Family::MEMORY => "memory",
            Family::SYNC => "sync",
            Family::EXTERNAL_CORRELATION => "external_correlation",
            Family::COUNTER => "counter",
            _ => "unknown",
        }
    }

    /// The set holding only this family (empty for an unknown value).
    pub fn set(self) -> FamilySet {
        FamilySet::from_bits_truncate(1u16.checked_shl(u32::from(self.0)).unwrap_or(0))
    }
}

impl fmt::Debug for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Family::{}", self.name())
    }
}

impl From<Family> for FamilySet {
    fn from(family: Family) -> FamilySet {
        family.set()
    }
}

bitflags::bitflags! {
    /// A set of record families, to subscribe to some of them.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct FamilySet: u16 {
        /// Kernels.
        const KERNEL = 1 << 0;
        /// Memory copies.
        const MEMCPY = 1 << 1;
        /// Memory sets.
        const MEMSET = 1 << 2;
        /// API calls.
        const API = 1 << 3;
        /// Markers and ranges.
        const MARKER = 1 << 4;
        /// Collectives.
        const COLLECTIVE = 1 << 5;
        /// Allocations and frees.
        const MEMORY = 1 << 6;
        /// Synchronizations.
        const SYNC = 1 << 7;
        /// External correlation links.
        const EXTERNAL_CORRELATION = 1 << 8;
        /// Counter values.
        const COUNTER = 1 << 9;
        /// What runs on a device and is drawn on a GPU timeline: kernels, copies, sets.
        const GPU = Self::KERNEL.bits() | Self::MEMCPY.bits() | Self::MEMSET.bits();
    }
}

impl FamilySet {
    /// True when `family` is in the set.
    pub fn has(self, family: Family) -> bool {
        let bit = family.set();
        !bit.is_empty() && self.contains(bit)
    }

    /// The families in the set, in [`Family::ALL`] order.
    pub fn iter_families(self) -> impl Iterator<Item = Family> {
        Family::ALL.into_iter().filter(move |f| self.has(*f))
    }
}
