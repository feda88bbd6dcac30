//! Tool registration: finding `rocprofiler_configure`, the configure window, finalization.
//!
//! `mock_rocprofiler_load_tools` does what the runtime's first call into the SDK does:
//! collect the tools (a forced configure function, then each library of `ROCP_TOOL_LIBRARIES`,
//! then a function registered with `mock_rocprofiler_register_configure`, then the global
//! `rocprofiler_configure` symbol; each function once), call every `rocprofiler_configure`
//! (version 10000, "1.0.0", priority, client id), then every returned `initialize`. Contexts,
//! buffers and services can be created only while this runs, and contexts only inside an
//! `initialize` (the SDK's `allocate_context` asserts that a client is initializing: a context
//! created in `rocprofiler_configure` aborts the process). A tool whose configure returns NULL
//! loses the contexts (and their buffers) it has.
//!
//! `rocprofiler_force_configure` as the newest `registration.cpp` has it: FINALIZED once
//! finalization began; a function forced before returns SUCCESS without running again; after
//! the window (or when another function was forced before) the new tool starts late: its
//! configure and initialize run now; while the window is open on another thread the call waits
//! for the registration lock and answers CONFIGURATION_LOCKED; from the window's own thread (a
//! tool's configure or initialize) it would wait for that lock forever, and the mock aborts.
//! SDKs before late start (`mock_rocprofiler_set_late_start(0)`) answer CONFIGURATION_LOCKED
//! once configuration began or a function was forced.
//!
//! A library named in `ROCP_TOOL_LIBRARIES` that cannot be opened is fatal (ROCP_FATAL): the
//! mock aborts the process.

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::buffers::quiesce;
use crate::state::{state, Client, State, CLIENT_OFFSET};
use crate::*;

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}
const RTLD_LAZY: c_int = 0x1;
const RTLD_NOLOAD: c_int = 0x4;

type ConfigureFn = unsafe extern "C" fn(
    u32,
    *const c_char,
    u32,
    *mut rocprofiler_client_id_t,
) -> *mut rocprofiler_tool_configure_result_t;

/// `ROCP_TOOL_LIBRARIES` split as the real library splits it: on `:`, and when there is a `:`,
/// whatever follows the last one is dropped (so `a.so:b.so` names only `a.so`).
fn tool_libraries() -> Vec<String> {
    let Ok(mut val) = std::env::var("ROCP_TOOL_LIBRARIES") else { return Vec::new() };
    if val.is_empty() {
        return Vec::new();
    }
    if !val.contains(':') {
        return vec![val];
    }
    let mut out = Vec::new();
    while let Some(pos) = val.find(':') {
        let token = val[..pos].to_string();
        if !token.is_empty() {
            out.push(token);
        }
        val.drain(..=pos);
    }
    out
}

fn configure_symbol(handle: *mut c_void) -> Option<ConfigureFn> {
    // SAFETY: dlsym with a valid handle (or RTLD_DEFAULT = NULL) and a NUL-terminated name.
    let sym = unsafe { dlsym(handle, c"rocprofiler_configure".as_ptr()) };
    // SAFETY: a tool's `rocprofiler_configure` has this signature by contract.
    (!sym.is_null()).then(|| unsafe { std::mem::transmute::<*mut c_void, ConfigureFn>(sym) })
}

/// The SDK's registration lock: held while tools' configure and initialize functions run.
static REGISTRATION: Mutex<()> = Mutex::new(());
/// Threads inside `rocprofiler_force_configure` (the window waits for them before it closes,
/// as the SDK's blocked callers usually get the lock before `init_status` becomes 1).
static FORCING: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set on the thread that runs the window, while it holds the registration lock.
    static IN_WINDOW: Cell<bool> = const { Cell::new(false) };
}

fn registration_lock() -> std::sync::MutexGuard<'static, ()> {
    REGISTRATION.lock().unwrap_or_else(|e| e.into_inner())
}

fn new_client(origin: String, configure: ConfigureFn, prio: usize) -> Client {
    Client {
        origin,
        configure,
        id: Box::new(rocprofiler_client_id_t {
            size: std::mem::size_of::<rocprofiler_client_id_t>(),
            name: std::ptr::null(),
            handle: CLIENT_OFFSET + prio as u32,
        }),
        result: None,
    }
}

