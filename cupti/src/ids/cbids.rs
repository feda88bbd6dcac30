// @generated from cupti-sys's generated callback-id enums; do not edit.
// Regenerate: CUPTI_REGENERATE=1 cargo test -p cupti --lib ids::generate

#![allow(non_upper_case_globals)]

use cupti_sys::*;

use super::callback_id::*;

impl DriverCbid {
    /// `CUPTI_DRIVER_TRACE_CBID_cuInit`.
    pub const cuInit: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuInit.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDriverGetVersion`.
    pub const cuDriverGetVersion: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDriverGetVersion.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGet`.
    pub const cuDeviceGet: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGet.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetCount`.
    pub const cuDeviceGetCount: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetCount.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetName`.
    pub const cuDeviceGetName: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetName.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceComputeCapability`.
    pub const cuDeviceComputeCapability: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceComputeCapability.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceTotalMem`.
    pub const cuDeviceTotalMem: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceTotalMem.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetProperties`.
    pub const cuDeviceGetProperties: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetProperties.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetAttribute`.
    pub const cuDeviceGetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxCreate`.
    pub const cuCtxCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy`.
    pub const cuCtxDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxAttach`.
    pub const cuCtxAttach: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxAttach.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxDetach`.
    pub const cuCtxDetach: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxDetach.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent`.
    pub const cuCtxPushCurrent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent`.
    pub const cuCtxPopCurrent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice`.
    pub const cuCtxGetDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize`.
    pub const cuCtxSynchronize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleLoad`.
    pub const cuModuleLoad: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleLoad.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData`.
    pub const cuModuleLoadData: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx`.
    pub const cuModuleLoadDataEx: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary`.
    pub const cuModuleLoadFatBinary: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleUnload`.
    pub const cuModuleUnload: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleUnload.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction`.
    pub const cuModuleGetFunction: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal`.
    pub const cuModuleGetGlobal: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64ModuleGetGlobal`.
    pub const cu64ModuleGetGlobal: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64ModuleGetGlobal.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleGetTexRef`.
    pub const cuModuleGetTexRef: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleGetTexRef.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo`.
    pub const cuMemGetInfo: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemGetInfo`.
    pub const cu64MemGetInfo: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemGetInfo.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAlloc`.
    pub const cuMemAlloc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAlloc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemAlloc`.
    pub const cu64MemAlloc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemAlloc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch`.
    pub const cuMemAllocPitch: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemAllocPitch`.
    pub const cu64MemAllocPitch: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemAllocPitch.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemFree`.
    pub const cuMemFree: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemFree.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemFree`.
    pub const cu64MemFree: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemFree.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetAddressRange`.
    pub const cuMemGetAddressRange: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetAddressRange.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemGetAddressRange`.
    pub const cu64MemGetAddressRange: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemGetAddressRange.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost`.
    pub const cuMemAllocHost: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost`.
    pub const cuMemFreeHost: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc`.
    pub const cuMemHostAlloc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemHostGetDevicePointer`.
    pub const cuMemHostGetDevicePointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemHostGetDevicePointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemHostGetDevicePointer`.
    pub const cu64MemHostGetDevicePointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemHostGetDevicePointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemHostGetFlags`.
    pub const cuMemHostGetFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemHostGetFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD`.
    pub const cuMemcpyHtoD: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemcpyHtoD`.
    pub const cu64MemcpyHtoD: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemcpyHtoD.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH`.
    pub const cuMemcpyDtoH: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoH`.
    pub const cu64MemcpyDtoH: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoH.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD`.
    pub const cuMemcpyDtoD: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoD`.
    pub const cu64MemcpyDtoD: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoD.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA`.
    pub const cuMemcpyDtoA: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoA`.
    pub const cu64MemcpyDtoA: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoA.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD`.
    pub const cuMemcpyAtoD: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemcpyAtoD`.
    pub const cu64MemcpyAtoD: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemcpyAtoD.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA`.
    pub const cuMemcpyHtoA: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH`.
    pub const cuMemcpyAtoH: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA`.
    pub const cuMemcpyAtoA: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D`.
    pub const cuMemcpy2D: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned`.
    pub const cuMemcpy2DUnaligned: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D`.
    pub const cuMemcpy3D: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64Memcpy3D`.
    pub const cu64Memcpy3D: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64Memcpy3D.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync`.
    pub const cuMemcpyHtoDAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemcpyHtoDAsync`.
    pub const cu64MemcpyHtoDAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemcpyHtoDAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync`.
    pub const cuMemcpyDtoHAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoHAsync`.
    pub const cu64MemcpyDtoHAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoHAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync`.
    pub const cuMemcpyDtoDAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoDAsync`.
    pub const cu64MemcpyDtoDAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemcpyDtoDAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync`.
    pub const cuMemcpyHtoAAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync`.
    pub const cuMemcpyAtoHAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync`.
    pub const cuMemcpy2DAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync`.
    pub const cuMemcpy3DAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64Memcpy3DAsync`.
    pub const cu64Memcpy3DAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64Memcpy3DAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD8`.
    pub const cuMemsetD8: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD8`.
    pub const cu64MemsetD8: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD8.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD16`.
    pub const cuMemsetD16: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD16`.
    pub const cu64MemsetD16: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD16.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD32`.
    pub const cuMemsetD32: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD32`.
    pub const cu64MemsetD32: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD32.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8`.
    pub const cuMemsetD2D8: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D8`.
    pub const cu64MemsetD2D8: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D8.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16`.
    pub const cuMemsetD2D16: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D16`.
    pub const cu64MemsetD2D16: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D16.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32`.
    pub const cuMemsetD2D32: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D32`.
    pub const cu64MemsetD2D32: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D32.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncSetBlockShape`.
    pub const cuFuncSetBlockShape: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncSetBlockShape.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncSetSharedSize`.
    pub const cuFuncSetSharedSize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncSetSharedSize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncGetAttribute`.
    pub const cuFuncGetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncGetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncSetCacheConfig`.
    pub const cuFuncSetCacheConfig: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncSetCacheConfig.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArrayCreate`.
    pub const cuArrayCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArrayCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArrayGetDescriptor`.
    pub const cuArrayGetDescriptor: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArrayGetDescriptor.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArrayDestroy`.
    pub const cuArrayDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArrayDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate`.
    pub const cuArray3DCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArray3DGetDescriptor`.
    pub const cuArray3DGetDescriptor: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArray3DGetDescriptor.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefCreate`.
    pub const cuTexRefCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefDestroy`.
    pub const cuTexRefDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetArray`.
    pub const cuTexRefSetArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress`.
    pub const cuTexRefSetAddress: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64TexRefSetAddress`.
    pub const cu64TexRefSetAddress: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64TexRefSetAddress.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress2D`.
    pub const cuTexRefSetAddress2D: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress2D.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64TexRefSetAddress2D`.
    pub const cu64TexRefSetAddress2D: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64TexRefSetAddress2D.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetFormat`.
    pub const cuTexRefSetFormat: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetFormat.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddressMode`.
    pub const cuTexRefSetAddressMode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddressMode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetFilterMode`.
    pub const cuTexRefSetFilterMode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetFilterMode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetFlags`.
    pub const cuTexRefSetFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetAddress`.
    pub const cuTexRefGetAddress: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetAddress.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64TexRefGetAddress`.
    pub const cu64TexRefGetAddress: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64TexRefGetAddress.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetArray`.
    pub const cuTexRefGetArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetAddressMode`.
    pub const cuTexRefGetAddressMode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetAddressMode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetFilterMode`.
    pub const cuTexRefGetFilterMode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetFilterMode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetFormat`.
    pub const cuTexRefGetFormat: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetFormat.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetFlags`.
    pub const cuTexRefGetFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuParamSetSize`.
    pub const cuParamSetSize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuParamSetSize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuParamSeti`.
    pub const cuParamSeti: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuParamSeti.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuParamSetf`.
    pub const cuParamSetf: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuParamSetf.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuParamSetv`.
    pub const cuParamSetv: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuParamSetv.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuParamSetTexRef`.
    pub const cuParamSetTexRef: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuParamSetTexRef.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunch`.
    pub const cuLaunch: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunch.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid`.
    pub const cuLaunchGrid: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync`.
    pub const cuLaunchGridAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventCreate`.
    pub const cuEventCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventRecord`.
    pub const cuEventRecord: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventRecord.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventQuery`.
    pub const cuEventQuery: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventQuery.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize`.
    pub const cuEventSynchronize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventDestroy`.
    pub const cuEventDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime`.
    pub const cuEventElapsedTime: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamCreate`.
    pub const cuStreamCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamQuery`.
    pub const cuStreamQuery: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamQuery.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize`.
    pub const cuStreamSynchronize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy`.
    pub const cuStreamDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsUnregisterResource`.
    pub const cuGraphicsUnregisterResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsUnregisterResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsSubResourceGetMappedArray`.
    pub const cuGraphicsSubResourceGetMappedArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsSubResourceGetMappedArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedPointer`.
    pub const cuGraphicsResourceGetMappedPointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedPointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64GraphicsResourceGetMappedPointer`.
    pub const cu64GraphicsResourceGetMappedPointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64GraphicsResourceGetMappedPointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceSetMapFlags`.
    pub const cuGraphicsResourceSetMapFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceSetMapFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsMapResources`.
    pub const cuGraphicsMapResources: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsMapResources.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsUnmapResources`.
    pub const cuGraphicsUnmapResources: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsUnmapResources.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGetExportTable`.
    pub const cuGetExportTable: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGetExportTable.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxSetLimit`.
    pub const cuCtxSetLimit: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxSetLimit.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetLimit`.
    pub const cuCtxGetLimit: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetLimit.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10GetDevice`.
    pub const cuD3D10GetDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10GetDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10CtxCreate`.
    pub const cuD3D10CtxCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10CtxCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsD3D10RegisterResource`.
    pub const cuGraphicsD3D10RegisterResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsD3D10RegisterResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10RegisterResource`.
    pub const cuD3D10RegisterResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10RegisterResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10UnregisterResource`.
    pub const cuD3D10UnregisterResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10UnregisterResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10MapResources`.
    pub const cuD3D10MapResources: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10MapResources.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10UnmapResources`.
    pub const cuD3D10UnmapResources: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10UnmapResources.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceSetMapFlags`.
    pub const cuD3D10ResourceSetMapFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceSetMapFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedArray`.
    pub const cuD3D10ResourceGetMappedArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPointer`.
    pub const cuD3D10ResourceGetMappedPointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedSize`.
    pub const cuD3D10ResourceGetMappedSize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedSize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPitch`.
    pub const cuD3D10ResourceGetMappedPitch: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPitch.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetSurfaceDimensions`.
    pub const cuD3D10ResourceGetSurfaceDimensions: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetSurfaceDimensions.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D11GetDevice`.
    pub const cuD3D11GetDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D11GetDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D11CtxCreate`.
    pub const cuD3D11CtxCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D11CtxCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsD3D11RegisterResource`.
    pub const cuGraphicsD3D11RegisterResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsD3D11RegisterResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9GetDevice`.
    pub const cuD3D9GetDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9GetDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9CtxCreate`.
    pub const cuD3D9CtxCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9CtxCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsD3D9RegisterResource`.
    pub const cuGraphicsD3D9RegisterResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsD3D9RegisterResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9GetDirect3DDevice`.
    pub const cuD3D9GetDirect3DDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9GetDirect3DDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9RegisterResource`.
    pub const cuD3D9RegisterResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9RegisterResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9UnregisterResource`.
    pub const cuD3D9UnregisterResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9UnregisterResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9MapResources`.
    pub const cuD3D9MapResources: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9MapResources.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9UnmapResources`.
    pub const cuD3D9UnmapResources: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9UnmapResources.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceSetMapFlags`.
    pub const cuD3D9ResourceSetMapFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceSetMapFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetSurfaceDimensions`.
    pub const cuD3D9ResourceGetSurfaceDimensions: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetSurfaceDimensions.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedArray`.
    pub const cuD3D9ResourceGetMappedArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPointer`.
    pub const cuD3D9ResourceGetMappedPointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedSize`.
    pub const cuD3D9ResourceGetMappedSize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedSize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPitch`.
    pub const cuD3D9ResourceGetMappedPitch: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPitch.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9Begin`.
    pub const cuD3D9Begin: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9Begin.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9End`.
    pub const cuD3D9End: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9End.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9RegisterVertexBuffer`.
    pub const cuD3D9RegisterVertexBuffer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9RegisterVertexBuffer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9MapVertexBuffer`.
    pub const cuD3D9MapVertexBuffer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9MapVertexBuffer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9UnmapVertexBuffer`.
    pub const cuD3D9UnmapVertexBuffer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9UnmapVertexBuffer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9UnregisterVertexBuffer`.
    pub const cuD3D9UnregisterVertexBuffer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9UnregisterVertexBuffer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLCtxCreate`.
    pub const cuGLCtxCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLCtxCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsGLRegisterBuffer`.
    pub const cuGraphicsGLRegisterBuffer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsGLRegisterBuffer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsGLRegisterImage`.
    pub const cuGraphicsGLRegisterImage: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsGLRegisterImage.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuWGLGetDevice`.
    pub const cuWGLGetDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuWGLGetDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLInit`.
    pub const cuGLInit: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLInit.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLRegisterBufferObject`.
    pub const cuGLRegisterBufferObject: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLRegisterBufferObject.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObject`.
    pub const cuGLMapBufferObject: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObject.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLUnmapBufferObject`.
    pub const cuGLUnmapBufferObject: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLUnmapBufferObject.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLUnregisterBufferObject`.
    pub const cuGLUnregisterBufferObject: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLUnregisterBufferObject.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLSetBufferObjectMapFlags`.
    pub const cuGLSetBufferObjectMapFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLSetBufferObjectMapFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObjectAsync`.
    pub const cuGLMapBufferObjectAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObjectAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLUnmapBufferObjectAsync`.
    pub const cuGLUnmapBufferObjectAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLUnmapBufferObjectAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuVDPAUGetDevice`.
    pub const cuVDPAUGetDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuVDPAUGetDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuVDPAUCtxCreate`.
    pub const cuVDPAUCtxCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuVDPAUCtxCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsVDPAURegisterVideoSurface`.
    pub const cuGraphicsVDPAURegisterVideoSurface: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsVDPAURegisterVideoSurface.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsVDPAURegisterOutputSurface`.
    pub const cuGraphicsVDPAURegisterOutputSurface: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsVDPAURegisterOutputSurface.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleGetSurfRef`.
    pub const cuModuleGetSurfRef: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleGetSurfRef.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSurfRefCreate`.
    pub const cuSurfRefCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSurfRefCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSurfRefDestroy`.
    pub const cuSurfRefDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSurfRefDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSurfRefSetFormat`.
    pub const cuSurfRefSetFormat: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSurfRefSetFormat.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSurfRefSetArray`.
    pub const cuSurfRefSetArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSurfRefSetArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSurfRefGetFormat`.
    pub const cuSurfRefGetFormat: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSurfRefGetFormat.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSurfRefGetArray`.
    pub const cuSurfRefGetArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSurfRefGetArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64DeviceTotalMem`.
    pub const cu64DeviceTotalMem: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64DeviceTotalMem.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetMappedPointer`.
    pub const cu64D3D10ResourceGetMappedPointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetMappedPointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetMappedSize`.
    pub const cu64D3D10ResourceGetMappedSize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetMappedSize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetMappedPitch`.
    pub const cu64D3D10ResourceGetMappedPitch: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetMappedPitch.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetSurfaceDimensions`.
    pub const cu64D3D10ResourceGetSurfaceDimensions: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64D3D10ResourceGetSurfaceDimensions.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetSurfaceDimensions`.
    pub const cu64D3D9ResourceGetSurfaceDimensions: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetSurfaceDimensions.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetMappedPointer`.
    pub const cu64D3D9ResourceGetMappedPointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetMappedPointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetMappedSize`.
    pub const cu64D3D9ResourceGetMappedSize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetMappedSize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetMappedPitch`.
    pub const cu64D3D9ResourceGetMappedPitch: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64D3D9ResourceGetMappedPitch.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64D3D9MapVertexBuffer`.
    pub const cu64D3D9MapVertexBuffer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64D3D9MapVertexBuffer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64GLMapBufferObject`.
    pub const cu64GLMapBufferObject: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64GLMapBufferObject.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64GLMapBufferObjectAsync`.
    pub const cu64GLMapBufferObjectAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64GLMapBufferObjectAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D11GetDevices`.
    pub const cuD3D11GetDevices: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D11GetDevices.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D11CtxCreateOnDevice`.
    pub const cuD3D11CtxCreateOnDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D11CtxCreateOnDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10GetDevices`.
    pub const cuD3D10GetDevices: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10GetDevices.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10CtxCreateOnDevice`.
    pub const cuD3D10CtxCreateOnDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10CtxCreateOnDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9GetDevices`.
    pub const cuD3D9GetDevices: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9GetDevices.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9CtxCreateOnDevice`.
    pub const cuD3D9CtxCreateOnDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9CtxCreateOnDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemHostAlloc`.
    pub const cu64MemHostAlloc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemHostAlloc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async`.
    pub const cuMemsetD8Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD8Async`.
    pub const cu64MemsetD8Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD8Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async`.
    pub const cuMemsetD16Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD16Async`.
    pub const cu64MemsetD16Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD16Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async`.
    pub const cuMemsetD32Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD32Async`.
    pub const cu64MemsetD32Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD32Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async`.
    pub const cuMemsetD2D8Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D8Async`.
    pub const cu64MemsetD2D8Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D8Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async`.
    pub const cuMemsetD2D16Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D16Async`.
    pub const cu64MemsetD2D16Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D16Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async`.
    pub const cuMemsetD2D32Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D32Async`.
    pub const cu64MemsetD2D32Async: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64MemsetD2D32Async.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64ArrayCreate`.
    pub const cu64ArrayCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64ArrayCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64ArrayGetDescriptor`.
    pub const cu64ArrayGetDescriptor: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64ArrayGetDescriptor.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64Array3DCreate`.
    pub const cu64Array3DCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64Array3DCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64Array3DGetDescriptor`.
    pub const cu64Array3DGetDescriptor: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64Array3DGetDescriptor.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64Memcpy2D`.
    pub const cu64Memcpy2D: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64Memcpy2D.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64Memcpy2DUnaligned`.
    pub const cu64Memcpy2DUnaligned: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64Memcpy2DUnaligned.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cu64Memcpy2DAsync`.
    pub const cu64Memcpy2DAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cu64Memcpy2DAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v2`.
    pub const cuCtxCreate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10CtxCreate_v2`.
    pub const cuD3D10CtxCreate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10CtxCreate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D11CtxCreate_v2`.
    pub const cuD3D11CtxCreate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D11CtxCreate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9CtxCreate_v2`.
    pub const cuD3D9CtxCreate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9CtxCreate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLCtxCreate_v2`.
    pub const cuGLCtxCreate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLCtxCreate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuVDPAUCtxCreate_v2`.
    pub const cuVDPAUCtxCreate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuVDPAUCtxCreate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2`.
    pub const cuModuleGetGlobal_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo_v2`.
    pub const cuMemGetInfo_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2`.
    pub const cuMemAlloc_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2`.
    pub const cuMemAllocPitch_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2`.
    pub const cuMemFree_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetAddressRange_v2`.
    pub const cuMemGetAddressRange_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetAddressRange_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemHostGetDevicePointer_v2`.
    pub const cuMemHostGetDevicePointer_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemHostGetDevicePointer_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy_v2`.
    pub const cuMemcpy_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2`.
    pub const cuMemsetD8_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2`.
    pub const cuMemsetD16_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2`.
    pub const cuMemsetD32_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2`.
    pub const cuMemsetD2D8_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2`.
    pub const cuMemsetD2D16_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2`.
    pub const cuMemsetD2D32_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress_v2`.
    pub const cuTexRefSetAddress_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress2D_v2`.
    pub const cuTexRefSetAddress2D_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress2D_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetAddress_v2`.
    pub const cuTexRefGetAddress_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetAddress_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedPointer_v2`.
    pub const cuGraphicsResourceGetMappedPointer_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedPointer_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceTotalMem_v2`.
    pub const cuDeviceTotalMem_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceTotalMem_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPointer_v2`.
    pub const cuD3D10ResourceGetMappedPointer_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPointer_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedSize_v2`.
    pub const cuD3D10ResourceGetMappedSize_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedSize_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPitch_v2`.
    pub const cuD3D10ResourceGetMappedPitch_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetMappedPitch_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetSurfaceDimensions_v2`.
    pub const cuD3D10ResourceGetSurfaceDimensions_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10ResourceGetSurfaceDimensions_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetSurfaceDimensions_v2`.
    pub const cuD3D9ResourceGetSurfaceDimensions_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetSurfaceDimensions_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPointer_v2`.
    pub const cuD3D9ResourceGetMappedPointer_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPointer_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedSize_v2`.
    pub const cuD3D9ResourceGetMappedSize_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedSize_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPitch_v2`.
    pub const cuD3D9ResourceGetMappedPitch_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9ResourceGetMappedPitch_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D9MapVertexBuffer_v2`.
    pub const cuD3D9MapVertexBuffer_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D9MapVertexBuffer_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObject_v2`.
    pub const cuGLMapBufferObject_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObject_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObjectAsync_v2`.
    pub const cuGLMapBufferObjectAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObjectAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc_v2`.
    pub const cuMemHostAlloc_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArrayCreate_v2`.
    pub const cuArrayCreate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArrayCreate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArrayGetDescriptor_v2`.
    pub const cuArrayGetDescriptor_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArrayGetDescriptor_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate_v2`.
    pub const cuArray3DCreate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArray3DGetDescriptor_v2`.
    pub const cuArray3DGetDescriptor_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArray3DGetDescriptor_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2`.
    pub const cuMemcpyHtoD_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2`.
    pub const cuMemcpyHtoDAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2`.
    pub const cuMemcpyDtoH_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2`.
    pub const cuMemcpyDtoHAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2`.
    pub const cuMemcpyDtoD_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2`.
    pub const cuMemcpyDtoDAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2`.
    pub const cuMemcpyAtoH_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2`.
    pub const cuMemcpyAtoHAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2`.
    pub const cuMemcpyAtoD_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2`.
    pub const cuMemcpyDtoA_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2`.
    pub const cuMemcpyAtoA_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2`.
    pub const cuMemcpy2D_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2`.
    pub const cuMemcpy2DUnaligned_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2`.
    pub const cuMemcpy2DAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2`.
    pub const cuMemcpy3D_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2`.
    pub const cuMemcpy3DAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2`.
    pub const cuMemcpyHtoA_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2`.
    pub const cuMemcpyHtoAAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2`.
    pub const cuMemAllocHost_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent`.
    pub const cuStreamWaitEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetApiVersion`.
    pub const cuCtxGetApiVersion: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetApiVersion.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D10GetDirect3DDevice`.
    pub const cuD3D10GetDirect3DDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D10GetDirect3DDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuD3D11GetDirect3DDevice`.
    pub const cuD3D11GetDirect3DDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuD3D11GetDirect3DDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetCacheConfig`.
    pub const cuCtxGetCacheConfig: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetCacheConfig.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxSetCacheConfig`.
    pub const cuCtxSetCacheConfig: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxSetCacheConfig.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister`.
    pub const cuMemHostRegister: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister`.
    pub const cuMemHostUnregister: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent`.
    pub const cuCtxSetCurrent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent`.
    pub const cuCtxGetCurrent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy`.
    pub const cuMemcpy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync`.
    pub const cuMemcpyAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel`.
    pub const cuLaunchKernel: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuProfilerStart`.
    pub const cuProfilerStart: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuProfilerStart.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuProfilerStop`.
    pub const cuProfilerStop: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuProfilerStop.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute`.
    pub const cuPointerGetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuProfilerInitialize`.
    pub const cuProfilerInitialize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuProfilerInitialize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceCanAccessPeer`.
    pub const cuDeviceCanAccessPeer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceCanAccessPeer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxEnablePeerAccess`.
    pub const cuCtxEnablePeerAccess: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxEnablePeerAccess.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxDisablePeerAccess`.
    pub const cuCtxDisablePeerAccess: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxDisablePeerAccess.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPeerRegister`.
    pub const cuMemPeerRegister: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPeerRegister.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPeerUnregister`.
    pub const cuMemPeerUnregister: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPeerUnregister.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPeerGetDevicePointer`.
    pub const cuMemPeerGetDevicePointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPeerGetDevicePointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer`.
    pub const cuMemcpyPeer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync`.
    pub const cuMemcpyPeerAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer`.
    pub const cuMemcpy3DPeer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync`.
    pub const cuMemcpy3DPeerAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2`.
    pub const cuCtxDestroy_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent_v2`.
    pub const cuCtxPushCurrent_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent_v2`.
    pub const cuCtxPopCurrent_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventDestroy_v2`.
    pub const cuEventDestroy_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventDestroy_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2`.
    pub const cuStreamDestroy_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress2D_v3`.
    pub const cuTexRefSetAddress2D_v3: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetAddress2D_v3.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuIpcGetMemHandle`.
    pub const cuIpcGetMemHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuIpcGetMemHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle`.
    pub const cuIpcOpenMemHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuIpcCloseMemHandle`.
    pub const cuIpcCloseMemHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuIpcCloseMemHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetByPCIBusId`.
    pub const cuDeviceGetByPCIBusId: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetByPCIBusId.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetPCIBusId`.
    pub const cuDeviceGetPCIBusId: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetPCIBusId.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLGetDevices`.
    pub const cuGLGetDevices: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLGetDevices.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuIpcGetEventHandle`.
    pub const cuIpcGetEventHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuIpcGetEventHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuIpcOpenEventHandle`.
    pub const cuIpcOpenEventHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuIpcOpenEventHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxSetSharedMemConfig`.
    pub const cuCtxSetSharedMemConfig: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxSetSharedMemConfig.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetSharedMemConfig`.
    pub const cuCtxGetSharedMemConfig: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetSharedMemConfig.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncSetSharedMemConfig`.
    pub const cuFuncSetSharedMemConfig: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncSetSharedMemConfig.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate`.
    pub const cuTexObjectCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexObjectCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexObjectDestroy`.
    pub const cuTexObjectDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexObjectDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexObjectGetResourceDesc`.
    pub const cuTexObjectGetResourceDesc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexObjectGetResourceDesc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexObjectGetTextureDesc`.
    pub const cuTexObjectGetTextureDesc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexObjectGetTextureDesc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSurfObjectCreate`.
    pub const cuSurfObjectCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSurfObjectCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSurfObjectDestroy`.
    pub const cuSurfObjectDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSurfObjectDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSurfObjectGetResourceDesc`.
    pub const cuSurfObjectGetResourceDesc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSurfObjectGetResourceDesc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback`.
    pub const cuStreamAddCallback: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayCreate`.
    pub const cuMipmappedArrayCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayGetLevel`.
    pub const cuMipmappedArrayGetLevel: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayGetLevel.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayDestroy`.
    pub const cuMipmappedArrayDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmappedArray`.
    pub const cuTexRefSetMipmappedArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmappedArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmapFilterMode`.
    pub const cuTexRefSetMipmapFilterMode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmapFilterMode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmapLevelBias`.
    pub const cuTexRefSetMipmapLevelBias: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmapLevelBias.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmapLevelClamp`.
    pub const cuTexRefSetMipmapLevelClamp: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMipmapLevelClamp.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMaxAnisotropy`.
    pub const cuTexRefSetMaxAnisotropy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetMaxAnisotropy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmappedArray`.
    pub const cuTexRefGetMipmappedArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmappedArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmapFilterMode`.
    pub const cuTexRefGetMipmapFilterMode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmapFilterMode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmapLevelBias`.
    pub const cuTexRefGetMipmapLevelBias: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmapLevelBias.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmapLevelClamp`.
    pub const cuTexRefGetMipmapLevelClamp: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMipmapLevelClamp.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMaxAnisotropy`.
    pub const cuTexRefGetMaxAnisotropy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetMaxAnisotropy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedMipmappedArray`.
    pub const cuGraphicsResourceGetMappedMipmappedArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedMipmappedArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexObjectGetResourceViewDesc`.
    pub const cuTexObjectGetResourceViewDesc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexObjectGetResourceViewDesc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLinkCreate`.
    pub const cuLinkCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLinkCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLinkAddData`.
    pub const cuLinkAddData: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLinkAddData.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLinkAddFile`.
    pub const cuLinkAddFile: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLinkAddFile.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLinkComplete`.
    pub const cuLinkComplete: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLinkComplete.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLinkDestroy`.
    pub const cuLinkDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLinkDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority`.
    pub const cuStreamCreateWithPriority: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetPriority`.
    pub const cuStreamGetPriority: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetPriority.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetFlags`.
    pub const cuStreamGetFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetStreamPriorityRange`.
    pub const cuCtxGetStreamPriorityRange: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetStreamPriorityRange.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged`.
    pub const cuMemAllocManaged: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGetErrorString`.
    pub const cuGetErrorString: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGetErrorString.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGetErrorName`.
    pub const cuGetErrorName: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGetErrorName.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveBlocksPerMultiprocessor`.
    pub const cuOccupancyMaxActiveBlocksPerMultiprocessor: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveBlocksPerMultiprocessor.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCompilePtx`.
    pub const cuCompilePtx: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCompilePtx.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuBinaryFree`.
    pub const cuBinaryFree: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuBinaryFree.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamAttachMemAsync`.
    pub const cuStreamAttachMemAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamAttachMemAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuPointerSetAttribute`.
    pub const cuPointerSetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuPointerSetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2`.
    pub const cuMemHostRegister_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceSetMapFlags_v2`.
    pub const cuGraphicsResourceSetMapFlags_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceSetMapFlags_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLinkCreate_v2`.
    pub const cuLinkCreate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLinkCreate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLinkAddData_v2`.
    pub const cuLinkAddData_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLinkAddData_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLinkAddFile_v2`.
    pub const cuLinkAddFile_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLinkAddFile_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialBlockSize`.
    pub const cuOccupancyMaxPotentialBlockSize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialBlockSize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLGetDevices_v2`.
    pub const cuGLGetDevices_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLGetDevices_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRetain`.
    pub const cuDevicePrimaryCtxRetain: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRetain.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRelease`.
    pub const cuDevicePrimaryCtxRelease: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRelease.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxSetFlags`.
    pub const cuDevicePrimaryCtxSetFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxSetFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset`.
    pub const cuDevicePrimaryCtxReset: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsEGLRegisterImage`.
    pub const cuGraphicsEGLRegisterImage: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsEGLRegisterImage.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetFlags`.
    pub const cuCtxGetFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState`.
    pub const cuDevicePrimaryCtxGetState: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerConnect`.
    pub const cuEGLStreamConsumerConnect: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerConnect.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerDisconnect`.
    pub const cuEGLStreamConsumerDisconnect: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerDisconnect.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerAcquireFrame`.
    pub const cuEGLStreamConsumerAcquireFrame: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerAcquireFrame.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerReleaseFrame`.
    pub const cuEGLStreamConsumerReleaseFrame: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerReleaseFrame.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds`.
    pub const cuMemcpyHtoD_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds`.
    pub const cuMemcpyDtoH_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds`.
    pub const cuMemcpyDtoD_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2_ptds`.
    pub const cuMemcpyDtoA_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2_ptds`.
    pub const cuMemcpyAtoD_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2_ptds`.
    pub const cuMemcpyHtoA_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2_ptds`.
    pub const cuMemcpyAtoH_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2_ptds`.
    pub const cuMemcpyAtoA_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2_ptds`.
    pub const cuMemcpy2D_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2_ptds`.
    pub const cuMemcpy2DUnaligned_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2_ptds`.
    pub const cuMemcpy3D_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds`.
    pub const cuMemcpy_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer_ptds`.
    pub const cuMemcpyPeer_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer_ptds`.
    pub const cuMemcpy3DPeer_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds`.
    pub const cuMemsetD8_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds`.
    pub const cuMemsetD16_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds`.
    pub const cuMemsetD32_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2_ptds`.
    pub const cuMemsetD2D8_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2_ptds`.
    pub const cuMemsetD2D16_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2_ptds`.
    pub const cuMemsetD2D32_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObject_v2_ptds`.
    pub const cuGLMapBufferObject_v2_ptds: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObject_v2_ptds.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz`.
    pub const cuMemcpyAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2_ptsz`.
    pub const cuMemcpyHtoAAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoAAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2_ptsz`.
    pub const cuMemcpyAtoHAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoHAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz`.
    pub const cuMemcpyHtoDAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz`.
    pub const cuMemcpyDtoHAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz`.
    pub const cuMemcpyDtoDAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2_ptsz`.
    pub const cuMemcpy2DAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2_ptsz`.
    pub const cuMemcpy3DAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync_ptsz`.
    pub const cuMemcpyPeerAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeerAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync_ptsz`.
    pub const cuMemcpy3DPeerAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeerAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz`.
    pub const cuMemsetD8Async_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz`.
    pub const cuMemsetD16Async_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz`.
    pub const cuMemsetD32Async_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async_ptsz`.
    pub const cuMemsetD2D8Async_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async_ptsz`.
    pub const cuMemsetD2D16Async_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D16Async_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async_ptsz`.
    pub const cuMemsetD2D32Async_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D32Async_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetPriority_ptsz`.
    pub const cuStreamGetPriority_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetPriority_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetFlags_ptsz`.
    pub const cuStreamGetFlags_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetFlags_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz`.
    pub const cuStreamWaitEvent_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback_ptsz`.
    pub const cuStreamAddCallback_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamAddCallback_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamAttachMemAsync_ptsz`.
    pub const cuStreamAttachMemAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamAttachMemAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz`.
    pub const cuStreamQuery_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz`.
    pub const cuStreamSynchronize_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz`.
    pub const cuEventRecord_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz`.
    pub const cuLaunchKernel_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsMapResources_ptsz`.
    pub const cuGraphicsMapResources_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsMapResources_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsUnmapResources_ptsz`.
    pub const cuGraphicsUnmapResources_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsUnmapResources_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObjectAsync_v2_ptsz`.
    pub const cuGLMapBufferObjectAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGLMapBufferObjectAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerConnect`.
    pub const cuEGLStreamProducerConnect: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerConnect.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerDisconnect`.
    pub const cuEGLStreamProducerDisconnect: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerDisconnect.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerPresentFrame`.
    pub const cuEGLStreamProducerPresentFrame: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerPresentFrame.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedEglFrame`.
    pub const cuGraphicsResourceGetMappedEglFrame: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphicsResourceGetMappedEglFrame.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttributes`.
    pub const cuPointerGetAttributes: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttributes.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags`.
    pub const cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialBlockSizeWithFlags`.
    pub const cuOccupancyMaxPotentialBlockSizeWithFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialBlockSizeWithFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerReturnFrame`.
    pub const cuEGLStreamProducerReturnFrame: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEGLStreamProducerReturnFrame.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetP2PAttribute`.
    pub const cuDeviceGetP2PAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetP2PAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefSetBorderColor`.
    pub const cuTexRefSetBorderColor: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefSetBorderColor.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTexRefGetBorderColor`.
    pub const cuTexRefGetBorderColor: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTexRefGetBorderColor.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAdvise`.
    pub const cuMemAdvise: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAdvise.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32`.
    pub const cuStreamWaitValue32: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_ptsz`.
    pub const cuStreamWaitValue32_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32`.
    pub const cuStreamWriteValue32: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_ptsz`.
    pub const cuStreamWriteValue32_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp`.
    pub const cuStreamBatchMemOp: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_ptsz`.
    pub const cuStreamBatchMemOp_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuNVNbufferGetPointer`.
    pub const cuNVNbufferGetPointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuNVNbufferGetPointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuNVNtextureGetArray`.
    pub const cuNVNtextureGetArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuNVNtextureGetArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuNNSetAllocator`.
    pub const cuNNSetAllocator: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuNNSetAllocator.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync`.
    pub const cuMemPrefetchAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_ptsz`.
    pub const cuMemPrefetchAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventCreateFromNVNSync`.
    pub const cuEventCreateFromNVNSync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventCreateFromNVNSync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerConnectWithFlags`.
    pub const cuEGLStreamConsumerConnectWithFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEGLStreamConsumerConnectWithFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemRangeGetAttribute`.
    pub const cuMemRangeGetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemRangeGetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemRangeGetAttributes`.
    pub const cuMemRangeGetAttributes: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemRangeGetAttributes.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64`.
    pub const cuStreamWaitValue64: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_ptsz`.
    pub const cuStreamWaitValue64_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64`.
    pub const cuStreamWriteValue64: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_ptsz`.
    pub const cuStreamWriteValue64_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel`.
    pub const cuLaunchCooperativeKernel: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz`.
    pub const cuLaunchCooperativeKernel_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventCreateFromEGLSync`.
    pub const cuEventCreateFromEGLSync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventCreateFromEGLSync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice`.
    pub const cuLaunchCooperativeKernelMultiDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute`.
    pub const cuFuncSetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetUuid`.
    pub const cuDeviceGetUuid: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetUuid.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx`.
    pub const cuStreamGetCtx: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_ptsz`.
    pub const cuStreamGetCtx_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuImportExternalMemory`.
    pub const cuImportExternalMemory: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuImportExternalMemory.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedBuffer`.
    pub const cuExternalMemoryGetMappedBuffer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedBuffer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedMipmappedArray`.
    pub const cuExternalMemoryGetMappedMipmappedArray: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuExternalMemoryGetMappedMipmappedArray.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDestroyExternalMemory`.
    pub const cuDestroyExternalMemory: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDestroyExternalMemory.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuImportExternalSemaphore`.
    pub const cuImportExternalSemaphore: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuImportExternalSemaphore.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSignalExternalSemaphoresAsync`.
    pub const cuSignalExternalSemaphoresAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSignalExternalSemaphoresAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSignalExternalSemaphoresAsync_ptsz`.
    pub const cuSignalExternalSemaphoresAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSignalExternalSemaphoresAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync`.
    pub const cuWaitExternalSemaphoresAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync_ptsz`.
    pub const cuWaitExternalSemaphoresAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuWaitExternalSemaphoresAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDestroyExternalSemaphore`.
    pub const cuDestroyExternalSemaphore: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDestroyExternalSemaphore.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture`.
    pub const cuStreamBeginCapture: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz`.
    pub const cuStreamBeginCapture_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture`.
    pub const cuStreamEndCapture: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz`.
    pub const cuStreamEndCapture_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing`.
    pub const cuStreamIsCapturing: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing_ptsz`.
    pub const cuStreamIsCapturing_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphCreate`.
    pub const cuGraphCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode`.
    pub const cuGraphAddKernelNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeGetParams`.
    pub const cuGraphKernelNodeGetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeGetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemcpyNode`.
    pub const cuGraphAddMemcpyNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemcpyNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphMemcpyNodeGetParams`.
    pub const cuGraphMemcpyNodeGetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphMemcpyNodeGetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemsetNode`.
    pub const cuGraphAddMemsetNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemsetNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphMemsetNodeGetParams`.
    pub const cuGraphMemsetNodeGetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphMemsetNodeGetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphMemsetNodeSetParams`.
    pub const cuGraphMemsetNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphMemsetNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetType`.
    pub const cuGraphNodeGetType: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetType.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphGetRootNodes`.
    pub const cuGraphGetRootNodes: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphGetRootNodes.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependencies`.
    pub const cuGraphNodeGetDependencies: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependencies.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependentNodes`.
    pub const cuGraphNodeGetDependentNodes: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependentNodes.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate`.
    pub const cuGraphInstantiate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch`.
    pub const cuGraphLaunch: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz`.
    pub const cuGraphLaunch_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy`.
    pub const cuGraphExecDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphDestroy`.
    pub const cuGraphDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddDependencies`.
    pub const cuGraphAddDependencies: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddDependencies.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphRemoveDependencies`.
    pub const cuGraphRemoveDependencies: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphRemoveDependencies.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphMemcpyNodeSetParams`.
    pub const cuGraphMemcpyNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphMemcpyNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams`.
    pub const cuGraphKernelNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphDestroyNode`.
    pub const cuGraphDestroyNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphDestroyNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphClone`.
    pub const cuGraphClone: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphClone.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphNodeFindInClone`.
    pub const cuGraphNodeFindInClone: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphNodeFindInClone.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddChildGraphNode`.
    pub const cuGraphAddChildGraphNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddChildGraphNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddEmptyNode`.
    pub const cuGraphAddEmptyNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddEmptyNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc`.
    pub const cuLaunchHostFunc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz`.
    pub const cuLaunchHostFunc_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphChildGraphNodeGetGraph`.
    pub const cuGraphChildGraphNodeGetGraph: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphChildGraphNodeGetGraph.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddHostNode`.
    pub const cuGraphAddHostNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddHostNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphHostNodeGetParams`.
    pub const cuGraphHostNodeGetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphHostNodeGetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetLuid`.
    pub const cuDeviceGetLuid: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetLuid.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphHostNodeSetParams`.
    pub const cuGraphHostNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphHostNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphGetNodes`.
    pub const cuGraphGetNodes: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphGetNodes.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphGetEdges`.
    pub const cuGraphGetEdges: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphGetEdges.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo`.
    pub const cuStreamGetCaptureInfo: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_ptsz`.
    pub const cuStreamGetCaptureInfo_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams`.
    pub const cuGraphExecKernelNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2`.
    pub const cuStreamBeginCapture_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz`.
    pub const cuStreamBeginCapture_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuThreadExchangeStreamCaptureMode`.
    pub const cuThreadExchangeStreamCaptureMode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuThreadExchangeStreamCaptureMode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetNvSciSyncAttributes`.
    pub const cuDeviceGetNvSciSyncAttributes: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetNvSciSyncAttributes.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuOccupancyAvailableDynamicSMemPerBlock`.
    pub const cuOccupancyAvailableDynamicSMemPerBlock: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuOccupancyAvailableDynamicSMemPerBlock.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRelease_v2`.
    pub const cuDevicePrimaryCtxRelease_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRelease_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2`.
    pub const cuDevicePrimaryCtxReset_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxSetFlags_v2`.
    pub const cuDevicePrimaryCtxSetFlags_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxSetFlags_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAddressReserve`.
    pub const cuMemAddressReserve: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAddressReserve.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAddressFree`.
    pub const cuMemAddressFree: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAddressFree.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemCreate`.
    pub const cuMemCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemRelease`.
    pub const cuMemRelease: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemRelease.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemMap`.
    pub const cuMemMap: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemMap.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemUnmap`.
    pub const cuMemUnmap: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemUnmap.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemSetAccess`.
    pub const cuMemSetAccess: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemSetAccess.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemExportToShareableHandle`.
    pub const cuMemExportToShareableHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemExportToShareableHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle`.
    pub const cuMemImportFromShareableHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetAllocationGranularity`.
    pub const cuMemGetAllocationGranularity: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetAllocationGranularity.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetAllocationPropertiesFromHandle`.
    pub const cuMemGetAllocationPropertiesFromHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetAllocationPropertiesFromHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetAccess`.
    pub const cuMemGetAccess: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetAccess.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamSetFlags`.
    pub const cuStreamSetFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamSetFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamSetFlags_ptsz`.
    pub const cuStreamSetFlags_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamSetFlags_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate`.
    pub const cuGraphExecUpdate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams`.
    pub const cuGraphExecMemcpyNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams`.
    pub const cuGraphExecMemsetNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams`.
    pub const cuGraphExecHostNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemRetainAllocationHandle`.
    pub const cuMemRetainAllocationHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemRetainAllocationHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncGetModule`.
    pub const cuFuncGetModule: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncGetModule.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2`.
    pub const cuIpcOpenMemHandle_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxResetPersistingL2Cache`.
    pub const cuCtxResetPersistingL2Cache: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxResetPersistingL2Cache.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeCopyAttributes`.
    pub const cuGraphKernelNodeCopyAttributes: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeCopyAttributes.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeGetAttribute`.
    pub const cuGraphKernelNodeGetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeGetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetAttribute`.
    pub const cuGraphKernelNodeSetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamCopyAttributes`.
    pub const cuStreamCopyAttributes: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamCopyAttributes.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamCopyAttributes_ptsz`.
    pub const cuStreamCopyAttributes_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamCopyAttributes_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetAttribute`.
    pub const cuStreamGetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetAttribute_ptsz`.
    pub const cuStreamGetAttribute_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetAttribute_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute`.
    pub const cuStreamSetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute_ptsz`.
    pub const cuStreamSetAttribute_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2`.
    pub const cuGraphInstantiate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetTexture1DLinearMaxWidth`.
    pub const cuDeviceGetTexture1DLinearMaxWidth: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetTexture1DLinearMaxWidth.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphUpload`.
    pub const cuGraphUpload: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphUpload.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphUpload_ptsz`.
    pub const cuGraphUpload_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphUpload_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArrayGetSparseProperties`.
    pub const cuArrayGetSparseProperties: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArrayGetSparseProperties.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayGetSparseProperties`.
    pub const cuMipmappedArrayGetSparseProperties: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayGetSparseProperties.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemMapArrayAsync`.
    pub const cuMemMapArrayAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemMapArrayAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemMapArrayAsync_ptsz`.
    pub const cuMemMapArrayAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemMapArrayAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams`.
    pub const cuGraphExecChildGraphNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags`.
    pub const cuEventRecordWithFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz`.
    pub const cuEventRecordWithFlags_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddEventRecordNode`.
    pub const cuGraphAddEventRecordNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddEventRecordNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddEventWaitNode`.
    pub const cuGraphAddEventWaitNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddEventWaitNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphEventRecordNodeGetEvent`.
    pub const cuGraphEventRecordNodeGetEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphEventRecordNodeGetEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphEventWaitNodeGetEvent`.
    pub const cuGraphEventWaitNodeGetEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphEventWaitNodeGetEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphEventRecordNodeSetEvent`.
    pub const cuGraphEventRecordNodeSetEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphEventRecordNodeSetEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphEventWaitNodeSetEvent`.
    pub const cuGraphEventWaitNodeSetEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphEventWaitNodeSetEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent`.
    pub const cuGraphExecEventRecordNodeSetEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent`.
    pub const cuGraphExecEventWaitNodeSetEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArrayGetPlane`.
    pub const cuArrayGetPlane: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArrayGetPlane.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync`.
    pub const cuMemAllocAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz`.
    pub const cuMemAllocAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync`.
    pub const cuMemFreeAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz`.
    pub const cuMemFreeAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolTrimTo`.
    pub const cuMemPoolTrimTo: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolTrimTo.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolSetAttribute`.
    pub const cuMemPoolSetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolSetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolGetAttribute`.
    pub const cuMemPoolGetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolGetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolSetAccess`.
    pub const cuMemPoolSetAccess: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolSetAccess.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetDefaultMemPool`.
    pub const cuDeviceGetDefaultMemPool: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetDefaultMemPool.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolCreate`.
    pub const cuMemPoolCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolDestroy`.
    pub const cuMemPoolDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceSetMemPool`.
    pub const cuDeviceSetMemPool: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceSetMemPool.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetMemPool`.
    pub const cuDeviceGetMemPool: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetMemPool.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync`.
    pub const cuMemAllocFromPoolAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz`.
    pub const cuMemAllocFromPoolAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolExportToShareableHandle`.
    pub const cuMemPoolExportToShareableHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolExportToShareableHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportFromShareableHandle`.
    pub const cuMemPoolImportFromShareableHandle: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportFromShareableHandle.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolExportPointer`.
    pub const cuMemPoolExportPointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolExportPointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportPointer`.
    pub const cuMemPoolImportPointer: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolImportPointer.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPoolGetAccess`.
    pub const cuMemPoolGetAccess: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPoolGetAccess.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddExternalSemaphoresSignalNode`.
    pub const cuGraphAddExternalSemaphoresSignalNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddExternalSemaphoresSignalNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresSignalNodeGetParams`.
    pub const cuGraphExternalSemaphoresSignalNodeGetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresSignalNodeGetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresSignalNodeSetParams`.
    pub const cuGraphExternalSemaphoresSignalNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresSignalNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddExternalSemaphoresWaitNode`.
    pub const cuGraphAddExternalSemaphoresWaitNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddExternalSemaphoresWaitNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresWaitNodeGetParams`.
    pub const cuGraphExternalSemaphoresWaitNodeGetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresWaitNodeGetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresWaitNodeSetParams`.
    pub const cuGraphExternalSemaphoresWaitNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExternalSemaphoresWaitNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresSignalNodeSetParams`.
    pub const cuGraphExecExternalSemaphoresSignalNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresSignalNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresWaitNodeSetParams`.
    pub const cuGraphExecExternalSemaphoresWaitNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresWaitNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress`.
    pub const cuGetProcAddress: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFlushGPUDirectRDMAWrites`.
    pub const cuFlushGPUDirectRDMAWrites: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFlushGPUDirectRDMAWrites.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphDebugDotPrint`.
    pub const cuGraphDebugDotPrint: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphDebugDotPrint.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2`.
    pub const cuStreamGetCaptureInfo_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2_ptsz`.
    pub const cuStreamGetCaptureInfo_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies`.
    pub const cuStreamUpdateCaptureDependencies: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies_ptsz`.
    pub const cuStreamUpdateCaptureDependencies_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuUserObjectCreate`.
    pub const cuUserObjectCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuUserObjectCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuUserObjectRetain`.
    pub const cuUserObjectRetain: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuUserObjectRetain.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuUserObjectRelease`.
    pub const cuUserObjectRelease: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuUserObjectRelease.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphRetainUserObject`.
    pub const cuGraphRetainUserObject: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphRetainUserObject.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphReleaseUserObject`.
    pub const cuGraphReleaseUserObject: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphReleaseUserObject.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemAllocNode`.
    pub const cuGraphAddMemAllocNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemAllocNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemFreeNode`.
    pub const cuGraphAddMemFreeNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddMemFreeNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGraphMemTrim`.
    pub const cuDeviceGraphMemTrim: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGraphMemTrim.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetGraphMemAttribute`.
    pub const cuDeviceGetGraphMemAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetGraphMemAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceSetGraphMemAttribute`.
    pub const cuDeviceSetGraphMemAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceSetGraphMemAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags`.
    pub const cuGraphInstantiateWithFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetExecAffinitySupport`.
    pub const cuDeviceGetExecAffinitySupport: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetExecAffinitySupport.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v3`.
    pub const cuCtxCreate_v3: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v3.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetExecAffinity`.
    pub const cuCtxGetExecAffinity: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetExecAffinity.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetUuid_v2`.
    pub const cuDeviceGetUuid_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetUuid_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphMemAllocNodeGetParams`.
    pub const cuGraphMemAllocNodeGetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphMemAllocNodeGetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphMemFreeNodeGetParams`.
    pub const cuGraphMemFreeNodeGetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphMemFreeNodeGetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled`.
    pub const cuGraphNodeSetEnabled: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetEnabled`.
    pub const cuGraphNodeGetEnabled: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetEnabled.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx`.
    pub const cuLaunchKernelEx: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz`.
    pub const cuLaunchKernelEx_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuArrayGetMemoryRequirements`.
    pub const cuArrayGetMemoryRequirements: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuArrayGetMemoryRequirements.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayGetMemoryRequirements`.
    pub const cuMipmappedArrayGetMemoryRequirements: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMipmappedArrayGetMemoryRequirements.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams`.
    pub const cuGraphInstantiateWithParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz`.
    pub const cuGraphInstantiateWithParams_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecGetFlags`.
    pub const cuGraphExecGetFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecGetFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2`.
    pub const cuStreamWaitValue32_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2_ptsz`.
    pub const cuStreamWaitValue32_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue32_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2`.
    pub const cuStreamWaitValue64_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2_ptsz`.
    pub const cuStreamWaitValue64_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWaitValue64_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2`.
    pub const cuStreamWriteValue32_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2_ptsz`.
    pub const cuStreamWriteValue32_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2`.
    pub const cuStreamWriteValue64_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2_ptsz`.
    pub const cuStreamWriteValue64_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue64_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2`.
    pub const cuStreamBatchMemOp_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2_ptsz`.
    pub const cuStreamBatchMemOp_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBatchMemOp_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddBatchMemOpNode`.
    pub const cuGraphAddBatchMemOpNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddBatchMemOpNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphBatchMemOpNodeGetParams`.
    pub const cuGraphBatchMemOpNodeGetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphBatchMemOpNodeGetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphBatchMemOpNodeSetParams`.
    pub const cuGraphBatchMemOpNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphBatchMemOpNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecBatchMemOpNodeSetParams`.
    pub const cuGraphExecBatchMemOpNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecBatchMemOpNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleGetLoadingMode`.
    pub const cuModuleGetLoadingMode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleGetLoadingMode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetHandleForAddressRange`.
    pub const cuMemGetHandleForAddressRange: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetHandleForAddressRange.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialClusterSize`.
    pub const cuOccupancyMaxPotentialClusterSize: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialClusterSize.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveClusters`.
    pub const cuOccupancyMaxActiveClusters: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveClusters.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress_v2`.
    pub const cuGetProcAddress_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData`.
    pub const cuLibraryLoadData: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile`.
    pub const cuLibraryLoadFromFile: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload`.
    pub const cuLibraryUnload: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryGetKernel`.
    pub const cuLibraryGetKernel: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryGetKernel.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryGetModule`.
    pub const cuLibraryGetModule: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryGetModule.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuKernelGetFunction`.
    pub const cuKernelGetFunction: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuKernelGetFunction.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryGetGlobal`.
    pub const cuLibraryGetGlobal: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryGetGlobal.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryGetManaged`.
    pub const cuLibraryGetManaged: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryGetManaged.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute`.
    pub const cuKernelGetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuKernelSetAttribute`.
    pub const cuKernelSetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuKernelSetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuKernelSetCacheConfig`.
    pub const cuKernelSetCacheConfig: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuKernelSetCacheConfig.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode_v2`.
    pub const cuGraphAddKernelNode_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddKernelNode_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeGetParams_v2`.
    pub const cuGraphKernelNodeGetParams_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeGetParams_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams_v2`.
    pub const cuGraphKernelNodeSetParams_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetParams_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2`.
    pub const cuGraphExecKernelNodeSetParams_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetId`.
    pub const cuStreamGetId: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetId.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetId_ptsz`.
    pub const cuStreamGetId_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetId_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetId`.
    pub const cuCtxGetId: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetId.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2`.
    pub const cuGraphExecUpdate_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled`.
    pub const cuTensorMapEncodeTiled: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col`.
    pub const cuTensorMapEncodeIm2col: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2col.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress`.
    pub const cuTensorMapReplaceAddress: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTensorMapReplaceAddress.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryGetUnifiedFunction`.
    pub const cuLibraryGetUnifiedFunction: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryGetUnifiedFunction.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCoredumpGetAttribute`.
    pub const cuCoredumpGetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCoredumpGetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCoredumpGetAttributeGlobal`.
    pub const cuCoredumpGetAttributeGlobal: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCoredumpGetAttributeGlobal.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCoredumpSetAttribute`.
    pub const cuCoredumpSetAttribute: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCoredumpSetAttribute.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCoredumpSetAttributeGlobal`.
    pub const cuCoredumpSetAttributeGlobal: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCoredumpSetAttributeGlobal.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxSetFlags`.
    pub const cuCtxSetFlags: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxSetFlags.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMulticastCreate`.
    pub const cuMulticastCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMulticastCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMulticastAddDevice`.
    pub const cuMulticastAddDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMulticastAddDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMulticastBindMem`.
    pub const cuMulticastBindMem: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMulticastBindMem.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMulticastBindAddr`.
    pub const cuMulticastBindAddr: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMulticastBindAddr.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMulticastUnbind`.
    pub const cuMulticastUnbind: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMulticastUnbind.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMulticastGetGranularity`.
    pub const cuMulticastGetGranularity: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMulticastGetGranularity.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode`.
    pub const cuGraphAddNode: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetParams`.
    pub const cuGraphNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams`.
    pub const cuGraphExecNodeSetParams: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemAdvise_v2`.
    pub const cuMemAdvise_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAdvise_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2`.
    pub const cuMemPrefetchAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2_ptsz`.
    pub const cuMemPrefetchAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncGetName`.
    pub const cuFuncGetName: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncGetName.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuKernelGetName`.
    pub const cuKernelGetName: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuKernelGetName.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph`.
    pub const cuStreamBeginCaptureToGraph: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz`.
    pub const cuStreamBeginCaptureToGraph_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphConditionalHandleCreate`.
    pub const cuGraphConditionalHandleCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphConditionalHandleCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode_v2`.
    pub const cuGraphAddNode_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddNode_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphGetEdges_v2`.
    pub const cuGraphGetEdges_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphGetEdges_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependencies_v2`.
    pub const cuGraphNodeGetDependencies_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependencies_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependentNodes_v2`.
    pub const cuGraphNodeGetDependentNodes_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetDependentNodes_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphAddDependencies_v2`.
    pub const cuGraphAddDependencies_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphAddDependencies_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGraphRemoveDependencies_v2`.
    pub const cuGraphRemoveDependencies_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGraphRemoveDependencies_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3`.
    pub const cuStreamGetCaptureInfo_v3: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3_ptsz`.
    pub const cuStreamGetCaptureInfo_v3_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies_v2`.
    pub const cuStreamUpdateCaptureDependencies_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies_v2_ptsz`.
    pub const cuStreamUpdateCaptureDependencies_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamUpdateCaptureDependencies_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncGetParamInfo`.
    pub const cuFuncGetParamInfo: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncGetParamInfo.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuKernelGetParamInfo`.
    pub const cuKernelGetParamInfo: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuKernelGetParamInfo.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceRegisterAsyncNotification`.
    pub const cuDeviceRegisterAsyncNotification: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceRegisterAsyncNotification.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceUnregisterAsyncNotification`.
    pub const cuDeviceUnregisterAsyncNotification: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceUnregisterAsyncNotification.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunctionCount`.
    pub const cuModuleGetFunctionCount: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunctionCount.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuModuleEnumerateFunctions`.
    pub const cuModuleEnumerateFunctions: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuModuleEnumerateFunctions.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryGetKernelCount`.
    pub const cuLibraryGetKernelCount: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryGetKernelCount.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLibraryEnumerateKernels`.
    pub const cuLibraryEnumerateKernels: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLibraryEnumerateKernels.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncIsLoaded`.
    pub const cuFuncIsLoaded: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncIsLoaded.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuFuncLoad`.
    pub const cuFuncLoad: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuFuncLoad.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGreenCtxCreate`.
    pub const cuGreenCtxCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGreenCtxCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGreenCtxDestroy`.
    pub const cuGreenCtxDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGreenCtxDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetDevResource`.
    pub const cuDeviceGetDevResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetDevResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevResource`.
    pub const cuCtxGetDevResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGreenCtxGetDevResource`.
    pub const cuGreenCtxGetDevResource: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGreenCtxGetDevResource.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevResourceGenerateDesc`.
    pub const cuDevResourceGenerateDesc: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevResourceGenerateDesc.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGreenCtxRecordEvent`.
    pub const cuGreenCtxRecordEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGreenCtxRecordEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGreenCtxWaitEvent`.
    pub const cuGreenCtxWaitEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGreenCtxWaitEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDevSmResourceSplitByCount`.
    pub const cuDevSmResourceSplitByCount: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevSmResourceSplitByCount.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetGreenCtx`.
    pub const cuStreamGetGreenCtx: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetGreenCtx.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxFromGreenCtx`.
    pub const cuCtxFromGreenCtx: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxFromGreenCtx.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuKernelGetLibrary`.
    pub const cuKernelGetLibrary: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuKernelGetLibrary.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxRecordEvent`.
    pub const cuCtxRecordEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxRecordEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxWaitEvent`.
    pub const cuCtxWaitEvent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxWaitEvent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v4`.
    pub const cuCtxCreate_v4: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v4.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGreenCtxStreamCreate`.
    pub const cuGreenCtxStreamCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGreenCtxStreamCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_v2`.
    pub const cuStreamGetCtx_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_v2_ptsz`.
    pub const cuStreamGetCtx_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemBatchDecompressAsync`.
    pub const cuMemBatchDecompressAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemBatchDecompressAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemBatchDecompressAsync_ptsz`.
    pub const cuMemBatchDecompressAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemBatchDecompressAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLogsRegisterCallback`.
    pub const cuLogsRegisterCallback: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLogsRegisterCallback.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLogsUnregisterCallback`.
    pub const cuLogsUnregisterCallback: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLogsUnregisterCallback.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLogsCurrent`.
    pub const cuLogsCurrent: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLogsCurrent.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLogsDumpToFile`.
    pub const cuLogsDumpToFile: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLogsDumpToFile.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuLogsDumpToMemory`.
    pub const cuLogsDumpToMemory: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLogsDumpToMemory.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessGetRestoreThreadId`.
    pub const cuCheckpointProcessGetRestoreThreadId: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessGetRestoreThreadId.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessGetState`.
    pub const cuCheckpointProcessGetState: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessGetState.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessLock`.
    pub const cuCheckpointProcessLock: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessLock.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessCheckpoint`.
    pub const cuCheckpointProcessCheckpoint: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessCheckpoint.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessRestore`.
    pub const cuCheckpointProcessRestore: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessRestore.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessUnlock`.
    pub const cuCheckpointProcessUnlock: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCheckpointProcessUnlock.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetDevice`.
    pub const cuStreamGetDevice: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetDevice.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamGetDevice_ptsz`.
    pub const cuStreamGetDevice_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamGetDevice_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync`.
    pub const cuMemcpyBatchAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_ptsz`.
    pub const cuMemcpyBatchAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync`.
    pub const cuMemcpy3DBatchAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_ptsz`.
    pub const cuMemcpy3DBatchAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime_v2`.
    pub const cuEventElapsedTime_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2colWide`.
    pub const cuTensorMapEncodeIm2colWide: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeIm2colWide.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuGreenCtxGetId`.
    pub const cuGreenCtxGetId: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuGreenCtxGetId.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuStreamCreateForCaptureToCig`.
    pub const cuStreamCreateForCaptureToCig: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuStreamCreateForCaptureToCig.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchBatchAsync`.
    pub const cuMemPrefetchBatchAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchBatchAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchBatchAsync_ptsz`.
    pub const cuMemPrefetchBatchAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchBatchAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSemaphoreCreate`.
    pub const cuSemaphoreCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSemaphoreCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSemaphoreExport`.
    pub const cuSemaphoreExport: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSemaphoreExport.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuSemaphoreDestroy`.
    pub const cuSemaphoreDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuSemaphoreDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemDiscardBatchAsync`.
    pub const cuMemDiscardBatchAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemDiscardBatchAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemDiscardBatchAsync_ptsz`.
    pub const cuMemDiscardBatchAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemDiscardBatchAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemDiscardAndPrefetchBatchAsync`.
    pub const cuMemDiscardAndPrefetchBatchAsync: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemDiscardAndPrefetchBatchAsync.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemDiscardAndPrefetchBatchAsync_ptsz`.
    pub const cuMemDiscardAndPrefetchBatchAsync_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemDiscardAndPrefetchBatchAsync_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMultiKernelCooperativeDomainCreate`.
    pub const cuMultiKernelCooperativeDomainCreate: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMultiKernelCooperativeDomainCreate.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMultiKernelCooperativeDomainDestroy`.
    pub const cuMultiKernelCooperativeDomainDestroy: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMultiKernelCooperativeDomainDestroy.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice_v2`.
    pub const cuCtxGetDevice_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2`.
    pub const cuMemcpyBatchAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2_ptsz`.
    pub const cuMemcpyBatchAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpyBatchAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2`.
    pub const cuMemcpy3DBatchAsync_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2_ptsz`.
    pub const cuMemcpy3DBatchAsync_v2_ptsz: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DBatchAsync_v2_ptsz.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2`.
    pub const cuCtxSynchronize_v2: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetDefaultMemPool`.
    pub const cuMemGetDefaultMemPool: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetDefaultMemPool.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemGetMemPool`.
    pub const cuMemGetMemPool: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemGetMemPool.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuMemSetMemPool`.
    pub const cuMemSetMemPool: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemSetMemPool.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetP2PAtomicCapabilities`.
    pub const cuDeviceGetP2PAtomicCapabilities: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetP2PAtomicCapabilities.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDeviceGetHostAtomicCapabilities`.
    pub const cuDeviceGetHostAtomicCapabilities: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDeviceGetHostAtomicCapabilities.0);
    /// `CUPTI_DRIVER_TRACE_CBID_cuDriverGetGpuCodeIsaVersion`.
    pub const cuDriverGetGpuCodeIsaVersion: DriverCbid = DriverCbid(CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDriverGetGpuCodeIsaVersion.0);
}

