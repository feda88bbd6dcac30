//! Stand-in for CANN's `libprofapi.so`: the broker between the runtime and a profiling library.
//! `libmspti.so` registers its reporter callbacks here (`MsprofRegisterProfileCallback`; the API,
//! compact and device-state reporters only while it has a subscriber) and its MSTX injection
//! (`ProfRegisterMstxFunc`); the runtime stand-in reports through the `mock_profapi_*` functions,
//! which call whatever is registered now, as CANN's runtime does.

#![allow(clippy::missing_safety_doc)]

#[path = "../protocol.rs"]
mod protocol;

use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::Mutex;

use protocol::{
    callback_type as cb, command, MsprofApi, MsprofCompactInfo, MstxGetTable, MstxInit, ProfSetDevPara,
};

static CALLBACKS: [AtomicUsize; cb::COUNT] = [const { AtomicUsize::new(0) }; cb::COUNT];
static MSTX_INIT: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];
/// The module `ProfEnableMstxFunc` last enabled (0: none).
static MSTX_ENABLED: AtomicUsize = AtomicUsize::new(0);
/// Every type name the runtime registered, replayed to a type-info callback registered later.
static TYPES: Mutex<Vec<(u16, u32, CString)>> = Mutex::new(Vec::new());

fn callback(slot: i32) -> usize {
    CALLBACKS.get(slot as usize).map_or(0, |c| c.load(SeqCst))
}

/// Registers (or, with NULL, clears) the callback of one slot. A type-info callback is told every
/// type registered so far.
#[no_mangle]
pub extern "C" fn MsprofRegisterProfileCallback(ty: i32, callback: *mut c_void, _len: u32) -> i32 {
    let Some(c) = CALLBACKS.get(ty as usize) else { return -1 };
    c.store(callback as usize, SeqCst);
    if ty == cb::REPORT_REG_TYPE_INFO_C && !callback.is_null() {
        let types = TYPES.lock().unwrap_or_else(|e| e.into_inner()).clone();
        for (level, type_id, name) in types {
            // SAFETY: a live NUL-terminated name.
            unsafe { forward_type_info(level, type_id, name.as_ptr()) };
        }
    }
    0
}

/// The profiling switches (`PROF_*` bits) on, by device.
static SWITCHES: [AtomicU64; command::MAX_DEV] = [const { AtomicU64::new(0) }; command::MAX_DEV];

/// Starts or stops the runtime's profiling of some data types (`PROF_*` bits) on the devices the
/// command lists: the runtime stand-in reports a device's task data only while its
/// `PROF_TASK_TIME` switch is on (`mock_profapi_prof_switch`). A command shorter than its head,
/// or of another type, is refused (`PROFAPI_ERROR_CONFIG_INVALID`, 3) and changes nothing.
#[no_mangle]
pub unsafe extern "C" fn profSetProfCommand(cmd: *mut c_void, len: u32) -> i32 {
    const CONFIG_INVALID: i32 = 3;
    if cmd.is_null() || (len as usize) < std::mem::size_of::<command::Head>() {
        return CONFIG_INVALID;
    }
    // SAFETY: the caller's command of `len` bytes, at least the head (read unaligned: a C struct).
    let head = unsafe { cmd.cast::<command::Head>().read_unaligned() };
    if head.ty != command::TYPE_START && head.ty != command::TYPE_STOP {
        return CONFIG_INVALID;
    }
    let devices = &head.dev_id_list[..(head.dev_nums as usize).min(command::MAX_DEV)];
    for sw in devices.iter().filter_map(|dev| SWITCHES.get(*dev as usize)) {
        if head.ty == command::TYPE_START {
            sw.fetch_or(head.prof_switch, SeqCst);
        } else {
            sw.fetch_and(!head.prof_switch, SeqCst);
        }
    }
    0
}

