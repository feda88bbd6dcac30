//! An ACL program's runtime, HCCL and MSTX calls, made the way a real program makes them: the
//! libraries are loaded into the global symbol scope (`RTLD_GLOBAL`, as a program linked against
//! them has them) and every function is looked up with `dlsym(RTLD_DEFAULT, ...)`, so a call
//! reaches what a normal call reaches: MSPTI's interposed wrapper when `libmspti.so` was
//! preloaded, the runtime's own function otherwise.
//!
//! The same code drives the real CANN on an Ascend machine and the CANN stand-ins built with this
//! crate ([`crate::mspti::ASCEND_HOME`]): each library is loaded from `$ASCEND_HOME_PATH/lib64`
//! when it is there, else by name through the system loader.
//!
//! [`Acl::bypass_malloc`] is the mistake this module exists to avoid: `aclrtMalloc` looked up in a
//! handle of `libascendcl.so` is the runtime's own function, which MSPTI never sees.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::PathBuf;

type Ptr = *mut c_void;

/// `aclrtMemcpyKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum MemcpyKind {
    /// `ACL_MEMCPY_HOST_TO_HOST`.
    HostToHost = 0,
    /// `ACL_MEMCPY_HOST_TO_DEVICE`.
    HostToDevice = 1,
    /// `ACL_MEMCPY_DEVICE_TO_HOST`.
    DeviceToHost = 2,
    /// `ACL_MEMCPY_DEVICE_TO_DEVICE`.
    DeviceToDevice = 3,
}

/// An opaque runtime handle (`aclrtStream`, a device pointer, `aclrtFuncHandle`, `HcclComm`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handle(pub usize);

impl Handle {
    fn ptr(self) -> Ptr {
        self.0 as Ptr
    }
}

/// A failed call: the function and its `aclError` / `HcclResult`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallError {
    /// The C function.
    pub function: &'static str,
    /// What it returned.
    pub code: i32,
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} returned {}", self.function, self.code)
    }
}

impl std::error::Error for CallError {}

fn ok(function: &'static str, code: c_int) -> Result<(), CallError> {
    if code == 0 {
        Ok(())
    } else {
        Err(CallError { function, code })
    }
}

/// Loads `file` into the global scope: `$ASCEND_HOME_PATH/lib64/<file>` when it exists, else
/// `file` through the system loader. Returns where it came from.
fn load_global(file: &str) -> crate::Result<PathBuf> {
    use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW};
    let home = std::env::var_os("ASCEND_HOME_PATH").filter(|h| !h.is_empty());
    let path = home.map(|h| PathBuf::from(h).join("lib64").join(file)).filter(|p| p.is_file());
    let path = path.unwrap_or_else(|| PathBuf::from(file));
    // SAFETY: CANN's own libraries, loaded as a program linked against them loads them.
    let lib = unsafe { Library::open(Some(&path), RTLD_NOW | RTLD_GLOBAL) }
        .map_err(|e| crate::Error::Open { path: path.clone(), message: e.to_string() })?;
    std::mem::forget(lib);
    Ok(path)
}

/// A looked-up function address as the function pointer type `F`.
///
/// # Safety
/// `F` is a function pointer type with the C signature of the function at `p`.
unsafe fn cast<F: Copy>(p: Ptr) -> F {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<Ptr>(), "a function pointer type");
    // SAFETY: same size; the caller vouches for the signature.
    unsafe { std::mem::transmute_copy(&p) }
}

/// Whether `dlsym(RTLD_DEFAULT, name)` finds a definition: what a normal call to `name` reaches
/// (for `msptiSubscribe`: whether `libmspti.so` was preloaded or loaded globally).
pub fn in_global_scope(name: &CStr) -> bool {
    global(name).is_some()
}

/// `dlsym(RTLD_DEFAULT, name)`.
fn global(name: &CStr) -> Option<Ptr> {
    let this = libloading::os::unix::Library::this();
    // SAFETY: only the address is looked up here.
    let s = unsafe { this.get::<Ptr>(name.to_bytes_with_nul()) }.ok()?;
    (!s.is_null()).then_some(*s)
}

