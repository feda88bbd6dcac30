//! [`CallbackDomain`]: the SDK's callback tracing kind.

use rocprofiler_sys::rocprofiler_callback_tracing_kind_t as Sys;

accelprof_core::id_newtype! {
    /// A callback domain: the SDK's *callback tracing kind* (`rocprofiler_callback_tracing_kind_t`),
    /// the family of calls or events a callback tracing service traces.
    #[doc(alias = "rocprofiler_callback_tracing_kind_t")]
    #[doc(alias = "tracing kind")]
    #[doc(alias = "CallbackKind")]
    pub struct CallbackDomain(pub u32) from Sys {
        /// HSA core API calls.
        HSA_CORE_API = Sys::ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API.0;
        /// HSA AMD extension API calls.
        HSA_AMD_EXT_API = Sys::ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API.0;
        /// HSA image extension API calls.
        HSA_IMAGE_EXT_API = Sys::ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API.0;
        /// HSA finalizer extension API calls.
        HSA_FINALIZE_EXT_API = Sys::ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API.0;
        /// HIP runtime API calls.
        HIP_RUNTIME_API = Sys::ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API.0;
        /// HIP compiler-generated API calls.
        HIP_COMPILER_API = Sys::ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API.0;
        /// roctx marker calls (mark, range push/pop, start/stop).
        MARKER_CORE_API = Sys::ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API.0;
        /// roctx control calls.
        MARKER_CONTROL_API = Sys::ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API.0;
        /// roctx naming calls.
        MARKER_NAME_API = Sys::ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API.0;
        /// Code object loads and kernel symbol registration (kernel names).
        CODE_OBJECT = Sys::ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT.0;
        /// Scratch memory events.
        SCRATCH_MEMORY = Sys::ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY.0;
        /// Kernel dispatch enqueue and completion.
        KERNEL_DISPATCH = Sys::ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH.0;
        /// Memory copies.
        MEMORY_COPY = Sys::ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY.0;
        /// RCCL API calls.
        RCCL_API = Sys::ROCPROFILER_CALLBACK_TRACING_RCCL_API.0;
        /// OpenMP tools events.
        OMPT = Sys::ROCPROFILER_CALLBACK_TRACING_OMPT.0;
        /// Memory allocations.
        MEMORY_ALLOCATION = Sys::ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION.0;
        /// A runtime library finished initializing.
        RUNTIME_INITIALIZATION = Sys::ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION.0;
        /// rocDecode API calls.
        ROCDECODE_API = Sys::ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API.0;
        /// rocJPEG API calls.
        ROCJPEG_API = Sys::ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API.0;
        /// HIP stream creation, destruction and selection.
        HIP_STREAM = Sys::ROCPROFILER_CALLBACK_TRACING_HIP_STREAM.0;
        /// roctx range API (newer marker interface).
        MARKER_CORE_RANGE_API = Sys::ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API.0;
    }
}

impl CallbackDomain {
    /// The runtime's domain under the name every vendor crate gives it
    /// ([`CallbackDomain::HIP_RUNTIME_API`]).
    pub const RUNTIME_API: CallbackDomain = CallbackDomain::HIP_RUNTIME_API;
}