/// For the runtime stand-in (and tests): the profiling switches on for `dev` (`PROF_*` bits).
#[no_mangle]
pub extern "C" fn mock_profapi_prof_switch(dev: u32) -> u64 {
    SWITCHES.get(dev as usize).map_or(0, |s| s.load(SeqCst))
}

/// Registers a device state callback (the C-callback slot is what MSPTI uses).
#[no_mangle]
pub extern "C" fn profRegDeviceStateCallback(_callback: *mut c_void) -> i32 {
    0
}

/// The hash id of a string, from the registered hash callback (0 without one).
#[no_mangle]
pub unsafe extern "C" fn MsprofGetHashId(info: *const c_char, len: usize) -> u64 {
    let f = callback(cb::REPORT_GET_HASH_ID_C);
    if f == 0 || info.is_null() {
        return 0;
    }
    // SAFETY: MSPTI registered `uint64_t (*)(const char*, size_t)` in this slot.
    let f: unsafe extern "C" fn(*const c_char, usize) -> u64 = unsafe { std::mem::transmute(f) };
    // SAFETY: the caller's string of `len` bytes.
    unsafe { f(info, len) }
}

/// Registers the name of a report type (`level`, `type`) with the registered callback.
#[no_mangle]
pub unsafe extern "C" fn MsprofRegTypeInfo(level: u16, type_id: u32, name: *const c_char) -> i32 {
    if name.is_null() {
        return 0;
    }
    // SAFETY: the caller passes a NUL-terminated name.
    let owned = unsafe { CStr::from_ptr(name) }.to_owned();
    TYPES.lock().unwrap_or_else(|e| e.into_inner()).push((level, type_id, owned));
    // SAFETY: forwarded to the caller.
    unsafe { forward_type_info(level, type_id, name) }
}

unsafe fn forward_type_info(level: u16, type_id: u32, name: *const c_char) -> i32 {
    let f = callback(cb::REPORT_REG_TYPE_INFO_C);
    if f == 0 || name.is_null() {
        return 0;
    }
    // SAFETY: the caller passes a NUL-terminated name.
    let len = unsafe { CStr::from_ptr(name) }.to_bytes().len();
    // SAFETY: MSPTI registered `int32_t (*)(uint16_t, uint32_t, const char*, size_t)` here.
    let f: unsafe extern "C" fn(u16, u32, *const c_char, usize) -> i32 = unsafe { std::mem::transmute(f) };
    // SAFETY: a live string of `len` bytes.
    unsafe { f(level, type_id, name, len) }
}

/// For the runtime stand-in: reports one API call to the registered API reporter, if any.
#[no_mangle]
pub extern "C" fn mock_profapi_report_api(level: u16, ty: u32, begin: u64, end: u64, item: u64) -> i32 {
    let f = callback(cb::REPORT_API_C);
    if f == 0 {
        return 0;
    }
    let api = MsprofApi {
        magic_number: protocol::MAGIC,
        level,
        ty,
        thread_id: protocol::gettid(),
        reserve: 0,
        begin_time: begin,
        end_time: end,
        item_id: item,
    };
    // SAFETY: MSPTI registered `int32_t (*)(uint32_t agingFlag, const MsprofApi*)` here.
    let f: unsafe extern "C" fn(u32, *const MsprofApi) -> i32 = unsafe { std::mem::transmute(f) };
    // SAFETY: a live struct.
    unsafe { f(1, &api) }
}

/// For the runtime stand-in: reports one compact record (a task track) to the registered reporter.
#[no_mangle]
pub unsafe extern "C" fn mock_profapi_report_compact(info: *const MsprofCompactInfo) -> i32 {
    let f = callback(cb::REPORT_COMPACT);
    if f == 0 || info.is_null() {
        return 0;
    }
    // SAFETY: MSPTI registered `int32_t (*)(uint32_t, const void*, uint32_t)` here.
    let f: unsafe extern "C" fn(u32, *const c_void, u32) -> i32 = unsafe { std::mem::transmute(f) };
    // SAFETY: the caller's live record.
    unsafe { f(1, info.cast(), std::mem::size_of::<MsprofCompactInfo>() as u32) }
}

