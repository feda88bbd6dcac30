//! Activity kinds: which are enabled, and how many bytes a record of each kind occupies.
//!
//! The sizes are what the real `cuptiActivityGetNextRecord` steps by, probed on 12.9.79 and
//! 13.0.85 (a buffer holding one record of each kind, walked twice). They equal `sizeof` of the
//! record struct each release writes: KERNEL and CONCURRENT_KERNEL are `CUpti_ActivityKernel9`
//! (208) in 12.9 and `Kernel10` (216) in 13.0; MARKER_DATA and MEMORY_POOL grew too; 13.0
//! rejects the kinds it removed (EVENT, METRIC, ...) with `CUPTI_ERROR_INVALID_KIND`. For 13.2
//! the kernel record is `Kernel11` (224); for 13.3 `Kernel12`; for 13.4 and 13.5 `Kernel13`, `Memcpy7`
//! and `Memset5` (13.5 also `CudaEvent3`); the other kinds as in 13.0. These newer sizes are
//! `sizeof` of the 13.5 headers' structs, not probed (13.3 and later need a driver to run at all).

use std::mem::size_of;

use super::sinks;
use crate::sys::v13_5::types as v135;
use crate::version;

pub const MEMCPY: u32 = 1;
pub const MEMSET: u32 = 2;
pub const KERNEL: u32 = 3;
pub const DRIVER: u32 = 4;
pub const RUNTIME: u32 = 5;
pub const CONCURRENT_KERNEL: u32 = 10;
pub const MARKER: u32 = 12;
pub const SYNCHRONIZATION: u32 = 38;
pub const EXTERNAL_CORRELATION: u32 = 39;
pub const MEMORY2: u32 = 49;

/// Record size per kind (index), 0 = not a kind of this release.
const SIZES_12_9: [u16; 56] = [
    0, 96, 88, 208, 40, 40, 24, 24, 184, 32, // 0..=9
    208, 32, 56, 32, 24, 56, 40, 56, 144, 40, // 10..=19
    40, 32, 96, 32, 48, 104, 32, 24, 24, 56, // 20..=29
    40, 32, 24, 152, 152, 120, 56, 24, 56, 24, // 30..=39
    136, 32, 32, 32, 32, 80, 168, 40, 40, 128, // 40..=49
    72, 56, 72, 56, 64, 32, // 50..=55
];

const SIZES_13_0: [u16; 56] = [
    0, 96, 88, 216, 40, 40, 0, 0, 184, 32, // 0..=9
    216, 32, 56, 40, 0, 0, 0, 56, 144, 40, // 10..=19
    40, 0, 96, 0, 0, 104, 32, 24, 24, 0, // 20..=29
    0, 0, 0, 152, 152, 120, 56, 24, 56, 24, // 30..=39
    136, 0, 0, 0, 0, 80, 168, 40, 40, 128, // 40..=49
    80, 56, 72, 56, 64, 32, // 50..=55
];

/// `CUPTI_ACTIVITY_KIND_CUDA_EVENT`.
const CUDA_EVENT: u32 = 36;

/// Bytes a record of `kind` occupies in this release, or `None` if the kind is unknown to it.
pub fn record_size(kind: u32) -> Option<usize> {
    let v = version::get();
    if !version::is_v12() && v >= version::V13_2 {
        let newer = match kind {
            KERNEL | CONCURRENT_KERNEL if v >= version::V13_4 => {
                Some(size_of::<v135::CUpti_ActivityKernel13>())
            }
            KERNEL | CONCURRENT_KERNEL if v >= version::V13_3 => {
                Some(size_of::<v135::CUpti_ActivityKernel12>())
            }
            KERNEL | CONCURRENT_KERNEL => Some(size_of::<v135::CUpti_ActivityKernel11>()),
            MEMCPY if v >= version::V13_4 => Some(size_of::<v135::CUpti_ActivityMemcpy7>()),
            MEMSET if v >= version::V13_4 => Some(size_of::<v135::CUpti_ActivityMemset5>()),
            CUDA_EVENT if v >= version::V13_5 => Some(size_of::<v135::CUpti_ActivityCudaEvent3>()),
            _ => None,
        };
        if newer.is_some() {
            return newer;
        }
    }
    let table = if version::is_v12() { &SIZES_12_9 } else { &SIZES_13_0 };
    match table.get(kind as usize) {
        Some(&n) if n > 0 => Some(n as usize),
        _ => None,
    }
}

/// Kinds a client may enable: those of the public enum (1..=54) that this release knows.
pub fn enableable(kind: u32) -> bool {
    (1..=54).contains(&kind) && record_size(kind).is_some()
}

/// The kind `sink` writes kernel records as: CONCURRENT_KERNEL if enabled, else KERNEL if
/// enabled, else none.
pub fn kernel_kind(sink: usize) -> Option<u32> {
    let s = sinks::get(sink);
    if sink != sinks::GLOBAL && !sinks::is_live(sink) {
        None
    } else if s.kind(CONCURRENT_KERNEL) {
        Some(CONCURRENT_KERNEL)
    } else if s.kind(KERNEL) {
        Some(KERNEL)
    } else {
        None
    }
}
