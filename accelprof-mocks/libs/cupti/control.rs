//! The `mock_cupti_*` test-control symbols: the test plays the CUDA runtime and the environment.
//!
//! Played calls run on the calling thread, exactly where the real CUDA call would: their
//! callbacks run there, and so does any buffer request their records cause. They return the
//! call's correlation id (as in `CUpti_CallbackData::correlationId` and the records).
//! The mock is one per process: tests that use it must not run concurrently (hold a lock), and
//! start with `mock_cupti_reset`.

use std::ffi::{c_char, c_void, CStr};

use crate::activity::buffers::{self, PatchOutcome as Completion};
use crate::activity::{self, worker};
use crate::callback_names::{intern, DOMAIN_DRIVER, DOMAIN_RUNTIME};
use crate::runtime::{self, Copy, Launch, Set};
use crate::{clock, dispatch, stats, subscribers, version};

/// A C string argument, interned for the life of the process; `None` for NULL.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string.
unsafe fn arg(s: *const c_char) -> Option<&'static CStr> {
    // SAFETY: caller's contract.
    (!s.is_null()).then(|| intern(unsafe { CStr::from_ptr(s) }))
}

/// Back to a freshly loaded library: version 130001, driver present, no subscriber, no kind
/// enabled, no buffer callbacks, counters zero, nested driver calls on, per-thread state (device,
/// external correlation stacks, pending failures, open runtime calls) forgotten, the foreign client
/// (`mock_cupti_foreign_*`) gone and its buffers freed. Waits for
/// queued deliveries first; buffers the mock still holds are forgotten, not handed back.
#[no_mangle]
pub extern "C" fn mock_cupti_reset() {
    activity::reset();
    subscribers::reset();
    crate::foreign::reset();
    runtime::reset();
    clock::reset();
    version::set(version::DEFAULT_VERSION);
    version::set_driver_present(true);
    dispatch::set_slot_fill(0);
    stats::reset();
}

/// Plays another release: what `cuptiGetVersion` reports and everything that follows from it
/// (record layouts and sizes, callback-id ranges, `cuptiSubscribe_v2`). 28 = 12.9 (writes
/// `CUpti_ActivityKernel9`; `cuptiSubscribe_v2` counts as absent: it returns
/// `CUPTI_ERROR_API_NOT_IMPLEMENTED` and bumps `absent_symbol_calls`), 130001 = 13.0 (default),
/// 130200 and above = 13.2 (`allowMultipleSubscribers`, `Kernel11`). Set it before subscribing.
/// The played process history of subscriptions (what 13.2's sharing rule looks at) starts afresh.
#[no_mangle]
pub extern "C" fn mock_cupti_set_version(v: u32) {
    version::set(v);
    subscribers::forget_history();
}

/// `present == 0`: a machine without a GPU driver, where the real library loads but
/// subscribing, enabling activity, flushing and external correlation fail with 999 (13.x) or
/// 15 (12.x).
#[no_mangle]
pub extern "C" fn mock_cupti_set_driver_present(present: i32) {
    version::set_driver_present(present != 0);
}

/// Another tool (Nsight Systems, a framework's profiler) holds CUPTI: every subscribe fails
/// with 39 and `cuptiSubscribe_v2` reports `name` as the old subscriber. NULL: nobody.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_set_foreign_subscriber(name: *const c_char) {
    // SAFETY: NULL or a C string (caller's contract).
    let name = (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) }.to_owned());
    subscribers::set_foreign(name);
}

/// A counter or state value by name (`u64::MAX` for an unknown name): `callbacks_in_flight`,
/// `callbacks_delivered`, `api_calls`, `buffers_requested`, `buffers_declined`,
/// `buffers_misaligned`, `buffers_completed`, `buffers_held`, `records_written`,
/// `records_dropped`, `records_lost_after_forced_flush`, `kernels_in_flight`, `subscribers`,
/// `absent_symbol_calls`, `flush_period_ms`, `version`.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_stat(name: *const c_char) -> u64 {
    if name.is_null() {
        return u64::MAX;
    }
    // SAFETY: a C string (caller's contract).
    let Ok(name) = unsafe { CStr::from_ptr(name) }.to_str() else { return u64::MAX };
    match name {
        "subscribers" => subscribers::count(),
        "kernels_in_flight" => runtime::kernels_in_flight(),
        "buffers_held" => buffers::held(),
        "flush_period_ms" => u64::from(activity::flush_period_ms()),
        "version" => u64::from(version::get()),
        _ => stats::by_name(name).map_or(u64::MAX, stats::get),
    }
}

