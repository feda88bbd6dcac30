//! The mock librocprofiler-sdk follows each rule of the vendor notes, checked through the raw
//! C API (`rocprofiler-sys`), as a C tool would see it.

// The C-style callbacks below are `unsafe extern "C" fn`s whose bodies are raw C access.
#![allow(unsafe_op_in_unsafe_fn)]

mod support;

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rocprofiler_sys::*;
use support::{cpu, exclusive, gpu, mock};

type S = rocprofiler_status_t;

fn fns() -> &'static Library {
    &mock().0
}

fn ctl() -> &'static support::Controls {
    &mock().1
}

// ---- a C-style tool living in this test program ----

type Setup = Box<dyn FnOnce() + Send>;
static SETUP: Mutex<Option<Setup>> = Mutex::new(None);
static TEARDOWN: Mutex<Option<Setup>> = Mutex::new(None);
static CONFIGURE_ARGS: Mutex<Vec<(u32, String, u32, u32)>> = Mutex::new(Vec::new());
static FINI_CALLS: AtomicUsize = AtomicUsize::new(0);
static RETURN_NULL: Mutex<bool> = Mutex::new(false);

unsafe extern "C" fn tool_configure(
    version: u32,
    runtime_version: *const c_char,
    priority: u32,
    client: *mut rocprofiler_client_id_t,
) -> *mut rocprofiler_tool_configure_result_t {
    let rv = CStr::from_ptr(runtime_version).to_string_lossy().into_owned();
    CONFIGURE_ARGS.lock().unwrap().push((version, rv, priority, (*client).handle));
    if *CONTEXT_IN_CONFIGURE.lock().unwrap() {
        // Too early: the SDK asserts that a client is initializing.
        let mut ctx = rocprofiler_context_id_t { handle: 0 };
        fns().rocprofiler_create_context(&mut ctx).unwrap();
    }
    if *RETURN_NULL.lock().unwrap() {
        return std::ptr::null_mut();
    }
    Box::leak(Box::new(rocprofiler_tool_configure_result_t {
        size: std::mem::size_of::<rocprofiler_tool_configure_result_t>(),
        initialize: Some(tool_init),
        finalize: Some(tool_fini),
        tool_data: std::ptr::null_mut(),
    }))
}
static CONTEXT_IN_CONFIGURE: Mutex<bool> = Mutex::new(false);

unsafe extern "C" fn tool_init(_fini: rocprofiler_client_finalize_t, _data: *mut c_void) -> i32 {
    let setup = SETUP.lock().unwrap().take();
    if let Some(f) = setup {
        f();
    }
    0
}

unsafe extern "C" fn tool_fini(_data: *mut c_void) {
    FINI_CALLS.fetch_add(1, Ordering::SeqCst);
    let teardown = TEARDOWN.lock().unwrap().take();
    if let Some(f) = teardown {
        f();
    }
}

/// Registers the test tool and plays the runtime's first call: `setup` runs in the window.
fn configure_tool(setup: impl FnOnce() + Send + 'static) {
    *SETUP.lock().unwrap() = Some(Box::new(setup));
    CONFIGURE_ARGS.lock().unwrap().clear();
    {
        // SAFETY: `tool_configure` is a `rocprofiler_configure` of the SDK's signature and contract.
        unsafe { ctl().register_configure(Some(tool_configure)) };
        assert_eq!(ctl().load_tools(), S::ROCPROFILER_STATUS_SUCCESS);
    }
}

fn create_context() -> rocprofiler_context_id_t {
    let mut ctx = rocprofiler_context_id_t { handle: 0 };
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { fns().rocprofiler_create_context(&mut ctx) }.unwrap(), S::ROCPROFILER_STATUS_SUCCESS);
    ctx
}

fn start(ctx: rocprofiler_context_id_t) -> S {
    // SAFETY: plain id.
    unsafe { fns().rocprofiler_start_context(ctx) }.unwrap()
}

fn stop(ctx: rocprofiler_context_id_t) -> S {
    // SAFETY: plain id.
    unsafe { fns().rocprofiler_stop_context(ctx) }.unwrap()
}

// ---- callback tracing recorder ----

#[derive(Debug, Clone, PartialEq)]
struct Seen {
    ctx: u64,
    kind: u32,
    op: i32,
    phase: u32,
    corr: u64,
    thread: u64,
    user_data: u64,
    slot: usize,
}
static SEEN: Mutex<Vec<Seen>> = Mutex::new(Vec::new());

unsafe extern "C" fn record_callback(
    record: rocprofiler_callback_tracing_record_t,
    user_data: *mut rocprofiler_user_data_t,
    _data: *mut c_void,
) {
    let before = (*user_data).value;
    if record.phase == rocprofiler_callback_phase_t::ROCPROFILER_CALLBACK_PHASE_ENTER {
        (*user_data).value = 0xE000 + record.correlation_id.internal;
    }
    SEEN.lock().unwrap().push(Seen {
        ctx: record.context_id.handle,
        kind: record.kind.0,
        op: record.operation,
        phase: record.phase.0,
        corr: record.correlation_id.internal,
        thread: record.thread_id,
        user_data: before,
        slot: user_data as usize,
    });
}

// ---- buffer recorder ----

#[derive(Debug, Clone)]
struct Delivered {
    hashes: Vec<(u32, u32, u64)>,
    drop_count: u64,
    /// OS thread the callback ran on.
    thread: u64,
    /// (start, end, kind) of tracing records; (dispatch, value) of counter values.
    spans: Vec<(u64, u64, u32)>,
}
static DELIVERED: Mutex<Vec<Delivered>> = Mutex::new(Vec::new());

unsafe extern "C" fn buffer_callback(
    _ctx: rocprofiler_context_id_t,
    _buf: rocprofiler_buffer_id_t,
    headers: *mut *mut rocprofiler_record_header_t,
    n: usize,
    _data: *mut c_void,
    drop_count: u64,
) {
    let mut hashes = Vec::new();
    let mut spans = Vec::new();
    for &h in std::slice::from_raw_parts(headers, n) {
        let cat = (*h).__bindgen_anon_1.__bindgen_anon_1.category;
        let kind = (*h).__bindgen_anon_1.__bindgen_anon_1.kind;
        hashes.push((cat, kind, (*h).__bindgen_anon_1.hash));
        if cat == 1 && kind == rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH.0
        {
            let r = &*((*h).payload as *const rocprofiler_buffer_tracing_kernel_dispatch_record_t);
            spans.push((r.start_timestamp, r.end_timestamp, kind));
        }
    }
    let mut thread = 0;
    fns().rocprofiler_get_thread_id(&mut thread).unwrap();
    DELIVERED.lock().unwrap().push(Delivered { hashes, drop_count, thread, spans });
    // A test may hold the callback here (the gate is open unless a test closes it).
    let (closed, cv) = &GATE;
    let mut c = closed.lock().unwrap();
    while *c {
        c = cv.wait(c).unwrap();
    }
}

/// Closed (true): buffer callbacks wait until it opens.
static GATE: (Mutex<bool>, std::sync::Condvar) = (Mutex::new(false), std::sync::Condvar::new());

fn set_gate(closed: bool) {
    *GATE.0.lock().unwrap() = closed;
    GATE.1.notify_all();
}

