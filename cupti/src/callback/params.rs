//! Typed views of the parameters of the calls tools read most: kernel launches, memory copies
//! and sets, allocations and frees. Read through `cupti-sys`'s generated `*_params` structs.

use std::ffi::c_void;

use cupti_sys::params::*;
use cupti_sys::CUstream;

use crate::ids::{CallbackDomain, DriverCbid, RuntimeCbid};

/// A grid or block size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dim3 {
    /// Extent along x.
    pub x: u32,
    /// Extent along y.
    pub y: u32,
    /// Extent along z.
    pub z: u32,
}

impl Dim3 {
    /// `x * y * z`.
    pub fn volume(self) -> u64 {
        u64::from(self.x) * u64::from(self.y) * u64::from(self.z)
    }
}

impl From<dim3> for Dim3 {
    fn from(d: dim3) -> Self {
        Dim3 { x: d.x, y: d.y, z: d.z }
    }
}

/// A kernel launch (`cudaLaunchKernel`, `cudaLaunchKernelExC`, `cudaLaunchCooperativeKernel`,
/// `cuLaunchKernel`, `cuLaunchKernelEx`, `cuLaunchCooperativeKernel`, and their
/// per-thread-stream forms). The kernel's name is [`crate::ApiCallData::symbol_name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelLaunch {
    /// Grid size in blocks.
    pub grid: Dim3,
    /// Block size in threads.
    pub block: Dim3,
    /// Dynamic shared memory per block, in bytes.
    pub shared_mem_bytes: u64,
    /// The stream handle (`cudaStream_t` / `CUstream`) as an integer; 0 is the default stream.
    pub stream: usize,
    /// The function handle: the host stub (`const void*`) for the runtime, the `CUfunction`
    /// for the driver.
    pub function: usize,
    /// A cooperative launch.
    pub cooperative: bool,
}

/// Direction of a memory copy (`cudaMemcpyKind`).
#[repr(transparent)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MemcpyKind(pub u32);

impl MemcpyKind {
    /// Host to host.
    pub const HOST_TO_HOST: MemcpyKind = MemcpyKind(cudaMemcpyKind::cudaMemcpyHostToHost.0);
    /// Host to device.
    pub const HOST_TO_DEVICE: MemcpyKind = MemcpyKind(cudaMemcpyKind::cudaMemcpyHostToDevice.0);
    /// Device to host.
    pub const DEVICE_TO_HOST: MemcpyKind = MemcpyKind(cudaMemcpyKind::cudaMemcpyDeviceToHost.0);
    /// Device to device (peer copies included).
    pub const DEVICE_TO_DEVICE: MemcpyKind = MemcpyKind(cudaMemcpyKind::cudaMemcpyDeviceToDevice.0);
    /// Inferred from the pointers (unified addressing): `cudaMemcpyDefault`, `cuMemcpy`.
    pub const DEFAULT: MemcpyKind = MemcpyKind(cudaMemcpyKind::cudaMemcpyDefault.0);
}

/// A memory copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memcpy {
    /// Direction.
    pub kind: MemcpyKind,
    /// Bytes copied (`width * height` for 2D copies).
    pub bytes: u64,
    /// Destination address.
    pub dst: u64,
    /// Source address.
    pub src: u64,
    /// The stream handle for asynchronous copies; `None` for synchronous ones.
    pub stream: Option<usize>,
}

/// A memory set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memset {
    /// Bytes set (`count`, `N * element size`, or `width * height`).
    pub bytes: u64,
    /// The value written to each element.
    pub value: u32,
    /// Size of an element in bytes (1, 2 or 4).
    pub element_size: u8,
    /// Destination address.
    pub dst: u64,
    /// The stream handle for asynchronous sets; `None` for synchronous ones.
    pub stream: Option<usize>,
}

/// What kind of memory an allocation returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AllocKind {
    /// Device memory (`cudaMalloc`, `cuMemAlloc`, pitched forms).
    Device,
    /// Page-locked host memory (`cudaMallocHost`, `cudaHostAlloc`, `cuMemAllocHost`, `cuMemHostAlloc`).
    Host,
    /// Managed (unified) memory.
    Managed,
    /// Stream-ordered device memory (`cudaMallocAsync`, `cuMemAllocAsync`, `cuMemAllocFromPoolAsync`).
    Async,
}

