//! The CUDA runtime the tests play through `mock_cupti_*`: API calls with their callbacks and
//! API records, and the GPU work they cause (kernels, copies, sets, synchronizations) with its
//! activity records.
//!
//! Identities: device `d` (per thread, `mock_cupti_set_device`) has context id `d + 1` and a fake
//! non-NULL `CUcontext`; a stream handle `s` has stream id `s as u32`, the NULL stream id 7.
//! Correlation ids are unique per API call, process-wide.
//!
//! Timing: an API record spans the call (start after the ENTER callbacks, end before the EXIT
//! ones). GPU work starts 1 us after its API call or when the previous work on its stream ends,
//! whichever is later, and lasts the given duration. Blocking calls (`cudaMemcpy`,
//! `cudaMemset`, synchronizations) really wait until the work they wait for has ended, so a
//! timestamp taken after them is past it. Records follow the API record in the buffer:
//! EXTERNAL_CORRELATION records, the API record, then the GPU record.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::activity::buffers::{self, Completion};
use crate::activity::{self, external, kinds, records};
use crate::callback_names::{self, DOMAIN_DRIVER, DOMAIN_RUNTIME};
use crate::clock;
use crate::dispatch::{self, ApiCallInfo, CorrelationSlots};
use crate::results::{INVALID_PARAMETER, SUCCESS};
use crate::stats;
use crate::sys::params::*;
use crate::sys::{CUcontext, CUstream};

/// Stream id of the legacy NULL stream.
pub const NULL_STREAM_ID: u32 = 7;
const LAUNCH_LATENCY_NS: u64 = 1_000;
const CONTEXT_HANDLE_BASE: usize = 0xC0_0000;

// Runtime callback ids (`CUPTI_RUNTIME_TRACE_CBID_*`) and driver ones of the played calls.
const CBID_CUDA_MALLOC: u32 = 20;
const CBID_CUDA_FREE: u32 = 22;
const CBID_CUDA_MEMCPY: u32 = 31;
const CBID_CUDA_MEMCPY_ASYNC: u32 = 41;
const CBID_CUDA_MEMSET: u32 = 49;
const CBID_CUDA_MEMSET_ASYNC: u32 = 51;
const CBID_CUDA_STREAM_SYNCHRONIZE: u32 = 131;
const CBID_CUDA_DEVICE_SYNCHRONIZE: u32 = 165;
const CBID_CUDA_LAUNCH_KERNEL: u32 = 211;
const CBID_CU_LAUNCH_KERNEL: u32 = 307;

/// `CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE` / `_CONTEXT_SYNCHRONIZE`.
const SYNC_STREAM: u32 = 3;
const SYNC_CONTEXT: u32 = 4;
/// `CUPTI_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED` / `_CONTEXT_SYNCHRONIZED`.
const CBID_STREAM_SYNCHRONIZED: u32 = 1;
const CBID_CONTEXT_SYNCHRONIZED: u32 = 2;

static NEXT_CORRELATION: AtomicU32 = AtomicU32::new(1);
/// Bumped by `mock_cupti_reset` so per-thread state from before is forgotten.
static GENERATION: AtomicU64 = AtomicU64::new(0);

#[derive(Default)]
struct ThreadState {
    generation: u64,
    device: u32,
    fail_next: Option<i32>,
}

thread_local! {
    static THREAD: RefCell<ThreadState> = RefCell::new(ThreadState::default());
}

fn with_thread<R>(f: impl FnOnce(&mut ThreadState) -> R) -> R {
    let generation = GENERATION.load(Ordering::Relaxed);
    THREAD.with(|t| {
        let mut t = t.borrow_mut();
        if t.generation != generation {
            *t = ThreadState { generation, ..ThreadState::default() };
        }
        f(&mut t)
    })
}

pub fn set_device(device: u32) {
    with_thread(|t| t.device = device);
}

fn current_device() -> u32 {
    with_thread(|t| t.device)
}

/// The next played call on this thread fails with `code` (and causes no GPU work).
pub fn fail_next_call(code: i32) {
    with_thread(|t| t.fail_next = Some(code));
}

