//! Names: tracing kinds, their operations, and status codes.
//!
//! Operation ids are the mock's own numbering for the API domains (the real numbering of HIP
//! operations changes with the HIP version, which is why tools must look names up).

use std::ffi::c_char;
use std::sync::atomic::{AtomicU32, Ordering};

/// Callback tracing kinds, index = value (`ROCPROFILER_CALLBACK_TRACING_*`).
pub const CALLBACK_KINDS: &[&str] = &[
    "NONE\0",
    "HSA_CORE_API\0",
    "HSA_AMD_EXT_API\0",
    "HSA_IMAGE_EXT_API\0",
    "HSA_FINALIZE_EXT_API\0",
    "HIP_RUNTIME_API\0",
    "HIP_COMPILER_API\0",
    "MARKER_CORE_API\0",
    "MARKER_CONTROL_API\0",
    "MARKER_NAME_API\0",
    "CODE_OBJECT\0",
    "SCRATCH_MEMORY\0",
    "KERNEL_DISPATCH\0",
    "MEMORY_COPY\0",
    "RCCL_API\0",
    "OMPT\0",
    "MEMORY_ALLOCATION\0",
    "RUNTIME_INITIALIZATION\0",
    "ROCDECODE_API\0",
    "ROCJPEG_API\0",
    "HIP_STREAM\0",
    "MARKER_CORE_RANGE_API\0",
];

/// Buffer tracing kinds, index = value (`ROCPROFILER_BUFFER_TRACING_*`).
pub const BUFFER_KINDS: &[&str] = &[
    "NONE\0",
    "HSA_CORE_API\0",
    "HSA_AMD_EXT_API\0",
    "HSA_IMAGE_EXT_API\0",
    "HSA_FINALIZE_EXT_API\0",
    "HIP_RUNTIME_API\0",
    "HIP_COMPILER_API\0",
    "MARKER_CORE_API\0",
    "MARKER_CONTROL_API\0",
    "MARKER_NAME_API\0",
    "MEMORY_COPY\0",
    "KERNEL_DISPATCH\0",
    "SCRATCH_MEMORY\0",
    "CORRELATION_ID_RETIREMENT\0",
    "RCCL_API\0",
    "OMPT\0",
    "MEMORY_ALLOCATION\0",
    "RUNTIME_INITIALIZATION\0",
    "ROCDECODE_API\0",
    "ROCJPEG_API\0",
    "HIP_STREAM\0",
    "HIP_RUNTIME_API_EXT\0",
    "HIP_COMPILER_API_EXT\0",
    "ROCDECODE_API_EXT\0",
    "KFD_EVENT_PAGE_MIGRATE\0",
    "KFD_EVENT_PAGE_FAULT\0",
    "KFD_EVENT_QUEUE\0",
    "KFD_EVENT_UNMAP_FROM_GPU\0",
    "KFD_EVENT_DROPPED_EVENTS\0",
    "KFD_PAGE_MIGRATE\0",
    "KFD_PAGE_FAULT\0",
    "KFD_QUEUE\0",
    "MARKER_CORE_RANGE_API\0",
];

/// An operation table: names by operation id; `""` marks an id without a name (`NONE`).
pub type Ops = &'static [&'static str];