/// An allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alloc {
    /// Memory kind.
    pub kind: AllocKind,
    /// Bytes requested (pitched allocations: `width * height`).
    pub bytes: u64,
    /// The stream handle for stream-ordered allocations.
    pub stream: Option<usize>,
    /// The allocated address, read from the call's out-parameter at EXIT (check the call's
    /// return value: a failed call leaves it unspecified). `None` at ENTER.
    pub address: Option<u64>,
}

/// A free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Free {
    /// The address freed.
    pub address: u64,
    /// Host (page-locked) memory.
    pub host: bool,
    /// The stream handle for stream-ordered frees.
    pub stream: Option<usize>,
}

/// The typed parameters of a call, when it is one this crate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallParams {
    /// A kernel launch.
    KernelLaunch(KernelLaunch),
    /// A memory copy.
    Memcpy(Memcpy),
    /// A memory set.
    Memset(Memset),
    /// An allocation.
    Alloc(Alloc),
    /// A free.
    Free(Free),
}

/// `&T` of the params pointer.
///
/// # Safety
/// `p` points at a live `T` (CUPTI's `functionParams` of a callback id whose params are `T`).
unsafe fn at<'a, T>(p: *const c_void) -> &'a T {
    // SAFETY: the caller's contract.
    unsafe { &*p.cast::<T>() }
}

fn addr<T>(p: *const T) -> u64 {
    p as usize as u64
}

fn launch(grid: Dim3, block: Dim3, shared: u64, stream: usize, function: usize, coop: bool) -> CallParams {
    CallParams::KernelLaunch(KernelLaunch {
        grid,
        block,
        shared_mem_bytes: shared,
        stream,
        function,
        cooperative: coop,
    })
}

fn dims(x: u32, y: u32, z: u32) -> Dim3 {
    Dim3 { x, y, z }
}

fn copy(kind: MemcpyKind, bytes: usize, dst: u64, src: u64, stream: Option<usize>) -> CallParams {
    CallParams::Memcpy(Memcpy { kind, bytes: bytes as u64, dst, src, stream })
}

fn set(bytes: u64, value: u32, element_size: u8, dst: u64, stream: Option<usize>) -> CallParams {
    CallParams::Memset(Memset { bytes, value, element_size, dst, stream })
}

/// An allocation whose result pointer is stored at `out` (a `void**` or `CUdeviceptr*`).
///
/// # Safety
/// `out` is NULL or points at the call's live out-parameter of 8 bytes.
unsafe fn alloc<T>(
    kind: AllocKind,
    bytes: u64,
    out: *mut T,
    stream: Option<usize>,
    exit: bool,
) -> CallParams {
    const { assert!(std::mem::size_of::<T>() == 8) };
    let address = if exit && !out.is_null() {
        // SAFETY: the caller's contract; the result is written by the time of the EXIT callback.
        Some(unsafe { std::ptr::read_unaligned(out.cast::<u64>()) })
    } else {
        None
    };
    CallParams::Alloc(Alloc { kind, bytes, stream, address })
}

fn free(address: u64, host: bool, stream: Option<usize>) -> CallParams {
    CallParams::Free(Free { address, host, stream })
}

/// Whether `cbid` of `domain` launches a kernel (its `symbolName` is the kernel's name).
pub(crate) fn is_launch(domain: CallbackDomain, cbid: u32) -> bool {
    if domain == CallbackDomain::RUNTIME_API {
        matches!(
            RuntimeCbid(cbid),
            RuntimeCbid::cudaLaunchKernel_v7000
                | RuntimeCbid::cudaLaunchKernel_ptsz_v7000
                | RuntimeCbid::cudaLaunchKernelExC_v11060
                | RuntimeCbid::cudaLaunchKernelExC_ptsz_v11060
                | RuntimeCbid::cudaLaunchCooperativeKernel_v9000
                | RuntimeCbid::cudaLaunchCooperativeKernel_ptsz_v9000
        )
    } else if domain == CallbackDomain::DRIVER_API {
        matches!(
            DriverCbid(cbid),
            DriverCbid::cuLaunchKernel
                | DriverCbid::cuLaunchKernel_ptsz
                | DriverCbid::cuLaunchKernelEx
                | DriverCbid::cuLaunchKernelEx_ptsz
                | DriverCbid::cuLaunchCooperativeKernel
                | DriverCbid::cuLaunchCooperativeKernel_ptsz
        )
    } else {
        false
    }
}

