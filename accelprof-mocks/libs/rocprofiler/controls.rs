// The `mock_rocprofiler_*` controls, declared once: `lib.rs` of the mock (and of the mainline
// build) checks each against the function it defines (a different signature does not compile),
// and `accelprof-mocks`'s `src/rocprofiler.rs` resolves them at `MockRocprofiler::open` with these
// signatures. `pub`: a control that takes plain values, a safe method of `MockRocprofiler` of the
// same name; `raw`: one that takes a pointer, called through a typed method or an `unsafe fn`.
mock_controls! {
/// Back to a library that has not been configured (no tools, contexts, buffers, configs;
/// KFD present; the counting thread stopped and its results dropped).
pub fn reset = mock_rocprofiler_reset();
/// A configure function found "in the process" (as a loaded library exporting
/// `rocprofiler_configure`).
raw fn register_configure = mock_rocprofiler_register_configure(configure: rocprofiler_configure_func_t);
/// The runtime's first call into the SDK: the configure window (every tool's configure, then
/// every initialize).
pub fn load_tools = mock_rocprofiler_load_tools() -> rocprofiler_status_t;
/// Tools whose configure returned a result.
pub fn client_count = mock_rocprofiler_client_count() -> u32;
/// Process exit: each tool's contexts are stopped (draining their counter results) and its
/// finalize called.
pub fn shutdown = mock_rocprofiler_shutdown();
/// Threads waiting inside `rocprofiler_force_configure` for the registration lock.
pub fn force_configure_waiters = mock_rocprofiler_force_configure_waiters() -> u32;
/// Plays a library whose `ROCPROFILER_STATUS_LAST` is `last` (0: the default).
pub fn set_status_last = mock_rocprofiler_set_status_last(last: u32);
/// 0: a machine without `/sys/class/kfd` (zero agents, not even a CPU); 1: the default.
pub fn set_kfd = mock_rocprofiler_set_kfd(present: i32);
/// ENTER of an API call of callback kind `kind`, operation `op`; its correlation id.
pub fn api_begin = mock_rocprofiler_api_begin(kind: u32, op: i32) -> u64;
/// EXIT of this thread's innermost API call; its correlation id.
pub fn api_end = mock_rocprofiler_api_end() -> u64;
/// An API call from ENTER to EXIT; its correlation id.
pub fn api_call = mock_rocprofiler_api_call(kind: u32, op: i32) -> u64;
/// A roctx marker call (`op`: 0 mark, 1 push, 2 pop, 3 start, 4 stop) with its message.
raw fn marker = mock_rocprofiler_marker(op: i32, message: *const c_char) -> u64;
/// A memory copy (`op` 1..=4) between two agents, submitted now (ENTER callbacks here); its
/// EXIT and records come at completion on the async-signal thread. Its correlation id.
pub fn memory_copy = mock_rocprofiler_memory_copy(op: i32, src: u64, dst: u64, bytes: u64) -> u64;
/// Registers a kernel symbol (code object tracing); its kernel id.
raw fn kernel_symbol = mock_rocprofiler_kernel_symbol(name: *const c_char) -> u64;
/// Enqueues a kernel on GPU `agent`; its dispatch id (0: not a GPU).
pub fn dispatch_begin = mock_rocprofiler_dispatch_begin(agent: u64, queue: u64, kernel: u64, gx: u32, gy: u32, gz: u32, wx: u32, wy: u32, wz: u32) -> u64;
/// Completes a dispatch: its COMPLETE callbacks and records come later on the async-signal
/// thread, its counter results then go to the SDK's counting thread.
pub fn dispatch_end = mock_rocprofiler_dispatch_end(dispatch: u64) -> i32;
/// Makes HSA fail to read an in-flight dispatch's timing (no COMPLETE callback, no record).
pub fn dispatch_fail_timing = mock_rocprofiler_dispatch_fail_timing(dispatch: u64) -> i32;
/// Waits until the async-signal thread has run every completion queued so far.
pub fn sync = mock_rocprofiler_sync();
/// Completions queued on the async-signal thread and not yet run.
pub fn completions_pending = mock_rocprofiler_completions_pending() -> u64;
/// How long after it ran a completion reaches the tools (microseconds; default 1000).
pub fn set_completion_latency_us = mock_rocprofiler_set_completion_latency_us(micros: u64);
/// 0: an SDK without late start (`rocprofiler_force_configure` after the window is
/// CONFIGURATION_LOCKED); 1: the newest (the default).
pub fn set_late_start = mock_rocprofiler_set_late_start(enabled: i32);
/// A dispatch from enqueue to completion.
pub fn dispatch = mock_rocprofiler_dispatch(agent: u64, queue: u64, kernel: u64, gx: u32, gy: u32, gz: u32, wx: u32, wy: u32, wz: u32) -> u64;
/// Whether a dispatch was serialized (1/0; -1 unknown).
pub fn dispatch_serialized = mock_rocprofiler_dispatch_serialized(dispatch: u64) -> i32;
/// How many counting callbacks a dispatch invoked (-1 unknown).
pub fn dispatch_instrumented = mock_rocprofiler_dispatch_instrumented(dispatch: u64) -> i32;
/// How many active counting contexts serialize `agent` (-1: not an agent).
pub fn agent_serialization = mock_rocprofiler_agent_serialization(agent: u64) -> i64;
/// Completed dispatches whose counter results the counting thread holds, not yet delivered.
pub fn counting_pending = mock_rocprofiler_counting_pending() -> u64;
/// Lets the counting thread deliver every result it holds (as time passing would) and waits
/// until it has.
pub fn counting_release = mock_rocprofiler_counting_release();
/// Handle of GPU `index` (0-based), or 0.
pub fn gpu_agent = mock_rocprofiler_gpu_agent(index: u32) -> u64;
/// Handle of the CPU agent.
pub fn cpu_agent = mock_rocprofiler_cpu_agent() -> u64;
/// Records stored in a buffer, not yet handed to its callback (`u64::MAX`: no such buffer).
pub fn buffer_pending = mock_rocprofiler_buffer_pending(buffer: u64) -> u64;
/// Waits until every buffer delivery queued so far has run.
pub fn quiesce = mock_rocprofiler_quiesce();}
