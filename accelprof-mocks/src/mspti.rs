//! The mock `libmspti` ([`LIBRARY`]), the CANN stand-ins it loads ([`ASCEND_HOME`]) and its
//! `mock_mspti_*` controls ([`MockMspti`]), for what the CANN stand-ins cannot make happen: any
//! callback id, a callback stalled across an unsubscribe, records of every kind (and of unknown
//! kinds) written directly, counters. The controls are documented in full where the mock defines
//! them (`libs/mspti/control.rs`).
//!
//! Runtime work itself goes through [`crate::ascend::Acl`], as in a real program.

use std::ffi::{c_char, c_void, CString};

/// Absolute path of the mock `libmspti` built for this crate (its file name is `libmspti.so`).
pub const LIBRARY: &str = env!("ACCELPROF_MOCK_MSPTI");

/// A CANN home for the mock `libmspti`: its `lib64` holds stand-ins of the CANN libraries and the
/// NPU driver that the real `libmspti.so` loads (`libascendalog.so`, `libprofapi.so`,
/// `libc_sec.so`, `libascend_hal.so`) and of the runtime, HCCL and MSTX libraries whose calls it
/// interposes (`libascendcl.so`, `libhccl.so`, `libms_tools_ext.so`), laid out like
/// `$ASCEND_HOME_PATH/lib64`. They report to MSPTI as CANN does, so they also drive the real
/// `libmspti.so` built from source.
pub const ASCEND_HOME: &str = env!("ACCELPROF_MOCK_ASCEND_HOME");

/// A directory holding only a `libascendalog.so` that exports `CheckLogLevelForC` and nothing
/// else (what `libmspti.so` needs of the log library).
pub const ASCEND_MIN_LOG: &str = env!("ACCELPROF_MOCK_ASCEND_MIN_LOG");

/// Domain numbers of the C headers.
pub const RUNTIME: u32 = 1;
/// The HCCL domain.
pub const HCCL: u32 = 2;
/// `MSPTI_API_ENTER`.
pub const ENTER: u32 = 0;
/// `MSPTI_API_EXIT`.
pub const EXIT: u32 = 1;

/// The mock `libmspti`'s controls, on a `dlopen` handle of the mock.
#[derive(Debug)]
pub struct MockMspti {
    lib: libloading::Library,
}

fn c(s: &str) -> CString {
    CString::new(s).expect("no NUL in a mock control's string")
}

unsafe extern "C" fn run_body(arg: *mut c_void) {
    // SAFETY: `api_call` passes a `&mut &mut dyn FnMut()` that lives across the call.
    let f = unsafe { &mut *arg.cast::<&mut dyn FnMut()>() };
    f();
}

type Body = Option<unsafe extern "C" fn(*mut c_void)>;

macro_rules! call {
    ($self:ident, $name:literal, fn($($ty:ty),*) $(-> $ret:ty)?, $($arg:expr),*) => {{
        let symbol = concat!($name, "\0");
        // SAFETY: the mock exports this control with exactly this C signature
        // (libs/mspti/control.rs); the strings passed live across the call.
        unsafe {
            let f = $self.lib.get::<unsafe extern "C" fn($($ty),*) $(-> $ret)?>(symbol.as_bytes()).expect($name);
            f($($arg),*)
        }
    }};
}

impl MockMspti {
    /// The controls of the library at `path` (the same file a loader opened: one mock state per
    /// process), or `None` when it has none (it is not the mock).
    pub fn open(path: impl AsRef<std::ffi::OsStr>) -> Option<MockMspti> {
        // SAFETY: opens a library the caller's loader already opened (checked for its CANN
        // dependencies); the mock's initialisers only load the CANN stand-ins.
        let lib = unsafe { libloading::Library::new(path) }.ok()?;
        // SAFETY: only the address is looked up.
        unsafe { lib.get::<*mut c_void>(b"mock_mspti_reset\0") }.ok()?;
        Some(MockMspti { lib })
    }

