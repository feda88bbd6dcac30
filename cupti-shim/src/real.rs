//! The real `libcupti`: the copy the program mapped, found with `dl_iterate_phdr` and reopened with
//! `RTLD_NOLOAD` (Kineto's copy is a `DT_NEEDED` dependency of `libtorch_cuda`, in a local scope
//! where `RTLD_NEXT` may not find it), and the functions the shim calls on it.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::OnceLock;

use cupti_sys::{CUcontext, CUpti_Activity, CUpti_CallbackFunc, CUpti_SubscriberHandle};

extern "C" {
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn dl_iterate_phdr(
        callback: Option<unsafe extern "C" fn(*mut DlPhdrInfo, usize, *mut c_void) -> c_int>,
        data: *mut c_void,
    ) -> c_int;
}

/// The first two fields of glibc's `struct dl_phdr_info` (the only ones read).
#[repr(C)]
struct DlPhdrInfo {
    addr: usize,
    name: *const c_char,
}

const RTLD_LAZY: c_int = 0x1;
const RTLD_NOLOAD: c_int = 0x4;

pub(crate) type RequestFn = unsafe extern "C" fn(*mut *mut u8, *mut usize, *mut usize);
pub(crate) type CompleteFn = unsafe extern "C" fn(CUcontext, u32, *mut u8, usize, usize);
/// `CUpti_TimestampCallbackFunc`.
pub(crate) type TimestampFn = unsafe extern "C" fn() -> u64;

/// The real library's functions the shim calls (`None`: the library lacks it).
#[allow(clippy::type_complexity)]
pub(crate) struct Real {
    handle: usize,
    pub subscribe:
        Option<unsafe extern "C" fn(*mut CUpti_SubscriberHandle, CUpti_CallbackFunc, *mut c_void) -> u32>,
    pub enable_callback: Option<unsafe extern "C" fn(u32, CUpti_SubscriberHandle, u32, u32) -> u32>,
    pub enable_domain: Option<unsafe extern "C" fn(u32, CUpti_SubscriberHandle, u32) -> u32>,
    pub register: Option<unsafe extern "C" fn(Option<RequestFn>, Option<CompleteFn>) -> u32>,
    pub enable: Option<unsafe extern "C" fn(u32) -> u32>,
    pub disable: Option<unsafe extern "C" fn(u32) -> u32>,
    pub enable_context: Option<unsafe extern "C" fn(CUcontext, u32) -> u32>,
    pub disable_context: Option<unsafe extern "C" fn(CUcontext, u32) -> u32>,
    pub enable_runtime_api: Option<unsafe extern "C" fn(u32, u8) -> u32>,
    pub enable_driver_api: Option<unsafe extern "C" fn(u32, u8) -> u32>,
    pub flush_all: Option<unsafe extern "C" fn(u32) -> u32>,
    pub flush_period: Option<unsafe extern "C" fn(u32) -> u32>,
    pub dropped: Option<unsafe extern "C" fn(CUcontext, u32, *mut usize) -> u32>,
    pub next_record: Option<unsafe extern "C" fn(*mut u8, usize, *mut *mut CUpti_Activity) -> u32>,
    pub finalize: Option<unsafe extern "C" fn() -> u32>,
    pub register_timestamp: Option<unsafe extern "C" fn(Option<TimestampFn>) -> u32>,
    pub get_version: Option<unsafe extern "C" fn(*mut u32) -> u32>,
}

impl Real {
    /// The address of `name` in the real library (NULL when it lacks it).
    pub(crate) fn symbol(&self, name: &CStr) -> *mut c_void {
        // SAFETY: `handle` is a live dlopen handle (never closed); `name` is NUL-terminated.
        unsafe { dlsym(self.handle as *mut c_void, name.as_ptr()) }
    }
}

static REAL: OnceLock<Real> = OnceLock::new();

/// The real library, found on first use (not cached while none is mapped yet).
pub(crate) fn real() -> Option<&'static Real> {
    if let Some(real) = REAL.get() {
        return Some(real);
    }
    let found = find()?;
    Some(REAL.get_or_init(|| found))
}

unsafe extern "C" fn collect(info: *mut DlPhdrInfo, _size: usize, data: *mut c_void) -> c_int {
    let result = std::panic::catch_unwind(|| {
        // SAFETY: the loader passes a valid `dl_phdr_info` and our `Vec` as `data`.
        let (info, names) = unsafe { (&*info, &mut *data.cast::<Vec<CString>>()) };
        if info.name.is_null() {
            return;
        }
        // SAFETY: the loader's object names are NUL-terminated strings.
        let name = unsafe { CStr::from_ptr(info.name) };
        let file = name.to_bytes().rsplit(|&b| b == b'/').next().unwrap_or_default();
        if file.starts_with(b"libcupti.so") {
            names.push(name.to_owned());
        }
    });
    let _ = result;
    0
}

fn find() -> Option<Real> {
    let mut names: Vec<CString> = Vec::new();
    // SAFETY: `collect` matches the callback type and reads `data` as the `Vec` passed.
    unsafe { dl_iterate_phdr(Some(collect), (&mut names as *mut Vec<CString>).cast()) };
    for name in names {
        // SAFETY: RTLD_NOLOAD opens nothing new: only a handle on a library already mapped.
        let handle = unsafe { dlopen(name.as_ptr(), RTLD_LAZY | RTLD_NOLOAD) };
        if handle.is_null() {
            continue;
        }
        // SAFETY: handle is live; names are NUL-terminated.
        let has = |s: &CStr| !unsafe { dlsym(handle, s.as_ptr()) }.is_null();
        if has(c"cuptiActivityRegisterCallbacks") && !has(c"accelprof_cupti_shim_marker") {
            return Some(resolve(handle));
        }
    }
    None
}

// Each field's type annotates its transmute.
#[allow(clippy::missing_transmute_annotations)]
fn resolve(handle: *mut c_void) -> Real {
    macro_rules! sym {
        ($name:literal) => {{
            // SAFETY: `handle` is live and never closed; the symbol, when present, is the CUPTI
            // function of that name, whose C signature the field's type spells.
            unsafe {
                let p = dlsym(handle, concat!($name, "\0").as_ptr().cast());
                if p.is_null() {
                    None
                } else {
                    Some(std::mem::transmute::<*mut c_void, _>(p))
                }
            }
        }};
    }
    Real {
        handle: handle as usize,
        subscribe: sym!("cuptiSubscribe"),
        enable_callback: sym!("cuptiEnableCallback"),
        enable_domain: sym!("cuptiEnableDomain"),
        register: sym!("cuptiActivityRegisterCallbacks"),
        enable: sym!("cuptiActivityEnable"),
        disable: sym!("cuptiActivityDisable"),
        enable_context: sym!("cuptiActivityEnableContext"),
        disable_context: sym!("cuptiActivityDisableContext"),
        enable_runtime_api: sym!("cuptiActivityEnableRuntimeApi"),
        enable_driver_api: sym!("cuptiActivityEnableDriverApi"),
        flush_all: sym!("cuptiActivityFlushAll"),
        flush_period: sym!("cuptiActivityFlushPeriod"),
        dropped: sym!("cuptiActivityGetNumDroppedRecords"),
        next_record: sym!("cuptiActivityGetNextRecord"),
        finalize: sym!("cuptiFinalize"),
        register_timestamp: sym!("cuptiActivityRegisterTimestampCallback"),
        get_version: sym!("cuptiGetVersion"),
    }
}
