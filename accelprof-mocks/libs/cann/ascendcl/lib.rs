//! Stand-in for CANN's `libascendcl.so` (the ACL runtime) with one simulated 910B device.
//!
//! Each `aclrt*` function does its work on host memory and reports to the profiling library the
//! way CANN's runtime does, through `libprofapi.so` (the stand-in beside this file): an ACL-level
//! API record for every call (named by type, registered at `aclInit`), and for a kernel launch a
//! task track, a runtime-level and a node-level record (named by the kernel), and the task's
//! begin and end on the device through the driver stand-in (`libascend_hal.so`). A kernel runs
//! `KERNEL_NS_PER_BLOCK` ns per block, after whatever its stream still runs.
//!
//! Task tracks and device task data are reported only while the profiling library has switched
//! the device's `PROF_TASK_TIME` on (`profSetProfCommand`, kept by the `libprofapi.so` stand-in),
//! as CANN's runtime reports only the data types a profiler asked for. `aclrtProfTrace` (MSPTI's
//! device-side marks) puts a step-trace record on the stream: the driver delivers it on its TS
//! firmware channel when the stream reaches it.
//!
//! The profiling library reaches these calls only by interposing them: `libmspti.so` exports
//! the same `aclrt*` names, so a program whose calls resolve through the global symbol scope
//! calls MSPTI's wrapper first when it is preloaded.

#![allow(clippy::missing_safety_doc)]

#[path = "../protocol.rs"]
mod protocol;

use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::atomic::{AtomicI32, AtomicU16, AtomicU64, Ordering::SeqCst};
use std::sync::OnceLock;

use protocol::{level, monotonic_raw_ns, MsprofCompactInfo, MsprofRuntimeTrack};

/// Device time a launched kernel takes per block.
pub const KERNEL_NS_PER_BLOCK: u64 = 20_000;

const ACL_ERROR_INVALID_PARAM: i32 = 100000;
const ACL_ERROR_RT_CONTEXT_NULL: i32 = 107002;
const ACL_ERROR_BAD_ALLOC: i32 = 200000;

/// ACL report types and their names (registered at `aclInit`).
const ACL_TYPES: &[(u32, &str)] = &[
    (1, "aclrtSetDevice"),
    (2, "aclrtResetDevice"),
    (3, "aclrtCreateStream"),
    (4, "aclrtDestroyStream"),
    (5, "aclrtSynchronizeStream"),
    (6, "aclrtMalloc"),
    (7, "aclrtFree"),
    (8, "aclrtMallocHost"),
    (9, "aclrtFreeHost"),
    (10, "aclrtMemcpy"),
    (11, "aclrtMemset"),
    (12, "aclrtLaunchKernel"),
    (13, "aclrtBinaryLoadFromFile"),
    (14, "aclrtBinaryGetFunction"),
    (15, "aclrtCreateContext"),
    (16, "aclrtDestroyContext"),
    (17, "aclrtMemcpyAsync"),
    (18, "aclrtMemsetAsync"),
    (19, "aclrtBinaryUnLoad"),
    (20, "aclrtMallocCached"),
    (21, "aclrtMemFlush"),
    (22, "aclrtMemInvalidate"),
    (23, "aclrtMemcpy2d"),
    (24, "aclrtMemcpy2dAsync"),
    (25, "aclrtGetMemInfo"),
    (26, "aclrtReserveMemAddress"),
    (27, "aclrtReleaseMemAddress"),
    (28, "aclrtMallocPhysical"),
    (29, "aclrtFreePhysical"),
    (30, "aclrtMemExportToShareableHandle"),
    (31, "aclrtMemImportFromShareableHandle"),
    (32, "aclrtMemSetPidToShareableHandle"),
];
const RT_KERNEL_LAUNCH: u32 = 1001;
const TASK_KERNEL_AICORE: u64 = 0;
/// The runtime task type of a collective's task on the stand-in device (a copy by the DMA
/// engine; the number and name are the stand-in's own: what matters to MSPTI is that the name
/// does not start with `KERNEL`, so that the task is no KERNEL record).
const TASK_MEMCPY_ASYNC: u64 = 28;

