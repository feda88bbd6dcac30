//! Shared by the `mspti_*` examples: opens MSPTI with `LD_PRELOAD` set, and supplies a workload
//! that makes runtime and HCCL API calls.
//!
//! - On an Ascend machine (CANN installed, `source set_env.sh` done) the real `libmspti.so` is
//!   found by the search order; the workload is a short sequence of `aclrt*` calls through
//!   `libascendcl.so` (device, stream, memory, copies); MSTX marks go through
//!   `libms_tools_ext.so`. HCCL needs a multi-rank program: that part only subscribes there.
//! - Anywhere else the mock `libmspti.so` built for this checkout is used, with its CANN
//!   stand-ins; the workload plays the runtime through the mock's `mock_mspti_*` controls.
//!
//! MSPTI delivers callbacks only when `libmspti.so` is in `LD_PRELOAD` when the program starts
//! (the mock makes the same check): [`setup`] restarts the example with it set, as
//! `mspti::preload::reexec_with_preload` does for any program.
#![allow(dead_code)]

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::PathBuf;

use accel_profiling::{MOCK_ASCEND_HOME, MOCK_MSPTI};
use mspti::Mspti;

/// The opened library and what drives it.
pub struct Setup {
    pub mspti: &'static Mspti,
    pub workload: &'static Workload,
}

/// Opens MSPTI (restarting the program once with `LD_PRELOAD` set when needed).
pub fn setup() -> Setup {
    if !mspti::preload::is_preloaded() {
        let (library, env): (PathBuf, Vec<(&str, &std::ffi::OsStr)>) = match Mspti::open() {
            Ok(m) => (m.sys().loaded().path().to_path_buf(), Vec::new()),
            Err(e) => {
                eprintln!(
                    "no usable libmspti.so here ({e})\n-> using the mock MSPTI built for this checkout"
                );
                (
                    PathBuf::from(MOCK_MSPTI),
                    vec![
                        ("ASCEND_HOME_PATH", MOCK_ASCEND_HOME.as_ref()),
                        ("MSPTI_LIBRARY_PATH", MOCK_MSPTI.as_ref()),
                    ],
                )
            }
        };
        eprintln!("restarting with LD_PRELOAD={}", library.display());
        if let Err(e) = mspti::preload::reexec_with_preload(&library, &env) {
            eprintln!("could not restart with LD_PRELOAD ({e}); callbacks will be refused");
        }
    }
    let mspti = match Mspti::open() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let loaded = mspti.sys().loaded();
    eprintln!("MSPTI: {} (found: {})", loaded.path().display(), loaded.origin());
    let mspti: &'static Mspti = Box::leak(Box::new(mspti));
    let workload = Box::leak(Box::new(Workload::new(mspti)));
    Setup { mspti, workload }
}

/// Something that makes API calls for the callbacks and activity to observe.
pub enum Workload {
    /// The mock: plays the CANN runtime.
    Mock(MockRuntime),
    /// A real Ascend machine: `aclrt*` calls.
    Acl(Acl),
}

impl Workload {
    fn new(mspti: &'static Mspti) -> Workload {
        match MockRuntime::find(mspti) {
            Some(m) => Workload::Mock(m),
            None => match Acl::open() {
                Ok(a) => Workload::Acl(a),
                Err(e) => {
                    eprintln!("libascendcl.so: {e}");
                    std::process::exit(1);
                }
            },
        }
    }

    /// Before subscribing: `aclInit` (MSPTI needs CANN's profiling library loaded).
    pub fn init(&self) {
        if let Workload::Acl(a) = self {
            a.init();
        }
    }

    /// At the end: `aclFinalize`.
    pub fn finish(&self) {
        if let Workload::Acl(a) = self {
            a.finish();
        }
    }

    /// A short runtime sequence: device, stream, allocations, copies, a kernel, sync, frees.
    pub fn runtime_calls(&self) {
        match self {
            Workload::Mock(m) => m.runtime_calls(),
            Workload::Acl(a) => a.runtime_calls(),
        }
    }

    /// A few collectives.
    pub fn hccl_calls(&self) {
        match self {
            Workload::Mock(m) => m.hccl_calls(),
            Workload::Acl(_) => {
                eprintln!("(HCCL needs a multi-rank program: run your HCCL job with this subscriber)")
            }
        }
    }

    /// An MSTX mark (`mstxMarkA`).
    pub fn mark(&self, message: &str) {
        let m = CString::new(message).expect("no NUL");
        let f = match self {
            Workload::Mock(r) => r.mstx,
            Workload::Acl(a) => match a.mstx {
                Some(f) => f,
                None => return,
            },
        };
        // SAFETY: `mstxMarkA(const char*, aclrtStream)`; a NULL stream marks on the host.
        unsafe { f(m.as_ptr(), std::ptr::null_mut()) }
    }
}