fn find_clients(st: &State) -> Vec<Client> {
    let mut found: Vec<(String, ConfigureFn)> = Vec::new();
    let mut add = |name: String, f: ConfigureFn| {
        if !found.iter().any(|(_, g)| *g as usize == f as usize) {
            found.push((name, f));
        }
    };
    for f in st.forced.iter().flatten() {
        add("(forced)".into(), *f);
    }
    for lib in tool_libraries() {
        let Ok(path) = CString::new(lib.clone()) else { continue };
        // SAFETY: opening a tool library the user named, as the real SDK does.
        let mut handle = unsafe { dlopen(path.as_ptr(), RTLD_NOLOAD | RTLD_LAZY) };
        if handle.is_null() {
            // SAFETY: as above.
            handle = unsafe { dlopen(path.as_ptr(), RTLD_LAZY) };
        }
        if handle.is_null() {
            // The SDK's ROCP_FATAL: a tool library named and not opened ends the process.
            crash(&format!("ROCP_TOOL_LIBRARIES names {lib}, which cannot be opened (fatal in the SDK)"));
        }
        match configure_symbol(handle) {
            Some(f) => add(lib, f),
            None => eprintln!("[mock rocprofiler] {lib} has no rocprofiler_configure"),
        }
    }
    if let Some(f) = st.registered_configure {
        add("(registered)".into(), f);
    }
    if let Some(f) = configure_symbol(std::ptr::null_mut()) {
        add("(RTLD_DEFAULT)".into(), f);
    }
    found
        .into_iter()
        .enumerate()
        .map(|(prio, (origin, configure))| new_client(origin, configure, prio))
        .collect()
}

/// Calls client `i`'s `rocprofiler_configure`; a NULL result deregisters its contexts and their
/// buffers. No client is current: a context created here aborts.
fn configure_client(i: usize) {
    let (configure, id, handle) = {
        let mut st = state();
        st.current_client = None;
        let c = &mut st.clients[i];
        let handle = c.id.handle;
        let id: *mut rocprofiler_client_id_t = &mut *c.id;
        (c.configure, id, handle)
    };
    if std::env::var_os("MOCK_ROCPROFILER_VERBOSE").is_some() {
        eprintln!("[mock rocprofiler] configuring tool {i} from {}", state().clients[i].origin);
    }
    // SAFETY: the tool's configure function, called as the SDK calls it; `id` is boxed and stays
    // valid.
    let result = unsafe { configure(10000, c"1.0.0".as_ptr(), i as u32, id) };
    let mut st = state();
    if result.is_null() {
        let mine: Vec<u64> = st.contexts.iter().filter(|c| c.client == handle).map(|c| c.handle).collect();
        for ctx in st.contexts.iter_mut().filter(|c| c.client == handle) {
            ctx.active = false;
            ctx.registered = false;
        }
        for buf in st.buffers.iter_mut().filter(|b| mine.contains(&b.context)) {
            buf.destroyed = true;
            buf.records.clear();
        }
    } else {
        // SAFETY: the tool returned a pointer to its configure result.
        st.clients[i].result = Some(unsafe { *result });
    }
}

/// Calls client `i`'s `initialize` (once), with the client current.
fn initialize_client(i: usize) {
    let call = {
        let mut st = state();
        let handle = st.clients[i].id.handle;
        st.current_client = Some(handle);
        st.clients[i].result.as_mut().and_then(|r| r.initialize.take().map(|init| (init, r.tool_data)))
    };
    if let Some((init, tool_data)) = call {
        // SAFETY: the tool's initialize function with its own tool data.
        unsafe { init(Some(client_finalize), tool_data) };
    }
    state().current_client = None;
}

/// Runs `f` as the window's thread, holding the registration lock.
fn in_window(f: impl FnOnce()) {
    let _lock = registration_lock();
    IN_WINDOW.with(|w| w.set(true));
    f();
    IN_WINDOW.with(|w| w.set(false));
}

/// Closes the window: callers blocked in `rocprofiler_force_configure` meanwhile see it open.
fn close_window() {
    while FORCING.load(Ordering::Acquire) > 0 {
        std::thread::yield_now();
    }
    state().init_status = 1;
}

/// The configure window: every tool's configure, then every initialize.
fn initialize() {
    let count = {
        let mut st = state();
        if st.init_status != 0 {
            return;
        }
        st.init_status = -1;
        st.clients = find_clients(&st);
        st.clients.len()
    };
    in_window(|| (0..count).for_each(configure_client));
    in_window(|| (0..count).for_each(initialize_client));
    close_window();
}

/// A tool forced after the window (late start): its configure and initialize run now.
fn late_start(f: ConfigureFn) {
    let i = {
        let mut st = state();
        let prio = st.clients.len();
        st.clients.push(new_client("(forced...)".into(), f, prio));
        st.init_status = -1;
        prio
    };
    in_window(|| {
        configure_client(i);
        initialize_client(i);
    });
    close_window();
}

/// The finalize function handed to each tool's initialize.
extern "C" fn client_finalize(id: rocprofiler_client_id_t) {
    let clients = state().clients.len();
    if clients == 1 {
        mock_rocprofiler_shutdown();
    } else {
        finalize_client(id.handle);
    }
}