fn take_failure() -> i32 {
    with_thread(|t| t.fail_next.take()).unwrap_or(0)
}

pub fn context_handle(device: u32) -> CUcontext {
    (CONTEXT_HANDLE_BASE + device as usize * 0x100) as CUcontext
}

fn device_of_context(context: CUcontext) -> Option<u32> {
    let c = context as usize;
    (c >= CONTEXT_HANDLE_BASE && (c - CONTEXT_HANDLE_BASE) % 0x100 == 0)
        .then(|| ((c - CONTEXT_HANDLE_BASE) / 0x100) as u32)
}

pub fn context_id(device: u32) -> u32 {
    device + 1
}

pub fn stream_id(stream: u64) -> u32 {
    if stream == 0 {
        NULL_STREAM_ID
    } else {
        stream as u32
    }
}

struct InFlight {
    device: u32,
    stream: u32,
    start: u64,
}

/// The GPU's timeline.
struct Gpu {
    /// When the last work on `(device, stream id)` ends.
    stream_end: HashMap<(u32, u32), u64>,
    in_flight: HashMap<u32, InFlight>,
    next_grid_id: i64,
    next_address: u64,
    next_marker_id: u32,
}

static GPU: Mutex<Option<Gpu>> = Mutex::new(None);

fn gpu() -> MutexGuard<'static, Option<Gpu>> {
    let mut g = GPU.lock().unwrap_or_else(|e| e.into_inner());
    g.get_or_insert_with(|| Gpu {
        stream_end: HashMap::new(),
        in_flight: HashMap::new(),
        next_grid_id: 1,
        next_address: 0x7f00_0000_0000,
        next_marker_id: 1,
    });
    g
}

fn with_gpu<R>(f: impl FnOnce(&mut Gpu) -> R) -> R {
    f(gpu().as_mut().expect("initialised by gpu()"))
}

impl Gpu {
    /// Places work of `duration` on a stream no earlier than `earliest`; `None` duration: it
    /// starts but has no known end yet (in flight).
    fn schedule(&mut self, device: u32, stream: u32, earliest: u64, duration: Option<u64>) -> (u64, u64) {
        let free = self.stream_end.get(&(device, stream)).copied().unwrap_or(0);
        let start = earliest.max(free);
        let Some(duration) = duration else { return (start, 0) };
        let end = start + duration;
        self.stream_end.insert((device, stream), end);
        (start, end)
    }

    /// When all work on the device (or one stream of it) ends.
    fn idle_at(&self, device: u32, stream: Option<u32>) -> u64 {
        self.stream_end
            .iter()
            .filter(|((d, s), _)| *d == device && stream.map_or(true, |want| want == *s))
            .map(|(_, &end)| end)
            .max()
            .unwrap_or(0)
    }
}

