//! Ids and enums as newtypes over the raw integers: named constants for the known values, any
//! other value representable (the SDK's enums grow).

use rocprofiler_sys::{
    rocprofiler_buffer_tracing_kind_t as BK, rocprofiler_callback_phase_t as PH,
    rocprofiler_callback_tracing_kind_t as CK,
};

macro_rules! kinds {
    ($(#[$m:meta])* $name:ident($raw:ty) from $sys:ident { $( $(#[$d:meta])* $c:ident = $v:ident, )* }) => {
        $(#[$m])*
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub $raw);
        impl $name {
            $( $(#[$d])* pub const $c: $name = $name($sys::$v.0); )*
            /// Every value this crate knows, in numeric order.
            pub const KNOWN: &'static [$name] = &[$($name::$c),*];
            /// The raw value.
            pub const fn raw(self) -> $raw { self.0 }
            /// The constant's name, for a known value.
            pub fn const_name(self) -> Option<&'static str> {
                match self { $( $name::$c => Some(stringify!($c)), )* _ => None }
            }
        }
    };
}

kinds! {
    /// A callback tracing kind (`rocprofiler_callback_tracing_kind_t`).
    CallbackKind(u32) from CK {
        /// HSA core API calls.
        HSA_CORE_API = ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
        /// HSA AMD extension API calls.
        HSA_AMD_EXT_API = ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API,
        /// HSA image extension API calls.
        HSA_IMAGE_EXT_API = ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API,
        /// HSA finalizer extension API calls.
        HSA_FINALIZE_EXT_API = ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API,
        /// HIP runtime API calls.
        HIP_RUNTIME_API = ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
        /// HIP compiler-generated API calls.
        HIP_COMPILER_API = ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API,
        /// roctx marker calls (mark, range push/pop, start/stop).
        MARKER_CORE_API = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
        /// roctx control calls.
        MARKER_CONTROL_API = ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API,
        /// roctx naming calls.
        MARKER_NAME_API = ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API,
        /// Code object loads and kernel symbol registration (kernel names).
        CODE_OBJECT = ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
        /// Scratch memory events.
        SCRATCH_MEMORY = ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY,
        /// Kernel dispatch enqueue and completion.
        KERNEL_DISPATCH = ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
        /// Memory copies.
        MEMORY_COPY = ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,
        /// RCCL API calls.
        RCCL_API = ROCPROFILER_CALLBACK_TRACING_RCCL_API,
        /// OpenMP tools events.
        OMPT = ROCPROFILER_CALLBACK_TRACING_OMPT,
        /// Memory allocations.
        MEMORY_ALLOCATION = ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION,
        /// A runtime library finished initializing.
        RUNTIME_INITIALIZATION = ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION,
        /// rocDecode API calls.
        ROCDECODE_API = ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API,
        /// rocJPEG API calls.
        ROCJPEG_API = ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API,
        /// HIP stream creation, destruction and selection.
        HIP_STREAM = ROCPROFILER_CALLBACK_TRACING_HIP_STREAM,
        /// roctx range API (newer marker interface).
        MARKER_CORE_RANGE_API = ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API,
    }
}

kinds! {
    /// A buffer tracing kind (`rocprofiler_buffer_tracing_kind_t`); the record's `kind` field.
    BufferKind(u32) from BK {
        /// HSA core API calls.
        HSA_CORE_API = ROCPROFILER_BUFFER_TRACING_HSA_CORE_API,
        /// HSA AMD extension API calls.
        HSA_AMD_EXT_API = ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API,
        /// HSA image extension API calls.
        HSA_IMAGE_EXT_API = ROCPROFILER_BUFFER_TRACING_HSA_IMAGE_EXT_API,
        /// HSA finalizer extension API calls.
        HSA_FINALIZE_EXT_API = ROCPROFILER_BUFFER_TRACING_HSA_FINALIZE_EXT_API,
        /// HIP runtime API calls.
        HIP_RUNTIME_API = ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API,
        /// HIP compiler-generated API calls.
        HIP_COMPILER_API = ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API,
        /// roctx marker calls.
        MARKER_CORE_API = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API,
        /// roctx control calls.
        MARKER_CONTROL_API = ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API,
        /// roctx naming calls.
        MARKER_NAME_API = ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API,
        /// Memory copies.
        MEMORY_COPY = ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
        /// Kernel dispatches (on completion).
        KERNEL_DISPATCH = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
        /// Scratch memory events.
        SCRATCH_MEMORY = ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY,
        /// A correlation id will not be used again.
        CORRELATION_ID_RETIREMENT = ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT,
        /// RCCL API calls.
        RCCL_API = ROCPROFILER_BUFFER_TRACING_RCCL_API,
        /// OpenMP tools events.
        OMPT = ROCPROFILER_BUFFER_TRACING_OMPT,
        /// Memory allocations.
        MEMORY_ALLOCATION = ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION,
        /// A runtime library finished initializing.
        RUNTIME_INITIALIZATION = ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION,
        /// rocDecode API calls.
        ROCDECODE_API = ROCPROFILER_BUFFER_TRACING_ROCDECODE_API,
        /// rocJPEG API calls.
        ROCJPEG_API = ROCPROFILER_BUFFER_TRACING_ROCJPEG_API,
        /// HIP stream events.
        HIP_STREAM = ROCPROFILER_BUFFER_TRACING_HIP_STREAM,
        /// HIP runtime API calls with arguments.
        HIP_RUNTIME_API_EXT = ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT,
        /// HIP compiler API calls with arguments.
        HIP_COMPILER_API_EXT = ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT,
        /// rocDecode API calls with arguments.
        ROCDECODE_API_EXT = ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT,
        /// KFD page migration events.
        KFD_EVENT_PAGE_MIGRATE = ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_MIGRATE,
        /// KFD page fault events.
        KFD_EVENT_PAGE_FAULT = ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_FAULT,
        /// KFD queue events.
        KFD_EVENT_QUEUE = ROCPROFILER_BUFFER_TRACING_KFD_EVENT_QUEUE,
        /// KFD unmap events.
        KFD_EVENT_UNMAP_FROM_GPU = ROCPROFILER_BUFFER_TRACING_KFD_EVENT_UNMAP_FROM_GPU,
        /// KFD dropped events.
        KFD_EVENT_DROPPED_EVENTS = ROCPROFILER_BUFFER_TRACING_KFD_EVENT_DROPPED_EVENTS,
        /// KFD page migrations (ranges).
        KFD_PAGE_MIGRATE = ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE,
        /// KFD page faults (ranges).
        KFD_PAGE_FAULT = ROCPROFILER_BUFFER_TRACING_KFD_PAGE_FAULT,
        /// KFD queue events (ranges).
        KFD_QUEUE = ROCPROFILER_BUFFER_TRACING_KFD_QUEUE,
        /// roctx range API.
        MARKER_CORE_RANGE_API = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
    }
}

kinds! {
    /// Where in a traced call a callback runs (`rocprofiler_callback_phase_t`).
    Phase(u32) from PH {
        /// Events without a phase (completions).
        NONE = ROCPROFILER_CALLBACK_PHASE_NONE,
        /// Before the call (also: code object load).
        ENTER = ROCPROFILER_CALLBACK_PHASE_ENTER,
        /// After the call (also: code object unload).
        EXIT = ROCPROFILER_CALLBACK_PHASE_EXIT,
    }
}

/// An operation within a tracing kind (an API function, a copy direction, ...). Its meaning
/// depends on the kind and, for HIP, on the HIP version: use the names the library reports.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Operation(pub i32);

macro_rules! handle {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub u64);
    };
}

handle!(
    /// An agent (CPU or GPU) as the SDK identifies it.
    AgentId
);
handle!(
    /// A hardware or derived counter.
    CounterId
);
handle!(
    /// A kernel (from code-object symbol registration).
    KernelId
);

/// Correlation ids of a traced call or of the asynchronous work it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Correlation {
    /// The SDK's id, shared by a call's ENTER, EXIT, its buffer record, and the kernels and
    /// copies it started.
    pub internal: u64,
    /// The tool-provided external id (0 when none).
    pub external: u64,
    /// The enclosing call's internal id (0 when none).
    pub ancestor: u64,
}

/// What a full buffer does with a new record (`rocprofiler_buffer_policy_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferPolicy {
    /// Drop the record and count it (the count reaches the consumer as dropped records).
    Discard,
    /// Flush the buffer and wait for room: nothing is lost, the producing thread may wait.
    Lossless,
}