macro_rules! functions {
    ($( $field:ident = $name:literal : fn($($ty:ty),*) -> $ret:ty; )*) => {
        #[allow(non_snake_case)]
        struct Functions {
            $( $field: unsafe extern "C" fn($($ty),*) -> $ret, )*
        }

        impl Functions {
            fn resolve() -> crate::Result<Functions> {
                Ok(Functions {
                    $( $field: {
                        let p = global(CStr::from_bytes_with_nul(concat!($name, "\0").as_bytes()).expect("no NUL"))
                            .ok_or(crate::Error::NotInGlobalScope { symbol: $name })?;
                        // SAFETY: the ACL function of that name, declared with its C signature.
                        unsafe { std::mem::transmute::<Ptr, unsafe extern "C" fn($($ty),*) -> $ret>(p) }
                    }, )*
                })
            }
        }
    };
}

functions! {
    init = "aclInit": fn(*const c_char) -> c_int;
    finalize = "aclFinalize": fn() -> c_int;
    set_device = "aclrtSetDevice": fn(i32) -> c_int;
    reset_device = "aclrtResetDevice": fn(i32) -> c_int;
    create_stream = "aclrtCreateStream": fn(*mut Ptr) -> c_int;
    destroy_stream = "aclrtDestroyStream": fn(Ptr) -> c_int;
    synchronize_stream = "aclrtSynchronizeStream": fn(Ptr) -> c_int;
    malloc = "aclrtMalloc": fn(*mut Ptr, usize, c_int) -> c_int;
    free = "aclrtFree": fn(Ptr) -> c_int;
    malloc_host = "aclrtMallocHost": fn(*mut Ptr, usize) -> c_int;
    free_host = "aclrtFreeHost": fn(Ptr) -> c_int;
    memcpy = "aclrtMemcpy": fn(Ptr, usize, *const c_void, usize, c_int) -> c_int;
    memset = "aclrtMemset": fn(Ptr, usize, i32, usize) -> c_int;
    binary_load_from_file = "aclrtBinaryLoadFromFile": fn(*const c_char, Ptr, *mut Ptr) -> c_int;
    binary_get_function = "aclrtBinaryGetFunction": fn(Ptr, *const c_char, *mut Ptr) -> c_int;
    launch_kernel = "aclrtLaunchKernel": fn(Ptr, u32, *const c_void, usize, Ptr) -> c_int;
}

type MarkA = unsafe extern "C" fn(*const c_char, Ptr);
type HcclCollective = unsafe extern "C" fn(Ptr, Ptr, u64, i32, i32, Ptr, Ptr) -> c_int;

/// HCCL's functions, when `libhccl.so` loaded.
struct Hccl {
    get_root_info: unsafe extern "C" fn(*mut u8) -> c_int,
    comm_init_root_info: unsafe extern "C" fn(u32, *const u8, u32, *mut Ptr) -> c_int,
    comm_destroy: unsafe extern "C" fn(Ptr) -> c_int,
    all_reduce: HcclCollective,
    broadcast: unsafe extern "C" fn(Ptr, u64, i32, u32, Ptr, Ptr) -> c_int,
    all_gather: unsafe extern "C" fn(Ptr, Ptr, u64, i32, Ptr, Ptr) -> c_int,
    reduce: unsafe extern "C" fn(Ptr, Ptr, u64, i32, i32, u32, Ptr, Ptr) -> c_int,
    barrier: unsafe extern "C" fn(Ptr, Ptr) -> c_int,
}

/// The ACL runtime (and, when installed, MSTX and HCCL) through the global symbol scope.
pub struct Acl {
    f: Functions,
    mark: Option<MarkA>,
    hccl: Option<Hccl>,
    /// Where `libascendcl.so` was loaded from.
    pub runtime: PathBuf,
}

impl std::fmt::Debug for Acl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Acl").field("runtime", &self.runtime).finish_non_exhaustive()
    }
}

/// `HCCL_DATA_TYPE_FP32`.
const HCCL_FP32: i32 = 4;
/// `HCCL_REDUCE_SUM`.
const HCCL_SUM: i32 = 0;
/// `HCCL_ROOT_INFO_BYTES`.
const ROOT_INFO_BYTES: usize = 4108;

