//! [`Rocprofiler`]: the opened SDK, and the queries that work at any time (version, clock,
//! status strings, kind and operation names).

use std::ffi::{c_char, c_void, CStr};
use std::path::Path;
use std::sync::OnceLock;

use rocprofiler_sys as sys;

use crate::error::{check, Error, Result};
use crate::ids::{BufferKind, CallbackDomain, Operation};

/// The opened `librocprofiler-sdk.so`. It is never unloaded, so handles borrow it for `'static`.
///
/// There is one per process: the SDK is the runtime's (a tool lives inside the process whose ROCm
/// runtime loaded it, and registers into that copy), so [`open`](Self::open),
/// [`open_path`](Self::open_path) and [`global`](Self::global) all return the process-wide one, opened
/// on first use; inside a process where the runtime has loaded the SDK, that copy is used and no
/// second copy is ever mapped.
#[derive(Debug)]
pub struct Rocprofiler {
    lib: sys::Library,
}

static GLOBAL: OnceLock<Rocprofiler> = OnceLock::new();

/// The process's SDK if it was opened already (for naming status codes in errors).
pub(crate) fn opened() -> Option<&'static Rocprofiler> {
    GLOBAL.get()
}

impl Rocprofiler {
    /// The process's SDK, opened on first use with the `rocprofiler-sys` search order (the copy
    /// already loaded first, then `$ROCPROFILER_LIBRARY_PATH`, `$ROCM_PATH/lib`, `/opt/rocm/lib`,
    /// the system loader). The same as [`global`](Self::global): a process has one SDK.
    ///
    /// Deprecated: `open` is owned in `cupti` and `mspti`; the SDK is one per process, so here it is
    /// [`global`](Self::global), the name every vendor crate gives the process-wide handle.
    #[doc(alias = "dlopen")]
    #[deprecated(
        note = "use `Rocprofiler::global()`: the SDK is one per process (`open` is owned in the other crates)"
    )]
    pub fn open() -> Result<&'static Rocprofiler> {
        Rocprofiler::global()
    }

    /// The process's SDK, opened on first use with the search order of [`open`](Self::open). A
    /// failed first use is not remembered: a later call tries again.
    pub fn global() -> Result<&'static Rocprofiler> {
        if let Some(r) = GLOBAL.get() {
            return Ok(r);
        }
        let lib = sys::Library::open(None)?;
        Ok(GLOBAL.get_or_init(|| Rocprofiler { lib }))
    }

    /// The process's SDK, opened from `path` unless a copy is already loaded or was opened
    /// before (then that copy). Use it where the library is in an unusual place.
    pub fn open_path(path: impl AsRef<Path>) -> Result<&'static Rocprofiler> {
        if let Some(r) = GLOBAL.get() {
            return Ok(r);
        }
        let lib = sys::Library::open(Some(path.as_ref()))?;
        Ok(GLOBAL.get_or_init(|| Rocprofiler { lib }))
    }

    /// The raw library of `rocprofiler-sys`, for what this crate does not wrap: it dereferences to the
    /// function table (each function resolved on first call; one this library lacks returns
    /// `MissingSymbol`) and tells where it was found.
    pub fn sys(&self) -> &sys::Library {
        &self.lib
    }

    /// What was passed to `dlopen`: a path, or a plain soname found by the system loader.
    pub fn path(&self) -> &Path {
        self.lib.path()
    }

    /// Whether this SDK can restrict dispatch counting to some agents
    /// ([`Context::set_counting_agents`](crate::Context::set_counting_agents)): it needs
    /// `rocprofiler_dispatch_counting_service_set_agents`, which no released SDK has yet.
    pub fn has_per_agent_scoping(&self) -> bool {
        self.lib.has("rocprofiler_dispatch_counting_service_set_agents")
    }

    /// The SDK's version (major, minor, patch).
    #[doc(alias = "rocprofiler_get_version")]
    pub fn version(&self) -> Result<accelprof_core::Version> {
        let (mut a, mut b, mut c) = (0, 0, 0);
        check(
            // SAFETY: three valid out-pointers.
            unsafe { self.lib.rocprofiler_get_version(&mut a, &mut b, &mut c) },
            "rocprofiler_get_version",
        )?;
        Ok(accelprof_core::Version::new(a, b, c))
    }

    /// Now, on the clock every record's timestamps use (ns).
    #[doc(alias = "rocprofiler_get_timestamp")]
    pub fn timestamp(&self) -> Result<u64> {
        let mut t = 0;
        // SAFETY: valid out-pointer.
        check(unsafe { self.lib.rocprofiler_get_timestamp(&mut t) }, "rocprofiler_get_timestamp")?;
        Ok(t)
    }

    /// The calling thread's id as records report it.
    #[doc(alias = "rocprofiler_get_thread_id")]
    pub fn thread_id(&self) -> Result<u64> {
        let mut t = 0;
        // SAFETY: valid out-pointer.
        check(unsafe { self.lib.rocprofiler_get_thread_id(&mut t) }, "rocprofiler_get_thread_id")?;
        Ok(t)
    }

    /// The library's description of a status code; `None` when the library has none (codes at
    /// or past its `ROCPROFILER_STATUS_LAST` get NULL) or lacks the function.
    #[doc(alias = "rocprofiler_get_status_string")]
    pub fn status_string(&self, code: u32) -> Option<String> {
        // SAFETY: any value may be passed; the result is NULL or a static string.
        let p = unsafe { self.lib.rocprofiler_get_status_string(sys::rocprofiler_status_t(code)) }.ok()?;
        // SAFETY: non-NULL results are NUL-terminated static strings.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }

    /// The library's C name of a status code (`"ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT"`);
    /// `None` when the library has none (codes at or past its `ROCPROFILER_STATUS_LAST`) or
    /// lacks the function. The SDK bounds the value itself, so any code may be asked for.
    #[doc(alias = "rocprofiler_get_status_name")]
    pub fn status_name(&self, code: u32) -> Option<String> {
        // SAFETY: any value may be passed (the SDK compares it against its table and returns
        // NULL past it); the result is NULL or a static string.
        let p = unsafe { self.lib.rocprofiler_get_status_name(sys::rocprofiler_status_t(code)) }.ok()?;
        // SAFETY: non-NULL results are NUL-terminated static strings.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }

    /// The library's description of `err`, when it is an SDK status it knows.
    pub fn describe(&self, err: &Error) -> Option<String> {
        self.status_string(err.code()?.0)
    }

    /// Whether the configure window has run: 0 not yet, -1 running, 1 done.
    #[doc(alias = "rocprofiler_is_initialized")]
    pub fn initialization_status(&self) -> Result<i32> {
        let mut s = 0;
        // SAFETY: valid out-pointer.
        check(unsafe { self.lib.rocprofiler_is_initialized(&mut s) }, "rocprofiler_is_initialized")?;
        Ok(s)
    }

    /// Whether the SDK has finalized: 0 not yet, -1 finalizing, 1 done.
    #[doc(alias = "rocprofiler_is_finalized")]
    pub fn finalization_status(&self) -> Result<i32> {
        let mut s = 0;
        // SAFETY: valid out-pointer.
        check(unsafe { self.lib.rocprofiler_is_finalized(&mut s) }, "rocprofiler_is_finalized")?;
        Ok(s)
    }

    /// The library's name of a callback tracing kind.
    #[doc(alias = "rocprofiler_query_callback_tracing_kind_name")]
    pub fn callback_kind_name(&self, kind: CallbackDomain) -> Result<String> {
        let kind = sys::rocprofiler_callback_tracing_kind_t(kind.0);
        // SAFETY: valid out-pointers.
        queried_name("rocprofiler_query_callback_tracing_kind_name", |p, n| unsafe {
            self.lib.rocprofiler_query_callback_tracing_kind_name(kind, p, n)
        })
    }

    /// The library's name of an operation of a callback tracing kind (`"hipMalloc"`).
    #[doc(alias = "rocprofiler_query_callback_tracing_kind_operation_name")]
    pub fn callback_operation_name(&self, kind: CallbackDomain, op: Operation) -> Result<String> {
        let kind = sys::rocprofiler_callback_tracing_kind_t(kind.0);
        queried_name("rocprofiler_query_callback_tracing_kind_operation_name", |p, n| {
            // SAFETY: valid out-pointers.
            unsafe { self.lib.rocprofiler_query_callback_tracing_kind_operation_name(kind, op.0, p, n) }
        })
    }

    /// The library's name of a buffer tracing kind.
    #[doc(alias = "rocprofiler_query_buffer_tracing_kind_name")]
    pub fn buffer_kind_name(&self, kind: BufferKind) -> Result<String> {
        let kind = sys::rocprofiler_buffer_tracing_kind_t(kind.0);
        // SAFETY: valid out-pointers.
        queried_name("rocprofiler_query_buffer_tracing_kind_name", |p, n| unsafe {
            self.lib.rocprofiler_query_buffer_tracing_kind_name(kind, p, n)
        })
    }

    /// The library's name of an operation of a buffer tracing kind.
    #[doc(alias = "rocprofiler_query_buffer_tracing_kind_operation_name")]
    pub fn buffer_operation_name(&self, kind: BufferKind, op: Operation) -> Result<String> {
        let kind = sys::rocprofiler_buffer_tracing_kind_t(kind.0);
        queried_name("rocprofiler_query_buffer_tracing_kind_operation_name", |p, n| {
            // SAFETY: valid out-pointers.
            unsafe { self.lib.rocprofiler_query_buffer_tracing_kind_operation_name(kind, op.0, p, n) }
        })
    }

    /// Every callback tracing kind the library has, in its order. The SDK's iteration starts at
    /// NONE (0), which names no service: it is left out.
    #[doc(alias = "rocprofiler_iterate_callback_tracing_kinds")]
    pub fn callback_kinds(&self) -> Result<Vec<CallbackDomain>> {
        unsafe extern "C" fn each(kind: sys::rocprofiler_callback_tracing_kind_t, data: *mut c_void) -> i32 {
            // SAFETY: `data` is the Vec passed below, alive for the call.
            unsafe { (*(data as *mut Vec<CallbackDomain>)).push(CallbackDomain(kind.0)) };
            0
        }
        let mut out: Vec<CallbackDomain> = Vec::new();
        check(
            // SAFETY: the callback matches the signature; `out` outlives the call.
            unsafe {
                self.lib
                    .rocprofiler_iterate_callback_tracing_kinds(Some(each), &mut out as *mut _ as *mut c_void)
            },
            "rocprofiler_iterate_callback_tracing_kinds",
        )?;
        out.retain(|k| k.0 != sys::rocprofiler_callback_tracing_kind_t::ROCPROFILER_CALLBACK_TRACING_NONE.0);
        Ok(out)
    }

    /// Every buffer tracing kind the library has, in its order (NONE left out, as for
    /// [`callback_kinds`](Self::callback_kinds)).
    #[doc(alias = "rocprofiler_iterate_buffer_tracing_kinds")]
    pub fn buffer_kinds(&self) -> Result<Vec<BufferKind>> {
        unsafe extern "C" fn each(kind: sys::rocprofiler_buffer_tracing_kind_t, data: *mut c_void) -> i32 {
            // SAFETY: `data` is the Vec passed below, alive for the call.
            unsafe { (*(data as *mut Vec<BufferKind>)).push(BufferKind(kind.0)) };
            0
        }
        let mut out: Vec<BufferKind> = Vec::new();
        check(
            // SAFETY: the callback matches the signature; `out` outlives the call.
            unsafe {
                self.lib
                    .rocprofiler_iterate_buffer_tracing_kinds(Some(each), &mut out as *mut _ as *mut c_void)
            },
            "rocprofiler_iterate_buffer_tracing_kinds",
        )?;
        out.retain(|k| k.0 != sys::rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_NONE.0);
        Ok(out)
    }

    /// Every operation of a callback tracing kind, with its name.
    #[doc(alias = "rocprofiler_iterate_callback_tracing_kind_operations")]
    pub fn callback_operations(&self, kind: CallbackDomain) -> Result<Vec<(Operation, String)>> {
        unsafe extern "C" fn each(
            _: sys::rocprofiler_callback_tracing_kind_t,
            op: i32,
            data: *mut c_void,
        ) -> i32 {
            // SAFETY: `data` is the Vec passed below, alive for the call.
            unsafe { (*(data as *mut Vec<Operation>)).push(Operation(op)) };
            0
        }
        let mut ops: Vec<Operation> = Vec::new();
        check(
            // SAFETY: the callback matches the signature; `ops` outlives the call.
            unsafe {
                self.lib.rocprofiler_iterate_callback_tracing_kind_operations(
                    sys::rocprofiler_callback_tracing_kind_t(kind.0),
                    Some(each),
                    &mut ops as *mut _ as *mut c_void,
                )
            },
            "rocprofiler_iterate_callback_tracing_kind_operations",
        )?;
        ops.into_iter().map(|op| Ok((op, self.callback_operation_name(kind, op)?))).collect()
    }

    /// Every operation of a buffer tracing kind, with its name.
    #[doc(alias = "rocprofiler_iterate_buffer_tracing_kind_operations")]
    pub fn buffer_operations(&self, kind: BufferKind) -> Result<Vec<(Operation, String)>> {
        unsafe extern "C" fn each(
            _: sys::rocprofiler_buffer_tracing_kind_t,
            op: i32,
            data: *mut c_void,
        ) -> i32 {
            // SAFETY: `data` is the Vec passed below, alive for the call.
            unsafe { (*(data as *mut Vec<Operation>)).push(Operation(op)) };
            0
        }
        let mut ops: Vec<Operation> = Vec::new();
        check(
            // SAFETY: the callback matches the signature; `ops` outlives the call.
            unsafe {
                self.lib.rocprofiler_iterate_buffer_tracing_kind_operations(
                    sys::rocprofiler_buffer_tracing_kind_t(kind.0),
                    Some(each),
                    &mut ops as *mut _ as *mut c_void,
                )
            },
            "rocprofiler_iterate_buffer_tracing_kind_operations",
        )?;
        ops.into_iter().map(|op| Ok((op, self.buffer_operation_name(kind, op)?))).collect()
    }
}

/// A name the library returned as (pointer, length).
/// A name one of the library's `rocprofiler_query_*_name` functions returns through `query`'s
/// two out-pointers (the name's address and length).
fn queried_name(
    call: &'static str,
    query: impl FnOnce(*mut *const c_char, *mut u64) -> Result<sys::rocprofiler_status_t, sys::MissingSymbol>,
) -> Result<String> {
    let mut p: *const c_char = std::ptr::null();
    let mut n = 0;
    check(query(&mut p, &mut n), call)?;
    Ok(name_of(p, n))
}

fn name_of(p: *const c_char, n: u64) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the library returns a pointer to `n` bytes of a static name.
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, n as usize) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Operation names of one kind, indexed by operation id (looked up once, read on hot paths).
#[derive(Debug, Default, Clone)]
pub(crate) struct OperationNames(Vec<Option<std::sync::Arc<str>>>);

impl OperationNames {
    pub(crate) fn callback(lib: &Rocprofiler, kind: CallbackDomain) -> OperationNames {
        Self::from_list(lib.callback_operations(kind).unwrap_or_default())
    }

    pub(crate) fn buffer(lib: &Rocprofiler, kind: BufferKind) -> OperationNames {
        Self::from_list(lib.buffer_operations(kind).unwrap_or_default())
    }

    fn from_list(list: Vec<(Operation, String)>) -> OperationNames {
        let mut v: Vec<Option<std::sync::Arc<str>>> = Vec::new();
        for (op, name) in list {
            if let Ok(i) = usize::try_from(op.0) {
                if v.len() <= i {
                    v.resize(i + 1, None);
                }
                v[i] = Some(name.into());
            }
        }
        OperationNames(v)
    }

    pub(crate) fn get(&self, op: Operation) -> Option<&std::sync::Arc<str>> {
        self.0.get(usize::try_from(op.0).ok()?)?.as_ref()
    }
}