type MarkFn = unsafe extern "C" fn(*const c_char, *mut c_void);
type Body = Option<unsafe extern "C" fn(*mut c_void)>;

/// The mock's runtime controls.
pub struct MockRuntime {
    api_call: unsafe extern "C" fn(u32, u32, *const c_char, Body, *mut c_void) -> u64,
    current: unsafe extern "C" fn() -> u64,
    kernel: unsafe extern "C" fn(u64, u64, u32, u32, u64, *const c_char, *const c_char),
    hccl: unsafe extern "C" fn(u64, u64, u32, u32, f64, *const c_char, *const c_char),
    mstx: MarkFn,
}

fn sym<T: Copy>(mspti: &Mspti, name: &CStr) -> Option<T> {
    let p = mspti.sys().raw_symbol(name)?;
    assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: the caller names a function of the mock with signature `T` (a fn pointer type).
    Some(unsafe { std::mem::transmute_copy::<*mut c_void, T>(&p.as_ptr()) })
}

unsafe extern "C" fn run(arg: *mut c_void) {
    // SAFETY: `MockRuntime::call` passes a `&dyn Fn()` that lives across the call.
    let f = unsafe { &*arg.cast::<&dyn Fn()>() };
    f();
}

const RUNTIME: u32 = 1;
const HCCL: u32 = 2;

impl MockRuntime {
    fn find(mspti: &Mspti) -> Option<MockRuntime> {
        Some(MockRuntime {
            api_call: sym(mspti, c"mock_mspti_api_call")?,
            current: sym(mspti, c"mock_mspti_current_correlation")?,
            kernel: sym(mspti, c"mock_mspti_kernel")?,
            hccl: sym(mspti, c"mock_mspti_hccl")?,
            mstx: sym(mspti, c"mstxMarkA")?,
        })
    }

    fn call(&self, domain: u32, cbid: u32, name: &str, body: &dyn Fn()) {
        let name = CString::new(name).expect("no NUL");
        let arg = (&body as *const &dyn Fn()).cast_mut().cast::<c_void>();
        // SAFETY: the mock's control; `run` reads `arg` as the `&dyn Fn()` it is.
        unsafe { (self.api_call)(domain, cbid, name.as_ptr(), Some(run), arg) };
    }

    fn runtime_calls(&self) {
        let busy = |us| std::thread::sleep(std::time::Duration::from_micros(us));
        self.call(RUNTIME, 1, "aclrtSetDevice", &|| busy(300));
        self.call(RUNTIME, 7, "aclrtCreateStream", &|| busy(50));
        self.call(RUNTIME, 15, "aclrtMalloc", &|| busy(120));
        self.call(RUNTIME, 22, "aclrtMemcpy", &|| busy(200));
        for (i, kernel) in ["add_custom", "matmul_custom", "add_custom"].iter().enumerate() {
            self.call(RUNTIME, 10, "aclrtLaunchKernel", &|| {
                // SAFETY: the mock's controls, with NUL-terminated strings.
                unsafe {
                    let corr = (self.current)();
                    let start = 5_000_000 + i as u64 * 1_000_000;
                    let (ty, name) = (CString::new("AI_CORE").unwrap(), CString::new(*kernel).unwrap());
                    (self.kernel)(
                        start,
                        start + 250_000 * (i as u64 + 1),
                        0,
                        1,
                        corr,
                        ty.as_ptr(),
                        name.as_ptr(),
                    );
                }
                busy(40);
            });
        }
        self.call(RUNTIME, 27, "aclrtMemset", &|| busy(30));
        self.call(RUNTIME, 9, "aclrtSynchronizeStream", &|| busy(500));
        self.call(RUNTIME, 16, "aclrtFree", &|| busy(60));
        self.call(RUNTIME, 8, "aclrtDestroyStream", &|| busy(20));
        self.call(RUNTIME, 2, "aclrtResetDevice", &|| busy(100));
    }

    fn hccl_calls(&self) {
        for (cbid, name, op) in [
            (1, "HcclAllReduce", "hcclAllReduce"),
            (2, "HcclBroadcast", "hcclBroadcast"),
            (3, "HcclAllGather", "hcclAllGather"),
            (5, "HcclReduce", "hcclReduce"),
            (8, "HcclBarrier", "hcclBarrier"),
        ] {
            self.call(HCCL, cbid, name, &|| {
                let (op, comm) = (CString::new(op).unwrap(), CString::new("world").unwrap());
                // SAFETY: the mock's control, with NUL-terminated strings.
                unsafe { (self.hccl)(1_000, 2_000, 0, 2, 180.0, op.as_ptr(), comm.as_ptr()) };
            });
        }
    }
}

