//! The real `libmspti.so` opens CANN's `libascendalog.so` and `libprofapi.so` from a static
//! constructor (`$ASCEND_HOME_PATH/lib64/<lib>` when that file exists, else the plain name
//! through the system loader) and throws when `libascendalog.so` or its log functions are
//! missing (and terminates when `libprofapi.so` is): the process aborts while `dlopen` is
//! still loading it. This constructor does the same, so a loader that opens the library without checking first takes its process down.

use std::ffi::{c_void, CString};
use std::os::raw::{c_char, c_int};

#[link(name = "dl")]
extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

const RTLD_LAZY: c_int = 1;

fn open_dependency(lib: &str) -> *mut c_void {
    let home = std::env::var("ASCEND_HOME_PATH").unwrap_or_default();
    let mut path = lib.to_string();
    if !home.is_empty() {
        let candidate = format!("{home}/lib64/{lib}");
        if std::path::Path::new(&candidate).is_file() {
            path = candidate;
        }
    }
    let Ok(c) = CString::new(path) else { return std::ptr::null_mut() };
    // SAFETY: a NUL-terminated path; opening the stand-ins runs no code of consequence.
    unsafe { dlopen(c.as_ptr(), RTLD_LAZY) }
}

fn has(handle: *mut c_void, name: &str) -> bool {
    let c = CString::new(name).expect("no NUL");
    // SAFETY: `handle` is a live handle; only the address is looked up.
    !handle.is_null() && !unsafe { dlsym(handle, c.as_ptr()) }.is_null()
}

extern "C" fn load_cann() {
    let alog = open_dependency("libascendalog.so");
    if !has(alog, "CheckLogLevelForC") || !has(alog, "DlogInnerForC") {
        eprintln!(
            "mock libmspti: libascendalog.so (or its log functions) not found; the real library \
             throws from a static constructor here and the process aborts"
        );
        std::process::abort();
    }
    // A `noexcept` static constructor registers callbacks through libprofapi: without it the
    // exception ends in std::terminate.
    let profapi = open_dependency("libprofapi.so");
    if !has(profapi, "MsprofRegisterProfileCallback") {
        eprintln!("mock libmspti: libprofapi.so not found; the real library terminates the process here");
        std::process::abort();
    }
}

#[used]
#[link_section = ".init_array"]
static LOAD_CANN: extern "C" fn() = load_cann;
