//! The mock `librocprofiler-sdk` ([`LIBRARY`], and [`LIBRARY_MAINLINE`], the same mock without
//! `rocprofiler_dispatch_counting_service_set_agents`, as every released SDK is) and its
//! `mock_rocprofiler_*` controls ([`MockRocprofiler`]): the caller plays the ROCm runtime (tool
//! loading, HIP/HSA calls, kernels, copies, process exit) and the machine (no KFD). Played calls
//! run on the calling thread, as the real call would; a kernel's or copy's completion (COMPLETE
//! or EXIT callbacks, buffer records) comes later on HSA's async-signal thread, and its counter
//! results later still, on the SDK's own counting thread. The controls are documented in full where the mock
//! defines them (`libs/rocprofiler/*.rs`).

use std::ffi::c_char;

use rocprofiler_sys::{rocprofiler_configure_func_t, rocprofiler_status_t};

/// Absolute path of the mock `librocprofiler-sdk` built for this crate (with
/// `rocprofiler_dispatch_counting_service_set_agents`, as the SDK's main branch has it).
pub const LIBRARY: &str = env!("ACCELPROF_MOCK_ROCPROFILER");

/// Absolute path of the mock `librocprofiler-sdk` without `set_agents` (a released SDK).
pub const LIBRARY_MAINLINE: &str = env!("ACCELPROF_MOCK_ROCPROFILER_MAINLINE");

/// The mock `librocprofiler-sdk`'s controls, on a `dlopen` handle of the mock.
///
/// Pointer arguments are passed to the mock as they are: they must be NULL or valid for the call
/// as the control describes (NUL-terminated names and messages).
#[derive(Debug)]
pub struct MockRocprofiler {
    lib: libloading::Library,
}

macro_rules! controls {
    ($( $(#[$doc:meta])* fn $name:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        impl MockRocprofiler {
            $(
                $(#[$doc])*
                #[allow(clippy::too_many_arguments, clippy::not_unsafe_ptr_arg_deref)]
                pub fn $name(&self, $($arg: $ty),*) $(-> $ret)? {
                    let symbol = concat!("mock_rocprofiler_", stringify!($name), "\0");
                    // SAFETY: the mock exports this control with exactly this C signature
                    // (libs/rocprofiler/*.rs); pointers passed are valid for the call.
                    unsafe {
                        let f = self
                            .lib
                            .get::<unsafe extern "C" fn($($ty),*) $(-> $ret)?>(symbol.as_bytes())
                            .expect(symbol);
                        f($($arg),*)
                    }
                }
            )*
        }
    };
}

controls! {
    /// Back to a library that has not been configured (no tools, contexts, buffers, configs;
    /// KFD present; the counting thread stopped and its results dropped).
    fn reset();
    /// A configure function found "in the process" (as a loaded library exporting
    /// `rocprofiler_configure`).
    fn register_configure(configure: rocprofiler_configure_func_t);
    /// The runtime's first call into the SDK: the configure window (every tool's configure, then
    /// every initialize).
    fn load_tools() -> rocprofiler_status_t;
    /// Tools whose configure returned a result.
    fn client_count() -> u32;
    /// Process exit: each tool's contexts are stopped (draining their counter results) and its
    /// finalize called.
    fn shutdown();
    /// Threads waiting inside `rocprofiler_force_configure` for the registration lock.
    fn force_configure_waiters() -> u32;
    /// Plays a library whose `ROCPROFILER_STATUS_LAST` is `last` (0: the default).
    fn set_status_last(last: u32);
    /// 0: a machine without `/sys/class/kfd` (zero agents, not even a CPU); 1: the default.
    fn set_kfd(present: i32);
    /// ENTER of an API call of callback kind `kind`, operation `op`; its correlation id.
    fn api_begin(kind: u32, op: i32) -> u64;
    /// EXIT of this thread's innermost API call; its correlation id.
    fn api_end() -> u64;
    /// An API call from ENTER to EXIT; its correlation id.
    fn api_call(kind: u32, op: i32) -> u64;
    /// A roctx marker call (`op`: 0 mark, 1 push, 2 pop, 3 start, 4 stop) with its message.
    fn marker(op: i32, message: *const c_char) -> u64;
    /// A memory copy (`op` 1..=4) between two agents, submitted now (ENTER callbacks here); its
    /// EXIT and records come at completion on the async-signal thread. Its correlation id.
    fn memory_copy(op: i32, src: u64, dst: u64, bytes: u64) -> u64;
    /// Registers a kernel symbol (code object tracing); its kernel id.
    fn kernel_symbol(name: *const c_char) -> u64;
    /// Enqueues a kernel on GPU `agent`; its dispatch id (0: not a GPU).
    fn dispatch_begin(agent: u64, queue: u64, kernel: u64, gx: u32, gy: u32, gz: u32, wx: u32, wy: u32, wz: u32) -> u64;
    /// Completes a dispatch: its COMPLETE callbacks and records come later on the async-signal
    /// thread, its counter results then go to the SDK's counting thread.
    fn dispatch_end(dispatch: u64) -> i32;
    /// Makes HSA fail to read an in-flight dispatch's timing (no COMPLETE callback, no record).
    fn dispatch_fail_timing(dispatch: u64) -> i32;
    /// Waits until the async-signal thread has run every completion queued so far.
    fn sync();
    /// Completions queued on the async-signal thread and not yet run.
    fn completions_pending() -> u64;
    /// How long after it ran a completion reaches the tools (microseconds; default 1000).
    fn set_completion_latency_us(micros: u64);
    /// 0: an SDK without late start (`rocprofiler_force_configure` after the window is
    /// CONFIGURATION_LOCKED); 1: the newest (the default).
    fn set_late_start(enabled: i32);
    /// A dispatch from enqueue to completion.
    fn dispatch(agent: u64, queue: u64, kernel: u64, gx: u32, gy: u32, gz: u32, wx: u32, wy: u32, wz: u32) -> u64;
    /// Whether a dispatch was serialized (1/0; -1 unknown).
    fn dispatch_serialized(dispatch: u64) -> i32;
    /// How many counting callbacks a dispatch invoked (-1 unknown).
    fn dispatch_instrumented(dispatch: u64) -> i32;
    /// How many active counting contexts serialize `agent` (-1: not an agent).
    fn agent_serialization(agent: u64) -> i64;
    /// Completed dispatches whose counter results the counting thread holds, not yet delivered.
    fn counting_pending() -> u64;
    /// Lets the counting thread deliver every result it holds (as time passing would) and waits
    /// until it has.
    fn counting_release();
    /// Handle of GPU `index` (0-based), or 0.
    fn gpu_agent(index: u32) -> u64;
    /// Handle of the CPU agent.
    fn cpu_agent() -> u64;
    /// Records stored in a buffer, not yet handed to its callback (`u64::MAX`: no such buffer).
    fn buffer_pending(buffer: u64) -> u64;
    /// Waits until every buffer delivery queued so far has run.
    fn quiesce();
}

impl MockRocprofiler {
    /// The mock at `path` ([`LIBRARY`] or [`LIBRARY_MAINLINE`]).
    pub fn open(path: impl AsRef<std::ffi::OsStr>) -> MockRocprofiler {
        // SAFETY: the mock is a std-only Rust cdylib without initialisers that could misbehave.
        let lib = unsafe { libloading::Library::new(path) }.expect("the mock librocprofiler-sdk opens");
        MockRocprofiler { lib }
    }
}
