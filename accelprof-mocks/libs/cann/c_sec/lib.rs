//! Stand-in for the CANN toolkit's `libc_sec.so` (the securec library, libboundscheck): the
//! bounded copy the mock `libmspti.so` writes its records with, so that the mock needs this file
//! (a DT_NEEDED entry) exactly as the real library does; and every function the real
//! `libmspti.so` imports from it (`memcpy_s`, `memset_s`, `sprintf_s`), so that the stand-ins
//! drive the real library too.

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

/// `errno_t memset_s(void *dest, size_t destMax, int c, size_t count)`: 0 on success; nonzero when
/// `dest` is NULL or `count > destMax` (then, as securec does, the first `destMax` bytes are set).
#[no_mangle]
pub unsafe extern "C" fn memset_s(dest: *mut c_void, dest_max: usize, c: i32, count: usize) -> i32 {
    const EINVAL: i32 = 22;
    const ERANGE_AND_RESET: i32 = 162;
    if dest.is_null() {
        return EINVAL;
    }
    let n = count.min(dest_max);
    // SAFETY: the caller's buffer of `dest_max >= n` bytes.
    unsafe { std::ptr::write_bytes(dest.cast::<u8>(), c as u8, n) };
    if count > dest_max {
        ERANGE_AND_RESET
    } else {
        0
    }
}

/// `int sprintf_s(char *strDest, size_t destMax, const char *format, ...)`: the formatted length,
/// or -1 (and an empty string) when it does not fit or an argument is NULL.
///
/// Stable Rust cannot define a C variadic function, so this one takes the first four variadic
/// arguments as the integer registers and stack slot that the x86-64 and AArch64 Linux calling
/// conventions pass them in: enough for what `libmspti.so` formats (`"...%s:%d...%u...%s"`, its
/// log prefix). It reads `%s`, `%d`, `%i`, `%u`, `%ld`, `%lu`, `%zu`, `%x`, `%p` and `%%`, at most four
/// conversions; any other format returns -1.
#[no_mangle]
pub unsafe extern "C" fn sprintf_s(
    dest: *mut std::ffi::c_char,
    dest_max: usize,
    format: *const std::ffi::c_char,
    a0: usize,
    a1: usize,
    a2: usize,
    a3: usize,
) -> i32 {
    if dest.is_null() || format.is_null() || dest_max == 0 {
        return -1;
    }
    // SAFETY: the caller's NUL-terminated format.
    let fmt = unsafe { std::ffi::CStr::from_ptr(format) }.to_bytes();
    let args = [a0, a1, a2, a3];
    let mut next = args.iter().copied();
    let mut out: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        i += 1;
        let mut long = false;
        while i < fmt.len() && matches!(fmt[i], b'l' | b'z') {
            long = true;
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else { return fail(dest) };
        i += 1;
        if conv == b'%' {
            out.push(b'%');
            continue;
        }
        let Some(arg) = next.next() else { return fail(dest) };
        match conv {
            b's' => {
                if arg == 0 {
                    return fail(dest);
                }
                // SAFETY: a `%s` argument is a NUL-terminated string.
                out.extend_from_slice(unsafe { std::ffi::CStr::from_ptr(arg as *const _) }.to_bytes());
            }
            b'd' | b'i' if long => out.extend_from_slice((arg as i64).to_string().as_bytes()),
            b'd' | b'i' => out.extend_from_slice((arg as u32 as i32).to_string().as_bytes()),
            b'u' if long => out.extend_from_slice((arg as u64).to_string().as_bytes()),
            b'u' => out.extend_from_slice((arg as u32).to_string().as_bytes()),
            b'x' if long => out.extend_from_slice(format!("{:x}", arg as u64).as_bytes()),
            b'x' => out.extend_from_slice(format!("{:x}", arg as u32).as_bytes()),
            b'p' => out.extend_from_slice(format!("{arg:#x}").as_bytes()),
            _ => return fail(dest),
        }
    }
    if out.len() >= dest_max {
        return fail(dest);
    }
    // SAFETY: the caller's buffer of `dest_max > out.len()` bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(out.as_ptr(), dest.cast::<u8>(), out.len());
        *dest.add(out.len()) = 0;
    }
    out.len() as i32
}

/// securec's failure: an empty string, -1.
fn fail(dest: *mut std::ffi::c_char) -> i32 {
    // SAFETY: `dest` is the caller's non-NULL buffer of at least one byte.
    unsafe { *dest = 0 };
    -1
}
