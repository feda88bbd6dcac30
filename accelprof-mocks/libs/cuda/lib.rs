//! Mock `libcuda.so.1`: the CUDA driver's device queries (`cuInit`, `cuDriverGetVersion`,
//! `cuDeviceGetCount`, `cuDeviceGet`, `cuDeviceGetName`, `cuDeviceTotalMem_v2`,
//! `cuDeviceGetAttribute`, `cuDeviceGetUuid`, `cuDeviceGetUuid_v2`) as `cuda.h` declares them, plus `mock_cuda_*` controls.
//!
//! What a tracer reads of a process's driver: a tool finds it with `dlopen("libcuda.so.1",
//! RTLD_NOLOAD)` (the driver the program loaded) and asks it about the devices, as PyTorch's profiler
//! fills its `deviceProperties`. As the real driver, every device query fails with
//! `CUDA_ERROR_NOT_INITIALIZED` until the program called `cuInit(0)`, and `cuDriverGetVersion`
//! answers before it. It has no context or stream functions: a tool that needs them finds them
//! missing (the `cupti` crate's device synchronization then does nothing, as without a driver).
//!
//! Devices (1 by default, `mock_cuda_set_device_count`) are alike, with an H200's properties:
//! compute capability 9.0, 132 SMs, 143,771 MiB.
//!
//! Every exported function is `extern "C"` and never unwinds (`panic=abort`).

#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_char, c_int, c_uint};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

type CuResult = c_int;
type CuDevice = c_int;

const CUDA_SUCCESS: CuResult = 0;
const CUDA_ERROR_INVALID_VALUE: CuResult = 1;
const CUDA_ERROR_NOT_INITIALIZED: CuResult = 3;
const CUDA_ERROR_INVALID_DEVICE: CuResult = 101;

/// `cuDriverGetVersion` of a CUDA 13.0 driver.
const DRIVER_VERSION: c_int = 13000;
const NAME: &str = "Mock NVIDIA H200";
const TOTAL_MEM: usize = 143_771 << 20;

static INITIALIZED: AtomicBool = AtomicBool::new(false);
static DEVICES: AtomicI32 = AtomicI32::new(1);

/// `CUdevice_attribute` values (cuda.h) and what the mock device answers.
fn attribute(attrib: c_int, device: CuDevice) -> Option<c_int> {
    Some(match attrib {
        1 => 1024,           // MAX_THREADS_PER_BLOCK
        8 => 49_152,         // MAX_SHARED_MEMORY_PER_BLOCK
        10 => 32,            // WARP_SIZE
        12 => 65_536,        // MAX_REGISTERS_PER_BLOCK
        16 => 132,           // MULTIPROCESSOR_COUNT
        33 => 0x19 + device, // PCI_BUS_ID
        34 => 0,             // PCI_DEVICE_ID
        39 => 2048,          // MAX_THREADS_PER_MULTIPROCESSOR
        50 => 0,             // PCI_DOMAIN_ID
        75 => 9,             // COMPUTE_CAPABILITY_MAJOR
        76 => 0,             // COMPUTE_CAPABILITY_MINOR
        81 => 233_472,       // MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
        82 => 65_536,        // MAX_REGISTERS_PER_MULTIPROCESSOR
        97 => 232_448,       // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
        _ => return None,
    })
}

/// `CUDA_SUCCESS` when the driver is initialized and `device` exists.
fn check(device: CuDevice) -> CuResult {
    if !INITIALIZED.load(Ordering::SeqCst) {
        CUDA_ERROR_NOT_INITIALIZED
    } else if device < 0 || device >= DEVICES.load(Ordering::SeqCst) {
        CUDA_ERROR_INVALID_DEVICE
    } else {
        CUDA_SUCCESS
    }
}

/// `CUresult cuInit(unsigned int Flags)`: `Flags` must be 0.
#[no_mangle]
pub extern "C" fn cuInit(flags: c_uint) -> CuResult {
    if flags != 0 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    INITIALIZED.store(true, Ordering::SeqCst);
    CUDA_SUCCESS
}

/// `CUresult cuDriverGetVersion(int *driverVersion)` (answers before `cuInit`).
#[no_mangle]
pub unsafe extern "C" fn cuDriverGetVersion(version: *mut c_int) -> CuResult {
    if version.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller passes a valid out-pointer (checked non-null).
    unsafe { *version = DRIVER_VERSION };
    CUDA_SUCCESS
}

