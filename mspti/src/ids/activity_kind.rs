//! Activity record kinds (`msptiActivityKind`): [`ActivityKind`], and [`ActivityKinds`], a set of them.

use std::fmt;

use mspti_sys as sys;

accelprof_core::id_newtype! {
    /// What an activity record describes: one of the kinds 1..=12 this crate knows (and INVALID, 0).
    ///
    /// Unlike the other ids of this crate, an `ActivityKind` cannot hold any other value: it is passed
    /// to `msptiActivityIsEnabled`, which indexes an array of 13 switches without a bound check (a
    /// kind of 13 or more reads out of bounds: garbage, or SIGSEGV). Build one from a constant or with
    /// [`ActivityKind::from_raw`]:
    ///
    /// ```
    /// use mspti::ActivityKind;
    /// assert_eq!(ActivityKind::from_raw(2), Some(ActivityKind::KERNEL));
    /// assert_eq!(ActivityKind::from_raw(13), None); // a newer library's kind: not representable
    /// ```
    ///
    /// and no value outside the known kinds can be made:
    ///
    /// ```compile_fail
    /// let k = mspti::ActivityKind(65536); // error: the field is private
    /// ```
    ///
    /// ACL_API, NODE_API and RUNTIME_API are new in 2026: an older library rejects them with
    /// `InvalidParameter`. Records of kinds this crate does not know are skipped and counted by the
    /// decoder, whatever this type can hold.
    #[doc(alias = "msptiActivityKind")]
    #[derive(Default)]
    pub struct ActivityKind(u32) from sys::msptiActivityKind {
        /// `MSPTI_ACTIVITY_KIND_INVALID` (0).
        INVALID = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_INVALID.0;
        /// `MSPTI_ACTIVITY_KIND_MARKER` (1): MSTX marks and range edges (only while a subscriber exists).
        MARKER = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_MARKER.0;
        /// `MSPTI_ACTIVITY_KIND_KERNEL` (2): kernels (tasks) run on the device (only while a subscriber exists).
        KERNEL = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_KERNEL.0;
        /// `MSPTI_ACTIVITY_KIND_API` (3): kernel launches, named by the operator (only while a subscriber exists).
        API = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_API.0;
        /// `MSPTI_ACTIVITY_KIND_HCCL` (4): HCCL operations (needs `LD_PRELOAD`).
        HCCL = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_HCCL.0;
        /// `MSPTI_ACTIVITY_KIND_MEMORY` (5): allocations and releases (needs `LD_PRELOAD`).
        MEMORY = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_MEMORY.0;
        /// `MSPTI_ACTIVITY_KIND_MEMSET` (6): memsets (needs `LD_PRELOAD`).
        MEMSET = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_MEMSET.0;
        /// `MSPTI_ACTIVITY_KIND_MEMCPY` (7): copies (needs `LD_PRELOAD`).
        MEMCPY = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_MEMCPY.0;
        /// `MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION` (8): links pushed external ids to correlation ids.
        EXTERNAL_CORRELATION = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION.0;
        /// `MSPTI_ACTIVITY_KIND_COMMUNICATION` (9): communication operations with data type and count.
        COMMUNICATION = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_COMMUNICATION.0;
        /// `MSPTI_ACTIVITY_KIND_ACL_API` (10): `aclrt*` and other ACL calls (only while a subscriber exists).
        ACL_API = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_ACL_API.0;
        /// `MSPTI_ACTIVITY_KIND_NODE_API` (11): graph-node launches, named by the operator (only while a subscriber exists).
        NODE_API = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_NODE_API.0;
        /// `MSPTI_ACTIVITY_KIND_RUNTIME_API` (12): runtime calls under ACL (only while a subscriber exists).
        RUNTIME_API = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_RUNTIME_API.0;
    }
}

impl ActivityKind {
    /// The kinds whose `ActivityEnable` needs `libmspti.so` in `LD_PRELOAD` (the library gets them
    /// by interposing `aclrt*` and `Hccl*` functions).
    pub const NEED_LD_PRELOAD: [ActivityKind; 4] =
        [ActivityKind::HCCL, ActivityKind::MEMORY, ActivityKind::MEMSET, ActivityKind::MEMCPY];

    /// The kinds MSPTI produces only while a subscriber exists: it registers the runtime's
    /// reporters (API-family records and kernel task tracks), switches MSTX on (markers) and reads
    /// the driver's channels (kernel times) at `msptiSubscribe`, and undoes it at unsubscribe.
    pub const NEED_SUBSCRIBER: [ActivityKind; 6] = [
        ActivityKind::MARKER,
        ActivityKind::KERNEL,
        ActivityKind::API,
        ActivityKind::ACL_API,
        ActivityKind::NODE_API,
        ActivityKind::RUNTIME_API,
    ];

    /// Every kind that can be enabled (1..=12).
    pub fn all_enableable() -> impl Iterator<Item = ActivityKind> {
        ActivityKind::ALL.iter().copied().filter(|k| *k != ActivityKind::INVALID)
    }

    /// Whether enabling it needs `libmspti.so` in `LD_PRELOAD` (see [`Self::NEED_LD_PRELOAD`]).
    pub fn needs_ld_preload(self) -> bool {
        ActivityKind::NEED_LD_PRELOAD.contains(&self)
    }

    /// The kinds MSPTI writes from the device's data (the driver's channels, read by a thread of
    /// MSPTI's after the work ran, with a latency): KERNEL, HCCL and COMMUNICATION, and MARKER
    /// (marks on a stream carry the device's time). A session waits for them to go quiet before a
    /// fence and before it ends ([`ActivityConfig::device_settle`](crate::ActivityConfig::device_settle)).
    pub const FROM_DEVICE: [ActivityKind; 4] =
        [ActivityKind::KERNEL, ActivityKind::HCCL, ActivityKind::COMMUNICATION, ActivityKind::MARKER];

    /// Whether MSPTI writes it from the device's data (see [`Self::FROM_DEVICE`]).
    pub fn from_device(self) -> bool {
        ActivityKind::FROM_DEVICE.contains(&self)
    }

    /// Whether MSPTI produces it only while a subscriber exists (see [`Self::NEED_SUBSCRIBER`]).
    pub fn needs_subscriber(self) -> bool {
        ActivityKind::NEED_SUBSCRIBER.contains(&self)
    }
}

/// A set of [`ActivityKind`]s (what an [`ActivityConfig`](crate::ActivityConfig) collects).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ActivityKinds(u32);

impl ActivityKinds {
    /// No kind.
    pub const fn empty() -> Self {
        ActivityKinds(0)
    }

    /// What a timeline needs, the same families as `cupti`'s `ActivityKinds::timeline` (the default of
    /// [`ActivityConfig`](crate::ActivityConfig)): kernels, their launches (API), copies, sets and
    /// external correlations. KERNEL and API are produced only while a subscriber exists (a session
    /// configured with them holds one of its own); MEMCPY and MEMSET need `libmspti.so` preloaded
    /// ([`start`](crate::ActivitySession::start) says so when it is not). ACL_API, NODE_API and
    /// RUNTIME_API are left out: a library older than 2026 refuses them.
    pub fn timeline() -> Self {
        [
            ActivityKind::KERNEL,
            ActivityKind::API,
            ActivityKind::MEMCPY,
            ActivityKind::MEMSET,
            ActivityKind::EXTERNAL_CORRELATION,
        ]
        .into_iter()
        .collect()
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
