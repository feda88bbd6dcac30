//! Runtime-domain callback ids (`msptiCallbackIdRuntime`, 0..=36 in `mspti_cbid.h`).

use mspti_sys as sys;

use super::{CallbackDomain, CallbackId};

accelprof_core::id_newtype! {
    /// A callback id of the RUNTIME domain (`msptiCallbackIdRuntime`): which `aclrt*` function a
    /// callback is about. Any `u32` is representable; [`RuntimeCbid::name`] knows the header's.
    #[doc(alias = "msptiCallbackIdRuntime")]
    #[derive(Default)]
    pub struct RuntimeCbid(pub u32) from sys::msptiCallbackIdRuntime, in CallbackDomain::RUNTIME => CallbackId {
        /// `MSPTI_CBID_RUNTIME_INVALID` (0).
        INVALID = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_INVALID.0;
        /// `MSPTI_CBID_RUNTIME_DEVICE_SET` (1).
        DEVICE_SET = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_DEVICE_SET.0;
        /// `MSPTI_CBID_RUNTIME_DEVICE_RESET` (2).
        DEVICE_RESET = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_DEVICE_RESET.0;
        /// `MSPTI_CBID_RUNTIME_DEVICE_SET_EX` (3).
        DEVICE_SET_EX = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_DEVICE_SET_EX.0;
        /// `MSPTI_CBID_RUNTIME_CONTEXT_CREATED_EX` (4).
        CONTEXT_CREATED_EX = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_CONTEXT_CREATED_EX.0;
        /// `MSPTI_CBID_RUNTIME_CONTEXT_CREATED` (5).
        CONTEXT_CREATED = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_CONTEXT_CREATED.0;
        /// `MSPTI_CBID_RUNTIME_CONTEXT_DESTROY` (6).
        CONTEXT_DESTROY = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_CONTEXT_DESTROY.0;
        /// `MSPTI_CBID_RUNTIME_STREAM_CREATED` (7).
        STREAM_CREATED = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_STREAM_CREATED.0;
        /// `MSPTI_CBID_RUNTIME_STREAM_DESTROY` (8).
        STREAM_DESTROY = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_STREAM_DESTROY.0;
        /// `MSPTI_CBID_RUNTIME_STREAM_SYNCHRONIZED` (9).
        STREAM_SYNCHRONIZED = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_STREAM_SYNCHRONIZED.0;
        /// `MSPTI_CBID_RUNTIME_LAUNCH` (10).
        LAUNCH = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_LAUNCH.0;
        /// `MSPTI_CBID_RUNTIME_CPU_LAUNCH` (11).
        CPU_LAUNCH = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_CPU_LAUNCH.0;
        /// `MSPTI_CBID_RUNTIME_AICPU_LAUNCH` (12).
        AICPU_LAUNCH = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_AICPU_LAUNCH.0;
        /// `MSPTI_CBID_RUNTIME_AIV_LAUNCH` (13).
        AIV_LAUNCH = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_AIV_LAUNCH.0;
        /// `MSPTI_CBID_RUNTIME_FFTS_LAUNCH` (14).
        FFTS_LAUNCH = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_FFTS_LAUNCH.0;
        /// `MSPTI_CBID_RUNTIME_MALLOC` (15).
        MALLOC = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MALLOC.0;
        /// `MSPTI_CBID_RUNTIME_FREE` (16).
        FREE = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_FREE.0;
        /// `MSPTI_CBID_RUNTIME_MALLOC_HOST` (17).
        MALLOC_HOST = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MALLOC_HOST.0;
        /// `MSPTI_CBID_RUNTIME_FREE_HOST` (18).
        FREE_HOST = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_FREE_HOST.0;
        /// `MSPTI_CBID_RUNTIME_MALLOC_CACHED` (19).
        MALLOC_CACHED = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MALLOC_CACHED.0;
        /// `MSPTI_CBID_RUNTIME_FLUSH_CACHE` (20).
        FLUSH_CACHE = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_FLUSH_CACHE.0;
        /// `MSPTI_CBID_RUNTIME_INVALID_CACHE` (21).
        INVALID_CACHE = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_INVALID_CACHE.0;
        /// `MSPTI_CBID_RUNTIME_MEMCPY` (22).
        MEMCPY = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEMCPY.0;
        /// `MSPTI_CBID_RUNTIME_MEMCPY_HOST` (23).
        MEMCPY_HOST = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEMCPY_HOST.0;
        /// `MSPTI_CBID_RUNTIME_MEMCPY_ASYNC` (24).
        MEMCPY_ASYNC = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEMCPY_ASYNC.0;
        /// `MSPTI_CBID_RUNTIME_MEM_CPY2D` (25).
        MEM_CPY2D = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEM_CPY2D.0;
        /// `MSPTI_CBID_RUNTIME_MEM_CPY2D_ASYNC` (26).
        MEM_CPY2D_ASYNC = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEM_CPY2D_ASYNC.0;
        /// `MSPTI_CBID_RUNTIME_MEM_SET` (27).
        MEM_SET = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEM_SET.0;
        /// `MSPTI_CBID_RUNTIME_MEM_SET_ASYNC` (28).
        MEM_SET_ASYNC = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEM_SET_ASYNC.0;
        /// `MSPTI_CBID_RUNTIME_MEM_GET_INFO` (29).
        MEM_GET_INFO = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEM_GET_INFO.0;
        /// `MSPTI_CBID_RUNTIME_RESERVE_MEM_ADDRESS` (30).
        RESERVE_MEM_ADDRESS = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_RESERVE_MEM_ADDRESS.0;
        /// `MSPTI_CBID_RUNTIME_RELEASE_MEM_ADDRESS` (31).
        RELEASE_MEM_ADDRESS = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_RELEASE_MEM_ADDRESS.0;
        /// `MSPTI_CBID_RUNTIME_MALLOC_PHYSICAL` (32).
        MALLOC_PHYSICAL = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MALLOC_PHYSICAL.0;
        /// `MSPTI_CBID_RUNTIME_FREE_PHYSICAL` (33).
        FREE_PHYSICAL = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_FREE_PHYSICAL.0;
        /// `MSPTI_CBID_RUNTIME_MEM_EXPORT_TO_SHAREABLE_HANDLE` (34).
        MEM_EXPORT_TO_SHAREABLE_HANDLE = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEM_EXPORT_TO_SHAREABLE_HANDLE.0;
        /// `MSPTI_CBID_RUNTIME_MEM_IMPORT_FROM_SHAREABLE_HANDLE` (35).
        MEM_IMPORT_FROM_SHAREABLE_HANDLE = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEM_IMPORT_FROM_SHAREABLE_HANDLE.0;
        /// `MSPTI_CBID_RUNTIME_MEM_SET_PID_TO_SHAREABLE_HANDLE` (36).
        MEM_SET_PID_TO_SHAREABLE_HANDLE = sys::msptiCallbackIdRuntime::MSPTI_CBID_RUNTIME_MEM_SET_PID_TO_SHAREABLE_HANDLE.0;
    }
}