struct Broker {
    report_api: unsafe extern "C" fn(u16, u32, u64, u64, u64) -> i32,
    report_compact: unsafe extern "C" fn(*const MsprofCompactInfo) -> i32,
    device_state: unsafe extern "C" fn(u32, bool),
    reg_type_info: unsafe extern "C" fn(u16, u32, *const c_char) -> i32,
    hash_id: unsafe extern "C" fn(*const c_char, usize) -> u64,
    hal_task: unsafe extern "C" fn(u32, u16, u16, u64, u64),
    hal_step_trace: unsafe extern "C" fn(u32, u16, u16, u64, u64, u16, u64),
    prof_switch: unsafe extern "C" fn(u32) -> u64,
}

extern "C" {
    fn dlopen(name: *const c_char, flags: i32) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn dladdr(addr: *const c_void, info: *mut DlInfo) -> i32;
    fn malloc(size: usize) -> *mut c_void;
    fn free(p: *mut c_void);
}

#[repr(C)]
struct DlInfo {
    fname: *const c_char,
    fbase: *mut c_void,
    sname: *const c_char,
    saddr: *mut c_void,
}

/// `libprofapi.so` and `libascend_hal.so` from this library's own directory, as CANN installs them.
fn broker() -> &'static Broker {
    static B: OnceLock<Broker> = OnceLock::new();
    B.get_or_init(|| {
        let mut info = DlInfo {
            fname: std::ptr::null(),
            fbase: std::ptr::null_mut(),
            sname: std::ptr::null(),
            saddr: std::ptr::null_mut(),
        };
        // SAFETY: an address inside this library and a valid out-struct.
        unsafe { dladdr(broker as *const c_void, &mut info) };
        // SAFETY: dladdr gives a NUL-terminated file name.
        let me = unsafe { CStr::from_ptr(info.fname) }.to_string_lossy().into_owned();
        let dir = std::path::Path::new(&me).parent().map(|d| d.to_path_buf()).unwrap_or_default();
        let open = |lib: &str| {
            let path = CString::new(dir.join(lib).to_string_lossy().into_owned()).expect("no NUL");
            // SAFETY: a stand-in library of this directory.
            let h = unsafe { dlopen(path.as_ptr(), 1) };
            assert!(!h.is_null(), "mock libascendcl: {lib} beside {me} cannot be opened");
            h
        };
        let (profapi, hal) = (open("libprofapi.so"), open("libascend_hal.so"));
        let sym = |h, name: &CStr| {
            // SAFETY: a live handle.
            let p = unsafe { dlsym(h, name.as_ptr()) };
            assert!(!p.is_null(), "mock libascendcl: {name:?} missing");
            p
        };
        // SAFETY: each symbol is the stand-in's function of the matching signature.
        unsafe {
            Broker {
                report_api: cast(sym(profapi, c"mock_profapi_report_api")),
                report_compact: cast(sym(profapi, c"mock_profapi_report_compact")),
                device_state: cast(sym(profapi, c"mock_profapi_device_state")),
                reg_type_info: cast(sym(profapi, c"MsprofRegTypeInfo")),
                hash_id: cast(sym(profapi, c"MsprofGetHashId")),
                hal_task: cast(sym(hal, c"mock_hal_task")),
                hal_step_trace: cast(sym(hal, c"mock_hal_step_trace")),
                prof_switch: cast(sym(profapi, c"mock_profapi_prof_switch")),
            }
        }
    })
}

/// Whether the profiling library switched `dev`'s task-time data on.
fn task_time_on(dev: u32) -> bool {
    // SAFETY: the broker's function.
    let switch = unsafe { (broker().prof_switch)(dev) };
    switch & protocol::command::TASK_TIME != 0
}

fn type_of(name: &str) -> u32 {
    ACL_TYPES.iter().find(|(_, n)| *n == name).map_or(0, |(t, _)| *t)
}

/// Reports an ACL-level API record for `name` begun at `begin`.
fn acl_api(name: &str, begin: u64) {
    // SAFETY: the broker's function.
    unsafe { (broker().report_api)(level::ACL, type_of(name), begin, monotonic_raw_ns(), 0) };
}