impl Acl {
    /// Loads `libascendcl.so`, and `libms_tools_ext.so` and `libhccl.so` when they are there, into
    /// the global scope and resolves the functions used here. `Err` says what is missing.
    pub fn load() -> crate::Result<Acl> {
        let runtime = load_global("libascendcl.so")?;
        let f = Functions::resolve()?;
        let mark = load_global("libms_tools_ext.so").ok().and_then(|_| {
            // SAFETY: `void mstxMarkA(const char*, aclrtStream)`.
            global(c"mstxMarkA").map(|p| unsafe { std::mem::transmute::<Ptr, MarkA>(p) })
        });
        let hccl = load_global("libhccl.so").ok().and_then(|_| {
            let g = |n: &CStr| global(n);
            // SAFETY: HCCL's functions of those names, declared with their C signatures.
            unsafe {
                Some(Hccl {
                    get_root_info: cast(g(c"HcclGetRootInfo")?),
                    comm_init_root_info: cast(g(c"HcclCommInitRootInfo")?),
                    comm_destroy: cast(g(c"HcclCommDestroy")?),
                    all_reduce: cast(g(c"HcclAllReduce")?),
                    broadcast: cast(g(c"HcclBroadcast")?),
                    all_gather: cast(g(c"HcclAllGather")?),
                    reduce: cast(g(c"HcclReduce")?),
                    barrier: cast(g(c"HcclBarrier")?),
                })
            }
        });
        Ok(Acl { f, mark, hccl, runtime })
    }

    /// `aclInit(NULL)`.
    pub fn init(&self) -> Result<(), CallError> {
        // SAFETY: NULL is the documented "no configuration".
        ok("aclInit", unsafe { (self.f.init)(std::ptr::null()) })
    }

    /// `aclFinalize()`.
    pub fn finalize(&self) -> Result<(), CallError> {
        // SAFETY: no arguments.
        ok("aclFinalize", unsafe { (self.f.finalize)() })
    }

    /// `aclrtSetDevice(device)`.
    pub fn set_device(&self, device: i32) -> Result<(), CallError> {
        // SAFETY: a plain value.
        ok("aclrtSetDevice", unsafe { (self.f.set_device)(device) })
    }

    /// `aclrtResetDevice(device)`.
    pub fn reset_device(&self, device: i32) -> Result<(), CallError> {
        // SAFETY: a plain value.
        ok("aclrtResetDevice", unsafe { (self.f.reset_device)(device) })
    }

    /// `aclrtCreateStream`.
    pub fn create_stream(&self) -> Result<Handle, CallError> {
        let mut s = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        ok("aclrtCreateStream", unsafe { (self.f.create_stream)(&mut s) })?;
        Ok(Handle(s as usize))
    }

    /// `aclrtDestroyStream`.
    pub fn destroy_stream(&self, stream: Handle) -> Result<(), CallError> {
        // SAFETY: a stream of `create_stream` (the caller's promise, as in C).
        ok("aclrtDestroyStream", unsafe { (self.f.destroy_stream)(stream.ptr()) })
    }

    /// `aclrtSynchronizeStream`: waits for the stream's work.
    pub fn synchronize_stream(&self, stream: Handle) -> Result<(), CallError> {
        // SAFETY: a stream of `create_stream`.
        ok("aclrtSynchronizeStream", unsafe { (self.f.synchronize_stream)(stream.ptr()) })
    }

    /// `aclrtMalloc(size)` (policy `ACL_MEM_MALLOC_HUGE_FIRST`).
    pub fn malloc(&self, size: usize) -> Result<Handle, CallError> {
        let mut p = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        ok("aclrtMalloc", unsafe { (self.f.malloc)(&mut p, size, 0) })?;
        Ok(Handle(p as usize))
    }

    /// `aclrtFree`.
    pub fn free(&self, p: Handle) -> Result<(), CallError> {
        // SAFETY: memory of `malloc`.
        ok("aclrtFree", unsafe { (self.f.free)(p.ptr()) })
    }

    /// `aclrtMallocHost(size)`.
    pub fn malloc_host(&self, size: usize) -> Result<Handle, CallError> {
        let mut p = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        ok("aclrtMallocHost", unsafe { (self.f.malloc_host)(&mut p, size) })?;
        Ok(Handle(p as usize))
    }

    /// `aclrtFreeHost`.
    pub fn free_host(&self, p: Handle) -> Result<(), CallError> {
        // SAFETY: memory of `malloc_host`.
        ok("aclrtFreeHost", unsafe { (self.f.free_host)(p.ptr()) })
    }

