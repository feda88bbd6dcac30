//! How many bytes a record of each activity kind occupies, for the CUPTI version that runs.
//!
//! A CUPTI buffer is a packed sequence of records, each starting with its `CUpti_ActivityKind` (u32) and
//! occupying `sizeof` the record struct that release writes for that kind. Which struct that is depends on
//! the library, not on the headers we were built with: CUPTI 12.9 writes `CUpti_ActivityKernel9` (208
//! bytes) for kernels, 13.0 `CUpti_ActivityKernel10` (216), 13.2 `CUpti_ActivityKernel11` (224). Newer
//! versions only append fields, so the fields we read sit at the same offsets in all of them; only the
//! stride differs. [`RecordLayouts::for_version`] picks the stride table from `cuptiGetVersion`.
//!
//! The tables are built from `size_of` of the generated record types and equal what the real
//! `cuptiActivityGetNextRecord` steps by on 12.9.79 and 13.0.85 (probed: a buffer holding one record of
//! each kind). For a version other than those two the nearest table is used and marked unverified: the
//! walker then checks each kind's stride once against `cuptiActivityGetNextRecord` (see
//! [`Walker::with_stride_probe`](super::Walker::with_stride_probe)). The newer records are those
//! of the 13.5 headers: `CUpti_ActivityKernel11` (13.2), `Kernel12` (13.3), `Kernel13`, `Memcpy7` and
//! `Memset5` (13.4 and 13.5), `CudaEvent3` (13.5); a 13.3+ library cannot run without a driver, so
//! these are not probed here.

use std::mem::size_of;

use cupti_sys as sys;

/// Number of activity kinds a table covers (`CUPTI_ACTIVITY_KIND_COUNT` of the 13.0 headers).
pub const KIND_SLOTS: usize = 56;

/// `cuptiGetVersion` of CUPTI 12.9.
pub const VERSION_12_9: u32 = sys::v12::CUPTI_API_VERSION;
/// `cuptiGetVersion` of CUPTI 13.0.
pub const VERSION_13_0: u32 = sys::CUPTI_API_VERSION;
/// First `cuptiGetVersion` (13.2) whose kernel record is `CUpti_ActivityKernel11`.
pub const VERSION_13_2: u32 = 130_200;
/// First `cuptiGetVersion` (13.3) whose kernel record is `CUpti_ActivityKernel12`.
const VERSION_13_3: u32 = 130_300;
/// First `cuptiGetVersion` (13.4) with `CUpti_ActivityKernel13`, `Memcpy7` and `Memset5`.
const VERSION_13_4: u32 = 130_400;
/// First `cuptiGetVersion` (13.5) with `CUpti_ActivityCudaEvent3`.
const VERSION_13_5: u32 = 130_500;

/// Record sizes per kind, 0 = not a kind this release writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLayouts {
    sizes: [u16; KIND_SLOTS],
    api_version: u32,
    verified: bool,
}

const fn sz<T>() -> u16 {
    size_of::<T>() as u16
}

