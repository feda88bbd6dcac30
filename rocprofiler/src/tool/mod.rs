//! What only rocprofiler-sdk has: tool registration and its configure window. A type implementing
//! [`Tool`] becomes a rocprofiler tool through
//! [`export_tool!`](crate::export_tool) (a `cdylib` the runtime loads via `ROCP_TOOL_LIBRARIES`)
//! or [`force_configure`] (a program profiling itself).
//!
//! The SDK calls `rocprofiler_configure`, then the tool's initialize, during which the configure
//! window is open: [`Tool::setup`] runs there with a [`Configurator`] (never in
//! `rocprofiler_configure` itself: the SDK aborts the process when a context is created there).
//! At finalization the SDK stops the tool's contexts, which drains their counter results; this
//! crate then flushes every buffer the tool created (so no record is lost) and calls
//! [`Tool::finalize`].

use std::ffi::{c_char, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use rocprofiler_sys as sys;

mod configurator;
mod context;

use crate::error::{check, Error, Result};
use crate::library::Rocprofiler;
pub use configurator::Configurator;
pub(crate) use configurator::ToolShared;
pub use context::Context;

/// A rocprofiler tool: what it sets up in the configure window, and what it does at the end.
pub trait Tool: Sized + Send + 'static {
    /// The client name the SDK shows for this tool.
    const NAME: &'static str;

    /// Runs in the configure window: create contexts, buffers and services here, start
    /// contexts if they should collect from the beginning. Do not call HIP or HSA here (the
    /// runtime is in the middle of initializing; real ROCm deadlocks). When it fails (or
    /// panics), the contexts it started are stopped again (the SDK ignores the failure and
    /// would keep them running).
    fn setup(config: &mut Configurator<'_>) -> Result<Self>;

    /// Runs at finalization, after the SDK stopped this tool's contexts (delivering the counter
    /// results of completed dispatches) and this crate flushed its buffers (every consumer has
    /// seen every record).
    fn finalize(&mut self) {}
}

struct ToolState<T> {
    lib: &'static Rocprofiler,
    shared: Mutex<ToolShared>,
    tool: Mutex<Option<T>>,
}

thread_local! {
    /// Set while a tool's setup runs (inside the SDK's configure window, which holds the SDK's
    /// registration lock).
    static IN_SETUP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

thread_local! {
    /// Contexts started during the setup running on this thread (stopped again if it fails).
    static STARTED: std::cell::RefCell<Vec<Context>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Notes a context started (called by [`Context::start`]); kept only while a setup runs.
pub(crate) fn started_in_setup(ctx: Context) {
    if IN_SETUP.with(std::cell::Cell::get) {
        STARTED.with(|s| s.borrow_mut().push(ctx));
    }
}

/// The outcome of the last setup, for [`force_configure`].
static LAST_SETUP: Mutex<Option<Result<()>>> = Mutex::new(None);

fn report(result: Result<()>) {
    if let Err(e) = &result {
        eprintln!("rocprofiler tool setup failed: {e}");
    }
    *LAST_SETUP.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
}

/// What `rocprofiler_configure` does for tool `T` (called by [`export_tool!`](crate::export_tool)).
///
/// # Safety
/// Called by the SDK as `rocprofiler_configure`: `client_id` is NULL or valid for writes.
#[doc(hidden)]
pub unsafe fn configure<T: Tool>(
    _version: u32,
    _runtime_version: *const c_char,
    _priority: u32,
    client_id: *mut sys::rocprofiler_client_id_t,
) -> *mut sys::rocprofiler_tool_configure_result_t {
    let made = catch_unwind(AssertUnwindSafe(|| -> Result<*mut sys::rocprofiler_tool_configure_result_t> {
        let lib = Rocprofiler::global()?;
        if !client_id.is_null() {
            let name: &'static CString =
                Box::leak(Box::new(CString::new(T::NAME.replace('\0', " ")).unwrap_or_default()));
            // SAFETY: the SDK hands a valid client id whose name a tool may set.
            unsafe { (*client_id).name = name.as_ptr() };
        }
        let state: &'static ToolState<T> = Box::leak(Box::new(ToolState {
            lib,
            shared: Mutex::new(ToolShared::default()),
            tool: Mutex::new(None),
        }));
        let result = Box::leak(Box::new(sys::rocprofiler_tool_configure_result_t {
            size: std::mem::size_of::<sys::rocprofiler_tool_configure_result_t>(),
            initialize: Some(initialize::<T>),
            finalize: Some(finalize::<T>),
            tool_data: state as *const ToolState<T> as *mut c_void,
        }));
        Ok(result)
    }));
    match made {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            report(Err(e));
            std::ptr::null_mut()
        }
        Err(_) => {
            report(Err(Error::Panicked("rocprofiler_configure")));
            std::ptr::null_mut()
        }
    }
}

unsafe extern "C" fn configure_entry<T: Tool>(
    version: u32,
    runtime_version: *const c_char,
    priority: u32,
    client_id: *mut sys::rocprofiler_client_id_t,
) -> *mut sys::rocprofiler_tool_configure_result_t {
    // SAFETY: forwarded from the SDK.
    unsafe { configure::<T>(version, runtime_version, priority, client_id) }
}