/// `CUresult cuDeviceGetCount(int *count)`.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetCount(count: *mut c_int) -> CuResult {
    if !INITIALIZED.load(Ordering::SeqCst) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    if count.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: as above.
    unsafe { *count = DEVICES.load(Ordering::SeqCst) };
    CUDA_SUCCESS
}

/// `CUresult cuDeviceGet(CUdevice *device, int ordinal)`.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGet(device: *mut CuDevice, ordinal: c_int) -> CuResult {
    let result = check(ordinal);
    if result != CUDA_SUCCESS {
        return result;
    }
    if device.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: as above.
    unsafe { *device = ordinal };
    CUDA_SUCCESS
}

/// `CUresult cuDeviceGetName(char *name, int len, CUdevice dev)`: the name, cut to `len - 1` bytes,
/// NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, device: CuDevice) -> CuResult {
    let result = check(device);
    if result != CUDA_SUCCESS {
        return result;
    }
    if name.is_null() || len <= 0 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let text = NAME.as_bytes();
    let n = text.len().min(len as usize - 1);
    // SAFETY: the caller's buffer holds `len` bytes; `n + 1 <= len` are written.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr().cast::<c_char>(), name, n);
        *name.add(n) = 0;
    }
    CUDA_SUCCESS
}

/// `CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)`.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, device: CuDevice) -> CuResult {
    let result = check(device);
    if result != CUDA_SUCCESS {
        return result;
    }
    if bytes.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: as above.
    unsafe { *bytes = TOTAL_MEM };
    CUDA_SUCCESS
}

/// `CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)`: an attribute the
/// mock does not know is `CUDA_ERROR_INVALID_VALUE`, as an unknown one is for the real driver.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetAttribute(
    value: *mut c_int,
    attrib: c_int,
    device: CuDevice,
) -> CuResult {
    let result = check(device);
    if result != CUDA_SUCCESS {
        return result;
    }
    match (value.is_null(), attribute(attrib, device)) {
        (false, Some(v)) => {
            // SAFETY: as above.
            unsafe { *value = v };
            CUDA_SUCCESS
        }
        _ => CUDA_ERROR_INVALID_VALUE,
    }
}

/// `CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)`: 16 bytes, `GPU-4d4f434b-...` with the
/// ordinal in the last byte.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid_v2(uuid: *mut [u8; 16], device: CuDevice) -> CuResult {
    let result = check(device);
    if result != CUDA_SUCCESS {
        return result;
    }
    if uuid.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let mut bytes = *b"MOCKcuda-uuid-\0\0";
    bytes[15] = device as u8;
    // SAFETY: the caller passes a valid out-pointer to a CUuuid (checked non-null).
    unsafe { *uuid = bytes };
    CUDA_SUCCESS
}

/// `CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)`: as `_v2` (they differ only under MIG).
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetUuid(uuid: *mut [u8; 16], device: CuDevice) -> CuResult {
    // SAFETY: forwarded.
    unsafe { cuDeviceGetUuid_v2(uuid, device) }
}

/// Back to a freshly loaded driver: not initialized, one device.
#[no_mangle]
pub extern "C" fn mock_cuda_reset() {
    INITIALIZED.store(false, Ordering::SeqCst);
    DEVICES.store(1, Ordering::SeqCst);
}

/// The number of devices (0 to 64).
#[no_mangle]
pub extern "C" fn mock_cuda_set_device_count(count: c_int) {
    DEVICES.store(count.clamp(0, 64), Ordering::SeqCst);
}

/// Whether `cuInit` was called since the last reset.
#[no_mangle]
pub extern "C" fn mock_cuda_is_initialized() -> c_int {
    c_int::from(INITIALIZED.load(Ordering::SeqCst))
}

/// The controls' one declaration (`controls.rs`, which `accelprof-mocks` compiles into
/// `MockCuda` too): each names a function defined here, with exactly the declared C signature, or
/// the mock does not compile.
macro_rules! mock_controls {
    ($( $(#[$doc:meta])* $kind:ident fn $method:ident = $symbol:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        $( const _: unsafe extern "C" fn($($ty),*) $(-> $ret)? = $symbol; )*
    };
}

include!("controls.rs");
