//! Kernels: code-object symbol registration, dispatch (ENQUEUE tracing around the counting
//! callbacks, serialization) and completion (dispatch records, COMPLETE tracing, counter
//! results handed to the SDK's counting thread).
//!
//! Completion comes as on a GPU: `mock_rocprofiler_dispatch_end` says the kernel finished; its
//! COMPLETE callbacks, buffer records and counter results come later, on HSA's async-signal
//! thread (`signal.rs`), to the contexts and buffers that were active when it was enqueued
//! (whether or not they still are), and the COMPLETE callbacks and records only when the
//! dispatch's timing could be read (`mock_rocprofiler_dispatch_fail_timing` plays a failure).
//! The enqueue section (ENQUEUE ENTER, the counting callbacks, ENQUEUE EXIT) runs with the
//! queue's callback read-lock held (`hsa/queue.hpp`), which the first start of a counting
//! context takes for writing: that start from inside the section waits for itself forever.
//! A counter config with no counters collects nothing (no result at all).
//!
//! As `hsa/queue.cpp` does it: KERNEL_DISPATCH ENQUEUE ENTER callbacks run first, then every
//! counting dispatch callback of the active contexts that count on the agent, then ENQUEUE
//! EXIT. The dispatch has one `rocprofiler_user_data_t`, zeroed, handed to every counting
//! callback in turn (each sees what the one before stored) and, as it stands after them, to the
//! record callbacks at completion; buffered counter records carry 0. The config a callback
//! returns is looked up with `map.at`: an unknown or destroyed id throws inside the HSA
//! interceptor, and another agent's config programs the wrong agent; the mock aborts for all
//! three. Results are one record per dimension instance of each counter.

use std::ffi::{c_char, c_void, CStr};

use crate::agents;
use crate::api::{callback_targets, current_correlation, invoke, CATEGORY_TRACING};
use crate::buffers::{emplace, wait_all, Record};
use crate::results;
use crate::state::{state, CallbackService, CountingService};
use crate::*;

/// A counter collection chosen by a dispatch callback.
pub struct Collection {
    service: CountingService,
    config: Vec<u64>,
}

/// A dispatched kernel that has not completed.
pub struct InFlight {
    info: rocprofiler_kernel_dispatch_info_t,
    correlation: rocprofiler_correlation_id_t,
    thread: u64,
    start: u64,
    serialized: bool,
    instrumented: u32,
    tracing_buffers: Vec<u64>,
    /// COMPLETE callback services of the contexts active at enqueue.
    complete: Vec<(u64, CallbackService)>,
    collections: Vec<Collection>,
    /// The dispatch's one user-data slot, shared by its counting callbacks.
    user_data: rocprofiler_user_data_t,
    /// Whether HSA could read the dispatch's timing (else no COMPLETE callback, no record).
    timing_ok: bool,
}

// SAFETY: the pointers inside (the tool's callback data, the user-data union) belong to the
// tool, which registered them to be handed back on the SDK's threads.
unsafe impl Send for InFlight {}

/// Registers a kernel symbol as a code object load would: contexts tracing CODE_OBJECT get
/// CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER (phase LOAD) with its name. Returns the kernel id.
#[no_mangle]
pub unsafe extern "C" fn mock_rocprofiler_kernel_symbol(name: *const c_char) -> u64 {
    if name.is_null() {
        return 0;
    }
    let owned = CStr::from_ptr(name).to_owned();
    let (kernel_id, targets) = {
        let mut st = state();
        st.next_kernel += 1;
        let id = st.next_kernel;
        st.kernels.insert(id, owned.to_string_lossy().into_owned());
        (id, callback_targets(&st, 10, 2))
    };
    let kept = owned;
    let mut data = rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t {
        size: std::mem::size_of::<rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t>()
            as u64,
        kernel_id,
        code_object_id: 1,
        kernel_name: kept.as_ptr(),
        ..Default::default()
    };
    for (ctx, svc) in targets {
        let mut user_data = rocprofiler_user_data_t::default();
        invoke(
            ctx,
            &svc,
            10,
            2,
            rocprofiler_callback_phase_t::ROCPROFILER_CALLBACK_PHASE_LOAD,
            rocprofiler_correlation_id_t::default(),
            &mut data as *mut _ as *mut c_void,
            &mut user_data,
        );
    }
    kernel_id
}

fn counting_data(f: &InFlight, start: u64, end: u64) -> rocprofiler_dispatch_counting_service_data_t {
    rocprofiler_dispatch_counting_service_data_t {
        size: std::mem::size_of::<rocprofiler_dispatch_counting_service_data_t>() as u64,
        correlation_id: rocprofiler_async_correlation_id_t {
            internal: f.correlation.internal,
            external: f.correlation.external,
        },
        start_timestamp: start,
        end_timestamp: end,
        dispatch_info: f.info,
    }
}

