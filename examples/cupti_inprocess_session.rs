//! The `cupti` crate used as a library inside another program's process, next to that program's own
//! CUPTI client (PyTorch's profiler): a `cdylib` with a small C interface that a Python process loads
//! with `ctypes` (`gpu/coexist_inprocess.py`), or any program with `dlopen`.
//!
//! - `int accelprof_probe_start(unsigned flags)`: opens the libcupti the process already loaded
//!   ([`Cupti::global`]: a copy already mapped is reused, found with `RTLD_NOLOAD`), makes an
//!   [`ActivitySession`] of CONCURRENT_KERNEL (and RUNTIME with `flags & 1`) whose consumer counts
//!   the kernel rows (and those that started before the session did), and starts it. 0 on success; negative on failure
//!   (`accelprof_probe_last_error` says why).
//! - `int accelprof_probe_stop(ProbeCounts *out)`: ends the session (its last fence, then every
//!   buffer back from CUPTI) and fills `out`: kernels counted, the ledger (produced, delivered,
//!   dropped by cause), what another client of CUPTI took (`other_client`), whether the ledger
//!   balances and whether the last fence held. 0 when the fence held, 1 when it did not (the counts
//!   are filled all the same), negative when there is no session or `out` is NULL.
//! - `size_t accelprof_probe_last_error(char *buf, size_t len)`: the last error, NUL-terminated
//!   into `buf` (cut to `len`); its full length.
//! - `size_t accelprof_probe_library(char *buf, size_t len)`: which libcupti the probe uses (the
//!   loader's path: a soname such as `libcupti.so.13` when it reused the copy the process had
//!   loaded), the same way; empty before the first start.
//!
//! With the CUPTI sharing shim preloaded (`LD_PRELOAD=libcupti_shim.so`, docs/CUPTI-SHARING.md),
//! `cupti-sys` resolves every function through the shim, so this session and the program's own
//! client each get every record. Without it the two share CUPTI's one pair of buffer callbacks, and
//! the counts name what the other client took.

use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use cupti::{ActivityConfig, ActivityKind, ActivitySession, Cupti, FamilySet};

/// What `accelprof_probe_stop` fills in (mirrored by the `ctypes.Structure` of the caller).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct ProbeCounts {
    /// Kernel rows delivered to the probe's consumer.
    pub kernels: u64,
    /// Of those, kernels that started before the probe's session started (CUPTI's clock read just
    /// before it enabled its kinds): records another client's kinds had CUPTI write, handed to us too
    /// (the sharing shim delivers what is in CUPTI's buffers by the kinds each client has on when a
    /// buffer completes).
    pub kernels_before_start: u64,
    /// API rows (RUNTIME records) delivered, when asked for.
    pub api_rows: u64,
    /// The ledger: records produced, delivered, dropped (all causes).
    pub records_produced: u64,
    pub records_delivered: u64,
    pub records_dropped: u64,
    /// Dropped by cause: lost by CUPTI (reported by it), read but not decoded, decoded with no consumer.
    pub dropped_by_vendor: u64,
    pub dropped_skipped: u64,
    pub dropped_unconsumed: u64,
    /// `ActivityCounts::other_client`: our buffers another client took, its buffers handed to us, and
    /// from when records may be missing (Unix ns, 0 when nothing was seen).
    pub other_buffers_taken: u64,
    pub other_foreign_buffers: u64,
    pub other_missing_since_unix_ns: u64,
    /// 1 when the ledger balances (`ActivityCounts::is_balanced`).
    pub balanced: u32,
    /// 1 when the last fence held (every record of work issued before the stop was delivered).
    pub fenced: u32,
    /// 1 when the CUPTI sharing shim is in the process.
    pub shared: u32,
    /// `cuptiGetVersion`.
    pub cupti_version: u32,
}

/// A running probe.
struct Probe {
    session: ActivitySession<'static>,
    kernels: Arc<AtomicU64>,
    kernels_before_start: Arc<AtomicU64>,
    api_rows: Arc<AtomicU64>,
}

static PROBE: Mutex<Option<Probe>> = Mutex::new(None);
static LAST_ERROR: Mutex<String> = Mutex::new(String::new());
/// The path of the libcupti opened by the last start (kept for after the stop).
static OPENED: Mutex<String> = Mutex::new(String::new());

fn set_error(message: String) {
    *LAST_ERROR.lock().unwrap_or_else(|e| e.into_inner()) = message;
}

/// Runs `body`, turning a panic into `on_panic` (no panic crosses the C boundary).
fn guarded(on_panic: i32, body: impl FnOnce() -> i32) -> i32 {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        set_error(format!("panic: {what}"));
        on_panic
    })
}

/// Whether the CUPTI sharing shim is loaded in this process (its exported mark).
fn shim_present() -> bool {
    let this = libloading::os::unix::Library::this();
    // SAFETY: the address is only looked up, never dereferenced or called.
    unsafe { this.get::<*mut std::ffi::c_void>(b"accelprof_cupti_shim_marker\0") }.is_ok()
}

