//! Callback tracing: a closure runs on the application's thread at ENTER and EXIT of each traced
//! call (or once, phase NONE, for completions), with the call's own user-data slot.

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};

use rocprofiler_sys as sys;

use crate::ids::{AgentId, CallbackKind, Correlation, KernelId, Operation, Phase};
use crate::library::{OperationNames, Rocprofiler};

/// What a kernel dispatch looked like (shared by tracing and dispatch counting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DispatchInfo {
    /// The GPU it ran on.
    pub agent: AgentId,
    /// The queue it was submitted to.
    pub queue: u64,
    /// The kernel (its name comes from code-object tracing).
    pub kernel: KernelId,
    /// The SDK's dispatch id.
    pub dispatch_id: u64,
    /// Grid size in work-items.
    pub grid: [u32; 3],
    /// Work-group size in work-items.
    pub workgroup: [u32; 3],
    /// Scratch bytes per work-item.
    pub private_segment_size: u32,
    /// LDS bytes per work-group.
    pub group_segment_size: u32,
}

impl From<&sys::rocprofiler_kernel_dispatch_info_t> for DispatchInfo {
    fn from(i: &sys::rocprofiler_kernel_dispatch_info_t) -> Self {
        DispatchInfo {
            agent: AgentId(i.agent_id.handle),
            queue: i.queue_id.handle,
            kernel: KernelId(i.kernel_id),
            dispatch_id: i.dispatch_id,
            grid: [i.grid_size.x, i.grid_size.y, i.grid_size.z],
            workgroup: [i.workgroup_size.x, i.workgroup_size.y, i.workgroup_size.z],
            private_segment_size: i.private_segment_size,
            group_segment_size: i.group_segment_size,
        }
    }
}

/// A completed kernel as callback tracing reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDispatch {
    /// Start (ns, SDK clock); 0 at ENQUEUE.
    pub start: u64,
    /// End (ns, SDK clock); 0 at ENQUEUE.
    pub end: u64,
    /// The dispatch.
    pub info: DispatchInfo,
}

/// A memory copy as callback tracing reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryCopy {
    /// Start (ns).
    pub start: u64,
    /// End (ns).
    pub end: u64,
    /// Source agent.
    pub src: AgentId,
    /// Destination agent.
    pub dst: AgentId,
    /// Bytes copied.
    pub bytes: u64,
}

/// One callback: what was called, where, and the call's user-data slot.
pub struct CallbackRecord<'a> {
    raw: &'a sys::rocprofiler_callback_tracing_record_t,
    slot: &'a mut sys::rocprofiler_user_data_t,
    names: &'a OperationNames,
    lib: &'static Rocprofiler,
}

impl std::fmt::Debug for CallbackRecord<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallbackRecord")
            .field("kind", &self.kind())
            .field("operation", &self.operation())
            .field("phase", &self.phase())
            .field("correlation", &self.correlation())
            .finish_non_exhaustive()
    }
}

