//! Stand-in for CANN's `libascendalog.so` (the logging library `libmspti.so` opens from a static
//! constructor). It exports the two log functions of the real one; nothing is logged
//! (`CheckLogLevelForC` says no), so `DlogInnerForC` is never called.

use std::os::raw::{c_char, c_int};

/// Whether `level` is logged for `module`: never, here.
#[no_mangle]
pub extern "C" fn CheckLogLevelForC(_module: c_int, _level: c_int) -> c_int {
    0
}

/// Writes a log line (variadic in C; the arguments after the format are ignored here).
#[no_mangle]
pub extern "C" fn DlogInnerForC(_module: c_int, _level: c_int, _fmt: *const c_char) {}