fn start(flags: u32) -> i32 {
    let mut probe = PROBE.lock().unwrap_or_else(|e| e.into_inner());
    if probe.is_some() {
        set_error("a probe session is already running".into());
        return -1;
    }
    let cupti = match Cupti::global() {
        Ok(c) => c,
        Err(e) => {
            set_error(format!("opening CUPTI: {e}"));
            return -2;
        }
    };
    *OPENED.lock().unwrap_or_else(|e| e.into_inner()) = cupti.path().display().to_string();
    let runtime = flags & 1 != 0;
    let mut kinds = vec![ActivityKind::CONCURRENT_KERNEL];
    if runtime {
        kinds.push(ActivityKind::RUNTIME);
    }
    let config = ActivityConfig { kinds: kinds.into_iter().collect(), ..ActivityConfig::default() };
    let session = match ActivitySession::new(cupti, config) {
        Ok(s) => s,
        Err(e) => {
            set_error(format!("making the session: {e}"));
            return -3;
        }
    };
    let kernels = Arc::new(AtomicU64::new(0));
    let kernels_before_start = Arc::new(AtomicU64::new(0));
    let api_rows = Arc::new(AtomicU64::new(0));
    let families = if runtime { FamilySet::KERNEL | FamilySet::API } else { FamilySet::KERNEL };
    let (k, b, a) = (Arc::clone(&kernels), Arc::clone(&kernels_before_start), Arc::clone(&api_rows));
    // 0 (nothing counted as before) when the clock cannot be read.
    let started_at = cupti.timestamp().unwrap_or(0);
    session.subscribe(families, move |batch, _names| {
        k.fetch_add(batch.kernels.len() as u64, Ordering::Relaxed);
        let before = batch.kernels.start().iter().filter(|&&t| t < started_at).count();
        b.fetch_add(before as u64, Ordering::Relaxed);
        a.fetch_add(batch.api_calls.len() as u64, Ordering::Relaxed);
    });
    if let Err(e) = session.start() {
        set_error(format!("starting the session: {e}"));
        return -4;
    }
    *probe = Some(Probe { session, kernels, kernels_before_start, api_rows });
    0
}

fn stop(out: &mut ProbeCounts) -> i32 {
    let Some(probe) = PROBE.lock().unwrap_or_else(|e| e.into_inner()).take() else {
        set_error("no probe session is running".into());
        return -1;
    };
    let shared = shim_present();
    let version = probe.session.cupti().api_version();
    let end = probe.session.end();
    let c = end.counts;
    let dropped = c.dropped();
    *out = ProbeCounts {
        kernels: probe.kernels.load(Ordering::Relaxed),
        kernels_before_start: probe.kernels_before_start.load(Ordering::Relaxed),
        api_rows: probe.api_rows.load(Ordering::Relaxed),
        records_produced: c.records_produced(),
        records_delivered: c.records_delivered(),
        records_dropped: c.records_dropped(),
        dropped_by_vendor: dropped.by_vendor,
        dropped_skipped: dropped.skipped,
        dropped_unconsumed: dropped.unconsumed,
        other_buffers_taken: c.other_client.buffers_taken,
        other_foreign_buffers: c.other_client.foreign_buffers,
        other_missing_since_unix_ns: c.other_client.missing_since().unwrap_or(0),
        balanced: u32::from(c.is_balanced()),
        fenced: u32::from(end.fence.as_ref().is_ok_and(|f| f.fenced)),
        shared: u32::from(shared),
        cupti_version: version,
    };
    match end.fence {
        Ok(_) => 0,
        Err(e) => {
            set_error(format!("the last fence: {e}"));
            1
        }
    }
}

/// Starts the probe's session (see the module docs).
#[no_mangle]
pub extern "C" fn accelprof_probe_start(flags: u32) -> i32 {
    guarded(-5, || start(flags))
}

/// Ends the probe's session and fills `out` (see the module docs).
///
/// # Safety
/// `out` is NULL or valid for writing one `ProbeCounts`.
#[no_mangle]
pub unsafe extern "C" fn accelprof_probe_stop(out: *mut ProbeCounts) -> i32 {
    guarded(-5, || {
        // SAFETY: the caller passes NULL or a pointer valid for writing one `ProbeCounts`.
        let Some(out) = (unsafe { out.as_mut() }) else {
            set_error("out is NULL".into());
            return -2;
        };
        stop(out)
    })
}

/// The last error message, NUL-terminated into `buf` (at most `len` bytes with the NUL); returns its
/// full length in bytes (without the NUL).
///
/// # Safety
/// `buf` is NULL (with any `len`) or valid for writing `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn accelprof_probe_last_error(buf: *mut c_char, len: usize) -> usize {
    let message = LAST_ERROR.lock().unwrap_or_else(|e| e.into_inner()).clone();
    // SAFETY: forwarded from the caller.
    unsafe { copy_out(&message, buf, len) }
}

/// The path of the libcupti the probe opened (empty before the first start), as
/// [`accelprof_probe_last_error`] copies its message.
///
/// # Safety
/// `buf` is NULL (with any `len`) or valid for writing `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn accelprof_probe_library(buf: *mut c_char, len: usize) -> usize {
    let path = OPENED.lock().unwrap_or_else(|e| e.into_inner()).clone();
    // SAFETY: forwarded from the caller.
    unsafe { copy_out(&path, buf, len) }
}

/// `message` NUL-terminated into `buf` (cut to `len` bytes with the NUL); its full length.
///
/// # Safety
/// `buf` is NULL (with any `len`) or valid for writing `len` bytes.
unsafe fn copy_out(message: &str, buf: *mut c_char, len: usize) -> usize {
    if !buf.is_null() && len > 0 {
        let n = message.len().min(len - 1);
        // SAFETY: `buf` is valid for `len` bytes (the caller's promise) and `n + 1 <= len`; the source
        // is a live `str` of at least `n` bytes that does not overlap a caller's buffer.
        unsafe {
            std::ptr::copy_nonoverlapping(message.as_ptr(), buf.cast::<u8>(), n);
            *buf.add(n) = 0;
        }
    }
    message.len()
}
