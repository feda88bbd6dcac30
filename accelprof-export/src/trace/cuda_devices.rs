//! The `deviceProperties` of a CUDA process, from the CUDA driver the process has loaded.
//!
//! PyTorch's profiler (Kineto) lists each GPU's name, compute capability, memory, SM count and limits in
//! its traces; a tracer over CUPTI asks the same of the driver. What is called, and only this:
//!
//! - `dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD)` (through `accelprof-loader`): only a
//!   driver the process loaded itself is used. Nothing is loaded, there is no link-time dependency, and
//!   the handle is closed again after each query (the program's own reference keeps the driver mapped).
//! - `cuDeviceGetCount`, `cuDeviceGet`, `cuDeviceGetName`, `cuDeviceTotalMem_v2`,
//!   `cuDeviceGetAttribute`, `cuDeviceGetUuid_v2` (else `cuDeviceGetUuid`) and `cuDriverGetVersion`:
//!   queries of device attributes, which create no context, allocate nothing on a device and change
//!   no state. `cuInit` is never called: the driver answers only once the program initialized it
//!   (before that, and inside `cuInit` where the driver runs a CUDA injection library, the queries
//!   fail with `CUDA_ERROR_NOT_INITIALIZED`), and a tracer asks again later ([`CudaDeviceWatch`]):
//!   its first records come after the program's `cuInit`.
//!
//! Only the devices the driver counts are described (ordinals `0..cuDeviceGetCount`), which are those
//! `CUDA_VISIBLE_DEVICES` leaves the process, numbered as CUPTI's `deviceId` numbers them.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::path::Path;
use std::ptr::NonNull;

use serde_json::Value;

use super::DeviceProperties;

type CuResult = c_int;
type CuDevice = c_int;

const CUDA_SUCCESS: CuResult = 0;
const CUDA_ERROR_NOT_INITIALIZED: CuResult = 3;

/// The driver's soname, as `dlopen` is asked for it.
const DRIVER: &str = "libcuda.so.1";

/// `CUdevice_attribute` values (cuda.h) read into Kineto's keys.
mod attr {
    pub(super) const MAX_THREADS_PER_BLOCK: i32 = 1;
    pub(super) const MAX_SHARED_MEMORY_PER_BLOCK: i32 = 8;
    pub(super) const WARP_SIZE: i32 = 10;
    pub(super) const MAX_REGISTERS_PER_BLOCK: i32 = 12;
    pub(super) const MULTIPROCESSOR_COUNT: i32 = 16;
    pub(super) const PCI_BUS_ID: i32 = 33;
    pub(super) const PCI_DEVICE_ID: i32 = 34;
    pub(super) const MAX_THREADS_PER_MULTIPROCESSOR: i32 = 39;
    pub(super) const PCI_DOMAIN_ID: i32 = 50;
    pub(super) const COMPUTE_CAPABILITY_MAJOR: i32 = 75;
    pub(super) const COMPUTE_CAPABILITY_MINOR: i32 = 76;
    pub(super) const MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: i32 = 81;
    pub(super) const MAX_REGISTERS_PER_MULTIPROCESSOR: i32 = 82;
    pub(super) const MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: i32 = 97;
}

/// Why the devices could not be described (now: [`CudaDeviceWatch`] asks again later for the first two).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CudaDevicesError {
    /// The process has not loaded the CUDA driver (nothing is loaded on its behalf).
    #[error("no CUDA driver in this process (dlopen(\"libcuda.so.1\", RTLD_NOLOAD): {0})")]
    NotLoaded(String),
    /// The driver is loaded but the program has not called `cuInit` yet.
    #[error("the CUDA driver is not initialized yet (the program has not called cuInit)")]
    NotInitialized,
    /// The driver lacks a function every driver since CUDA 3.2 has (not a CUDA driver?).
    #[error("the CUDA driver loaded in this process has no `{0}`")]
    MissingSymbol(&'static str),
    /// A query failed with this `CUresult`.
    #[error("{call} failed (CUresult {code})")]
    Driver {
        /// The function.
        call: &'static str,
        /// Its `CUresult`.
        code: i32,
    },
}

/// The process's `libcuda.so.1`, held open (a second reference to the copy already mapped) while
/// it is asked.
struct Driver(accelprof_loader::OpenedFile);

impl Driver {
    /// The driver the process loaded.
    fn loaded() -> Result<Driver, CudaDevicesError> {
        // SAFETY: with RTLD_NOLOAD nothing is loaded and no initialiser runs: dlopen returns a new
        // reference to a library already mapped, or fails.
        unsafe { accelprof_loader::open_file(Path::new(DRIVER), true) }
            .map(Driver)
            .map_err(CudaDevicesError::NotLoaded)
    }

    /// The driver's function `name`, read as the function pointer type `F`.
    ///
    /// # Safety
    /// `F` is the C signature (cuda.h) of the driver's function `name`.
    unsafe fn function<F: Copy>(&self, name: &'static CStr) -> Result<F, CudaDevicesError> {
        let address = self.symbol(name)?;
        // SAFETY: forwarded to the caller.
        Ok(unsafe { as_fn(address) })
    }