/// The records CUPTI 12.9 writes, per kind (index = kind).
const SIZES_12_9: [u16; KIND_SLOTS] = {
    use sys::*;
    [
        0,
        sz::<CUpti_ActivityMemcpy6>(),
        sz::<CUpti_ActivityMemset4>(),
        sz::<CUpti_ActivityKernel9>(),
        sz::<CUpti_ActivityAPI>(),
        sz::<CUpti_ActivityAPI>(),
        sz::<CUpti_ActivityEvent>(),
        sz::<CUpti_ActivityMetric>(),
        sz::<CUpti_ActivityDevice5>(),
        sz::<CUpti_ActivityContext3>(),
        sz::<CUpti_ActivityKernel9>(), // 10 CONCURRENT_KERNEL
        sz::<CUpti_ActivityName>(),
        sz::<CUpti_ActivityMarker2>(),
        sz::<CUpti_ActivityMarkerData>(),
        sz::<CUpti_ActivitySourceLocator>(),
        sz::<CUpti_ActivityGlobalAccess3>(),
        sz::<CUpti_ActivityBranch2>(),
        sz::<CUpti_ActivityOverhead3>(),
        sz::<CUpti_ActivityCdpKernel>(),
        sz::<CUpti_ActivityPreemption>(),
        sz::<CUpti_ActivityEnvironment>(), // 20
        sz::<CUpti_ActivityEventInstance>(),
        sz::<CUpti_ActivityMemcpyPtoP4>(),
        sz::<CUpti_ActivityMetricInstance>(),
        sz::<CUpti_ActivityInstructionExecution>(),
        sz::<CUpti_ActivityUnifiedMemoryCounter3>(),
        sz::<CUpti_ActivityFunction>(),
        sz::<CUpti_ActivityModule>(),
        sz::<CUpti_ActivityDeviceAttribute>(),
        sz::<CUpti_ActivitySharedAccess>(),
        sz::<CUpti_ActivityPCSampling3>(), // 30
        sz::<CUpti_ActivityPCSamplingRecordInfo>(),
        sz::<CUpti_ActivityInstructionCorrelation>(),
        sz::<CUpti_ActivityOpenAccData>(),
        sz::<CUpti_ActivityOpenAccLaunch>(),
        sz::<CUpti_ActivityOpenAccOther>(),
        sz::<CUpti_ActivityCudaEvent2>(),
        sz::<CUpti_ActivityStream>(),
        sz::<CUpti_ActivitySynchronization2>(),
        sz::<CUpti_ActivityExternalCorrelation>(),
        sz::<CUpti_ActivityNvLink4>(), // 40
        sz::<CUpti_ActivityInstantaneousEvent>(),
        sz::<CUpti_ActivityInstantaneousEventInstance>(),
        sz::<CUpti_ActivityInstantaneousMetric>(),
        sz::<CUpti_ActivityInstantaneousMetricInstance>(),
        sz::<CUpti_ActivityMemory>(),
        sz::<CUpti_ActivityPcie>(),
        sz::<CUpti_ActivityOpenMp>(),
        sz::<CUpti_ActivityAPI>(), // 48 INTERNAL_LAUNCH_API
        sz::<CUpti_ActivityMemory4>(),
        sz::<CUpti_ActivityMemoryPool2>(), // 50
        sz::<CUpti_ActivityGraphTrace2>(),
        sz::<CUpti_ActivityJit2>(),
        sz::<CUpti_ActivityDeviceGraphTrace>(),
        sz::<CUpti_ActivityMemDecompress>(),
        sz::<CUpti_ActivityConfidentialComputeRotation>(),
    ]
};

/// The records CUPTI 13.0 writes: 12.9's with the newer kernel, marker-data and memory-pool records, and
/// without the kinds 13.0 removed (it rejects enabling them).
const SIZES_13_0: [u16; KIND_SLOTS] = {
    use sys::*;
    let mut t = SIZES_12_9;
    t[3] = sz::<CUpti_ActivityKernel10>();
    t[10] = sz::<CUpti_ActivityKernel10>();
    t[13] = sz::<CUpti_ActivityMarkerData2>();
    t[50] = sz::<CUpti_ActivityMemoryPool3>();
    let removed = [6, 7, 14, 15, 16, 21, 23, 24, 29, 30, 31, 32, 41, 42, 43, 44];
    let mut i = 0;
    while i < removed.len() {
        t[removed[i]] = 0;
        i += 1;
    }
    t
};

impl RecordLayouts {
    /// The layouts of the CUPTI whose `cuptiGetVersion` returned `api_version`.
    ///
    /// Exact (verified) for 12.9 (28) and 13.0.x (130001..130099); for other 12.x the 12.9 table, for
    /// 13.1 the 13.0 table, for 13.2 and later the 13.0 table with the newer records of the 13.5 headers
    /// (see the module docs): those are marked unverified ([`is_verified`](Self::is_verified)).
    pub fn for_version(api_version: u32) -> Self {
        use sys::v13_5 as v;
        let (sizes, verified) = if sys::is_api_version_12(api_version) {
            (SIZES_12_9, api_version == VERSION_12_9)
        } else if api_version >= VERSION_13_2 {
            let mut t = SIZES_13_0;
            let kernel = match api_version {
                VERSION_13_4.. => sz::<v::CUpti_ActivityKernel13>(),
                VERSION_13_3.. => sz::<v::CUpti_ActivityKernel12>(),
                _ => sz::<v::CUpti_ActivityKernel11>(),
            };
            t[3] = kernel;
            t[10] = kernel;
            if api_version >= VERSION_13_4 {
                t[1] = sz::<v::CUpti_ActivityMemcpy7>();
                t[2] = sz::<v::CUpti_ActivityMemset5>();
            }
            if api_version >= VERSION_13_5 {
                t[36] = sz::<v::CUpti_ActivityCudaEvent3>();
            }
            (t, false)
        } else {
            (SIZES_13_0, (VERSION_13_0..VERSION_13_0 + 99).contains(&api_version))
        };
        RecordLayouts { sizes, api_version, verified }
    }

    /// The `cuptiGetVersion` these layouts were chosen for.
    pub fn api_version(&self) -> u32 {
        self.api_version
    }

