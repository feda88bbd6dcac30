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

/// Says `message` on stderr, in the tool's process (a traced program): a closed stderr drops it, where
/// `eprintln!` would panic inside the SDK's call.
fn say(message: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(format!("{message}\n").as_bytes());
}

fn report(result: Result<()>) {
    if let Err(e) = &result {
        say(&format!("rocprofiler tool setup failed: {e}"));
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

/// Runs a setup in the configure window (its calls to [`force_configure`] refused, the contexts
/// it starts noted) and, when it fails or panics (`ok` says which outcomes succeeded), stops
/// those contexts again, newest first: the SDK ignores initialize's return value, and what the
/// failed setup started would keep collecting (into closures and buffers nobody reads).
fn in_window<R>(
    lib: &'static Rocprofiler,
    shared: &Mutex<ToolShared>,
    setup: impl FnOnce(&mut Configurator<'_>) -> R,
    ok: impl FnOnce(&R) -> bool,
) -> std::thread::Result<R> {
    let was = IN_SETUP.with(|f| f.replace(true));
    let outer = STARTED.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
        let mut config = Configurator::new(lib, &mut shared);
        setup(&mut config)
    }));
    IN_SETUP.with(|f| f.set(was));
    let started = STARTED.with(|s| std::mem::replace(&mut *s.borrow_mut(), outer));
    if !outcome.as_ref().is_ok_and(ok) {
        for ctx in started.iter().rev() {
            let _ = catch_unwind(AssertUnwindSafe(|| ctx.stop()));
        }
    }
    outcome
}

/// Flushes every buffer a tool created that has not ended (at finalize: no record is lost).
fn flush_buffers(shared: &Mutex<ToolShared>, name: &str) {
    let buffers = shared.lock().unwrap_or_else(|e| e.into_inner()).buffers.clone();
    for b in buffers.iter().filter(|b| !b.has_ended()) {
        if let Err(e) = b.flush() {
            say(&format!("rocprofiler tool {name}: flushing buffer {} at finalize: {e}", b.id()));
        }
    }
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
    let outcome = in_window(state.lib, &state.shared, |config| T::setup(config), |r| r.is_ok());
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
        flush_buffers(&state.shared, T::NAME);
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

/// The closure of the [`configure_with`] waiting on this thread for its window: it reports
/// whether it succeeded (its result and any panic stay with the caller).
type WindowFn<'a> = dyn FnMut(&mut Configurator<'_>) -> bool + 'a;

thread_local! {
    /// Set only while [`configure_with`] is inside `rocprofiler_force_configure` on this thread,
    /// and taken by the first initialize that runs it.
    static WINDOW: std::cell::Cell<Option<*mut WindowFn<'static>>> = const { std::cell::Cell::new(None) };
}

/// The tool data of a [`configure_with`] client: its buffers, flushed at finalize.
struct WithState {
    lib: &'static Rocprofiler,
    shared: Mutex<ToolShared>,
}

/// The client name of a [`configure_with`] tool.
const WITH_NAME: &std::ffi::CStr = c"rocprofiler-configure-with";

/// The configure function [`configure_with`] forces: a tool only while a `configure_with` on
/// this thread waits for its window (the SDK calls a forced configure function and its
/// initialize on the thread that forced it); NULL (no tool) at any other call.
unsafe extern "C" fn configure_with_entry(
    _version: u32,
    _runtime_version: *const c_char,
    _priority: u32,
    client_id: *mut sys::rocprofiler_client_id_t,
) -> *mut sys::rocprofiler_tool_configure_result_t {
    let made = catch_unwind(AssertUnwindSafe(|| -> Result<*mut sys::rocprofiler_tool_configure_result_t> {
        if WINDOW.with(std::cell::Cell::get).is_none() {
            return Ok(std::ptr::null_mut());
        }
        let lib = Rocprofiler::global()?;
        if !client_id.is_null() {
            // SAFETY: the SDK hands a valid client id whose name a tool may set; the name is static.
            unsafe { (*client_id).name = WITH_NAME.as_ptr() };
        }
        let state: &'static WithState =
            Box::leak(Box::new(WithState { lib, shared: Mutex::new(ToolShared::default()) }));
        Ok(Box::leak(Box::new(sys::rocprofiler_tool_configure_result_t {
            size: std::mem::size_of::<sys::rocprofiler_tool_configure_result_t>(),
            initialize: Some(initialize_with),
            finalize: Some(finalize_with),
            tool_data: state as *const WithState as *mut c_void,
        })))
    }));
    match made {
        Ok(Ok(r)) => r,
        _ => std::ptr::null_mut(),
    }
}

unsafe extern "C" fn initialize_with(
    _finalize: sys::rocprofiler_client_finalize_t,
    data: *mut c_void,
) -> i32 {
    if data.is_null() {
        return -1;
    }
    // SAFETY: `data` is the leaked WithState returned by `configure_with_entry`.
    let state = unsafe { &*(data as *const WithState) };
    // Taken: this window runs the closure once, and no later call can reach it.
    let Some(window) = WINDOW.with(std::cell::Cell::take) else { return -1 };
    // SAFETY: `configure_with` set `window` on this thread from a closure that lives until it
    // returns, and it is still inside `rocprofiler_force_configure` (it clears the slot before it
    // returns); taken from the slot, the pointer is used only here, once.
    let window = unsafe { &mut *window };
    match in_window(state.lib, &state.shared, |config| window(config), |ok| *ok) {
        Ok(true) => 0,
        _ => -1,
    }
}