    /// The address of `name` in the driver.
    fn symbol(&self, name: &'static CStr) -> Result<NonNull<c_void>, CudaDevicesError> {
        self.0.symbol(name).ok_or_else(|| CudaDevicesError::MissingSymbol(name.to_str().unwrap_or("?")))
    }
}

type GetCount = unsafe extern "C" fn(*mut c_int) -> CuResult;
type Get = unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult;
type GetName = unsafe extern "C" fn(*mut c_char, c_int, CuDevice) -> CuResult;
type TotalMem = unsafe extern "C" fn(*mut usize, CuDevice) -> CuResult;
type GetAttribute = unsafe extern "C" fn(*mut c_int, c_int, CuDevice) -> CuResult;
type GetUuid = unsafe extern "C" fn(*mut [u8; 16], CuDevice) -> CuResult;
type DriverVersion = unsafe extern "C" fn(*mut c_int) -> CuResult;

/// Reads the address as a function pointer of type `F`.
///
/// # Safety
/// `address` is the driver's function whose C signature (cuda.h) `F` is.
unsafe fn as_fn<F: Copy>(address: NonNull<c_void>) -> F {
    debug_assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: forwarded to the caller; a function pointer has the size of a data pointer on every
    // platform the driver exists for.
    unsafe { std::mem::transmute_copy::<*mut c_void, F>(&address.as_ptr()) }
}

