//! The interposed `aclrt*` and `Hccl*` functions: MSPTI exports the runtime's and HCCL's names,
//! and each wrapper finds the real function in `libascendcl.so` / `libhccl.so` (opened as every
//! CANN library is, see `cann.rs`; a missing one is an uncaught exception, so the process aborts),
//! advances the thread's correlation id for launch and memory calls, fires ENTER, calls through,
//! writes its MEMORY / MEMSET / MEMCPY record, and fires EXIT (each site checked on its own, so a
//! call can have an ENTER without EXIT or the reverse when ids are switched meanwhile).
//!
//! A program reaches these only through the global symbol scope (a normal call or
//! `dlsym(RTLD_DEFAULT, ...)`) and only when this library comes first in it, i.e. when it was
//! preloaded: a function looked up in a handle of `libascendcl.so` is the runtime's own, which
//! MSPTI never sees.

use std::ffi::{c_void, CStr};
use std::sync::OnceLock;

use crate::callbacks::{fire, DOMAIN_HCCL, DOMAIN_RUNTIME, SITE_ENTER, SITE_EXIT};
use crate::records::{self, kind};
use crate::{activity, correlation, now_ns, thread_id};

struct Lib {
    name: &'static str,
    handle: OnceLock<usize>,
}

static ACL: Lib = Lib { name: "libascendcl.so", handle: OnceLock::new() };
static HCCL: Lib = Lib { name: "libhccl.so", handle: OnceLock::new() };

/// The real `name` of `lib`, as `THROW_FUNC_NOTFOUND` wants it.
fn real(lib: &Lib, name: &str) -> *mut c_void {
    let h = *lib.handle.get_or_init(|| crate::cann::open_dependency(lib.name) as usize) as *mut c_void;
    let f = crate::cann::symbol(h, name);
    if f.is_null() {
        crate::abort_like_the_real_library(&format!(
            "Failed to get function: \"{name}\" from \"{}\"",
            lib.name
        ));
    }
    f
}

/// Looks up the real function once per wrapper.
macro_rules! real_fn {
    ($lib:expr, $name:expr, $ty:ty) => {{
        static F: OnceLock<usize> = OnceLock::new();
        let f = *F.get_or_init(|| real(&$lib, $name) as usize);
        // SAFETY: the runtime's (or HCCL's) function of that name, declared with its C signature.
        unsafe { std::mem::transmute::<usize, $ty>(f) }
    }};
}

/// `CallbackScope` around `call`, with the correlation id advanced first when `advance`.
fn scope<R>(domain: u32, cbid: u32, name: &CStr, advance: bool, call: impl FnOnce() -> R) -> R {
    if advance {
        correlation::advance(thread_id());
    }
    fire(domain, cbid, SITE_ENTER, name.as_ptr());
    let r = call();
    fire(domain, cbid, SITE_EXIT, name.as_ptr());
    r
}

/// The device of this thread, from the runtime (`MSPTI_INVALID_DEVICE_ID` when none).
fn device_id() -> u32 {
    let f = real_fn!(ACL, "aclrtGetDevice", unsafe extern "C" fn(*mut i32) -> i32);
    let mut d = 0;
    // SAFETY: a valid out-pointer.
    if unsafe { f(&mut d) } == 0 {
        d as u32
    } else {
        u32::MAX
    }
}

fn stream_id(stream: *mut c_void) -> u32 {
    if stream.is_null() {
        return u32::MAX;
    }
    let f = real_fn!(ACL, "aclrtStreamGetId", unsafe extern "C" fn(*mut c_void, *mut i32) -> i32);
    let mut id = 0;
    // SAFETY: the caller's stream and a valid out-pointer.
    if unsafe { f(stream, &mut id) } == 0 {
        id as u32
    } else {
        u32::MAX
    }
}

/// Allocation sizes by address, so that a release record carries the size allocated.
static SIZES: std::sync::Mutex<Option<std::collections::HashMap<u64, u64>>> = std::sync::Mutex::new(None);

