//! Activity record kinds (`msptiActivityKind`).

use mspti_sys as sys;

id_newtype! {
    /// What an activity record describes. 1..=12 are known (ACL_API, NODE_API and RUNTIME_API are
    /// new in 2026: an older library rejects them with `InvalidParameter`); records of other
    /// kinds are skipped and counted by the decoder.
    pub struct ActivityKind(u32) from sys::msptiActivityKind;
    /// `MSPTI_ACTIVITY_KIND_INVALID` (0).
    INVALID = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_INVALID, "INVALID";
    /// `MSPTI_ACTIVITY_KIND_MARKER` (1): MSTX marks and range edges.
    MARKER = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_MARKER, "MARKER";
    /// `MSPTI_ACTIVITY_KIND_KERNEL` (2): kernels (tasks) run on the device.
    KERNEL = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_KERNEL, "KERNEL";
    /// `MSPTI_ACTIVITY_KIND_API` (3): host API calls.
    API = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_API, "API";
    /// `MSPTI_ACTIVITY_KIND_HCCL` (4): HCCL operations (needs `LD_PRELOAD`).
    HCCL = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_HCCL, "HCCL";
    /// `MSPTI_ACTIVITY_KIND_MEMORY` (5): allocations and releases (needs `LD_PRELOAD`).
    MEMORY = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_MEMORY, "MEMORY";
    /// `MSPTI_ACTIVITY_KIND_MEMSET` (6): memsets (needs `LD_PRELOAD`).
    MEMSET = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_MEMSET, "MEMSET";
    /// `MSPTI_ACTIVITY_KIND_MEMCPY` (7): copies (needs `LD_PRELOAD`).
    MEMCPY = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY";
    /// `MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION` (8): links pushed external ids to API calls.
    EXTERNAL_CORRELATION = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, "EXTERNAL_CORRELATION";
    /// `MSPTI_ACTIVITY_KIND_COMMUNICATION` (9): communication operations with data type and count.
    COMMUNICATION = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_COMMUNICATION, "COMMUNICATION";
    /// `MSPTI_ACTIVITY_KIND_ACL_API` (10): ACL API calls.
    ACL_API = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_ACL_API, "ACL_API";
    /// `MSPTI_ACTIVITY_KIND_NODE_API` (11): graph node API calls.
    NODE_API = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_NODE_API, "NODE_API";
    /// `MSPTI_ACTIVITY_KIND_RUNTIME_API` (12): runtime API calls.
    RUNTIME_API = sys::msptiActivityKind::MSPTI_ACTIVITY_KIND_RUNTIME_API, "RUNTIME_API";
}

impl ActivityKind {
    /// The kinds whose `ActivityEnable` needs `libmspti.so` in `LD_PRELOAD` (the library gets them
    /// by interposing `aclrt*` and `Hccl*` functions).
    pub const NEED_LD_PRELOAD: [ActivityKind; 4] =
        [ActivityKind::HCCL, ActivityKind::MEMORY, ActivityKind::MEMSET, ActivityKind::MEMCPY];

    /// Every kind that can be enabled (1..=12).
    pub fn all_enableable() -> impl Iterator<Item = ActivityKind> {
        ActivityKind::ALL.iter().copied().filter(|k| *k != ActivityKind::INVALID)
    }
}