impl CallbackRecord<'_> {
    /// The context whose service this is.
    pub fn context_id(&self) -> u64 {
        self.raw.context_id.handle
    }

    /// The calling thread (as the SDK numbers threads).
    pub fn thread_id(&self) -> u64 {
        self.raw.thread_id
    }

    /// The call's correlation ids (the same at ENTER and EXIT).
    pub fn correlation(&self) -> Correlation {
        // SAFETY: `external` is a union of a u64 and a pointer; reading the u64 is always valid.
        let external = unsafe { self.raw.correlation_id.external.value };
        Correlation {
            internal: self.raw.correlation_id.internal,
            external,
            ancestor: self.raw.correlation_id.ancestor,
        }
    }

    /// The tracing kind.
    pub fn kind(&self) -> CallbackKind {
        CallbackKind(self.raw.kind.0)
    }

    /// The operation (an API function, a dispatch stage, a copy direction).
    pub fn operation(&self) -> Operation {
        Operation(self.raw.operation)
    }

    /// The operation's name as the library reports it (`"hipMalloc"`).
    pub fn operation_name(&self) -> Option<&str> {
        self.names.get(self.operation()).map(|s| &**s)
    }

    /// ENTER, EXIT, or NONE.
    pub fn phase(&self) -> Phase {
        Phase(self.raw.phase.0)
    }

    /// This call's slot: zero at ENTER, and at EXIT whatever ENTER stored (per call, per context).
    pub fn slot(&mut self) -> &mut u64 {
        // SAFETY: the SDK hands a valid user-data union for the duration of the callback; the
        // u64 member covers all of it.
        unsafe { &mut self.slot.value }
    }

    /// For KERNEL_DISPATCH records: the dispatch (times are 0 at ENQUEUE).
    pub fn kernel_dispatch(&self) -> Option<KernelDispatch> {
        if self.kind() != CallbackKind::KERNEL_DISPATCH || self.raw.payload.is_null() {
            return None;
        }
        // SAFETY: KERNEL_DISPATCH payloads are `rocprofiler_callback_tracing_kernel_dispatch_data_t`.
        let d = unsafe {
            &*(self.raw.payload as *const sys::rocprofiler_callback_tracing_kernel_dispatch_data_t)
        };
        Some(KernelDispatch {
            start: d.start_timestamp,
            end: d.end_timestamp,
            info: (&d.dispatch_info).into(),
        })
    }

    /// For MEMORY_COPY records: the copy.
    pub fn memory_copy(&self) -> Option<MemoryCopy> {
        if self.kind() != CallbackKind::MEMORY_COPY || self.raw.payload.is_null() {
            return None;
        }
        // SAFETY: MEMORY_COPY payloads are `rocprofiler_callback_tracing_memory_copy_data_t`.
        let d =
            unsafe { &*(self.raw.payload as *const sys::rocprofiler_callback_tracing_memory_copy_data_t) };
        Some(MemoryCopy {
            start: d.start_timestamp,
            end: d.end_timestamp,
            src: AgentId(d.src_agent_id.handle),
            dst: AgentId(d.dst_agent_id.handle),
            bytes: d.bytes,
        })
    }

    /// For CODE_OBJECT kernel-symbol registration: the kernel id and its name.
    pub fn kernel_symbol(&self) -> Option<(KernelId, &CStr)> {
        let register =
            sys::rocprofiler_code_object_operation_t::ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER;
        if self.kind() != CallbackKind::CODE_OBJECT
            || self.raw.operation as u32 != register.0
            || self.raw.payload.is_null()
        {
            return None;
        }
        // SAFETY: this operation's payload is the kernel-symbol struct.
        let d = unsafe {
            &*(self.raw.payload
                as *const sys::rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t)
        };
        if d.kernel_name.is_null() {
            return None;
        }
        // SAFETY: a NUL-terminated name valid during the callback.
        Some((KernelId(d.kernel_id), unsafe { CStr::from_ptr(d.kernel_name) }))
    }

    /// The call's arguments as the library renders them: `(name, type, value)` per argument.
    #[doc(alias = "rocprofiler_iterate_callback_tracing_kind_operation_args")]
    pub fn arguments(&self) -> Vec<(String, String, String)> {
        unsafe extern "C" fn each(
            _: sys::rocprofiler_callback_tracing_kind_t,
            _: i32,
            _: u32,
            _: *const c_void,
            _: i32,
            ty: *const c_char,
            name: *const c_char,
            value: *const c_char,
            _: i32,
            data: *mut c_void,
        ) -> i32 {
            let text = |p: *const c_char| {
                if p.is_null() {
                    String::new()
                } else {
                    // SAFETY: the library passes NUL-terminated strings valid for the call.
                    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
                }
            };
            // SAFETY: `data` is the Vec passed below.
            unsafe {
                (*(data as *mut Vec<(String, String, String)>)).push((text(name), text(ty), text(value)))
            };
            0
        }
        let mut out: Vec<(String, String, String)> = Vec::new();
        // SAFETY: the record is the one the SDK handed us; `out` outlives the call.
        let _ = unsafe {
            self.lib.sys().rocprofiler_iterate_callback_tracing_kind_operation_args(
                *self.raw,
                Some(each),
                1,
                &mut out as *mut _ as *mut c_void,
            )
        };
        out
    }

    /// For marker calls with a message (`roctxMarkA`, `roctxRangePushA`, ...): the message.
    pub fn marker_message(&self) -> Option<String> {
        if self.kind() != CallbackKind::MARKER_CORE_API {
            return None;
        }
        self.arguments().into_iter().find(|(n, _, _)| n == "message").map(|(_, _, v)| v)
    }
}

/// A configured callback service: the closure and what the trampoline needs. Leaked when
/// registered: the SDK has no way to remove a service, so it must live as long as the process.
pub(crate) struct CallbackService {
    pub(crate) closure: Box<dyn Fn(&mut CallbackRecord<'_>) + Send + Sync>,
    pub(crate) names: OperationNames,
    pub(crate) lib: &'static Rocprofiler,
    pub(crate) panics: AtomicU64,
}

/// The `extern "C"` callback for every callback service; `data` is a leaked `CallbackService`.
pub(crate) unsafe extern "C" fn trampoline(
    record: sys::rocprofiler_callback_tracing_record_t,
    user_data: *mut sys::rocprofiler_user_data_t,
    data: *mut c_void,
) {
    if data.is_null() || user_data.is_null() {
        return;
    }
    // SAFETY: `data` is the leaked service registered with this callback.
    let service = unsafe { &*(data as *const CallbackService) };
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the SDK's user-data slot is valid for the callback.
        let slot = unsafe { &mut *user_data };
        let mut rec = CallbackRecord { raw: &record, slot, names: &service.names, lib: service.lib };
        (service.closure)(&mut rec);
    }));
    if result.is_err() {
        service.panics.fetch_add(1, Ordering::Relaxed);
    }
}