fn finalize_client(handle: u32) {
    // The client's contexts are stopped as rocprofiler_stop_context stops them (counter results
    // drained), then its finalize runs.
    let contexts: Vec<u64> =
        state().contexts.iter().filter(|c| c.client == handle && c.active).map(|c| c.handle).collect();
    for ctx in contexts {
        crate::contexts::rocprofiler_stop_context(rocprofiler_context_id_t { handle: ctx });
    }
    let call = {
        let mut st = state();
        let Some(client) = st.clients.iter_mut().find(|c| c.id.handle == handle) else { return };
        client.result.as_mut().and_then(|r| r.finalize.take().map(|f| (f, r.tool_data)))
    };
    if let Some((fini, tool_data)) = call {
        let was = {
            let mut st = state();
            let was = st.fini_status;
            if was == 0 {
                st.fini_status = -1;
            }
            was
        };
        // SAFETY: the tool's finalize function with its own tool data.
        unsafe { fini(tool_data) };
        if was == 0 {
            state().fini_status = was;
        }
    }
}

#[no_mangle]
pub extern "C" fn rocprofiler_force_configure(
    configure_func: rocprofiler_configure_func_t,
) -> rocprofiler_status_t {
    if state().fini_status != 0 {
        return status::FINALIZED;
    }
    let Some(f) = configure_func else { return status::INVALID_ARGUMENT };
    if state().no_late_start {
        return force_configure_before_late_start(f);
    }
    if IN_WINDOW.with(Cell::get) {
        crash("rocprofiler_force_configure from a tool's configure or initialize waits for the registration lock its own thread holds");
    }
    // Waiting for the lock and deciding (the window does not close while a caller decides).
    FORCING.fetch_add(1, Ordering::AcqRel);
    let (duplicate, forced) = {
        let _lock = registration_lock();
        let mut st = state();
        if st.forced.iter().flatten().any(|g| *g as usize == f as usize) {
            (true, st.forced.len())
        } else {
            st.forced.push(Some(f));
            (false, st.forced.len())
        }
    };
    let init = state().init_status;
    FORCING.fetch_sub(1, Ordering::AcqRel);
    if duplicate {
        return status::SUCCESS;
    }
    if forced > 1 || init > 0 {
        late_start(f);
        return status::SUCCESS;
    }
    if init != 0 {
        return status::CONFIGURATION_LOCKED;
    }
    initialize();
    status::SUCCESS
}

/// `rocprofiler_force_configure` of the SDKs before late start: once a function was forced, or
/// once configuration began, CONFIGURATION_LOCKED (nothing is added); else the window runs now.
fn force_configure_before_late_start(f: ConfigureFn) -> rocprofiler_status_t {
    {
        let mut st = state();
        if !st.forced.is_empty() || st.init_status != 0 {
            return status::CONFIGURATION_LOCKED;
        }
        st.forced.push(Some(f));
    }
    initialize();
    status::SUCCESS
}

/// Threads waiting inside `rocprofiler_force_configure` (for the registration lock).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_force_configure_waiters() -> u32 {
    FORCING.load(Ordering::Acquire) as u32
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_is_initialized(out: *mut i32) -> rocprofiler_status_t {
    if out.is_null() {
        return status::INVALID_ARGUMENT;
    }
    *out = state().init_status;
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_is_finalized(out: *mut i32) -> rocprofiler_status_t {
    if out.is_null() {
        return status::INVALID_ARGUMENT;
    }
    *out = state().fini_status;
    status::SUCCESS
}

/// Plays an SDK without late start (`0`: `rocprofiler_force_configure` after the window answers
/// CONFIGURATION_LOCKED, as SDKs before it did) or the newest one (`1`, the default).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_set_late_start(enabled: i32) {
    state().no_late_start = enabled == 0;
}

/// Registers a configure function found "in the process" (as if a loaded library exported
/// `rocprofiler_configure`), for tools that live in the test program itself.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_register_configure(configure_func: rocprofiler_configure_func_t) {
    state().registered_configure = configure_func;
}

/// Plays the runtime's first call into the SDK: runs the configure window. Returns
/// CONFIGURATION_LOCKED when it has run already (or a forced configure did).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_load_tools() -> rocprofiler_status_t {
    if state().init_status != 0 {
        return status::CONFIGURATION_LOCKED;
    }
    initialize();
    status::SUCCESS
}

/// Number of tools whose configure returned a result.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_client_count() -> u32 {
    state().clients.iter().filter(|c| c.result.is_some()).count() as u32
}

/// Plays process exit: stops each tool's contexts and calls its finalize (once). Records still
/// in buffers are not delivered unless a tool flushes them in its finalize.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_shutdown() {
    let handles: Vec<u32> = {
        let mut st = state();
        if st.fini_status != 0 {
            return;
        }
        st.fini_status = -1;
        if st.init_status > 0 {
            st.clients.iter().map(|c| c.id.handle).collect()
        } else {
            Vec::new()
        }
    };
    for h in handles {
        finalize_client(h);
    }
    crate::signal::sync();
    quiesce();
    state().fini_status = 1;
}

/// Forgets everything (tools, contexts, buffers, configs, serialization) so that the next test
/// starts with a library that has not been configured yet.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_reset() {
    FORCING.store(0, Ordering::Release);
    crate::signal::discard();
    crate::results::discard();
    quiesce();
    crate::agents::reset_kfd();
    *state() = State::default();
}