impl RuntimeCbid {
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020`.
    pub const cudaDriverGetVersion_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020`.
    pub const cudaRuntimeGetVersion_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020`.
    pub const cudaGetDeviceCount_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v3020`.
    pub const cudaGetDeviceProperties_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaChooseDevice_v3020`.
    pub const cudaChooseDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaChooseDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetChannelDesc_v3020`.
    pub const cudaGetChannelDesc_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetChannelDesc_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaCreateChannelDesc_v3020`.
    pub const cudaCreateChannelDesc_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaCreateChannelDesc_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaConfigureCall_v3020`.
    pub const cudaConfigureCall_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaConfigureCall_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSetupArgument_v3020`.
    pub const cudaSetupArgument_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSetupArgument_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020`.
    pub const cudaGetLastError_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020`.
    pub const cudaPeekAtLastError_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorString_v3020`.
    pub const cudaGetErrorString_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorString_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020`.
    pub const cudaLaunch_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetCacheConfig_v3020`.
    pub const cudaFuncSetCacheConfig_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetCacheConfig_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020`.
    pub const cudaFuncGetAttributes_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020`.
    pub const cudaSetDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020`.
    pub const cudaGetDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSetValidDevices_v3020`.
    pub const cudaSetValidDevices_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSetValidDevices_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSetDeviceFlags_v3020`.
    pub const cudaSetDeviceFlags_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSetDeviceFlags_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020`.
    pub const cudaMalloc_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMallocPitch_v3020`.
    pub const cudaMallocPitch_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMallocPitch_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020`.
    pub const cudaFree_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMallocArray_v3020`.
    pub const cudaMallocArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMallocArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFreeArray_v3020`.
    pub const cudaFreeArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFreeArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020`.
    pub const cudaMallocHost_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020`.
    pub const cudaFreeHost_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020`.
    pub const cudaHostAlloc_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaHostGetDevicePointer_v3020`.
    pub const cudaHostGetDevicePointer_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaHostGetDevicePointer_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaHostGetFlags_v3020`.
    pub const cudaHostGetFlags_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaHostGetFlags_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemGetInfo_v3020`.
    pub const cudaMemGetInfo_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemGetInfo_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020`.
    pub const cudaMemcpy_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020`.
    pub const cudaMemcpy2D_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_v3020`.
    pub const cudaMemcpyToArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_v3020`.
    pub const cudaMemcpy2DToArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_v3020`.
    pub const cudaMemcpyFromArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_v3020`.
    pub const cudaMemcpy2DFromArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_v3020`.
    pub const cudaMemcpyArrayToArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_v3020`.
    pub const cudaMemcpy2DArrayToArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020`.
    pub const cudaMemcpyToSymbol_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_v3020`.
    pub const cudaMemcpyFromSymbol_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020`.
    pub const cudaMemcpyAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArrayAsync_v3020`.
    pub const cudaMemcpyToArrayAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArrayAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArrayAsync_v3020`.
    pub const cudaMemcpyFromArrayAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArrayAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020`.
    pub const cudaMemcpy2DAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArrayAsync_v3020`.
    pub const cudaMemcpy2DToArrayAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArrayAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArrayAsync_v3020`.
    pub const cudaMemcpy2DFromArrayAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArrayAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_v3020`.
    pub const cudaMemcpyToSymbolAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_v3020`.
    pub const cudaMemcpyFromSymbolAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020`.
    pub const cudaMemset_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_v3020`.
    pub const cudaMemset2D_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020`.
    pub const cudaMemsetAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_v3020`.
    pub const cudaMemset2DAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetSymbolAddress_v3020`.
    pub const cudaGetSymbolAddress_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetSymbolAddress_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetSymbolSize_v3020`.
    pub const cudaGetSymbolSize_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetSymbolSize_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaBindTexture_v3020`.
    pub const cudaBindTexture_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaBindTexture_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaBindTexture2D_v3020`.
    pub const cudaBindTexture2D_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaBindTexture2D_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaBindTextureToArray_v3020`.
    pub const cudaBindTextureToArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaBindTextureToArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaUnbindTexture_v3020`.
    pub const cudaUnbindTexture_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaUnbindTexture_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureAlignmentOffset_v3020`.
    pub const cudaGetTextureAlignmentOffset_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureAlignmentOffset_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureReference_v3020`.
    pub const cudaGetTextureReference_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureReference_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaBindSurfaceToArray_v3020`.
    pub const cudaBindSurfaceToArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaBindSurfaceToArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetSurfaceReference_v3020`.
    pub const cudaGetSurfaceReference_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetSurfaceReference_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGLSetGLDevice_v3020`.
    pub const cudaGLSetGLDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGLSetGLDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGLRegisterBufferObject_v3020`.
    pub const cudaGLRegisterBufferObject_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGLRegisterBufferObject_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGLMapBufferObject_v3020`.
    pub const cudaGLMapBufferObject_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGLMapBufferObject_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGLUnmapBufferObject_v3020`.
    pub const cudaGLUnmapBufferObject_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGLUnmapBufferObject_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGLUnregisterBufferObject_v3020`.
    pub const cudaGLUnregisterBufferObject_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGLUnregisterBufferObject_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGLSetBufferObjectMapFlags_v3020`.
    pub const cudaGLSetBufferObjectMapFlags_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGLSetBufferObjectMapFlags_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGLMapBufferObjectAsync_v3020`.
    pub const cudaGLMapBufferObjectAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGLMapBufferObjectAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGLUnmapBufferObjectAsync_v3020`.
    pub const cudaGLUnmapBufferObjectAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGLUnmapBufferObjectAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaWGLGetDevice_v3020`.
    pub const cudaWGLGetDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaWGLGetDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsGLRegisterImage_v3020`.
    pub const cudaGraphicsGLRegisterImage_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsGLRegisterImage_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsGLRegisterBuffer_v3020`.
    pub const cudaGraphicsGLRegisterBuffer_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsGLRegisterBuffer_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsUnregisterResource_v3020`.
    pub const cudaGraphicsUnregisterResource_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsUnregisterResource_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceSetMapFlags_v3020`.
    pub const cudaGraphicsResourceSetMapFlags_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceSetMapFlags_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsMapResources_v3020`.
    pub const cudaGraphicsMapResources_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsMapResources_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsUnmapResources_v3020`.
    pub const cudaGraphicsUnmapResources_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsUnmapResources_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceGetMappedPointer_v3020`.
    pub const cudaGraphicsResourceGetMappedPointer_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceGetMappedPointer_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsSubResourceGetMappedArray_v3020`.
    pub const cudaGraphicsSubResourceGetMappedArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsSubResourceGetMappedArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaVDPAUGetDevice_v3020`.
    pub const cudaVDPAUGetDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaVDPAUGetDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaVDPAUSetVDPAUDevice_v3020`.
    pub const cudaVDPAUSetVDPAUDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaVDPAUSetVDPAUDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsVDPAURegisterVideoSurface_v3020`.
    pub const cudaGraphicsVDPAURegisterVideoSurface_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsVDPAURegisterVideoSurface_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsVDPAURegisterOutputSurface_v3020`.
    pub const cudaGraphicsVDPAURegisterOutputSurface_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsVDPAURegisterOutputSurface_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D11GetDevice_v3020`.
    pub const cudaD3D11GetDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D11GetDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D11GetDevices_v3020`.
    pub const cudaD3D11GetDevices_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D11GetDevices_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D11SetDirect3DDevice_v3020`.
    pub const cudaD3D11SetDirect3DDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D11SetDirect3DDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsD3D11RegisterResource_v3020`.
    pub const cudaGraphicsD3D11RegisterResource_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsD3D11RegisterResource_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10GetDevice_v3020`.
    pub const cudaD3D10GetDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10GetDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10GetDevices_v3020`.
    pub const cudaD3D10GetDevices_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10GetDevices_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10SetDirect3DDevice_v3020`.
    pub const cudaD3D10SetDirect3DDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10SetDirect3DDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsD3D10RegisterResource_v3020`.
    pub const cudaGraphicsD3D10RegisterResource_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsD3D10RegisterResource_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10RegisterResource_v3020`.
    pub const cudaD3D10RegisterResource_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10RegisterResource_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10UnregisterResource_v3020`.
    pub const cudaD3D10UnregisterResource_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10UnregisterResource_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10MapResources_v3020`.
    pub const cudaD3D10MapResources_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10MapResources_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10UnmapResources_v3020`.
    pub const cudaD3D10UnmapResources_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10UnmapResources_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceSetMapFlags_v3020`.
    pub const cudaD3D10ResourceSetMapFlags_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceSetMapFlags_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetSurfaceDimensions_v3020`.
    pub const cudaD3D10ResourceGetSurfaceDimensions_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetSurfaceDimensions_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedArray_v3020`.
    pub const cudaD3D10ResourceGetMappedArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedPointer_v3020`.
    pub const cudaD3D10ResourceGetMappedPointer_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedPointer_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedSize_v3020`.
    pub const cudaD3D10ResourceGetMappedSize_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedSize_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedPitch_v3020`.
    pub const cudaD3D10ResourceGetMappedPitch_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10ResourceGetMappedPitch_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9GetDevice_v3020`.
    pub const cudaD3D9GetDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9GetDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9GetDevices_v3020`.
    pub const cudaD3D9GetDevices_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9GetDevices_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9SetDirect3DDevice_v3020`.
    pub const cudaD3D9SetDirect3DDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9SetDirect3DDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9GetDirect3DDevice_v3020`.
    pub const cudaD3D9GetDirect3DDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9GetDirect3DDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsD3D9RegisterResource_v3020`.
    pub const cudaGraphicsD3D9RegisterResource_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsD3D9RegisterResource_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9RegisterResource_v3020`.
    pub const cudaD3D9RegisterResource_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9RegisterResource_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnregisterResource_v3020`.
    pub const cudaD3D9UnregisterResource_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnregisterResource_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9MapResources_v3020`.
    pub const cudaD3D9MapResources_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9MapResources_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnmapResources_v3020`.
    pub const cudaD3D9UnmapResources_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnmapResources_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceSetMapFlags_v3020`.
    pub const cudaD3D9ResourceSetMapFlags_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceSetMapFlags_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetSurfaceDimensions_v3020`.
    pub const cudaD3D9ResourceGetSurfaceDimensions_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetSurfaceDimensions_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedArray_v3020`.
    pub const cudaD3D9ResourceGetMappedArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedPointer_v3020`.
    pub const cudaD3D9ResourceGetMappedPointer_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedPointer_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedSize_v3020`.
    pub const cudaD3D9ResourceGetMappedSize_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedSize_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedPitch_v3020`.
    pub const cudaD3D9ResourceGetMappedPitch_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9ResourceGetMappedPitch_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9Begin_v3020`.
    pub const cudaD3D9Begin_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9Begin_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9End_v3020`.
    pub const cudaD3D9End_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9End_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9RegisterVertexBuffer_v3020`.
    pub const cudaD3D9RegisterVertexBuffer_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9RegisterVertexBuffer_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnregisterVertexBuffer_v3020`.
    pub const cudaD3D9UnregisterVertexBuffer_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnregisterVertexBuffer_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9MapVertexBuffer_v3020`.
    pub const cudaD3D9MapVertexBuffer_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9MapVertexBuffer_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnmapVertexBuffer_v3020`.
    pub const cudaD3D9UnmapVertexBuffer_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D9UnmapVertexBuffer_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaThreadExit_v3020`.
    pub const cudaThreadExit_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaThreadExit_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSetDoubleForDevice_v3020`.
    pub const cudaSetDoubleForDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSetDoubleForDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSetDoubleForHost_v3020`.
    pub const cudaSetDoubleForHost_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSetDoubleForHost_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020`.
    pub const cudaThreadSynchronize_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaThreadGetLimit_v3020`.
    pub const cudaThreadGetLimit_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaThreadGetLimit_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaThreadSetLimit_v3020`.
    pub const cudaThreadSetLimit_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaThreadSetLimit_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020`.
    pub const cudaStreamCreate_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v3020`.
    pub const cudaStreamDestroy_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020`.
    pub const cudaStreamSynchronize_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020`.
    pub const cudaStreamQuery_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventCreate_v3020`.
    pub const cudaEventCreate_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventCreate_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020`.
    pub const cudaEventCreateWithFlags_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020`.
    pub const cudaEventRecord_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020`.
    pub const cudaEventDestroy_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020`.
    pub const cudaEventSynchronize_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020`.
    pub const cudaEventQuery_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v3020`.
    pub const cudaEventElapsedTime_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMalloc3D_v3020`.
    pub const cudaMalloc3D_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMalloc3D_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMalloc3DArray_v3020`.
    pub const cudaMalloc3DArray_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMalloc3DArray_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_v3020`.
    pub const cudaMemset3D_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_v3020`.
    pub const cudaMemset3DAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_v3020`.
    pub const cudaMemcpy3D_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_v3020`.
    pub const cudaMemcpy3DAsync_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaThreadSetCacheConfig_v3020`.
    pub const cudaThreadSetCacheConfig_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaThreadSetCacheConfig_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020`.
    pub const cudaStreamWaitEvent_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D11GetDirect3DDevice_v3020`.
    pub const cudaD3D11GetDirect3DDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D11GetDirect3DDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaD3D10GetDirect3DDevice_v3020`.
    pub const cudaD3D10GetDirect3DDevice_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaD3D10GetDirect3DDevice_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaThreadGetCacheConfig_v3020`.
    pub const cudaThreadGetCacheConfig_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaThreadGetCacheConfig_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaPointerGetAttributes_v4000`.
    pub const cudaPointerGetAttributes_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaPointerGetAttributes_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaHostRegister_v4000`.
    pub const cudaHostRegister_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaHostRegister_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaHostUnregister_v4000`.
    pub const cudaHostUnregister_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaHostUnregister_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceCanAccessPeer_v4000`.
    pub const cudaDeviceCanAccessPeer_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceCanAccessPeer_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceEnablePeerAccess_v4000`.
    pub const cudaDeviceEnablePeerAccess_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceEnablePeerAccess_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceDisablePeerAccess_v4000`.
    pub const cudaDeviceDisablePeerAccess_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceDisablePeerAccess_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaPeerRegister_v4000`.
    pub const cudaPeerRegister_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaPeerRegister_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaPeerUnregister_v4000`.
    pub const cudaPeerUnregister_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaPeerUnregister_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaPeerGetDevicePointer_v4000`.
    pub const cudaPeerGetDevicePointer_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaPeerGetDevicePointer_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeer_v4000`.
    pub const cudaMemcpyPeer_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeer_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000`.
    pub const cudaMemcpyPeerAsync_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_v4000`.
    pub const cudaMemcpy3DPeer_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeerAsync_v4000`.
    pub const cudaMemcpy3DPeerAsync_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeerAsync_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020`.
    pub const cudaDeviceReset_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020`.
    pub const cudaDeviceSynchronize_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetLimit_v3020`.
    pub const cudaDeviceGetLimit_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetLimit_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetLimit_v3020`.
    pub const cudaDeviceSetLimit_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetLimit_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetCacheConfig_v3020`.
    pub const cudaDeviceGetCacheConfig_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetCacheConfig_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetCacheConfig_v3020`.
    pub const cudaDeviceSetCacheConfig_v3020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetCacheConfig_v3020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaProfilerInitialize_v4000`.
    pub const cudaProfilerInitialize_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaProfilerInitialize_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000`.
    pub const cudaProfilerStart_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000`.
    pub const cudaProfilerStop_v4000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetByPCIBusId_v4010`.
    pub const cudaDeviceGetByPCIBusId_v4010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetByPCIBusId_v4010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetPCIBusId_v4010`.
    pub const cudaDeviceGetPCIBusId_v4010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetPCIBusId_v4010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGLGetDevices_v4010`.
    pub const cudaGLGetDevices_v4010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGLGetDevices_v4010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaIpcGetEventHandle_v4010`.
    pub const cudaIpcGetEventHandle_v4010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaIpcGetEventHandle_v4010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaIpcOpenEventHandle_v4010`.
    pub const cudaIpcOpenEventHandle_v4010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaIpcOpenEventHandle_v4010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaIpcGetMemHandle_v4010`.
    pub const cudaIpcGetMemHandle_v4010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaIpcGetMemHandle_v4010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaIpcOpenMemHandle_v4010`.
    pub const cudaIpcOpenMemHandle_v4010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaIpcOpenMemHandle_v4010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaIpcCloseMemHandle_v4010`.
    pub const cudaIpcCloseMemHandle_v4010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaIpcCloseMemHandle_v4010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetInfo_v4010`.
    pub const cudaArrayGetInfo_v4010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetInfo_v4010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetSharedMemConfig_v4020`.
    pub const cudaFuncSetSharedMemConfig_v4020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetSharedMemConfig_v4020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetSharedMemConfig_v4020`.
    pub const cudaDeviceGetSharedMemConfig_v4020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetSharedMemConfig_v4020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetSharedMemConfig_v4020`.
    pub const cudaDeviceSetSharedMemConfig_v4020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetSharedMemConfig_v4020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaCreateTextureObject_v5000`.
    pub const cudaCreateTextureObject_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaCreateTextureObject_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDestroyTextureObject_v5000`.
    pub const cudaDestroyTextureObject_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDestroyTextureObject_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectResourceDesc_v5000`.
    pub const cudaGetTextureObjectResourceDesc_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectResourceDesc_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectTextureDesc_v5000`.
    pub const cudaGetTextureObjectTextureDesc_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectTextureDesc_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaCreateSurfaceObject_v5000`.
    pub const cudaCreateSurfaceObject_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaCreateSurfaceObject_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDestroySurfaceObject_v5000`.
    pub const cudaDestroySurfaceObject_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDestroySurfaceObject_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetSurfaceObjectResourceDesc_v5000`.
    pub const cudaGetSurfaceObjectResourceDesc_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetSurfaceObjectResourceDesc_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMallocMipmappedArray_v5000`.
    pub const cudaMallocMipmappedArray_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMallocMipmappedArray_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetMipmappedArrayLevel_v5000`.
    pub const cudaGetMipmappedArrayLevel_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetMipmappedArrayLevel_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFreeMipmappedArray_v5000`.
    pub const cudaFreeMipmappedArray_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFreeMipmappedArray_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaBindTextureToMipmappedArray_v5000`.
    pub const cudaBindTextureToMipmappedArray_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaBindTextureToMipmappedArray_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceGetMappedMipmappedArray_v5000`.
    pub const cudaGraphicsResourceGetMappedMipmappedArray_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceGetMappedMipmappedArray_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_v5000`.
    pub const cudaStreamAddCallback_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000`.
    pub const cudaStreamCreateWithFlags_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectResourceViewDesc_v5000`.
    pub const cudaGetTextureObjectResourceViewDesc_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectResourceViewDesc_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000`.
    pub const cudaDeviceGetAttribute_v5000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050`.
    pub const cudaStreamDestroy_v5050: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050`.
    pub const cudaStreamCreateWithPriority_v5050: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetPriority_v5050`.
    pub const cudaStreamGetPriority_v5050: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetPriority_v5050.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetFlags_v5050`.
    pub const cudaStreamGetFlags_v5050: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetFlags_v5050.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetStreamPriorityRange_v5050`.
    pub const cudaDeviceGetStreamPriorityRange_v5050: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetStreamPriorityRange_v5050.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000`.
    pub const cudaMallocManaged_v6000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6000`.
    pub const cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamAttachMemAsync_v6000`.
    pub const cudaStreamAttachMemAsync_v6000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamAttachMemAsync_v6000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorName_v6050`.
    pub const cudaGetErrorName_v6050: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorName_v6050.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6050`.
    pub const cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6050: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6050.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000`.
    pub const cudaLaunchKernel_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceFlags_v7000`.
    pub const cudaGetDeviceFlags_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceFlags_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000`.
    pub const cudaLaunch_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000`.
    pub const cudaLaunchKernel_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000`.
    pub const cudaMemcpy_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_ptds_v7000`.
    pub const cudaMemcpy2D_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_ptds_v7000`.
    pub const cudaMemcpyToArray_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_ptds_v7000`.
    pub const cudaMemcpy2DToArray_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_ptds_v7000`.
    pub const cudaMemcpyFromArray_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_ptds_v7000`.
    pub const cudaMemcpy2DFromArray_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_ptds_v7000`.
    pub const cudaMemcpyArrayToArray_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_ptds_v7000`.
    pub const cudaMemcpy2DArrayToArray_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000`.
    pub const cudaMemcpyToSymbol_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_ptds_v7000`.
    pub const cudaMemcpyFromSymbol_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000`.
    pub const cudaMemcpyAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArrayAsync_ptsz_v7000`.
    pub const cudaMemcpyToArrayAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArrayAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArrayAsync_ptsz_v7000`.
    pub const cudaMemcpyFromArrayAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArrayAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_ptsz_v7000`.
    pub const cudaMemcpy2DAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArrayAsync_ptsz_v7000`.
    pub const cudaMemcpy2DToArrayAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArrayAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArrayAsync_ptsz_v7000`.
    pub const cudaMemcpy2DFromArrayAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArrayAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_ptsz_v7000`.
    pub const cudaMemcpyToSymbolAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_ptsz_v7000`.
    pub const cudaMemcpyFromSymbolAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000`.
    pub const cudaMemset_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_ptds_v7000`.
    pub const cudaMemset2D_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000`.
    pub const cudaMemsetAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_ptsz_v7000`.
    pub const cudaMemset2DAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetPriority_ptsz_v7000`.
    pub const cudaStreamGetPriority_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetPriority_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetFlags_ptsz_v7000`.
    pub const cudaStreamGetFlags_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetFlags_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000`.
    pub const cudaStreamSynchronize_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000`.
    pub const cudaStreamQuery_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamAttachMemAsync_ptsz_v7000`.
    pub const cudaStreamAttachMemAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamAttachMemAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000`.
    pub const cudaEventRecord_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_ptds_v7000`.
    pub const cudaMemset3D_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_ptsz_v7000`.
    pub const cudaMemset3DAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000`.
    pub const cudaMemcpy3D_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_ptsz_v7000`.
    pub const cudaMemcpy3DAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000`.
    pub const cudaStreamWaitEvent_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_ptsz_v7000`.
    pub const cudaStreamAddCallback_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_ptds_v7000`.
    pub const cudaMemcpy3DPeer_ptds_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_ptds_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeerAsync_ptsz_v7000`.
    pub const cudaMemcpy3DPeerAsync_ptsz_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeerAsync_ptsz_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags_v7000`.
    pub const cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_v8000`.
    pub const cudaMemPrefetchAsync_v8000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_v8000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_ptsz_v8000`.
    pub const cudaMemPrefetchAsync_ptsz_v8000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_ptsz_v8000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemAdvise_v8000`.
    pub const cudaMemAdvise_v8000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemAdvise_v8000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetP2PAttribute_v8000`.
    pub const cudaDeviceGetP2PAttribute_v8000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetP2PAttribute_v8000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsEGLRegisterImage_v7000`.
    pub const cudaGraphicsEGLRegisterImage_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsEGLRegisterImage_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerConnect_v7000`.
    pub const cudaEGLStreamConsumerConnect_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerConnect_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerDisconnect_v7000`.
    pub const cudaEGLStreamConsumerDisconnect_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerDisconnect_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerAcquireFrame_v7000`.
    pub const cudaEGLStreamConsumerAcquireFrame_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerAcquireFrame_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerReleaseFrame_v7000`.
    pub const cudaEGLStreamConsumerReleaseFrame_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerReleaseFrame_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerConnect_v7000`.
    pub const cudaEGLStreamProducerConnect_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerConnect_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerDisconnect_v7000`.
    pub const cudaEGLStreamProducerDisconnect_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerDisconnect_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerPresentFrame_v7000`.
    pub const cudaEGLStreamProducerPresentFrame_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerPresentFrame_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerReturnFrame_v7000`.
    pub const cudaEGLStreamProducerReturnFrame_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamProducerReturnFrame_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceGetMappedEglFrame_v7000`.
    pub const cudaGraphicsResourceGetMappedEglFrame_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphicsResourceGetMappedEglFrame_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemRangeGetAttribute_v8000`.
    pub const cudaMemRangeGetAttribute_v8000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemRangeGetAttribute_v8000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemRangeGetAttributes_v8000`.
    pub const cudaMemRangeGetAttributes_v8000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemRangeGetAttributes_v8000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerConnectWithFlags_v7000`.
    pub const cudaEGLStreamConsumerConnectWithFlags_v7000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEGLStreamConsumerConnectWithFlags_v7000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000`.
    pub const cudaLaunchCooperativeKernel_v9000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000`.
    pub const cudaLaunchCooperativeKernel_ptsz_v9000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateFromEGLSync_v9000`.
    pub const cudaEventCreateFromEGLSync_v9000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateFromEGLSync_v9000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000`.
    pub const cudaLaunchCooperativeKernelMultiDevice_v9000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetAttribute_v9000`.
    pub const cudaFuncSetAttribute_v9000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetAttribute_v9000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaImportExternalMemory_v10000`.
    pub const cudaImportExternalMemory_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaImportExternalMemory_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaExternalMemoryGetMappedBuffer_v10000`.
    pub const cudaExternalMemoryGetMappedBuffer_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaExternalMemoryGetMappedBuffer_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaExternalMemoryGetMappedMipmappedArray_v10000`.
    pub const cudaExternalMemoryGetMappedMipmappedArray_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaExternalMemoryGetMappedMipmappedArray_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDestroyExternalMemory_v10000`.
    pub const cudaDestroyExternalMemory_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDestroyExternalMemory_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaImportExternalSemaphore_v10000`.
    pub const cudaImportExternalSemaphore_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaImportExternalSemaphore_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_v10000`.
    pub const cudaSignalExternalSemaphoresAsync_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_ptsz_v10000`.
    pub const cudaSignalExternalSemaphoresAsync_ptsz_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_ptsz_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_v10000`.
    pub const cudaWaitExternalSemaphoresAsync_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_ptsz_v10000`.
    pub const cudaWaitExternalSemaphoresAsync_ptsz_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_ptsz_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDestroyExternalSemaphore_v10000`.
    pub const cudaDestroyExternalSemaphore_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDestroyExternalSemaphore_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_v10000`.
    pub const cudaLaunchHostFunc_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_ptsz_v10000`.
    pub const cudaLaunchHostFunc_ptsz_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_ptsz_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphCreate_v10000`.
    pub const cudaGraphCreate_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphCreate_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeGetParams_v10000`.
    pub const cudaGraphKernelNodeGetParams_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeGetParams_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeSetParams_v10000`.
    pub const cudaGraphKernelNodeSetParams_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeSetParams_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddKernelNode_v10000`.
    pub const cudaGraphAddKernelNode_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddKernelNode_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNode_v10000`.
    pub const cudaGraphAddMemcpyNode_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNode_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeGetParams_v10000`.
    pub const cudaGraphMemcpyNodeGetParams_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeGetParams_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParams_v10000`.
    pub const cudaGraphMemcpyNodeSetParams_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParams_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemsetNode_v10000`.
    pub const cudaGraphAddMemsetNode_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemsetNode_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemsetNodeGetParams_v10000`.
    pub const cudaGraphMemsetNodeGetParams_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemsetNodeGetParams_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemsetNodeSetParams_v10000`.
    pub const cudaGraphMemsetNodeSetParams_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemsetNodeSetParams_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddHostNode_v10000`.
    pub const cudaGraphAddHostNode_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddHostNode_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphHostNodeGetParams_v10000`.
    pub const cudaGraphHostNodeGetParams_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphHostNodeGetParams_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddChildGraphNode_v10000`.
    pub const cudaGraphAddChildGraphNode_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddChildGraphNode_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphChildGraphNodeGetGraph_v10000`.
    pub const cudaGraphChildGraphNodeGetGraph_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphChildGraphNodeGetGraph_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddEmptyNode_v10000`.
    pub const cudaGraphAddEmptyNode_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddEmptyNode_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphClone_v10000`.
    pub const cudaGraphClone_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphClone_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeFindInClone_v10000`.
    pub const cudaGraphNodeFindInClone_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeFindInClone_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetType_v10000`.
    pub const cudaGraphNodeGetType_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetType_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetRootNodes_v10000`.
    pub const cudaGraphGetRootNodes_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetRootNodes_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependencies_v10000`.
    pub const cudaGraphNodeGetDependencies_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependencies_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependentNodes_v10000`.
    pub const cudaGraphNodeGetDependentNodes_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependentNodes_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddDependencies_v10000`.
    pub const cudaGraphAddDependencies_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddDependencies_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphRemoveDependencies_v10000`.
    pub const cudaGraphRemoveDependencies_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphRemoveDependencies_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphDestroyNode_v10000`.
    pub const cudaGraphDestroyNode_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphDestroyNode_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v10000`.
    pub const cudaGraphInstantiate_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000`.
    pub const cudaGraphLaunch_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000`.
    pub const cudaGraphLaunch_ptsz_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecDestroy_v10000`.
    pub const cudaGraphExecDestroy_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecDestroy_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphDestroy_v10000`.
    pub const cudaGraphDestroy_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphDestroy_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000`.
    pub const cudaStreamBeginCapture_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000`.
    pub const cudaStreamBeginCapture_ptsz_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000`.
    pub const cudaStreamIsCapturing_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_ptsz_v10000`.
    pub const cudaStreamIsCapturing_ptsz_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_ptsz_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000`.
    pub const cudaStreamEndCapture_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000`.
    pub const cudaStreamEndCapture_ptsz_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphHostNodeSetParams_v10000`.
    pub const cudaGraphHostNodeSetParams_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphHostNodeSetParams_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetNodes_v10000`.
    pub const cudaGraphGetNodes_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetNodes_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetEdges_v10000`.
    pub const cudaGraphGetEdges_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetEdges_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v10010`.
    pub const cudaStreamGetCaptureInfo_v10010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v10010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v10010`.
    pub const cudaStreamGetCaptureInfo_ptsz_v10010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v10010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecKernelNodeSetParams_v10010`.
    pub const cudaGraphExecKernelNodeSetParams_v10010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecKernelNodeSetParams_v10010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaThreadExchangeStreamCaptureMode_v10010`.
    pub const cudaThreadExchangeStreamCaptureMode_v10010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaThreadExchangeStreamCaptureMode_v10010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetNvSciSyncAttributes_v10020`.
    pub const cudaDeviceGetNvSciSyncAttributes_v10020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetNvSciSyncAttributes_v10020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyAvailableDynamicSMemPerBlock_v10200`.
    pub const cudaOccupancyAvailableDynamicSMemPerBlock_v10200: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyAvailableDynamicSMemPerBlock_v10200.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetFlags_v10200`.
    pub const cudaStreamSetFlags_v10200: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetFlags_v10200.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetFlags_ptsz_v10200`.
    pub const cudaStreamSetFlags_ptsz_v10200: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetFlags_ptsz_v10200.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParams_v10020`.
    pub const cudaGraphExecMemcpyNodeSetParams_v10020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParams_v10020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemsetNodeSetParams_v10020`.
    pub const cudaGraphExecMemsetNodeSetParams_v10020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemsetNodeSetParams_v10020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecHostNodeSetParams_v10020`.
    pub const cudaGraphExecHostNodeSetParams_v10020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecHostNodeSetParams_v10020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecUpdate_v10020`.
    pub const cudaGraphExecUpdate_v10020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecUpdate_v10020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetFuncBySymbol_v11000`.
    pub const cudaGetFuncBySymbol_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetFuncBySymbol_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaCtxResetPersistingL2Cache_v11000`.
    pub const cudaCtxResetPersistingL2Cache_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaCtxResetPersistingL2Cache_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeCopyAttributes_v11000`.
    pub const cudaGraphKernelNodeCopyAttributes_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeCopyAttributes_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeGetAttribute_v11000`.
    pub const cudaGraphKernelNodeGetAttribute_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeGetAttribute_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeSetAttribute_v11000`.
    pub const cudaGraphKernelNodeSetAttribute_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeSetAttribute_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamCopyAttributes_v11000`.
    pub const cudaStreamCopyAttributes_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamCopyAttributes_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamCopyAttributes_ptsz_v11000`.
    pub const cudaStreamCopyAttributes_ptsz_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamCopyAttributes_ptsz_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetAttribute_v11000`.
    pub const cudaStreamGetAttribute_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetAttribute_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetAttribute_ptsz_v11000`.
    pub const cudaStreamGetAttribute_ptsz_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetAttribute_ptsz_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_v11000`.
    pub const cudaStreamSetAttribute_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_ptsz_v11000`.
    pub const cudaStreamSetAttribute_ptsz_v11000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_ptsz_v11000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetTexture1DLinearMaxWidth_v11010`.
    pub const cudaDeviceGetTexture1DLinearMaxWidth_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetTexture1DLinearMaxWidth_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphUpload_v10000`.
    pub const cudaGraphUpload_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphUpload_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphUpload_ptsz_v10000`.
    pub const cudaGraphUpload_ptsz_v10000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphUpload_ptsz_v10000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNodeToSymbol_v11010`.
    pub const cudaGraphAddMemcpyNodeToSymbol_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNodeToSymbol_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNodeFromSymbol_v11010`.
    pub const cudaGraphAddMemcpyNodeFromSymbol_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNodeFromSymbol_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNode1D_v11010`.
    pub const cudaGraphAddMemcpyNode1D_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemcpyNode1D_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParamsToSymbol_v11010`.
    pub const cudaGraphMemcpyNodeSetParamsToSymbol_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParamsToSymbol_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParamsFromSymbol_v11010`.
    pub const cudaGraphMemcpyNodeSetParamsFromSymbol_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParamsFromSymbol_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParams1D_v11010`.
    pub const cudaGraphMemcpyNodeSetParams1D_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemcpyNodeSetParams1D_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParamsToSymbol_v11010`.
    pub const cudaGraphExecMemcpyNodeSetParamsToSymbol_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParamsToSymbol_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParamsFromSymbol_v11010`.
    pub const cudaGraphExecMemcpyNodeSetParamsFromSymbol_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParamsFromSymbol_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParams1D_v11010`.
    pub const cudaGraphExecMemcpyNodeSetParams1D_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecMemcpyNodeSetParams1D_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetSparseProperties_v11010`.
    pub const cudaArrayGetSparseProperties_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetSparseProperties_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMipmappedArrayGetSparseProperties_v11010`.
    pub const cudaMipmappedArrayGetSparseProperties_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMipmappedArrayGetSparseProperties_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecChildGraphNodeSetParams_v11010`.
    pub const cudaGraphExecChildGraphNodeSetParams_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecChildGraphNodeSetParams_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddEventRecordNode_v11010`.
    pub const cudaGraphAddEventRecordNode_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddEventRecordNode_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventRecordNodeGetEvent_v11010`.
    pub const cudaGraphEventRecordNodeGetEvent_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventRecordNodeGetEvent_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventRecordNodeSetEvent_v11010`.
    pub const cudaGraphEventRecordNodeSetEvent_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventRecordNodeSetEvent_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddEventWaitNode_v11010`.
    pub const cudaGraphAddEventWaitNode_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddEventWaitNode_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventWaitNodeGetEvent_v11010`.
    pub const cudaGraphEventWaitNodeGetEvent_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventWaitNodeGetEvent_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventWaitNodeSetEvent_v11010`.
    pub const cudaGraphEventWaitNodeSetEvent_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphEventWaitNodeSetEvent_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecEventRecordNodeSetEvent_v11010`.
    pub const cudaGraphExecEventRecordNodeSetEvent_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecEventRecordNodeSetEvent_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecEventWaitNodeSetEvent_v11010`.
    pub const cudaGraphExecEventWaitNodeSetEvent_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecEventWaitNodeSetEvent_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010`.
    pub const cudaEventRecordWithFlags_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010`.
    pub const cudaEventRecordWithFlags_ptsz_v11010: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetDefaultMemPool_v11020`.
    pub const cudaDeviceGetDefaultMemPool_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetDefaultMemPool_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020`.
    pub const cudaMallocAsync_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020`.
    pub const cudaMallocAsync_ptsz_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020`.
    pub const cudaFreeAsync_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020`.
    pub const cudaFreeAsync_ptsz_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolTrimTo_v11020`.
    pub const cudaMemPoolTrimTo_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolTrimTo_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolSetAttribute_v11020`.
    pub const cudaMemPoolSetAttribute_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolSetAttribute_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolGetAttribute_v11020`.
    pub const cudaMemPoolGetAttribute_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolGetAttribute_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolSetAccess_v11020`.
    pub const cudaMemPoolSetAccess_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolSetAccess_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetPlane_v11020`.
    pub const cudaArrayGetPlane_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetPlane_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolGetAccess_v11020`.
    pub const cudaMemPoolGetAccess_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolGetAccess_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolCreate_v11020`.
    pub const cudaMemPoolCreate_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolCreate_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolDestroy_v11020`.
    pub const cudaMemPoolDestroy_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolDestroy_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetMemPool_v11020`.
    pub const cudaDeviceSetMemPool_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetMemPool_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetMemPool_v11020`.
    pub const cudaDeviceGetMemPool_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetMemPool_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolExportToShareableHandle_v11020`.
    pub const cudaMemPoolExportToShareableHandle_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolExportToShareableHandle_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolImportFromShareableHandle_v11020`.
    pub const cudaMemPoolImportFromShareableHandle_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolImportFromShareableHandle_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolExportPointer_v11020`.
    pub const cudaMemPoolExportPointer_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolExportPointer_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolImportPointer_v11020`.
    pub const cudaMemPoolImportPointer_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolImportPointer_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_v11020`.
    pub const cudaMallocFromPoolAsync_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_ptsz_v11020`.
    pub const cudaMallocFromPoolAsync_ptsz_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMallocFromPoolAsync_ptsz_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_v11020`.
    pub const cudaSignalExternalSemaphoresAsync_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_ptsz_v11020`.
    pub const cudaSignalExternalSemaphoresAsync_ptsz_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaSignalExternalSemaphoresAsync_ptsz_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_v11020`.
    pub const cudaWaitExternalSemaphoresAsync_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_ptsz_v11020`.
    pub const cudaWaitExternalSemaphoresAsync_ptsz_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaWaitExternalSemaphoresAsync_ptsz_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddExternalSemaphoresSignalNode_v11020`.
    pub const cudaGraphAddExternalSemaphoresSignalNode_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddExternalSemaphoresSignalNode_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresSignalNodeGetParams_v11020`.
    pub const cudaGraphExternalSemaphoresSignalNodeGetParams_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresSignalNodeGetParams_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresSignalNodeSetParams_v11020`.
    pub const cudaGraphExternalSemaphoresSignalNodeSetParams_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresSignalNodeSetParams_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddExternalSemaphoresWaitNode_v11020`.
    pub const cudaGraphAddExternalSemaphoresWaitNode_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddExternalSemaphoresWaitNode_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresWaitNodeGetParams_v11020`.
    pub const cudaGraphExternalSemaphoresWaitNodeGetParams_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresWaitNodeGetParams_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresWaitNodeSetParams_v11020`.
    pub const cudaGraphExternalSemaphoresWaitNodeSetParams_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExternalSemaphoresWaitNodeSetParams_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecExternalSemaphoresSignalNodeSetParams_v11020`.
    pub const cudaGraphExecExternalSemaphoresSignalNodeSetParams_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecExternalSemaphoresSignalNodeSetParams_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecExternalSemaphoresWaitNodeSetParams_v11020`.
    pub const cudaGraphExecExternalSemaphoresWaitNodeSetParams_v11020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecExternalSemaphoresWaitNodeSetParams_v11020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceFlushGPUDirectRDMAWrites_v11030`.
    pub const cudaDeviceFlushGPUDirectRDMAWrites_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceFlushGPUDirectRDMAWrites_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_v11030`.
    pub const cudaGetDriverEntryPoint_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_ptsz_v11030`.
    pub const cudaGetDriverEntryPoint_ptsz_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_ptsz_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphDebugDotPrint_v11030`.
    pub const cudaGraphDebugDotPrint_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphDebugDotPrint_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030`.
    pub const cudaStreamGetCaptureInfo_v2_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_ptsz_v11030`.
    pub const cudaStreamGetCaptureInfo_v2_ptsz_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_ptsz_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_v11030`.
    pub const cudaStreamUpdateCaptureDependencies_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_ptsz_v11030`.
    pub const cudaStreamUpdateCaptureDependencies_ptsz_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_ptsz_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaUserObjectCreate_v11030`.
    pub const cudaUserObjectCreate_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaUserObjectCreate_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaUserObjectRetain_v11030`.
    pub const cudaUserObjectRetain_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaUserObjectRetain_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaUserObjectRelease_v11030`.
    pub const cudaUserObjectRelease_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaUserObjectRelease_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphRetainUserObject_v11030`.
    pub const cudaGraphRetainUserObject_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphRetainUserObject_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphReleaseUserObject_v11030`.
    pub const cudaGraphReleaseUserObject_v11030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphReleaseUserObject_v11030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040`.
    pub const cudaGraphInstantiateWithFlags_v11040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemAllocNode_v11040`.
    pub const cudaGraphAddMemAllocNode_v11040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemAllocNode_v11040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemAllocNodeGetParams_v11040`.
    pub const cudaGraphMemAllocNodeGetParams_v11040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemAllocNodeGetParams_v11040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemFreeNode_v11040`.
    pub const cudaGraphAddMemFreeNode_v11040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddMemFreeNode_v11040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemFreeNodeGetParams_v11040`.
    pub const cudaGraphMemFreeNodeGetParams_v11040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphMemFreeNodeGetParams_v11040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGraphMemTrim_v11040`.
    pub const cudaDeviceGraphMemTrim_v11040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGraphMemTrim_v11040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetGraphMemAttribute_v11040`.
    pub const cudaDeviceGetGraphMemAttribute_v11040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetGraphMemAttribute_v11040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetGraphMemAttribute_v11040`.
    pub const cudaDeviceSetGraphMemAttribute_v11040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetGraphMemAttribute_v11040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeSetEnabled_v11060`.
    pub const cudaGraphNodeSetEnabled_v11060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeSetEnabled_v11060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetEnabled_v11060`.
    pub const cudaGraphNodeGetEnabled_v11060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetEnabled_v11060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetMemoryRequirements_v11060`.
    pub const cudaArrayGetMemoryRequirements_v11060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaArrayGetMemoryRequirements_v11060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMipmappedArrayGetMemoryRequirements_v11060`.
    pub const cudaMipmappedArrayGetMemoryRequirements_v11060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMipmappedArrayGetMemoryRequirements_v11060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060`.
    pub const cudaLaunchKernelExC_v11060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060`.
    pub const cudaLaunchKernelExC_ptsz_v11060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxPotentialClusterSize_v11070`.
    pub const cudaOccupancyMaxPotentialClusterSize_v11070: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxPotentialClusterSize_v11070.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveClusters_v11070`.
    pub const cudaOccupancyMaxActiveClusters_v11070: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveClusters_v11070.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaCreateTextureObject_v2_v11080`.
    pub const cudaCreateTextureObject_v2_v11080: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaCreateTextureObject_v2_v11080.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectTextureDesc_v2_v11080`.
    pub const cudaGetTextureObjectTextureDesc_v2_v11080: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetTextureObjectTextureDesc_v2_v11080.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_v12000`.
    pub const cudaGraphInstantiateWithParams_v12000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_v12000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_ptsz_v12000`.
    pub const cudaGraphInstantiateWithParams_ptsz_v12000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_ptsz_v12000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecGetFlags_v12000`.
    pub const cudaGraphExecGetFlags_v12000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecGetFlags_v12000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetKernel_v12000`.
    pub const cudaGetKernel_v12000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetKernel_v12000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v12000`.
    pub const cudaGetDeviceProperties_v12000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v12000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_v12000`.
    pub const cudaStreamGetId_v12000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_v12000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_ptsz_v12000`.
    pub const cudaStreamGetId_ptsz_v12000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_ptsz_v12000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000`.
    pub const cudaGraphInstantiate_v12000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaInitDevice_v12000`.
    pub const cudaInitDevice_v12000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaInitDevice_v12000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddNode_v12020`.
    pub const cudaGraphAddNode_v12020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddNode_v12020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeSetParams_v12020`.
    pub const cudaGraphNodeSetParams_v12020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeSetParams_v12020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecNodeSetParams_v12020`.
    pub const cudaGraphExecNodeSetParams_v12020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphExecNodeSetParams_v12020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemAdvise_v12020`.
    pub const cudaMemAdvise_v12020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemAdvise_v12020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_v12020`.
    pub const cudaMemPrefetchAsync_v12020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_v12020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_ptsz_v12020`.
    pub const cudaMemPrefetchAsync_ptsz_v12020: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchAsync_ptsz_v12020.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetName_v12030`.
    pub const cudaFuncGetName_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetName_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030`.
    pub const cudaStreamBeginCaptureToGraph_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030`.
    pub const cudaStreamBeginCaptureToGraph_ptsz_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphConditionalHandleCreate_v12030`.
    pub const cudaGraphConditionalHandleCreate_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphConditionalHandleCreate_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetEdges_v12030`.
    pub const cudaGraphGetEdges_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphGetEdges_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependencies_v12030`.
    pub const cudaGraphNodeGetDependencies_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependencies_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependentNodes_v12030`.
    pub const cudaGraphNodeGetDependentNodes_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphNodeGetDependentNodes_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddDependencies_v12030`.
    pub const cudaGraphAddDependencies_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddDependencies_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphRemoveDependencies_v12030`.
    pub const cudaGraphRemoveDependencies_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphRemoveDependencies_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddNode_v12030`.
    pub const cudaGraphAddNode_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGraphAddNode_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v12030`.
    pub const cudaStreamGetCaptureInfo_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v12030`.
    pub const cudaStreamGetCaptureInfo_ptsz_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_v12030`.
    pub const cudaStreamUpdateCaptureDependencies_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_ptsz_v12030`.
    pub const cudaStreamUpdateCaptureDependencies_ptsz_v12030: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamUpdateCaptureDependencies_ptsz_v12030.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceRegisterAsyncNotification_v12040`.
    pub const cudaDeviceRegisterAsyncNotification_v12040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceRegisterAsyncNotification_v12040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceUnregisterAsyncNotification_v12040`.
    pub const cudaDeviceUnregisterAsyncNotification_v12040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceUnregisterAsyncNotification_v12040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetParamInfo_v12040`.
    pub const cudaFuncGetParamInfo_v12040: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetParamInfo_v12040.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_v12050`.
    pub const cudaGetDriverEntryPointByVersion_v12050: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_v12050.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_ptsz_v12050`.
    pub const cudaGetDriverEntryPointByVersion_ptsz_v12050: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_ptsz_v12050.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLibraryLoadData_v12060`.
    pub const cudaLibraryLoadData_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLibraryLoadData_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLibraryLoadFromFile_v12060`.
    pub const cudaLibraryLoadFromFile_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLibraryLoadFromFile_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLibraryUnload_v12060`.
    pub const cudaLibraryUnload_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLibraryUnload_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetKernel_v12060`.
    pub const cudaLibraryGetKernel_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetKernel_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetGlobal_v12060`.
    pub const cudaLibraryGetGlobal_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetGlobal_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetManaged_v12060`.
    pub const cudaLibraryGetManaged_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetManaged_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetUnifiedFunction_v12060`.
    pub const cudaLibraryGetUnifiedFunction_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetUnifiedFunction_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetKernelCount_v12060`.
    pub const cudaLibraryGetKernelCount_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLibraryGetKernelCount_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLibraryEnumerateKernels_v12060`.
    pub const cudaLibraryEnumerateKernels_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLibraryEnumerateKernels_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaKernelSetAttributeForDevice_v12060`.
    pub const cudaKernelSetAttributeForDevice_v12060: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaKernelSetAttributeForDevice_v12060.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetDevice_v12080`.
    pub const cudaStreamGetDevice_v12080: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetDevice_v12080.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetDevice_ptsz_v12080`.
    pub const cudaStreamGetDevice_ptsz_v12080: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetDevice_ptsz_v12080.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_v12080`.
    pub const cudaMemcpyBatchAsync_v12080: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_v12080.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_ptsz_v12080`.
    pub const cudaMemcpyBatchAsync_ptsz_v12080: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_ptsz_v12080.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_v12080`.
    pub const cudaMemcpy3DBatchAsync_v12080: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_v12080.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_ptsz_v12080`.
    pub const cudaMemcpy3DBatchAsync_ptsz_v12080: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_ptsz_v12080.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080`.
    pub const cudaEventElapsedTime_v12080: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchBatchAsync_v13000`.
    pub const cudaMemPrefetchBatchAsync_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchBatchAsync_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchBatchAsync_ptsz_v13000`.
    pub const cudaMemPrefetchBatchAsync_ptsz_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemPrefetchBatchAsync_ptsz_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardBatchAsync_v13000`.
    pub const cudaMemDiscardBatchAsync_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardBatchAsync_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardBatchAsync_ptsz_v13000`.
    pub const cudaMemDiscardBatchAsync_ptsz_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardBatchAsync_ptsz_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardAndPrefetchBatchAsync_v13000`.
    pub const cudaMemDiscardAndPrefetchBatchAsync_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardAndPrefetchBatchAsync_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardAndPrefetchBatchAsync_ptsz_v13000`.
    pub const cudaMemDiscardAndPrefetchBatchAsync_ptsz_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemDiscardAndPrefetchBatchAsync_ptsz_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaGetExportTable_v13000`.
    pub const cudaGetExportTable_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetExportTable_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFatBinary_v13000`.
    pub const __cudaRegisterFatBinary_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFatBinary_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFatBinaryEnd_v13000`.
    pub const __cudaRegisterFatBinaryEnd_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFatBinaryEnd_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaUnregisterFatBinary_v13000`.
    pub const __cudaUnregisterFatBinary_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaUnregisterFatBinary_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaRegisterVar_v13000`.
    pub const __cudaRegisterVar_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaRegisterVar_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaRegisterHostVar_v13000`.
    pub const __cudaRegisterHostVar_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaRegisterHostVar_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFunction_v13000`.
    pub const __cudaRegisterFunction_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFunction_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaRegisterManagedVar_v13000`.
    pub const __cudaRegisterManagedVar_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaRegisterManagedVar_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaInitModule_v13000`.
    pub const __cudaInitModule_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaInitModule_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000`.
    pub const __cudaPushCallConfiguration_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000`.
    pub const __cudaPopCallConfiguration_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaGetKernel_v13000`.
    pub const __cudaGetKernel_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaGetKernel_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000`.
    pub const __cudaLaunchKernel_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000`.
    pub const __cudaLaunchKernel_ptsz_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaRegisterUnifiedTable_v13000`.
    pub const __cudaRegisterUnifiedTable_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaRegisterUnifiedTable_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID___cudaGetProcAddress_v13000`.
    pub const __cudaGetProcAddress_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID___cudaGetProcAddress_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_v13000`.
    pub const cudaMemcpyBatchAsync_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_ptsz_v13000`.
    pub const cudaMemcpyBatchAsync_ptsz_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyBatchAsync_ptsz_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_v13000`.
    pub const cudaMemcpy3DBatchAsync_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_ptsz_v13000`.
    pub const cudaMemcpy3DBatchAsync_ptsz_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DBatchAsync_ptsz_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLogsRegisterCallback_v13000`.
    pub const cudaLogsRegisterCallback_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLogsRegisterCallback_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLogsUnregisterCallback_v13000`.
    pub const cudaLogsUnregisterCallback_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLogsUnregisterCallback_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLogsCurrent_v13000`.
    pub const cudaLogsCurrent_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLogsCurrent_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLogsDumpToFile_v13000`.
    pub const cudaLogsDumpToFile_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLogsDumpToFile_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaLogsDumpToMemory_v13000`.
    pub const cudaLogsDumpToMemory_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLogsDumpToMemory_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemGetDefaultMemPool_v13000`.
    pub const cudaMemGetDefaultMemPool_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemGetDefaultMemPool_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemGetMemPool_v13000`.
    pub const cudaMemGetMemPool_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemGetMemPool_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaMemSetMemPool_v13000`.
    pub const cudaMemSetMemPool_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaMemSetMemPool_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetHostAtomicCapabilities_v13000`.
    pub const cudaDeviceGetHostAtomicCapabilities_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetHostAtomicCapabilities_v13000.0);
    /// `CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetP2PAtomicCapabilities_v13000`.
    pub const cudaDeviceGetP2PAtomicCapabilities_v13000: RuntimeCbid = RuntimeCbid(CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetP2PAtomicCapabilities_v13000.0);
}

impl ResourceCbid {
    /// `CUPTI_CBID_RESOURCE_CONTEXT_CREATED`.
    pub const CONTEXT_CREATED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_CONTEXT_CREATED.0);
    /// `CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING`.
    pub const CONTEXT_DESTROY_STARTING: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING.0);
    /// `CUPTI_CBID_RESOURCE_STREAM_CREATED`.
    pub const STREAM_CREATED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_STREAM_CREATED.0);
    /// `CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING`.
    pub const STREAM_DESTROY_STARTING: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING.0);
    /// `CUPTI_CBID_RESOURCE_CU_INIT_FINISHED`.
    pub const CU_INIT_FINISHED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_CU_INIT_FINISHED.0);
    /// `CUPTI_CBID_RESOURCE_MODULE_LOADED`.
    pub const MODULE_LOADED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_MODULE_LOADED.0);
    /// `CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING`.
    pub const MODULE_UNLOAD_STARTING: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING.0);
    /// `CUPTI_CBID_RESOURCE_MODULE_PROFILED`.
    pub const MODULE_PROFILED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_MODULE_PROFILED.0);
    /// `CUPTI_CBID_RESOURCE_GRAPH_CREATED`.
    pub const GRAPH_CREATED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPH_CREATED.0);
    /// `CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING`.
    pub const GRAPH_DESTROY_STARTING: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING.0);
    /// `CUPTI_CBID_RESOURCE_GRAPH_CLONED`.
    pub const GRAPH_CLONED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPH_CLONED.0);
    /// `CUPTI_CBID_RESOURCE_GRAPHNODE_CREATE_STARTING`.
    pub const GRAPHNODE_CREATE_STARTING: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPHNODE_CREATE_STARTING.0);
    /// `CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED`.
    pub const GRAPHNODE_CREATED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED.0);
    /// `CUPTI_CBID_RESOURCE_GRAPHNODE_DESTROY_STARTING`.
    pub const GRAPHNODE_DESTROY_STARTING: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPHNODE_DESTROY_STARTING.0);
    /// `CUPTI_CBID_RESOURCE_GRAPHNODE_DEPENDENCY_CREATED`.
    pub const GRAPHNODE_DEPENDENCY_CREATED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPHNODE_DEPENDENCY_CREATED.0);
    /// `CUPTI_CBID_RESOURCE_GRAPHNODE_DEPENDENCY_DESTROY_STARTING`.
    pub const GRAPHNODE_DEPENDENCY_DESTROY_STARTING: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPHNODE_DEPENDENCY_DESTROY_STARTING.0);
    /// `CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING`.
    pub const GRAPHEXEC_CREATE_STARTING: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATE_STARTING.0);
    /// `CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED`.
    pub const GRAPHEXEC_CREATED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED.0);
    /// `CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING`.
    pub const GRAPHEXEC_DESTROY_STARTING: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING.0);
    /// `CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED`.
    pub const GRAPHNODE_CLONED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED.0);
    /// `CUPTI_CBID_RESOURCE_STREAM_ATTRIBUTE_CHANGED`.
    pub const STREAM_ATTRIBUTE_CHANGED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_STREAM_ATTRIBUTE_CHANGED.0);
    /// `CUPTI_CBID_RESOURCE_GRAPH_NODE_UPDATED`.
    pub const GRAPH_NODE_UPDATED: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPH_NODE_UPDATED.0);
    /// `CUPTI_CBID_RESOURCE_GRAPH_NODE_SET_PARAMS`.
    pub const GRAPH_NODE_SET_PARAMS: ResourceCbid = ResourceCbid(CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_GRAPH_NODE_SET_PARAMS.0);
}

impl SynchronizeCbid {
    /// `CUPTI_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED`.
    pub const STREAM_SYNCHRONIZED: SynchronizeCbid = SynchronizeCbid(CUpti_CallbackIdSync::CUPTI_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED.0);
    /// `CUPTI_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED`.
    pub const CONTEXT_SYNCHRONIZED: SynchronizeCbid = SynchronizeCbid(CUpti_CallbackIdSync::CUPTI_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED.0);
}

impl NvtxCbid {
    /// `CUPTI_CBID_NVTX_nvtxMarkA`.
    pub const nvtxMarkA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxMarkA.0);
    /// `CUPTI_CBID_NVTX_nvtxMarkW`.
    pub const nvtxMarkW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxMarkW.0);
    /// `CUPTI_CBID_NVTX_nvtxMarkEx`.
    pub const nvtxMarkEx: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxMarkEx.0);
    /// `CUPTI_CBID_NVTX_nvtxRangeStartA`.
    pub const nvtxRangeStartA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxRangeStartA.0);
    /// `CUPTI_CBID_NVTX_nvtxRangeStartW`.
    pub const nvtxRangeStartW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxRangeStartW.0);
    /// `CUPTI_CBID_NVTX_nvtxRangeStartEx`.
    pub const nvtxRangeStartEx: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxRangeStartEx.0);
    /// `CUPTI_CBID_NVTX_nvtxRangeEnd`.
    pub const nvtxRangeEnd: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxRangeEnd.0);
    /// `CUPTI_CBID_NVTX_nvtxRangePushA`.
    pub const nvtxRangePushA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxRangePushA.0);
    /// `CUPTI_CBID_NVTX_nvtxRangePushW`.
    pub const nvtxRangePushW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxRangePushW.0);
    /// `CUPTI_CBID_NVTX_nvtxRangePushEx`.
    pub const nvtxRangePushEx: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxRangePushEx.0);
    /// `CUPTI_CBID_NVTX_nvtxRangePop`.
    pub const nvtxRangePop: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxRangePop.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCategoryA`.
    pub const nvtxNameCategoryA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCategoryA.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCategoryW`.
    pub const nvtxNameCategoryW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCategoryW.0);
    /// `CUPTI_CBID_NVTX_nvtxNameOsThreadA`.
    pub const nvtxNameOsThreadA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameOsThreadA.0);
    /// `CUPTI_CBID_NVTX_nvtxNameOsThreadW`.
    pub const nvtxNameOsThreadW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameOsThreadW.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCuDeviceA`.
    pub const nvtxNameCuDeviceA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCuDeviceA.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCuDeviceW`.
    pub const nvtxNameCuDeviceW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCuDeviceW.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCuContextA`.
    pub const nvtxNameCuContextA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCuContextA.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCuContextW`.
    pub const nvtxNameCuContextW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCuContextW.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCuStreamA`.
    pub const nvtxNameCuStreamA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCuStreamA.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCuStreamW`.
    pub const nvtxNameCuStreamW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCuStreamW.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCuEventA`.
    pub const nvtxNameCuEventA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCuEventA.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCuEventW`.
    pub const nvtxNameCuEventW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCuEventW.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCudaDeviceA`.
    pub const nvtxNameCudaDeviceA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCudaDeviceA.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCudaDeviceW`.
    pub const nvtxNameCudaDeviceW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCudaDeviceW.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCudaStreamA`.
    pub const nvtxNameCudaStreamA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCudaStreamA.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCudaStreamW`.
    pub const nvtxNameCudaStreamW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCudaStreamW.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCudaEventA`.
    pub const nvtxNameCudaEventA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCudaEventA.0);
    /// `CUPTI_CBID_NVTX_nvtxNameCudaEventW`.
    pub const nvtxNameCudaEventW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxNameCudaEventW.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainMarkEx`.
    pub const nvtxDomainMarkEx: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainMarkEx.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainRangeStartEx`.
    pub const nvtxDomainRangeStartEx: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainRangeStartEx.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainRangeEnd`.
    pub const nvtxDomainRangeEnd: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainRangeEnd.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainRangePushEx`.
    pub const nvtxDomainRangePushEx: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainRangePushEx.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainRangePop`.
    pub const nvtxDomainRangePop: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainRangePop.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainResourceCreate`.
    pub const nvtxDomainResourceCreate: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainResourceCreate.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainResourceDestroy`.
    pub const nvtxDomainResourceDestroy: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainResourceDestroy.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainNameCategoryA`.
    pub const nvtxDomainNameCategoryA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainNameCategoryA.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainNameCategoryW`.
    pub const nvtxDomainNameCategoryW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainNameCategoryW.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainRegisterStringA`.
    pub const nvtxDomainRegisterStringA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainRegisterStringA.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainRegisterStringW`.
    pub const nvtxDomainRegisterStringW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainRegisterStringW.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainCreateA`.
    pub const nvtxDomainCreateA: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainCreateA.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainCreateW`.
    pub const nvtxDomainCreateW: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainCreateW.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainDestroy`.
    pub const nvtxDomainDestroy: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainDestroy.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainSyncUserCreate`.
    pub const nvtxDomainSyncUserCreate: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainSyncUserCreate.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainSyncUserDestroy`.
    pub const nvtxDomainSyncUserDestroy: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainSyncUserDestroy.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainSyncUserAcquireStart`.
    pub const nvtxDomainSyncUserAcquireStart: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainSyncUserAcquireStart.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainSyncUserAcquireFailed`.
    pub const nvtxDomainSyncUserAcquireFailed: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainSyncUserAcquireFailed.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainSyncUserAcquireSuccess`.
    pub const nvtxDomainSyncUserAcquireSuccess: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainSyncUserAcquireSuccess.0);
    /// `CUPTI_CBID_NVTX_nvtxDomainSyncUserReleasing`.
    pub const nvtxDomainSyncUserReleasing: NvtxCbid = NvtxCbid(CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxDomainSyncUserReleasing.0);
}

impl StateCbid {
    /// `CUPTI_CBID_STATE_FATAL_ERROR`.
    pub const FATAL_ERROR: StateCbid = StateCbid(CUpti_CallbackIdState::CUPTI_CBID_STATE_FATAL_ERROR.0);
    /// `CUPTI_CBID_STATE_ERROR`.
    pub const ERROR: StateCbid = StateCbid(CUpti_CallbackIdState::CUPTI_CBID_STATE_ERROR.0);
    /// `CUPTI_CBID_STATE_WARNING`.
    pub const WARNING: StateCbid = StateCbid(CUpti_CallbackIdState::CUPTI_CBID_STATE_WARNING.0);
}
