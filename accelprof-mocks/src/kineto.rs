//! A second CUPTI client in the test's process, calling CUPTI as PyTorch's profiler (Kineto) does:
//! through the global symbol scope (as `libtorch_cuda` reaches its `DT_NEEDED` libcupti through
//! its PLT), in Kineto's order of calls (the repository's vendor notes, "What Kineto asks of
//! CUPTI"). A test starts it next to the code under test to see both clients of one libcupti.

use std::collections::HashSet;
use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use cupti_sys::{
    CUpti_ActivityKind as Kind, CUpti_CallbackDomain as Domain,
    CUpti_driver_api_trace_cbid_enum as DriverCbid, CUpti_runtime_api_trace_cbid_enum as RuntimeCbid,
};

use crate::{Error, Result};

/// The kinds Kineto enables for a CUDA trace: MEMCPY, MEMSET, CONCURRENT_KERNEL,
/// EXTERNAL_CORRELATION, RUNTIME, DRIVER, OVERHEAD.
pub const KINETO_KINDS: [u32; 7] = [
    Kind::CUPTI_ACTIVITY_KIND_MEMCPY.0,
    Kind::CUPTI_ACTIVITY_KIND_MEMSET.0,
    Kind::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL.0,
    Kind::CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION.0,
    Kind::CUPTI_ACTIVITY_KIND_RUNTIME.0,
    Kind::CUPTI_ACTIVITY_KIND_DRIVER.0,
    Kind::CUPTI_ACTIVITY_KIND_OVERHEAD.0,
];

/// Kineto's activity buffers: 4 MiB.
pub const KINETO_BUFFER_BYTES: usize = 4 << 20;

const LAUNCH: u32 = RuntimeCbid::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000.0;
const GET_DEVICE: u32 = RuntimeCbid::CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020.0;
/// `CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING`.
const CONTEXT_DESTROY_STARTING: u32 = 2;

/// What the client does at [`KinetoClient::start`]. [`KinetoConfig::default`] is Kineto's own
/// order: subscribe and enable the RESOURCE callback it uses (`CONTEXT_DESTROY_STARTING`), then
/// register the buffer callbacks, enable [`KINETO_KINDS`] and turn off `cudaGetDevice`'s runtime
/// records and `cuKernelGetAttribute`'s, `cuDevicePrimaryCtxGetState`'s and `cuCtxGetCurrent`'s
/// driver records.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct KinetoConfig {
    /// `cuptiSubscribe` and the RESOURCE callback (Kineto's profiler subscribes at its first step).
    pub subscribe: bool,
    /// Also enable the `cudaLaunchKernel` runtime callback on that subscription and count its
    /// ENTERs ([`KinetoTally::launch_callbacks`]).
    pub count_launches: bool,
    /// `cuptiActivityRegisterTimestampCallback` with this clock (PyTorch 2.11 registers a
    /// monotonic one), before the buffer callbacks.
    pub timestamp: Option<unsafe extern "C" fn() -> u64>,
    /// The activity kinds enabled (`CUpti_ActivityKind` values).
    pub kinds: Vec<u32>,
    /// Kineto's per-callback-id filters (`cuptiActivityEnableRuntimeApi` /
    /// `cuptiActivityEnableDriverApi` off).
    pub filters: bool,
    /// The size of each buffer handed to CUPTI.
    pub buffer_bytes: usize,
}

impl Default for KinetoConfig {
    fn default() -> KinetoConfig {
        KinetoConfig {
            subscribe: true,
            count_launches: false,
            timestamp: None,
            kinds: KINETO_KINDS.to_vec(),
            filters: true,
            buffer_bytes: KINETO_BUFFER_BYTES,
        }
    }
}

