//! Stand-in for CANN's `libprofapi.so`: exports the functions `libmspti.so` resolves from it,
//! each doing nothing and reporting success.

use std::os::raw::{c_int, c_void};

/// Registers a profiling callback.
#[no_mangle]
pub extern "C" fn MsprofRegisterProfileCallback(_kind: c_int, _callback: *mut c_void) -> c_int {
    0
}

/// Sets a profiling command.
#[no_mangle]
pub extern "C" fn profSetProfCommand(_command: *mut c_void, _len: u32) -> c_int {
    0
}

/// Returns a hash id for a string.
#[no_mangle]
pub extern "C" fn MsprofGetHashId(_info: *const c_void, _len: usize) -> u64 {
    0
}

/// Registers a type name.
#[no_mangle]
pub extern "C" fn MsprofRegTypeInfo(_level: u16, _type_id: u32, _name: *const c_void) -> c_int {
    0
}

/// Registers a device state callback.
#[no_mangle]
pub extern "C" fn profRegDeviceStateCallback(_callback: *mut c_void) -> c_int {
    0
}

/// Registers the MSTX functions.
#[no_mangle]
pub extern "C" fn ProfRegisterMstxFunc(_func: *mut c_void, _module: u32) -> c_int {
    0
}

/// Enables the MSTX functions.
#[no_mangle]
pub extern "C" fn ProfEnableMstxFunc(_module: u32) {}
