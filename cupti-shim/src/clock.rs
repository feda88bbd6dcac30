//! The record clock. `cuptiActivityRegisterTimestampCallback` is process-wide in CUPTI: every buffer
//! completed after it carries the callback's clock (Kineto registers a monotonic one). The shim
//! forwards the registration (the global client keeps its clock) and remembers the callback; when it
//! copies a completed buffer's records to a cooperative slot while a callback is set, it maps their
//! timestamps back to CUPTI's own clock, CLOCK_REALTIME ns: `t + (realtime - cb())`, the offset sampled
//! once per fan-out. Slot 0 (the global clients) gets the records as CUPTI wrote them.

use std::mem::offset_of;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use cupti_sys as sys;
use cupti_sys::v13_5 as v135;

use crate::activity::SLOTS;
use crate::real::{real, TimestampFn};
use crate::{NOT_INITIALIZED, SUCCESS};

/// The callback registered through the shim (0: none, CUPTI's own clock).
static CALLBACK: AtomicUsize = AtomicUsize::new(0);

/// Records a cooperative slot received with a foreign clock set whose kind the shim cannot convert.
static UNCONVERTED: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];

/// `cuptiActivityRegisterTimestampCallback`: forwarded; remembered when the real library accepts it.
pub(crate) fn register(cb: Option<TimestampFn>) -> u32 {
    let Some(real) = real() else { return NOT_INITIALIZED };
    let Some(f) = real.register_timestamp else { return NOT_INITIALIZED };
    // CUPTI gives device times of work done before a new clock, in buffers completed after it, as 0
    // (unknown; seen on the H200): while a cooperative client collects, what CUPTI holds is flushed to
    // it first, on the clock it was recorded on.
    if crate::activity::others_active(0) {
        if let Some(flush) = real.flush_all {
            // SAFETY: the real CUPTI function of this signature, with a plain flag (not forced: a
            // kernel still running is not cut short).
            unsafe { flush(0) };
        }
    }
    // SAFETY: the real CUPTI function of this signature; the callback is the caller's, passed on.
    let r = unsafe { f(cb) };
    if r == SUCCESS {
        CALLBACK.store(cb.map_or(0, |f| f as usize), Ordering::SeqCst);
    }
    r
}

/// After the real `cuptiFinalize`: CUPTI forgot the callback with everything else.
pub(crate) fn forget_real() {
    CALLBACK.store(0, Ordering::SeqCst);
}

fn realtime_ns() -> i128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i128)
}

/// The two clocks read at one moment: a record's timestamp is on the clock whose reading it is
/// nearer to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shift {
    /// What to add to a timestamp on the callback's clock to get CLOCK_REALTIME ns.
    pub(crate) offset: i128,
    /// The callback's clock now.
    pub(crate) theirs_now: i128,
}

impl Shift {
    /// `t` on CLOCK_REALTIME: moved by the offset when it is nearer the callback's clock than
    /// CLOCK_REALTIME (a host timestamp CUPTI took before the callback was registered is on its own
    /// clock already, even in a buffer completed after: seen on the H200 for API records).
    pub(crate) fn map(&self, t: u64) -> u64 {
        let t = i128::from(t);
        let real_now = self.theirs_now + self.offset;
        if (t - self.theirs_now).abs() < (t - real_now).abs() {
            (t + self.offset).clamp(1, i128::from(u64::MAX)) as u64
        } else {
            t as u64
        }
    }
}

/// The shift from the registered callback's clock to CLOCK_REALTIME ns, sampled now; `None` while no
/// callback is set (records are on CUPTI's own clock already).
pub(crate) fn offset() -> Option<Shift> {
    let cb = CALLBACK.load(Ordering::SeqCst);
    if cb == 0 {
        return None;
    }
    // SAFETY: a non-zero value is a `TimestampFn` stored by `register`; the real library accepted it
    // as its clock and calls it from any thread too.
    let cb: TimestampFn = unsafe { std::mem::transmute::<usize, TimestampFn>(cb) };
    let before = realtime_ns();
    // SAFETY: as above.
    let theirs = unsafe { cb() };
    let after = realtime_ns();
    Some(Shift { offset: before + (after - before) / 2 - i128::from(theirs), theirs_now: i128::from(theirs) })
}

