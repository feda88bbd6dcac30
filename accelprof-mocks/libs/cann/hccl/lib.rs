//! Stand-in for CANN's `libhccl.so`: a one-rank communicator (`HcclCommInitRootInfo` with one
//! rank); collectives copy the send buffer to the receive buffer, or do nothing, and keep their
//! stream busy on the device for [`BASE_NS`] plus the bytes at [`BYTES_PER_NS`] (through the
//! runtime stand-in beside this file), so that marks MSPTI puts on the stream around a collective
//! (`aclrtProfTrace`) see it take time. Each collective but the barrier is one task on its stream,
//! reported to the profiling library as CANN reports a collective (task track, HCCL's API report,
//! the operator's node launch and its `MsprofHcclOPInfo`, the task's STARS logs: see the runtime
//! stand-in's `mock_acl_hccl_op`), from which MSPTI makes a COMMUNICATION record. Reached by the
//! profiling library only through interposition, like the runtime.

#![allow(clippy::missing_safety_doc, clippy::too_many_arguments)]

use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::OnceLock;

/// Device time of any collective, plus its bytes at [`BYTES_PER_NS`].
pub const BASE_NS: u64 = 10_000;
/// The stand-in's link speed: 20 bytes per ns (20 GB/s).
pub const BYTES_PER_NS: u64 = 20;

extern "C" {
    fn dlopen(name: *const c_char, flags: i32) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn dladdr(addr: *const c_void, info: *mut DlInfo) -> i32;
}

#[repr(C)]
struct DlInfo {
    fname: *const c_char,
    fbase: *mut c_void,
    sname: *const c_char,
    saddr: *mut c_void,
}

type StreamWork = unsafe extern "C" fn(*mut c_void, u64) -> u64;
type HcclOp =
    unsafe extern "C" fn(*mut c_void, u64, *const c_char, u8, u64, *const c_char, *const c_char) -> u64;

/// The runtime stand-in's `mock_acl_stream_work`, from `libascendcl.so` beside this library.
fn stream_work() -> Option<StreamWork> {
    // SAFETY: `u64 mock_acl_stream_work(void *stream, uint64_t ns)`.
    runtime_fn(c"mock_acl_stream_work").map(|f| unsafe { std::mem::transmute::<usize, StreamWork>(f) })
}

/// The runtime stand-in's `mock_acl_hccl_op`: a collective's task, reported as CANN reports one.
fn hccl_op() -> Option<HcclOp> {
    // SAFETY: `u64 mock_acl_hccl_op(void*, uint64_t, const char*, uint8_t, uint64_t, const char*,
    // const char*)`.
    runtime_fn(c"mock_acl_hccl_op").map(|f| unsafe { std::mem::transmute::<usize, HcclOp>(f) })
}

/// A function of `libascendcl.so` beside this library.
fn runtime_fn(name: &CStr) -> Option<usize> {
    static H: OnceLock<usize> = OnceLock::new();
    let h = *H.get_or_init(runtime_handle);
    if h == 0 {
        return None;
    }
    // SAFETY: a live handle and a NUL-terminated name.
    let f = unsafe { dlsym(h as *mut c_void, name.as_ptr()) } as usize;
    (f != 0).then_some(f)
}

fn runtime_handle() -> usize {
    let mut info = DlInfo {
        fname: std::ptr::null(),
        fbase: std::ptr::null_mut(),
        sname: std::ptr::null(),
        saddr: std::ptr::null_mut(),
    };
    // SAFETY: an address inside this library and a valid out-struct.
    if unsafe { dladdr(runtime_handle as *const c_void, &mut info) } == 0 || info.fname.is_null() {
        return 0;
    }
    // SAFETY: dladdr gives a NUL-terminated file name.
    let me = unsafe { CStr::from_ptr(info.fname) }.to_string_lossy().into_owned();
    let dir = std::path::Path::new(&me).parent().map(|d| d.to_path_buf()).unwrap_or_default();
    let Ok(path) = CString::new(dir.join("libascendcl.so").to_string_lossy().into_owned()) else {
        return 0;
    };
    // SAFETY: the runtime stand-in of this directory.
    unsafe { dlopen(path.as_ptr(), 1) as usize }
}

/// The collective's work on the device: `bytes` moved on `stream` (no reports: a barrier).
fn run_on(stream: *mut c_void, bytes: u64) {
    if let Some(work) = stream_work() {
        // SAFETY: the runtime stand-in's function with the caller's stream.
        unsafe { work(stream, BASE_NS + bytes / BYTES_PER_NS) };
    }
}

/// The algorithm every collective of the stand-in reports (its own name for a one-rank copy).
pub const ALGORITHM: &CStr = c"RING";

/// The collective `op`'s work on the device, `count` elements of `data_type` moved on `stream`,
/// reported to the profiling library as CANN reports a collective (`mock_acl_hccl_op`).
fn collective(op: &CStr, stream: *mut c_void, count: u64, data_type: i32) {
    let bytes = count * dtype_size(data_type) as u64;
    if let Some(f) = hccl_op() {
        let comm = COMM_NAME.as_ptr().cast::<c_char>();
        // SAFETY: the runtime stand-in's function with the caller's stream and live strings.
        unsafe {
            f(
                stream,
                BASE_NS + bytes / BYTES_PER_NS,
                op.as_ptr(),
                data_type as u8,
                count,
                ALGORITHM.as_ptr(),
                comm,
            )
        };
    }
}

type Comm = *mut c_void;
const HCCL_SUCCESS: i32 = 0;
const HCCL_E_PARA: i32 = 1;
/// `HCCL_ROOT_INFO_BYTES`.
const ROOT_INFO_BYTES: usize = 4108;
const COMM_NAME: &[u8] = b"mock_comm_0\0";