/// Dispatches `kernel_id` on `agent` (a GPU): every active counting context whose agent set
/// holds the agent gets its dispatch callback (config 0 = collect nothing), the dispatch is
/// serialized when any does, and contexts tracing KERNEL_DISPATCH see ENQUEUE ENTER/EXIT.
/// Returns the dispatch id (0: not a GPU agent).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_dispatch_begin(
    agent: u64,
    queue: u64,
    kernel_id: u64,
    grid_x: u32,
    grid_y: u32,
    grid_z: u32,
    wg_x: u32,
    wg_y: u32,
    wg_z: u32,
) -> u64 {
    if !agents::is_gpu(agent) {
        return 0;
    }
    let (mut flight, services, enqueue) = {
        let mut st = state();
        st.next_dispatch += 1;
        let dispatch_id = st.next_dispatch;
        let correlation = match current_correlation() {
            Some(c) => c,
            None => rocprofiler_correlation_id_t { internal: st.new_correlation(), ..Default::default() },
        };
        let info = rocprofiler_kernel_dispatch_info_t {
            size: std::mem::size_of::<rocprofiler_kernel_dispatch_info_t>() as u64,
            agent_id: rocprofiler_agent_id_t { handle: agent },
            queue_id: rocprofiler_queue_id_t { handle: queue },
            kernel_id,
            dispatch_id,
            private_segment_size: 0,
            group_segment_size: 1024,
            workgroup_size: rocprofiler_dim3_t { x: wg_x, y: wg_y, z: wg_z },
            grid_size: rocprofiler_dim3_t { x: grid_x, y: grid_y, z: grid_z },
            ..Default::default()
        };
        let services: Vec<CountingService> = st
            .active_contexts()
            .filter(|c| !c.counting.is_empty() && c.counting_agents().contains(&agent))
            .flat_map(|c| c.counting.clone())
            .collect();
        let tracing_buffers = crate::api::buffer_targets(&st, 11, 2);
        let complete = callback_targets(&st, 12, 2);
        let flight = InFlight {
            info,
            correlation,
            thread: thread_id(),
            start: 0,
            serialized: st.serialization.get(&agent).copied().unwrap_or(0) > 0,
            instrumented: 0,
            tracing_buffers,
            complete,
            collections: Vec::new(),
            user_data: rocprofiler_user_data_t { value: 0 },
            timing_ok: true,
        };
        (flight, services, callback_targets(&st, 12, 1))
    };
    let mut data = rocprofiler_callback_tracing_kernel_dispatch_data_t {
        size: std::mem::size_of::<rocprofiler_callback_tracing_kernel_dispatch_data_t>() as u64,
        dispatch_info: flight.info,
        ..Default::default()
    };
    // The queue's callback read-lock, held through the enqueue section.
    let _callbacks = crate::contexts::queue_callbacks_read();
    // One tracing slot per (context, call), kept from ENTER to EXIT.
    let mut slots: Vec<rocprofiler_user_data_t> = vec![rocprofiler_user_data_t::default(); enqueue.len()];
    for ((ctx, svc), slot) in enqueue.iter().zip(slots.iter_mut()) {
        invoke(
            *ctx,
            svc,
            12,
            1,
            rocprofiler_callback_phase_t::ROCPROFILER_CALLBACK_PHASE_ENTER,
            flight.correlation,
            &mut data as *mut _ as *mut c_void,
            slot,
        );
    }
    for service in services {
        flight.instrumented += 1;
        // A NULL dispatch callback: no instrumentation, but the dispatch is still serialized.
        let Some(cb) = service.dispatch_cb else { continue };
        let mut config = rocprofiler_counter_config_id_t { handle: 0 };
        // SAFETY: the tool configured this callback for this context; the slot is this
        // dispatch's, shared by every counting callback.
        unsafe {
            cb(counting_data(&flight, 0, 0), &mut config, &mut flight.user_data, service.dispatch_args.0)
        };
        if config.handle == 0 {
            continue;
        }
        let st = state();
        let Some(cfg) = st.config(config.handle) else {
            drop(st);
            crash("a dispatch callback chose an unknown or destroyed counter config (map.at throws in the HSA interceptor)")
        };
        if cfg.agent != agent {
            drop(st);
            crash("a dispatch callback chose another agent's counter config (its packets program that agent)")
        }
        let counters = cfg.counters.clone();
        drop(st);
        if counters.is_empty() {
            // The SDK builds no packet and delivers nothing for a config without counters.
            continue;
        }
        flight.collections.push(Collection { service, config: counters });
    }
    for ((ctx, svc), slot) in enqueue.iter().zip(slots.iter_mut()) {
        invoke(
            *ctx,
            svc,
            12,
            1,
            rocprofiler_callback_phase_t::ROCPROFILER_CALLBACK_PHASE_EXIT,
            flight.correlation,
            &mut data as *mut _ as *mut c_void,
            slot,
        );
    }
    flight.start = now_ns();
    let id = flight.info.dispatch_id;
    state().in_flight.insert(id, flight);
    id
}