    /// True when this table was measured on this very release (12.9 or 13.0); false when it is the
    /// nearest known table, to be checked against the library at run time.
    pub fn is_verified(&self) -> bool {
        self.verified
    }

    /// Bytes a record of `kind` occupies, or `None` for a kind this table does not know.
    #[inline]
    pub fn size_of(&self, kind: u32) -> Option<usize> {
        match self.sizes.get(kind as usize) {
            Some(&n) if n > 0 => Some(usize::from(n)),
            _ => None,
        }
    }

    /// Replaces the size of `kind` (e.g. with what the library itself steps by). Sizes that are not a
    /// positive multiple of 8, or kinds past the table, are ignored; returns whether the table changed.
    pub fn set_size(&mut self, kind: u32, size: usize) -> bool {
        let valid = size >= 8 && size % 8 == 0 && size <= usize::from(u16::MAX);
        match self.sizes.get_mut(kind as usize) {
            Some(slot) if valid && usize::from(*slot) != size => {
                *slot = size as u16;
                true
            }
            _ => false,
        }
    }

    /// The largest record of the table.
    pub fn max_size(&self) -> usize {
        self.sizes.iter().copied().max().map_or(0, usize::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the real `cuptiActivityGetNextRecord` steps by, per kind, probed on 12.9.79.
    const PROBED_12_9: [u16; KIND_SLOTS] = [
        0, 96, 88, 208, 40, 40, 24, 24, 184, 32, 208, 32, 56, 32, 24, 56, 40, 56, 144, 40, 40, 32, 96, 32,
        48, 104, 32, 24, 24, 56, 40, 32, 24, 152, 152, 120, 56, 24, 56, 24, 136, 32, 32, 32, 32, 80, 168, 40,
        40, 128, 72, 56, 72, 56, 64, 32,
    ];
    /// The same on 13.0.85.
    const PROBED_13_0: [u16; KIND_SLOTS] = [
        0, 96, 88, 216, 40, 40, 0, 0, 184, 32, 216, 32, 56, 40, 0, 0, 0, 56, 144, 40, 40, 0, 96, 0, 0, 104,
        32, 24, 24, 0, 0, 0, 0, 152, 152, 120, 56, 24, 56, 24, 136, 0, 0, 0, 0, 80, 168, 40, 40, 128, 80, 56,
        72, 56, 64, 32,
    ];

    #[test]
    fn tables_equal_the_probed_strides() {
        assert_eq!(RecordLayouts::for_version(28).sizes, PROBED_12_9);
        assert_eq!(RecordLayouts::for_version(130001).sizes, PROBED_13_0);
        assert!(RecordLayouts::for_version(28).is_verified());
        assert!(RecordLayouts::for_version(130001).is_verified());
    }

    #[test]
    fn other_versions_use_the_nearest_table_unverified() {
        let v13_2 = RecordLayouts::for_version(130200);
        assert_eq!(v13_2.size_of(3), Some(224));
        assert_eq!(v13_2.size_of(10), Some(224));
        assert_eq!(v13_2.size_of(1), Some(96));
        assert!(!v13_2.is_verified());
        let v12_4 = RecordLayouts::for_version(22);
        assert_eq!(v12_4.size_of(3), Some(208));
        assert!(!v12_4.is_verified());
        assert_eq!(RecordLayouts::for_version(130100).size_of(3), Some(216));
        let v13_5 = RecordLayouts::for_version(130500);
        let kernel13 = size_of::<sys::v13_5::CUpti_ActivityKernel13>();
        assert_eq!((v13_5.size_of(3), v13_5.size_of(10)), (Some(kernel13), Some(kernel13)));
        assert_eq!(v13_5.size_of(1), Some(size_of::<sys::v13_5::CUpti_ActivityMemcpy7>()));
        let v13_3 = RecordLayouts::for_version(130301);
        assert_eq!(v13_3.size_of(3), Some(size_of::<sys::v13_5::CUpti_ActivityKernel12>()));
        assert_eq!(v13_3.size_of(1), Some(96), "13.3 still writes Memcpy6");
    }

    #[test]
    fn unknown_kinds_have_no_size_and_set_size_validates() {
        let mut t = RecordLayouts::for_version(130001);
        assert_eq!(t.size_of(0), None);
        assert_eq!(t.size_of(6), None);
        assert_eq!(t.size_of(56), None);
        assert_eq!(t.size_of(u32::MAX), None);
        assert!(!t.set_size(3, 100), "not a multiple of 8");
        assert!(!t.set_size(99, 64), "past the table");
        assert!(t.set_size(6, 24));
        assert_eq!(t.size_of(6), Some(24));
        assert!(!t.set_size(6, 24), "unchanged");
        assert_eq!(t.max_size(), 216);
    }
}
