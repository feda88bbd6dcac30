//! Stand-in for CANN's `libms_tools_ext.so` (MSTX): `mstxMarkA` and friends call through a table
//! that the profiling module enabled in `libprofapi.so` fills in (MSPTI does while it has a
//! subscriber); with an empty table they do nothing.

#![allow(clippy::missing_safety_doc)]

#[path = "../protocol.rs"]
mod protocol;

use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering::SeqCst};

use protocol::{mstx, MstxFn};

/// The two modules' tables: function addresses (0: empty), written by the injection through the
/// slot pointers handed out, read here atomically.
static CORE: [AtomicUsize; mstx::CORE_END] = [const { AtomicUsize::new(0) }; mstx::CORE_END];
static DOMAIN: [AtomicUsize; mstx::DOMAIN_END] = [const { AtomicUsize::new(0) }; mstx::DOMAIN_END];
static CORE_SLOTS: [AtomicPtr<MstxFn>; mstx::CORE_END] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; mstx::CORE_END];
static DOMAIN_SLOTS: [AtomicPtr<MstxFn>; mstx::DOMAIN_END] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; mstx::DOMAIN_END];

/// At the first call: asks `libprofapi.so` (beside this file, as CANN installs them) for the
/// enabled profiling module's functions, in case it was enabled before this library was loaded.
fn attach() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        #[repr(C)]
        struct DlInfo {
            fname: *const c_char,
            fbase: *mut c_void,
            sname: *const c_char,
            saddr: *mut c_void,
        }
        extern "C" {
            fn dladdr(addr: *const c_void, info: *mut DlInfo) -> i32;
            fn dlopen(name: *const c_char, flags: i32) -> *mut c_void;
            fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
        }
        let mut info = DlInfo {
            fname: std::ptr::null(),
            fbase: std::ptr::null_mut(),
            sname: std::ptr::null(),
            saddr: std::ptr::null_mut(),
        };
        // SAFETY: an address of this library and a valid out-struct.
        if unsafe { dladdr(attach as *const c_void, &mut info) } == 0 || info.fname.is_null() {
            return;
        }
        // SAFETY: dladdr gives a NUL-terminated file name.
        let me = unsafe { std::ffi::CStr::from_ptr(info.fname) }.to_string_lossy().into_owned();
        let Some(dir) = std::path::Path::new(&me).parent() else { return };
        let Ok(path) = std::ffi::CString::new(dir.join("libprofapi.so").to_string_lossy().into_owned())
        else {
            return;
        };
        // SAFETY: the profiling stand-in beside this file.
        let profapi = unsafe { dlopen(path.as_ptr(), 1) };
        if profapi.is_null() {
            return;
        }
        // SAFETY: looks up a function of the stand-in.
        let f = unsafe { dlsym(profapi, c"mock_profapi_mstx_attach".as_ptr()) };
        if !f.is_null() {
            // SAFETY: `void mock_profapi_mstx_attach(MstxGetModuleFuncTableFunc)`.
            let f: unsafe extern "C" fn(Option<protocol::MstxGetTable>) = unsafe { std::mem::transmute(f) };
            // SAFETY: our table function.
            unsafe { f(Some(mock_mstx_get_module_func_table)) };
        }
    });
}

fn slot(module: i32, index: usize) -> MstxFn {
    attach();
    let table: &[AtomicUsize] = if module == mstx::MODULE_CORE { &CORE } else { &DOMAIN };
    let f = table[index].load(SeqCst);
    // SAFETY: 0 or a function address the injection stored (an `Option<fn>` has the same layout).
    unsafe { std::mem::transmute::<usize, MstxFn>(f) }
}

/// Empties the table (called by `libprofapi.so` before it hands the table to a module).
#[no_mangle]
pub extern "C" fn mock_mstx_reset() {
    for s in CORE.iter().chain(DOMAIN.iter()) {
        s.store(0, SeqCst);
    }
}