/// For the runtime stand-in: tells the registered device-state callback that `dev` opened/closed.
#[no_mangle]
pub extern "C" fn mock_profapi_device_state(dev: u32, open: bool) {
    let f = callback(cb::DEVICE_STATE_C);
    if f == 0 {
        return;
    }
    let mut para = ProfSetDevPara { chip_id: protocol::CHIP_910B as u32, dev_id: dev, is_open: open };
    // SAFETY: MSPTI registered `int32_t (*)(void*, uint32_t)` here.
    let f: unsafe extern "C" fn(*mut c_void, u32) -> i32 = unsafe { std::mem::transmute(f) };
    // SAFETY: a live struct of the size passed.
    unsafe { f((&mut para as *mut ProfSetDevPara).cast(), std::mem::size_of::<ProfSetDevPara>() as u32) };
}

/// Keeps a profiling module's MSTX injection (`module`: MSPROF 1, MSPTI 2).
#[no_mangle]
pub extern "C" fn ProfRegisterMstxFunc(init: Option<MstxInit>, module: i32) {
    if let Some(slot) = MSTX_INIT.get(module as usize) {
        slot.store(init.map_or(0, |f| f as usize), SeqCst);
    }
}

/// For the MSTX stand-in, at its first call: fills its table (through `get`) with the injection
/// of the module enabled now, if any. A tools library loaded after `ProfEnableMstxFunc` gets the
/// table this way.
#[no_mangle]
pub unsafe extern "C" fn mock_profapi_mstx_attach(get: Option<MstxGetTable>) {
    let module = MSTX_ENABLED.load(SeqCst);
    let init = MSTX_INIT.get(module).map_or(0, |s| s.load(SeqCst));
    if let (Some(get), true) = (get, init != 0) {
        // SAFETY: stored from a function of this signature.
        let init: MstxInit = unsafe { std::mem::transmute(init) };
        // SAFETY: the injection fills the table through `get`.
        unsafe { init(get) };
    }
}

/// Hands `libms_tools_ext.so`'s function table to `module`'s injection, after emptying it: the
/// `mstx*` functions then reach that module (MSPTI switches itself on at subscribe and hands the
/// table back to MSPROF at unsubscribe).
#[no_mangle]
pub extern "C" fn ProfEnableMstxFunc(module: i32) {
    MSTX_ENABLED.store(module.max(0) as usize, SeqCst);
    extern "C" {
        fn dlopen(name: *const c_char, flags: i32) -> *mut c_void;
        fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    }
    const RTLD_LAZY: i32 = 1;
    const RTLD_NOLOAD: i32 = 4;
    // SAFETY: only looks up a library already loaded by the program.
    let tools = unsafe { dlopen(c"libms_tools_ext.so".as_ptr(), RTLD_LAZY | RTLD_NOLOAD) };
    if tools.is_null() {
        return;
    }
    // SAFETY: looks up two functions of the MSTX stand-in.
    let (reset, get) = unsafe {
        (dlsym(tools, c"mock_mstx_reset".as_ptr()), dlsym(tools, c"mock_mstx_get_module_func_table".as_ptr()))
    };
    if !reset.is_null() {
        // SAFETY: `void mock_mstx_reset(void)`.
        let reset: unsafe extern "C" fn() = unsafe { std::mem::transmute(reset) };
        // SAFETY: no arguments.
        unsafe { reset() };
    }
    let init = MSTX_INIT.get(module as usize).map_or(0, |s| s.load(SeqCst));
    if init != 0 && !get.is_null() {
        // SAFETY: both were stored from functions of these signatures.
        let (init, get) = unsafe {
            (
                std::mem::transmute::<usize, MstxInit>(init),
                std::mem::transmute::<*mut c_void, MstxGetTable>(get),
            )
        };
        // SAFETY: the injection fills the table through `get`.
        unsafe { init(get) };
    }
}