/// `cuptiGetVersion` of the real library (0: unknown).
fn version() -> u32 {
    static VERSION: OnceLock<u32> = OnceLock::new();
    *VERSION.get_or_init(|| {
        let mut v = 0u32;
        let f = real().and_then(|r| r.get_version);
        // SAFETY: the real CUPTI function of this signature, with a valid out-pointer.
        match f.map(|f| unsafe { f(&mut v) }) {
            Some(SUCCESS) => v,
            _ => 0,
        }
    })
}

const MEMCPY: u32 = 1;
const MEMSET: u32 = 2;
const KERNEL: u32 = 3;
const DRIVER: u32 = 4;
const RUNTIME: u32 = 5;
const CONCURRENT_KERNEL: u32 = 10;
const NAME: u32 = 11;
const MARKER: u32 = 12;
const MARKER_DATA: u32 = 13;
const OVERHEAD: u32 = 17;
const MEMCPY2: u32 = 22;
const STREAM: u32 = 37;
const SYNCHRONIZATION: u32 = 38;
const EXTERNAL_CORRELATION: u32 = 39;
const INTERNAL_LAUNCH_API: u32 = 48;
const MEMORY2: u32 = 49;

/// First `cuptiGetVersion` (13.2) writing `CUpti_ActivityKernel11`; 13.3 `Kernel12`; 13.4 `Kernel13`,
/// `Memcpy7` and `Memset5` (the versions the `cupti` crate's layout tables key on).
const V13_2: u32 = 130_200;
const V13_3: u32 = 130_300;
const V13_4: u32 = 130_400;

macro_rules! kernel_times {
    ($t:ty) => {
        &[
            offset_of!($t, start),
            offset_of!($t, end),
            offset_of!($t, completed),
            offset_of!($t, queued),
            offset_of!($t, submitted),
        ]
    };
}
macro_rules! span {
    ($t:ty) => {
        &[offset_of!($t, start), offset_of!($t, end)]
    };
}

/// The byte offsets of the timestamp fields of a record of `kind` in the layout CUPTI `version`
/// writes (`Some(&[])`: a kind without timestamps); `None`: a kind or version the shim does not know.
pub(crate) fn time_fields(kind: u32, version: u32) -> Option<&'static [usize]> {
    if version == 0 {
        return None;
    }
    let v12 = sys::is_api_version_12(version);
    Some(match kind {
        // 12.x: the 12.9 records (as the `cupti` crate reads them); 13.0, 13.1: `Kernel10`.
        KERNEL | CONCURRENT_KERNEL if v12 => kernel_times!(sys::v12::CUpti_ActivityKernel9),
        KERNEL | CONCURRENT_KERNEL if version >= V13_4 => kernel_times!(v135::CUpti_ActivityKernel13),
        KERNEL | CONCURRENT_KERNEL if version >= V13_3 => kernel_times!(v135::CUpti_ActivityKernel12),
        KERNEL | CONCURRENT_KERNEL if version >= V13_2 => kernel_times!(v135::CUpti_ActivityKernel11),
        KERNEL | CONCURRENT_KERNEL => kernel_times!(sys::CUpti_ActivityKernel10),
        DRIVER | RUNTIME | INTERNAL_LAUNCH_API if v12 => span!(sys::v12::CUpti_ActivityAPI),
        DRIVER | RUNTIME | INTERNAL_LAUNCH_API => span!(sys::CUpti_ActivityAPI),
        MEMCPY if v12 => span!(sys::v12::CUpti_ActivityMemcpy6),
        MEMCPY if version >= V13_4 => span!(v135::CUpti_ActivityMemcpy7),
        MEMCPY => span!(sys::CUpti_ActivityMemcpy6),
        MEMSET if v12 => span!(sys::v12::CUpti_ActivityMemset4),
        MEMSET if version >= V13_4 => span!(v135::CUpti_ActivityMemset5),
        MEMSET => span!(sys::CUpti_ActivityMemset4),
        MEMCPY2 if v12 => span!(sys::v12::CUpti_ActivityMemcpyPtoP4),
        MEMCPY2 => span!(sys::CUpti_ActivityMemcpyPtoP4),
        SYNCHRONIZATION if v12 => span!(sys::v12::CUpti_ActivitySynchronization2),
        SYNCHRONIZATION => span!(sys::CUpti_ActivitySynchronization2),
        OVERHEAD if v12 => span!(sys::v12::CUpti_ActivityOverhead3),
        OVERHEAD => span!(sys::CUpti_ActivityOverhead3),
        MARKER if v12 => &[offset_of!(sys::v12::CUpti_ActivityMarker2, timestamp)],
        MARKER => &[offset_of!(sys::CUpti_ActivityMarker2, timestamp)],
        MEMORY2 if v12 => &[offset_of!(sys::v12::CUpti_ActivityMemory4, timestamp)],
        MEMORY2 => &[offset_of!(sys::CUpti_ActivityMemory4, timestamp)],
        NAME | MARKER_DATA | STREAM | EXTERNAL_CORRELATION => &[],
        _ => return None,
    })
}