/// `MstxGetModuleFuncTableFunc`: the slots of one module's table, for the injection to fill.
#[no_mangle]
pub unsafe extern "C" fn mock_mstx_get_module_func_table(
    module: i32,
    table: *mut *mut *mut MstxFn,
    size: *mut u32,
) -> i32 {
    let (cells, slots): (&[AtomicUsize], &[AtomicPtr<MstxFn>]) = match module {
        mstx::MODULE_CORE => (&CORE, &CORE_SLOTS),
        mstx::MODULE_CORE_DOMAIN => (&DOMAIN, &DOMAIN_SLOTS),
        _ => return 1,
    };
    for (cell, slot) in cells.iter().zip(slots) {
        slot.store(cell.as_ptr().cast::<MstxFn>(), SeqCst);
    }
    // SAFETY: the caller's out-pointers; `AtomicPtr<T>` has the layout of `*mut T`, and the slots
    // live in a static.
    unsafe {
        *table = slots.as_ptr().cast_mut().cast::<*mut MstxFn>();
        *size = cells.len() as u32;
    }
    0
}

#[no_mangle]
pub unsafe extern "C" fn mstxMarkA(message: *const c_char, stream: *mut c_void) {
    if let Some(f) = slot(mstx::MODULE_CORE, mstx::CORE_MARKA) {
        // SAFETY: the injection stored `void (*)(const char*, aclrtStream)` here.
        let f: unsafe extern "C" fn(*const c_char, *mut c_void) = unsafe { std::mem::transmute(f) };
        // SAFETY: the caller's arguments.
        unsafe { f(message, stream) }
    }
}

#[no_mangle]
pub unsafe extern "C" fn mstxRangeStartA(message: *const c_char, stream: *mut c_void) -> u64 {
    match slot(mstx::MODULE_CORE, mstx::CORE_RANGE_STARTA) {
        Some(f) => {
            // SAFETY: the injection stored `uint64_t (*)(const char*, aclrtStream)` here.
            let f: unsafe extern "C" fn(*const c_char, *mut c_void) -> u64 =
                unsafe { std::mem::transmute(f) };
            // SAFETY: the caller's arguments.
            unsafe { f(message, stream) }
        }
        None => 0,
    }
}

#[no_mangle]
pub unsafe extern "C" fn mstxRangeEnd(id: u64) {
    if let Some(f) = slot(mstx::MODULE_CORE, mstx::CORE_RANGE_END) {
        // SAFETY: the injection stored `void (*)(uint64_t)` here.
        let f: unsafe extern "C" fn(u64) = unsafe { std::mem::transmute(f) };
        // SAFETY: a plain value.
        unsafe { f(id) }
    }
}

#[no_mangle]
pub unsafe extern "C" fn mstxDomainCreateA(name: *const c_char) -> *mut c_void {
    match slot(mstx::MODULE_CORE_DOMAIN, mstx::DOMAIN_CREATEA) {
        Some(f) => {
            // SAFETY: the injection stored `mstxDomainHandle_t (*)(const char*)` here.
            let f: unsafe extern "C" fn(*const c_char) -> *mut c_void = unsafe { std::mem::transmute(f) };
            // SAFETY: the caller's name.
            unsafe { f(name) }
        }
        None => std::ptr::null_mut(),
    }
}

#[no_mangle]
pub unsafe extern "C" fn mstxDomainMarkA(domain: *mut c_void, message: *const c_char, stream: *mut c_void) {
    if let Some(f) = slot(mstx::MODULE_CORE_DOMAIN, mstx::DOMAIN_MARKA) {
        // SAFETY: the injection stored `void (*)(mstxDomainHandle_t, const char*, aclrtStream)` here.
        let f: unsafe extern "C" fn(*mut c_void, *const c_char, *mut c_void) =
            unsafe { std::mem::transmute(f) };
        // SAFETY: the caller's arguments.
        unsafe { f(domain, message, stream) }
    }
}