    /// `aclrtMemcpy(dst, n, src, n, kind)` between two allocations of at least `n` bytes.
    pub fn memcpy(&self, dst: Handle, src: Handle, n: usize, kind: MemcpyKind) -> Result<(), CallError> {
        // SAFETY: allocations of `malloc`/`malloc_host` of at least `n` bytes (the caller's promise).
        ok("aclrtMemcpy", unsafe { (self.f.memcpy)(dst.ptr(), n, src.ptr(), n, kind as c_int) })
    }

    /// `aclrtMemset(p, n, value, n)` on an allocation of at least `n` bytes.
    pub fn memset(&self, p: Handle, value: i32, n: usize) -> Result<(), CallError> {
        // SAFETY: an allocation of at least `n` bytes (the caller's promise).
        ok("aclrtMemset", unsafe { (self.f.memset)(p.ptr(), n, value, n) })
    }

    /// `aclrtBinaryLoadFromFile(path)` + `aclrtBinaryGetFunction(name)`: a launchable kernel.
    pub fn kernel(&self, binary: &str, name: &str) -> Result<Handle, CallError> {
        let (path, name) = (CString::new(binary).expect("no NUL"), CString::new(name).expect("no NUL"));
        let (mut bin, mut func) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: NUL-terminated strings, NULL options (defaults), valid out-pointers.
        unsafe {
            ok(
                "aclrtBinaryLoadFromFile",
                (self.f.binary_load_from_file)(path.as_ptr(), std::ptr::null_mut(), &mut bin),
            )?;
            ok("aclrtBinaryGetFunction", (self.f.binary_get_function)(bin, name.as_ptr(), &mut func))?;
        }
        Ok(Handle(func as usize))
    }

    /// `aclrtLaunchKernel(kernel, block_dim, NULL, 0, stream)`: a kernel without arguments.
    pub fn launch(&self, kernel: Handle, block_dim: u32, stream: Handle) -> Result<(), CallError> {
        // SAFETY: handles of `kernel` and `create_stream`; no argument block.
        ok("aclrtLaunchKernel", unsafe {
            (self.f.launch_kernel)(kernel.ptr(), block_dim, std::ptr::null(), 0, stream.ptr())
        })
    }

    /// `mstxMarkA(message, NULL)`: a host mark; `false` when `libms_tools_ext.so` is not installed.
    pub fn mark(&self, message: &str) -> bool {
        let Some(mark) = self.mark else { return false };
        let m = CString::new(message).expect("no NUL");
        // SAFETY: a NUL-terminated message and a NULL stream (host mark).
        unsafe { mark(m.as_ptr(), std::ptr::null_mut()) };
        true
    }

    /// `mstxMarkA(message, stream)`: a mark on `stream` (MSPTI also has the device mark its time
    /// on the stream, `aclrtProfTrace`); `false` when `libms_tools_ext.so` is not installed.
    pub fn mark_on(&self, message: &str, stream: Handle) -> bool {
        let Some(mark) = self.mark else { return false };
        let m = CString::new(message).expect("no NUL");
        // SAFETY: a NUL-terminated message and a stream of `create_stream` (or NULL).
        unsafe { mark(m.as_ptr(), stream.0 as Ptr) };
        true
    }

    /// Whether `libhccl.so` is installed.
    pub fn has_hccl(&self) -> bool {
        self.hccl.is_some()
    }

