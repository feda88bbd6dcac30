// The `mock_cupti_*` controls, declared once: `lib.rs` of the mock checks each against the
// function it defines (a different signature does not compile), and `accelprof-mocks`'s
// `src/cupti.rs` resolves them at `MockCupti::open` with these signatures. `pub`: a control that
// takes no pointer, a safe method of `MockCupti` of the same name; `raw`: one that does, called
// only through a typed method (a `&CStr`, `&mut u64`, an `ApiCall`) or an `unsafe fn`.
mock_controls! {
    /// Back to a freshly loaded library (version 130001, driver present, no subscriber, no kind
    /// enabled, counters zero, the foreign client gone). The `cupti` crate's next subscriber
    /// finds the subscription it kept gone and subscribes again.
    pub fn reset = mock_cupti_reset();
    /// Plays another CUPTI release (28 = 12.9, 130001 = 13.0, 130200 = 13.2): what
    /// `cuptiGetVersion` reports and the record layouts that follow from it. Set it before
    /// subscribing.
    pub fn set_version = mock_cupti_set_version(version: u32);
    /// 0: no GPU driver (subscribing, enabling activity and flushing fail as on such a machine).
    pub fn set_driver_present = mock_cupti_set_driver_present(present: i32);
    /// Another tool holds CUPTI's subscription (NULL: nobody).
    raw fn set_foreign_subscriber = mock_cupti_set_foreign_subscriber(name: *const c_char);
    /// A counter or state value (`u64::MAX` for an unknown name).
    raw fn stat = mock_cupti_stat(name: *const c_char) -> u64;
    /// Waits until every buffer handed to the delivery thread has been completed.
    pub fn wait_idle = mock_cupti_wait_idle();
    /// The calling thread's current device (`cudaSetDevice`).
    pub fn set_device = mock_cupti_set_device(device: u32);
    /// Whether played runtime calls make their driver calls nested, with the runtime call's
    /// correlation id (on by default).
    pub fn set_nested_driver_calls = mock_cupti_set_nested_driver_calls(on: i32);
    /// What each call's `correlationData` slots hold at ENTER (0 by default, as the real
    /// libraries probed give).
    pub fn set_slot_fill = mock_cupti_set_slot_fill(value: u64);
    /// The next played call on this thread returns `error`.
    pub fn fail_next_call = mock_cupti_fail_next_call(error: i32);
    /// Any runtime (2) or driver (1) API call with its `params`; its correlation id.
    raw fn api_call = mock_cupti_api_call(domain: u32, cbid: u32, name: *const c_char, params: *const c_void, ret: i32) -> u32;
    /// ENTER callbacks of a call; an opaque call handle for `mock_cupti_api_exit`.
    raw fn api_enter = mock_cupti_api_enter(domain: u32, cbid: u32, name: *const c_char, params: *const c_void) -> *mut c_void;
    /// EXIT callbacks of a call begun with `mock_cupti_api_enter` (0: another thread's call, left open).
    raw fn api_exit = mock_cupti_api_exit(call: *mut c_void, ret: i32) -> u32;
    /// `cudaLaunchKernel` of `name<<<grid, block, shared, stream>>>` lasting `duration_ns`.
    raw fn launch_kernel = mock_cupti_launch_kernel(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64, duration_ns: u64) -> u32;
    /// The same through `cuLaunchKernel`.
    raw fn launch_kernel_driver = mock_cupti_launch_kernel_driver(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64, duration_ns: u64) -> u32;
    /// A launch whose kernel runs until `mock_cupti_complete_kernel`.
    raw fn launch_kernel_in_flight = mock_cupti_launch_kernel_in_flight(name: *const c_char, gx: u32, gy: u32, gz: u32, bx: u32, by: u32, bz: u32, shared: u32, stream: u64) -> u32;
    /// Completes the in-flight kernel of launch `correlation`, lasting `duration_ns` (0: its
    /// record patched; 1: the record was lost; 2: not recorded; -1: no such kernel).
    pub fn complete_kernel = mock_cupti_complete_kernel(correlation: u32, duration_ns: u64) -> i32;
    /// `cudaMemcpy` / `cudaMemcpyAsync` (`kind`: 1 HtoD, 2 DtoH, 3 DtoD) between two played
    /// addresses (never dereferenced); its correlation id.
    pub fn memcpy = mock_cupti_memcpy(dst: u64, src: u64, bytes: u64, kind: u32, stream: u64, is_async: i32, duration_ns: u64) -> u32;
    /// `cudaMemset` / `cudaMemsetAsync`; its correlation id.
    pub fn memset = mock_cupti_memset(dst: u64, value: i32, bytes: u64, stream: u64, is_async: i32, duration_ns: u64) -> u32;
    /// `cudaMalloc`; writes the played address.
    raw fn malloc = mock_cupti_malloc(bytes: u64, address: *mut u64) -> u32;
    /// `cudaFree`; its correlation id.
    pub fn free = mock_cupti_free(address: u64) -> u32;
    /// `cudaDeviceSynchronize` (and a SYNCHRONIZE-domain callback); its correlation id.
    pub fn device_synchronize = mock_cupti_device_synchronize() -> u32;
    /// `cudaStreamSynchronize`; its correlation id.
    pub fn stream_synchronize = mock_cupti_stream_synchronize(stream: u64) -> u32;
    /// A RESOURCE-domain callback (3 = STREAM_CREATED).
    pub fn resource = mock_cupti_resource(cbid: u32, stream: u64);
    /// A marker range start (MARKER record; `domain` NULL: the default domain); its id.
    raw fn marker_start = mock_cupti_marker_start(name: *const c_char, domain: *const c_char) -> u32;
    /// The end of the marker range `id`.
    pub fn marker_end = mock_cupti_marker_end(id: u32);
    /// An instantaneous marker; its id.
    raw fn marker_instant = mock_cupti_marker_instant(name: *const c_char, domain: *const c_char) -> u32;
    /// A second CUPTI client inside the mock starts as PyTorch's profiler (Kineto) does:
    /// `cuptiSubscribe` (its result is `foreign_stat("subscribe_result")`),
    /// `cuptiActivityRegisterCallbacks` with its own callbacks (the last registration wins),
    /// `cuptiActivityEnable` of MEMCPY, MEMSET, CONCURRENT_KERNEL, EXTERNAL_CORRELATION, RUNTIME.
    /// Returns the first failing call's code.
    pub fn foreign_start = mock_cupti_foreign_start() -> u32;
    /// A second client of the per-subscriber API (13.3+): `cuptiSubscribe_v2` allowing others,
    /// its own `_v2` buffer callbacks, CONCURRENT_KERNEL with fixed records.
    pub fn foreign_start_v2 = mock_cupti_foreign_start_v2() -> u32;
    /// The foreign client's `cuptiActivityFlushAll(flag)` (1 = FORCED).
    pub fn foreign_flush = mock_cupti_foreign_flush(flag: u32) -> u32;
    /// The foreign client stops as Kineto does: its kinds disabled (process-wide under V1), then a
    /// forced flush.
    pub fn foreign_stop = mock_cupti_foreign_stop() -> u32;
    /// A tally of the foreign client (`u64::MAX` for an unknown name).
    raw fn foreign_stat = mock_cupti_foreign_stat(name: *const c_char) -> u64;
}