pub fn reset() {
    GENERATION.fetch_add(1, Ordering::Relaxed);
    *GPU.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

pub fn kernels_in_flight() -> u64 {
    with_gpu(|g| g.in_flight.len() as u64)
}

/// One API call between its ENTER and EXIT callbacks.
pub struct ApiCall {
    info: ApiCallInfo,
    slots: CorrelationSlots,
    /// The API record's start.
    start: u64,
    device: u32,
    return_value: i32,
    thread: std::thread::ThreadId,
}

/// Starts an API call on this thread: new correlation id, ENTER callbacks.
pub fn begin(
    domain: u32,
    cbid: u32,
    name: Option<&'static CStr>,
    symbol: Option<&'static CStr>,
    params: *const c_void,
) -> ApiCall {
    stats::add(&stats::API_CALLS, 1);
    let device = current_device();
    let function_name = name.or_else(|| callback_names::function_name(domain, cbid)).unwrap_or(c"unknown");
    let mut call = ApiCall {
        info: ApiCallInfo {
            domain,
            cbid,
            function_name,
            symbol_name: symbol,
            params,
            context: context_handle(device),
            context_uid: context_id(device),
            correlation_id: NEXT_CORRELATION.fetch_add(1, Ordering::Relaxed),
        },
        slots: CorrelationSlots::default(),
        start: 0,
        device,
        return_value: 0,
        thread: std::thread::current().id(),
    };
    dispatch::api_site(&call.info, false, &mut call.return_value, &mut call.slots);
    call.start = clock::now();
    call
}

/// Whether `call` was begun on the calling thread.
pub fn on_own_thread(call: &ApiCall) -> bool {
    call.thread == std::thread::current().id()
}

/// Ends an API call: EXIT callbacks, then its EXTERNAL_CORRELATION and API records.
pub fn finish(mut call: ApiCall, return_value: i32) -> u32 {
    let end = clock::now();
    call.return_value = return_value;
    dispatch::api_site(&call.info, true, &mut call.return_value, &mut call.slots);

    let kind = match call.info.domain {
        DOMAIN_DRIVER => kinds::DRIVER,
        DOMAIN_RUNTIME => kinds::RUNTIME,
        _ => return call.info.correlation_id,
    };
    let correlation = call.info.correlation_id;
    if kinds::enabled(kind) {
        if kinds::enabled(kinds::EXTERNAL_CORRELATION) {
            for (external_kind, id) in external::current() {
                buffers::emit(&records::external_correlation(external_kind, id, correlation), None);
            }
        }
        let record = records::api(&records::Api {
            kind,
            cbid: call.info.cbid,
            start: call.start,
            end,
            process: clock::process_id(),
            thread: clock::record_thread_id(),
            correlation,
            return_value: return_value as u32,
        });
        buffers::emit(&record, None);
    }
    correlation
}

/// A played API call with no GPU work.
pub fn api_call(domain: u32, cbid: u32, name: Option<&'static CStr>, params: *const c_void, ret: i32) -> u32 {
    let call = begin(domain, cbid, name, None, params);
    finish(call, ret)
}

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
/// name as `symbolName`, a RUNTIME/DRIVER record, then the kernel record.
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
    let timing = (failure == 0).then(|| {
        with_gpu(|g| {
            let grid_id = g.next_grid_id;
            g.next_grid_id += 1;
            (g.schedule(device, sid, call.start + LAUNCH_LATENCY_NS, l.duration), grid_id)
        })
    });
    let correlation = finish(call, failure);
    let Some(((start, end), grid_id)) = timing else { return correlation };
    if l.duration.is_none() {
        with_gpu(|g| g.in_flight.insert(correlation, InFlight { device, stream: sid, start }));
    }
    if let Some(kind) = kinds::kernel_kind() {
        let record = records::kernel(&records::Kernel {
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
        });
        buffers::emit(&record, l.duration.is_none().then_some(correlation));
    }
    correlation
}

/// Finishes an in-flight kernel at `end`; see [`Completion`].
fn finish_kernel(correlation: u32, start: u64, end: u64) -> Completion {
    // SAFETY: the key names the kernel record written for this correlation id.
    buffers::complete_record(correlation, |rec| unsafe { records::patch_kernel_end(rec, start, end) })
}

/// Ends an in-flight kernel `duration` ns after it started (at the latest now).
/// `None` if no such kernel is in flight.
pub fn complete_kernel(correlation: u32, duration: u64) -> Option<Completion> {
    let k = with_gpu(|g| g.in_flight.remove(&correlation))?;
    let end = k.start + duration;
    with_gpu(|g| {
        let e = g.stream_end.entry((k.device, k.stream)).or_insert(0);
        *e = (*e).max(end);
    });
    Some(finish_kernel(correlation, k.start, end))
}

