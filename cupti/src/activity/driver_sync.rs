//! The default device synchronization of `flush(sync)`: the process's own CUDA driver, found at run time.
//!
//! `libcuda.so.1` is looked up with `RTLD_NOLOAD`: only a driver the process has already loaded is used. A
//! process that never loaded it has no CUDA context, hence no GPU work that could still produce records.

use std::ffi::{c_int, c_uint, c_void};
use std::sync::OnceLock;

type CuResult = c_int;
type CuContext = *mut c_void;
type CuDevice = c_int;

/// `CUDA_SUCCESS`.
const SUCCESS: CuResult = 0;

/// The driver functions used, resolved once.
struct Driver {
    ctx_get_current: unsafe extern "C" fn(*mut CuContext) -> CuResult,
    ctx_synchronize: unsafe extern "C" fn() -> CuResult,
    device_get_count: unsafe extern "C" fn(*mut c_int) -> CuResult,
    device_get: unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult,
    primary_get_state: unsafe extern "C" fn(CuDevice, *mut c_uint, *mut c_int) -> CuResult,
    primary_retain: unsafe extern "C" fn(*mut CuContext, CuDevice) -> CuResult,
    primary_release: unsafe extern "C" fn(CuDevice) -> CuResult,
    ctx_push: unsafe extern "C" fn(CuContext) -> CuResult,
    ctx_pop: unsafe extern "C" fn(*mut CuContext) -> CuResult,
}

/// The process's driver, if it has loaded one that has every function (resolved on first use).
fn driver() -> Option<&'static Driver> {
    static DRIVER: OnceLock<Option<Driver>> = OnceLock::new();
    DRIVER.get_or_init(load).as_ref()
}

#[cfg(unix)]
fn load() -> Option<Driver> {
    use libloading::os::unix::{Library, RTLD_LAZY, RTLD_LOCAL};
    /// glibc's `RTLD_NOLOAD`: succeed only if the library is already loaded.
    const RTLD_NOLOAD: c_int = 0x4;
    // SAFETY: with RTLD_NOLOAD nothing new is mapped, so no initialiser runs.
    let lib = unsafe { Library::open(Some("libcuda.so.1"), RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD) }.ok()?;
    // SAFETY: each symbol below is the CUDA driver function of that name, whose C signature (cuda.h) is
    // the function pointer type it is read as.
    let driver = unsafe {
        Driver {
            ctx_get_current: *lib.get(b"cuCtxGetCurrent\0").ok()?,
            ctx_synchronize: *lib.get(b"cuCtxSynchronize\0").ok()?,
            device_get_count: *lib.get(b"cuDeviceGetCount\0").ok()?,
            device_get: *lib.get(b"cuDeviceGet\0").ok()?,
            primary_get_state: *lib.get(b"cuDevicePrimaryCtxGetState\0").ok()?,
            primary_retain: *lib.get(b"cuDevicePrimaryCtxRetain\0").ok()?,
            primary_release: *lib.get(b"cuDevicePrimaryCtxRelease_v2\0").ok()?,
            ctx_push: *lib.get(b"cuCtxPushCurrent_v2\0").ok()?,
            ctx_pop: *lib.get(b"cuCtxPopCurrent_v2\0").ok()?,
        }
    };
    // The function pointers stay valid only while the library is mapped: never unload it.
    std::mem::forget(lib);
    Some(driver)
}

#[cfg(not(unix))]
fn load() -> Option<Driver> {
    None
}

/// Synchronizes the calling thread's current CUDA context and every active primary context. Returns
/// whether any context was synchronized (`Ok(false)`: no driver loaded, or no context exists).
pub(crate) fn synchronize_devices() -> Result<bool, String> {
    let Some(d) = driver() else { return Ok(false) };
    let mut synced = false;
    // SAFETY: plain driver calls with valid out-pointers; a context pushed is popped again.
    unsafe {
        let mut current: CuContext = std::ptr::null_mut();
        if (d.ctx_get_current)(&mut current) == SUCCESS && !current.is_null() {
            check("cuCtxSynchronize", (d.ctx_synchronize)())?;
            synced = true;
        }
        let mut count = 0;
        if (d.device_get_count)(&mut count) != SUCCESS {
            // Not initialised (no cuInit yet): no context can exist.
            return Ok(synced);
        }
        for ordinal in 0..count {
            let mut device = 0;
            let (mut flags, mut active) = (0, 0);
            if (d.device_get)(&mut device, ordinal) != SUCCESS
                || (d.primary_get_state)(device, &mut flags, &mut active) != SUCCESS
                || active == 0
            {
                continue;
            }
            let mut ctx: CuContext = std::ptr::null_mut();
            if (d.primary_retain)(&mut ctx, device) != SUCCESS {
                continue;
            }
            let pushed = (d.ctx_push)(ctx) == SUCCESS;
            let result = if pushed { (d.ctx_synchronize)() } else { SUCCESS };
            if pushed {
                let mut popped: CuContext = std::ptr::null_mut();
                (d.ctx_pop)(&mut popped);
            }
            (d.primary_release)(device);
            check("cuCtxSynchronize", result)?;
            synced |= pushed;
        }
    }
    Ok(synced)
}

fn check(function: &str, result: CuResult) -> Result<(), String> {
    if result == SUCCESS {
        Ok(())
    } else {
        Err(format!("{function} failed with CUDA error {result}"))
    }
}