const HSA_CORE: Ops = &[
    "hsa_init\0",
    "hsa_shut_down\0",
    "hsa_system_get_info\0",
    "hsa_agent_get_info\0",
    "hsa_queue_create\0",
    "hsa_queue_destroy\0",
    "hsa_signal_create\0",
    "hsa_signal_wait_scacquire\0",
];
const HSA_AMD_EXT: Ops = &[
    "hsa_amd_memory_pool_allocate\0",
    "hsa_amd_memory_pool_free\0",
    "hsa_amd_memory_async_copy\0",
    "hsa_amd_agents_allow_access\0",
];
const HSA_IMAGE: Ops = &["hsa_ext_image_create\0", "hsa_ext_image_destroy\0"];
const HSA_FINALIZE: Ops = &["hsa_ext_program_create\0", "hsa_ext_program_destroy\0"];
/// HIP runtime operations (mock numbering).
pub const HIP_RUNTIME: Ops = &[
    "hipApiName\0",
    "hipMalloc\0",
    "hipFree\0",
    "hipMemcpy\0",
    "hipMemcpyAsync\0",
    "hipLaunchKernel\0",
    "hipDeviceSynchronize\0",
    "hipStreamCreate\0",
    "hipStreamDestroy\0",
    "hipSetDevice\0",
    "hipGetDeviceCount\0",
    "hipModuleLaunchKernel\0",
];
const HIP_COMPILER: Ops = &[
    "__hipPopCallConfiguration\0",
    "__hipPushCallConfiguration\0",
    "__hipRegisterFatBinary\0",
    "__hipRegisterFunction\0",
];
/// Marker core operations, numbered as `rocprofiler_marker_core_api_id_t`.
pub const MARKER_CORE: Ops = &[
    "roctxMarkA\0",
    "roctxRangePushA\0",
    "roctxRangePop\0",
    "roctxRangeStartA\0",
    "roctxRangeStop\0",
    "roctxGetThreadId\0",
];
const MARKER_CONTROL: Ops = &["roctxProfilerPause\0", "roctxProfilerResume\0"];
const MARKER_NAME: Ops =
    &["roctxNameOsThread\0", "roctxNameHsaAgent\0", "roctxNameHipDevice\0", "roctxNameHipStream\0"];
const CODE_OBJECT: Ops = &[
    "",
    "CODE_OBJECT_LOAD\0",
    "CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER\0",
    "CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER\0",
];
const SCRATCH: Ops =
    &["", "SCRATCH_MEMORY_ALLOC\0", "SCRATCH_MEMORY_FREE\0", "SCRATCH_MEMORY_ASYNC_RECLAIM\0"];
const KERNEL_DISPATCH: Ops = &["", "KERNEL_DISPATCH_ENQUEUE\0", "KERNEL_DISPATCH_COMPLETE\0"];
const MEMORY_COPY: Ops = &[
    "",
    "MEMORY_COPY_HOST_TO_HOST\0",
    "MEMORY_COPY_HOST_TO_DEVICE\0",
    "MEMORY_COPY_DEVICE_TO_HOST\0",
    "MEMORY_COPY_DEVICE_TO_DEVICE\0",
];
const RCCL: Ops = &["ncclAllReduce\0", "ncclBroadcast\0", "ncclAllGather\0", "ncclReduceScatter\0"];
const OMPT: Ops = &["omp_parallel_begin\0", "omp_parallel_end\0", "omp_target_submit\0"];
const MEMORY_ALLOCATION: Ops = &[
    "",
    "MEMORY_ALLOCATION_ALLOCATE\0",
    "MEMORY_ALLOCATION_VMEM_ALLOCATE\0",
    "MEMORY_ALLOCATION_FREE\0",
    "MEMORY_ALLOCATION_VMEM_FREE\0",
];
const RUNTIME_INIT: Ops = &[
    "",
    "RUNTIME_INITIALIZATION_HSA\0",
    "RUNTIME_INITIALIZATION_HIP\0",
    "RUNTIME_INITIALIZATION_MARKER\0",
    "RUNTIME_INITIALIZATION_RCCL\0",
    "RUNTIME_INITIALIZATION_ROCDECODE\0",
    "RUNTIME_INITIALIZATION_ROCJPEG\0",
];
const ROCDECODE: Ops = &["rocDecCreateVideoParser\0", "rocDecParseVideoData\0", "rocDecDecodeFrame\0"];
const ROCJPEG: Ops = &["rocJpegStreamCreate\0", "rocJpegDecode\0"];
const HIP_STREAM: Ops = &["", "HIP_STREAM_CREATE\0", "HIP_STREAM_DESTROY\0", "HIP_STREAM_SET\0"];
const MARKER_RANGE: Ops =
    &["roctxMarkA\0", "roctxThreadRangeA\0", "roctxProcessRangeA\0", "roctxGetThreadId\0"];
