//! The columnar decoder: CUPTI activity buffers become [`accelprof_core`] column batches.
//!
//! [`Walker`] is the `cupti` crate's [`accelprof_core::RecordWalker`]. It runs on the pipeline's decode
//! thread (never on CUPTI's), walks each completed buffer record by record using the record sizes of the
//! CUPTI version that is running ([`RecordLayouts`], chosen from `cuptiGetVersion` at run time: 12.x and
//! 13.x write different record versions), and appends one row per record to the per-family columns
//! (kernels, copies, API calls, ...). Names are interned once; columns carry [`accelprof_core::NameId`]s.
//!
//! The walker can also run without a library (benchmarks, tests on synthetic buffers, a fuzzer): it only
//! reads bytes. The string fields of a record are pointers that only CUPTI's own buffers make valid, so
//! a walker that follows them is made with `unsafe` [`Walker::new`]; [`Walker::untrusted`]
//! follows none and walks any bytes.

mod bytes;
mod device;
mod host;
mod layout;
mod name_cache;
mod shared;
mod sinks;
mod sync;
mod udr;
mod walker;

pub use layout::{RecordLayouts, KIND_SLOTS, VERSION_12_9, VERSION_13_0, VERSION_13_2};
pub use name_cache::NameTransform;
pub use shared::{DecoderShared, DecoderStats};
pub use udr::udr_fields_read;
pub use walker::{StrideProbe, Walker};

/// The old name of [`Walker`] (every vendor crate's walker is `decode::Walker`).
#[deprecated(note = "renamed `Walker`, the name in every vendor crate")]
pub type CuptiWalker = Walker;

pub(crate) use udr::LayoutBook;

use accelprof_core::columns::MarkerRow;

/// `ApiRow::domain` of CUDA driver calls (`CUPTI_CB_DOMAIN_DRIVER_API`).
pub const API_DOMAIN_DRIVER: u32 = 1;
/// `ApiRow::domain` of CUDA runtime calls (`CUPTI_CB_DOMAIN_RUNTIME_API`).
pub const API_DOMAIN_RUNTIME: u32 = 2;
/// `ApiRow::domain` of CUPTI overhead records (not a CUPTI callback domain; `cbid` holds the
/// `CUpti_ActivityOverheadKind`).
pub const API_DOMAIN_OVERHEAD: u32 = 0x100;

/// `SyncRow::sync_type` of a CUDA event record (`CUPTI_ACTIVITY_KIND_CUDA_EVENT`); values 0..=4 are
/// CUPTI's `CUpti_ActivitySynchronizationType`.
pub const SYNC_TYPE_EVENT_RECORD: u32 = 0x100;

/// Raw `CUpti_ActivityKind` values the walker decodes.
pub(crate) mod kinds {
    use cupti_sys::CUpti_ActivityKind as K;

    pub(crate) const MEMCPY: u32 = K::CUPTI_ACTIVITY_KIND_MEMCPY.0;
    pub(crate) const MEMSET: u32 = K::CUPTI_ACTIVITY_KIND_MEMSET.0;
    pub(crate) const KERNEL: u32 = K::CUPTI_ACTIVITY_KIND_KERNEL.0;
    pub(crate) const DRIVER: u32 = K::CUPTI_ACTIVITY_KIND_DRIVER.0;
    pub(crate) const RUNTIME: u32 = K::CUPTI_ACTIVITY_KIND_RUNTIME.0;
    pub(crate) const CONCURRENT_KERNEL: u32 = K::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL.0;
    pub(crate) const MARKER: u32 = K::CUPTI_ACTIVITY_KIND_MARKER.0;
    pub(crate) const OVERHEAD: u32 = K::CUPTI_ACTIVITY_KIND_OVERHEAD.0;
    pub(crate) const CUDA_EVENT: u32 = K::CUPTI_ACTIVITY_KIND_CUDA_EVENT.0;
    pub(crate) const SYNCHRONIZATION: u32 = K::CUPTI_ACTIVITY_KIND_SYNCHRONIZATION.0;
    pub(crate) const EXTERNAL_CORRELATION: u32 = K::CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION.0;
    pub(crate) const MEMORY2: u32 = K::CUPTI_ACTIVITY_KIND_MEMORY2.0;
}

/// An NVTX range whose start was decoded, waiting for its end record.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PendingRange {
    pub(crate) row: MarkerRow,
}

#[cfg(test)]
#[path = "../../benches/support/records.rs"]
mod records;
#[cfg(test)]
mod tests;