    /// Back to a freshly loaded library (the `LD_PRELOAD` answers stay cached).
    pub fn reset(&self) {
        call!(self, "mock_mspti_reset", fn(),)
    }

    /// Plays one API call: correlation id (launch and memory calls), ENTER, `body`, EXIT, and its
    /// ACL_API record while subscribed. Returns the thread's correlation id after it.
    pub fn api_call(&self, domain: u32, cbid: u32, name: &str, body: Option<&mut dyn FnMut()>) -> u64 {
        let name = c(name);
        match body {
            None => call!(
                self,
                "mock_mspti_api_call",
                fn(u32, u32, *const c_char, Body, *mut c_void) -> u64,
                domain,
                cbid,
                name.as_ptr(),
                None,
                std::ptr::null_mut()
            ),
            Some(mut body) => {
                let arg = (&mut body as *mut &mut dyn FnMut()).cast::<c_void>();
                call!(
                    self,
                    "mock_mspti_api_call",
                    fn(u32, u32, *const c_char, Body, *mut c_void) -> u64,
                    domain,
                    cbid,
                    name.as_ptr(),
                    Some(run_body),
                    arg
                )
            }
        }
    }

    /// The correlation id of the innermost call being played on this thread.
    pub fn current_correlation(&self) -> u64 {
        call!(self, "mock_mspti_current_correlation", fn() -> u64,)
    }

    /// Takes the subscriber snapshot of a callback about to run, without running it (0: none).
    pub fn stall_callback(&self, domain: u32, cbid: u32, site: u32, name: &str) -> u64 {
        let name = c(name);
        call!(
            self,
            "mock_mspti_stall_callback",
            fn(u32, u32, u32, *const c_char) -> u64,
            domain,
            cbid,
            site,
            name.as_ptr()
        )
    }

    /// Runs a stalled callback now (1 if it existed).
    pub fn release_stalled(&self, token: u64) -> u32 {
        call!(self, "mock_mspti_release_stalled", fn(u64) -> u32, token)
    }

    /// An API-layout record of `kind`.
    #[allow(clippy::too_many_arguments)]
    pub fn api_record(&self, kind: u32, start: u64, end: u64, pid: u32, tid: u32, corr: u64, name: &str) {
        let name = c(name);
        call!(
            self,
            "mock_mspti_api_record",
            fn(u32, u64, u64, u32, u32, u64, *const c_char),
            kind,
            start,
            end,
            pid,
            tid,
            corr,
            name.as_ptr()
        )
    }

    /// A kernel record.
    #[allow(clippy::too_many_arguments)]
    pub fn kernel(&self, start: u64, end: u64, device: u32, stream: u32, corr: u64, ty: &str, name: &str) {
        let (ty, name) = (c(ty), c(name));
        call!(
            self,
            "mock_mspti_kernel",
            fn(u64, u64, u32, u32, u64, *const c_char, *const c_char),
            start,
            end,
            device,
            stream,
            corr,
            ty.as_ptr(),
            name.as_ptr()
        )
    }

    /// A marker record (`a`/`b`: pid/tid for host markers, device/stream for device ones).
    #[allow(clippy::too_many_arguments)]
    pub fn marker(
        &self,
        flag: u32,
        source: u32,
        ts: u64,
        id: u64,
        a: u32,
        b: u32,
        name: &str,
        domain: Option<&str>,
    ) {
        let name = c(name);
        let domain = domain.map(c);
        let d = domain.as_ref().map_or(std::ptr::null(), |d| d.as_ptr());
        call!(
            self,
            "mock_mspti_marker",
            fn(u32, u32, u64, u64, u32, u32, *const c_char, *const c_char),
            flag,
            source,
            ts,
            id,
            a,
            b,
            name.as_ptr(),
            d
        )
    }