const RETIREMENT: Ops = &[""];
const KFD_MIGRATE: Ops = &["", "PAGE_MIGRATE_PREFETCH\0", "PAGE_MIGRATE_PAGEFAULT_GPU\0"];
const KFD_FAULT: Ops = &["", "PAGE_FAULT_START_READ_FAULT\0", "PAGE_FAULT_START_WRITE_FAULT\0"];
const KFD_QUEUE: Ops = &["", "QUEUE_EVICTION\0", "QUEUE_RESTORE\0"];
const KFD_UNMAP: Ops = &["", "UNMAP_FROM_GPU_MMU_NOTIFY\0"];
const KFD_DROPPED: Ops = &["", "DROPPED_EVENTS\0"];

/// Operations of a callback tracing kind.
pub fn callback_ops(kind: u32) -> Option<Ops> {
    Some(match kind {
        1 => HSA_CORE,
        2 => HSA_AMD_EXT,
        3 => HSA_IMAGE,
        4 => HSA_FINALIZE,
        5 => HIP_RUNTIME,
        6 => HIP_COMPILER,
        7 => MARKER_CORE,
        8 => MARKER_CONTROL,
        9 => MARKER_NAME,
        10 => CODE_OBJECT,
        11 => SCRATCH,
        12 => KERNEL_DISPATCH,
        13 => MEMORY_COPY,
        14 => RCCL,
        15 => OMPT,
        16 => MEMORY_ALLOCATION,
        17 => RUNTIME_INIT,
        18 => ROCDECODE,
        19 => ROCJPEG,
        20 => HIP_STREAM,
        21 => MARKER_RANGE,
        _ => return None,
    })
}

/// Operations of a buffer tracing kind.
pub fn buffer_ops(kind: u32) -> Option<Ops> {
    Some(match kind {
        1..=9 => return callback_ops(kind),
        10 => MEMORY_COPY,
        11 => KERNEL_DISPATCH,
        12 => SCRATCH,
        13 => RETIREMENT,
        14 => RCCL,
        15 => OMPT,
        16 => MEMORY_ALLOCATION,
        17 => RUNTIME_INIT,
        18 => ROCDECODE,
        19 => ROCJPEG,
        20 => HIP_STREAM,
        21 => HIP_RUNTIME,
        22 => HIP_COMPILER,
        23 => ROCDECODE,
        24 => KFD_MIGRATE,
        25 => KFD_FAULT,
        26 => KFD_QUEUE,
        27 => KFD_UNMAP,
        28 => KFD_DROPPED,
        29 => KFD_MIGRATE,
        30 => KFD_FAULT,
        31 => KFD_QUEUE,
        32 => MARKER_RANGE,
        _ => return None,
    })
}

/// The buffer tracing kind that records what a callback tracing kind reports (API domains
/// share their numbers; the others differ).
pub fn buffer_kind_of(callback_kind: u32) -> Option<u32> {
    match callback_kind {
        1..=9 => Some(callback_kind),
        12 => Some(11),
        13 => Some(10),
        14 => Some(14),
        _ => None,
    }
}

/// Name of `op` in `ops`: pointer and length without the NUL, or `None`.
pub fn op_name(ops: Ops, op: i32) -> Option<(*const c_char, u64)> {
    let name = *ops.get(usize::try_from(op).ok()?)?;
    if name.is_empty() {
        return None;
    }
    Some((name.as_ptr() as *const c_char, name.len() as u64 - 1))
}

