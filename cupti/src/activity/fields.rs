//! Field selection for CUPTI's user-defined records (13.3 and later): which fields of each kind CUPTI
//! writes. Consumers select the fields they read; the session enables the union in CUPTI, and the decoder
//! fills only those columns (the others read 0).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use cupti_sys::v13_5 as sys;

use super::ActivityKind;

/// Fields per activity kind, by the field ids of CUPTI's headers (`CUpti_ActivityKernelFieldIds`, ...).
/// The kind field (id 0) of every kind is always included.
///
/// ```
/// use cupti::activity::{ActivityKind, FieldSelection};
/// use cupti::sys::v13_5::CUpti_ActivityKernelFieldIds as K;
///
/// // A consumer that only needs kernel names and times.
/// let mine = FieldSelection::empty()
///     .with(ActivityKind::CONCURRENT_KERNEL, [K::KERNEL_FIELD_START.0, K::KERNEL_FIELD_END.0, K::KERNEL_FIELD_NAME.0])
///     .unwrap();
/// assert_eq!(mine.fields(ActivityKind::CONCURRENT_KERNEL).len(), 4, "the kind field is always in");
/// assert!(FieldSelection::rows().contains(&mine));
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct FieldSelection {
    kinds: BTreeMap<u32, BTreeSet<u32>>,
}

/// The first field of every kind's user-defined record (`*_FIELD_KIND`).
pub(crate) const KIND_FIELD: u32 = 0;

/// `(kind, number of field ids of the 13.5 headers)` for the kinds whose user-defined records the
/// decoder reads.
const DECODABLE: [(ActivityKind, u32); 9] = [
    (ActivityKind::KERNEL, sys::CUpti_ActivityKernelFieldIds::KERNEL_FIELD_MAX.0),
    (ActivityKind::CONCURRENT_KERNEL, sys::CUpti_ActivityKernelFieldIds::KERNEL_FIELD_MAX.0),
    (ActivityKind::MEMCPY, sys::CUpti_ActivityMemcpyFieldIds::MEMCPY_FIELD_MAX.0),
    (ActivityKind::MEMSET, sys::CUpti_ActivityMemsetFieldIds::MEMSET_FIELD_MAX.0),
    (ActivityKind::RUNTIME, sys::CUpti_ActivityApiFieldIds::API_FIELD_MAX.0),
    (ActivityKind::DRIVER, sys::CUpti_ActivityApiFieldIds::API_FIELD_MAX.0),
    (ActivityKind::SYNCHRONIZATION, sys::CUpti_ActivitySynchronizationFieldIds::SYNCHRONIZATION_FIELD_MAX.0),
    (
        ActivityKind::EXTERNAL_CORRELATION,
        sys::CUpti_ActivityExternalCorrelationFieldIds::EXTERNAL_CORRELATION_FIELD_MAX.0,
    ),
    (ActivityKind::MEMORY, sys::CUpti_ActivityMemoryFieldIds::MEMORY_FIELD_MAX.0),
];

/// Whether the decoder reads user-defined records of `kind` (the kinds of a timeline: kernels, copies,
/// sets, runtime and driver calls, synchronizations, external correlations, memory). A session that
/// collects any other kind uses the fixed record layouts.
pub fn is_user_defined_decodable(kind: ActivityKind) -> bool {
    DECODABLE.iter().any(|(k, _)| *k == kind)
}

fn field_count(kind: ActivityKind) -> Option<u32> {
    DECODABLE.iter().find(|(k, _)| *k == kind).map(|(_, n)| *n)
}

/// A field id or kind a [`FieldSelection`] cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FieldError {
    /// The decoder does not read user-defined records of this kind.
    #[error("{0:?}: the decoder reads no user-defined records of this kind")]
    Kind(ActivityKind),
    /// Not a field id of this kind in the headers.
    #[error("{kind:?}: {field} is not a field id of this kind (the headers define 0..{max})")]
    Field {
        /// The kind.
        kind: ActivityKind,
        /// The id given.
        field: u32,
        /// The number of ids the headers define for the kind.
        max: u32,
    },
}

impl FieldSelection {
    /// No field (but each kind's kind field once the kind is added).
    pub fn empty() -> Self {
        FieldSelection::default()
    }