static DEVICE: AtomicI32 = AtomicI32::new(-1);
static NEXT_STREAM: AtomicU16 = AtomicU16::new(1);
static NEXT_TASK: AtomicU16 = AtomicU16::new(1);

/// An `aclrtStream`: its id and until when its device queue is busy.
struct Stream {
    id: u16,
    busy_until: AtomicU64,
}

/// An `aclrtFuncHandle`: a kernel's name and its hash id.
struct Func {
    name: CString,
    hash: u64,
}

#[no_mangle]
pub extern "C" fn aclInit(_config: *const c_char) -> i32 {
    let reg = |lvl, ty, name: &str| {
        let c = CString::new(name).expect("no NUL");
        // SAFETY: the broker's function with a live string.
        unsafe { (broker().reg_type_info)(lvl, ty, c.as_ptr()) };
    };
    for (ty, name) in ACL_TYPES {
        reg(level::ACL, *ty, name);
    }
    reg(level::RUNTIME, RT_KERNEL_LAUNCH, "KernelLaunch");
    reg(level::RUNTIME, TASK_KERNEL_AICORE as u32, "KERNEL_AICORE");
    reg(level::RUNTIME, TASK_MEMCPY_ASYNC as u32, "MEMCPY_ASYNC");
    0
}

#[no_mangle]
pub extern "C" fn aclFinalize() -> i32 {
    0
}

#[no_mangle]
pub extern "C" fn aclrtSetDevice(dev: i32) -> i32 {
    let b = monotonic_raw_ns();
    DEVICE.store(dev, SeqCst);
    // SAFETY: the broker's function.
    unsafe { (broker().device_state)(dev as u32, true) };
    acl_api("aclrtSetDevice", b);
    0
}