/// Waits until every buffer already handed to the delivery thread has been completed (full
/// buffers are delivered asynchronously, as CUPTI does).
#[no_mangle]
pub extern "C" fn mock_cupti_wait_idle() {
    worker::wait_idle();
}

/// The calling thread's current device (`cudaSetDevice`), 0 by default.
#[no_mangle]
pub extern "C" fn mock_cupti_set_device(device: u32) {
    runtime::set_device(device);
}

/// `on != 0` (the default, as the real runtime does): played runtime calls make the driver calls
/// a real CUDA runtime makes underneath (`cudaLaunchKernel` -> `cuLaunchKernel`, `cudaMemcpy`
/// -> `cuMemcpyHtoD_v2`/`DtoH`/`DtoD`, `cudaMemset` -> `cuMemsetD8_v2`, `cudaMalloc` ->
/// `cuMemAlloc_v2`, `cudaFree` -> `cuMemFree_v2`, `cudaDeviceSynchronize` -> `cuCtxGetCurrent`
/// then `cuCtxSynchronize_v2`, `cudaStreamSynchronize` -> `cuStreamSynchronize`), nested between
/// the runtime call's ENTER and EXIT, and every driver call made while a runtime call is in
/// progress on the thread (played or through `mock_cupti_api_*`) carries the runtime call's
/// correlation id, in its callbacks and its DRIVER record. `0`: runtime calls alone, every call
/// its own id. `mock_cupti_reset` turns it back on.
#[no_mangle]
pub extern "C" fn mock_cupti_set_nested_driver_calls(on: i32) {
    runtime::set_nested_driver_calls(on != 0);
}

/// What each played API call's `correlationData` slots hold at ENTER: 0 (the default, as the
/// real libraries probed give), or `value`, playing a release that does not zero them.
/// `mock_cupti_reset` sets 0 again.
#[no_mangle]
pub extern "C" fn mock_cupti_set_slot_fill(value: u64) {
    dispatch::set_slot_fill(value);
}

/// The next played call on the calling thread returns `error` (`cudaError_t`/`CUresult`): the
/// EXIT callback's `*functionReturnValue` and the API record's `returnValue` carry it and the
/// call causes no GPU work and no GPU record.
#[no_mangle]
pub extern "C" fn mock_cupti_fail_next_call(error: i32) {
    runtime::fail_next_call(error);
}

/// Any runtime (`domain` 2) or driver (1) API call: ENTER and EXIT callbacks with `params` as
/// `functionParams` and `name` as `functionName` (NULL: the name of `cbid`, e.g. `cudaMalloc`),
/// then the RUNTIME/DRIVER record if enabled, preceded by EXTERNAL_CORRELATION records for the
/// ids pushed on this thread. Returns the correlation id; 0 if `domain` is not 1 or 2.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_api_call(
    domain: u32,
    cbid: u32,
    name: *const c_char,
    params: *const c_void,
    return_value: i32,
) -> u32 {
    if domain != DOMAIN_DRIVER && domain != DOMAIN_RUNTIME {
        return 0;
    }
    // SAFETY: caller's contract.
    runtime::api_call(domain, cbid, unsafe { arg(name) }, params, return_value)
}

/// The first half of [`mock_cupti_api_call`]: ENTER callbacks now, EXIT at
/// [`mock_cupti_api_exit`] (so a test can nest calls or act between the two sites). `params`
/// must stay valid until then. Returns an opaque call handle; NULL if `domain` is not 1 or 2.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_api_enter(
    domain: u32,
    cbid: u32,
    name: *const c_char,
    params: *const c_void,
) -> *mut c_void {
    if domain != DOMAIN_DRIVER && domain != DOMAIN_RUNTIME {
        return std::ptr::null_mut();
    }
    // SAFETY: caller's contract.
    let call = runtime::begin(domain, cbid, unsafe { arg(name) }, None, params);
    Box::into_raw(Box::new(call)).cast()
}

