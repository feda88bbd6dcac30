//! What the real `libmspti.so` loads, and when:
//! - `libc_sec.so`: a DT_NEEDED entry (the mock links the stand-in and writes records with its
//!   `memcpy_s`); without it `dlopen` fails with the loader's plain error;
//! - `libascendalog.so` (it calls `CheckLogLevelForC` before each log line; `DlogInnerForC` only
//!   for an enabled level) and `libprofapi.so`, from static constructors: missing, the process
//!   aborts while `dlopen` is still loading it. At load MSPTI also registers its hash and type-info
//!   callbacks and its MSTX injection with `libprofapi.so`;
//! - `libascend_hal.so` (the NPU driver) at `msptiSubscribe`: missing, `msptiSubscribe` throws.
//!
//! Each is opened as `$ASCEND_HOME_PATH/lib64/<lib>` when that file exists, else by plain name
//! through the system loader (the real library has no RPATH).

use std::ffi::{c_char, c_void, CString};
use std::sync::OnceLock;

use crate::protocol::{callback_type, prof_module, ChannelList, MstxInit, ProfPollInfo};

#[link(name = "dl")]
extern "C" {
    fn dlopen(filename: *const c_char, flags: i32) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

const RTLD_LAZY: i32 = 1;

/// Opens a CANN library the way the real `FunctionLoader` does (NULL when it cannot).
pub fn open_dependency(lib: &str) -> *mut c_void {
    let home = std::env::var("ASCEND_HOME_PATH").unwrap_or_default();
    let mut path = lib.to_string();
    if !home.is_empty() {
        let candidate = format!("{home}/lib64/{lib}");
        if std::path::Path::new(&candidate).is_file() {
            path = candidate;
        }
    }
    let Ok(c) = CString::new(path) else { return std::ptr::null_mut() };
    // SAFETY: a NUL-terminated path; the stand-ins' initialisers do nothing of consequence.
    unsafe { dlopen(c.as_ptr(), RTLD_LAZY) }
}

/// The address of `name` in `handle` (NULL when either is missing).
pub fn symbol(handle: *mut c_void, name: &str) -> *mut c_void {
    if handle.is_null() {
        return std::ptr::null_mut();
    }
    let c = CString::new(name).expect("no NUL");
    // SAFETY: a live handle; only the address is looked up.
    unsafe { dlsym(handle, c.as_ptr()) }
}

/// `libprofapi.so`'s functions MSPTI calls.
pub struct ProfApi {
    register: unsafe extern "C" fn(i32, *mut c_void, u32) -> i32,
    register_mstx: unsafe extern "C" fn(Option<MstxInit>, i32),
    enable_mstx: unsafe extern "C" fn(i32),
    /// `profSetProfCommand` (looked up lazily in the real library; absent: no command is sent).
    pub set_command: Option<unsafe extern "C" fn(*mut c_void, u32) -> i32>,
}

static PROFAPI: OnceLock<ProfApi> = OnceLock::new();

impl ProfApi {
    /// Registers (`Some`) or clears (`None`) one reporter callback.
    pub fn register(&self, slot: i32, callback: Option<*mut c_void>) {
        // SAFETY: the stand-in's `MsprofRegisterProfileCallback`.
        unsafe { (self.register)(slot, callback.unwrap_or(std::ptr::null_mut()), 8) };
    }

    /// Hands the MSTX table to `module` (MSPTI at subscribe, MSPROF at unsubscribe).
    pub fn enable_mstx(&self, module: i32) {
        // SAFETY: the stand-in's `ProfEnableMstxFunc`.
        unsafe { (self.enable_mstx)(module) };
    }
}

/// The profiling broker, opened by the constructor.
pub fn profapi() -> &'static ProfApi {
    PROFAPI.get().expect("opened by the constructor")
}

/// The driver functions MSPTI uses.
pub struct Hal {
    pub get_dev_num: unsafe extern "C" fn(*mut u32) -> i32,
    pub get_channels: unsafe extern "C" fn(u32, *mut ChannelList) -> i32,
    pub start: unsafe extern "C" fn(u32, u32, *mut c_void) -> i32,
    pub stop: unsafe extern "C" fn(u32, u32) -> i32,
    pub poll: unsafe extern "C" fn(*mut ProfPollInfo, i32, i32) -> i32,
    pub read: unsafe extern "C" fn(u32, u32, *mut u8, u32) -> i32,
    pub flush: unsafe extern "C" fn(u32, u32, *mut u32) -> i32,
}