unsafe extern "C" fn finalize_with(data: *mut c_void) {
    if data.is_null() {
        return;
    }
    // SAFETY: `data` is the leaked WithState returned by `configure_with_entry`.
    let state = unsafe { &*(data as *const WithState) };
    let _ = catch_unwind(AssertUnwindSafe(|| flush_buffers(&state.shared, "configure_with")));
}

/// Clears this thread's [`WINDOW`] when [`configure_with`] leaves, however it leaves.
struct WindowGuard;

impl Drop for WindowGuard {
    fn drop(&mut self) {
        WINDOW.with(|w| w.set(None));
    }
}

/// Runs `setup` in a configure window the SDK opens now for this program
/// (`rocprofiler_force_configure`), and returns what it returned: the way to set up a tool with
/// the caller's state (`setup` may borrow it, and need not be `Send` or `'static`) and to get
/// its results back without statics, in a program that profiles itself or in a plain `#[test]`
/// against the mock SDK.
///
/// ```no_run
/// use rocprofiler::{BufferConfig, BufferKind, FamilySet, Rocprofiler};
///
/// # fn main() -> rocprofiler::Result<()> {
/// let lib = Rocprofiler::global()?;
/// let (ctx, buffer) = rocprofiler::configure_with(lib, |cfg| {
///     let ctx = cfg.create_context()?;
///     let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
///     cfg.buffer_tracing(&ctx, BufferKind::KERNEL_DISPATCH, &[], &buffer)?;
///     buffer.subscribe(FamilySet::KERNEL, |batch, _| println!("{} kernels", batch.kernels.len()));
///     Ok((ctx, buffer))
/// })?;
/// ctx.start()?;
/// // ... the program's GPU work ...
/// ctx.stop()?;
/// buffer.flush()?;
/// # Ok(())
/// # }
/// ```
///
/// The SDK runs the window's configure and initialize on this thread before
/// `rocprofiler_force_configure` returns; `setup` runs in that initialize, where the
/// [`Configurator`] may create contexts, buffers and services. When `setup` fails (or panics)
/// the contexts it started are stopped again, as for [`Tool::setup`]; its error is returned and
/// its panic resumed here. At finalization the SDK stops the contexts and this crate flushes
/// every buffer `setup` created.
///
/// One forced configure function serves every `configure_with`, and the SDK runs a forced
/// function once per process: a second call answers [`Error::NotConfigured`] (the newest SDKs
/// ignore the function, forced before), or [`Error::ConfigurationLocked`] (SDKs before late
/// start, once the window ran or a function was forced). The first call after the runtime's
/// window closed starts the tool late on the newest SDKs, and is refused with
/// [`Error::ConfigurationLocked`] on older ones. The mock SDK forgets its forced functions at its
/// `reset`, so every test of a suite can call `configure_with` once. Also, as for
/// [`force_configure`]: [`Error::Finalized`] once the SDK finalized, [`Error::ConfigurationLocked`]
/// while another thread is inside the window, [`Error::WouldDeadlock`] from inside a setup.
#[doc(alias = "rocprofiler_force_configure")]
pub fn configure_with<R, F>(lib: &'static Rocprofiler, setup: F) -> Result<R>
where
    F: FnOnce(&mut Configurator<'_>) -> Result<R>,
{
    if IN_SETUP.with(std::cell::Cell::get) {
        return Err(Error::WouldDeadlock(
            "configure_with from inside a tool's setup (the SDK holds its registration lock there)",
        ));
    }
    let mut setup = Some(setup);
    let mut outcome: Option<std::thread::Result<Result<R>>> = None;
    let mut window = |config: &mut Configurator<'_>| -> bool {
        let Some(setup) = setup.take() else { return false };
        let result = catch_unwind(AssertUnwindSafe(|| setup(config)));
        let ok = matches!(result, Ok(Ok(_)));
        outcome = Some(result);
        ok
    };
    let status = {
        let _guard = WindowGuard;
        let window: *mut WindowFn<'_> = &mut window;
        // SAFETY: only the lifetime is erased: the guard clears the slot before `window` goes out
        // of scope, and the slot is read only on this thread (`initialize_with`).
        let window = unsafe { std::mem::transmute::<*mut WindowFn<'_>, *mut WindowFn<'static>>(window) };
        WINDOW.with(|w| w.set(Some(window)));
        check(
            // SAFETY: `configure_with_entry` has the configure function's signature.
            unsafe { lib.sys().rocprofiler_force_configure(Some(configure_with_entry)) },
            "rocprofiler_force_configure",
        )
    };
    match (status, outcome) {
        (_, Some(Err(panic))) => std::panic::resume_unwind(panic),
        // The setup's own error says more than the late start's.
        (_, Some(Ok(Err(e)))) => Err(e),
        (Err(e), _) => Err(e),
        (Ok(()), Some(Ok(Ok(r)))) => Ok(r),
        (Ok(()), None) => Err(Error::NotConfigured(
            "rocprofiler did not run configure_with's setup (its configure function was forced before)",
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