#[no_mangle]
pub extern "C" fn aclrtResetDevice(dev: i32) -> i32 {
    let b = monotonic_raw_ns();
    let _ = DEVICE.compare_exchange(dev, -1, SeqCst, SeqCst);
    acl_api("aclrtResetDevice", b);
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtGetDevice(dev: *mut i32) -> i32 {
    let d = DEVICE.load(SeqCst);
    if d < 0 || dev.is_null() {
        return ACL_ERROR_RT_CONTEXT_NULL;
    }
    // SAFETY: the caller's out-pointer.
    unsafe { *dev = d };
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtGetLogicDevIdByUserDevId(user: i32, logic: *mut i32) -> i32 {
    // SAFETY: the caller's out-pointer.
    unsafe { *logic = user };
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtCreateContext(ctx: *mut *mut c_void, dev: i32) -> i32 {
    let b = monotonic_raw_ns();
    DEVICE.store(dev, SeqCst);
    // SAFETY: the caller's out-pointer; a token allocation.
    unsafe { *ctx = Box::into_raw(Box::new(dev)).cast() };
    acl_api("aclrtCreateContext", b);
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtDestroyContext(ctx: *mut c_void) -> i32 {
    let b = monotonic_raw_ns();
    if !ctx.is_null() {
        // SAFETY: made by `aclrtCreateContext`.
        drop(unsafe { Box::from_raw(ctx.cast::<i32>()) });
    }
    acl_api("aclrtDestroyContext", b);
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtCreateStream(stream: *mut *mut c_void) -> i32 {
    let b = monotonic_raw_ns();
    let s = Stream { id: NEXT_STREAM.fetch_add(1, SeqCst), busy_until: AtomicU64::new(0) };
    // SAFETY: the caller's out-pointer.
    unsafe { *stream = Box::into_raw(Box::new(s)).cast() };
    acl_api("aclrtCreateStream", b);
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtStreamGetId(stream: *mut c_void, id: *mut i32) -> i32 {
    // SAFETY: a stream of `aclrtCreateStream` (or NULL, the default stream) and an out-pointer.
    unsafe { *id = stream.cast::<Stream>().as_ref().map_or(0, |s| s.id.into()) };
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtDestroyStream(stream: *mut c_void) -> i32 {
    let b = monotonic_raw_ns();
    if !stream.is_null() {
        // SAFETY: made by `aclrtCreateStream`.
        drop(unsafe { Box::from_raw(stream.cast::<Stream>()) });
    }
    acl_api("aclrtDestroyStream", b);
    0
}

/// Waits until the stream's kernels have run.
#[no_mangle]
pub unsafe extern "C" fn aclrtSynchronizeStream(stream: *mut c_void) -> i32 {
    let b = monotonic_raw_ns();
    // SAFETY: a stream of `aclrtCreateStream`, or NULL.
    if let Some(s) = unsafe { stream.cast::<Stream>().as_ref() } {
        let until = s.busy_until.load(SeqCst);
        while monotonic_raw_ns() < until {
            std::thread::sleep(std::time::Duration::from_micros(20));
        }
    }
    acl_api("aclrtSynchronizeStream", b);
    0
}

fn alloc(name: &str, p: *mut *mut c_void, size: usize) -> i32 {
    let b = monotonic_raw_ns();
    if p.is_null() {
        return ACL_ERROR_INVALID_PARAM;
    }
    // SAFETY: plain allocation; the caller's out-pointer.
    let m = unsafe { malloc(size.max(1)) };
    // SAFETY: the caller's out-pointer.
    unsafe { *p = m };
    acl_api(name, b);
    if m.is_null() {
        ACL_ERROR_BAD_ALLOC
    } else {
        0
    }
}

fn release(name: &str, p: *mut c_void) -> i32 {
    let b = monotonic_raw_ns();
    // SAFETY: memory of `alloc` (or NULL).
    unsafe { free(p) };
    acl_api(name, b);
    0
}

#[no_mangle]
pub extern "C" fn aclrtMalloc(p: *mut *mut c_void, size: usize, _policy: i32) -> i32 {
    alloc("aclrtMalloc", p, size)
}

#[no_mangle]
pub extern "C" fn aclrtFree(p: *mut c_void) -> i32 {
    release("aclrtFree", p)
}

#[no_mangle]
pub extern "C" fn aclrtMallocHost(p: *mut *mut c_void, size: usize) -> i32 {
    alloc("aclrtMallocHost", p, size)
}

#[no_mangle]
pub extern "C" fn aclrtFreeHost(p: *mut c_void) -> i32 {
    release("aclrtFreeHost", p)
}

unsafe fn copy(name: &str, dst: *mut c_void, max: usize, src: *const c_void, count: usize) -> i32 {
    let b = monotonic_raw_ns();
    if count > max || dst.is_null() || src.is_null() {
        return ACL_ERROR_INVALID_PARAM;
    }
    // SAFETY: the caller's buffers of at least `count` bytes (checked against `max`).
    unsafe { std::ptr::copy(src.cast::<u8>(), dst.cast::<u8>(), count) };
    acl_api(name, b);
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpy(
    dst: *mut c_void,
    max: usize,
    src: *const c_void,
    n: usize,
    _k: i32,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy("aclrtMemcpy", dst, max, src, n) }
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpyAsync(
    dst: *mut c_void,
    max: usize,
    src: *const c_void,
    n: usize,
    _k: i32,
    _stream: *mut c_void,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy("aclrtMemcpyAsync", dst, max, src, n) }
}

// The rest of the memory calls MSPTI interposes (`aclrtMallocCached` ... the shareable handles):
// on the stand-in device (host memory) each does the least that keeps a program's use of it sound.

#[no_mangle]
pub extern "C" fn aclrtMallocCached(p: *mut *mut c_void, size: usize, _policy: i32) -> i32 {
    alloc("aclrtMallocCached", p, size)
}

#[no_mangle]
pub extern "C" fn aclrtMemFlush(_p: *mut c_void, _size: usize) -> i32 {
    acl_api("aclrtMemFlush", monotonic_raw_ns());
    0
}

#[no_mangle]
pub extern "C" fn aclrtMemInvalidate(_p: *mut c_void, _size: usize) -> i32 {
    acl_api("aclrtMemInvalidate", monotonic_raw_ns());
    0
}

/// `height` rows of `width` bytes from `src` (rows `spitch` apart) to `dst` (rows `dpitch` apart).
unsafe fn copy_2d(
    name: &str,
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
) -> i32 {
    let b = monotonic_raw_ns();
    if dst.is_null() || src.is_null() || width > dpitch || width > spitch {
        return ACL_ERROR_INVALID_PARAM;
    }
    for row in 0..height {
        // SAFETY: the caller's buffers of `height` rows of their pitch.
        unsafe {
            std::ptr::copy(src.cast::<u8>().add(row * spitch), dst.cast::<u8>().add(row * dpitch), width)
        };
    }
    acl_api(name, b);
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpy2d(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    _k: i32,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy_2d("aclrtMemcpy2d", dst, dpitch, src, spitch, width, height) }
}

#[allow(clippy::too_many_arguments)] // the C signature
#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpy2dAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    _k: i32,
    _stream: *mut c_void,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy_2d("aclrtMemcpy2dAsync", dst, dpitch, src, spitch, width, height) }
}

/// The stand-in device's memory: 32 GiB, all free.
#[no_mangle]
pub unsafe extern "C" fn aclrtGetMemInfo(_attr: i32, free: *mut usize, total: *mut usize) -> i32 {
    let b = monotonic_raw_ns();
    if free.is_null() || total.is_null() {
        return ACL_ERROR_INVALID_PARAM;
    }
    // SAFETY: the caller's out-pointers (checked non-NULL).
    unsafe { (*free, *total) = (32 << 30, 32 << 30) };
    acl_api("aclrtGetMemInfo", b);
    0
}

#[no_mangle]
pub extern "C" fn aclrtReserveMemAddress(
    p: *mut *mut c_void,
    size: usize,
    _align: usize,
    _expect: *mut c_void,
    _flags: u64,
) -> i32 {
    alloc("aclrtReserveMemAddress", p, size)
}

#[no_mangle]
pub extern "C" fn aclrtReleaseMemAddress(p: *mut c_void) -> i32 {
    release("aclrtReleaseMemAddress", p)
}

#[no_mangle]
pub extern "C" fn aclrtMallocPhysical(
    handle: *mut *mut c_void,
    size: usize,
    _prop: *const c_void,
    _flags: u64,
) -> i32 {
    alloc("aclrtMallocPhysical", handle, size)
}

#[no_mangle]
pub extern "C" fn aclrtFreePhysical(handle: *mut c_void) -> i32 {
    release("aclrtFreePhysical", handle)
}

/// A shareable handle is the physical handle's address.
#[no_mangle]
pub unsafe extern "C" fn aclrtMemExportToShareableHandle(
    handle: *mut c_void,
    _ty: i32,
    _flags: u64,
    out: *mut u64,
) -> i32 {
    let b = monotonic_raw_ns();
    if handle.is_null() || out.is_null() {
        return ACL_ERROR_INVALID_PARAM;
    }
    // SAFETY: the caller's out-pointer (checked non-NULL).
    unsafe { *out = handle as u64 };
    acl_api("aclrtMemExportToShareableHandle", b);
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemImportFromShareableHandle(
    shareable: u64,
    _device: i32,
    out: *mut *mut c_void,
) -> i32 {
    let b = monotonic_raw_ns();
    if shareable == 0 || out.is_null() {
        return ACL_ERROR_INVALID_PARAM;
    }
    // SAFETY: the caller's out-pointer (checked non-NULL).
    unsafe { *out = shareable as *mut c_void };
    acl_api("aclrtMemImportFromShareableHandle", b);
    0
}

#[no_mangle]
pub extern "C" fn aclrtMemSetPidToShareableHandle(shareable: u64, pids: *mut i32, n: usize) -> i32 {
    let b = monotonic_raw_ns();
    if shareable == 0 || (pids.is_null() && n > 0) {
        return ACL_ERROR_INVALID_PARAM;
    }
    acl_api("aclrtMemSetPidToShareableHandle", b);
    0
}

unsafe fn set(name: &str, p: *mut c_void, max: usize, value: i32, count: usize) -> i32 {
    let b = monotonic_raw_ns();
    if count > max || p.is_null() {
        return ACL_ERROR_INVALID_PARAM;
    }
    // SAFETY: the caller's buffer of at least `count` bytes.
    unsafe { std::ptr::write_bytes(p.cast::<u8>(), value as u8, count) };
    acl_api(name, b);
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemset(p: *mut c_void, max: usize, value: i32, n: usize) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { set("aclrtMemset", p, max, value, n) }
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemsetAsync(
    p: *mut c_void,
    max: usize,
    v: i32,
    n: usize,
    _s: *mut c_void,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { set("aclrtMemsetAsync", p, max, v, n) }
}

/// Loads a kernel binary: here any path is accepted and holds any kernel.
#[no_mangle]
pub unsafe extern "C" fn aclrtBinaryLoadFromFile(
    path: *const c_char,
    _opts: *mut c_void,
    bin: *mut *mut c_void,
) -> i32 {
    let b = monotonic_raw_ns();
    if path.is_null() || bin.is_null() {
        return ACL_ERROR_INVALID_PARAM;
    }
    // SAFETY: the caller's out-pointer; a token allocation.
    unsafe { *bin = Box::into_raw(Box::new(0u8)).cast() };
    acl_api("aclrtBinaryLoadFromFile", b);
    0
}

#[no_mangle]
pub unsafe extern "C" fn aclrtBinaryUnLoad(bin: *mut c_void) -> i32 {
    let b = monotonic_raw_ns();
    if !bin.is_null() {
        // SAFETY: made by `aclrtBinaryLoadFromFile`.
        drop(unsafe { Box::from_raw(bin.cast::<u8>()) });
    }
    acl_api("aclrtBinaryUnLoad", b);
    0
}

/// The kernel `name` of a binary; its name is hashed through the profiling library, as the
/// runtime does, so that its records can be named.
#[no_mangle]
pub unsafe extern "C" fn aclrtBinaryGetFunction(
    _bin: *mut c_void,
    name: *const c_char,
    f: *mut *mut c_void,
) -> i32 {
    let b = monotonic_raw_ns();
    if name.is_null() || f.is_null() {
        return ACL_ERROR_INVALID_PARAM;
    }
    // SAFETY: the caller's NUL-terminated name.
    let name = unsafe { CStr::from_ptr(name) }.to_owned();
    // SAFETY: the broker's function with a live string.
    let hash = unsafe { (broker().hash_id)(name.as_ptr(), name.as_bytes().len()) };
    // SAFETY: the caller's out-pointer.
    unsafe { *f = Box::into_raw(Box::new(Func { name, hash })).cast() };
    acl_api("aclrtBinaryGetFunction", b);
    0
}

/// Launches a kernel on a stream: a task track, then the task's begin/end on the device, then
/// the runtime-level and node-level records and the ACL one.
#[no_mangle]
pub unsafe extern "C" fn aclrtLaunchKernel(
    func: *mut c_void,
    block_dim: u32,
    _args: *const c_void,
    _args_size: usize,
    stream: *mut c_void,
) -> i32 {
    let b = monotonic_raw_ns();
    // SAFETY: handles of `aclrtBinaryGetFunction` and `aclrtCreateStream`.
    let (Some(f), Some(s)) =
        (unsafe { func.cast::<Func>().as_ref() }, unsafe { stream.cast::<Stream>().as_ref() })
    else {
        return ACL_ERROR_INVALID_PARAM;
    };
    let device = DEVICE.load(SeqCst).max(0) as u16;
    let task = NEXT_TASK.fetch_add(1, SeqCst);
    let track = MsprofCompactInfo {
        magic_number: protocol::MAGIC,
        level: level::RUNTIME,
        ty: protocol::TASK_TRACK_TYPE,
        thread_id: protocol::gettid(),
        data_len: 40,
        time_stamp: monotonic_raw_ns(),
        runtime_track: MsprofRuntimeTrack {
            device_id: device,
            stream_id: s.id,
            task_info: task.into(),
            task_type: TASK_KERNEL_AICORE,
            kernel_name: f.hash,
        },
        rest: [0; 16],
    };
    let broker = broker();
    let profiled = task_time_on(device.into());
    if profiled {
        // SAFETY: the broker's functions with live arguments.
        unsafe { (broker.report_compact)(&track) };
    }
    let start = (monotonic_raw_ns() + 5_000).max(s.busy_until.load(SeqCst));
    let end = start + KERNEL_NS_PER_BLOCK * u64::from(block_dim.max(1));
    s.busy_until.store(end, SeqCst);
    if profiled {
        // SAFETY: as above.
        unsafe { (broker.hal_task)(device.into(), s.id, task, start, end) };
    }
    let rt_end = monotonic_raw_ns();
    // SAFETY: as above.
    unsafe {
        (broker.report_api)(level::RUNTIME, RT_KERNEL_LAUNCH, b, rt_end, 0);
        (broker.report_api)(level::NODE_BASE, protocol::NODE_LAUNCH_TYPE, b, rt_end, f.hash);
    }
    let _ = &f.name;
    acl_api("aclrtLaunchKernel", b);
    0
}

/// Puts a step-trace record on a stream (MSPTI's device-side marks: `TraceData { indexId,
/// modelId, tagId }`, 18 bytes): the device reaches it after whatever the stream still runs, and
/// the driver delivers it on the TS firmware channel.
#[no_mangle]
pub unsafe extern "C" fn aclrtProfTrace(info: *mut c_void, len: i32, stream: *mut c_void) -> i32 {
    if info.is_null() || len as usize != protocol::TRACE_DATA_SIZE {
        return ACL_ERROR_INVALID_PARAM;
    }
    // SAFETY: the caller's 18 bytes.
    let b = unsafe { std::slice::from_raw_parts(info.cast::<u8>(), protocol::TRACE_DATA_SIZE) };
    let u64_at = |o: usize| {
        let mut x = [0u8; 8];
        x.copy_from_slice(&b[o..o + 8]);
        u64::from_ne_bytes(x)
    };
    let (index, model, tag) = (u64_at(0), u64_at(8), u16::from_ne_bytes([b[16], b[17]]));
    // SAFETY: a stream of `aclrtCreateStream`, or NULL (the default stream).
    let s = unsafe { stream.cast::<Stream>().as_ref() };
    let at = s.map_or(0, |s| s.busy_until.load(SeqCst)).max(monotonic_raw_ns() + 1_000);
    if let Some(s) = s {
        s.busy_until.store(at, SeqCst);
    }
    let device = DEVICE.load(SeqCst).max(0) as u32;
    let task = NEXT_TASK.fetch_add(1, SeqCst);
    // SAFETY: the broker's function.
    unsafe { (broker().hal_step_trace)(device, s.map_or(0, |s| s.id), task, index, model, tag, at) };
    0
}

/// For the HCCL stand-in: `stream` runs `ns` of work after whatever it still runs (a collective's
/// tasks); returns when that work ends (device ticks).
#[no_mangle]
pub unsafe extern "C" fn mock_acl_stream_work(stream: *mut c_void, ns: u64) -> u64 {
    // SAFETY: a stream of `aclrtCreateStream`, or NULL.
    let Some(s) = (unsafe { stream.cast::<Stream>().as_ref() }) else { return monotonic_raw_ns() };
    let start = s.busy_until.load(SeqCst).max(monotonic_raw_ns() + 1_000);
    s.busy_until.store(start + ns, SeqCst);
    start + ns
}

/// For the HCCL stand-in: the collective `op` (e.g. `HcclAllReduce`) of `count` elements of
/// `data_type` on `stream`, with algorithm `alg` on the communicator `group`, runs `ns` on the
/// device after whatever the stream still runs, as one task; returns when that work ends (device
/// ticks). It is reported as CANN reports a collective, in this order, on the calling thread:
/// 1. the task's track (compact, level 5000, `RT_PROFILE_TYPE_TASK_TRACK`, a non-kernel task
///    type) and its begin and end on the device (STARS logs, delivered with the driver's latency),
///    while the device's `PROF_TASK_TIME` switch is on;
/// 2. HCCL's API report (level 5500, `MSPROF_REPORT_HCCL_NODE_LEVEL`) whose host range holds the
///    track's time stamp, while `PROF_HCCL_TRACE` is on;
/// 3. the operator's node launch (level 10000, `NODE_LAUNCH`, named by `op`'s hash id) whose range
///    holds HCCL's, while `PROF_ACL_API` is on;
/// 4. the operator's info (compact, level 10000, type 10, `MsprofHcclOPInfo`: data type, count,
///    the hash ids of `alg` and `group`) time-stamped inside the operator's range, while
///    `PROF_HCCL_TRACE` is on.
///
/// MSPTI (`CannTrackCache`, `CommunicationCalculator`) makes a COMMUNICATION record of the four
/// when the task's STARS end log arrives. A NULL stream runs and reports nothing. Which switch
/// gates which report in CANN itself is not in MSPTI's source: these are the stand-in's choice,
/// each of them one that MSPTI's COMMUNICATION switches (`PROF_ACL_API | PROF_TASK_TIME |
/// PROF_RUNTIME_TRACE | PROF_HCCL_TRACE`) turn on.
#[no_mangle]
pub unsafe extern "C" fn mock_acl_hccl_op(
    stream: *mut c_void,
    ns: u64,
    op: *const c_char,
    data_type: u8,
    count: u64,
    alg: *const c_char,
    group: *const c_char,
) -> u64 {
    use protocol::command::{ACL_API, HCCL_TRACE, TASK_TIME};
    // SAFETY: a stream of `aclrtCreateStream`, or NULL.
    let Some(s) = (unsafe { stream.cast::<Stream>().as_ref() }) else { return monotonic_raw_ns() };
    let broker = broker();
    let hash = |p: *const c_char| {
        if p.is_null() {
            return 0;
        }
        // SAFETY: the HCCL stand-in's NUL-terminated strings.
        let len = unsafe { CStr::from_ptr(p) }.to_bytes().len();
        // SAFETY: the broker's function with a live string of `len` bytes.
        unsafe { (broker.hash_id)(p, len) }
    };
    let device = DEVICE.load(SeqCst).max(0) as u16;
    // SAFETY: the broker's function.
    let switch = unsafe { (broker.prof_switch)(device.into()) };
    let node_begin = monotonic_raw_ns();
    let hccl_begin = monotonic_raw_ns();
    let task = NEXT_TASK.fetch_add(1, SeqCst);
    let track = MsprofCompactInfo {
        magic_number: protocol::MAGIC,
        level: level::RUNTIME,
        ty: protocol::TASK_TRACK_TYPE,
        thread_id: protocol::gettid(),
        data_len: 40,
        time_stamp: monotonic_raw_ns(),
        runtime_track: MsprofRuntimeTrack {
            device_id: device,
            stream_id: s.id,
            task_info: task.into(),
            task_type: TASK_MEMCPY_ASYNC,
            kernel_name: 0,
        },
        rest: [0; 16],
    };
    if switch & TASK_TIME != 0 {
        // SAFETY: the broker's function with a live record.
        unsafe { (broker.report_compact)(&track) };
    }
    let start = s.busy_until.load(SeqCst).max(monotonic_raw_ns() + 1_000);
    let end = start + ns;
    s.busy_until.store(end, SeqCst);
    if switch & TASK_TIME != 0 {
        // SAFETY: the broker's function.
        unsafe { (broker.hal_task)(device.into(), s.id, task, start, end) };
    }
    let op_hash = hash(op);
    if switch & HCCL_TRACE != 0 {
        // SAFETY: the broker's function.
        unsafe { (broker.report_api)(level::HCCL_NODE, 0, hccl_begin, monotonic_raw_ns(), op_hash) };
    }
    let info = protocol::HcclOpInfo { data_type, alg_type: hash(alg), count, group_name: hash(group) };
    let info_time = monotonic_raw_ns();
    let node_end = monotonic_raw_ns();
    if switch & ACL_API != 0 {
        // SAFETY: the broker's function.
        unsafe {
            (broker.report_api)(level::NODE_BASE, protocol::NODE_LAUNCH_TYPE, node_begin, node_end, op_hash)
        };
    }
    if switch & HCCL_TRACE != 0 {
        let c = MsprofCompactInfo::with_data(
            level::NODE_BASE,
            protocol::HCCL_OP_INFO_TYPE,
            info_time,
            info.encode(),
        );
        // SAFETY: the broker's function with a live record.
        unsafe { (broker.report_compact)(&c) };
    }
    end
}

/// A looked-up function address as the function pointer type `F`.
///
/// # Safety
/// `F` is a function pointer type with the C signature of the function at `p`.
unsafe fn cast<F: Copy>(p: *mut c_void) -> F {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>(), "a function pointer type");
    // SAFETY: same size; the caller vouches for the signature.
    unsafe { std::mem::transmute_copy(&p) }
}
