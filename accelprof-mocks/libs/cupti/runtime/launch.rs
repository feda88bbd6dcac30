//! Kernel launches: `cudaLaunchKernel` and `cuLaunchKernel`.

use std::ffi::{c_void, CStr};

use super::api_call::{begin, finish};
use super::gpu::{earliest_start, with_gpu, InFlight};
use super::identity::{context_id, stream_id, take_failure};
use super::nesting;
use crate::activity::{self, records};
use crate::callback_names::{DOMAIN_DRIVER, DOMAIN_RUNTIME};
use crate::sys::params::*;
use crate::sys::CUstream;

const CBID_CUDA_LAUNCH_KERNEL: u32 = 211;
const CBID_CU_LAUNCH_KERNEL: u32 = 307;

pub struct Launch {
    pub name: &'static CStr,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    pub stream: u64,
    /// `None`: in flight until `complete_kernel` or a synchronization.
    pub duration: Option<u64>,
    /// DRIVER (`cuLaunchKernel`) or RUNTIME (`cudaLaunchKernel`).
    pub domain: u32,
}

/// `cudaLaunchKernel` / `cuLaunchKernel`: callbacks with the launch parameters and the kernel's
/// name as `symbolName`, a RUNTIME/DRIVER record, then the kernel record. `cudaLaunchKernel`
/// launches through a nested `cuLaunchKernel` (same correlation id, see [`nesting`]).
pub fn launch_kernel(l: &Launch) -> u32 {
    let failure = take_failure();
    let stream = l.stream as CUstream;
    let runtime_params = cudaLaunchKernel_v7000_params {
        func: l.name.as_ptr().cast(),
        gridDim: dim3 { x: l.grid[0], y: l.grid[1], z: l.grid[2] },
        blockDim: dim3 { x: l.block[0], y: l.block[1], z: l.block[2] },
        args: std::ptr::null_mut(),
        sharedMem: l.dynamic_shared as usize,
        stream,
    };
    let driver_params = cuLaunchKernel_params {
        f: l.name.as_ptr().cast_mut().cast(),
        gridDimX: l.grid[0],
        gridDimY: l.grid[1],
        gridDimZ: l.grid[2],
        blockDimX: l.block[0],
        blockDimY: l.block[1],
        blockDimZ: l.block[2],
        sharedMemBytes: l.dynamic_shared,
        hStream: stream,
        kernelParams: std::ptr::null_mut(),
        extra: std::ptr::null_mut(),
    };
    let (domain, cbid, params): (u32, u32, *const c_void) = if l.domain == DOMAIN_DRIVER {
        (DOMAIN_DRIVER, CBID_CU_LAUNCH_KERNEL, (&driver_params as *const cuLaunchKernel_params).cast())
    } else {
        (
            DOMAIN_RUNTIME,
            CBID_CUDA_LAUNCH_KERNEL,
            (&runtime_params as *const cudaLaunchKernel_v7000_params).cast(),
        )
    };
    let call = begin(domain, cbid, None, Some(l.name), params);
    let (device, sid) = (call.device, stream_id(l.stream));
    // Issued by the innermost call: inside the nested `cuLaunchKernel` of a runtime launch.
    let issue = || {
        with_gpu(|g| {
            let grid_id = g.next_grid_id();
            (g.schedule(device, sid, earliest_start(), l.duration), grid_id)
        })
    };
    let timing = match (failure == 0, domain == DOMAIN_RUNTIME) {
        (false, _) => None,
        (true, true) => {
            let driver = (&driver_params as *const cuLaunchKernel_params).cast();
            Some(nesting::driver_call(CBID_CU_LAUNCH_KERNEL, Some(l.name), driver, issue))
        }
        (true, false) => Some(issue()),
    };
    let correlation = finish(call, failure);
    let Some(((start, end), grid_id)) = timing else { return correlation };
    if l.duration.is_none() {
        with_gpu(|g| g.add_in_flight(correlation, InFlight { device, stream: sid, start }));
    }
    activity::emit_kernel(
        |kind| {
            records::kernel(&records::Kernel {
                kind,
                name: l.name,
                grid: l.grid,
                block: l.block,
                dynamic_shared: l.dynamic_shared,
                static_shared: 0,
                registers: 32,
                start,
                end,
                device,
                context: context_id(device),
                stream: sid,
                correlation,
                grid_id,
            })
        },
        l.duration.is_none().then_some(correlation),
    );
    correlation
}
