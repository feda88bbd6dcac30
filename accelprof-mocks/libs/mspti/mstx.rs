//! MSTX markers. MSPTI registers its injection with `libprofapi.so` at load; at subscribe it
//! asks for `libms_tools_ext.so`'s table (`ProfEnableMstxFunc(MSPTI)`) and fills it with the
//! functions below, and at unsubscribe hands the table back to MSPROF: `mstxMarkA` and friends
//! reach MSPTI only while a subscriber exists.
//!
//! `mstxMarkA` and `mstxRangeStartA` mark in the domain "default"; a message or domain name of
//! 255 bytes or more is refused (the mark is dropped; the marker-domain switches return 1);
//! a domain is collected unless it was switched off by name (before or after it was created).

use std::collections::HashSet;
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::{Mutex, MutexGuard};

use crate::activity::{is_enabled, record};
use crate::protocol::{mstx, MstxFn, MstxGetTable};
use crate::records::{self, kind};
use crate::result::*;

/// `MAX_MARK_MSG_LEN`: `strnlen(msg, 255) == 255` is refused.
const MAX_LEN: usize = 255;
const DEFAULT: &CStr = c"default";

/// `msptiActivityFlag` bits of host markers.
const INSTANTANEOUS: u32 = 1;
const START: u32 = 2;
const END: u32 = 4;
pub const INSTANTANEOUS_WITH_DEVICE: u32 = 8;
pub const START_WITH_DEVICE: u32 = 16;
pub const END_WITH_DEVICE: u32 = 32;

fn valid(s: *const c_char) -> Option<&'static [u8]> {
    if s.is_null() {
        return None;
    }
    // SAFETY: the caller's NUL-terminated string; only its first 255 bytes are looked at first.
    let bytes = unsafe { CStr::from_ptr(s) }.to_bytes();
    (bytes.len() < MAX_LEN).then(|| {
        // SAFETY: interned: lives for the process.
        unsafe { CStr::from_ptr(crate::intern_bytes(bytes)) }.to_bytes()
    })
}

/// Domain names switched off.
static DISABLED: Mutex<Option<HashSet<Vec<u8>>>> = Mutex::new(None);
/// Created domains: handle (the interned name's address) -> name.
static DOMAINS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

fn disabled() -> MutexGuard<'static, Option<HashSet<Vec<u8>>>> {
    DISABLED.lock().unwrap_or_else(|e| e.into_inner())
}

fn domain_on(name: &[u8]) -> bool {
    !disabled().as_ref().is_some_and(|s| s.contains(name))
}

fn set_domain(name: *const c_char, on: bool) -> u32 {
    let Some(name) = valid(name) else { return INVALID_PARAMETER };
    let mut d = disabled();
    let set = d.get_or_insert_with(HashSet::new);
    if on {
        set.remove(name);
    } else {
        set.insert(name.to_vec());
    }
    SUCCESS
}

/// Whether markers of the domain named `domain` are collected (NULL: no domain, collected).
pub fn domain_collected(domain: *const c_char) -> bool {
    if domain.is_null() {
        return true;
    }
    // SAFETY: the controls pass NUL-terminated names.
    domain_on(unsafe { CStr::from_ptr(domain) }.to_bytes())
}

#[no_mangle]
pub extern "C" fn msptiActivityEnableMarkerDomain(name: *const c_char) -> u32 {
    if crate::reentered("msptiActivityEnableMarkerDomain") {
        return INNER;
    }
    set_domain(name, true)
}

#[no_mangle]
pub extern "C" fn msptiActivityDisableMarkerDomain(name: *const c_char) -> u32 {
    if crate::reentered("msptiActivityDisableMarkerDomain") {
        return INNER;
    }
    set_domain(name, false)
}

static MARK_ID: AtomicU64 = AtomicU64::new(0);
/// Open ranges: (id, name, domain, stream).
static RANGES: Mutex<Vec<(u64, usize, usize, usize)>> = Mutex::new(Vec::new());

/// The next mark id (`++gMarkId_`: marks, ranges and the inner marks around HCCL operations share it).
pub fn next_mark_id() -> u64 {
    MARK_ID.fetch_add(1, SeqCst) + 1
}

fn host_mark(flag: u32, id: u64, name: *const c_char, domain: *const c_char) {
    let r =
        records::marker(flag, 0, crate::now_ns(), id, std::process::id(), crate::thread_id(), name, domain);
    record(r.bytes(), false);
}

fn mark(message: *const c_char, stream: *mut c_void, domain: &'static [u8]) {
    let Some(message) = valid(message) else { return };
    if !is_enabled(kind::MARKER) || !domain_on(domain) {
        return;
    }
    let id = next_mark_id();
    // A mark on a stream: its device side first (`aclrtProfTrace`); a failure drops the mark.
    if !stream.is_null() && !crate::interpose::prof_trace(id, INSTANTANEOUS_WITH_DEVICE, stream) {
        return;
    }
    let flag = if stream.is_null() { INSTANTANEOUS } else { INSTANTANEOUS_WITH_DEVICE };
    host_mark(flag, id, crate::intern_bytes(message), crate::intern_bytes(domain));
}

