//! Which activity records a session collects.

use std::fmt;

use accelprof_core::FamilySet;
use cupti_sys::CUpti_ActivityKind as K;

/// A CUPTI activity kind (`CUpti_ActivityKind`). A newtype: any value is representable, including kinds
/// newer than this crate; the constants are the kinds a session knows how to decode.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct ActivityKind(pub u32);

impl ActivityKind {
    /// Memory copies (`CUPTI_ACTIVITY_KIND_MEMCPY`).
    pub const MEMCPY: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_MEMCPY.0);
    /// Memory sets (`CUPTI_ACTIVITY_KIND_MEMSET`).
    pub const MEMSET: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_MEMSET.0);
    /// Kernels, serialized: enabling it makes kernels run one at a time (`CUPTI_ACTIVITY_KIND_KERNEL`).
    /// Prefer [`CONCURRENT_KERNEL`](Self::CONCURRENT_KERNEL).
    pub const KERNEL: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_KERNEL.0);
    /// CUDA driver API calls (`CUPTI_ACTIVITY_KIND_DRIVER`).
    pub const DRIVER: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_DRIVER.0);
    /// CUDA runtime API calls (`CUPTI_ACTIVITY_KIND_RUNTIME`).
    pub const RUNTIME: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_RUNTIME.0);
    /// Kernels, running concurrently as they would untraced (`CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL`).
    pub const CONCURRENT_KERNEL: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL.0);
    /// NVTX markers and ranges (`CUPTI_ACTIVITY_KIND_MARKER`). CUPTI sees NVTX calls only when it is the
    /// process's NVTX tool: set `NVTX_INJECTION64_PATH` to the libcupti file before the program starts.
    pub const MARKER: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_MARKER.0);
    /// CUPTI's own overhead: buffer flushes, instrumentation, ... (`CUPTI_ACTIVITY_KIND_OVERHEAD`).
    pub const OVERHEAD: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_OVERHEAD.0);
    /// `cudaEventRecord`s (`CUPTI_ACTIVITY_KIND_CUDA_EVENT`), with device timestamps where the library
    /// offers them (13.0+).
    pub const CUDA_EVENT: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_CUDA_EVENT.0);
    /// Stream, event and context synchronizations (`CUPTI_ACTIVITY_KIND_SYNCHRONIZATION`).
    pub const SYNCHRONIZATION: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_SYNCHRONIZATION.0);
    /// Links from ids a framework pushed (`push_external_correlation`) to CUPTI correlation ids
    /// (`CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION`).
    pub const EXTERNAL_CORRELATION: ActivityKind =
        ActivityKind(K::CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION.0);
    /// Device memory allocations and frees (`CUPTI_ACTIVITY_KIND_MEMORY2`).
    pub const MEMORY: ActivityKind = ActivityKind(K::CUPTI_ACTIVITY_KIND_MEMORY2.0);

    /// Every kind a session decodes, in CUPTI's order.
    pub const DECODED: [ActivityKind; 12] = [
        ActivityKind::MEMCPY,
        ActivityKind::MEMSET,
        ActivityKind::KERNEL,
        ActivityKind::DRIVER,
        ActivityKind::RUNTIME,
        ActivityKind::CONCURRENT_KERNEL,
        ActivityKind::MARKER,
        ActivityKind::OVERHEAD,
        ActivityKind::CUDA_EVENT,
        ActivityKind::SYNCHRONIZATION,
        ActivityKind::EXTERNAL_CORRELATION,
        ActivityKind::MEMORY,
    ];

    /// The short name used in configuration ([`ActivityKinds::parse`]) and reports; `None` for other values.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            ActivityKind::MEMCPY => "memcpy",
            ActivityKind::MEMSET => "memset",
            ActivityKind::KERNEL => "kernel",
            ActivityKind::DRIVER => "driver",
            ActivityKind::RUNTIME => "runtime",
            ActivityKind::CONCURRENT_KERNEL => "concurrent_kernel",
            ActivityKind::MARKER => "nvtx",
            ActivityKind::OVERHEAD => "overhead",
            ActivityKind::CUDA_EVENT => "cuda_event",
            ActivityKind::SYNCHRONIZATION => "synchronization",
            ActivityKind::EXTERNAL_CORRELATION => "external_correlation",
            ActivityKind::MEMORY => "memory",
            _ => return None,
        })
    }

    /// The kind of a short name (as [`name`](Self::name) writes it; also `marker`, `sync`, `memory2`).
    pub fn from_name(name: &str) -> Option<ActivityKind> {
        let name = name.trim().to_ascii_lowercase();
        match name.as_str() {
            "marker" | "markers" => return Some(ActivityKind::MARKER),
            "sync" => return Some(ActivityKind::SYNCHRONIZATION),
            "memory2" => return Some(ActivityKind::MEMORY),
            _ => {}
        }
        ActivityKind::DECODED.into_iter().find(|k| k.name() == Some(name.as_str()))
    }

    /// The column family its records become.
    pub fn family(self) -> FamilySet {
        match self {
            ActivityKind::KERNEL | ActivityKind::CONCURRENT_KERNEL => FamilySet::KERNEL,
            ActivityKind::MEMCPY => FamilySet::MEMCPY,
            ActivityKind::MEMSET => FamilySet::MEMSET,
            ActivityKind::RUNTIME | ActivityKind::DRIVER | ActivityKind::OVERHEAD => FamilySet::API,
            ActivityKind::MARKER => FamilySet::MARKER,
            ActivityKind::SYNCHRONIZATION | ActivityKind::CUDA_EVENT => FamilySet::SYNC,
            ActivityKind::EXTERNAL_CORRELATION => FamilySet::EXTERNAL_CORRELATION,
            ActivityKind::MEMORY => FamilySet::MEMORY,
            _ => FamilySet::empty(),
        }
    }
}

