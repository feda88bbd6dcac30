//! A `libascendalog.so` that exports only `CheckLogLevelForC`: what the real `libmspti.so` needs
//! of it (it calls `DlogInnerForC` only for a level `CheckLogLevelForC` enables). Tests use it to
//! prove that neither the loader's preflight nor the mock demand more.

use std::os::raw::c_int;

/// Whether `level` is logged for `module`: never.
#[no_mangle]
pub extern "C" fn CheckLogLevelForC(_module: c_int, _level: c_int) -> c_int {
    0
}