/// The MEMORY record of an allocation (op 0) or release (op 1) of device memory.
fn memory_record(op: u32, address: u64, size: u64, start: u64) {
    let mut sizes = SIZES.lock().unwrap_or_else(|e| e.into_inner());
    let map = sizes.get_or_insert_with(Default::default);
    let bytes = if op == 0 {
        map.insert(address, size);
        size
    } else {
        map.remove(&address).unwrap_or(size)
    };
    drop(sizes);
    if !activity::is_enabled(kind::MEMORY) {
        return;
    }
    let corr = correlation::current(thread_id());
    let r = records::memory(
        op,
        1,
        corr,
        start,
        now_ns(),
        address,
        bytes,
        std::process::id(),
        device_id(),
        u32::MAX,
    );
    activity::record(r.bytes(), false);
}

fn memset_record(value: u32, bytes: u64, start: u64, stream: *mut c_void, is_async: u8) {
    if !activity::is_enabled(kind::MEMSET) {
        return;
    }
    let corr = correlation::current(thread_id());
    let (device, stream) = (device_id(), stream_id(stream));
    let r = records::memset_or_memcpy(
        kind::MEMSET,
        value,
        bytes,
        start,
        now_ns(),
        device,
        stream,
        corr,
        is_async,
    );
    activity::record(r.bytes(), false);
}

fn memcpy_record(acl_kind: i32, bytes: u64, start: u64, stream: *mut c_void, is_async: u8) {
    if !activity::is_enabled(kind::MEMCPY) {
        return;
    }
    // aclrtMemcpyKind 0..=4 (HOST_TO_HOST .. DEFAULT) -> msptiActivityMemcpyKind 1..=5.
    let copy_kind = if (0..=4).contains(&acl_kind) { acl_kind as u32 + 1 } else { 0 };
    let corr = correlation::current(thread_id());
    let (device, stream) = (device_id(), stream_id(stream));
    let r = records::memset_or_memcpy(
        kind::MEMCPY,
        copy_kind,
        bytes,
        start,
        now_ns(),
        device,
        stream,
        corr,
        is_async,
    );
    activity::record(r.bytes(), false);
}

/// Wrappers that only fire callbacks (and advance the id when `$advance`).
macro_rules! plain {
    ($($lib:ident $name:ident($($arg:ident: $ty:ty),*) = $domain:expr, $cbid:expr, $advance:expr;)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> i32 {
            let f = real_fn!($lib, stringify!($name), unsafe extern "C" fn($($ty),*) -> i32);
            let name = CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()).expect("no NUL");
            // SAFETY: forwarded to the caller.
            scope($domain, $cbid, name, $advance, || unsafe { f($($arg),*) })
        }
    )*};
}

type P = *mut c_void;
type Pp = *mut *mut c_void;

plain! {
    ACL aclrtSetDevice(dev: i32) = DOMAIN_RUNTIME, 1, false;
    ACL aclrtResetDevice(dev: i32) = DOMAIN_RUNTIME, 2, false;
    ACL aclrtCreateContext(ctx: Pp, dev: i32) = DOMAIN_RUNTIME, 5, false;
    ACL aclrtDestroyContext(ctx: P) = DOMAIN_RUNTIME, 6, false;
    ACL aclrtCreateStream(stream: Pp) = DOMAIN_RUNTIME, 7, false;
    ACL aclrtDestroyStream(stream: P) = DOMAIN_RUNTIME, 8, false;
    ACL aclrtSynchronizeStream(stream: P) = DOMAIN_RUNTIME, 9, false;
    ACL aclrtLaunchKernel(func: P, block_dim: u32, args: *const c_void, args_size: usize, stream: P) = DOMAIN_RUNTIME, 10, true;
    ACL aclrtMallocHost(p: Pp, size: usize) = DOMAIN_RUNTIME, 17, true;
    ACL aclrtFreeHost(p: P) = DOMAIN_RUNTIME, 18, true;
    ACL aclrtMemFlush(p: P, size: usize) = DOMAIN_RUNTIME, 20, true;
    ACL aclrtMemInvalidate(p: P, size: usize) = DOMAIN_RUNTIME, 21, true;
    ACL aclrtGetMemInfo(attr: i32, free: *mut usize, total: *mut usize) = DOMAIN_RUNTIME, 29, true;
    ACL aclrtMallocPhysical(handle: Pp, size: usize, prop: *const c_void, flags: u64) = DOMAIN_RUNTIME, 32, true;
    ACL aclrtFreePhysical(handle: P) = DOMAIN_RUNTIME, 33, true;
    ACL aclrtMemExportToShareableHandle(handle: P, ty: i32, flags: u64, out: *mut u64) = DOMAIN_RUNTIME, 34, true;
    ACL aclrtMemImportFromShareableHandle(shareable: u64, dev: i32, handle: Pp) = DOMAIN_RUNTIME, 35, true;
    ACL aclrtMemSetPidToShareableHandle(shareable: u64, pids: *mut i32, n: usize) = DOMAIN_RUNTIME, 36, true;
    HCCL HcclBarrier(c: P, st: P) = DOMAIN_HCCL, 8, false;
}