    /// Every field the decoder turns into a column, for every kind it decodes: what a session selects by
    /// default, so every row is complete.
    pub fn rows() -> Self {
        let mut s = FieldSelection::empty();
        for (kind, _) in DECODABLE {
            s.kinds.insert(kind.0, super::super::decode::udr_fields_read(kind).iter().copied().collect());
        }
        s
    }

    /// Adds fields `ids` of `kind` (and its kind field). Ids are checked against the headers: an id that
    /// is not one of the kind's is an error, so no unchecked value reaches CUPTI.
    pub fn with(
        mut self,
        kind: ActivityKind,
        ids: impl IntoIterator<Item = u32>,
    ) -> Result<Self, FieldError> {
        self.insert(kind, ids)?;
        Ok(self)
    }

    /// As [`with`](Self::with), in place.
    pub fn insert(
        &mut self,
        kind: ActivityKind,
        ids: impl IntoIterator<Item = u32>,
    ) -> Result<(), FieldError> {
        let max = field_count(kind).ok_or(FieldError::Kind(kind))?;
        let mut set: BTreeSet<u32> = [KIND_FIELD].into();
        for field in ids {
            if field >= max {
                return Err(FieldError::Field { kind, field, max });
            }
            set.insert(field);
        }
        self.kinds.entry(kind.0).or_default().extend(set);
        Ok(())
    }

    /// Adds every field of `other`.
    pub fn union_with(&mut self, other: &FieldSelection) {
        for (kind, ids) in &other.kinds {
            self.kinds.entry(*kind).or_default().extend(ids.iter().copied());
        }
    }

    /// Whether every field of `other` is selected here.
    pub fn contains(&self, other: &FieldSelection) -> bool {
        other.kinds.iter().all(|(k, ids)| self.kinds.get(k).is_some_and(|mine| mine.is_superset(ids)))
    }

    /// The field ids selected for `kind`, kind field first (the order CUPTI requires), then ascending.
    pub fn fields(&self, kind: ActivityKind) -> Vec<u32> {
        let mut out = vec![KIND_FIELD];
        if let Some(ids) = self.kinds.get(&kind.0) {
            out.extend(ids.iter().copied().filter(|&f| f != KIND_FIELD));
        }
        out
    }

    /// Whether field `id` of `kind` is selected (the kind field always is).
    pub fn has(&self, kind: ActivityKind, id: u32) -> bool {
        id == KIND_FIELD || self.kinds.get(&kind.0).is_some_and(|s| s.contains(&id))
    }
}

impl fmt::Debug for FieldSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.kinds.iter().map(|(k, ids)| (ActivityKind(*k), ids))).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections_hold_checked_ids_and_unite() {
        use sys::CUpti_ActivityApiFieldIds as A;
        let a = FieldSelection::empty().with(ActivityKind::RUNTIME, [A::API_FIELD_START.0]).unwrap();
        let b = FieldSelection::empty().with(ActivityKind::RUNTIME, [A::API_FIELD_END.0]).unwrap();
        let mut u = a.clone();
        u.union_with(&b);
        assert_eq!(u.fields(ActivityKind::RUNTIME), [0, A::API_FIELD_START.0, A::API_FIELD_END.0]);
        assert!(u.contains(&a) && u.contains(&b) && !a.contains(&b));
        assert!(u.has(ActivityKind::DRIVER, 0) && !u.has(ActivityKind::DRIVER, A::API_FIELD_START.0));
        assert_eq!(
            FieldSelection::empty().with(ActivityKind::RUNTIME, [A::API_FIELD_MAX.0]),
            Err(FieldError::Field { kind: ActivityKind::RUNTIME, field: 8, max: 8 })
        );
        assert_eq!(
            FieldSelection::empty().with(ActivityKind::MARKER, []),
            Err(FieldError::Kind(ActivityKind::MARKER))
        );
        let rows = FieldSelection::rows();
        assert!(rows.contains(&u));
        for (kind, _) in DECODABLE {
            assert!(rows.fields(kind).len() > 2, "{kind:?}");
            assert_eq!(rows.fields(kind)[0], KIND_FIELD);
        }
    }
}