fn range_start(message: *const c_char, stream: *mut c_void, domain: &'static [u8]) -> u64 {
    let Some(message) = valid(message) else { return 0 };
    if !is_enabled(kind::MARKER) || !domain_on(domain) {
        return 0;
    }
    let id = next_mark_id();
    if !stream.is_null() && !crate::interpose::prof_trace(id, START_WITH_DEVICE, stream) {
        return 0;
    }
    let (name, dom) = (crate::intern_bytes(message), crate::intern_bytes(domain));
    RANGES.lock().unwrap_or_else(|e| e.into_inner()).push((id, name as usize, dom as usize, stream as usize));
    host_mark(if stream.is_null() { START } else { START_WITH_DEVICE }, id, name, dom);
    id
}

unsafe extern "C" fn mark_a(message: *const c_char, stream: *mut c_void) {
    mark(message, stream, DEFAULT.to_bytes());
}

unsafe extern "C" fn range_start_a(message: *const c_char, stream: *mut c_void) -> u64 {
    range_start(message, stream, DEFAULT.to_bytes())
}

unsafe extern "C" fn range_end(id: u64) {
    if !is_enabled(kind::MARKER) {
        return;
    }
    let mut ranges = RANGES.lock().unwrap_or_else(|e| e.into_inner());
    let Some(at) = ranges.iter().position(|r| r.0 == id) else { return };
    let (id, name, dom, stream) = ranges.remove(at);
    drop(ranges);
    // SAFETY: an interned name.
    if !domain_on(unsafe { CStr::from_ptr(dom as *const c_char) }.to_bytes()) {
        return;
    }
    let with_device = stream != 0;
    if with_device && !crate::interpose::prof_trace(id, END_WITH_DEVICE, stream as *mut c_void) {
        return;
    }
    host_mark(
        if with_device { END_WITH_DEVICE } else { END },
        id,
        name as *const c_char,
        dom as *const c_char,
    );
}

unsafe extern "C" fn domain_create_a(name: *const c_char) -> *mut c_void {
    let Some(name) = valid(name) else { return std::ptr::null_mut() };
    if name == DEFAULT.to_bytes() {
        return std::ptr::null_mut();
    }
    let handle = crate::intern_bytes(name) as usize;
    let mut d = DOMAINS.lock().unwrap_or_else(|e| e.into_inner());
    if !d.contains(&handle) {
        d.push(handle);
    }
    handle as *mut c_void
}

unsafe extern "C" fn domain_destroy(_domain: *mut c_void) {}

fn domain_name(domain: *mut c_void) -> Option<&'static [u8]> {
    let known = DOMAINS.lock().unwrap_or_else(|e| e.into_inner()).contains(&(domain as usize));
    // SAFETY: a handle of `domain_create_a` is an interned name.
    known.then(|| unsafe { CStr::from_ptr(domain as *const c_char) }.to_bytes())
}

unsafe extern "C" fn domain_mark_a(domain: *mut c_void, message: *const c_char, stream: *mut c_void) {
    if let Some(d) = domain_name(domain) {
        mark(message, stream, d);
    }
}

unsafe extern "C" fn domain_range_start_a(
    domain: *mut c_void,
    message: *const c_char,
    stream: *mut c_void,
) -> u64 {
    domain_name(domain).map_or(0, |d| range_start(message, stream, d))
}

unsafe extern "C" fn domain_range_end(_domain: *mut c_void, id: u64) {
    // SAFETY: as `range_end`.
    unsafe { range_end(id) }
}

/// Fills one module's table.
unsafe fn fill(get: MstxGetTable, module: i32, entries: &[(usize, MstxFn)]) {
    let mut table: *mut *mut MstxFn = std::ptr::null_mut();
    let mut size = 0u32;
    // SAFETY: the tools library's function with valid out-pointers.
    if unsafe { get(module, &mut table, &mut size) } != 0 || table.is_null() {
        return;
    }
    for (slot, f) in entries {
        if *slot < size as usize {
            // SAFETY: `table` has `size` slot pointers, each to a writable function slot.
            unsafe { **table.add(*slot) = *f };
        }
    }
}

/// `InitInjectionMstx`: called by `libprofapi.so` when MSPTI's module is enabled.
pub unsafe extern "C" fn init_injection(get: MstxGetTable) -> i32 {
    // SAFETY: each function is stored in the slot whose C type it has.
    unsafe {
        let f = |p: *const ()| std::mem::transmute::<*const (), MstxFn>(p);
        fill(
            get,
            mstx::MODULE_CORE,
            &[
                (mstx::CORE_MARKA, f(mark_a as *const ())),
                (mstx::CORE_RANGE_STARTA, f(range_start_a as *const ())),
                (mstx::CORE_RANGE_END, f(range_end as *const ())),
            ],
        );
        fill(
            get,
            mstx::MODULE_CORE_DOMAIN,
            &[
                (mstx::DOMAIN_CREATEA, f(domain_create_a as *const ())),
                (mstx::DOMAIN_DESTROY, f(domain_destroy as *const ())),
                (mstx::DOMAIN_MARKA, f(domain_mark_a as *const ())),
                (4, f(domain_range_start_a as *const ())),
                (5, f(domain_range_end as *const ())),
            ],
        );
    }
    0
}

/// Switches every domain back on and forgets open ranges (a control).
pub fn reset() {
    *disabled() = None;
    RANGES.lock().unwrap_or_else(|e| e.into_inner()).clear();
}