/// What the client saw, read at [`KinetoClient::stop`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct KinetoTally {
    /// `cuptiSubscribe`'s result (0: subscribed; another client held the subscription otherwise).
    pub subscribe_result: u32,
    /// Records read from its own buffers, and of them the kernels (CONCURRENT_KERNEL).
    pub records: u64,
    /// Kernel records.
    pub kernels: u64,
    /// Earliest and latest kernel start (`u64::MAX` and 0 when none).
    pub first_kernel_start: u64,
    /// See [`KinetoTally::first_kernel_start`].
    pub last_kernel_start: u64,
    /// RUNTIME records of `cudaGetDevice` (0 while its filter holds).
    pub get_device_records: u64,
    /// Buffers completed to its callback that it did not hand out (another client's): Kineto logs
    /// "bufferCompleted called with unknown buffer" and leaves them.
    pub unknown_buffers: u64,
    /// `cudaLaunchKernel` ENTER callbacks seen ([`KinetoConfig::count_launches`]).
    pub launch_callbacks: u64,
    /// Whether the stop flushed: Kineto flushes only while a buffer of its own is out.
    pub flushed: bool,
}

/// The client's state: process-wide, as CUPTI's buffer callbacks carry no user data.
struct State {
    bytes: usize,
    /// Buffers handed to CUPTI, not yet completed (address, as Kineto's allocated map).
    out: HashSet<usize>,
    /// Completed buffers and their valid bytes (Kineto's ready map), read at stop.
    ready: Vec<(usize, usize)>,
    unknown: u64,
}

static ACTIVE: AtomicBool = AtomicBool::new(false);
static STATE: Mutex<Option<State>> = Mutex::new(None);
static LAUNCH_CALLBACKS: AtomicU64 = AtomicU64::new(0);

fn state() -> std::sync::MutexGuard<'static, Option<State>> {
    STATE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A buffer of `bytes`, 8-aligned, owned by the client until [`free_buffer`].
fn new_buffer(bytes: usize) -> usize {
    let words = vec![0u64; bytes.div_ceil(8)].into_boxed_slice();
    Box::into_raw(words).cast::<u64>() as usize
}

/// # Safety
/// `p` came from [`new_buffer`] with the same `bytes` and is no longer used by CUPTI.
unsafe fn free_buffer(p: usize, bytes: usize) {
    let words = bytes.div_ceil(8);
    // SAFETY: the caller's contract: the slice `new_buffer` leaked.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p as *mut u64, words)) });
}

unsafe extern "C" fn request(buffer: *mut *mut u8, size: *mut usize, max_records: *mut usize) {
    let mut guard = state();
    let (p, bytes) = match guard.as_mut() {
        Some(s) => {
            let p = new_buffer(s.bytes);
            s.out.insert(p);
            (p as *mut u8, s.bytes)
        }
        None => (std::ptr::null_mut(), 0),
    };
    // SAFETY: CUPTI's out-pointers.
    unsafe {
        *buffer = p;
        *size = bytes;
        *max_records = 0;
    }
}

unsafe extern "C" fn complete(_ctx: *mut c_void, _stream: u32, buffer: *mut u8, _size: usize, valid: usize) {
    let mut guard = state();
    let Some(s) = guard.as_mut() else { return };
    if s.out.remove(&(buffer as usize)) {
        s.ready.push((buffer as usize, valid));
    } else {
        s.unknown += 1;
    }
}

unsafe extern "C" fn callback(_userdata: *mut c_void, domain: u32, cbid: u32, data: *const c_void) {
    if domain != Domain::CUPTI_CB_DOMAIN_RUNTIME_API.0 || cbid != LAUNCH || data.is_null() {
        return;
    }
    // SAFETY: RUNTIME_API callback data is a `CUpti_CallbackData`.
    let data = unsafe { &*data.cast::<cupti_sys::CUpti_CallbackData>() };
    if data.callbackSite == cupti_sys::CUpti_ApiCallbackSite::CUPTI_API_ENTER {
        LAUNCH_CALLBACKS.fetch_add(1, Ordering::Relaxed);
    }
}

/// The global symbol `name`, as a function pointer of type `F`.
///
/// # Safety
/// `F` is the C signature of CUPTI's `name`.
unsafe fn global<F: Copy>(name: &'static CStr) -> Result<F> {
    let this = libloading::os::unix::Library::this();
    // SAFETY: the caller's contract for the type.
    let f = unsafe { this.get::<F>(name.to_bytes_with_nul()) }
        .map_err(|_| Error::NotInGlobalScope { symbol: static_name(name) })?;
    Ok(*f)
}

