//! [`BufferKind`]: the SDK's buffer tracing kind, which is what a rocprofiler [`ActivityKind`] is; and
//! [`ActivityKinds`], a set of them.

use rocprofiler_sys::rocprofiler_buffer_tracing_kind_t as Sys;

accelprof_core::id_newtype! {
    /// A buffer tracing kind (`rocprofiler_buffer_tracing_kind_t`); the record's `kind` field.
    #[doc(alias = "rocprofiler_buffer_tracing_kind_t")]
    pub struct BufferKind(pub u32) from Sys {
        /// HSA core API calls.
        HSA_CORE_API = Sys::ROCPROFILER_BUFFER_TRACING_HSA_CORE_API.0;
        /// HSA AMD extension API calls.
        HSA_AMD_EXT_API = Sys::ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API.0;
        /// HSA image extension API calls.
        HSA_IMAGE_EXT_API = Sys::ROCPROFILER_BUFFER_TRACING_HSA_IMAGE_EXT_API.0;
        /// HSA finalizer extension API calls.
        HSA_FINALIZE_EXT_API = Sys::ROCPROFILER_BUFFER_TRACING_HSA_FINALIZE_EXT_API.0;
        /// HIP runtime API calls.
        HIP_RUNTIME_API = Sys::ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API.0;
        /// HIP compiler-generated API calls.
        HIP_COMPILER_API = Sys::ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API.0;
        /// roctx marker calls.
        MARKER_CORE_API = Sys::ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API.0;
        /// roctx control calls.
        MARKER_CONTROL_API = Sys::ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API.0;
        /// roctx naming calls.
        MARKER_NAME_API = Sys::ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API.0;
        /// Memory copies.
        MEMORY_COPY = Sys::ROCPROFILER_BUFFER_TRACING_MEMORY_COPY.0;
        /// Kernel dispatches (on completion).
        KERNEL_DISPATCH = Sys::ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH.0;
        /// Scratch memory events.
        SCRATCH_MEMORY = Sys::ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY.0;
        /// A correlation id will not be used again.
        CORRELATION_ID_RETIREMENT = Sys::ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT.0;
        /// RCCL API calls.
        RCCL_API = Sys::ROCPROFILER_BUFFER_TRACING_RCCL_API.0;
        /// OpenMP tools events.
        OMPT = Sys::ROCPROFILER_BUFFER_TRACING_OMPT.0;
        /// Memory allocations.
        MEMORY_ALLOCATION = Sys::ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION.0;
        /// A runtime library finished initializing.
        RUNTIME_INITIALIZATION = Sys::ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION.0;
        /// rocDecode API calls.
        ROCDECODE_API = Sys::ROCPROFILER_BUFFER_TRACING_ROCDECODE_API.0;
        /// rocJPEG API calls.
        ROCJPEG_API = Sys::ROCPROFILER_BUFFER_TRACING_ROCJPEG_API.0;
        /// HIP stream events.
        HIP_STREAM = Sys::ROCPROFILER_BUFFER_TRACING_HIP_STREAM.0;
        /// HIP runtime API calls with arguments.
        HIP_RUNTIME_API_EXT = Sys::ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT.0;
        /// HIP compiler API calls with arguments.
        HIP_COMPILER_API_EXT = Sys::ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT.0;
        /// rocDecode API calls with arguments.
        ROCDECODE_API_EXT = Sys::ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT.0;
        /// KFD page migration events.
        KFD_EVENT_PAGE_MIGRATE = Sys::ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_MIGRATE.0;
        /// KFD page fault events.
        KFD_EVENT_PAGE_FAULT = Sys::ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_FAULT.0;
        /// KFD queue events.
        KFD_EVENT_QUEUE = Sys::ROCPROFILER_BUFFER_TRACING_KFD_EVENT_QUEUE.0;
        /// KFD unmap events.
        KFD_EVENT_UNMAP_FROM_GPU = Sys::ROCPROFILER_BUFFER_TRACING_KFD_EVENT_UNMAP_FROM_GPU.0;
        /// KFD dropped events.
        KFD_EVENT_DROPPED_EVENTS = Sys::ROCPROFILER_BUFFER_TRACING_KFD_EVENT_DROPPED_EVENTS.0;
        /// KFD page migrations (ranges).
        KFD_PAGE_MIGRATE = Sys::ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE.0;
        /// KFD page faults (ranges).
        KFD_PAGE_FAULT = Sys::ROCPROFILER_BUFFER_TRACING_KFD_PAGE_FAULT.0;
        /// KFD queue events (ranges).
        KFD_QUEUE = Sys::ROCPROFILER_BUFFER_TRACING_KFD_QUEUE.0;
        /// roctx range API.
        MARKER_CORE_RANGE_API = Sys::ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API.0;
    }
}

/// A rocprofiler activity kind: a buffer tracing kind (`rocprofiler_buffer_tracing_kind_t`).
pub type ActivityKind = BufferKind;

/// A set of [`ActivityKind`]s, in the order they were added.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ActivityKinds(Vec<ActivityKind>);

impl ActivityKinds {
    /// No kind.
    pub const fn empty() -> Self {
        ActivityKinds(Vec::new())
    }

    /// What a timeline needs, the same families as `cupti`'s and `mspti`'s `ActivityKinds::timeline`
    /// (the default of [`ActivityConfig`](crate::ActivityConfig)): kernel dispatches, memory copies and
    /// HIP runtime calls. rocprofiler-sdk has no memset records (a `hipMemset` runs as a kernel,
    /// recorded as one) and no external-correlation records (its records carry the external id).
    pub fn timeline() -> Self {
        [BufferKind::KERNEL_DISPATCH, BufferKind::MEMORY_COPY, BufferKind::HIP_RUNTIME_API]
            .into_iter()
            .collect()
    }

    /// This set and `kind`.
    pub fn with(mut self, kind: ActivityKind) -> Self {
        self.insert(kind);
        self
    }

    /// Adds `kind`; whether it was not there.
    pub fn insert(&mut self, kind: ActivityKind) -> bool {
        let new = !self.contains(kind);
        if new {
            self.0.push(kind);
        }
        new
    }

    /// Removes `kind`.
    pub fn remove(&mut self, kind: ActivityKind) {
        self.0.retain(|k| *k != kind);
    }

    /// Whether `kind` is in the set.
    pub fn contains(&self, kind: ActivityKind) -> bool {
        self.0.contains(&kind)
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The kinds, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = ActivityKind> + '_ {
        self.0.iter().copied()
    }
}

impl FromIterator<ActivityKind> for ActivityKinds {
    fn from_iter<I: IntoIterator<Item = ActivityKind>>(iter: I) -> Self {
        iter.into_iter().fold(ActivityKinds::empty(), ActivityKinds::with)
    }
}
