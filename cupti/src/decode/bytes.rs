//! Reading fields of a record in place, at offsets taken from the generated record structs.
//!
//! A record is viewed as a fixed-size array (`&[u8; N]`, `N = size_of` of the struct whose fields are
//! read), obtained with one bounds check per record; every field read after that is at a constant offset
//! inside the array, so it needs no check of its own. Reads copy bytes out (`from_ne_bytes`): no alignment
//! is assumed and no reference into the buffer outlives the walk.

use std::ffi::c_char;
use std::mem::size_of;

/// The `N` bytes of the record starting at `bytes[0]`, or `None` when fewer remain.
#[inline(always)]
pub(crate) fn view<const N: usize>(bytes: &[u8]) -> Option<&[u8; N]> {
    bytes.get(..N)?.try_into().ok()
}

#[inline(always)]
pub(crate) fn u8_at<const N: usize>(r: &[u8; N], off: usize) -> u8 {
    r[off]
}

#[inline(always)]
pub(crate) fn u16_at<const N: usize>(r: &[u8; N], off: usize) -> u16 {
    let mut b = [0u8; 2];
    b.copy_from_slice(&r[off..off + 2]);
    u16::from_ne_bytes(b)
}

#[inline(always)]
pub(crate) fn u32_at<const N: usize>(r: &[u8; N], off: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&r[off..off + 4]);
    u32::from_ne_bytes(b)
}

#[inline(always)]
pub(crate) fn i32_at<const N: usize>(r: &[u8; N], off: usize) -> i32 {
    u32_at(r, off) as i32
}

#[inline(always)]
pub(crate) fn u64_at<const N: usize>(r: &[u8; N], off: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&r[off..off + 8]);
    u64::from_ne_bytes(b)
}

/// A `const char *` field. The pointer is only an address here: dereferencing it is the caller's
/// business (and `unsafe`).
#[inline(always)]
pub(crate) fn ptr_at<const N: usize>(r: &[u8; N], off: usize) -> *const c_char {
    let mut b = [0u8; size_of::<usize>()];
    b.copy_from_slice(&r[off..off + size_of::<usize>()]);
    usize::from_ne_bytes(b) as *const c_char
}

/// The first 4 bytes of a record: its `CUpti_ActivityKind`.
#[inline(always)]
pub(crate) fn kind_at(bytes: &[u8], off: usize) -> Option<u32> {
    let b: [u8; 4] = bytes.get(off..off + 4)?.try_into().ok()?;
    Some(u32::from_ne_bytes(b))
}

/// A negative count from CUPTI's `int32_t` fields (never expected) reads as 0.
#[inline(always)]
pub(crate) fn non_negative(v: i32) -> u32 {
    v.max(0) as u32
}