fn create_buffer(
    ctx: rocprofiler_context_id_t,
    size: usize,
    watermark: usize,
    lossless: bool,
) -> rocprofiler_buffer_id_t {
    let mut buf = rocprofiler_buffer_id_t { handle: 0 };
    let policy = if lossless {
        rocprofiler_buffer_policy_t::ROCPROFILER_BUFFER_POLICY_LOSSLESS
    } else {
        rocprofiler_buffer_policy_t::ROCPROFILER_BUFFER_POLICY_DISCARD
    };
    // SAFETY: valid callback and out-pointer.
    let st = unsafe {
        fns().rocprofiler_create_buffer(
            ctx,
            size,
            watermark,
            policy,
            Some(buffer_callback),
            std::ptr::null_mut(),
            &mut buf,
        )
    };
    assert_eq!(st.unwrap(), S::ROCPROFILER_STATUS_SUCCESS);
    buf
}

fn kernel(name: &CStr) -> u64 {
    ctl().kernel_symbol(name)
}

/// A kernel run to completion: its completion comes on HSA's async-signal thread, and the mock's
/// sync waits until that thread has handled it.
fn dispatch(agent: u64, kernel_id: u64, grid: u32) -> u64 {
    let d = ctl().dispatch(agent, 1, kernel_id, grid, 1, 1, 64, 1, 1);
    ctl().sync();
    d
}

// ================= tests =================