fn static_name(name: &'static CStr) -> &'static str {
    name.to_str().unwrap_or("a CUPTI function")
}

fn check(function: &'static str, code: u32) -> Result<()> {
    match code {
        0 => Ok(()),
        code => Err(Error::Call { function, code: i32::try_from(code).unwrap_or(i32::MAX) }),
    }
}

type Subscribe = unsafe extern "C" fn(
    *mut *mut c_void,
    unsafe extern "C" fn(*mut c_void, u32, u32, *const c_void),
    *mut c_void,
) -> u32;
type Register = unsafe extern "C" fn(
    unsafe extern "C" fn(*mut *mut u8, *mut usize, *mut usize),
    unsafe extern "C" fn(*mut c_void, u32, *mut u8, usize, usize),
) -> u32;
type NextRecord = unsafe extern "C" fn(*mut u8, usize, *mut *mut c_void) -> u32;

/// Loads the library at `path` into the global symbol scope (`RTLD_GLOBAL`, for the life of the
/// process), as a program that links libcupti has it: what [`KinetoClient`] calls.
pub fn load_global(path: impl AsRef<std::ffi::OsStr>) -> Result<()> {
    use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW};
    let path = path.as_ref();
    // SAFETY: this crate's mock (or the library the test chose), whose initialisers only set up
    // its own statics.
    let lib = unsafe { Library::open(Some(path), RTLD_NOW | RTLD_GLOBAL) }
        .map_err(|e| Error::Open { path: path.into(), message: e.to_string() })?;
    std::mem::forget(lib);
    Ok(())
}

/// Kineto, started: one per process (CUPTI's buffer callbacks are process-wide). Dropped without
/// [`KinetoClient::stop`], it stays registered, as a profiler that never stops.
#[derive(Debug)]
pub struct KinetoClient {
    kinds: Vec<u32>,
    subscribe_result: u32,
}

impl KinetoClient {
    /// Starts the client with `config`, calling libcupti through the global symbol scope (load
    /// it there first: [`load_global`]). `Err` when a client is already started, when a CUPTI
    /// function is not in the global scope, or with the first failing call (a failing
    /// `cuptiSubscribe` is not one: it is [`KinetoTally::subscribe_result`], as Kineto goes on
    /// without its callbacks).
    pub fn start(config: KinetoConfig) -> Result<KinetoClient> {
        if ACTIVE.swap(true, Ordering::SeqCst) {
            return Err(Error::Call { function: "KinetoClient::start (one client per process)", code: -1 });
        }
        let started = Self::start_inner(&config);
        if started.is_err() {
            ACTIVE.store(false, Ordering::SeqCst);
        }
        started
    }

    fn start_inner(config: &KinetoConfig) -> Result<KinetoClient> {
        *state() = Some(State {
            bytes: config.buffer_bytes.max(8),
            out: HashSet::new(),
            ready: Vec::new(),
            unknown: 0,
        });
        LAUNCH_CALLBACKS.store(0, Ordering::Relaxed);
        let mut subscribe_result = 0;
        // SAFETY: each function is looked up with CUPTI's C signature; the callbacks are this
        // module's and live for the process; the out-pointer is valid.
        unsafe {
            if config.subscribe {
                let mut handle = std::ptr::null_mut();
                subscribe_result =
                    global::<Subscribe>(c"cuptiSubscribe")?(&mut handle, callback, std::ptr::null_mut());
                if subscribe_result == 0 {
                    let enable = global::<unsafe extern "C" fn(u32, *mut c_void, u32, u32) -> u32>(
                        c"cuptiEnableCallback",
                    )?;
                    let resource = Domain::CUPTI_CB_DOMAIN_RESOURCE.0;
                    check("cuptiEnableCallback", enable(1, handle, resource, CONTEXT_DESTROY_STARTING))?;
                    if config.count_launches {
                        let runtime = Domain::CUPTI_CB_DOMAIN_RUNTIME_API.0;
                        check("cuptiEnableCallback", enable(1, handle, runtime, LAUNCH))?;
                    }
                }
            }
            if let Some(clock) = config.timestamp {
                type RegisterClock = unsafe extern "C" fn(Option<unsafe extern "C" fn() -> u64>) -> u32;
                let f = global::<RegisterClock>(c"cuptiActivityRegisterTimestampCallback")?;
                check("cuptiActivityRegisterTimestampCallback", f(Some(clock)))?;
            }
            check(
                "cuptiActivityRegisterCallbacks",
                global::<Register>(c"cuptiActivityRegisterCallbacks")?(request, complete),
            )?;
            let enable = global::<unsafe extern "C" fn(u32) -> u32>(c"cuptiActivityEnable")?;
            for &kind in &config.kinds {
                check("cuptiActivityEnable", enable(kind))?;
            }
            if config.filters {
                let runtime =
                    global::<unsafe extern "C" fn(u32, u8) -> u32>(c"cuptiActivityEnableRuntimeApi")?;
                check("cuptiActivityEnableRuntimeApi", runtime(GET_DEVICE, 0))?;
                let driver = global::<unsafe extern "C" fn(u32, u8) -> u32>(c"cuptiActivityEnableDriverApi")?;
                for cbid in [
                    DriverCbid::CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute.0,
                    DriverCbid::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState.0,
                    DriverCbid::CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent.0,
                ] {
                    check("cuptiActivityEnableDriverApi", driver(cbid, 0))?;
                }
            }
        }
        Ok(KinetoClient { kinds: config.kinds.clone(), subscribe_result })
    }

