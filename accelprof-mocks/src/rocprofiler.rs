//! The mock `librocprofiler-sdk` ([`LIBRARY`], and [`LIBRARY_MAINLINE`], the same mock without
//! `rocprofiler_dispatch_counting_service_set_agents`, as every released SDK is) and its
//! `mock_rocprofiler_*` controls ([`MockRocprofiler`]): the caller plays the ROCm runtime (tool
//! loading, HIP/HSA calls, kernels, copies, process exit) and the machine (no KFD). Played calls
//! run on the calling thread, as the real call would; a kernel's or copy's completion (COMPLETE
//! or EXIT callbacks, buffer records) comes later on HSA's async-signal thread, and its counter
//! results later still, on the SDK's own counting thread. The controls are documented in full where the mock
//! defines them (`libs/rocprofiler/*.rs`).

use std::ffi::{c_char, CStr};

use crate::Result;

use rocprofiler_sys::{rocprofiler_configure_func_t, rocprofiler_status_t};

/// Absolute path of the mock `librocprofiler-sdk` built for this crate (with
/// `rocprofiler_dispatch_counting_service_set_agents`, as the SDK's main branch has it).
pub const LIBRARY: &str = env!("ACCELPROF_MOCK_ROCPROFILER");

/// Absolute path of the mock `librocprofiler-sdk` without `set_agents` (a released SDK).
pub const LIBRARY_MAINLINE: &str = env!("ACCELPROF_MOCK_ROCPROFILER_MAINLINE");

/// The mock `librocprofiler-sdk`'s controls, on a `dlopen` handle of the mock.
///
/// Every control of the mock is a method here: those that take plain values as they are declared
/// (`libs/rocprofiler/controls.rs`, the one declaration the mock is checked against), the names and
/// messages as `&CStr`, and the configure function as an `unsafe fn`.
pub struct MockRocprofiler {
    // Boxed: a wrapper stays a pointer wide in the caller's enums and structs.
    controls: Box<Controls>,
    // Declared after `controls`: the library stays loaded while the table is used.
    _lib: libloading::Library,
}

impl std::fmt::Debug for MockRocprofiler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockRocprofiler").finish_non_exhaustive()
    }
}

macro_rules! mock_controls {
    ($($t:tt)*) => { wrapper_controls!(Controls, MockRocprofiler; $($t)*); };
}

include!("../libs/rocprofiler/controls.rs");

impl MockRocprofiler {
    /// The mock at `path` ([`LIBRARY`] or [`LIBRARY_MAINLINE`]), its controls looked up;
    /// [`Error::NotTheMock`](crate::Error::NotTheMock) for a library without them.
    pub fn open(path: impl AsRef<std::ffi::OsStr>) -> Result<MockRocprofiler> {
        let path = path.as_ref();
        let lib = crate::error::open_library(path)?;
        let controls = Box::new(Controls::resolve(&lib, path)?);
        Ok(MockRocprofiler { controls, _lib: lib })
    }

    /// A configure function found "in the process" (as a loaded library exporting
    /// `rocprofiler_configure`), called at [`MockRocprofiler::load_tools`]. The control
    /// `mock_rocprofiler_register_configure`.
    ///
    /// # Safety
    /// `configure` is a `rocprofiler_configure` as the SDK's contract has it: called with the
    /// SDK's arguments on the thread that loads the tools, and what it returns is used as the SDK
    /// uses it (`rocprofiler::configure_function` gives one for a `rocprofiler::Tool`).
    pub unsafe fn register_configure(&self, configure: rocprofiler_configure_func_t) {
        // SAFETY: the caller's contract for `configure`.
        unsafe { (self.controls.register_configure)(configure) }
    }

    /// A roctx marker call (`op`: 0 mark, 1 push, 2 pop, 3 start, 4 stop) with its message
    /// (`None` for a pop or a stop); its correlation id. The control `mock_rocprofiler_marker`.
    pub fn marker(&self, op: i32, message: Option<&CStr>) -> u64 {
        let message = message.map_or(std::ptr::null(), CStr::as_ptr);
        // SAFETY: NULL or a C string, alive across the call (the mock copies it).
        unsafe { (self.controls.marker)(op, message) }
    }

    /// Registers a kernel symbol (code object tracing); its kernel id. The control
    /// `mock_rocprofiler_kernel_symbol`.
    pub fn kernel_symbol(&self, name: &CStr) -> u64 {
        // SAFETY: a C string, alive across the call (the mock copies it).
        unsafe { (self.controls.kernel_symbol)(name.as_ptr()) }
    }
}

/// Runs the calling test's `body` against the mock `librocprofiler-sdk` ([`LIBRARY`]), and
/// returns what it returned: the mock's [`lock`] held, its controls opened (once per process) and
/// `reset` (an SDK not configured yet: no tools, no forced configure function, no contexts). The
/// body opens the SDK as the tool does
/// (`rocprofiler::Rocprofiler::open_path(accelprof_mocks::rocprofiler::LIBRARY)`), sets the tool up
/// in a configure window (`rocprofiler::configure_with`, whose closure takes the test's state and
/// returns its handles), plays the program through the controls, and plays process exit with
/// [`MockRocprofiler::shutdown`] where the tool's finalize should run (every buffer flushed).
///
/// ```no_run
/// #[test]
/// fn my_tool_counts_the_kernels() {
///     accelprof_mocks::rocprofiler::run_mocked(|mock| {
///         let k = mock.kernel_symbol(c"saxpy");
///         mock.dispatch(mock.gpu_agent(0), 1, k, 256, 1, 1, 64, 1, 1);
///         // ... with the tool set up first (rocprofiler::configure_with) ...
///         mock.shutdown();
///     });
/// }
/// ```
///
/// # Panics
/// When the mock's controls cannot be opened (the file this crate built is gone), when called from
/// inside another `run_mocked`'s body (it would wait for the lock that body holds), and when
/// `body` panics (the lock is released, not poisoned for the next test).
pub fn run_mocked<R>(body: impl FnOnce(&MockRocprofiler) -> R) -> R {
    static MOCK: std::sync::OnceLock<MockRocprofiler> = std::sync::OnceLock::new();
    thread_local! {
        static IN_BODY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    /// Clears `IN_BODY` however the body ends.
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            IN_BODY.with(|b| b.set(false));
        }
    }
    assert!(
        !IN_BODY.with(|b| b.replace(true)),
        "accelprof_mocks::rocprofiler::run_mocked inside another run_mocked's body (it holds the mock's lock)"
    );
    let _leave = Leave;
    let _lock = lock();
    let mock = match MOCK.get() {
        Some(mock) => mock,
        None => {
            let opened = MockRocprofiler::open(LIBRARY)
                .unwrap_or_else(|e| panic!("accelprof_mocks::rocprofiler::run_mocked: {e}"));
            MOCK.get_or_init(|| opened)
        }
    };
    mock.reset();
    body(mock)
}

/// The lock of the mock `librocprofiler-sdk`: one mock state per process, so tests that drive it take this
/// first (and then `reset` it). A test that panicked while holding it does not poison it for the
/// others.
pub fn lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
