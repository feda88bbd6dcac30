//! Stand-in for the CANN toolkit's `libc_sec.so` (the securec library, libboundscheck): the
//! bounded copy the mock `libmspti.so` writes its records with, so that the mock needs this file
//! (a DT_NEEDED entry) exactly as the real library does.

#![allow(clippy::missing_safety_doc)]

use std::ffi::c_void;

/// `errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count)`: 0 on success,
/// nonzero (and nothing copied) when `count > destMax` or a pointer is NULL.
#[no_mangle]
pub unsafe extern "C" fn memcpy_s(
    dest: *mut c_void,
    dest_max: usize,
    src: *const c_void,
    count: usize,
) -> i32 {
    const EINVAL: i32 = 22;
    const ERANGE: i32 = 34;
    if dest.is_null() || src.is_null() {
        return EINVAL;
    }
    if count > dest_max {
        return ERANGE;
    }
    // SAFETY: the caller's buffers, `count <= dest_max` bytes.
    unsafe { std::ptr::copy_nonoverlapping(src.cast::<u8>(), dest.cast::<u8>(), count) };
    0
}