/// Name of a kind in a kind table (NONE included: the SDK names it).
pub fn kind_name(kinds: &[&'static str], kind: u32) -> Option<(*const c_char, u64)> {
    let name = *kinds.get(kind as usize)?;
    Some((name.as_ptr() as *const c_char, name.len() as u64 - 1))
}

const STATUS: &[(&str, &str)] = &[
    ("ROCPROFILER_STATUS_SUCCESS\0", "success\0"),
    ("ROCPROFILER_STATUS_ERROR\0", "general error\0"),
    ("ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND\0", "no context with this id\0"),
    ("ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND\0", "no buffer with this id\0"),
    ("ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND\0", "unknown tracing kind\0"),
    ("ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND\0", "unknown operation for this kind\0"),
    ("ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND\0", "no thread with this id\0"),
    ("ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND\0", "no agent with this id\0"),
    ("ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND\0", "no counter with this id\0"),
    ("ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR\0", "context error\0"),
    ("ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID\0", "context is not valid\0"),
    ("ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED\0", "context could not be started\0"),
    ("ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT\0", "context conflicts with an active context\0"),
    ("ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO\0", "context id must be zero on entry\0"),
    ("ROCPROFILER_STATUS_ERROR_BUFFER_BUSY\0", "buffer is busy\0"),
    ("ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED\0", "service already configured\0"),
    ("ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED\0", "only valid while tools are being configured\0"),
    ("ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED\0", "not implemented\0"),
    ("ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI\0", "incompatible structure size\0"),
    ("ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT\0", "invalid argument\0"),
    ("ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT\0", "metric not valid for agent\0"),
    ("ROCPROFILER_STATUS_ERROR_FINALIZED\0", "already finalized\0"),
    ("ROCPROFILER_STATUS_ERROR_HSA_NOT_LOADED\0", "HSA not loaded\0"),
    ("ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND\0", "dimension not found\0"),
    ("ROCPROFILER_STATUS_ERROR_PROFILE_COUNTER_NOT_FOUND\0", "counter not in profile\0"),
    ("ROCPROFILER_STATUS_ERROR_AST_GENERATION_FAILED\0", "AST generation failed\0"),
    ("ROCPROFILER_STATUS_ERROR_AST_NOT_FOUND\0", "AST not found\0"),
    ("ROCPROFILER_STATUS_ERROR_AQL_NO_EVENT_COORD\0", "no event coordinate\0"),
    ("ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_KERNEL\0", "kernel driver too old\0"),
    ("ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES\0", "out of resources\0"),
    ("ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND\0", "no counter config with this id\0"),
    ("ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT\0", "agent and dispatch counting conflict\0"),
    ("ROCPROFILER_STATUS_INTERNAL_NO_AGENT_CONTEXT\0", "no agent context\0"),
    ("ROCPROFILER_STATUS_ERROR_SAMPLE_RATE_EXCEEDED\0", "sample rate exceeded\0"),
    ("ROCPROFILER_STATUS_ERROR_NO_PROFILE_QUEUE\0", "profile queue creation failed\0"),
    ("ROCPROFILER_STATUS_ERROR_NO_HARDWARE_COUNTERS\0", "no hardware counters\0"),
    ("ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH\0", "agent mismatch\0"),
    ("ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE\0", "service not available\0"),
    ("ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT\0", "exceeds hardware limits\0"),
    ("ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED\0", "agent architecture not supported\0"),
    ("ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED\0", "permission denied\0"),
    (
        "ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION\0",
        "rocprofiler-register version is incompatible; late-start profiling requires ROCm 7.0+\0",
    ),
];

static STATUS_LAST: AtomicU32 = AtomicU32::new(0);

/// Value of `ROCPROFILER_STATUS_LAST` this mock pretends to be built with.
pub fn status_last() -> u32 {
    match STATUS_LAST.load(Ordering::Relaxed) {
        0 => STATUS.len() as u32,
        n => n.min(STATUS.len() as u32),
    }
}

pub fn set_status_last(last: u32) {
    STATUS_LAST.store(last, Ordering::Relaxed);
}

pub fn status_name(status: u32) -> *const c_char {
    if status >= status_last() {
        return std::ptr::null();
    }
    STATUS[status as usize].0.as_ptr() as *const c_char
}

pub fn status_string(status: u32) -> *const c_char {
    if status >= status_last() {
        return std::ptr::null();
    }
    STATUS[status as usize].1.as_ptr() as *const c_char
}