    /// Stops as Kineto does: each kind disabled (CUPTI completes its buffers right then), then,
    /// when a buffer of its own is still out, `cuptiActivityFlushAll(FORCED)` (with none out,
    /// Kineto's `activityBuffers()` reads nothing at all); then its ready buffers are read. No
    /// unsubscribe, no finalize (Kineto makes neither).
    pub fn stop(self) -> Result<KinetoTally> {
        let mut tally = KinetoTally {
            subscribe_result: self.subscribe_result,
            first_kernel_start: u64::MAX,
            ..KinetoTally::default()
        };
        // SAFETY: CUPTI's C signatures.
        unsafe {
            let disable = global::<unsafe extern "C" fn(u32) -> u32>(c"cuptiActivityDisable")?;
            for &kind in &self.kinds {
                check("cuptiActivityDisable", disable(kind))?;
            }
            let outstanding = state().as_ref().is_some_and(|s| !s.out.is_empty());
            if outstanding {
                let flush = global::<unsafe extern "C" fn(u32) -> u32>(c"cuptiActivityFlushAll")?;
                check("cuptiActivityFlushAll", flush(1))?;
                tally.flushed = true;
            }
        }
        // SAFETY: CUPTI's C signature.
        let next = unsafe { global::<NextRecord>(c"cuptiActivityGetNextRecord")? };
        let (ready, bytes, unknown) = match state().as_mut() {
            Some(s) => (std::mem::take(&mut s.ready), s.bytes, s.unknown),
            None => (Vec::new(), 0, 0),
        };
        tally.unknown_buffers = unknown;
        let start_at = std::mem::offset_of!(cupti_sys::CUpti_ActivityKernel10, start);
        for (buffer, valid) in ready {
            let mut record: *mut c_void = std::ptr::null_mut();
            // SAFETY: a buffer of ours that CUPTI completed with `valid` bytes; the records it
            // returns lie in it, each starting with its kind and (API records) callback id.
            while unsafe { next(buffer as *mut u8, valid, &mut record) } == 0 {
                tally.records += 1;
                // SAFETY: as above.
                let (kind, cbid) = unsafe { (*record.cast::<u32>(), *record.cast::<u32>().add(1)) };
                if kind == Kind::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL.0 {
                    tally.kernels += 1;
                    // SAFETY: a kernel record (its `start` at the same offset in 12.x and 13.x).
                    let start = unsafe { record.cast::<u8>().add(start_at).cast::<u64>().read_unaligned() };
                    tally.first_kernel_start = tally.first_kernel_start.min(start);
                    tally.last_kernel_start = tally.last_kernel_start.max(start);
                }
                if kind == Kind::CUPTI_ACTIVITY_KIND_RUNTIME.0 && cbid == GET_DEVICE {
                    tally.get_device_records += 1;
                }
            }
            // SAFETY: completed and read: CUPTI is done with it.
            unsafe { free_buffer(buffer, bytes) };
        }
        tally.launch_callbacks = LAUNCH_CALLBACKS.load(Ordering::Relaxed);
        Ok(tally)
    }
}
