//! Release-dependent behaviour: version numbers, result strings, record layouts by release,
//! the timestamp clock.

use std::ffi::{c_char, CStr};
use std::time::{SystemTime, UNIX_EPOCH};

use cupti_sys::CUptiResult;

use super::buffers;
use super::harness::{mock, ok, Mock};
use super::layout::{kernel, kind, kinds, memcpy, u32_at, u64_at};

fn result_string(m: &Mock, code: u32) -> (u32, String) {
    let mut s: *const c_char = std::ptr::null();
    // SAFETY: valid out-pointer.
    let r = ok(unsafe { m.f().cuptiGetResultString(CUptiResult(code), &mut s) });
    // SAFETY: the library returns a static C string.
    (r, unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned())
}

#[test]
fn version_numbering_follows_the_played_release() {
    let (_g, m) = mock();
    assert_eq!(m.version(), 130001, "13.0 is the default");
    m.set_version(28);
    assert_eq!(m.version(), 28, "12.9 counts 1, 2, ...");
    assert_eq!(m.stat(c"version"), 28);
    // SAFETY: NULL is an invalid parameter.
    assert_eq!(ok(unsafe { m.f().cuptiGetVersion(std::ptr::null_mut()) }), 1);
}

#[test]
fn result_strings_match_the_real_libraries() {
    let (_g, m) = mock();
    assert_eq!(result_string(m, 39), (0, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED".into()));
    assert_eq!(result_string(m, 999), (0, "CUPTI_ERROR_UNKNOWN".into()));
    assert_eq!(result_string(m, 46), (0, "CUPTI_ERROR_INVALID_CHIP_NAME".into()));
    assert_eq!(result_string(m, 36), (1, "<unknown>".into()), "36 has no name");
    assert_eq!(result_string(m, 47), (1, "<unknown>".into()));
    let mut s: *const c_char = std::ptr::null();
    // SAFETY: valid out-pointer.
    assert_eq!(ok(unsafe { m.f().cuptiGetErrorMessage(CUptiResult(47), &mut s) }), 0, "no error for unknown");
    m.set_version(28);
    assert_eq!(result_string(m, 46), (1, "<unknown>".into()), "12.9 has no code 46");
}

#[test]
fn the_12_9_release_writes_kernel9_records() {
    let (_g, m) = mock();
    m.set_version(28);
    buffers::register();
    m.enable(kinds::CONCURRENT_KERNEL);
    m.enable(kinds::MEMCPY);
    let corr = m.launch(c"old", [3, 1, 1], [64, 1, 1], 0, 0x5, 1_000);
    m.memcpy(0x1, 0x2, 10, 3, 0x5, 1, 100);
    assert_eq!(m.flush(0), 0);
    let records = buffers::records();
    let k = records.iter().find(|r| kind(r) == kinds::CONCURRENT_KERNEL).expect("kernel");
    assert_eq!(k.len(), kernel::SIZE_12_9, "CUpti_ActivityKernel9");
    assert_eq!(u32_at(k, kernel::CORRELATION), corr);
    assert_eq!(u32_at(k, kernel::GRID_X), 3);
    assert_eq!(u64_at(k, kernel::END) - u64_at(k, kernel::START), 1_000);
    let c = records.iter().find(|r| kind(r) == kinds::MEMCPY).expect("memcpy");
    assert_eq!(c.len(), memcpy::SIZE);
    assert_eq!(c[memcpy::COPY_KIND], 8, "DTOD");
}

#[test]
fn the_13_2_release_writes_kernel11_sized_records() {
    let (_g, m) = mock();
    m.set_version(130202);
    buffers::register();
    m.enable(kinds::CONCURRENT_KERNEL);
    m.launch(c"new", [1, 1, 1], [1, 1, 1], 0, 0, 10);
    assert_eq!(m.flush(0), 0);
    let records = buffers::records();
    assert_eq!(records[0].len(), 224, "sizeof(CUpti_ActivityKernel11)");
}

#[test]
fn timestamps_are_clock_realtime_nanoseconds() {
    let (_g, m) = mock();
    let before = SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_nanos() as u64;
    let t = m.timestamp();
    let after = SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").as_nanos() as u64;
    assert!(before <= t && t <= after, "{before} <= {t} <= {after}");
    // SAFETY: NULL is an invalid parameter.
    assert_eq!(ok(unsafe { m.f().cuptiGetTimestamp(std::ptr::null_mut()) }), 1);
}

#[test]
fn the_thread_id_type_is_settable() {
    let (_g, m) = mock();
    let mut t = cupti_sys::CUpti_ActivityThreadIdType(9);
    // SAFETY: valid out-pointer and plain values.
    unsafe {
        assert_eq!(ok(m.f().cuptiGetThreadIdType(&mut t)), 0);
        assert_eq!(t.0, 0, "DEFAULT");
        assert_eq!(ok(m.f().cuptiSetThreadIdType(cupti_sys::CUpti_ActivityThreadIdType(1))), 0);
        assert_eq!(ok(m.f().cuptiGetThreadIdType(&mut t)), 0);
        assert_eq!(t.0, 1, "SYSTEM");
        assert_eq!(ok(m.f().cuptiSetThreadIdType(cupti_sys::CUpti_ActivityThreadIdType(2))), 1);
    }
}