static HAL: OnceLock<Hal> = OnceLock::new();

/// `libascend_hal.so`, opened at the first `msptiSubscribe`: a missing library (or function) is an
/// uncaught C++ exception in the real library, so the mock aborts.
pub fn hal() -> &'static Hal {
    HAL.get_or_init(|| {
        let h = open_dependency("libascend_hal.so");
        let f = |name: &str| {
            let p = symbol(h, name);
            if p.is_null() {
                crate::abort_like_the_real_library(&format!(
                    "msptiSubscribe: libascend_hal.so (the NPU driver) or its {name} cannot be loaded"
                ));
            }
            p
        };
        // SAFETY: each symbol is the driver's function of the declared signature.
        unsafe {
            Hal {
                get_dev_num: cast(f("drvGetDevNum")),
                get_channels: cast(f("prof_drv_get_channels")),
                start: cast(f("prof_drv_start")),
                stop: cast(f("prof_stop")),
                poll: cast(f("prof_channel_poll")),
                read: cast(f("prof_channel_read")),
                flush: cast(f("halProfDataFlush")),
            }
        }
    })
}

/// The static constructors: the log library and the profiling broker must open, and MSPTI
/// registers its hash and type-info callbacks and its MSTX injection with the broker.
extern "C" fn load_cann() {
    let alog = open_dependency("libascendalog.so");
    if symbol(alog, "CheckLogLevelForC").is_null() {
        crate::abort_like_the_real_library(
            "libascendalog.so (or its CheckLogLevelForC) not found by a static constructor",
        );
    }
    let p = open_dependency("libprofapi.so");
    let register = symbol(p, "MsprofRegisterProfileCallback");
    let register_mstx = symbol(p, "ProfRegisterMstxFunc");
    let enable_mstx = symbol(p, "ProfEnableMstxFunc");
    if register.is_null() || register_mstx.is_null() || enable_mstx.is_null() {
        eprintln!(
            "mock libmspti: libprofapi.so (or its functions) not found by a noexcept static constructor; \
             the real library ends in std::terminate here"
        );
        std::process::abort();
    }
    // SAFETY: the broker's functions of the declared signatures.
    let api = unsafe {
        ProfApi {
            register: std::mem::transmute::<*mut c_void, unsafe extern "C" fn(i32, *mut c_void, u32) -> i32>(
                register,
            ),
            register_mstx: std::mem::transmute::<*mut c_void, unsafe extern "C" fn(Option<MstxInit>, i32)>(
                register_mstx,
            ),
            enable_mstx: std::mem::transmute::<*mut c_void, unsafe extern "C" fn(i32)>(enable_mstx),
            set_command: std::mem::transmute::<
                *mut c_void,
                Option<unsafe extern "C" fn(*mut c_void, u32) -> i32>,
            >(symbol(p, "profSetProfCommand")),
        }
    };
    api.register(callback_type::REPORT_GET_HASH_ID_C, Some(crate::reporters::hash_id as *mut c_void));
    api.register(callback_type::REPORT_REG_TYPE_INFO_C, Some(crate::reporters::reg_type_info as *mut c_void));
    // SAFETY: the broker's function; the injection lives for the process.
    unsafe { (api.register_mstx)(Some(crate::mstx::init_injection), prof_module::MSPTI) };
    let _ = PROFAPI.set(api);
    let _ = crate::realtime_offset();
}

#[used]
#[link_section = ".init_array"]
static LOAD_CANN: extern "C" fn() = load_cann;

/// A looked-up function address as the function pointer type `F`.
///
/// # Safety
/// `F` is a function pointer type with the C signature of the function at `p`.
unsafe fn cast<F: Copy>(p: *mut c_void) -> F {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>(), "a function pointer type");
    // SAFETY: same size; the caller vouches for the signature.
    unsafe { std::mem::transmute_copy(&p) }
}