impl fmt::Debug for ActivityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "ActivityKind({}: {name})", self.0),
            None => write!(f, "ActivityKind({})", self.0),
        }
    }
}

/// A set of activity kinds (kinds 0..64).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ActivityKinds(u64);

impl ActivityKinds {
    /// No kind.
    pub const fn empty() -> Self {
        ActivityKinds(0)
    }

    /// What a timeline needs: concurrent kernels, copies, sets, runtime and driver calls, external
    /// correlations. Synchronizations are left out: `flush(sync)` enables them only while it runs.
    pub fn timeline() -> Self {
        [
            ActivityKind::CONCURRENT_KERNEL,
            ActivityKind::MEMCPY,
            ActivityKind::MEMSET,
            ActivityKind::RUNTIME,
            ActivityKind::DRIVER,
            ActivityKind::EXTERNAL_CORRELATION,
        ]
        .into_iter()
        .collect()
    }

    /// Adds a kind (kinds of 64 and above are not representable and are ignored).
    pub fn with(mut self, kind: ActivityKind) -> Self {
        self.insert(kind);
        self
    }

    /// Adds a kind; false when it cannot be represented (>= 64).
    pub fn insert(&mut self, kind: ActivityKind) -> bool {
        if kind.0 >= 64 {
            return false;
        }
        self.0 |= 1 << kind.0;
        true
    }

    /// Removes a kind.
    pub fn remove(&mut self, kind: ActivityKind) {
        if kind.0 < 64 {
            self.0 &= !(1 << kind.0);
        }
    }

    /// Whether `kind` is in the set.
    pub fn contains(self, kind: ActivityKind) -> bool {
        kind.0 < 64 && self.0 & (1 << kind.0) != 0
    }

    /// True when the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds, in CUPTI's order.
    pub fn iter(self) -> impl Iterator<Item = ActivityKind> {
        (0..64u32).filter(move |k| self.0 & (1 << k) != 0).map(ActivityKind)
    }

    /// The column families the kinds' records become.
    pub fn families(self) -> FamilySet {
        self.iter().fold(FamilySet::empty(), |set, k| set | k.family())
    }

    /// Parses a comma-separated list of kind names (`kernel,memcpy,runtime`), or `all` / `default`
    /// (= [`timeline`](Self::timeline)). Returns the unknown names as the error.
    pub fn parse(list: &str) -> Result<Self, Vec<String>> {
        let mut set = ActivityKinds::empty();
        let mut unknown = Vec::new();
        for item in list.split([',', ' ', ';']).map(str::trim).filter(|s| !s.is_empty()) {
            match item.to_ascii_lowercase().as_str() {
                "all" => {
                    ActivityKind::DECODED.into_iter().filter(|k| *k != ActivityKind::KERNEL).for_each(|k| {
                        set.insert(k);
                    })
                }
                "default" | "timeline" => set = set | ActivityKinds::timeline(),
                _ => match ActivityKind::from_name(item) {
                    Some(kind) => {
                        set.insert(kind);
                    }
                    None => unknown.push(item.to_owned()),
                },
            }
        }
        if unknown.is_empty() {
            Ok(set)
        } else {
            Err(unknown)
        }
    }
}

impl std::ops::BitOr for ActivityKinds {
    type Output = ActivityKinds;
    fn bitor(self, rhs: Self) -> Self {
        ActivityKinds(self.0 | rhs.0)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_lists_parse() {
        for kind in ActivityKind::DECODED {
            assert_eq!(ActivityKind::from_name(kind.name().unwrap()), Some(kind));
            assert!(!kind.family().is_empty(), "{kind:?}");
        }
        let set = ActivityKinds::parse("kernel, memcpy;runtime sync").unwrap();
        assert!(set.contains(ActivityKind::KERNEL) && set.contains(ActivityKind::SYNCHRONIZATION));
        assert_eq!(set.iter().count(), 4);
        assert_eq!(ActivityKinds::parse("kernel,bogus,other"), Err(vec!["bogus".into(), "other".into()]));
        let all = ActivityKinds::parse("all").unwrap();
        assert!(!all.contains(ActivityKind::KERNEL), "all = concurrent kernels, never the serializing kind");
        assert_eq!(all.iter().count(), ActivityKind::DECODED.len() - 1);
        assert_eq!(ActivityKinds::parse("default").unwrap(), ActivityKinds::timeline());
        assert!(!ActivityKinds::empty().with(ActivityKind(64)).contains(ActivityKind(64)));
        assert_eq!(format!("{:?}", ActivityKind(999)), "ActivityKind(999)");
    }
}