type AclInit = unsafe extern "C" fn(*const c_char) -> c_int;
type AclDev = unsafe extern "C" fn(i32) -> c_int;
type AclStream = unsafe extern "C" fn(*mut *mut c_void) -> c_int;
type AclStreamOp = unsafe extern "C" fn(*mut c_void) -> c_int;
type AclMalloc = unsafe extern "C" fn(*mut *mut c_void, usize, c_int) -> c_int;
type AclMallocHost = unsafe extern "C" fn(*mut *mut c_void, usize) -> c_int;
type AclMemcpy = unsafe extern "C" fn(*mut c_void, usize, *const c_void, usize, c_int) -> c_int;
type AclMemset = unsafe extern "C" fn(*mut c_void, usize, i32, usize) -> c_int;
type AclFinalize = unsafe extern "C" fn() -> c_int;

/// `libascendcl.so` on a real Ascend machine (not exercised where there is none).
pub struct Acl {
    lib: libloading::Library,
    mstx: Option<MarkFn>,
}

impl Acl {
    fn open() -> Result<Acl, libloading::Error> {
        // SAFETY: CANN's runtime library, opened as any ACL program does.
        let lib = unsafe { libloading::Library::new("libascendcl.so") }?;
        // SAFETY: as above.
        let tools = unsafe { libloading::Library::new("libms_tools_ext.so") }.ok();
        let mstx = tools.and_then(|t| {
            // SAFETY: `mstxMarkA(const char*, aclrtStream)`.
            let f = unsafe { t.get::<MarkFn>(b"mstxMarkA\0") }.ok().map(|s| *s);
            std::mem::forget(t);
            f
        });
        Ok(Acl { lib, mstx })
    }

    fn f<T: Copy>(&self, name: &str) -> T {
        let n = format!("{name}\0");
        // SAFETY: the ACL function of that name, with the signature the caller gives (from acl.h).
        *unsafe { self.lib.get::<T>(n.as_bytes()) }.unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    fn check(what: &str, r: c_int) {
        if r != 0 {
            eprintln!("{what} returned {r}");
        }
    }

    fn init(&self) {
        // SAFETY: aclInit(NULL) as documented.
        Self::check("aclInit", unsafe { self.f::<AclInit>("aclInit")(std::ptr::null()) });
    }

    fn runtime_calls(&self) {
        const SIZE: usize = 1 << 20;
        // SAFETY: the documented ACL sequence on device 0, with out-pointers that live across
        // each call and buffers of SIZE bytes.
        unsafe {
            Self::check("aclrtSetDevice", self.f::<AclDev>("aclrtSetDevice")(0));
            let mut stream = std::ptr::null_mut();
            Self::check("aclrtCreateStream", self.f::<AclStream>("aclrtCreateStream")(&mut stream));
            let (mut dev, mut host) = (std::ptr::null_mut(), std::ptr::null_mut());
            Self::check("aclrtMalloc", self.f::<AclMalloc>("aclrtMalloc")(&mut dev, SIZE, 0));
            Self::check("aclrtMallocHost", self.f::<AclMallocHost>("aclrtMallocHost")(&mut host, SIZE));
            Self::check("aclrtMemcpy", self.f::<AclMemcpy>("aclrtMemcpy")(dev, SIZE, host, SIZE, 1));
            Self::check("aclrtMemset", self.f::<AclMemset>("aclrtMemset")(dev, SIZE, 0, SIZE));
            Self::check("aclrtSynchronizeStream", self.f::<AclStreamOp>("aclrtSynchronizeStream")(stream));
            Self::check("aclrtFree", self.f::<AclStreamOp>("aclrtFree")(dev));
            Self::check("aclrtFreeHost", self.f::<AclStreamOp>("aclrtFreeHost")(host));
            Self::check("aclrtDestroyStream", self.f::<AclStreamOp>("aclrtDestroyStream")(stream));
            Self::check("aclrtResetDevice", self.f::<AclDev>("aclrtResetDevice")(0));
        }
    }
}

impl Acl {
    fn finish(&self) {
        // SAFETY: after every other ACL call.
        Self::check("aclFinalize", unsafe { self.f::<AclFinalize>("aclFinalize")() });
    }
}

/// Nanoseconds since the Unix epoch (what the guide's `GetCurrentTimestamp` returns).
pub fn now_ns() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
