//! Contexts and the tracing services configured on them, and the kind/operation name queries.

use std::collections::HashMap;
use std::ffi::{c_char, c_void};

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
    });
    (*context_id).handle = handle;
    status::SUCCESS
}

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
    if let Some(ctx) = st.context_mut(context_id.handle) {
        ctx.active = true;
    }
    drop(st);
    if counting {
        crate::results::start();
    }
    status::SUCCESS
}

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

/// Validates an operation list against a kind's table; NULL means every operation.
unsafe fn operations(
    ops_table: names::Ops,
    operations: *const rocprofiler_tracing_operation_t,
    count: usize,
) -> Result<Option<Vec<i32>>, rocprofiler_status_t> {
    if operations.is_null() || count == 0 {
        return Ok(None);
    }
    let list = std::slice::from_raw_parts(operations, count).to_vec();
    if list.iter().any(|&op| op < 0 || op as usize >= ops_table.len()) {
        return Err(status::OPERATION_NOT_FOUND);
    }
    Ok(Some(list))
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
    let Some(table) = names::callback_ops(kind.0) else { return status::KIND_NOT_FOUND };
    if ctx.callback.contains_key(&kind.0) {
        return status::SERVICE_ALREADY_CONFIGURED;
    }
    let ops = match operations(table, ops, ops_count) {
        Ok(ops) => ops,
        Err(e) => return e,
    };
    ctx.callback.insert(kind.0, CallbackService { callback, data: Ptr(callback_args), ops });
    status::SUCCESS
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
    if st.buffer_mut(buffer_id.handle).is_none() {
        return status::BUFFER_NOT_FOUND;
    }
    let Some(table) = names::buffer_ops(kind.0) else { return status::KIND_NOT_FOUND };
    let ctx = st.context_mut(context_id.handle).expect("checked above");
    if ctx.buffered.contains_key(&kind.0) {
        return status::SERVICE_ALREADY_CONFIGURED;
    }
    let ops = match operations(table, ops, ops_count) {
        Ok(ops) => ops,
        Err(e) => return e,
    };
    ctx.buffered.insert(kind.0, BufferService { buffer: buffer_id.handle, ops });
    status::SUCCESS
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
    let Some(table) = names::buffer_ops(kind.0) else { return status::KIND_NOT_FOUND };
    write_name(names::op_name(table, operation), name, len, status::OPERATION_NOT_FOUND)
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_iterate_callback_tracing_kinds(
    callback: rocprofiler_callback_tracing_kind_cb_t,
    data: *mut c_void,
) -> rocprofiler_status_t {
    let Some(cb) = callback else { return status::INVALID_ARGUMENT };
    for kind in 1..names::CALLBACK_KINDS.len() as u32 {
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
    let Some(cb) = callback else { return status::INVALID_ARGUMENT };
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
    let Some(cb) = callback else { return status::INVALID_ARGUMENT };
    for kind in 1..names::BUFFER_KINDS.len() as u32 {
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
    let Some(cb) = callback else { return status::INVALID_ARGUMENT };
    let Some(table) = names::buffer_ops(kind.0) else { return status::KIND_NOT_FOUND };
    for (op, name) in table.iter().enumerate() {
        if !name.is_empty() && cb(kind, op as i32, data) != 0 {
            break;
        }
    }
    status::SUCCESS
}
