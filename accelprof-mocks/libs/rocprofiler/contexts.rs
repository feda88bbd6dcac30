//! Contexts and the tracing services configured on them, and the kind/operation name queries.

use std::collections::HashMap;
use std::ffi::{c_char, c_void};
use std::sync::{RwLock, RwLockReadGuard};

use crate::counting;
use crate::names;
use crate::state::{state, BufferService, CallbackService, Context, CONTEXT_OFFSET};
use crate::*;

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_create_context(
    context_id: *mut rocprofiler_context_id_t,
) -> rocprofiler_status_t {
    if context_id.is_null() {
        crash("rocprofiler_create_context read a NULL context id");
    }
    if (*context_id).handle != 0 {
        return status::CONTEXT_ID_NOT_ZERO;
    }
    let mut st = state();
    if !st.in_window() {
        return status::CONFIGURATION_LOCKED;
    }
    let Some(client) = st.current_client else {
        drop(st);
        crash(
            "rocprofiler_create_context inside rocprofiler_configure: a context was allocated without an \
             associated tool client identifier (LOG_ASSERT in allocate_context); create contexts in the \
             tool's initialize",
        )
    };
    let handle = CONTEXT_OFFSET + st.contexts.len() as u64;
    st.contexts.push(Context {
        handle,
        client,
        active: false,
        registered: true,
        callback: HashMap::new(),
        buffered: HashMap::new(),
        counting: Vec::new(),
        agents: None,
        queue_callbacks: false,
    });
    (*context_id).handle = handle;
    status::SUCCESS
}

/// The queues' callback lock (`hsa/queue.hpp`: each queue's `_callbacks`, and the controller's
/// callback cache): read-held while a dispatch's enqueue callbacks run, write-held when a
/// counting context's callbacks are added to the queues (`queue_controller.cpp`, `add_callback`,
/// at its first start). Not reentrant: a write from a thread that holds the read waits forever.
static QUEUE_CALLBACKS: RwLock<()> = RwLock::new(());

/// The read side, for the enqueue section of a dispatch.
pub fn queue_callbacks_read() -> RwLockReadGuard<'static, ()> {
    QUEUE_CALLBACKS.read().unwrap_or_else(|e| e.into_inner())
}

/// Starts a context. The first start of a counting context adds its callbacks to the queues
/// under the queues' callback write-lock (from inside a dispatch's enqueue callbacks, which
/// hold the read side, it never returns), and starts the counting results thread (taking its
/// mutex, which an inline delivery of results holds around the record callback).
#[no_mangle]
pub extern "C" fn rocprofiler_start_context(context_id: rocprofiler_context_id_t) -> rocprofiler_status_t {
    let mut st = state();
    let Some(ctx) = st.context(context_id.handle) else { return status::CONTEXT_NOT_FOUND };
    if st.fini_status != 0 {
        return status::CONFIGURATION_LOCKED;
    }
    if ctx.active {
        // Already active: nothing changes (serialization is not taken twice).
        return status::SUCCESS;
    }
    let counting = !ctx.counting.is_empty();
    if counting {
        let mine = ctx.counting_agents();
        for other in st.active_contexts() {
            if !other.counting.is_empty() && other.counting_agents().iter().any(|a| mine.contains(a)) {
                return status::CONTEXT_CONFLICT;
            }
        }
        for agent in mine {
            *st.serialization.entry(agent).or_insert(0) += 1;
        }
    }
    let mut first = false;
    if let Some(ctx) = st.context_mut(context_id.handle) {
        ctx.active = true;
        first = counting && !ctx.queue_callbacks;
        ctx.queue_callbacks |= counting;
    }
    drop(st);
    if first {
        drop(QUEUE_CALLBACKS.write().unwrap_or_else(|e| e.into_inner()));
    }
    if counting {
        crate::results::start();
    }
    status::SUCCESS
}