/// The typed view of `params` for callback id `cbid` of `domain`.
///
/// # Safety
/// `params` is CUPTI's `functionParams` of this callback, valid for the duration of the call.
pub(crate) unsafe fn read(
    domain: CallbackDomain,
    cbid: u32,
    params: *const c_void,
    exit: bool,
) -> Option<CallParams> {
    if params.is_null() {
        return None;
    }
    // SAFETY: forwarded.
    unsafe {
        if domain == CallbackDomain::RUNTIME_API {
            runtime(RuntimeCbid(cbid), params, exit)
        } else if domain == CallbackDomain::DRIVER_API {
            driver(DriverCbid(cbid), params, exit)
        } else {
            None
        }
    }
}

/// # Safety
/// As [`read`].
unsafe fn runtime(id: RuntimeCbid, p: *const c_void, exit: bool) -> Option<CallParams> {
    type R = RuntimeCbid;
    let s = |s: cudaStream_t| s as usize;
    // SAFETY: in every arm, the callback id says which params struct CUPTI passed.
    Some(unsafe {
        match id {
            R::cudaLaunchKernel_v7000 | R::cudaLaunchKernel_ptsz_v7000 => {
                let q = at::<cudaLaunchKernel_v7000_params>(p);
                let f = q.func as usize;
                launch(q.gridDim.into(), q.blockDim.into(), q.sharedMem as u64, s(q.stream), f, false)
            }
            R::cudaLaunchCooperativeKernel_v9000 | R::cudaLaunchCooperativeKernel_ptsz_v9000 => {
                let q = at::<cudaLaunchCooperativeKernel_v9000_params>(p);
                let f = q.func as usize;
                launch(q.gridDim.into(), q.blockDim.into(), q.sharedMem as u64, s(q.stream), f, true)
            }
            R::cudaLaunchKernelExC_v11060 | R::cudaLaunchKernelExC_ptsz_v11060 => {
                let q = at::<cudaLaunchKernelExC_v11060_params>(p);
                let c = q.config.as_ref()?;
                let f = q.func as usize;
                launch(c.gridDim.into(), c.blockDim.into(), c.dynamicSmemBytes as u64, s(c.stream), f, false)
            }
            R::cudaMemcpy_v3020 | R::cudaMemcpy_ptds_v7000 => {
                let q = at::<cudaMemcpy_v3020_params>(p);
                copy(MemcpyKind(q.kind.0), q.count, addr(q.dst), addr(q.src), None)
            }
            R::cudaMemcpyAsync_v3020 | R::cudaMemcpyAsync_ptsz_v7000 => {
                let q = at::<cudaMemcpyAsync_v3020_params>(p);
                copy(MemcpyKind(q.kind.0), q.count, addr(q.dst), addr(q.src), Some(s(q.stream)))
            }
            R::cudaMemcpy2D_v3020 | R::cudaMemcpy2D_ptds_v7000 => {
                let q = at::<cudaMemcpy2D_v3020_params>(p);
                copy(MemcpyKind(q.kind.0), q.width * q.height, addr(q.dst), addr(q.src), None)
            }
            R::cudaMemcpy2DAsync_v3020 | R::cudaMemcpy2DAsync_ptsz_v7000 => {
                let q = at::<cudaMemcpy2DAsync_v3020_params>(p);
                let st = Some(s(q.stream));
                copy(MemcpyKind(q.kind.0), q.width * q.height, addr(q.dst), addr(q.src), st)
            }
            R::cudaMemcpyPeer_v4000 => {
                let q = at::<cudaMemcpyPeer_v4000_params>(p);
                copy(MemcpyKind::DEVICE_TO_DEVICE, q.count, addr(q.dst), addr(q.src), None)
            }
            R::cudaMemcpyPeerAsync_v4000 => {
                let q = at::<cudaMemcpyPeerAsync_v4000_params>(p);
                copy(MemcpyKind::DEVICE_TO_DEVICE, q.count, addr(q.dst), addr(q.src), Some(s(q.stream)))
            }
            R::cudaMemset_v3020 | R::cudaMemset_ptds_v7000 => {
                let q = at::<cudaMemset_v3020_params>(p);
                set(q.count as u64, q.value as u32, 1, addr(q.devPtr), None)
            }
            R::cudaMemsetAsync_v3020 | R::cudaMemsetAsync_ptsz_v7000 => {
                let q = at::<cudaMemsetAsync_v3020_params>(p);
                set(q.count as u64, q.value as u32, 1, addr(q.devPtr), Some(s(q.stream)))
            }
            R::cudaMemset2D_v3020 | R::cudaMemset2D_ptds_v7000 => {
                let q = at::<cudaMemset2D_v3020_params>(p);
                set((q.width * q.height) as u64, q.value as u32, 1, addr(q.devPtr), None)
            }
            R::cudaMemset2DAsync_v3020 | R::cudaMemset2DAsync_ptsz_v7000 => {
                let q = at::<cudaMemset2DAsync_v3020_params>(p);
                set((q.width * q.height) as u64, q.value as u32, 1, addr(q.devPtr), Some(s(q.stream)))
            }
            R::cudaMalloc_v3020 => {
                let q = at::<cudaMalloc_v3020_params>(p);
                alloc(AllocKind::Device, q.size as u64, q.devPtr, None, exit)
            }
            R::cudaMallocPitch_v3020 => {
                let q = at::<cudaMallocPitch_v3020_params>(p);
                alloc(AllocKind::Device, (q.width * q.height) as u64, q.devPtr, None, exit)
            }
            R::cudaMallocHost_v3020 => {
                let q = at::<cudaMallocHost_v3020_params>(p);
                alloc(AllocKind::Host, q.size as u64, q.ptr, None, exit)
            }
            R::cudaHostAlloc_v3020 => {
                let q = at::<cudaHostAlloc_v3020_params>(p);
                alloc(AllocKind::Host, q.size as u64, q.pHost, None, exit)
            }
            R::cudaMallocManaged_v6000 => {
                let q = at::<cudaMallocManaged_v6000_params>(p);
                alloc(AllocKind::Managed, q.size as u64, q.devPtr, None, exit)
            }
            R::cudaMallocAsync_v11020 | R::cudaMallocAsync_ptsz_v11020 => {
                let q = at::<cudaMallocAsync_v11020_params>(p);
                alloc(AllocKind::Async, q.size as u64, q.devPtr, Some(s(q.hStream)), exit)
            }
            R::cudaFree_v3020 => free(addr(at::<cudaFree_v3020_params>(p).devPtr), false, None),
            R::cudaFreeHost_v3020 => free(addr(at::<cudaFreeHost_v3020_params>(p).ptr), true, None),
            R::cudaFreeAsync_v11020 | R::cudaFreeAsync_ptsz_v11020 => {
                let q = at::<cudaFreeAsync_v11020_params>(p);
                free(addr(q.devPtr), false, Some(s(q.hStream)))
            }
            _ => return None,
        }
    })
}

