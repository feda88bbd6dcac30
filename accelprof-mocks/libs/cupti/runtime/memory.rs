//! Memory calls: `cudaMemcpy(Async)`, `cudaMemset(Async)`, `cudaMalloc`, `cudaFree`, each with
//! the driver call it makes underneath (`cuMemcpyHtoD_v2`, `cuMemsetD8_v2`, `cuMemAlloc_v2`,
//! `cuMemFree_v2`, ...; see [`nesting`]).

use std::ffi::c_void;

use super::api_call::{begin, finish};
use super::gpu::{earliest_start, with_gpu};
use super::identity::{context_id, stream_id, take_failure};
use super::nesting;
use crate::activity::{self, kinds, records};
use crate::callback_names::DOMAIN_RUNTIME;
use crate::clock;
use crate::sys::params::*;
use crate::sys::CUstream;

const CBID_CUDA_MALLOC: u32 = 20;
const CBID_CUDA_FREE: u32 = 22;
const CBID_CUDA_MEMCPY: u32 = 31;
const CBID_CUDA_MEMCPY_ASYNC: u32 = 41;
const CBID_CUDA_MEMSET: u32 = 49;
const CBID_CUDA_MEMSET_ASYNC: u32 = 51;
const CBID_CU_MEMSET_D8_ASYNC: u32 = 216;
const CBID_CU_MEM_ALLOC_V2: u32 = 243;
const CBID_CU_MEM_FREE_V2: u32 = 245;
const CBID_CU_MEMSET_D8_V2: u32 = 249;
const CBID_CU_MEMCPY_HTOD_V2: u32 = 276;
const CBID_CU_MEMCPY: u32 = 305;
const CBID_CU_MEMCPY_ASYNC: u32 = 306;

/// The driver copy a `cudaMemcpy` (`cudaMemcpyAsync`) of `kind` makes: `cuMemcpyHtoD_v2`,
/// `cuMemcpyDtoH_v2`, `cuMemcpyDtoD_v2` (their `Async_v2` forms, each one cbid up), or
/// `cuMemcpy` (`cuMemcpyAsync`) for host-to-host and default copies.
fn driver_copy_cbid(kind: u32, is_async: bool) -> u32 {
    match kind {
        1..=3 => CBID_CU_MEMCPY_HTOD_V2 + 2 * (kind - 1) + u32::from(is_async),
        _ if is_async => CBID_CU_MEMCPY_ASYNC,
        _ => CBID_CU_MEMCPY,
    }
}

/// `cudaMemcpyKind` -> (`CUpti_ActivityMemcpyKind`, source memory kind, destination memory
/// kind); host memory is pageable for blocking copies and pinned for async ones.
fn memcpy_kinds(kind: u32, is_async: bool) -> (u8, u8, u8) {
    let host = if is_async { 2 } else { 1 };
    let device = 3;
    match kind {
        0 => (9, host, host),
        1 => (1, host, device),
        2 => (2, device, host),
        3 => (8, device, device),
        _ => (0, 0, 0),
    }
}

pub struct Copy {
    pub dst: u64,
    pub src: u64,
    pub bytes: u64,
    /// `cudaMemcpyKind`.
    pub kind: u32,
    /// Ignored by blocking copies, which use the NULL stream.
    pub stream: u64,
    pub is_async: bool,
    pub duration: u64,
}

/// A copy's or set's GPU work.
struct Work {
    device: u32,
    stream: u32,
    duration: u64,
    /// `cudaMemcpy`/`cudaMemset`: the call returns once the work has ended.
    blocking: bool,
}

impl Work {
    /// Issues the work from inside the nested driver call `cbid` (the innermost call, which a
    /// blocking one waits in): its start and end.
    fn issue_in(&self, cbid: u32, params: *const c_void) -> (u64, u64) {
        nesting::driver_call(cbid, None, params, || {
            let (start, end) =
                with_gpu(|g| g.schedule(self.device, self.stream, earliest_start(), Some(self.duration)));
            if self.blocking {
                clock::wait_until(end);
            }
            (start, end)
        })
    }
}

/// `cudaMemcpy` (blocking) or `cudaMemcpyAsync`, and its MEMCPY record.
pub fn memcpy(c: &Copy) -> u32 {
    let failure = take_failure();
    let stream = if c.is_async { c.stream } else { 0 };
    let sync_params = cudaMemcpy_v3020_params {
        dst: c.dst as *mut c_void,
        src: c.src as *const c_void,
        count: c.bytes as usize,
        kind: cudaMemcpyKind(c.kind),
    };
    let async_params = cudaMemcpyAsync_v3020_params {
        dst: c.dst as *mut c_void,
        src: c.src as *const c_void,
        count: c.bytes as usize,
        kind: cudaMemcpyKind(c.kind),
        stream: stream as cudaStream_t,
    };
    let (cbid, params): (u32, *const c_void) = if c.is_async {
        (CBID_CUDA_MEMCPY_ASYNC, (&async_params as *const cudaMemcpyAsync_v3020_params).cast())
    } else {
        (CBID_CUDA_MEMCPY, (&sync_params as *const cudaMemcpy_v3020_params).cast())
    };
    // Every driver copy's params are `{dst, src, ByteCount[, hStream]}` with 8-byte fields
    // (pointers and `CUdeviceptr` alike): `cuMemcpy(Async)_params` has their layout.
    let driver_params = cuMemcpyAsync_params {
        dst: c.dst,
        src: c.src,
        ByteCount: c.bytes as usize,
        hStream: stream as CUstream,
    };
    let call = begin(DOMAIN_RUNTIME, cbid, None, None, params);
    let (device, sid) = (call.device, stream_id(stream));
    let driver = (&driver_params as *const cuMemcpyAsync_params).cast();
    let work = Work { device, stream: sid, duration: c.duration, blocking: !c.is_async };
    let timing = (failure == 0).then(|| work.issue_in(driver_copy_cbid(c.kind, c.is_async), driver));
    let correlation = finish(call, failure);
    if let Some((start, end)) = timing {
        let (copy_kind, src_kind, dst_kind) = memcpy_kinds(c.kind, c.is_async);
        activity::emit_if_enabled(kinds::MEMCPY, || {
            records::memcpy(&records::Memcpy {
                copy_kind,
                src_kind,
                dst_kind,
                is_async: c.is_async,
                bytes: c.bytes,
                start,
                end,
                device,
                context: context_id(device),
                stream: sid,
                correlation,
            })
        });
    }
    correlation
}