/// Stops a context: the completions of work enqueued before are delivered first (the SDK's
/// queue sync: the async-signal thread runs what is queued; work still running on the device
/// completes later, to the contexts it was enqueued with), then, for a counting context, the
/// counting thread drains and stops.
#[no_mangle]
pub extern "C" fn rocprofiler_stop_context(context_id: rocprofiler_context_id_t) -> rocprofiler_status_t {
    let mut st = state();
    let Some(ctx) = st.context(context_id.handle) else { return status::CONTEXT_NOT_FOUND };
    if st.fini_status > 0 {
        return status::SUCCESS;
    }
    if !ctx.active {
        // The real library finds no active entry to swap out and says so.
        return status::CONTEXT_NOT_FOUND;
    }
    let counting = !ctx.counting.is_empty();
    counting::release_serialization(&mut st, context_id.handle);
    if let Some(ctx) = st.context_mut(context_id.handle) {
        ctx.active = false;
    }
    drop(st);
    crate::signal::sync();
    if counting {
        // The SDK's only drain of counter results: its counting thread delivers what it holds,
        // then exits (for every counting context: the thread is shared).
        crate::results::stop();
    }
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_context_is_active(
    context_id: rocprofiler_context_id_t,
    out: *mut i32,
) -> rocprofiler_status_t {
    if out.is_null() {
        return status::INVALID_ARGUMENT;
    }
    *out = 0;
    let st = state();
    match st.context(context_id.handle) {
        Some(ctx) => {
            *out = ctx.active as i32;
            status::SUCCESS
        }
        None => status::CONTEXT_NOT_FOUND,
    }
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_context_is_valid(
    context_id: rocprofiler_context_id_t,
    out: *mut i32,
) -> rocprofiler_status_t {
    if out.is_null() {
        return status::INVALID_ARGUMENT;
    }
    *out = 0;
    match state().context(context_id.handle) {
        Some(_) => {
            *out = 1;
            status::SUCCESS
        }
        None => status::CONTEXT_NOT_FOUND,
    }
}

/// Operation ids at or past this are OPERATION_NOT_FOUND in the SDK (`domain_ops_padding`).
const OPS_PADDING: i32 = 512;

/// Adds the operations of a service that is already registered, one by one, as the SDK does:
/// a NULL list with a count is read anyway (a crash), and the first bad id returns
/// OPERATION_NOT_FOUND with the service left registered (with the ids added before it; none
/// means every operation). The mock also refuses ids its tables do not name (the SDK accepts
/// any id below 512 and never matches it).
unsafe fn add_operations(
    ops_table: names::Ops,
    ops: &mut Vec<i32>,
    operations: *const rocprofiler_tracing_operation_t,
    count: usize,
) -> rocprofiler_status_t {
    if operations.is_null() && count > 0 {
        crash("a tracing service was configured with a NULL operation list and a non-zero count");
    }
    for i in 0..count {
        let op = *operations.add(i);
        if !(0..OPS_PADDING).contains(&op) || names::op_name(ops_table, op).is_none() {
            return status::OPERATION_NOT_FOUND;
        }
        ops.push(op);
    }
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_configure_callback_tracing_service(
    context_id: rocprofiler_context_id_t,
    kind: rocprofiler_callback_tracing_kind_t,
    ops: *const rocprofiler_tracing_operation_t,
    ops_count: usize,
    callback: rocprofiler_callback_tracing_cb_t,
    callback_args: *mut c_void,
) -> rocprofiler_status_t {
    let mut st = state();
    if !st.in_window() {
        return status::CONFIGURATION_LOCKED;
    }
    let Some(ctx) = st.context_mut(context_id.handle) else { return status::CONTEXT_NOT_FOUND };
    if kind.0 as usize >= names::CALLBACK_KINDS.len() {
        drop(st);
        crash("rocprofiler_configure_callback_tracing_service with a kind at or past LAST (std::array::at throws)");
    }
    if ctx.callback.contains_key(&kind.0) {
        return status::SERVICE_ALREADY_CONFIGURED;
    }
    let Some(table) = names::callback_ops(kind.0) else { return status::KIND_NOT_FOUND };
    // Registered before the operations are looked at.
    let service = ctx.callback.entry(kind.0).or_insert(CallbackService {
        callback,
        data: Ptr(callback_args),
        ops: Vec::new(),
    });
    let mut list = Vec::new();
    let result = add_operations(table, &mut list, ops, ops_count);
    service.ops = list;
    result
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_configure_buffer_tracing_service(
    context_id: rocprofiler_context_id_t,
    kind: rocprofiler_buffer_tracing_kind_t,
    ops: *const rocprofiler_tracing_operation_t,
    ops_count: usize,
    buffer_id: rocprofiler_buffer_id_t,
) -> rocprofiler_status_t {
    let mut st = state();
    if !st.in_window() {
        return status::CONFIGURATION_LOCKED;
    }
    if st.context(context_id.handle).is_none() {
        return status::CONTEXT_NOT_FOUND;
    }
    // The SDK only refuses handle 0; the mock also refuses a buffer it does not have.
    if st.buffer_mut(buffer_id.handle).is_none() {
        return status::BUFFER_NOT_FOUND;
    }
    if kind.0 as usize >= names::BUFFER_KINDS.len() {
        drop(st);
        crash("rocprofiler_configure_buffer_tracing_service with a kind at or past LAST (std::array::at throws)");
    }
    let ctx = st.context_mut(context_id.handle).expect("checked above");
    if ctx.buffered.contains_key(&kind.0) {
        return status::SERVICE_ALREADY_CONFIGURED;
    }
    let Some(table) = names::buffer_ops(kind.0) else { return status::KIND_NOT_FOUND };
    let service =
        ctx.buffered.entry(kind.0).or_insert(BufferService { buffer: buffer_id.handle, ops: Vec::new() });
    let mut list = Vec::new();
    let result = add_operations(table, &mut list, ops, ops_count);
    service.ops = list;
    result
}

unsafe fn write_name(
    found: Option<(*const c_char, u64)>,
    name: *mut *const c_char,
    len: *mut u64,
    missing: rocprofiler_status_t,
) -> rocprofiler_status_t {
    match found {
        Some((p, n)) => {
            if !name.is_null() {
                *name = p;
            }
            if !len.is_null() {
                *len = n;
            }
            status::SUCCESS
        }
        None => missing,
    }
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_callback_tracing_kind_name(
    kind: rocprofiler_callback_tracing_kind_t,
    name: *mut *const c_char,
    len: *mut u64,
) -> rocprofiler_status_t {
    write_name(names::kind_name(names::CALLBACK_KINDS, kind.0), name, len, status::KIND_NOT_FOUND)
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_callback_tracing_kind_operation_name(
    kind: rocprofiler_callback_tracing_kind_t,
    operation: rocprofiler_tracing_operation_t,
    name: *mut *const c_char,
    len: *mut u64,
) -> rocprofiler_status_t {
    if kind.0 == 0 {
        return status::INVALID_ARGUMENT;
    }
    let Some(table) = names::callback_ops(kind.0) else { return status::KIND_NOT_FOUND };
    write_name(names::op_name(table, operation), name, len, status::OPERATION_NOT_FOUND)
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_buffer_tracing_kind_name(
    kind: rocprofiler_buffer_tracing_kind_t,
    name: *mut *const c_char,
    len: *mut u64,
) -> rocprofiler_status_t {
    write_name(names::kind_name(names::BUFFER_KINDS, kind.0), name, len, status::KIND_NOT_FOUND)
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_buffer_tracing_kind_operation_name(
    kind: rocprofiler_buffer_tracing_kind_t,
    operation: rocprofiler_tracing_operation_t,
    name: *mut *const c_char,
    len: *mut u64,
) -> rocprofiler_status_t {
    if kind.0 == 0 {
        return status::INVALID_ARGUMENT;
    }
    let Some(table) = names::buffer_ops(kind.0) else { return status::KIND_NOT_FOUND };
    write_name(names::op_name(table, operation), name, len, status::OPERATION_NOT_FOUND)
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_iterate_callback_tracing_kinds(
    callback: rocprofiler_callback_tracing_kind_cb_t,
    data: *mut c_void,
) -> rocprofiler_status_t {
    let Some(cb) = callback else {
        crash("rocprofiler_iterate_callback_tracing_kinds called a NULL callback")
    };
    // From NONE (0), as the SDK iterates.
    for kind in 0..names::CALLBACK_KINDS.len() as u32 {
        if cb(rocprofiler_callback_tracing_kind_t(kind), data) != 0 {
            break;
        }
    }
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_iterate_callback_tracing_kind_operations(
    kind: rocprofiler_callback_tracing_kind_t,
    callback: rocprofiler_callback_tracing_kind_operation_cb_t,
    data: *mut c_void,
) -> rocprofiler_status_t {
    if kind.0 == 0 {
        return status::INVALID_ARGUMENT; // NONE has no operations
    }
    let Some(cb) = callback else {
        crash("rocprofiler_iterate_callback_tracing_kind_operations called a NULL callback")
    };
    let Some(table) = names::callback_ops(kind.0) else { return status::KIND_NOT_FOUND };
    for (op, name) in table.iter().enumerate() {
        if !name.is_empty() && cb(kind, op as i32, data) != 0 {
            break;
        }
    }
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_iterate_buffer_tracing_kinds(
    callback: rocprofiler_buffer_tracing_kind_cb_t,
    data: *mut c_void,
) -> rocprofiler_status_t {
    let Some(cb) = callback else { crash("rocprofiler_iterate_buffer_tracing_kinds called a NULL callback") };
    // From NONE (0), as the SDK iterates.
    for kind in 0..names::BUFFER_KINDS.len() as u32 {
        if cb(rocprofiler_buffer_tracing_kind_t(kind), data) != 0 {
            break;
        }
    }
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_iterate_buffer_tracing_kind_operations(
    kind: rocprofiler_buffer_tracing_kind_t,
    callback: rocprofiler_buffer_tracing_kind_operation_cb_t,
    data: *mut c_void,
) -> rocprofiler_status_t {
    if kind.0 == 0 {
        return status::INVALID_ARGUMENT; // NONE has no operations
    }
    let Some(cb) = callback else {
        crash("rocprofiler_iterate_buffer_tracing_kind_operations called a NULL callback")
    };
    let Some(table) = names::buffer_ops(kind.0) else { return status::KIND_NOT_FOUND };
    for (op, name) in table.iter().enumerate() {
        if !name.is_empty() && cb(kind, op as i32, data) != 0 {
            break;
        }
    }
    status::SUCCESS
}