unsafe extern "C" fn initialize<T: Tool>(
    _finalize: sys::rocprofiler_client_finalize_t,
    data: *mut c_void,
) -> i32 {
    if data.is_null() {
        return -1;
    }
    // SAFETY: `data` is the leaked ToolState<T> returned by `configure::<T>`.
    let state = unsafe { &*(data as *const ToolState<T>) };
    let was = IN_SETUP.with(|f| f.replace(true));
    let outer = STARTED.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut shared = state.shared.lock().unwrap_or_else(|e| e.into_inner());
        let mut config = Configurator::new(state.lib, &mut shared);
        T::setup(&mut config)
    }));
    IN_SETUP.with(|f| f.set(was));
    let started = STARTED.with(|s| std::mem::replace(&mut *s.borrow_mut(), outer));
    if !matches!(outcome, Ok(Ok(_))) {
        // The SDK ignores initialize's return value: what the failed setup started would keep
        // collecting (into closures and buffers nobody reads). Stop it, newest first.
        for ctx in started.iter().rev() {
            let _ = catch_unwind(AssertUnwindSafe(|| ctx.stop()));
        }
    }
    match outcome {
        Ok(Ok(tool)) => {
            *state.tool.lock().unwrap_or_else(|e| e.into_inner()) = Some(tool);
            report(Ok(()));
            0
        }
        Ok(Err(e)) => {
            report(Err(e));
            -1
        }
        Err(_) => {
            report(Err(Error::Panicked("Tool::setup")));
            -1
        }
    }
}

unsafe extern "C" fn finalize<T: Tool>(data: *mut c_void) {
    if data.is_null() {
        return;
    }
    // SAFETY: `data` is the leaked ToolState<T> returned by `configure::<T>`.
    let state = unsafe { &*(data as *const ToolState<T>) };
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let buffers = state.shared.lock().unwrap_or_else(|e| e.into_inner()).buffers.clone();
        for b in buffers.iter().filter(|b| !b.has_ended()) {
            if let Err(e) = b.flush() {
                eprintln!("rocprofiler tool {}: flushing buffer {} at finalize: {e}", T::NAME, b.id());
            }
        }
        let tool = state.tool.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(mut tool) = tool {
            tool.finalize();
        }
    }));
}

/// Makes `T` a tool now, for a program that profiles itself (`rocprofiler_force_configure`),
/// and returns `T::setup`'s outcome.
///
/// Before the runtime loaded the SDK's tools this runs the configure window early. After it,
/// the newest SDKs start `T` late (its configure and setup run now, and runtimes that already
/// initialized are re-registered; an older rocprofiler-register makes that step fail with
/// [`Error::IncompatibleRegisterVersion`] after the setup ran); older SDKs answer
/// [`Error::ConfigurationLocked`]. Also: [`Error::Finalized`] once the SDK finalized,
/// [`Error::ConfigurationLocked`] while another thread is inside the configure window, and
/// [`Error::NotConfigured`] when the SDK did not run the setup (the newest SDKs ignore a
/// configure function that was forced before, and answer SUCCESS). From inside a tool's setup:
/// [`Error::WouldDeadlock`] (the newest SDKs take the registration lock their configure window
/// holds).
#[doc(alias = "rocprofiler_force_configure")]
pub fn force_configure<T: Tool>(lib: &'static Rocprofiler) -> Result<()> {
    if IN_SETUP.with(std::cell::Cell::get) {
        return Err(Error::WouldDeadlock(
            "force_configure from inside a tool's setup (the SDK holds its registration lock there)",
        ));
    }
    *LAST_SETUP.lock().unwrap_or_else(|e| e.into_inner()) = None;
    let status = check(
        // SAFETY: `configure_entry::<T>` has the configure function's signature.
        unsafe { lib.sys().rocprofiler_force_configure(Some(configure_entry::<T>)) },
        "rocprofiler_force_configure",
    );
    let setup = LAST_SETUP.lock().unwrap_or_else(|e| e.into_inner()).take();
    match (status, setup) {
        // The setup's own error says more than the late start's.
        (_, Some(Err(e))) => Err(e),
        (Err(e), _) => Err(e),
        (Ok(()), Some(Ok(()))) => Ok(()),
        (Ok(()), None) => Err(Error::NotConfigured(
            "rocprofiler did not run the tool's setup (this configure function was forced before)",
        )),
    }
}

/// Makes a `cdylib` a rocprofiler tool: exports `rocprofiler_configure` for tool type `$tool`.
///
/// ```no_run
/// use rocprofiler::{CallbackDomain, Configurator, Result, Tool};
///
/// struct HipCalls;
///
/// impl Tool for HipCalls {
///     const NAME: &'static str = "hip-calls";
///     fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
///         let ctx = cfg.create_context()?;
///         cfg.callback_tracing(&ctx, CallbackDomain::HIP_RUNTIME_API, &[], |rec| {
///             println!("{:?} {:?}", rec.site(), rec.function_name());
///         })?;
///         ctx.start()?;
///         Ok(HipCalls)
///     }
/// }
///
/// rocprofiler::export_tool!(HipCalls);
/// ```
#[macro_export]
macro_rules! export_tool {
    ($tool:ty) => {
        /// The entry point rocprofiler-sdk looks for in a tool library.
        ///
        /// # Safety
        /// Called by rocprofiler-sdk with valid arguments.
        #[no_mangle]
        pub unsafe extern "C" fn rocprofiler_configure(
            version: u32,
            runtime_version: *const ::std::ffi::c_char,
            priority: u32,
            client_id: *mut $crate::sys::rocprofiler_client_id_t,
        ) -> *mut $crate::sys::rocprofiler_tool_configure_result_t {
            // SAFETY: forwarded from the SDK, which passes valid arguments.
            unsafe { $crate::__private::configure::<$tool>(version, runtime_version, priority, client_id) }
        }
    };
}

/// The configure function for `T`, for a runtime stand-in that registers tools itself (tests,
/// examples run against the mock).
pub fn configure_function<T: Tool>() -> sys::rocprofiler_configure_func_t {
    Some(configure_entry::<T>)
}
