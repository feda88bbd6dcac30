//! `cuptiGetVersion`, `cuptiGetResultString` and `cuptiGetErrorMessage`, as probed on the real
//! 12.9.79 and 13.0.85 libraries: the name of every known code (36 and 37 have none; 46 only
//! from 13.0; the private codes 1000..=1004 have names too), and for an unknown code the string
//! `<unknown>` with `CUPTI_ERROR_INVALID_PARAMETER` from `cuptiGetResultString` but
//! `CUPTI_SUCCESS` from `cuptiGetErrorMessage`. The real `cuptiGetErrorMessage` returns NVIDIA's
//! descriptive sentence for many codes; the mock, which copies no vendor prose, returns the
//! code's name there too.

use std::ffi::{c_char, CStr};

use crate::version;

pub const SUCCESS: u32 = 0;
pub const INVALID_PARAMETER: u32 = 1;
pub const INVALID_OPERATION: u32 = 7;
pub const API_NOT_IMPLEMENTED: u32 = 11;
pub const MAX_LIMIT_REACHED: u32 = 12;
pub const QUEUE_EMPTY: u32 = 18;
pub const INVALID_KIND: u32 = 21;
pub const NOT_COMPATIBLE: u32 = 14;
pub const NOT_SUPPORTED: u32 = 27;
pub const MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: u32 = 39;
pub const ERROR_UNKNOWN: u32 = 999;

const NAMES: &[(u32, &CStr)] = &[
    (0, c"CUPTI_SUCCESS"),
    (1, c"CUPTI_ERROR_INVALID_PARAMETER"),
    (2, c"CUPTI_ERROR_INVALID_DEVICE"),
    (3, c"CUPTI_ERROR_INVALID_CONTEXT"),
    (4, c"CUPTI_ERROR_INVALID_EVENT_DOMAIN_ID"),
    (5, c"CUPTI_ERROR_INVALID_EVENT_ID"),
    (6, c"CUPTI_ERROR_INVALID_EVENT_NAME"),
    (7, c"CUPTI_ERROR_INVALID_OPERATION"),
    (8, c"CUPTI_ERROR_OUT_OF_MEMORY"),
    (9, c"CUPTI_ERROR_HARDWARE"),
    (10, c"CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT"),
    (11, c"CUPTI_ERROR_API_NOT_IMPLEMENTED"),
    (12, c"CUPTI_ERROR_MAX_LIMIT_REACHED"),
    (13, c"CUPTI_ERROR_NOT_READY"),
    (14, c"CUPTI_ERROR_NOT_COMPATIBLE"),
    (15, c"CUPTI_ERROR_NOT_INITIALIZED"),
    (16, c"CUPTI_ERROR_INVALID_METRIC_ID"),
    (17, c"CUPTI_ERROR_INVALID_METRIC_NAME"),
    (18, c"CUPTI_ERROR_QUEUE_EMPTY"),
    (19, c"CUPTI_ERROR_INVALID_HANDLE"),
    (20, c"CUPTI_ERROR_INVALID_STREAM"),
    (21, c"CUPTI_ERROR_INVALID_KIND"),
    (22, c"CUPTI_ERROR_INVALID_EVENT_VALUE"),
    (23, c"CUPTI_ERROR_DISABLED"),
    (24, c"CUPTI_ERROR_INVALID_MODULE"),
    (25, c"CUPTI_ERROR_INVALID_METRIC_VALUE"),
    (26, c"CUPTI_ERROR_HARDWARE_BUSY"),
    (27, c"CUPTI_ERROR_NOT_SUPPORTED"),
    (28, c"CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED"),
    (29, c"CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE"),
    (30, c"CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_NON_P2P_DEVICES"),
    (31, c"CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_WITH_MPS"),
    (32, c"CUPTI_ERROR_CDP_TRACING_NOT_SUPPORTED"),
    (33, c"CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED"),
    (34, c"CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE"),
    (35, c"CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"),
    (38, c"CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED"),
    (39, c"CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"),
    (40, c"CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES"),
    (41, c"CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED"),
    (42, c"CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED"),
    (43, c"CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED"),
    (44, c"CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED"),
    (45, c"CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED"),
    (46, c"CUPTI_ERROR_INVALID_CHIP_NAME"),
    (999, c"CUPTI_ERROR_UNKNOWN"),
    (1000, c"CUPTI_ERROR_CANT_OPEN_FILE"),
    (1001, c"CUPTI_ERROR_FROM_DBMS"),
    (1002, c"CUPTI_ERROR_OPENED_FOR_WRITE"),
    (1003, c"CUPTI_ERROR_OPENED_FOR_READ"),
    (1004, c"CUPTI_ERROR_TRUNCATED_PDM"),
];

const UNKNOWN: &CStr = c"<unknown>";

/// The name of `code` in the played release, if it has one.
fn name(code: u32) -> Option<&'static CStr> {
    if code == 46 && version::is_v12() {
        return None;
    }
    NAMES.iter().find(|(c, _)| *c == code).map(|(_, n)| *n)
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetVersion(out: *mut u32) -> u32 {
    if version::everything_needs_driver() {
        return ERROR_UNKNOWN;
    }
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: the caller passes a writable u32.
    unsafe { *out = version::get() };
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetResultString(result: u32, out: *mut *const c_char) -> u32 {
    if version::everything_needs_driver() {
        return ERROR_UNKNOWN;
    }
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    let (text, status) = match name(result) {
        Some(n) => (n, SUCCESS),
        None => (UNKNOWN, INVALID_PARAMETER),
    };
    // SAFETY: the caller passes a writable pointer slot; the strings are static.
    unsafe { *out = text.as_ptr() };
    status
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetErrorMessage(result: u32, out: *mut *const c_char) -> u32 {
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: as above.
    unsafe { *out = name(result).unwrap_or(UNKNOWN).as_ptr() };
    SUCCESS
}