/// `Mspti::Common::ProfTrace`: a mark's device side, `aclrtProfTrace(TraceData { id, flag,
/// MARK_TAG_ID }, 18, stream)` through the runtime; `false` when the runtime refuses it.
pub fn prof_trace(id: u64, flag: u32, stream: *mut c_void) -> bool {
    let f = real_fn!(ACL, "aclrtProfTrace", unsafe extern "C" fn(*mut c_void, i32, *mut c_void) -> i32);
    let mut data = [0u8; crate::protocol::TRACE_DATA_SIZE];
    data[0..8].copy_from_slice(&id.to_ne_bytes());
    data[8..16].copy_from_slice(&u64::from(flag).to_ne_bytes());
    data[16..18].copy_from_slice(&crate::protocol::STEP_TRACE_TAG_MARKEX.to_ne_bytes());
    // SAFETY: 18 bytes of trace data and the caller's stream.
    unsafe { f(data.as_mut_ptr().cast(), data.len() as i32, stream) == 0 }
}

/// `aclrtProfTrace` is exported (and forwarded) too, without a callback.
#[no_mangle]
pub unsafe extern "C" fn aclrtProfTrace(data: *mut c_void, len: i32, stream: *mut c_void) -> i32 {
    let f = real_fn!(ACL, "aclrtProfTrace", unsafe extern "C" fn(*mut c_void, i32, *mut c_void) -> i32);
    // SAFETY: forwarded to the caller.
    unsafe { f(data, len, stream) }
}

/// HCCL's `HcclGetCommName` (`name`: 128 bytes).
pub fn comm_name(comm: *mut c_void, name: *mut std::ffi::c_char) {
    let f =
        real_fn!(HCCL, "HcclGetCommName", unsafe extern "C" fn(*mut c_void, *mut std::ffi::c_char) -> i32);
    // SAFETY: the caller's communicator and buffer.
    unsafe { f(comm, name) };
}

/// HCCL's `HcclGetRankSize` (0 when it fails).
fn rank_size(comm: *mut c_void) -> u64 {
    let f = real_fn!(HCCL, "HcclGetRankSize", unsafe extern "C" fn(*mut c_void, *mut u32) -> i32);
    let mut n = 0u32;
    // SAFETY: the caller's communicator and a valid out-pointer.
    unsafe { f(comm, &mut n) };
    u64::from(n)
}

/// Bytes of `count` elements of `t` (0 for a type MSPTI does not size).
fn bytes(count: u64, t: i32) -> u64 {
    crate::hccl::dtype_size(t).map_or(0, |s| s * count)
}

/// Wrappers of HCCL operations: the operation's marks around the callbacks and the call
/// (`$bytes` computes its data size from the arguments; `$comm`, `$stream` name them).
macro_rules! hccl_op {
    ($($name:ident($($arg:ident: $ty:ty),*) = $cbid:expr, $bytes:expr, $comm:ident, $stream:ident;)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> i32 {
            let f = real_fn!(HCCL, stringify!($name), unsafe extern "C" fn($($ty),*) -> i32);
            let name = CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()).expect("no NUL");
            let data: u64 = $bytes;
            let mark = crate::hccl::begin(name, data, $comm, $stream);
            // SAFETY: forwarded to the caller.
            let r = scope(DOMAIN_HCCL, $cbid, name, false, || unsafe { f($($arg),*) });
            crate::hccl::end(mark);
            r
        }
    )*};
}