#[test]
fn configure_window_is_the_only_time_setup_calls_succeed() {
    let _g = exclusive();
    let mut ctx = rocprofiler_context_id_t { handle: 0 };
    // SAFETY: valid out-pointer.
    let before = unsafe { fns().rocprofiler_create_context(&mut ctx) }.unwrap();
    assert_eq!(before, S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);

    let inside = std::sync::Arc::new(Mutex::new(None));
    let got = inside.clone();
    configure_tool(move || {
        let ctx = create_context();
        let buf = create_buffer(ctx, 4096, 4096, false);
        *got.lock().unwrap() = Some((ctx, buf));
    });
    let (ctx, buf) = inside.lock().unwrap().expect("setup ran");
    let args = CONFIGURE_ARGS.lock().unwrap().clone();
    assert_eq!(args.len(), 1);
    assert_eq!((args[0].0, args[0].1.as_str(), args[0].2), (10000, "1.0.0", 0));
    assert_ne!(args[0].3, 0, "client handle");

    // After the window every setup call is locked; starting contexts is still allowed.
    let mut late = rocprofiler_context_id_t { handle: 0 };
    let mut late_buf = rocprofiler_buffer_id_t { handle: 0 };
    // SAFETY: valid pointers and callbacks.
    unsafe {
        assert_eq!(
            fns().rocprofiler_create_context(&mut late).unwrap(),
            S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
        );
        assert_eq!(
            fns()
                .rocprofiler_create_buffer(
                    ctx,
                    4096,
                    4096,
                    rocprofiler_buffer_policy_t::ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                    Some(buffer_callback),
                    std::ptr::null_mut(),
                    &mut late_buf
                )
                .unwrap(),
            S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
        );
        let kind = rocprofiler_callback_tracing_kind_t::ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API;
        assert_eq!(
            fns()
                .rocprofiler_configure_callback_tracing_service(
                    ctx,
                    kind,
                    std::ptr::null(),
                    0,
                    Some(record_callback),
                    std::ptr::null_mut()
                )
                .unwrap(),
            S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
        );
        let bkind = rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
        assert_eq!(
            fns().rocprofiler_configure_buffer_tracing_service(ctx, bkind, std::ptr::null(), 0, buf).unwrap(),
            S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
        );
        assert_eq!(
            fns()
                .rocprofiler_configure_buffer_dispatch_counting_service(ctx, buf, None, std::ptr::null_mut())
                .unwrap(),
            S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED
        );
        assert_eq!(ctl().load_tools(), S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
    }
    assert_eq!(start(ctx), S::ROCPROFILER_STATUS_SUCCESS);
    let mut status = 0;
    // SAFETY: valid out-pointer.
    unsafe { fns().rocprofiler_is_initialized(&mut status) }.unwrap();
    assert_eq!(status, 1);
}

unsafe extern "C" fn late_configure(
    _: u32,
    _: *const c_char,
    _: u32,
    _: *mut rocprofiler_client_id_t,
) -> *mut rocprofiler_tool_configure_result_t {
    Box::leak(Box::new(rocprofiler_tool_configure_result_t {
        size: std::mem::size_of::<rocprofiler_tool_configure_result_t>(),
        initialize: Some(late_init),
        finalize: None,
        tool_data: std::ptr::null_mut(),
    }))
}

static LATE: Mutex<Vec<(i32, u64)>> = Mutex::new(Vec::new());

unsafe extern "C" fn late_init(_fini: rocprofiler_client_finalize_t, _data: *mut c_void) -> i32 {
    // A late tool has its own window: contexts can be made here.
    let mut status = 0;
    fns().rocprofiler_is_initialized(&mut status).unwrap();
    let ctx = create_context();
    LATE.lock().unwrap().push((status, ctx.handle));
    0
}

/// Notes: "`rocprofiler_force_configure` in the newest `registration.cpp` supports late start:
/// after init it adds and runs the client; a duplicate returns SUCCESS without running it; after
/// finalize it returns FINALIZED". (The old mock answered CONFIGURATION_LOCKED to both of the
/// first two.)
#[test]
fn notes_force_configure_starts_late_ignores_duplicates_and_is_finalized_after_finalize() {
    let _g = exclusive();
    LATE.lock().unwrap().clear();
    let ran = std::sync::Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    *SETUP.lock().unwrap() = Some(Box::new(move || {
        create_context();
        r.fetch_add(1, Ordering::SeqCst);
    }));
    // SAFETY: valid configure functions.
    unsafe {
        let force = |f| fns().rocprofiler_force_configure(Some(f)).unwrap();
        assert_eq!(force(tool_configure), S::ROCPROFILER_STATUS_SUCCESS);
        assert_eq!(ran.load(Ordering::SeqCst), 1);
        assert_eq!(force(tool_configure), S::ROCPROFILER_STATUS_SUCCESS, "a duplicate");
        assert_eq!(ran.load(Ordering::SeqCst), 1, "is not run again");
        assert_eq!(ctl().load_tools(), S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
        // After init: a new tool is added and run now, in a window of its own.
        assert_eq!(force(late_configure), S::ROCPROFILER_STATUS_SUCCESS);
        let late = LATE.lock().unwrap().clone();
        assert_eq!(late.len(), 1, "the late tool ran");
        assert_eq!(late[0].0, -1, "inside its window");
        let mut status = 0;
        fns().rocprofiler_is_initialized(&mut status).unwrap();
        assert_eq!(status, 1);
        assert_eq!(start(rocprofiler_context_id_t { handle: late[0].1 }), S::ROCPROFILER_STATUS_SUCCESS);
        ctl().shutdown();
        assert_eq!(force(late_configure), S::ROCPROFILER_STATUS_ERROR_FINALIZED);
    }
}

static OTHER_THREAD: Mutex<Option<std::thread::JoinHandle<S>>> = Mutex::new(None);

/// Notes: "only while init is in progress does it return CONFIGURATION_LOCKED": another thread
/// forcing a configuration while the window is open waits for the SDK's registration lock and
/// then finds initialization in progress.
#[test]
fn notes_force_configure_is_locked_only_while_init_is_in_progress() {
    let _g = exclusive();
    *SETUP.lock().unwrap() = Some(Box::new(|| {
        let other = std::thread::spawn(|| {
            // SAFETY: a valid configure function.
            unsafe { fns().rocprofiler_force_configure(Some(late_configure)) }.unwrap()
        });
        // The window stays open until the other thread waits for the lock (it cannot get it:
        // this thread holds it).
        while ctl().force_configure_waiters() == 0 {
            std::thread::yield_now();
        }
        *OTHER_THREAD.lock().unwrap() = Some(other);
    }));
    // SAFETY: `tool_configure` is a `rocprofiler_configure` of the SDK's signature and contract.
    unsafe { ctl().register_configure(Some(tool_configure)) };
    assert_eq!(ctl().load_tools(), S::ROCPROFILER_STATUS_SUCCESS);
    let other = OTHER_THREAD.lock().unwrap().take().expect("started").join().unwrap();
    assert_eq!(other, S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

/// The newest SDK holds its registration lock while a tool's initialize runs, and
/// `rocprofiler_force_configure` takes it: called from there it never returns. The mock aborts.
#[test]
fn force_configure_from_a_tools_initialize_would_wait_for_itself() {
    if !support::in_child_expecting_abort(
        "force_configure_from_a_tools_initialize_would_wait_for_itself",
        "registration lock",
    ) {
        return;
    }
    let _g = exclusive();
    *SETUP.lock().unwrap() = Some(Box::new(|| {
        // SAFETY: a valid configure function.
        let _ = unsafe { fns().rocprofiler_force_configure(Some(late_configure)) };
    }));
    // SAFETY: `tool_configure` is a `rocprofiler_configure` of the SDK's signature and contract.
    unsafe { ctl().register_configure(Some(tool_configure)) };
    ctl().load_tools();
}

#[test]
fn a_tool_that_declines_is_not_initialized_and_is_no_client() {
    let _g = exclusive();
    *RETURN_NULL.lock().unwrap() = true;
    let ran = std::sync::Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    *SETUP.lock().unwrap() = Some(Box::new(move || {
        r.fetch_add(1, Ordering::SeqCst);
    }));
    // SAFETY: `tool_configure` is a `rocprofiler_configure` of the SDK's signature and contract.
    unsafe { ctl().register_configure(Some(tool_configure)) };
    ctl().load_tools();
    *RETURN_NULL.lock().unwrap() = false;
    assert_eq!(ctl().client_count(), 0);
    assert_eq!(ran.load(Ordering::SeqCst), 0, "its initialize never ran");
    SETUP.lock().unwrap().take();
}

/// Notes: "Creating a context inside `rocprofiler_configure` (before `initialize`) aborts the
/// process (fatal assert in `allocate_context`): setup belongs in the tool's `initialize`
/// callback." (The old mock let the configure function create one.)
#[test]
fn notes_a_context_created_in_rocprofiler_configure_aborts() {
    if !support::in_child_expecting_abort(
        "notes_a_context_created_in_rocprofiler_configure_aborts",
        "allocated without an associated tool client",
    ) {
        return;
    }
    let _g = exclusive();
    *CONTEXT_IN_CONFIGURE.lock().unwrap() = true;
    // SAFETY: `tool_configure` is a `rocprofiler_configure` of the SDK's signature and contract.
    unsafe { ctl().register_configure(Some(tool_configure)) };
    ctl().load_tools();
}

#[test]
fn context_ids_must_be_zeroed_and_stop_of_an_inactive_context_is_not_found() {
    let _g = exclusive();
    let out = std::sync::Arc::new(Mutex::new(None));
    let o = out.clone();
    configure_tool(move || {
        let mut dirty = rocprofiler_context_id_t { handle: 77 };
        // SAFETY: valid out-pointer.
        let st = unsafe { fns().rocprofiler_create_context(&mut dirty) }.unwrap();
        *o.lock().unwrap() = Some((st, dirty.handle, create_context()));
    });
    let (st, untouched, ctx) = out.lock().unwrap().unwrap();
    assert_eq!(st, S::ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO);
    assert_eq!(untouched, 77);
    assert_eq!(stop(ctx), S::ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND, "real quirk: inactive stop");
    assert_eq!(start(ctx), S::ROCPROFILER_STATUS_SUCCESS);
    let mut active = 0;
    // SAFETY: valid out-pointer.
    unsafe { fns().rocprofiler_context_is_active(ctx, &mut active) }.unwrap();
    assert_eq!(active, 1);
    assert_eq!(stop(ctx), S::ROCPROFILER_STATUS_SUCCESS);
    assert_eq!(
        start(rocprofiler_context_id_t { handle: 0xdead }),
        S::ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND
    );
}

#[test]
fn callback_tracing_once_per_kind_all_operations_by_default_and_enter_exit_share_a_slot() {
    let _g = exclusive();
    SEEN.lock().unwrap().clear();
    let out = std::sync::Arc::new(Mutex::new(Vec::new()));
    let o = out.clone();
    configure_tool(move || {
        let ctx = create_context();
        let hip = rocprofiler_callback_tracing_kind_t::ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API;
        let hsa = rocprofiler_callback_tracing_kind_t::ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API;
        let only = [0i32];
        // SAFETY: valid callbacks and operation lists.
        unsafe {
            let cfg = |k, ops: *const i32, n| {
                fns()
                    .rocprofiler_configure_callback_tracing_service(
                        ctx,
                        k,
                        ops,
                        n,
                        Some(record_callback),
                        std::ptr::null_mut(),
                    )
                    .unwrap()
            };
            let mut o = o.lock().unwrap();
            o.push(cfg(hip, std::ptr::null(), 0));
            o.push(cfg(hip, std::ptr::null(), 0));
            // NONE is below every kind: refused before anything is registered.
            o.push(cfg(rocprofiler_callback_tracing_kind_t(0), std::ptr::null(), 0));
            o.push(cfg(hsa, only.as_ptr(), 1));
        }
        assert_eq!(start(ctx), S::ROCPROFILER_STATUS_SUCCESS);
    });
    assert_eq!(
        *out.lock().unwrap(),
        vec![
            S::ROCPROFILER_STATUS_SUCCESS,
            S::ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
            S::ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
            S::ROCPROFILER_STATUS_SUCCESS,
        ]
    );
    // Nested calls on this thread, one call on another thread.
    let (outer, inner, other) = {
        let outer = ctl().api_begin(5, 1);
        let inner = ctl().api_call(5, 3);
        assert_eq!(ctl().api_end(), outer);
        let other = std::thread::spawn(|| ctl().api_call(5, 7)).join().unwrap();
        ctl().api_call(1, 0); // HSA op 0: traced
        ctl().api_call(1, 2); // HSA op 2: filtered out
        (outer, inner, other)
    };
    let seen = SEEN.lock().unwrap().clone();
    assert_eq!(seen.len(), 8, "{seen:#?}");
    let hip: Vec<&Seen> = seen.iter().filter(|s| s.kind == 5).collect();
    // Order: outer ENTER, inner ENTER, inner EXIT, outer EXIT.
    assert_eq!(
        hip.iter().take(4).map(|s| (s.corr, s.phase)).collect::<Vec<_>>(),
        vec![(outer, 1), (inner, 1), (inner, 2), (outer, 2)]
    );
    for call in [outer, inner, other] {
        let enter = hip.iter().find(|s| s.corr == call && s.phase == 1).unwrap();
        let exit = hip.iter().find(|s| s.corr == call && s.phase == 2).unwrap();
        assert_eq!(enter.slot, exit.slot, "the same user_data slot from ENTER to EXIT");
        assert_eq!(enter.user_data, 0, "zero at ENTER");
        assert_eq!(exit.user_data, 0xE000 + call, "what ENTER stored is there at EXIT");
        assert_eq!(enter.thread, exit.thread);
    }
    let main_tid = hip[0].thread;
    assert_ne!(hip.iter().find(|s| s.corr == other).unwrap().thread, main_tid);
    let hsa: Vec<&Seen> = seen.iter().filter(|s| s.kind == 1).collect();
    assert!(hsa.iter().all(|s| s.op == 0) && hsa.len() == 2);
}

/// Notes: "Configuring callback or buffer tracing registers the service *before* validating the
/// operation list: a failed call leaves it half-configured and a retry gets
/// SERVICE_ALREADY_CONFIGURED." (The old mock validated first: the retry succeeded.) The
/// half-configured service traces every operation: none was added before the bad one.
#[test]
fn notes_a_failed_service_call_leaves_the_kind_configured() {
    let _g = exclusive();
    SEEN.lock().unwrap().clear();
    let out = std::sync::Arc::new(Mutex::new(Vec::new()));
    let o = out.clone();
    configure_tool(move || {
        let ctx = create_context();
        let buf = create_buffer(ctx, 1 << 16, 1 << 16, true);
        let hsa = rocprofiler_callback_tracing_kind_t::ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API;
        let bk = rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API;
        // 600: past the SDK's 512 operation slots, refused by the real library too.
        let (bad, good) = ([600i32], [0i32]);
        // SAFETY: valid callbacks and operation lists.
        unsafe {
            let cb = |ops: *const i32| {
                fns()
                    .rocprofiler_configure_callback_tracing_service(
                        ctx,
                        hsa,
                        ops,
                        1,
                        Some(record_callback),
                        std::ptr::null_mut(),
                    )
                    .unwrap()
            };
            let bt = |ops: *const i32| {
                fns().rocprofiler_configure_buffer_tracing_service(ctx, bk, ops, 1, buf).unwrap()
            };
            let mut o = o.lock().unwrap();
            o.push(cb(bad.as_ptr()));
            o.push(cb(good.as_ptr()));
            o.push(bt(bad.as_ptr()));
            o.push(bt(good.as_ptr()));
        }
        assert_eq!(start(ctx), S::ROCPROFILER_STATUS_SUCCESS);
    });
    assert_eq!(
        *out.lock().unwrap(),
        vec![
            S::ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
            S::ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
            S::ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
            S::ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
        ]
    );
    ctl().api_call(1, 2);
    let seen = SEEN.lock().unwrap().clone();
    assert_eq!(seen.iter().filter(|s| s.kind == 1 && s.op == 2).count(), 2, "traced: ENTER and EXIT");
}

/// Notes: "A NULL operation list with count > 0 crashes".
#[test]
fn notes_a_null_operation_list_with_a_count_crashes() {
    if !support::in_child_expecting_abort(
        "notes_a_null_operation_list_with_a_count_crashes",
        "NULL operation list",
    ) {
        return;
    }
    let _g = exclusive();
    configure_tool(|| {
        let ctx = create_context();
        let kind = rocprofiler_callback_tracing_kind_t::ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API;
        // SAFETY: the mock aborts before it reads the list.
        let _ = unsafe {
            fns().rocprofiler_configure_callback_tracing_service(
                ctx,
                kind,
                std::ptr::null(),
                3,
                Some(record_callback),
                std::ptr::null_mut(),
            )
        };
    });
}

/// Notes: "a kind >= LAST throws".
#[test]
fn notes_a_kind_at_or_past_last_throws() {
    if !support::in_child_expecting_abort("notes_a_kind_at_or_past_last_throws", "at or past LAST") {
        return;
    }
    let _g = exclusive();
    configure_tool(|| {
        let ctx = create_context();
        let last = rocprofiler_callback_tracing_kind_t::ROCPROFILER_CALLBACK_TRACING_LAST;
        // SAFETY: valid arguments; the kind is what the mock checks.
        let _ = unsafe {
            fns().rocprofiler_configure_callback_tracing_service(
                ctx,
                last,
                std::ptr::null(),
                0,
                Some(record_callback),
                std::ptr::null_mut(),
            )
        };
    });
}

#[test]
fn kind_and_operation_names() {
    let _g = exclusive();
    let name = |k: u32| {
        let mut p: *const c_char = std::ptr::null();
        let mut n = 0u64;
        // SAFETY: valid out-pointers.
        let st = unsafe {
            fns().rocprofiler_query_callback_tracing_kind_name(
                rocprofiler_callback_tracing_kind_t(k),
                &mut p,
                &mut n,
            )
        }
        .unwrap();
        // SAFETY: the library returns a NUL-terminated static name on success.
        (st, (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()), n)
    };
    assert_eq!(name(5), (S::ROCPROFILER_STATUS_SUCCESS, Some("HIP_RUNTIME_API".into()), 15));
    assert_eq!(name(12).1.as_deref(), Some("KERNEL_DISPATCH"));
    // Notes: "Iteration of kinds includes NONE (its name query succeeds)."
    assert_eq!(name(0), (S::ROCPROFILER_STATUS_SUCCESS, Some("NONE".into()), 4));
    assert_eq!(name(22).0, S::ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
    let op = |k: u32, o: i32| {
        let mut p: *const c_char = std::ptr::null();
        // SAFETY: valid out-pointer; length not wanted.
        let st = unsafe {
            fns().rocprofiler_query_callback_tracing_kind_operation_name(
                rocprofiler_callback_tracing_kind_t(k),
                o,
                &mut p,
                std::ptr::null_mut(),
            )
        }
        .unwrap();
        // SAFETY: as above.
        (st, (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()))
    };
    assert_eq!(op(5, 1).1.as_deref(), Some("hipMalloc"));
    assert_eq!(op(7, 1).1.as_deref(), Some("roctxRangePushA"));
    assert_eq!(op(13, 2).1.as_deref(), Some("MEMORY_COPY_HOST_TO_DEVICE"));
    assert_eq!(op(5, 10_000).0, S::ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
    assert_eq!(op(0, 0).0, S::ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, "NONE has no operations");
    // Every kind has a name and at least one named operation.
    static KINDS: AtomicUsize = AtomicUsize::new(0);
    unsafe extern "C" fn each(kind: rocprofiler_callback_tracing_kind_t, _: *mut c_void) -> i32 {
        let first = KINDS.fetch_add(1, Ordering::SeqCst) == 0;
        let mut ops = 0usize;
        unsafe extern "C" fn count(_: rocprofiler_callback_tracing_kind_t, _: i32, d: *mut c_void) -> i32 {
            *(d as *mut usize) += 1;
            0
        }
        let st = fns()
            .rocprofiler_iterate_callback_tracing_kind_operations(
                kind,
                Some(count),
                &mut ops as *mut _ as *mut c_void,
            )
            .unwrap();
        if first {
            assert_eq!(kind.0, 0, "the iteration starts at NONE");
            assert_eq!(st, S::ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, "which has no operations");
        } else {
            assert!(ops > 0, "kind {} has operations", kind.0);
        }
        0
    }
    // SAFETY: a valid callback.
    unsafe { fns().rocprofiler_iterate_callback_tracing_kinds(Some(each), std::ptr::null_mut()) }.unwrap();
    assert_eq!(KINDS.load(Ordering::SeqCst), 22, "NONE and the 21 kinds");
}

#[test]
fn buffers_deliver_header_arrays_on_one_internal_thread_out_of_time_order() {
    let _g = exclusive();
    DELIVERED.lock().unwrap().clear();
    let out = std::sync::Arc::new(Mutex::new(None));
    let o = out.clone();
    configure_tool(move || {
        let ctx = create_context();
        let buf = create_buffer(ctx, 1 << 20, 1 << 20, true);
        let k = rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
        // SAFETY: valid ids.
        unsafe { fns().rocprofiler_configure_buffer_tracing_service(ctx, k, std::ptr::null(), 0, buf) }
            .unwrap();
        assert_eq!(start(ctx), S::ROCPROFILER_STATUS_SUCCESS);
        *o.lock().unwrap() = Some(buf);
    });
    let buf = out.lock().unwrap().unwrap();
    let k = kernel(c"vector_add");
    // SAFETY: plain arguments. The first kernel completes last.
    unsafe {
        let first = ctl().dispatch_begin(gpu(0), 1, k, 1024, 1, 1, 64, 1, 1);
        let second = ctl().dispatch_begin(gpu(1), 1, k, 1024, 1, 1, 64, 1, 1);
        std::thread::sleep(std::time::Duration::from_millis(2));
        ctl().dispatch_end(second);
        ctl().dispatch_end(first);
        ctl().sync();
        assert_eq!(ctl().buffer_pending(buf.handle), 2, "below the watermark nothing is delivered");
        assert!(DELIVERED.lock().unwrap().is_empty());
        assert_eq!(fns().rocprofiler_flush_buffer(buf).unwrap(), S::ROCPROFILER_STATUS_SUCCESS);
    }
    // flush is synchronous: the callback has run.
    let d = DELIVERED.lock().unwrap().clone();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].hashes.len(), 2);
    for (cat, kind, hash) in &d[0].hashes {
        assert_eq!(*hash, *cat as u64 | (*kind as u64) << 32);
    }
    let mut me = 0;
    // SAFETY: valid out-pointer.
    unsafe { fns().rocprofiler_get_thread_id(&mut me) }.unwrap();
    assert_ne!(d[0].thread, me, "delivered on the library's thread, not the flushing one");
    // A second flush is delivered on the same internal thread.
    dispatch(gpu(2), k, 64);
    // SAFETY: valid id.
    unsafe { fns().rocprofiler_flush_buffer(buf) }.unwrap();
    let d2 = DELIVERED.lock().unwrap().clone();
    assert_eq!(d2.len(), 2);
    assert_eq!(d2[1].thread, d[0].thread);
    let spans = &d[0].spans;
    assert!(spans[0].0 > spans[1].0, "records arrive in completion order, not start order: {spans:?}");
}

#[test]
fn watermark_discard_drops_and_lossless_keeps_everything() {
    let _g = exclusive();
    DELIVERED.lock().unwrap().clear();
    let out = std::sync::Arc::new(Mutex::new(None));
    let o = out.clone();
    let record = std::mem::size_of::<rocprofiler_buffer_tracing_kernel_dispatch_record_t>() + 16;
    configure_tool(move || {
        let k = rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
        // DISCARD, room for 3 records, watermark above what 3 records use: nothing flushes.
        let c1 = create_context();
        let discard = create_buffer(c1, record * 3 + record / 2, record * 3 + record / 2, false);
        // LOSSLESS, same room: a full buffer is handed off instead of dropping.
        let c2 = create_context();
        let lossless = create_buffer(c2, record * 3 + record / 2, record * 3 + record / 2, true);
        // SAFETY: valid ids.
        unsafe {
            fns().rocprofiler_configure_buffer_tracing_service(c1, k, std::ptr::null(), 0, discard).unwrap();
            fns().rocprofiler_configure_buffer_tracing_service(c2, k, std::ptr::null(), 0, lossless).unwrap();
        }
        start(c1);
        start(c2);
        *o.lock().unwrap() = Some((discard, lossless));
    });
    let (discard, lossless) = out.lock().unwrap().unwrap();
    let k = kernel(c"k");
    for _ in 0..5 {
        dispatch(gpu(0), k, 64);
    }
    // SAFETY: valid ids.
    unsafe {
        assert_eq!(ctl().buffer_pending(discard.handle), 3);
        fns().rocprofiler_flush_buffer(discard).unwrap();
        fns().rocprofiler_flush_buffer(lossless).unwrap();
    }
    dispatch(gpu(0), k, 64);
    // SAFETY: valid id.
    unsafe { fns().rocprofiler_flush_buffer(discard) }.unwrap();
    let d = DELIVERED.lock().unwrap().clone();
    let discard_deliveries: Vec<&Delivered> = d.iter().filter(|x| x.drop_count > 0).collect();
    assert_eq!(discard_deliveries.len(), 2);
    assert_eq!(discard_deliveries[0].hashes.len(), 3);
    assert_eq!(discard_deliveries[0].drop_count, 2);
    assert_eq!(discard_deliveries[1].drop_count, 2, "the drop count is cumulative");
    let lossless_total: usize = d.iter().filter(|x| x.drop_count == 0).map(|x| x.hashes.len()).sum();
    assert_eq!(lossless_total, 5, "LOSSLESS loses nothing");
}

#[test]
fn agents_one_cpu_and_three_gpus() {
    let _g = exclusive();
    static FOUND: Mutex<Vec<(u64, u32, String)>> = Mutex::new(Vec::new());
    unsafe extern "C" fn cb(
        _: rocprofiler_agent_version_t,
        agents: *mut *const c_void,
        n: usize,
        _: *mut c_void,
    ) -> S {
        for &a in std::slice::from_raw_parts(agents, n) {
            let a = &*(a as *const rocprofiler_agent_v0_t);
            FOUND.lock().unwrap().push((
                a.id.handle,
                a.type_.0,
                CStr::from_ptr(a.name).to_string_lossy().into_owned(),
            ));
        }
        S::ROCPROFILER_STATUS_SUCCESS
    }
    let v0 = rocprofiler_agent_version_t::ROCPROFILER_AGENT_INFO_VERSION_0;
    let size = std::mem::size_of::<rocprofiler_agent_v0_t>();
    // SAFETY: a valid callback.
    unsafe {
        assert_eq!(
            fns().rocprofiler_query_available_agents(v0, Some(cb), size, std::ptr::null_mut()).unwrap(),
            S::ROCPROFILER_STATUS_SUCCESS
        );
        assert_eq!(
            fns().rocprofiler_query_available_agents(v0, Some(cb), size + 8, std::ptr::null_mut()).unwrap(),
            S::ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI
        );
        assert_eq!(
            fns()
                .rocprofiler_query_available_agents(
                    rocprofiler_agent_version_t(7),
                    Some(cb),
                    size,
                    std::ptr::null_mut()
                )
                .unwrap(),
            S::ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT
        );
    }
    let found = FOUND.lock().unwrap().clone();
    assert_eq!(found.len(), 4);
    assert_eq!(found[0], (cpu(), 1, "AMD EPYC 9654 (mock)".into()));
    assert_eq!(
        found.iter().filter(|a| a.1 == 2).map(|a| a.0).collect::<Vec<_>>(),
        vec![gpu(0), gpu(1), gpu(2)]
    );
}

#[test]
fn counters_configs_and_dispatch_counting_serialization() {
    let _g = exclusive();
    static COUNTERS: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    unsafe extern "C" fn list(
        _: rocprofiler_agent_id_t,
        c: *mut rocprofiler_counter_id_t,
        n: usize,
        _: *mut c_void,
    ) -> S {
        COUNTERS.lock().unwrap().extend(std::slice::from_raw_parts(c, n).iter().map(|c| c.handle));
        S::ROCPROFILER_STATUS_SUCCESS
    }
    let g0 = rocprofiler_agent_id_t { handle: gpu(0) };
    // SAFETY: valid callbacks and pointers.
    unsafe {
        fns().rocprofiler_iterate_agent_supported_counters(g0, Some(list), std::ptr::null_mut()).unwrap();
        assert_eq!(
            fns()
                .rocprofiler_iterate_agent_supported_counters(
                    rocprofiler_agent_id_t { handle: cpu() },
                    Some(list),
                    std::ptr::null_mut()
                )
                .unwrap(),
            S::ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED
        );
        let first = COUNTERS.lock().unwrap()[0];
        let mut info = rocprofiler_counter_info_v0_t::default();
        fns()
            .rocprofiler_query_counter_info(
                rocprofiler_counter_id_t { handle: first },
                rocprofiler_counter_info_version_id_t::ROCPROFILER_COUNTER_INFO_VERSION_0,
                &mut info as *mut _ as *mut c_void,
            )
            .unwrap();
        assert_eq!(CStr::from_ptr(info.name).to_str().unwrap(), "SQ_WAVES");
        let mut cfg = rocprofiler_counter_config_id_t { handle: 0 };
        let mut bogus = [rocprofiler_counter_id_t { handle: 999 }];
        assert_eq!(
            fns().rocprofiler_create_counter_config(g0, bogus.as_mut_ptr(), 1, &mut cfg).unwrap(),
            S::ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND
        );
    }

    // Two counting contexts, both unrestricted: they conflict; serialization is refcounted.
    let out = std::sync::Arc::new(Mutex::new(None));
    let o = out.clone();
    unsafe extern "C" fn none(
        _: rocprofiler_dispatch_counting_service_data_t,
        _: *mut rocprofiler_counter_config_id_t,
        _: *mut rocprofiler_user_data_t,
        _: *mut c_void,
    ) {
    }
    configure_tool(move || {
        let a = create_context();
        let b = create_context();
        let buf = create_buffer(a, 1 << 16, 1 << 16, true);
        // SAFETY: valid ids and callbacks.
        unsafe {
            fns()
                .rocprofiler_configure_buffer_dispatch_counting_service(
                    a,
                    buf,
                    Some(none),
                    std::ptr::null_mut(),
                )
                .unwrap();
            unsafe extern "C" fn rec(
                _: rocprofiler_dispatch_counting_service_data_t,
                _: *mut rocprofiler_counter_record_t,
                _: usize,
                _: rocprofiler_user_data_t,
                _: *mut c_void,
            ) {
            }
            fns()
                .rocprofiler_configure_callback_dispatch_counting_service(
                    b,
                    Some(none),
                    std::ptr::null_mut(),
                    Some(rec),
                    std::ptr::null_mut(),
                )
                .unwrap();
        }
        *o.lock().unwrap() = Some((a, b));
    });
    let (a, b) = out.lock().unwrap().unwrap();
    let ser = |i| ctl().agent_serialization(gpu(i));
    assert_eq!(start(a), S::ROCPROFILER_STATUS_SUCCESS);
    assert_eq!(start(a), S::ROCPROFILER_STATUS_SUCCESS);
    assert_eq!((ser(0), ser(1), ser(2)), (1, 1, 1), "a second start takes nothing more");
    assert_eq!(start(b), S::ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT);
    assert_eq!(stop(a), S::ROCPROFILER_STATUS_SUCCESS);
    assert_eq!((ser(0), ser(1), ser(2)), (0, 0, 0));
    assert_eq!(ctl().agent_serialization(cpu()), 0, "the CPU is never serialized");
    assert_eq!(start(b), S::ROCPROFILER_STATUS_SUCCESS);
}

#[test]
fn status_strings_are_null_at_and_past_last() {
    let _g = exclusive();
    let string = |v: u32| {
        // SAFETY: plain enum argument.
        let p = unsafe { fns().rocprofiler_get_status_string(rocprofiler_status_t(v)) }.unwrap();
        // SAFETY: non-NULL strings are static and NUL-terminated.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    };
    for v in 0..=41 {
        assert!(string(v).is_some(), "status {v}");
    }
    assert!(string(42).is_none());
    assert!(string(u32::MAX).is_none());
    // Status 41 is named as mainline names it (a feature branch once called it
    // FIRMWARE_INCOMPATIBLE).
    // SAFETY: plain enum argument.
    let name = unsafe { fns().rocprofiler_get_status_name(rocprofiler_status_t(41)) }.unwrap();
    // SAFETY: a static NUL-terminated string.
    let name = unsafe { CStr::from_ptr(name) };
    assert_eq!(name.to_str().unwrap(), "ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION");
    // An older library (LAST = 41) has no string for INCOMPATIBLE_REGISTER_VERSION.
    ctl().set_status_last(41);
    assert!(string(41).is_none());
    assert!(string(40).is_some());
    ctl().set_status_last(0);
}

#[test]
fn shutdown_finalizes_each_tool_once_and_locks_everything() {
    let _g = exclusive();
    let before = FINI_CALLS.load(Ordering::SeqCst);
    let out = std::sync::Arc::new(Mutex::new(None));
    let o = out.clone();
    configure_tool(move || {
        let ctx = create_context();
        let buf = create_buffer(ctx, 4096, 4096, true);
        start(ctx);
        *o.lock().unwrap() = Some((ctx, buf));
    });
    let (ctx, buf) = out.lock().unwrap().unwrap();
    let flushed_in_teardown = std::sync::Arc::new(Mutex::new(None));
    let f = flushed_in_teardown.clone();
    *TEARDOWN.lock().unwrap() = Some(Box::new(move || {
        let mut active = 0;
        // SAFETY: valid out-pointer / id.
        unsafe { fns().rocprofiler_context_is_active(ctx, &mut active) }.unwrap();
        // SAFETY: valid id.
        *f.lock().unwrap() = Some((active, unsafe { fns().rocprofiler_flush_buffer(buf) }.unwrap()));
    }));
    {
        ctl().shutdown();
        ctl().shutdown();
    }
    assert_eq!(FINI_CALLS.load(Ordering::SeqCst), before + 1);
    assert_eq!(
        *flushed_in_teardown.lock().unwrap(),
        Some((0, S::ROCPROFILER_STATUS_SUCCESS)),
        "contexts are stopped before finalize; flush works in it"
    );
    assert_eq!(start(ctx), S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
    // SAFETY: valid id.
    let late_flush = unsafe { fns().rocprofiler_flush_buffer(buf) }.unwrap();
    assert_eq!(late_flush, S::ROCPROFILER_STATUS_ERROR_FINALIZED);
    assert_eq!(stop(ctx), S::ROCPROFILER_STATUS_SUCCESS);
}

// ---- buffers, agents and counters as the SDK's source has them ----

/// Notes: "`create_buffer` validates neither context nor callback; callback threads may be
/// created before init and thread handle 0 (the default) is valid". (The old mock refused all
/// four.)
#[test]
fn notes_buffers_and_callback_threads_as_the_sdk_checks_them() {
    let _g = exclusive();
    let mut early = rocprofiler_callback_thread_t { handle: 0 };
    // SAFETY: a valid out-pointer.
    let before = unsafe { fns().rocprofiler_create_callback_thread(&mut early) }.unwrap();
    assert_eq!(before, S::ROCPROFILER_STATUS_SUCCESS, "before the configure window");
    assert_ne!(early.handle, 0);
    let out = std::sync::Arc::new(Mutex::new(Vec::new()));
    let o = out.clone();
    configure_tool(move || {
        let ctx = create_context();
        let mut unchecked = rocprofiler_buffer_id_t { handle: 0 };
        // SAFETY: valid pointers; the context and the (absent) callback are what is not checked.
        let st = unsafe {
            fns().rocprofiler_create_buffer(
                rocprofiler_context_id_t { handle: 0xdead },
                4096,
                4096,
                rocprofiler_buffer_policy_t::ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                None,
                std::ptr::null_mut(),
                &mut unchecked,
            )
        }
        .unwrap();
        let buf = create_buffer(ctx, 4096, 4096, true);
        // SAFETY: plain ids.
        let (internal, made, unknown) = unsafe {
            (
                fns()
                    .rocprofiler_assign_callback_thread(buf, rocprofiler_callback_thread_t { handle: 0 })
                    .unwrap(),
                fns().rocprofiler_assign_callback_thread(buf, early).unwrap(),
                fns()
                    .rocprofiler_assign_callback_thread(buf, rocprofiler_callback_thread_t { handle: 99 })
                    .unwrap(),
            )
        };
        o.lock().unwrap().extend([st, internal, made, unknown]);
    });
    assert_eq!(
        *out.lock().unwrap(),
        vec![
            S::ROCPROFILER_STATUS_SUCCESS,
            S::ROCPROFILER_STATUS_SUCCESS,
            S::ROCPROFILER_STATUS_SUCCESS,
            S::ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND,
        ]
    );
    let mut late = rocprofiler_callback_thread_t { handle: 0 };
    // SAFETY: a valid out-pointer.
    let after = unsafe { fns().rocprofiler_create_callback_thread(&mut late) }.unwrap();
    assert_eq!(after, S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED, "only after init");
}

static AGENT_CALLS: Mutex<Vec<(bool, usize)>> = Mutex::new(Vec::new());

unsafe extern "C" fn note_agents(
    _: rocprofiler_agent_version_t,
    agents: *mut *const c_void,
    n: usize,
    _: *mut c_void,
) -> S {
    AGENT_CALLS.lock().unwrap().push((agents.is_null(), n));
    S::ROCPROFILER_STATUS_SUCCESS
}

/// Notes: "Agents come from `/sys/class/kfd`: with no KFD there are zero agents, not even a CPU
/// one." The callback gets (NULL, 0), as the data of an empty vector is.
#[test]
fn notes_without_kfd_there_are_no_agents_not_even_a_cpu() {
    let _g = exclusive();
    AGENT_CALLS.lock().unwrap().clear();
    let v0 = rocprofiler_agent_version_t::ROCPROFILER_AGENT_INFO_VERSION_0;
    let size = std::mem::size_of::<rocprofiler_agent_v0_t>();
    let gpu0 = gpu(0);
    ctl().set_kfd(0);
    // SAFETY: a valid callback.
    let st = unsafe {
        fns().rocprofiler_query_available_agents(v0, Some(note_agents), size, std::ptr::null_mut())
    };
    assert_eq!(st.unwrap(), S::ROCPROFILER_STATUS_SUCCESS);
    assert_eq!(*AGENT_CALLS.lock().unwrap(), vec![(true, 0)]);
    unsafe extern "C" fn none(
        _: rocprofiler_agent_id_t,
        _: *mut rocprofiler_counter_id_t,
        _: usize,
        _: *mut c_void,
    ) -> S {
        S::ROCPROFILER_STATUS_SUCCESS
    }
    // SAFETY: a valid callback.
    let counters = unsafe {
        fns().rocprofiler_iterate_agent_supported_counters(
            rocprofiler_agent_id_t { handle: gpu0 },
            Some(none),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(counters.unwrap(), S::ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND, "the GPU is gone too");
    ctl().set_kfd(1);
}

fn config(agent: u64, counters: &[u64], on_entry: u64) -> (S, u64) {
    let mut list: Vec<rocprofiler_counter_id_t> =
        counters.iter().map(|&handle| rocprofiler_counter_id_t { handle }).collect();
    let mut id = rocprofiler_counter_config_id_t { handle: on_entry };
    let ptr = if list.is_empty() { std::ptr::null_mut() } else { list.as_mut_ptr() };
    // SAFETY: `ptr` holds `len` ids (NULL with 0); a valid out-pointer.
    let st = unsafe {
        fns().rocprofiler_create_counter_config(
            rocprofiler_agent_id_t { handle: agent },
            ptr,
            list.len(),
            &mut id,
        )
    };
    (st.unwrap(), id.handle)
}

static RECORDS: Mutex<Vec<(u64, u64)>> = Mutex::new(Vec::new());
static CHOSEN: Mutex<u64> = Mutex::new(0);

unsafe extern "C" fn choose(
    _: rocprofiler_dispatch_counting_service_data_t,
    config: *mut rocprofiler_counter_config_id_t,
    user_data: *mut rocprofiler_user_data_t,
    _: *mut c_void,
) {
    (*config).handle = *CHOSEN.lock().unwrap();
    (*user_data).value = 0xABC;
}

unsafe extern "C" fn collect_records(
    _: rocprofiler_context_id_t,
    _: rocprofiler_buffer_id_t,
    headers: *mut *mut rocprofiler_record_header_t,
    n: usize,
    _: *mut c_void,
    _: u64,
) {
    for &h in std::slice::from_raw_parts(headers, n) {
        let (cat, kind) =
            ((*h).__bindgen_anon_1.__bindgen_anon_1.category, (*h).__bindgen_anon_1.__bindgen_anon_1.kind);
        if cat == 3 && kind == 2 {
            let r = &*((*h).payload as *const rocprofiler_counter_record_t);
            RECORDS.lock().unwrap().push((r.id >> 48, r.user_data.value));
        }
    }
}

/// A buffered counting context on `gpu(0)` whose dispatch callback chooses [`CHOSEN`] and stores
/// 0xABC in the dispatch's user data; counter records land in [`RECORDS`].
fn buffered_counting() -> (rocprofiler_context_id_t, rocprofiler_buffer_id_t) {
    RECORDS.lock().unwrap().clear();
    let out = std::sync::Arc::new(Mutex::new(None));
    let o = out.clone();
    configure_tool(move || {
        let ctx = create_context();
        let mut buf = rocprofiler_buffer_id_t { handle: 0 };
        // SAFETY: valid callbacks and pointers.
        unsafe {
            fns()
                .rocprofiler_create_buffer(
                    ctx,
                    1 << 16,
                    1 << 16,
                    rocprofiler_buffer_policy_t::ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                    Some(collect_records),
                    std::ptr::null_mut(),
                    &mut buf,
                )
                .unwrap();
            fns()
                .rocprofiler_configure_buffer_dispatch_counting_service(
                    ctx,
                    buf,
                    Some(choose),
                    std::ptr::null_mut(),
                )
                .unwrap();
        }
        *o.lock().unwrap() = Some((ctx, buf));
    });
    let (ctx, buf) = out.lock().unwrap().unwrap();
    (ctx, buf)
}

/// The counter ids of the records one dispatch on GPU 0 collects with config `chosen`.
fn collected(chosen: u64) -> Vec<(u64, u64)> {
    let (ctx, buf) = buffered_counting();
    *CHOSEN.lock().unwrap() = chosen;
    assert_eq!(start(ctx), S::ROCPROFILER_STATUS_SUCCESS);
    dispatch(gpu(0), kernel(c"k"), 640);
    assert_eq!(stop(ctx), S::ROCPROFILER_STATUS_SUCCESS);
    // SAFETY: a valid id.
    unsafe { fns().rocprofiler_flush_buffer(buf) }.unwrap();
    RECORDS.lock().unwrap().clone()
}

/// Notes: "Counters: on a CPU agent iterate returns AGENT_ARCH_NOT_SUPPORTED and config creation
/// METRIC_NOT_VALID_FOR_AGENT; an empty counter list succeeds; duplicate counters are removed;
/// an unknown info version gives INCOMPATIBLE_ABI; EXCEEDS_HW_LIMIT exists." Seen there too: a
/// non-zero `*config_id` on entry adds that config's counters to the new one.
#[test]
fn notes_the_counter_api_codes() {
    let _g = exclusive();
    let (sq_waves, tcc_hit, tcc_miss) = (1, 4, 6);
    assert_eq!(config(cpu(), &[sq_waves], 0).0, S::ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT);
    assert_eq!(config(gpu(0), &[], 0).0, S::ROCPROFILER_STATUS_SUCCESS, "an empty list");
    assert_eq!(
        config(gpu(0), &[tcc_hit, tcc_miss], 0).0,
        S::ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT,
        "one TCC slot"
    );
    assert_eq!(config(0x1234, &[sq_waves], 0).0, S::ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    let mut info = rocprofiler_counter_info_v1_t::default();
    // SAFETY: a v1-sized struct for a version the library does not have.
    let st = unsafe {
        fns().rocprofiler_query_counter_info(
            rocprofiler_counter_id_t { handle: sq_waves },
            rocprofiler_counter_info_version_id_t(7),
            &mut info as *mut _ as *mut c_void,
        )
    };
    assert_eq!(st.unwrap(), S::ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI);

    // Duplicates count once: SQ_WAVES' 8 instances and TCC_HIT's 4.
    let (st, dup) = config(gpu(0), &[sq_waves, sq_waves, tcc_hit], 0);
    assert_eq!(st, S::ROCPROFILER_STATUS_SUCCESS);
    let records = collected(dup);
    assert_eq!(records.iter().filter(|r| r.0 == sq_waves).count(), 8);
    assert_eq!(records.iter().filter(|r| r.0 == tcc_hit).count(), 4);
    assert_eq!(records.len(), 12);

    // A config id left in *config_id: its counters are added.
    drop(_g);
    let _g = exclusive();
    let (_, first) = config(gpu(0), &[sq_waves], 0);
    let (st, both) = config(gpu(0), &[tcc_hit], first);
    assert_eq!(st, S::ROCPROFILER_STATUS_SUCCESS);
    assert_ne!(both, first, "a new config");
    let records = collected(both);
    assert_eq!((records.iter().filter(|r| r.0 == sq_waves).count(), records.len()), (8, 12));
}

/// Notes: "Buffered counter records carry `user_data` = 0." (The old mock copied the dispatch's
/// user data into them.)
#[test]
fn notes_buffered_counter_records_carry_user_data_0() {
    let _g = exclusive();
    let (_, waves) = config(gpu(0), &[1], 0);
    let records = collected(waves);
    assert_eq!(records.len(), 8);
    assert!(records.iter().all(|r| r.1 == 0), "the dispatch callback stored 0xABC: {records:?}");
}

/// Notes: "`destroy_counter_config` always returns SUCCESS". (The old mock returned
/// PROFILE_NOT_FOUND for an unknown id.)
#[test]
fn notes_destroying_a_counter_config_always_succeeds() {
    let _g = exclusive();
    let (_, id) = config(gpu(0), &[1], 0);
    for handle in [id, id, 0x1234_5678] {
        // SAFETY: a plain id (any value: the SDK erases it from a map).
        let st =
            unsafe { fns().rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t { handle }) };
        assert_eq!(st.unwrap(), S::ROCPROFILER_STATUS_SUCCESS);
    }
}

/// Notes: "A config id that is unknown, destroyed, or for another agent crashes the process or
/// counts the wrong agent in the real SDK (`map.at` throws inside the HSA interceptor)". (The old
/// mock collected nothing and carried on.)
#[test]
fn notes_an_unknown_config_id_crashes_the_dispatch() {
    if !support::in_child_expecting_abort(
        "notes_an_unknown_config_id_crashes_the_dispatch",
        "unknown or destroyed counter config",
    ) {
        return;
    }
    let _g = exclusive();
    collected(0x1234_5678);
}

#[test]
fn notes_a_destroyed_config_id_crashes_the_dispatch() {
    if !support::in_child_expecting_abort(
        "notes_a_destroyed_config_id_crashes_the_dispatch",
        "unknown or destroyed counter config",
    ) {
        return;
    }
    let _g = exclusive();
    let (_, id) = config(gpu(0), &[1], 0);
    // SAFETY: a plain id.
    unsafe { fns().rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t { handle: id }) }
        .unwrap();
    collected(id);
}

#[test]
fn notes_another_agents_config_id_crashes_the_dispatch() {
    if !support::in_child_expecting_abort(
        "notes_another_agents_config_id_crashes_the_dispatch",
        "another agent's counter config",
    ) {
        return;
    }
    let _g = exclusive();
    let (_, gpu1s) = config(gpu(1), &[1], 0);
    collected(gpu1s);
}

/// Issue 19 item 10: in the SDK a full LOSSLESS buffer makes the producing thread flush it and
/// wait until the buffer callback returned (`buffer.hpp`); the mock once handed the records off
/// and went on.
#[test]
fn a_full_lossless_buffer_makes_the_producer_wait_for_the_callback() {
    let _g = exclusive();
    DELIVERED.lock().unwrap().clear();
    let record = std::mem::size_of::<rocprofiler_buffer_tracing_hip_api_record_t>().div_ceil(8) * 8 + 16;
    let out = std::sync::Arc::new(Mutex::new(None));
    let o = out.clone();
    configure_tool(move || {
        let ctx = create_context();
        let size = record * 3 + record / 2;
        let buf = create_buffer(ctx, size, size, true);
        let k = rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API;
        // SAFETY: valid ids.
        unsafe { fns().rocprofiler_configure_buffer_tracing_service(ctx, k, std::ptr::null(), 0, buf) }
            .unwrap();
        assert_eq!(start(ctx), S::ROCPROFILER_STATUS_SUCCESS);
        *o.lock().unwrap() = Some(buf);
    });
    let buf = out.lock().unwrap().unwrap();
    set_gate(true);
    let (tx, rx) = std::sync::mpsc::channel();
    let producer = std::thread::spawn(move || {
        for _ in 0..4 {
            ctl().api_call(5, 5);
        }
        let _ = tx.send(());
    });
    // The fourth record does not fit: the producer flushes and waits for the (held) callback.
    let begun = std::time::Instant::now();
    while DELIVERED.lock().unwrap().is_empty() {
        assert!(begun.elapsed() < std::time::Duration::from_secs(20), "the buffer was never flushed");
        std::thread::yield_now();
    }
    let early = rx.recv_timeout(std::time::Duration::from_millis(200));
    set_gate(false);
    assert!(early.is_err(), "the producer went on while the buffer callback was still running");
    rx.recv_timeout(std::time::Duration::from_secs(20)).expect("the producer returns once the callback did");
    producer.join().unwrap();
    assert_eq!(DELIVERED.lock().unwrap()[0].hashes.len(), 3);
    assert_eq!(ctl().buffer_pending(buf.handle), 1, "the fourth record is stored after the flush");
}

/// Issue 19 item 12: a library named in `ROCP_TOOL_LIBRARIES` that cannot be opened is fatal in
/// the SDK (the mock once warned and went on).
#[test]
fn a_tool_library_that_cannot_be_opened_aborts() {
    if !support::in_child_expecting_abort(
        "a_tool_library_that_cannot_be_opened_aborts",
        "/nonexistent/librocprofiler-test-tool.so, which cannot be opened",
    ) {
        return;
    }
    let _g = exclusive();
    std::env::set_var("ROCP_TOOL_LIBRARIES", "/nonexistent/librocprofiler-test-tool.so");
    ctl().load_tools();
}
