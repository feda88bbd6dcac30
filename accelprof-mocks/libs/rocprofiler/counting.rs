//! The dispatch counting service: configuration and per-agent serialization (`set_agents` is in
//! `set_agents.rs`, left out of the mainline build).
//!
//! A context with a counting service serializes dispatches on every agent of its set while it is
//! active; each active context holds one reference per agent, taken when it becomes active and
//! released when it stops, so starting an active context again takes nothing.

use std::ffi::c_void;

use crate::agents;
use crate::state::{state, CountingService, State};
use crate::*;

/// Releases a context's serialization references (called when it stops).
pub fn release_serialization(st: &mut State, context: u64) {
    let Some(ctx) = st.context(context) else { return };
    if ctx.counting.is_empty() || !ctx.active {
        return;
    }
    for agent in ctx.counting_agents() {
        if let Some(n) = st.serialization.get_mut(&agent) {
            *n -= 1;
        }
    }
}

fn configure(context_id: rocprofiler_context_id_t, service: CountingService) -> rocprofiler_status_t {
    let mut st = state();
    if !st.in_window() {
        return status::CONFIGURATION_LOCKED;
    }
    if let Some(buffer) = service.buffer {
        if st.buffer_mut(buffer).is_none() {
            return status::BUFFER_NOT_FOUND;
        }
    }
    let Some(ctx) = st.context_mut(context_id.handle) else { return status::CONTEXT_INVALID };
    if service.dispatch_cb.is_none() {
        return status::INVALID_ARGUMENT;
    }
    ctx.counting.push(service);
    status::SUCCESS
}

#[no_mangle]
pub extern "C" fn rocprofiler_configure_buffer_dispatch_counting_service(
    context_id: rocprofiler_context_id_t,
    buffer_id: rocprofiler_buffer_id_t,
    callback: rocprofiler_dispatch_counting_service_cb_t,
    callback_data_args: *mut c_void,
) -> rocprofiler_status_t {
    configure(
        context_id,
        CountingService {
            dispatch_cb: callback,
            dispatch_args: Ptr(callback_data_args),
            buffer: Some(buffer_id.handle),
            record_cb: None,
            record_args: Ptr(std::ptr::null_mut()),
        },
    )
}

#[no_mangle]
pub extern "C" fn rocprofiler_configure_callback_dispatch_counting_service(
    context_id: rocprofiler_context_id_t,
    dispatch_callback: rocprofiler_dispatch_counting_service_cb_t,
    dispatch_callback_args: *mut c_void,
    record_callback: rocprofiler_dispatch_counting_record_cb_t,
    record_callback_args: *mut c_void,
) -> rocprofiler_status_t {
    if record_callback.is_none() {
        return status::INVALID_ARGUMENT;
    }
    configure(
        context_id,
        CountingService {
            dispatch_cb: dispatch_callback,
            dispatch_args: Ptr(dispatch_callback_args),
            buffer: None,
            record_cb: record_callback,
            record_args: Ptr(record_callback_args),
        },
    )
}

/// How many active counting contexts serialize dispatches on `agent` (-1: not an agent).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_agent_serialization(agent: u64) -> i64 {
    if !agents::is_agent(agent) {
        return -1;
    }
    state().serialization.get(&agent).copied().unwrap_or(0)
}