hccl_op! {
    HcclAllReduce(s: P, r: P, n: u64, t: i32, op: i32, c: P, st: P) = 1, bytes(n, t), c, st;
    HcclBroadcast(b: P, n: u64, t: i32, root: u32, c: P, st: P) = 2, bytes(n, t), c, st;
    HcclAllGather(s: P, r: P, n: u64, t: i32, c: P, st: P) = 3, bytes(n, t) * rank_size(c), c, st;
    HcclReduceScatter(s: P, r: P, n: u64, t: i32, op: i32, c: P, st: P) = 4, bytes(n, t) * rank_size(c), c, st;
    HcclReduce(s: P, r: P, n: u64, t: i32, op: i32, root: u32, c: P, st: P) = 5, bytes(n, t), c, st;
    HcclAlltoAll(s: P, sn: u64, t: i32, r: P, rn: u64, rt: i32, c: P, st: P) = 6, bytes(sn, t) * rank_size(c), c, st;
    HcclAlltoAllV(s: P, sc: P, sd: P, t: i32, r: P, rc: P, rd: P, rt: i32, c: P, st: P) = 7, 0, c, st;
    HcclScatter(s: P, r: P, n: u64, t: i32, root: u32, c: P, st: P) = 9, 0, c, st;
    HcclSend(b: P, n: u64, t: i32, peer: u32, c: P, st: P) = 10, bytes(n, t), c, st;
    HcclRecv(b: P, n: u64, t: i32, peer: u32, c: P, st: P) = 11, bytes(n, t), c, st;
    HcclBatchSendRecv(items: P, n: u32, c: P, st: P) = 12, 0, c, st;
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMalloc(p: Pp, size: usize, policy: i32) -> i32 {
    let f = real_fn!(ACL, "aclrtMalloc", unsafe extern "C" fn(Pp, usize, i32) -> i32);
    scope(DOMAIN_RUNTIME, 15, c"aclrtMalloc", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(p, size, policy) };
        // SAFETY: the caller's out-pointer, written by the runtime (or NULL).
        let address = unsafe { p.as_ref() }.map_or(0, |a| *a as u64);
        memory_record(0, address, size as u64, start);
        r
    })
}

/// `aclrtMallocCached` reports `MSPTI_CBID_RUNTIME_MALLOC` (15), as the real wrapper does: the
/// id `MALLOC_CACHED` (19) is never reported.
#[no_mangle]
pub unsafe extern "C" fn aclrtMallocCached(p: Pp, size: usize, policy: i32) -> i32 {
    let f = real_fn!(ACL, "aclrtMallocCached", unsafe extern "C" fn(Pp, usize, i32) -> i32);
    scope(DOMAIN_RUNTIME, 15, c"aclrtMallocCached", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(p, size, policy) };
        // SAFETY: the caller's out-pointer, written by the runtime (or NULL).
        let address = unsafe { p.as_ref() }.map_or(0, |a| *a as u64);
        memory_record(0, address, size as u64, start);
        r
    })
}

/// A reserved address range is a MEMORY allocation record.
#[no_mangle]
pub unsafe extern "C" fn aclrtReserveMemAddress(
    p: Pp,
    size: usize,
    align: usize,
    expect: P,
    flags: u64,
) -> i32 {
    let f = real_fn!(ACL, "aclrtReserveMemAddress", unsafe extern "C" fn(Pp, usize, usize, P, u64) -> i32);
    scope(DOMAIN_RUNTIME, 30, c"aclrtReserveMemAddress", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(p, size, align, expect, flags) };
        // SAFETY: the caller's out-pointer, written by the runtime (or NULL).
        let address = unsafe { p.as_ref() }.map_or(0, |a| *a as u64);
        memory_record(0, address, size as u64, start);
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn aclrtReleaseMemAddress(p: P) -> i32 {
    let f = real_fn!(ACL, "aclrtReleaseMemAddress", unsafe extern "C" fn(P) -> i32);
    scope(DOMAIN_RUNTIME, 31, c"aclrtReleaseMemAddress", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(p) };
        memory_record(1, p as u64, 0, start);
        r
    })
}