fn dtype_size(t: i32) -> usize {
    match t {
        0 | 7 | 14..=17 => 1,
        1 | 3 | 8 | 11 => 2,
        2 | 4 | 9 => 4,
        12 => 16,
        _ => 8,
    }
}

unsafe fn copy(
    op: &CStr,
    send: *const c_void,
    recv: *mut c_void,
    count: u64,
    t: i32,
    stream: *mut c_void,
) -> i32 {
    if send.is_null() || recv.is_null() {
        return HCCL_E_PARA;
    }
    collective(op, stream, count, t);
    if send != recv.cast_const() {
        // SAFETY: the caller's buffers of `count` elements.
        unsafe { std::ptr::copy(send.cast::<u8>(), recv.cast::<u8>(), count as usize * dtype_size(t)) };
    }
    HCCL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn HcclGetRootInfo(root: *mut u8) -> i32 {
    // SAFETY: the caller's `HcclRootInfo` of ROOT_INFO_BYTES.
    unsafe { std::ptr::write_bytes(root, 0, ROOT_INFO_BYTES) };
    HCCL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn HcclCommInitRootInfo(
    nranks: u32,
    _root: *const u8,
    rank: u32,
    comm: *mut Comm,
) -> i32 {
    if nranks != 1 || rank != 0 || comm.is_null() {
        return HCCL_E_PARA;
    }
    // SAFETY: the caller's out-pointer; a token allocation.
    unsafe { *comm = Box::into_raw(Box::new(0u8)).cast() };
    HCCL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn HcclCommDestroy(comm: Comm) -> i32 {
    if !comm.is_null() {
        // SAFETY: made by `HcclCommInitRootInfo`.
        drop(unsafe { Box::from_raw(comm.cast::<u8>()) });
    }
    HCCL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn HcclGetCommName(_comm: Comm, name: *mut c_char) -> i32 {
    // SAFETY: the caller's buffer of COMM_NAME_MAX_LENGTH (128) bytes.
    unsafe { std::ptr::copy_nonoverlapping(COMM_NAME.as_ptr().cast(), name, COMM_NAME.len()) };
    HCCL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn HcclGetRankSize(_comm: Comm, size: *mut u32) -> i32 {
    // SAFETY: the caller's out-pointer.
    unsafe { *size = 1 };
    HCCL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn HcclAllReduce(
    s: *mut c_void,
    r: *mut c_void,
    n: u64,
    t: i32,
    _op: i32,
    _c: Comm,
    st: *mut c_void,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy(c"HcclAllReduce", s, r, n, t, st) }
}

#[no_mangle]
pub extern "C" fn HcclBroadcast(
    _b: *mut c_void,
    n: u64,
    t: i32,
    _root: u32,
    _c: Comm,
    st: *mut c_void,
) -> i32 {
    collective(c"HcclBroadcast", st, n, t);
    HCCL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn HcclAllGather(
    s: *mut c_void,
    r: *mut c_void,
    n: u64,
    t: i32,
    _c: Comm,
    st: *mut c_void,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy(c"HcclAllGather", s, r, n, t, st) }
}

#[no_mangle]
pub unsafe extern "C" fn HcclReduceScatter(
    s: *mut c_void,
    r: *mut c_void,
    n: u64,
    t: i32,
    _op: i32,
    _c: Comm,
    st: *mut c_void,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy(c"HcclReduceScatter", s, r, n, t, st) }
}

#[no_mangle]
pub unsafe extern "C" fn HcclReduce(
    s: *mut c_void,
    r: *mut c_void,
    n: u64,
    t: i32,
    _op: i32,
    _root: u32,
    _c: Comm,
    st: *mut c_void,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy(c"HcclReduce", s, r, n, t, st) }
}

#[no_mangle]
pub unsafe extern "C" fn HcclAlltoAll(
    s: *const c_void,
    n: u64,
    t: i32,
    r: *mut c_void,
    _rn: u64,
    _rt: i32,
    _c: Comm,
    st: *mut c_void,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy(c"HcclAlltoAll", s, r, n, t, st) }
}

#[no_mangle]
pub extern "C" fn HcclAlltoAllV(
    _s: *const c_void,
    _sc: *const c_void,
    _sd: *const c_void,
    _st: i32,
    _r: *const c_void,
    _rc: *const c_void,
    _rd: *const c_void,
    _rt: i32,
    _c: Comm,
    _stream: *mut c_void,
) -> i32 {
    HCCL_SUCCESS
}

#[no_mangle]
pub extern "C" fn HcclBarrier(_c: Comm, st: *mut c_void) -> i32 {
    run_on(st, 0);
    HCCL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn HcclScatter(
    s: *mut c_void,
    r: *mut c_void,
    n: u64,
    t: i32,
    _root: u32,
    _c: Comm,
    st: *mut c_void,
) -> i32 {
    // SAFETY: forwarded to the caller.
    unsafe { copy(c"HcclScatter", s, r, n, t, st) }
}

#[no_mangle]
pub extern "C" fn HcclSend(_b: *mut c_void, _n: u64, _t: i32, _peer: u32, _c: Comm, _st: *mut c_void) -> i32 {
    HCCL_SUCCESS
}

#[no_mangle]
pub extern "C" fn HcclRecv(_b: *mut c_void, _n: u64, _t: i32, _peer: u32, _c: Comm, _st: *mut c_void) -> i32 {
    HCCL_SUCCESS
}

#[no_mangle]
pub extern "C" fn HcclBatchSendRecv(_items: *mut c_void, _n: u32, _c: Comm, _st: *mut c_void) -> i32 {
    HCCL_SUCCESS
}