    /// A one-rank communicator (`HcclGetRootInfo` + `HcclCommInitRootInfo(1, ..., 0)`), and
    /// AllReduce, Broadcast, AllGather, Reduce and Barrier on `count` floats on `stream`, then
    /// `HcclCommDestroy`. Needs `libhccl.so` and a device set on this thread.
    pub fn one_rank_collectives(&self, stream: Handle, count: u64) -> Result<(), CallError> {
        let Some(h) = &self.hccl else { return Err(CallError { function: "libhccl.so", code: -1 }) };
        let bytes = count as usize * 4;
        let (send, recv) = (self.malloc(bytes)?, self.malloc(bytes)?);
        let mut root = vec![0u8; ROOT_INFO_BYTES];
        let mut comm = std::ptr::null_mut();
        let (s, r, st) = (send.ptr(), recv.ptr(), stream.ptr());
        // SAFETY: HCCL's documented single-rank sequence on device buffers of `count` floats.
        let result = unsafe {
            ok("HcclGetRootInfo", (h.get_root_info)(root.as_mut_ptr()))
                .and_then(|_| {
                    ok("HcclCommInitRootInfo", (h.comm_init_root_info)(1, root.as_ptr(), 0, &mut comm))
                })
                .and_then(|_| ok("HcclAllReduce", (h.all_reduce)(s, r, count, HCCL_FP32, HCCL_SUM, comm, st)))
                .and_then(|_| ok("HcclBroadcast", (h.broadcast)(s, count, HCCL_FP32, 0, comm, st)))
                .and_then(|_| ok("HcclAllGather", (h.all_gather)(s, r, count, HCCL_FP32, comm, st)))
                .and_then(|_| ok("HcclReduce", (h.reduce)(s, r, count, HCCL_FP32, HCCL_SUM, 0, comm, st)))
                .and_then(|_| ok("HcclBarrier", (h.barrier)(comm, st)))
                .and_then(|_| ok("HcclCommDestroy", (h.comm_destroy)(comm)))
        };
        self.free(send)?;
        self.free(recv)?;
        result
    }

    /// A one-rank communicator (`HcclGetRootInfo` + `HcclCommInitRootInfo(1, ..., 0)`), kept for
    /// the process. Needs `libhccl.so` and a device set on this thread.
    pub fn communicator(&self) -> Result<Handle, CallError> {
        let Some(h) = &self.hccl else { return Err(CallError { function: "libhccl.so", code: -1 }) };
        let mut root = vec![0u8; ROOT_INFO_BYTES];
        let mut comm = std::ptr::null_mut();
        // SAFETY: HCCL's documented single-rank sequence with valid out-pointers.
        unsafe {
            ok("HcclGetRootInfo", (h.get_root_info)(root.as_mut_ptr()))?;
            ok("HcclCommInitRootInfo", (h.comm_init_root_info)(1, root.as_ptr(), 0, &mut comm))?;
        }
        Ok(Handle(comm as usize))
    }

    /// `HcclAllReduce` (sum) of `count` floats from `send` into `recv` (device buffers of at least
    /// `count * 4` bytes) on `comm` and `stream`.
    pub fn all_reduce(
        &self,
        send: Handle,
        recv: Handle,
        count: u64,
        comm: Handle,
        stream: Handle,
    ) -> Result<(), CallError> {
        let Some(h) = &self.hccl else { return Err(CallError { function: "libhccl.so", code: -1 }) };
        // SAFETY: HCCL's function with the caller's device buffers, communicator and stream.
        ok("HcclAllReduce", unsafe {
            (h.all_reduce)(send.ptr(), recv.ptr(), count, HCCL_FP32, HCCL_SUM, comm.ptr(), stream.ptr())
        })
    }

    /// `HcclBarrier` on `comm` and `stream`.
    pub fn barrier(&self, comm: Handle, stream: Handle) -> Result<(), CallError> {
        let Some(h) = &self.hccl else { return Err(CallError { function: "libhccl.so", code: -1 }) };
        // SAFETY: HCCL's function with the caller's communicator and stream.
        ok("HcclBarrier", unsafe { (h.barrier)(comm.ptr(), stream.ptr()) })
    }