/// A 2-D copy's MEMCPY record counts `width * height` bytes.
#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpy2d(
    dst: P,
    dp: usize,
    src: *const c_void,
    sp: usize,
    w: usize,
    h: usize,
    k: i32,
) -> i32 {
    let f = real_fn!(
        ACL,
        "aclrtMemcpy2d",
        unsafe extern "C" fn(P, usize, *const c_void, usize, usize, usize, i32) -> i32
    );
    scope(DOMAIN_RUNTIME, 25, c"aclrtMemcpy2d", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(dst, dp, src, sp, w, h, k) };
        memcpy_record(k, (w * h) as u64, start, std::ptr::null_mut(), 0);
        r
    })
}

#[allow(clippy::too_many_arguments)] // the C signature
#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpy2dAsync(
    dst: P,
    dp: usize,
    src: *const c_void,
    sp: usize,
    w: usize,
    h: usize,
    k: i32,
    s: P,
) -> i32 {
    let f = real_fn!(
        ACL,
        "aclrtMemcpy2dAsync",
        unsafe extern "C" fn(P, usize, *const c_void, usize, usize, usize, i32, P) -> i32
    );
    scope(DOMAIN_RUNTIME, 26, c"aclrtMemcpy2dAsync", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(dst, dp, src, sp, w, h, k, s) };
        memcpy_record(k, (w * h) as u64, start, s, 1);
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn aclrtFree(p: P) -> i32 {
    let f = real_fn!(ACL, "aclrtFree", unsafe extern "C" fn(P) -> i32);
    scope(DOMAIN_RUNTIME, 16, c"aclrtFree", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(p) };
        memory_record(1, p as u64, 0, start);
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpy(dst: P, max: usize, src: *const c_void, n: usize, k: i32) -> i32 {
    let f = real_fn!(ACL, "aclrtMemcpy", unsafe extern "C" fn(P, usize, *const c_void, usize, i32) -> i32);
    scope(DOMAIN_RUNTIME, 22, c"aclrtMemcpy", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(dst, max, src, n, k) };
        memcpy_record(k, n as u64, start, std::ptr::null_mut(), 0);
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpyAsync(
    dst: P,
    max: usize,
    src: *const c_void,
    n: usize,
    k: i32,
    s: P,
) -> i32 {
    let f = real_fn!(
        ACL,
        "aclrtMemcpyAsync",
        unsafe extern "C" fn(P, usize, *const c_void, usize, i32, P) -> i32
    );
    scope(DOMAIN_RUNTIME, 24, c"aclrtMemcpyAsync", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(dst, max, src, n, k, s) };
        memcpy_record(k, n as u64, start, s, 1);
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemset(p: P, max: usize, value: i32, n: usize) -> i32 {
    let f = real_fn!(ACL, "aclrtMemset", unsafe extern "C" fn(P, usize, i32, usize) -> i32);
    scope(DOMAIN_RUNTIME, 27, c"aclrtMemset", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(p, max, value, n) };
        memset_record(value as u32, n as u64, start, std::ptr::null_mut(), 0);
        r
    })
}

#[no_mangle]
pub unsafe extern "C" fn aclrtMemsetAsync(p: P, max: usize, value: i32, n: usize, s: P) -> i32 {
    let f = real_fn!(ACL, "aclrtMemsetAsync", unsafe extern "C" fn(P, usize, i32, usize, P) -> i32);
    scope(DOMAIN_RUNTIME, 28, c"aclrtMemsetAsync", true, || {
        let start = now_ns();
        // SAFETY: forwarded to the caller.
        let r = unsafe { f(p, max, value, n, s) };
        memset_record(value as u32, n as u64, start, s, 1);
        r
    })
}