/// Completes a dispatch (the kernel finished now): its KERNEL_DISPATCH records, COMPLETE tracing
/// and counter results come later on the async-signal thread. Returns 0, or -1 for an unknown
/// dispatch.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_dispatch_end(dispatch_id: u64) -> i32 {
    let flight = {
        let mut st = state();
        let Some(flight) = st.in_flight.remove(&dispatch_id) else { return -1 };
        st.finished.insert(dispatch_id, (flight.serialized, flight.instrumented));
        flight
    };
    let end = now_ns().max(flight.start + 1);
    crate::signal::submit(move || complete(flight, end));
    0
}

/// Makes HSA fail to read an in-flight dispatch's timing: it completes without COMPLETE
/// callbacks and without buffer records (its counter results still come). Returns 0, or -1 for
/// an unknown dispatch.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_dispatch_fail_timing(dispatch_id: u64) -> i32 {
    match state().in_flight.get_mut(&dispatch_id) {
        Some(f) => {
            f.timing_ok = false;
            0
        }
        None => -1,
    }
}

/// What the async-signal handler does for a completed dispatch.
fn complete(flight: InFlight, end: u64) {
    let dispatch_id = flight.info.dispatch_id;
    let correlation = rocprofiler_async_correlation_id_t {
        internal: flight.correlation.internal,
        external: flight.correlation.external,
    };
    if flight.timing_ok {
        let mut data = rocprofiler_callback_tracing_kernel_dispatch_data_t {
            size: std::mem::size_of::<rocprofiler_callback_tracing_kernel_dispatch_data_t>() as u64,
            start_timestamp: flight.start,
            end_timestamp: end,
            dispatch_info: flight.info,
        };
        for (ctx, svc) in &flight.complete {
            let mut user_data = rocprofiler_user_data_t::default();
            invoke(
                *ctx,
                svc,
                12,
                2,
                rocprofiler_callback_phase_t::ROCPROFILER_CALLBACK_PHASE_NONE,
                flight.correlation,
                &mut data as *mut _ as *mut c_void,
                &mut user_data,
            );
        }
        let record = rocprofiler_buffer_tracing_kernel_dispatch_record_t {
            size: std::mem::size_of::<rocprofiler_buffer_tracing_kernel_dispatch_record_t>() as u64,
            kind: rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
            operation: rocprofiler_kernel_dispatch_operation_t::ROCPROFILER_KERNEL_DISPATCH_COMPLETE,
            correlation_id: correlation,
            thread_id: flight.thread,
            start_timestamp: flight.start,
            end_timestamp: end,
            dispatch_info: flight.info,
        };
        let mut st = state();
        let waits: Vec<_> = flight
            .tracing_buffers
            .iter()
            .filter_map(|&buffer| emplace(&mut st, buffer, Record::new(CATEGORY_TRACING, 11, &record)))
            .collect();
        drop(st);
        wait_all(waits);
    }
    let grid = flight.info.grid_size;
    let work_items = grid.x as u64 * grid.y as u64 * grid.z as u64;
    let agent = flight.info.agent_id;
    // Counter results go to the SDK's counting thread (or, while it is stopped, are delivered
    // here); buffered records carry user data 0, the record callback gets the dispatch's slot.
    for c in &flight.collections {
        let records: Vec<rocprofiler_counter_record_t> = c
            .config
            .iter()
            .flat_map(|&counter| {
                let total = agents::counter_value(counter, work_items, end - flight.start);
                agents::instance_records(counter, total)
            })
            .map(|(id, value)| rocprofiler_counter_record_t {
                id,
                counter_value: value,
                dispatch_id,
                user_data: rocprofiler_user_data_t { value: 0 },
                agent_id: agent,
            })
            .collect();
        results::add(results::Job {
            service: c.service.clone(),
            data: counting_data(&flight, flight.start, end),
            records,
            user_data: flight.user_data,
        });
    }
}

/// A dispatch from enqueue to completion (its completion reaches the tools later, on the
/// async-signal thread). Returns the dispatch id (0: not a GPU agent).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_dispatch(
    agent: u64,
    queue: u64,
    kernel_id: u64,
    grid_x: u32,
    grid_y: u32,
    grid_z: u32,
    wg_x: u32,
    wg_y: u32,
    wg_z: u32,
) -> u64 {
    let id =
        mock_rocprofiler_dispatch_begin(agent, queue, kernel_id, grid_x, grid_y, grid_z, wg_x, wg_y, wg_z);
    if id != 0 {
        mock_rocprofiler_dispatch_end(id);
    }
    id
}

/// Whether a dispatch was serialized (1/0; -1 unknown).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_dispatch_serialized(dispatch_id: u64) -> i32 {
    let st = state();
    if let Some(f) = st.in_flight.get(&dispatch_id) {
        return f.serialized as i32;
    }
    st.finished.get(&dispatch_id).map_or(-1, |&(s, _)| s as i32)
}

/// How many dispatch counting callbacks a dispatch invoked (-1 unknown).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_dispatch_instrumented(dispatch_id: u64) -> i32 {
    let st = state();
    if let Some(f) = st.in_flight.get(&dispatch_id) {
        return f.instrumented as i32;
    }
    st.finished.get(&dispatch_id).map_or(-1, |&(_, n)| n as i32)
}