/// Ends a call begun by [`mock_cupti_api_enter`]: EXIT callbacks with `return_value`, then its
/// records. Must run on the thread that began it (as a real call does); otherwise returns 0 and
/// leaves the call open. Returns the correlation id.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_api_exit(call: *mut c_void, return_value: i32) -> u32 {
    if call.is_null() {
        return 0;
    }
    let call = call.cast::<runtime::ApiCall>();
    // SAFETY: a handle from `mock_cupti_api_enter`, not yet ended (caller's contract).
    if !runtime::on_own_thread(unsafe { &*call }) {
        return 0;
    }
    // SAFETY: as above; ownership comes back here once.
    let call = unsafe { Box::from_raw(call) };
    runtime::finish(*call, return_value)
}

/// # Safety
/// `name` is a C string (NULL: `"kernel"`).
unsafe fn launch(
    name: *const c_char,
    dims: [u32; 6],
    shared: u32,
    stream: u64,
    duration: Option<u64>,
    domain: u32,
) -> u32 {
    // SAFETY: caller's contract.
    let name = unsafe { arg(name) }.unwrap_or(c"kernel");
    runtime::launch_kernel(&Launch {
        name,
        grid: [dims[0], dims[1], dims[2]],
        block: [dims[3], dims[4], dims[5]],
        dynamic_shared: shared,
        stream,
        duration,
        domain,
    })
}

/// `cudaLaunchKernel<<<grid, block, dynamic_shared, stream>>>` of kernel `name` running
/// `duration_ns`: runtime callbacks (params `cudaLaunchKernel_v7000_params`, `symbolName` =
/// `name`), RUNTIME record, then a KERNEL/CONCURRENT_KERNEL record with the same correlation id.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_launch_kernel(
    name: *const c_char,
    grid_x: u32,
    grid_y: u32,
    grid_z: u32,
    block_x: u32,
    block_y: u32,
    block_z: u32,
    dynamic_shared: u32,
    stream: u64,
    duration_ns: u64,
) -> u32 {
    let dims = [grid_x, grid_y, grid_z, block_x, block_y, block_z];
    // SAFETY: caller's contract.
    unsafe { launch(name, dims, dynamic_shared, stream, Some(duration_ns), DOMAIN_RUNTIME) }
}

/// As [`mock_cupti_launch_kernel`], through the driver: `cuLaunchKernel` callbacks
/// (`cuLaunchKernel_params`) and a DRIVER record.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_launch_kernel_driver(
    name: *const c_char,
    grid_x: u32,
    grid_y: u32,
    grid_z: u32,
    block_x: u32,
    block_y: u32,
    block_z: u32,
    dynamic_shared: u32,
    stream: u64,
    duration_ns: u64,
) -> u32 {
    let dims = [grid_x, grid_y, grid_z, block_x, block_y, block_z];
    // SAFETY: caller's contract.
    unsafe { launch(name, dims, dynamic_shared, stream, Some(duration_ns), DOMAIN_DRIVER) }
}

/// As [`mock_cupti_launch_kernel`] for a kernel that keeps running: its record is written now
/// with end = completed = 0 and holds back its buffer (and later ones) from a default flush
/// until [`mock_cupti_complete_kernel`] or a synchronization ends it. A FORCED flush hands it
/// out with end = 0.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_launch_kernel_in_flight(
    name: *const c_char,
    grid_x: u32,
    grid_y: u32,
    grid_z: u32,
    block_x: u32,
    block_y: u32,
    block_z: u32,
    dynamic_shared: u32,
    stream: u64,
) -> u32 {
    let dims = [grid_x, grid_y, grid_z, block_x, block_y, block_z];
    // SAFETY: caller's contract.
    unsafe { launch(name, dims, dynamic_shared, stream, None, DOMAIN_RUNTIME) }
}

/// Ends an in-flight kernel `duration_ns` after it started. Returns 0: its record is patched
/// and will be delivered complete; 1: a forced flush already handed its record out with end = 0
/// (lost, as with the real library); 2: no record was written (kind disabled or record
/// dropped); -1: no such kernel in flight.
#[no_mangle]
pub extern "C" fn mock_cupti_complete_kernel(correlation_id: u32, duration_ns: u64) -> i32 {
    match runtime::complete_kernel(correlation_id, duration_ns) {
        Some(Completion::Patched) => 0,
        Some(Completion::Lost) => 1,
        Some(Completion::NotRecorded) => 2,
        None => -1,
    }
}

