//! What every module of the mock shares (status constants, a sendable C pointer, thread ids,
//! the clock, payload words) and the version, clock and status-name entry points.

use std::ffi::c_void;

use crate::names;
use crate::types::*;

/// Status values (the newtype's associated constants, shortened).
pub(crate) mod status {
    use super::rocprofiler_status_t as S;
    pub const SUCCESS: S = S::ROCPROFILER_STATUS_SUCCESS;
    pub const CONTEXT_NOT_FOUND: S = S::ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    pub const BUFFER_NOT_FOUND: S = S::ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    pub const KIND_NOT_FOUND: S = S::ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    pub const OPERATION_NOT_FOUND: S = S::ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
    pub const THREAD_NOT_FOUND: S = S::ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
    pub const AGENT_NOT_FOUND: S = S::ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    pub const COUNTER_NOT_FOUND: S = S::ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
    pub const CONTEXT_INVALID: S = S::ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
    pub const CONTEXT_CONFLICT: S = S::ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
    pub const CONTEXT_ID_NOT_ZERO: S = S::ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO;
    pub const SERVICE_ALREADY_CONFIGURED: S = S::ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
    pub const CONFIGURATION_LOCKED: S = S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    pub const INCOMPATIBLE_ABI: S = S::ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
    pub const INVALID_ARGUMENT: S = S::ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    pub const FINALIZED: S = S::ROCPROFILER_STATUS_ERROR_FINALIZED;
    pub const AGENT_ARCH_NOT_SUPPORTED: S = S::ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
    pub const METRIC_NOT_VALID_FOR_AGENT: S = S::ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT;
    pub const EXCEEDS_HW_LIMIT: S = S::ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
    pub const DIM_NOT_FOUND: S = S::ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND;
}

/// Where the real SDK crashes, throws out of C, or trips a fatal assert, the mock aborts the
/// process loudly (never returning an error the real library would not give): a test sees the
/// abort and this message.
pub(crate) fn crash(what: &str) -> ! {
    eprintln!("[mock rocprofiler] the real rocprofiler-sdk crashes here: {what}");
    std::process::abort()
}

/// A C pointer carried across threads; the C side owns what it points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ptr(pub *mut c_void);
// SAFETY: the pointee belongs to the tool, which hands it to us to be passed back to its own
// callbacks; the mock never dereferences it.
unsafe impl Send for Ptr {}
// SAFETY: as above.
unsafe impl Sync for Ptr {}

/// The calling thread's OS thread id (what the real SDK reports).
pub(crate) fn thread_id() -> u64 {
    extern "C" {
        fn gettid() -> i32;
    }
    // SAFETY: gettid has no preconditions.
    unsafe { gettid() as u64 }
}

/// Nanoseconds on the mock's steady clock (the same clock for every timestamp it reports).
pub(crate) fn now_ns() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    // Start well above zero so that 0 never looks like a valid timestamp.
    1_000_000_000 + START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// A payload copied into 8-byte words (records are read back through typed pointers).
pub(crate) fn words_of<T: Copy>(value: &T) -> Vec<u64> {
    let size = std::mem::size_of::<T>();
    let mut words = vec![0u64; size.div_ceil(8).max(1)];
    // SAFETY: `words` holds at least `size` bytes; T is plain C data.
    unsafe {
        std::ptr::copy_nonoverlapping(value as *const T as *const u8, words.as_mut_ptr() as *mut u8, size)
    };
    words
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_get_version(
    major: *mut u32,
    minor: *mut u32,
    patch: *mut u32,
) -> rocprofiler_status_t {
    if !major.is_null() {
        *major = 1;
    }
    if !minor.is_null() {
        *minor = 0;
    }
    if !patch.is_null() {
        *patch = 0;
    }
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_get_version_triplet(
    info: *mut rocprofiler_version_triplet_t,
) -> rocprofiler_status_t {
    if info.is_null() {
        return status::INVALID_ARGUMENT;
    }
    *info = rocprofiler_version_triplet_t { major: 1, minor: 0, patch: 0 };
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_get_timestamp(ts: *mut rocprofiler_timestamp_t) -> rocprofiler_status_t {
    if ts.is_null() {
        return status::INVALID_ARGUMENT;
    }
    *ts = now_ns();
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_get_thread_id(
    tid: *mut rocprofiler_thread_id_t,
) -> rocprofiler_status_t {
    if tid.is_null() {
        return status::INVALID_ARGUMENT;
    }
    *tid = thread_id();
    status::SUCCESS
}

#[no_mangle]
pub extern "C" fn rocprofiler_get_status_name(status: rocprofiler_status_t) -> *const std::ffi::c_char {
    names::status_name(status.0)
}

#[no_mangle]
pub extern "C" fn rocprofiler_get_status_string(status: rocprofiler_status_t) -> *const std::ffi::c_char {
    names::status_string(status.0)
}

/// Makes statuses at and past `last` unknown (NULL strings), as an older library whose
/// `ROCPROFILER_STATUS_LAST` is smaller would. `0` restores the default (42).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_set_status_last(last: u32) {
    names::set_status_last(last);
}
