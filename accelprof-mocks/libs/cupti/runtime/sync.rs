//! `cudaDeviceSynchronize` and `cudaStreamSynchronize`.

use std::ffi::c_void;

use super::api_call::{begin, finish};
use super::gpu::{complete_in_flight, with_gpu};
use super::identity::{context_handle, context_id, stream_id, take_failure};
use super::nesting;
use crate::activity::{self, kinds, records};
use crate::callback_names::DOMAIN_RUNTIME;
use crate::clock;
use crate::dispatch;
use crate::sys::params::cudaStream_t;
use crate::sys::{CUcontext, CUstream};
use crate::version;

const CBID_CUDA_STREAM_SYNCHRONIZE: u32 = 131;
const CBID_CUDA_DEVICE_SYNCHRONIZE: u32 = 165;
const CBID_CU_CTX_SYNCHRONIZE: u32 = 17;
const CBID_CU_STREAM_SYNCHRONIZE: u32 = 126;
const CBID_CU_CTX_GET_CURRENT: u32 = 304;
/// `cuCtxSynchronize_v2`, new in 13.0 (12.9's runtime calls `cuCtxSynchronize`).
const CBID_CU_CTX_SYNCHRONIZE_V2: u32 = 800;
/// `CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE` / `_CONTEXT_SYNCHRONIZE`.
const SYNC_STREAM: u32 = 3;
const SYNC_CONTEXT: u32 = 4;
/// `CUPTI_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED` / `_CONTEXT_SYNCHRONIZED`.
const CBID_STREAM_SYNCHRONIZED: u32 = 1;
const CBID_CONTEXT_SYNCHRONIZED: u32 = 2;

/// `cudaStreamSynchronize_v3020_params` (one `cudaStream_t`, 8 bytes as measured with gcc), not
/// among `cupti-sys`'s generated params; `cuStreamSynchronize_params` has the same layout.
#[repr(C)]
struct StreamSynchronizeParams {
    stream: cudaStream_t,
}

/// `cuCtxGetCurrent_params` (one `CUcontext *`), not among `cupti-sys`'s generated params.
#[repr(C)]
struct CtxGetCurrentParams {
    pctx: *mut CUcontext,
}

/// `cuCtxSynchronize_v2_params` (one `CUcontext`), not among `cupti-sys`'s generated params.
#[repr(C)]
struct CtxSynchronizeParams {
    ctx: CUcontext,
}

/// `cudaDeviceSynchronize` (`stream == None`) or `cudaStreamSynchronize`: ends in-flight work
/// it waits for, waits until the device/stream is idle, issues the SYNCHRONIZE-domain callback,
/// then the API record and a SYNCHRONIZATION record. The waiting happens inside the driver calls
/// the runtime makes (see [`nesting`]): `cuCtxGetCurrent` then `cuCtxSynchronize_v2` (12.9:
/// `cuCtxSynchronize`), or `cuStreamSynchronize`.
pub fn synchronize(stream: Option<u64>) -> u32 {
    let failure = take_failure();
    let handle = stream.unwrap_or(0);
    let params = StreamSynchronizeParams { stream: handle as cudaStream_t };
    let (cbid, params): (u32, *const c_void) = match stream {
        Some(_) => (CBID_CUDA_STREAM_SYNCHRONIZE, (&params as *const StreamSynchronizeParams).cast()),
        None => (CBID_CUDA_DEVICE_SYNCHRONIZE, std::ptr::null()),
    };
    let call = begin(DOMAIN_RUNTIME, cbid, None, None, params);
    let device = call.device;
    let sid = stream.map(stream_id);
    let start = call.start;
    if failure == 0 {
        let wait = || {
            complete_in_flight(device, sid);
            clock::wait_until(with_gpu(|g| g.idle_at(device, sid)));
            let (sync_cbid, sync_stream) = match stream {
                Some(s) => (CBID_STREAM_SYNCHRONIZED, s as CUstream),
                None => (CBID_CONTEXT_SYNCHRONIZED, std::ptr::null_mut()),
            };
            dispatch::synchronized(sync_cbid, context_handle(device), sync_stream);
        };
        match stream {
            Some(_) => nesting::driver_call(CBID_CU_STREAM_SYNCHRONIZE, None, params, wait),
            None => {
                let mut current = context_handle(device);
                let get = CtxGetCurrentParams { pctx: &mut current };
                let get_params = (&get as *const CtxGetCurrentParams).cast();
                nesting::driver_call(CBID_CU_CTX_GET_CURRENT, None, get_params, || ());
                let sync = CtxSynchronizeParams { ctx: current };
                let (sync_cbid, sync_params) = if version::is_v12() {
                    (CBID_CU_CTX_SYNCHRONIZE, std::ptr::null())
                } else {
                    (CBID_CU_CTX_SYNCHRONIZE_V2, (&sync as *const CtxSynchronizeParams).cast())
                };
                nesting::driver_call(sync_cbid, None, sync_params, wait);
            }
        }
    }
    let correlation = finish(call, failure);
    if failure == 0 {
        let end = clock::now();
        activity::emit_if_enabled(kinds::SYNCHRONIZATION, || {
            records::sync(&records::Sync {
                sync_type: if stream.is_some() { SYNC_STREAM } else { SYNC_CONTEXT },
                start,
                end,
                correlation,
                context: context_id(device),
                stream: sid.unwrap_or(records::SYNC_INVALID),
                return_value: 0,
            })
        });
    }
    correlation
}
