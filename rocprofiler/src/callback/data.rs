//! What a callback-tracing closure sees: [`CallbackData`] and the payload views of its kinds.

use std::ffi::{c_char, c_void, CStr};

use accelprof_core::callback::CorrelationSlot;
use rocprofiler_sys as sys;

use crate::ids::{AgentId, CallbackDomain, CallbackId, CallbackSite, Correlation, KernelId, Operation};
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

/// A memory copy as callback tracing reports it: at ENTER, when the copy is submitted, on the
/// submitting thread (times 0); at EXIT, when it completed, on HSA's async-signal thread (some
/// time later, with the copy's times). ENTER and EXIT share the call's
/// [`correlation_slot`](CallbackData::correlation_slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryCopy {
    /// Start (ns, SDK clock); 0 at ENTER.
    pub start: u64,
    /// End (ns, SDK clock); 0 at ENTER.
    pub end: u64,
    /// Source agent.
    pub src: AgentId,
    /// Destination agent.
    pub dst: AgentId,
    /// Bytes copied.
    pub bytes: u64,
}

/// One callback: what was called (its domain, the SDK's tracing kind, and operation), where (its
/// site, the SDK's phase), and the call's entry/exit slot (the SDK's `rocprofiler_user_data_t`).
///
/// It lives only for the duration of the callback (it borrows the SDK's record), so a closure
/// cannot keep it; copy out what it needs.
#[doc(alias = "rocprofiler_callback_tracing_record_t")]
#[doc(alias = "CallbackRecord")]
pub struct CallbackData<'a> {
    pub(crate) raw: &'a sys::rocprofiler_callback_tracing_record_t,
    pub(crate) slot: CorrelationSlot<'a>,
    pub(crate) names: &'a OperationNames,
    pub(crate) lib: &'static Rocprofiler,
}

impl std::fmt::Debug for CallbackData<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallbackData")
            .field("id", &self.id())
            .field("site", &self.site())
            .field("correlation", &self.correlation())
            .finish_non_exhaustive()
    }
}

impl<'a> CallbackData<'a> {
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

    /// The domain: the SDK's tracing kind.
    #[doc(alias = "kind")]
    pub fn domain(&self) -> CallbackDomain {
        CallbackDomain(self.raw.kind.0)
    }

    /// The domain and the operation.
    pub fn id(&self) -> CallbackId {
        CallbackId::new(self.domain(), self.operation())
    }

    /// The operation (an API function, a dispatch stage, a copy direction).
    pub fn operation(&self) -> Operation {
        Operation(self.raw.operation)
    }

    /// The traced function (the operation's name as the library reports it: `"hipMalloc"`), the
    /// name every vendor crate's `CallbackData::function_name` has.
    pub fn function_name(&self) -> Option<&str> {
        self.names.get(self.operation()).map(|s| &**s)
    }

    /// The old name of [`function_name`](Self::function_name).
    #[deprecated(note = "renamed `function_name`, the name in every vendor crate")]
    pub fn operation_name(&self) -> Option<&str> {
        self.function_name()
    }

    /// ENTER, EXIT, or NONE: the SDK's phase.
    #[doc(alias = "phase")]
    pub fn site(&self) -> CallbackSite {
        CallbackSite(self.raw.phase.0)
    }

    /// Whether this is the ENTER callback.
    pub fn is_enter(&self) -> bool {
        self.site().is_enter()
    }

    /// Whether this is the EXIT callback.
    pub fn is_exit(&self) -> bool {
        self.site().is_exit()
    }

    /// This call's entry/exit slot, the SDK's own `rocprofiler_user_data_t` (per call, per
    /// context): zero at ENTER, and at EXIT whatever ENTER stored.
    #[doc(alias = "rocprofiler_user_data_t")]
    pub fn correlation_slot(&self) -> CorrelationSlot<'a> {
        self.slot
    }

    /// The SDK's record, valid only during the callback.
    pub fn raw(&self) -> &'a sys::rocprofiler_callback_tracing_record_t {
        self.raw
    }

    /// For KERNEL_DISPATCH records: the dispatch (times are 0 at ENQUEUE). COMPLETE (site NONE)
    /// comes on HSA's async-signal thread after the kernel ran, to the contexts active when it
    /// was enqueued, and only when the SDK could read the kernel's timing.
    pub fn kernel_dispatch(&self) -> Option<KernelDispatch> {
        if self.domain() != CallbackDomain::KERNEL_DISPATCH || self.raw.payload.is_null() {
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

    /// For MEMORY_COPY records: the copy (ENTER at submit with times 0; EXIT at completion, on
    /// HSA's async-signal thread).
    pub fn memory_copy(&self) -> Option<MemoryCopy> {
        if self.domain() != CallbackDomain::MEMORY_COPY || self.raw.payload.is_null() {
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
        if self.domain() != CallbackDomain::CODE_OBJECT
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
        if self.domain() != CallbackDomain::MARKER_CORE_API {
            return None;
        }
        self.arguments().into_iter().find(|(n, _, _)| n == "message").map(|(_, _, v)| v)
    }
}