    /// One call of each runtime function that MSPTI interposes, through the global scope, on
    /// device 0 (set on this thread), `stream` and `kernel`: device, context and stream calls, a
    /// launch, every memory call (allocations freed again), the device reset and set again last.
    /// Returns the runtime callback id MSPTI reports for each call, with the function's name, in
    /// call order: 28 of `mspti_cbid.h`'s 36 runtime ids (MSPTI interposes nothing that reports
    /// `DEVICE_SET_EX`, `CONTEXT_CREATED_EX`, the CPU/AICPU/AIV/FFTS launches, `MALLOC_CACHED` or
    /// `MEMCPY_HOST`; `aclrtMallocCached` reports `MALLOC`). The first failing call is the `Err`.
    pub fn each_interposed_runtime_call(
        &self,
        stream: Handle,
        kernel: Handle,
    ) -> Result<Vec<(u32, &'static str)>, CallError> {
        /// `$name` from the global scope, called with `$args` (as `$ty`); pushed to `$made` with `$cbid`.
        macro_rules! call {
            ($made:ident, $cbid:expr, $name:literal: fn($($ty:ty),*) $(, $arg:expr)*) => {{
                let name = CStr::from_bytes_with_nul(concat!($name, "\0").as_bytes()).expect("no NUL");
                let f = global(name).ok_or(CallError { function: $name, code: -1 })?;
                // SAFETY: the ACL function of that name, declared with its C signature, called with
                // valid out-pointers and this function's own allocations.
                let code = unsafe { cast::<unsafe extern "C" fn($($ty),*) -> c_int>(f)($($arg),*) };
                ok($name, code)?;
                $made.push(($cbid, $name));
            }};
        }
        const SIZE: usize = 256;
        let mut made = Vec::new();
        let null = std::ptr::null_mut::<c_void>;
        let (mut a, mut b, mut host, mut ctx, mut other) = (null(), null(), null(), null(), null());
        let st = stream.ptr();
        call!(made, 1, "aclrtSetDevice": fn(i32), 0);
        call!(made, 5, "aclrtCreateContext": fn(*mut Ptr, i32), &mut ctx, 0);
        call!(made, 6, "aclrtDestroyContext": fn(Ptr), ctx);
        call!(made, 7, "aclrtCreateStream": fn(*mut Ptr), &mut other);
        call!(made, 8, "aclrtDestroyStream": fn(Ptr), other);
        call!(made, 10, "aclrtLaunchKernel": fn(Ptr, u32, *const c_void, usize, Ptr), kernel.ptr(), 1, std::ptr::null(), 0, st);
        call!(made, 9, "aclrtSynchronizeStream": fn(Ptr), st);
        call!(made, 15, "aclrtMalloc": fn(*mut Ptr, usize, c_int), &mut a, SIZE, 0);
        call!(made, 15, "aclrtMallocCached": fn(*mut Ptr, usize, c_int), &mut b, SIZE, 0);
        call!(made, 17, "aclrtMallocHost": fn(*mut Ptr, usize), &mut host, SIZE);
        call!(made, 20, "aclrtMemFlush": fn(Ptr, usize), a, SIZE);
        call!(made, 21, "aclrtMemInvalidate": fn(Ptr, usize), a, SIZE);
        call!(made, 22, "aclrtMemcpy": fn(Ptr, usize, *const c_void, usize, c_int), a, SIZE, host, SIZE, MemcpyKind::HostToDevice as c_int);
        call!(made, 24, "aclrtMemcpyAsync": fn(Ptr, usize, *const c_void, usize, c_int, Ptr), b, SIZE, a, SIZE, MemcpyKind::DeviceToDevice as c_int, st);
        call!(made, 25, "aclrtMemcpy2d": fn(Ptr, usize, *const c_void, usize, usize, usize, c_int), a, 16, b, 16, 16, SIZE / 16, MemcpyKind::DeviceToDevice as c_int);
        call!(made, 26, "aclrtMemcpy2dAsync": fn(Ptr, usize, *const c_void, usize, usize, usize, c_int, Ptr), b, 16, a, 16, 16, SIZE / 16, MemcpyKind::DeviceToDevice as c_int, st);
        call!(made, 27, "aclrtMemset": fn(Ptr, usize, i32, usize), a, SIZE, 0, SIZE);
        call!(made, 28, "aclrtMemsetAsync": fn(Ptr, usize, i32, usize, Ptr), b, SIZE, 0, SIZE, st);
        call!(made, 9, "aclrtSynchronizeStream": fn(Ptr), st);
        let (mut free, mut total) = (0usize, 0usize);
        call!(made, 29, "aclrtGetMemInfo": fn(c_int, *mut usize, *mut usize), 0, &mut free, &mut total);
        let mut reserved = std::ptr::null_mut();
        call!(made, 30, "aclrtReserveMemAddress": fn(*mut Ptr, usize, usize, Ptr, u64), &mut reserved, SIZE, 0, std::ptr::null_mut(), 0);
        call!(made, 31, "aclrtReleaseMemAddress": fn(Ptr), reserved);
        let (mut physical, mut shareable, mut imported) = (std::ptr::null_mut(), 0u64, std::ptr::null_mut());
        call!(made, 32, "aclrtMallocPhysical": fn(*mut Ptr, usize, *const c_void, u64), &mut physical, SIZE, std::ptr::null(), 0);
        call!(made, 34, "aclrtMemExportToShareableHandle": fn(Ptr, c_int, u64, *mut u64), physical, 0, 0, &mut shareable);
        let mut pid = std::process::id() as i32;
        call!(made, 36, "aclrtMemSetPidToShareableHandle": fn(u64, *mut i32, usize), shareable, &mut pid, 1);
        call!(made, 35, "aclrtMemImportFromShareableHandle": fn(u64, i32, *mut Ptr), shareable, 0, &mut imported);
        call!(made, 33, "aclrtFreePhysical": fn(Ptr), physical);
        call!(made, 16, "aclrtFree": fn(Ptr), a);
        call!(made, 16, "aclrtFree": fn(Ptr), b);
        call!(made, 18, "aclrtFreeHost": fn(Ptr), host);
        call!(made, 2, "aclrtResetDevice": fn(i32), 0);
        call!(made, 1, "aclrtSetDevice": fn(i32), 0);
        Ok(made)
    }