/// `cudaMemcpy` (`is_async == 0`: blocking, NULL stream, returns after the copy ended) or
/// `cudaMemcpyAsync` on `stream`, `kind` a `cudaMemcpyKind` (0 HtoH, 1 HtoD, 2 DtoH, 3 DtoD,
/// 4 default): callbacks with the real params, RUNTIME record, MEMCPY record.
#[no_mangle]
pub extern "C" fn mock_cupti_memcpy(
    dst: u64,
    src: u64,
    bytes: u64,
    kind: u32,
    stream: u64,
    is_async: i32,
    duration_ns: u64,
) -> u32 {
    runtime::memcpy(&Copy { dst, src, bytes, kind, stream, is_async: is_async != 0, duration: duration_ns })
}

/// `cudaMemset` / `cudaMemsetAsync`, as [`mock_cupti_memcpy`]; MEMSET record.
#[no_mangle]
pub extern "C" fn mock_cupti_memset(
    dst: u64,
    value: i32,
    bytes: u64,
    stream: u64,
    is_async: i32,
    duration_ns: u64,
) -> u32 {
    runtime::memset(&Set { dst, value, bytes, stream, is_async: is_async != 0, duration: duration_ns })
}

/// `cudaMalloc(&p, bytes)`: `*devPtr` is set before the EXIT callbacks; MEMORY2 record. Writes
/// the address to `address` (if not NULL) and returns the correlation id.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_malloc(bytes: u64, address: *mut u64) -> u32 {
    let (correlation, a) = runtime::malloc(bytes);
    if !address.is_null() {
        // SAFETY: checked non-null; the caller passes a writable u64.
        unsafe { *address = a };
    }
    correlation
}

/// `cudaFree(address)`; MEMORY2 release record.
#[no_mangle]
pub extern "C" fn mock_cupti_free(address: u64) -> u32 {
    runtime::free(address)
}

/// `cudaDeviceSynchronize`: ends the device's in-flight kernels, waits until its streams are
/// idle, SYNCHRONIZE-domain callback (CONTEXT_SYNCHRONIZED), RUNTIME record, SYNCHRONIZATION
/// record (type CONTEXT_SYNCHRONIZE, end >= every GPU end before it).
#[no_mangle]
pub extern "C" fn mock_cupti_device_synchronize() -> u32 {
    runtime::synchronize(None)
}

/// `cudaStreamSynchronize(stream)`, as [`mock_cupti_device_synchronize`] for one stream
/// (STREAM_SYNCHRONIZED, type STREAM_SYNCHRONIZE).
#[no_mangle]
pub extern "C" fn mock_cupti_stream_synchronize(stream: u64) -> u32 {
    runtime::synchronize(Some(stream))
}

/// A RESOURCE-domain callback `cbid` (`CUPTI_CBID_RESOURCE_*`, e.g. 3 STREAM_CREATED) with a
/// `CUpti_ResourceData` for the current device's context and `stream`.
#[no_mangle]
pub extern "C" fn mock_cupti_resource(cbid: u32, stream: u64) {
    runtime::resource(cbid, stream);
}

/// `nvtxRangePush`-like start of a marker range: MARKER record (flag START) with `name` and
/// `domain` (NULL: default domain). Returns the marker id for [`mock_cupti_marker_end`].
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_marker_start(name: *const c_char, domain: *const c_char) -> u32 {
    // SAFETY: caller's contract.
    unsafe { runtime::marker(2, None, arg(name), arg(domain)) }
}

/// End of the marker range `id`: MARKER record (flag END, name NULL, same id).
#[no_mangle]
pub extern "C" fn mock_cupti_marker_end(id: u32) {
    runtime::marker(4, Some(id), None, None);
}

/// An instantaneous marker (flag INSTANTANEOUS). Returns its id.
#[no_mangle]
pub unsafe extern "C" fn mock_cupti_marker_instant(name: *const c_char, domain: *const c_char) -> u32 {
    // SAFETY: caller's contract.
    unsafe { runtime::marker(1, None, arg(name), arg(domain)) }
}