/// `record` with its timestamps on the callback's clock moved to CLOCK_REALTIME ([`Shift::map`]) into `out`; false (the record copied as it is)
/// when its kind or layout is unknown. A timestamp 0 (not set) stays 0.
pub(crate) fn convert(record: &[u8], shift: Shift, out: &mut Vec<u8>) -> bool {
    out.clear();
    out.extend_from_slice(record);
    if record.len() < 4 {
        return false;
    }
    let kind = u32::from_ne_bytes([record[0], record[1], record[2], record[3]]);
    let Some(fields) = time_fields(kind, version()) else { return false };
    if fields.iter().any(|&at| at + 8 > record.len()) {
        return false;
    }
    for &at in fields {
        let mut b = [0u8; 8];
        b.copy_from_slice(&out[at..at + 8]);
        let t = u64::from_ne_bytes(b);
        if t != 0 {
            out[at..at + 8].copy_from_slice(&shift.map(t).to_ne_bytes());
        }
    }
    true
}

/// Counts a record slot `slot` received unconverted.
pub(crate) fn count_unconverted(slot: usize) {
    UNCONVERTED[slot].fetch_add(1, Ordering::Relaxed);
}

/// Records slot `slot` received unconverted since the start (kind unknown with a foreign clock set).
pub(crate) fn unconverted(slot: usize) -> u64 {
    UNCONVERTED[slot].load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_timestamps_on_the_callbacks_clock_move() {
        // A monotonic callback (ns since boot) against a 2026 CLOCK_REALTIME.
        let shift =
            Shift { offset: 1_796_000_000_000_000_000 - 100_000_000_000, theirs_now: 100_000_000_000 };
        assert_eq!(
            shift.map(99_000_000_000),
            1_796_000_000_000_000_000 - 1_000_000_000,
            "a second ago, theirs"
        );
        let host = 1_795_999_999_000_000_000;
        assert_eq!(shift.map(host), host, "a timestamp on CUPTI's own clock stays");
    }

    #[test]
    fn every_kernel_layout_has_its_times_where_13_0_has_them() {
        let base = time_fields(KERNEL, 130_001).unwrap();
        for v in [28, 130_200, 130_300, 130_400, 130_500] {
            assert_eq!(time_fields(CONCURRENT_KERNEL, v).unwrap(), base, "{v}");
        }
        assert_eq!(time_fields(6, 130_001), None, "an unknown kind");
        assert_eq!(time_fields(KERNEL, 0), None, "an unknown version");
    }
}