    /// One call of each of HCCL's twelve collectives MSPTI interposes (`HcclAllReduce` ...
    /// `HcclBatchSendRecv`), through the global scope, on `comm` (a one-rank communicator) and
    /// `stream`, with `count` floats of `buffer` (a device allocation of at least `count * 4`
    /// bytes) as both source and destination. Returns each call's HCCL callback id and function,
    /// in call order (1 to 12).
    pub fn each_hccl_call(
        &self,
        comm: Handle,
        stream: Handle,
        buffer: Handle,
        count: u64,
    ) -> Result<Vec<(u32, &'static str)>, CallError> {
        macro_rules! call {
            ($made:ident, $cbid:expr, $name:literal: fn($($ty:ty),*) $(, $arg:expr)*) => {{
                let name = CStr::from_bytes_with_nul(concat!($name, "\0").as_bytes()).expect("no NUL");
                let f = global(name).ok_or(CallError { function: $name, code: -1 })?;
                // SAFETY: HCCL's function of that name, declared with its C signature, called with
                // the caller's communicator, stream and device buffer.
                let code = unsafe { cast::<unsafe extern "C" fn($($ty),*) -> c_int>(f)($($arg),*) };
                ok($name, code)?;
                $made.push(($cbid, $name));
            }};
        }
        if self.hccl.is_none() {
            return Err(CallError { function: "libhccl.so", code: -1 });
        }
        let (c, st, buf) = (comm.ptr(), stream.ptr(), buffer.ptr());
        let (counts, displs) = ([count], [0u64]);
        let (counts, displs) = (counts.as_ptr().cast::<c_void>(), displs.as_ptr().cast::<c_void>());
        let mut made = Vec::new();
        call!(made, 1, "HcclAllReduce": fn(Ptr, Ptr, u64, i32, i32, Ptr, Ptr), buf, buf, count, HCCL_FP32, HCCL_SUM, c, st);
        call!(made, 2, "HcclBroadcast": fn(Ptr, u64, i32, u32, Ptr, Ptr), buf, count, HCCL_FP32, 0, c, st);
        call!(made, 3, "HcclAllGather": fn(Ptr, Ptr, u64, i32, Ptr, Ptr), buf, buf, count, HCCL_FP32, c, st);
        call!(made, 4, "HcclReduceScatter": fn(Ptr, Ptr, u64, i32, i32, Ptr, Ptr), buf, buf, count, HCCL_FP32, HCCL_SUM, c, st);
        call!(made, 5, "HcclReduce": fn(Ptr, Ptr, u64, i32, i32, u32, Ptr, Ptr), buf, buf, count, HCCL_FP32, HCCL_SUM, 0, c, st);
        call!(made, 6, "HcclAlltoAll": fn(Ptr, u64, i32, Ptr, u64, i32, Ptr, Ptr), buf, count, HCCL_FP32, buf, count, HCCL_FP32, c, st);
        call!(made, 7, "HcclAlltoAllV": fn(Ptr, *const c_void, *const c_void, i32, Ptr, *const c_void, *const c_void, i32, Ptr, Ptr), buf, counts, displs, HCCL_FP32, buf, counts, displs, HCCL_FP32, c, st);
        call!(made, 8, "HcclBarrier": fn(Ptr, Ptr), c, st);
        call!(made, 9, "HcclScatter": fn(Ptr, Ptr, u64, i32, u32, Ptr, Ptr), buf, buf, count, HCCL_FP32, 0, c, st);
        call!(made, 10, "HcclSend": fn(Ptr, u64, i32, u32, Ptr, Ptr), buf, count, HCCL_FP32, 0, c, st);
        call!(made, 11, "HcclRecv": fn(Ptr, u64, i32, u32, Ptr, Ptr), buf, count, HCCL_FP32, 0, c, st);
        call!(made, 12, "HcclBatchSendRecv": fn(Ptr, u32, Ptr, Ptr), std::ptr::null_mut(), 0, c, st);
        Ok(made)
    }