/// # Safety
/// As [`read`].
unsafe fn driver(id: DriverCbid, p: *const c_void, exit: bool) -> Option<CallParams> {
    type D = DriverCbid;
    let s = |s: CUstream| s as usize;
    let h2d = MemcpyKind::HOST_TO_DEVICE;
    let d2h = MemcpyKind::DEVICE_TO_HOST;
    let d2d = MemcpyKind::DEVICE_TO_DEVICE;
    // SAFETY: in every arm, the callback id says which params struct CUPTI passed.
    Some(unsafe {
        match id {
            D::cuLaunchKernel | D::cuLaunchKernel_ptsz => {
                let q = at::<cuLaunchKernel_params>(p);
                let (g, b) =
                    (dims(q.gridDimX, q.gridDimY, q.gridDimZ), dims(q.blockDimX, q.blockDimY, q.blockDimZ));
                launch(g, b, q.sharedMemBytes.into(), s(q.hStream), q.f as usize, false)
            }
            D::cuLaunchCooperativeKernel | D::cuLaunchCooperativeKernel_ptsz => {
                let q = at::<cuLaunchCooperativeKernel_params>(p);
                let (g, b) =
                    (dims(q.gridDimX, q.gridDimY, q.gridDimZ), dims(q.blockDimX, q.blockDimY, q.blockDimZ));
                launch(g, b, q.sharedMemBytes.into(), s(q.hStream), q.f as usize, true)
            }
            D::cuLaunchKernelEx | D::cuLaunchKernelEx_ptsz => {
                let q = at::<cuLaunchKernelEx_params>(p);
                let c = q.config.as_ref()?;
                let (g, b) =
                    (dims(c.gridDimX, c.gridDimY, c.gridDimZ), dims(c.blockDimX, c.blockDimY, c.blockDimZ));
                launch(g, b, c.sharedMemBytes.into(), s(c.hStream), q.f as usize, false)
            }
            D::cuMemcpy | D::cuMemcpy_ptds => {
                let q = at::<cuMemcpy_params>(p);
                copy(MemcpyKind::DEFAULT, q.ByteCount, q.dst, q.src, None)
            }
            D::cuMemcpyAsync | D::cuMemcpyAsync_ptsz => {
                let q = at::<cuMemcpyAsync_params>(p);
                copy(MemcpyKind::DEFAULT, q.ByteCount, q.dst, q.src, Some(s(q.hStream)))
            }
            D::cuMemcpyHtoD_v2 | D::cuMemcpyHtoD_v2_ptds => {
                let q = at::<cuMemcpyHtoD_v2_params>(p);
                copy(h2d, q.ByteCount, q.dstDevice, addr(q.srcHost), None)
            }
            D::cuMemcpyHtoDAsync_v2 | D::cuMemcpyHtoDAsync_v2_ptsz => {
                let q = at::<cuMemcpyHtoDAsync_v2_params>(p);
                copy(h2d, q.ByteCount, q.dstDevice, addr(q.srcHost), Some(s(q.hStream)))
            }
            D::cuMemcpyDtoH_v2 | D::cuMemcpyDtoH_v2_ptds => {
                let q = at::<cuMemcpyDtoH_v2_params>(p);
                copy(d2h, q.ByteCount, addr(q.dstHost), q.srcDevice, None)
            }
            D::cuMemcpyDtoHAsync_v2 | D::cuMemcpyDtoHAsync_v2_ptsz => {
                let q = at::<cuMemcpyDtoHAsync_v2_params>(p);
                copy(d2h, q.ByteCount, addr(q.dstHost), q.srcDevice, Some(s(q.hStream)))
            }
            D::cuMemcpyDtoD_v2 | D::cuMemcpyDtoD_v2_ptds => {
                let q = at::<cuMemcpyDtoD_v2_params>(p);
                copy(d2d, q.ByteCount, q.dstDevice, q.srcDevice, None)
            }
            D::cuMemcpyDtoDAsync_v2 | D::cuMemcpyDtoDAsync_v2_ptsz => {
                let q = at::<cuMemcpyDtoDAsync_v2_params>(p);
                copy(d2d, q.ByteCount, q.dstDevice, q.srcDevice, Some(s(q.hStream)))
            }
            D::cuMemcpyPeer | D::cuMemcpyPeer_ptds => {
                let q = at::<cuMemcpyPeer_params>(p);
                copy(d2d, q.ByteCount, q.dstDevice, q.srcDevice, None)
            }
            D::cuMemcpyPeerAsync | D::cuMemcpyPeerAsync_ptsz => {
                let q = at::<cuMemcpyPeerAsync_params>(p);
                copy(d2d, q.ByteCount, q.dstDevice, q.srcDevice, Some(s(q.hStream)))
            }
            D::cuMemsetD8_v2 | D::cuMemsetD8_v2_ptds => {
                let q = at::<cuMemsetD8_v2_params>(p);
                set(q.N as u64, q.uc.into(), 1, q.dstDevice, None)
            }
            D::cuMemsetD16_v2 | D::cuMemsetD16_v2_ptds => {
                let q = at::<cuMemsetD16_v2_params>(p);
                set(q.N as u64 * 2, q.us.into(), 2, q.dstDevice, None)
            }
            D::cuMemsetD32_v2 | D::cuMemsetD32_v2_ptds => {
                let q = at::<cuMemsetD32_v2_params>(p);
                set(q.N as u64 * 4, q.ui, 4, q.dstDevice, None)
            }
            D::cuMemsetD8Async | D::cuMemsetD8Async_ptsz => {
                let q = at::<cuMemsetD8Async_params>(p);
                set(q.N as u64, q.uc.into(), 1, q.dstDevice, Some(s(q.hStream)))
            }
            D::cuMemsetD16Async | D::cuMemsetD16Async_ptsz => {
                let q = at::<cuMemsetD16Async_params>(p);
                set(q.N as u64 * 2, q.us.into(), 2, q.dstDevice, Some(s(q.hStream)))
            }
            D::cuMemsetD32Async | D::cuMemsetD32Async_ptsz => {
                let q = at::<cuMemsetD32Async_params>(p);
                set(q.N as u64 * 4, q.ui, 4, q.dstDevice, Some(s(q.hStream)))
            }
            D::cuMemAlloc_v2 => {
                let q = at::<cuMemAlloc_v2_params>(p);
                alloc(AllocKind::Device, q.bytesize as u64, q.dptr, None, exit)
            }
            D::cuMemAllocPitch_v2 => {
                let q = at::<cuMemAllocPitch_v2_params>(p);
                alloc(AllocKind::Device, (q.WidthInBytes * q.Height) as u64, q.dptr, None, exit)
            }
            D::cuMemAllocHost_v2 => {
                let q = at::<cuMemAllocHost_v2_params>(p);
                alloc(AllocKind::Host, q.bytesize as u64, q.pp, None, exit)
            }
            D::cuMemHostAlloc => {
                let q = at::<cuMemHostAlloc_params>(p);
                alloc(AllocKind::Host, q.bytesize as u64, q.pp, None, exit)
            }
            D::cuMemAllocManaged => {
                let q = at::<cuMemAllocManaged_params>(p);
                alloc(AllocKind::Managed, q.bytesize as u64, q.dptr, None, exit)
            }
            D::cuMemAllocAsync | D::cuMemAllocAsync_ptsz => {
                let q = at::<cuMemAllocAsync_params>(p);
                alloc(AllocKind::Async, q.bytesize as u64, q.dptr, Some(s(q.hStream)), exit)
            }
            D::cuMemAllocFromPoolAsync | D::cuMemAllocFromPoolAsync_ptsz => {
                let q = at::<cuMemAllocFromPoolAsync_params>(p);
                alloc(AllocKind::Async, q.bytesize as u64, q.dptr, Some(s(q.hStream)), exit)
            }
            D::cuMemFree_v2 => free(at::<cuMemFree_v2_params>(p).dptr, false, None),
            D::cuMemFreeHost => free(addr(at::<cuMemFreeHost_params>(p).p), true, None),
            D::cuMemFreeAsync | D::cuMemFreeAsync_ptsz => {
                let q = at::<cuMemFreeAsync_params>(p);
                free(q.dptr, false, Some(s(q.hStream)))
            }
            _ => return None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runtime_launch_reads_grid_block_shared_memory_and_stream() {
        let q = cudaLaunchKernel_v7000_params {
            func: 0x1000 as *const c_void,
            gridDim: dim3 { x: 4, y: 2, z: 1 },
            blockDim: dim3 { x: 128, y: 1, z: 1 },
            args: std::ptr::null_mut(),
            sharedMem: 256,
            stream: 0x77 as cudaStream_t,
        };
        let p = &q as *const _ as *const c_void;
        // SAFETY: `p` points at the params struct of this id.
        let v = unsafe { read(CallbackDomain::RUNTIME_API, RuntimeCbid::cudaLaunchKernel_v7000.0, p, false) };
        let Some(CallParams::KernelLaunch(k)) = v else { panic!("{v:?}") };
        assert_eq!((k.grid.volume(), k.block, k.shared_mem_bytes), (8, dims(128, 1, 1), 256));
        assert_eq!((k.stream, k.function, k.cooperative), (0x77, 0x1000, false));
        assert!(is_launch(CallbackDomain::RUNTIME_API, RuntimeCbid::cudaLaunchKernel_v7000.0));
        assert!(!is_launch(CallbackDomain::RUNTIME_API, RuntimeCbid::cudaMemcpy_v3020.0));
    }

    #[test]
    fn driver_sets_count_bytes_by_element_size_and_allocs_read_the_result() {
        let q = cuMemsetD32Async_params { dstDevice: 0xd000, ui: 7, N: 10, hStream: std::ptr::null_mut() };
        let p = &q as *const _ as *const c_void;
        // SAFETY: as above.
        let v = unsafe { read(CallbackDomain::DRIVER_API, DriverCbid::cuMemsetD32Async.0, p, false) };
        assert_eq!(v, Some(set(40, 7, 4, 0xd000, Some(0))));
        let mut out: CUdeviceptr = 0xabc000;
        let q = cuMemAlloc_v2_params { dptr: &mut out, bytesize: 4096 };
        let p_alloc = &q as *const _ as *const c_void;
        for (exit, address) in [(false, None), (true, Some(0xabc000))] {
            // SAFETY: as above; `out` lives.
            let v = unsafe { read(CallbackDomain::DRIVER_API, DriverCbid::cuMemAlloc_v2.0, p_alloc, exit) };
            let want = Alloc { kind: AllocKind::Device, bytes: 4096, stream: None, address };
            assert_eq!(v, Some(CallParams::Alloc(want)));
        }
        // SAFETY: an id without a typed view reads nothing.
        assert_eq!(unsafe { read(CallbackDomain::DRIVER_API, DriverCbid::cuInit.0, p, true) }, None);
    }
}
