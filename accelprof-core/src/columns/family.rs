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

/// One value per record family, in [`Family::ALL`] order: the per-family counts of the writers, the
/// tracer and the reports, declared once. Indexed by [`Family`] (a family this crate does not know
/// panics, as an index out of bounds does; [`get`](Self::get) does not) or by position; it
/// dereferences to its array (`iter`, `len`, slices).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct PerFamily<T>(pub [T; Family::ALL.len()]);

impl<T> PerFamily<T> {
    /// The value of `family`; `None` for a family this crate does not know.
    pub fn get(&self, family: Family) -> Option<&T> {
        self.0.get(usize::from(family.0))
    }

    /// The value of `family`, to change; `None` for a family this crate does not know.
    pub fn get_mut(&mut self, family: Family) -> Option<&mut T> {
        self.0.get_mut(usize::from(family.0))
    }

    /// Each family with its value, in [`Family::ALL`] order.
    pub fn iter_families(&self) -> impl Iterator<Item = (Family, &T)> {
        Family::ALL.into_iter().zip(self.0.iter())
    }

    /// A value per family, made by `f`.
    pub fn from_fn(mut f: impl FnMut(Family) -> T) -> Self {
        PerFamily(std::array::from_fn(|i| f(Family::ALL[i])))
    }
}

impl<T> std::ops::Deref for PerFamily<T> {
    type Target = [T; Family::ALL.len()];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<T> std::ops::DerefMut for PerFamily<T> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl<T> std::ops::Index<Family> for PerFamily<T> {
    type Output = T;
    fn index(&self, family: Family) -> &T {
        &self.0[usize::from(family.0)]
    }
}

impl<T> std::ops::IndexMut<Family> for PerFamily<T> {
    fn index_mut(&mut self, family: Family) -> &mut T {
        &mut self.0[usize::from(family.0)]
    }
}

impl<T> std::ops::Index<usize> for PerFamily<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.0[i]
    }
}

impl<T> std::ops::IndexMut<usize> for PerFamily<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i]
    }
}

impl<T> From<[T; Family::ALL.len()]> for PerFamily<T> {
    fn from(values: [T; Family::ALL.len()]) -> Self {
        PerFamily(values)
    }
}

impl<T> From<PerFamily<T>> for [T; Family::ALL.len()] {
    fn from(values: PerFamily<T>) -> Self {
        values.0
    }
}

impl<T: PartialEq> PartialEq<[T; Family::ALL.len()]> for PerFamily<T> {
    fn eq(&self, other: &[T; Family::ALL.len()]) -> bool {
        self.0 == *other
    }
}

impl<T> IntoIterator for PerFamily<T> {
    type Item = T;
    type IntoIter = std::array::IntoIter<T, { Family::ALL.len() }>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a PerFamily<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: fmt::Debug> fmt::Debug for PerFamily<T> {
    /// As its array (`[1, 0, ...]`), as the arrays it replaced printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_family_is_indexed_by_family_and_position_and_behaves_as_its_array() {
        let mut rows = PerFamily::<u64>::default();
        rows[Family::API] += 3;
        rows[0] += 1;
        *rows.get_mut(Family::COUNTER).expect("a known family") = 9;
        assert_eq!(rows, [1, 0, 0, 3, 0, 0, 0, 0, 0, 9]);
        assert_eq!(rows[Family::KERNEL], 1);
        assert_eq!(rows.get(Family(200)), None, "an unknown family");
        assert_eq!(rows.iter().sum::<u64>(), 13);
        assert_eq!(format!("{rows:?}"), "[1, 0, 0, 3, 0, 0, 0, 0, 0, 9]");
        let named: Vec<(&str, u64)> = rows.iter_families().map(|(f, n)| (f.name(), *n)).collect();
        assert_eq!(named[3], ("api", 3));
        assert_eq!(PerFamily::from_fn(|f| f.0), PerFamily([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
        let array: [u64; 10] = rows.into();
        assert_eq!(PerFamily::from(array), rows);
    }
}