    /// The CANN stand-ins' profiling switches on for `dev` (`PROF_*` bits, as `profSetProfCommand`
    /// set them; the `libprofapi.so` beside the runtime). `Err` when that library is not the
    /// stand-in.
    pub fn prof_switch(&self, dev: u32) -> crate::Result<u64> {
        let lib = self.profapi()?;
        // SAFETY: the stand-in's `uint64_t mock_profapi_prof_switch(uint32_t)`.
        let f = unsafe { lib.get::<unsafe extern "C" fn(u32) -> u64>(b"mock_profapi_prof_switch\0") }
            .map_err(|_| crate::Error::NotTheMock {
                path: self.profapi_path(),
                control: "mock_profapi_prof_switch",
            })?;
        // SAFETY: no preconditions.
        Ok(unsafe { f(dev) })
    }

    /// `profSetProfCommand` of `libprofapi.so` (beside the runtime), as another profiler sharing
    /// CANN would send it: START (`start`) or STOP of the `switch` bits on `dev`. Returns its result.
    pub fn prof_command(&self, dev: u32, start: bool, switch: u64) -> crate::Result<i32> {
        let lib = self.profapi()?;
        // SAFETY: `int32_t profSetProfCommand(void *command, uint32_t len)`.
        let f = unsafe { lib.get::<unsafe extern "C" fn(*mut c_void, u32) -> i32>(b"profSetProfCommand\0") }
            .map_err(|e| crate::Error::Open { path: self.profapi_path(), message: e.to_string() })?;
        // CommandHandle: profSwitch 0, profSwitchHi 8, devNums 16, devIdList 20, modelId 276,
        // type 280; 5424 bytes in all.
        let mut cmd = vec![0u8; 5424];
        cmd[0..8].copy_from_slice(&switch.to_ne_bytes());
        cmd[16..20].copy_from_slice(&1u32.to_ne_bytes());
        cmd[20..24].copy_from_slice(&dev.to_ne_bytes());
        cmd[276..280].copy_from_slice(&u32::MAX.to_ne_bytes());
        cmd[280..284].copy_from_slice(&(if start { 1u32 } else { 2 }).to_ne_bytes());
        // SAFETY: a command of the length given.
        Ok(unsafe { f(cmd.as_mut_ptr().cast(), cmd.len() as u32) })
    }

    fn profapi_path(&self) -> PathBuf {
        self.runtime.with_file_name("libprofapi.so")
    }

    fn profapi(&self) -> crate::Result<libloading::Library> {
        // The CANN library beside the runtime, already loaded by it (this takes a handle).
        crate::error::open_library(self.profapi_path().as_os_str())
    }

    /// `aclrtMalloc` looked up in a `dlopen` handle of `libascendcl.so` instead of the global
    /// scope, and called: the runtime's own function, which bypasses MSPTI's interposition (no
    /// callback, no record). What a program must not do, and what the examples once did.
    pub fn bypass_malloc(&self, size: usize) -> crate::Result<Handle> {
        // The same CANN library, already loaded (this only takes a handle of it).
        let lib = crate::error::open_library(self.runtime.as_os_str())?;
        type Malloc = unsafe extern "C" fn(*mut Ptr, usize, c_int) -> c_int;
        // SAFETY: `aclrtMalloc`'s C signature.
        let malloc = *unsafe { lib.get::<Malloc>(b"aclrtMalloc\0") }
            .map_err(|e| crate::Error::Open { path: self.runtime.clone(), message: e.to_string() })?;
        let mut p = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        ok("aclrtMalloc", unsafe { malloc(&mut p, size, 0) })
            .map_err(|e| crate::Error::Call { function: e.function, code: e.code })?;
        std::mem::forget(lib);
        Ok(Handle(p as usize))
    }
}