/// `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, as `nvidia-smi -L` writes a UUID.
fn uuid_text(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("GPU-{}-{}-{}-{}-{}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
}

/// The process's CUDA devices as Kineto describes them, in ordinal order (the `id` of each is the
/// ordinal CUPTI records as `deviceId`); the UUID and the PCI bus, device and domain ids are extra keys
/// (`uuid`, `pciBusId`, `pciDeviceId`, `pciDomainId`). A value the driver does not give is left out.
/// `Ok(empty)` on a machine without GPUs. See the [module](self) for what is called.
pub fn cuda_devices() -> Result<Vec<DeviceProperties>, CudaDevicesError> {
    let driver = Driver::loaded()?;
    // SAFETY: each symbol is the driver function of that name, whose C signature (cuda.h) is the
    // function pointer type it is read as (the same holds for every `function` call below).
    let count: GetCount = unsafe { driver.function(c"cuDeviceGetCount")? };
    // SAFETY: as above.
    let get: Get = unsafe { driver.function(c"cuDeviceGet")? };
    // SAFETY: as above.
    let attribute: GetAttribute = unsafe { driver.function(c"cuDeviceGetAttribute")? };
    // SAFETY: as above.
    let name: Option<GetName> = unsafe { driver.function(c"cuDeviceGetName") }.ok();
    // SAFETY: as above.
    let total: Option<TotalMem> = unsafe { driver.function(c"cuDeviceTotalMem_v2") }.ok();
    // SAFETY: as above (`_v2` differs from the first only in what it answers under MIG).
    let uuid_v2: Option<GetUuid> = unsafe { driver.function(c"cuDeviceGetUuid_v2") }.ok();
    // SAFETY: as above.
    let uuid_v1: Option<GetUuid> = unsafe { driver.function(c"cuDeviceGetUuid") }.ok();
    let uuid = uuid_v2.or(uuid_v1);
    let mut n: c_int = 0;
    // SAFETY: a valid out-pointer.
    match unsafe { count(&mut n) } {
        CUDA_SUCCESS => {}
        CUDA_ERROR_NOT_INITIALIZED => return Err(CudaDevicesError::NotInitialized),
        code => return Err(CudaDevicesError::Driver { call: "cuDeviceGetCount", code }),
    }
    let mut devices = Vec::new();
    for ordinal in 0..n.max(0) {
        let mut device: CuDevice = 0;
        // SAFETY: a valid out-pointer and an ordinal below the count.
        let code = unsafe { get(&mut device, ordinal) };
        if code != CUDA_SUCCESS {
            return Err(CudaDevicesError::Driver { call: "cuDeviceGet", code });
        }
        let int = |which: i32| -> Option<i64> {
            let mut value: c_int = 0;
            // SAFETY: a valid out-pointer; an attribute the driver does not know is an error code.
            (unsafe { attribute(&mut value, which, device) } == CUDA_SUCCESS).then(|| i64::from(value))
        };
        let uint = |which: i32| int(which).and_then(|v| u32::try_from(v).ok());
        let bytes = |which: i32| int(which).and_then(|v| u64::try_from(v).ok());
        let mut text = [0 as c_char; 256];
        // SAFETY: the buffer holds `text.len()` bytes, the length passed.
        let named = name.is_some_and(|f| unsafe { f(text.as_mut_ptr(), text.len() as c_int, device) } == 0);
        // NUL-terminated within the buffer whatever the driver wrote before its last byte.
        text[text.len() - 1] = 0;
        let shown = if named {
            // SAFETY: `text` is NUL-terminated (above).
            unsafe { CStr::from_ptr(text.as_ptr()) }.to_string_lossy().into_owned()
        } else {
            String::new()
        };
        let mut memory = 0usize;
        // SAFETY: a valid out-pointer.
        let total_global_mem =
            total.and_then(|f| (unsafe { f(&mut memory, device) } == 0).then_some(memory as u64));
        let mut raw_uuid = [0u8; 16];
        // SAFETY: a valid out-pointer to the 16 bytes of a `CUuuid`.
        let uuid =
            uuid.and_then(|f| (unsafe { f(&mut raw_uuid, device) } == 0).then(|| uuid_text(&raw_uuid)));
        let mut extra: Vec<(String, Value)> =
            uuid.map(|u| ("uuid".to_owned(), Value::from(u))).into_iter().collect();
        for (key, which) in [
            ("pciBusId", attr::PCI_BUS_ID),
            ("pciDeviceId", attr::PCI_DEVICE_ID),
            ("pciDomainId", attr::PCI_DOMAIN_ID),
        ] {
            if let Some(v) = int(which) {
                extra.push((key.to_owned(), Value::from(v)));
            }
        }
        devices.push(DeviceProperties {
            id: ordinal as u32,
            name: shown,
            total_global_mem,
            compute_major: int(attr::COMPUTE_CAPABILITY_MAJOR).and_then(|v| i32::try_from(v).ok()),
            compute_minor: int(attr::COMPUTE_CAPABILITY_MINOR).and_then(|v| i32::try_from(v).ok()),
            max_threads_per_block: uint(attr::MAX_THREADS_PER_BLOCK),
            max_threads_per_multiprocessor: uint(attr::MAX_THREADS_PER_MULTIPROCESSOR),
            regs_per_block: uint(attr::MAX_REGISTERS_PER_BLOCK),
            regs_per_multiprocessor: uint(attr::MAX_REGISTERS_PER_MULTIPROCESSOR),
            warp_size: uint(attr::WARP_SIZE),
            shared_mem_per_block: bytes(attr::MAX_SHARED_MEMORY_PER_BLOCK),
            shared_mem_per_multiprocessor: bytes(attr::MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
            num_sms: uint(attr::MULTIPROCESSOR_COUNT),
            shared_mem_per_block_optin: bytes(attr::MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
            extra,
        });
    }
    Ok(devices)
}

/// The devices, or `None` when the driver cannot describe them now ([`cuda_devices`] says why).
pub fn cuda_device_properties() -> Option<Vec<DeviceProperties>> {
    cuda_devices().ok()
}

/// The CUDA driver's version as `cuDriverGetVersion` gives it, written `13.0` (from 13000), when the
/// process has a driver loaded (it answers before `cuInit`).
pub fn cuda_driver_version() -> Option<String> {
    let driver = Driver::loaded().ok()?;
    // SAFETY: the driver's `CUresult cuDriverGetVersion(int *)`.
    let f: DriverVersion = unsafe { driver.function(c"cuDriverGetVersion") }.ok()?;
    let mut version: c_int = 0;
    // SAFETY: a valid out-pointer.
    if unsafe { f(&mut version) } != CUDA_SUCCESS || version <= 0 {
        return None;
    }
    Some(format!("{}.{}", version / 1000, (version % 1000) / 10))
}

/// Asks the process's CUDA driver for its devices until it answers once: what a tracer calls with each
/// batch it takes (a CUDA program loads and initializes its driver after the tracer started, and a
/// CUDA injection library runs inside `cuInit`, before the driver answers).
///
/// [`poll`](Self::poll) gives the devices the first time the driver describes them, and `None` before
/// and after. A driver that lacks the device queries is not asked again; the reason the devices are not
/// known is in [`last_error`](Self::last_error) (nothing is printed).
#[derive(Debug, Default)]
pub struct CudaDeviceWatch {
    done: bool,
    last_error: Option<CudaDevicesError>,
}

impl CudaDeviceWatch {
    /// A watch that has not asked yet.
    pub fn new() -> Self {
        CudaDeviceWatch::default()
    }

    /// The devices, the first time the driver describes them.
    pub fn poll(&mut self) -> Option<Vec<DeviceProperties>> {
        if self.done {
            return None;
        }
        match cuda_devices() {
            Ok(devices) => {
                self.done = true;
                self.last_error = None;
                Some(devices)
            }
            Err(e) => {
                // A driver without the queries will not grow them; any other reason may pass.
                self.done = matches!(e, CudaDevicesError::MissingSymbol(_));
                self.last_error = Some(e);
                None
            }
        }
    }

    /// Whether the devices were given (or will never be).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Why the devices are not known yet (`None` once given, or before the first poll).
    pub fn last_error(&self) -> Option<&CudaDevicesError> {
        self.last_error.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uuid_is_written_as_nvidia_smi_writes_it() {
        let bytes = [0x58, 0xd4, 0xd1, 0x5e, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0xff];
        assert_eq!(uuid_text(&bytes), "GPU-58d4d15e-0102-0304-0506-0708090a0bff");
    }
}
