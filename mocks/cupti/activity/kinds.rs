//! Activity kinds: which are enabled, and how many bytes a record of each kind occupies.
//!
//! The sizes are what the real `cuptiActivityGetNextRecord` steps by, probed on 12.9.79 and
//! 13.0.85 (a buffer holding one record of each kind, walked twice). They equal `sizeof` of the
//! record struct each release writes: KERNEL and CONCURRENT_KERNEL are `CUpti_ActivityKernel9`
//! (208) in 12.9 and `Kernel10` (216) in 13.0; MARKER_DATA and MEMORY_POOL grew too; 13.0
//! rejects the kinds it removed (EVENT, METRIC, ...) with `CUPTI_ERROR_INVALID_KIND`. For 13.2
//! the mock only knows that the kernel record is `Kernel11` (224, measured with gcc).

use std::sync::atomic::{AtomicBool, Ordering};

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

/// `sizeof(CUpti_ActivityKernel11)` (13.2).
const KERNEL11_SIZE: usize = 224;

/// Bytes a record of `kind` occupies in this release, or `None` if the kind is unknown to it.
pub fn record_size(kind: u32) -> Option<usize> {
    if version::allows_multiple_subscribers() && (kind == KERNEL || kind == CONCURRENT_KERNEL) {
        return Some(KERNEL11_SIZE);
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

static ENABLED: [AtomicBool; 56] = [const { AtomicBool::new(false) }; 56];

pub fn set_enabled(kind: u32, on: bool) {
    if let Some(flag) = ENABLED.get(kind as usize) {
        flag.store(on, Ordering::Relaxed);
    }
}

pub fn enabled(kind: u32) -> bool {
    ENABLED.get(kind as usize).is_some_and(|f| f.load(Ordering::Relaxed))
}

/// The kind kernel records are written as: CONCURRENT_KERNEL if enabled, else KERNEL if
/// enabled, else none.
pub fn kernel_kind() -> Option<u32> {
    if enabled(CONCURRENT_KERNEL) {
        Some(CONCURRENT_KERNEL)
    } else if enabled(KERNEL) {
        Some(KERNEL)
    } else {
        None
    }
}

pub fn reset() {
    ENABLED.iter().for_each(|f| f.store(false, Ordering::Relaxed));
}