    /// An HCCL record.
    #[allow(clippy::too_many_arguments)]
    pub fn hccl(&self, start: u64, end: u64, device: u32, stream: u32, bw: f64, name: &str, comm: &str) {
        let (name, comm) = (c(name), c(comm));
        call!(
            self,
            "mock_mspti_hccl",
            fn(u64, u64, u32, u32, f64, *const c_char, *const c_char),
            start,
            end,
            device,
            stream,
            bw,
            name.as_ptr(),
            comm.as_ptr()
        )
    }

    /// A memory record.
    #[allow(clippy::too_many_arguments)]
    pub fn memory(
        &self,
        op: u32,
        kind: u32,
        corr: u64,
        start: u64,
        end: u64,
        address: u64,
        bytes: u64,
        pid: u32,
        device: u32,
        stream: u32,
    ) {
        call!(
            self,
            "mock_mspti_memory",
            fn(u32, u32, u64, u64, u64, u64, u64, u32, u32, u32),
            op,
            kind,
            corr,
            start,
            end,
            address,
            bytes,
            pid,
            device,
            stream
        )
    }

    /// A memset record.
    #[allow(clippy::too_many_arguments)]
    pub fn memset(
        &self,
        value: u32,
        bytes: u64,
        start: u64,
        end: u64,
        device: u32,
        stream: u32,
        corr: u64,
        is_async: u8,
    ) {
        call!(
            self,
            "mock_mspti_memset",
            fn(u32, u64, u64, u64, u32, u32, u64, u8),
            value,
            bytes,
            start,
            end,
            device,
            stream,
            corr,
            is_async
        )
    }

    /// A memcpy record.
    #[allow(clippy::too_many_arguments)]
    pub fn memcpy(
        &self,
        kind: u32,
        bytes: u64,
        start: u64,
        end: u64,
        device: u32,
        stream: u32,
        corr: u64,
        is_async: u8,
    ) {
        call!(
            self,
            "mock_mspti_memcpy",
            fn(u32, u64, u64, u64, u32, u32, u64, u8),
            kind,
            bytes,
            start,
            end,
            device,
            stream,
            corr,
            is_async
        )
    }

    /// A communication record.
    #[allow(clippy::too_many_arguments)]
    pub fn communication(
        &self,
        data_type: u32,
        count: u64,
        device: u32,
        stream: u32,
        start: u64,
        end: u64,
        alg: &str,
        name: &str,
        comm: &str,
        corr: u64,
    ) {
        let (alg, name, comm) = (c(alg), c(name), c(comm));
        call!(
            self,
            "mock_mspti_communication",
            fn(u32, u64, u32, u32, u64, u64, *const c_char, *const c_char, *const c_char, u64),
            data_type,
            count,
            device,
            stream,
            start,
            end,
            alg.as_ptr(),
            name.as_ptr(),
            comm.as_ptr(),
            corr
        )
    }

    /// Raw bytes written as one record, whatever the kind (a newer library's kinds).
    pub fn raw_record(&self, bytes: &[u8]) {
        call!(self, "mock_mspti_raw_record", fn(*const u8, usize), bytes.as_ptr(), bytes.len())
    }

    /// Plays the lost activity manager thread of the real library (before the first activity session).
    pub fn lose_activity_manager(&self, lost: bool) {
        call!(self, "mock_mspti_lose_activity_manager", fn(u32), u32::from(lost))
    }

    /// Delays each buffer completion (widens races).
    pub fn set_completion_delay_us(&self, us: u64) {
        call!(self, "mock_mspti_set_completion_delay_us", fn(u64), us)
    }

    /// A counter of the mock (see `mock_mspti_counter`); panics on an unknown name.
    pub fn counter(&self, name: &str) -> u64 {
        let n = c(name);
        let v = call!(self, "mock_mspti_counter", fn(*const c_char) -> u64, n.as_ptr());
        assert_ne!(v, u64::MAX, "unknown mock counter {name}");
        v
    }
}