pub struct Set {
    pub dst: u64,
    pub value: i32,
    pub bytes: u64,
    pub stream: u64,
    pub is_async: bool,
    pub duration: u64,
}

/// `cudaMemset` (blocking) or `cudaMemsetAsync`, and its MEMSET record.
pub fn memset(s: &Set) -> u32 {
    let failure = take_failure();
    let stream = if s.is_async { s.stream } else { 0 };
    let sync_params =
        cudaMemset_v3020_params { devPtr: s.dst as *mut c_void, value: s.value, count: s.bytes as usize };
    let async_params = cudaMemsetAsync_v3020_params {
        devPtr: s.dst as *mut c_void,
        value: s.value,
        count: s.bytes as usize,
        stream: stream as cudaStream_t,
    };
    let (cbid, params): (u32, *const c_void) = if s.is_async {
        (CBID_CUDA_MEMSET_ASYNC, (&async_params as *const cudaMemsetAsync_v3020_params).cast())
    } else {
        (CBID_CUDA_MEMSET, (&sync_params as *const cudaMemset_v3020_params).cast())
    };
    // `cuMemsetD8_v2_params` plus `hStream`: `cuMemsetD8Async_params` serves both.
    let driver_params = cuMemsetD8Async_params {
        dstDevice: s.dst,
        uc: s.value as u8,
        N: s.bytes as usize,
        hStream: stream as CUstream,
    };
    let driver_cbid = if s.is_async { CBID_CU_MEMSET_D8_ASYNC } else { CBID_CU_MEMSET_D8_V2 };
    let call = begin(DOMAIN_RUNTIME, cbid, None, None, params);
    let (device, sid) = (call.device, stream_id(stream));
    let driver = (&driver_params as *const cuMemsetD8Async_params).cast();
    let work = Work { device, stream: sid, duration: s.duration, blocking: !s.is_async };
    let timing = (failure == 0).then(|| work.issue_in(driver_cbid, driver));
    let correlation = finish(call, failure);
    if let Some((start, end)) = timing {
        activity::emit_if_enabled(kinds::MEMSET, || {
            records::memset(&records::Memset {
                value: s.value as u32,
                is_async: s.is_async,
                bytes: s.bytes,
                start,
                end,
                device,
                context: context_id(device),
                stream: sid,
                correlation,
            })
        });
    }
    correlation
}

/// `cudaMalloc`: the new address is written through `devPtr` before the EXIT callbacks, and a
/// MEMORY2 allocation record follows. Returns (correlation id, address).
pub fn malloc(bytes: u64) -> (u32, u64) {
    let failure = take_failure();
    let mut address: *mut c_void = std::ptr::null_mut();
    let params = cudaMalloc_v3020_params { devPtr: &mut address, size: bytes as usize };
    let call = begin(
        DOMAIN_RUNTIME,
        CBID_CUDA_MALLOC,
        None,
        None,
        (&params as *const cudaMalloc_v3020_params).cast(),
    );
    let device = call.device;
    if failure == 0 {
        let mut driver_address: CUdeviceptr = 0;
        let driver_params = cuMemAlloc_v2_params { dptr: &mut driver_address, bytesize: bytes as usize };
        let driver = (&driver_params as *const cuMemAlloc_v2_params).cast();
        let a = nesting::driver_call(CBID_CU_MEM_ALLOC_V2, None, driver, || {
            let a = with_gpu(|g| g.allocate(bytes));
            // SAFETY: `dptr` points at `driver_address`, alive for this whole block.
            unsafe { *driver_params.dptr = a };
            a
        });
        // SAFETY: `devPtr` points at `address`, alive for this whole function.
        unsafe { *params.devPtr = a as *mut c_void };
    }
    let correlation = finish(call, failure);
    let address = address as u64;
    if failure == 0 {
        memory_record(1, address, bytes, device, correlation);
    }
    (correlation, address)
}

/// `cudaFree`, and a MEMORY2 release record.
pub fn free(address: u64) -> u32 {
    let failure = take_failure();
    let params = cudaFree_v3020_params { devPtr: address as *mut c_void };
    let call =
        begin(DOMAIN_RUNTIME, CBID_CUDA_FREE, None, None, (&params as *const cudaFree_v3020_params).cast());
    let device = call.device;
    if failure == 0 {
        let driver_params = cuMemFree_v2_params { dptr: address };
        let driver = (&driver_params as *const cuMemFree_v2_params).cast();
        nesting::driver_call(CBID_CU_MEM_FREE_V2, None, driver, || ());
    }
    let correlation = finish(call, failure);
    if failure == 0 {
        memory_record(2, address, 0, device, correlation);
    }
    correlation
}

fn memory_record(operation: u32, address: u64, bytes: u64, device: u32, correlation: u32) {
    activity::emit_if_enabled(kinds::MEMORY2, || {
        records::memory(&records::Memory {
            operation,
            address,
            bytes,
            timestamp: clock::now(),
            process: clock::process_id(),
            device,
            context: context_id(device),
            correlation,
        })
    });
}