/// Ends, now, every in-flight kernel a synchronization waits for.
fn complete_in_flight(device: u32, stream: Option<u32>) {
    let done: Vec<(u32, InFlight)> = with_gpu(|g| {
        let keys: Vec<u32> = g
            .in_flight
            .iter()
            .filter(|(_, k)| k.device == device && stream.map_or(true, |s| s == k.stream))
            .map(|(&c, _)| c)
            .collect();
        keys.into_iter().filter_map(|c| g.in_flight.remove(&c).map(|k| (c, k))).collect()
    });
    for (correlation, k) in done {
        let end = clock::now().max(k.start + 1);
        with_gpu(|g| {
            let e = g.stream_end.entry((k.device, k.stream)).or_insert(0);
            *e = (*e).max(end);
        });
        finish_kernel(correlation, k.start, end);
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
    let call = begin(DOMAIN_RUNTIME, cbid, None, None, params);
    let (device, sid) = (call.device, stream_id(stream));
    let timing = (failure == 0)
        .then(|| with_gpu(|g| g.schedule(device, sid, call.start + LAUNCH_LATENCY_NS, Some(c.duration))));
    if let (Some((_, end)), false) = (timing, c.is_async) {
        clock::wait_until(end);
    }
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
    let call = begin(DOMAIN_RUNTIME, cbid, None, None, params);
    let (device, sid) = (call.device, stream_id(stream));
    let timing = (failure == 0)
        .then(|| with_gpu(|g| g.schedule(device, sid, call.start + LAUNCH_LATENCY_NS, Some(s.duration))));
    if let (Some((_, end)), false) = (timing, s.is_async) {
        clock::wait_until(end);
    }
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
        let a = with_gpu(|g| {
            let a = g.next_address;
            g.next_address += bytes.max(1).div_ceil(256) * 256;
            a
        });
        // SAFETY: `dev_ptr` points at `address`, alive for this whole function.
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

/// `cudaStreamSynchronize_v3020_params` (one `cudaStream_t`, 8 bytes as measured with gcc), not
/// among `cupti-sys`'s generated params.
#[repr(C)]
struct StreamSynchronizeParams {
    stream: cudaStream_t,
}

/// `cudaDeviceSynchronize` (`stream == None`) or `cudaStreamSynchronize`: ends in-flight work
/// it waits for, waits until the device/stream is idle, issues the SYNCHRONIZE-domain callback,
/// then the API record and a SYNCHRONIZATION record.
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
        complete_in_flight(device, sid);
        clock::wait_until(with_gpu(|g| g.idle_at(device, sid)));
        let (sync_cbid, sync_stream) = match stream {
            Some(s) => (CBID_STREAM_SYNCHRONIZED, s as CUstream),
            None => (CBID_CONTEXT_SYNCHRONIZED, std::ptr::null_mut()),
        };
        dispatch::synchronized(sync_cbid, context_handle(device), sync_stream);
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

/// A RESOURCE-domain event (`CUPTI_CBID_RESOURCE_*`) on the current device's context.
pub fn resource(cbid: u32, stream: u64) {
    dispatch::resource(cbid, context_handle(current_device()), stream as CUstream);
}

/// An NVTX marker: `flags` INSTANTANEOUS (1), START (2) or END (4; `id` from its START).
/// Returns the marker id.
pub fn marker(
    flags: u32,
    id: Option<u32>,
    name: Option<&'static CStr>,
    domain: Option<&'static CStr>,
) -> u32 {
    let id = id.unwrap_or_else(|| {
        with_gpu(|g| {
            let id = g.next_marker_id;
            g.next_marker_id += 1;
            id
        })
    });
    activity::emit_if_enabled(kinds::MARKER, || {
        records::marker(&records::Marker {
            flags,
            timestamp: clock::now(),
            id,
            process: clock::process_id(),
            thread: clock::record_thread_id(),
            name,
            domain,
        })
    });
    id
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetContextId(context: CUcontext, out: *mut u32) -> u32 {
    let Some(device) = device_of_context(context) else { return INVALID_PARAMETER };
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: checked non-null; the caller passes a writable u32.
    unsafe { *out = context_id(device) };
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetDeviceId(context: CUcontext, out: *mut u32) -> u32 {
    let device = if context.is_null() { Some(current_device()) } else { device_of_context(context) };
    let Some(device) = device else { return INVALID_PARAMETER };
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: as above.
    unsafe { *out = device };
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetStreamId(_context: CUcontext, stream: CUstream, out: *mut u32) -> u32 {
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: as above.
    unsafe { *out = stream_id(stream as u64) };
    SUCCESS
}
