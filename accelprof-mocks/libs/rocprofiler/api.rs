//! Runtime API calls as the tool sees them: callback tracing with ENTER and EXIT on the calling
//! thread (one `rocprofiler_user_data_t` per call and context, kept from ENTER to EXIT), and an
//! API record in the buffers of contexts that trace the kind. Markers are marker-API calls whose
//! first argument is the message. Memory copies as `hsa/async_copy.cpp` reports them: ENTER on
//! the submitting thread at submit (timestamps 0), EXIT with the copy's times and its buffer
//! record later, at completion, on the async-signal thread (one user-data slot per context from
//! ENTER to EXIT; the contexts are those active at submit).

use std::cell::RefCell;
use std::ffi::{c_char, c_void, CStr};

use crate::buffers::{emplace, wait_all, Record};
use crate::names;
use crate::state::{state, CallbackService, State};
use crate::*;

pub const CATEGORY_TRACING: u32 = 1;

/// Callback services of active contexts that want (`kind`, `op`).
pub fn callback_targets(st: &State, kind: u32, op: i32) -> Vec<(u64, CallbackService)> {
    st.active_contexts()
        .filter_map(|c| {
            let svc = c.callback.get(&kind)?;
            let wanted = svc.ops.is_empty() || svc.ops.contains(&op);
            (wanted && svc.callback.is_some()).then(|| (c.handle, svc.clone()))
        })
        .collect()
}

/// Buffers of active contexts that trace (`buffer kind`, `op`).
pub fn buffer_targets(st: &State, kind: u32, op: i32) -> Vec<u64> {
    st.active_contexts()
        .filter_map(|c| {
            let svc = c.buffered.get(&kind)?;
            (svc.ops.is_empty() || svc.ops.contains(&op)).then_some(svc.buffer)
        })
        .collect()
}

/// Calls one tool callback (never with the state locked).
pub fn invoke(
    context: u64,
    svc: &CallbackService,
    kind: u32,
    op: i32,
    phase: rocprofiler_callback_phase_t,
    correlation: rocprofiler_correlation_id_t,
    payload: *mut c_void,
    user_data: *mut rocprofiler_user_data_t,
) {
    let record = rocprofiler_callback_tracing_record_t {
        context_id: rocprofiler_context_id_t { handle: context },
        thread_id: thread_id(),
        correlation_id: correlation,
        kind: rocprofiler_callback_tracing_kind_t(kind),
        operation: op,
        phase,
        payload,
    };
    if let Some(cb) = svc.callback {
        // SAFETY: the tool registered this callback with this data for this kind.
        unsafe { cb(record, user_data, svc.data.0) };
    }
}

struct Frame {
    kind: u32,
    op: i32,
    correlation: rocprofiler_correlation_id_t,
    start: u64,
    targets: Vec<(u64, CallbackService, Box<rocprofiler_user_data_t>)>,
    /// The call's payload as the callback sees it: `size`, then the arguments.
    payload: Box<[u64; 64]>,
}

thread_local! {
    static CALLS: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
}

/// Correlation of the innermost API call in progress on this thread.
pub fn current_correlation() -> Option<rocprofiler_correlation_id_t> {
    CALLS.with(|c| c.borrow().last().map(|f| f.correlation))
}

fn begin(kind: u32, op: i32, first_arg: u64) -> u64 {
    let (targets, correlation) = {
        let mut st = state();
        let ancestor = current_correlation().map_or(0, |c| c.internal);
        let internal = st.new_correlation();
        let targets = callback_targets(&st, kind, op);
        (targets, rocprofiler_correlation_id_t { internal, ancestor, ..Default::default() })
    };
    let mut payload = Box::new([0u64; 64]);
    payload[0] = 512;
    payload[1] = first_arg;
    let mut frame = Frame {
        kind,
        op,
        correlation,
        start: now_ns(),
        targets: targets.into_iter().map(|(c, s)| (c, s, Box::default())).collect(),
        payload,
    };
    let payload_ptr = frame.payload.as_mut_ptr() as *mut c_void;
    for (ctx, svc, user_data) in frame.targets.iter_mut() {
        invoke(
            *ctx,
            svc,
            kind,
            op,
            rocprofiler_callback_phase_t::ROCPROFILER_CALLBACK_PHASE_ENTER,
            correlation,
            payload_ptr,
            &mut **user_data,
        );
    }
    CALLS.with(|c| c.borrow_mut().push(frame));
    correlation.internal
}

fn end() -> u64 {
    let Some(mut frame) = CALLS.with(|c| c.borrow_mut().pop()) else { return 0 };
    let end = now_ns();
    let payload_ptr = frame.payload.as_mut_ptr() as *mut c_void;
    for (ctx, svc, user_data) in frame.targets.iter_mut() {
        invoke(
            *ctx,
            svc,
            frame.kind,
            frame.op,
            rocprofiler_callback_phase_t::ROCPROFILER_CALLBACK_PHASE_EXIT,
            frame.correlation,
            payload_ptr,
            &mut **user_data,
        );
    }
    if let Some(buffer_kind) = names::buffer_kind_of(frame.kind) {
        let mut st = state();
        let record = rocprofiler_buffer_tracing_hip_api_record_t {
            size: std::mem::size_of::<rocprofiler_buffer_tracing_hip_api_record_t>() as u64,
            kind: rocprofiler_buffer_tracing_kind_t(buffer_kind),
            operation: frame.op,
            correlation_id: frame.correlation,
            start_timestamp: frame.start,
            end_timestamp: end,
            thread_id: thread_id(),
        };
        let waits: Vec<_> = buffer_targets(&st, buffer_kind, frame.op)
            .into_iter()
            .filter_map(|buffer| {
                emplace(&mut st, buffer, Record::new(CATEGORY_TRACING, buffer_kind, &record))
            })
            .collect();
        drop(st);
        wait_all(waits);
    }
    frame.correlation.internal
}

fn valid_api(kind: u32, op: i32) -> bool {
    matches!(kind, 1..=9 | 14..=15 | 18..=19)
        && names::callback_ops(kind).is_some_and(|t| names::op_name(t, op).is_some())
}

/// Starts an API call of callback-tracing `kind` (1-9 HSA/HIP/marker, 14 RCCL, ...) and
/// operation `op` on this thread: ENTER callbacks run now. Returns its correlation id, 0 when
/// (`kind`, `op`) is not an API operation.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_api_begin(kind: u32, op: i32) -> u64 {
    if !valid_api(kind, op) {
        return 0;
    }
    begin(kind, op, 0)
}

/// Ends this thread's innermost API call: EXIT callbacks with the same user data as its ENTER,
/// then its buffer records. Returns its correlation id (0: no call in progress).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_api_end() -> u64 {
    end()
}

/// An API call from ENTER to EXIT.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_api_call(kind: u32, op: i32) -> u64 {
    if !valid_api(kind, op) {
        return 0;
    }
    begin(kind, op, 0);
    end()
}

/// A roctx marker call (`op` of `rocprofiler_marker_core_api_id_t`: 0 roctxMarkA,
/// 1 roctxRangePushA, 2 roctxRangePop, 3 roctxRangeStartA, 4 roctxRangeStop) with its message.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_marker(op: i32, message: *const c_char) -> u64 {
    if !valid_api(7, op) {
        return 0;
    }
    begin(7, op, message as u64);
    end()
}

/// A memory copy of `bytes` between two agents, `op` of `rocprofiler_memory_copy_operation_t`
/// (1 host-to-host .. 4 device-to-device), submitted now: ENTER callbacks here (timestamps 0);
/// the copy completes after the completion latency, and its EXIT callbacks and buffer records
/// come then, on the async-signal thread. Returns its correlation id (0: bad arguments).
#[no_mangle]
pub extern "C" fn mock_rocprofiler_memory_copy(op: i32, src_agent: u64, dst_agent: u64, bytes: u64) -> u64 {
    if !(1..=4).contains(&op) || !crate::agents::is_agent(src_agent) || !crate::agents::is_agent(dst_agent) {
        return 0;
    }
    let (targets, buffers, correlation) = {
        let mut st = state();
        let correlation = match current_correlation() {
            Some(c) => c,
            None => rocprofiler_correlation_id_t { internal: st.new_correlation(), ..Default::default() },
        };
        (callback_targets(&st, 13, op), buffer_targets(&st, 10, op), correlation)
    };
    let submitter = thread_id();
    let mut data = rocprofiler_callback_tracing_memory_copy_data_t {
        size: std::mem::size_of::<rocprofiler_callback_tracing_memory_copy_data_t>() as u64,
        start_timestamp: 0,
        end_timestamp: 0,
        dst_agent_id: rocprofiler_agent_id_t { handle: dst_agent },
        src_agent_id: rocprofiler_agent_id_t { handle: src_agent },
        bytes,
        ..Default::default()
    };
    // One slot per context, on the heap (moving the Vec keeps it where it is) from ENTER to EXIT.
    let mut slots: Vec<rocprofiler_user_data_t> = vec![rocprofiler_user_data_t::default(); targets.len()];
    for ((ctx, svc), slot) in targets.iter().zip(slots.iter_mut()) {
        invoke(
            *ctx,
            svc,
            13,
            op,
            rocprofiler_callback_phase_t::ROCPROFILER_CALLBACK_PHASE_ENTER,
            correlation,
            &mut data as *mut _ as *mut c_void,
            slot,
        );
    }
    let start = now_ns();
    let copy = PendingCopy { op, targets, slots, buffers, correlation, data, submitter, start };
    crate::signal::submit(move || copy.complete());
    correlation.internal
}

/// A submitted memory copy, until its completion runs on the async-signal thread.
struct PendingCopy {
    op: i32,
    targets: Vec<(u64, CallbackService)>,
    slots: Vec<rocprofiler_user_data_t>,
    buffers: Vec<u64>,
    correlation: rocprofiler_correlation_id_t,
    data: rocprofiler_callback_tracing_memory_copy_data_t,
    submitter: u64,
    start: u64,
}

// SAFETY: the pointers inside (the tool's callback data, the user-data unions) belong to the
// tool, which registered them to be handed back on the SDK's threads.
unsafe impl Send for PendingCopy {}

impl PendingCopy {
    fn complete(mut self) {
        let end = now_ns().max(self.start + 1);
        self.data.start_timestamp = self.start;
        self.data.end_timestamp = end;
        for ((ctx, svc), slot) in self.targets.iter().zip(self.slots.iter_mut()) {
            invoke(
                *ctx,
                svc,
                13,
                self.op,
                rocprofiler_callback_phase_t::ROCPROFILER_CALLBACK_PHASE_EXIT,
                self.correlation,
                &mut self.data as *mut _ as *mut c_void,
                slot,
            );
        }
        let record = rocprofiler_buffer_tracing_memory_copy_record_t {
            size: std::mem::size_of::<rocprofiler_buffer_tracing_memory_copy_record_t>() as u64,
            kind: rocprofiler_buffer_tracing_kind_t::ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
            operation: rocprofiler_memory_copy_operation_t(self.op as u32),
            correlation_id: rocprofiler_async_correlation_id_t {
                internal: self.correlation.internal,
                external: self.correlation.external,
            },
            thread_id: self.submitter,
            start_timestamp: self.start,
            end_timestamp: end,
            dst_agent_id: self.data.dst_agent_id,
            src_agent_id: self.data.src_agent_id,
            bytes: self.data.bytes,
            ..Default::default()
        };
        let mut st = state();
        let waits: Vec<_> = self
            .buffers
            .iter()
            .filter_map(|&buffer| emplace(&mut st, buffer, Record::new(CATEGORY_TRACING, 10, &record)))
            .collect();
        drop(st);
        wait_all(waits);
    }
}

/// The arguments of a traced call: marker calls that carry a message report it as argument 0
/// (`const char* message`); other operations report none.
#[no_mangle]
pub unsafe extern "C" fn rocprofiler_iterate_callback_tracing_kind_operation_args(
    record: rocprofiler_callback_tracing_record_t,
    callback: rocprofiler_callback_tracing_operation_args_cb_t,
    _max_dereference_count: i32,
    user_data: *mut c_void,
) -> rocprofiler_status_t {
    let Some(cb) = callback else { return status::INVALID_ARGUMENT };
    if names::callback_ops(record.kind.0).is_none() {
        return status::KIND_NOT_FOUND;
    }
    if record.kind.0 == 7 && matches!(record.operation, 0 | 1 | 3) && !record.payload.is_null() {
        let words = record.payload as *const u64;
        let message_addr = words.add(1) as *const c_void;
        let message = *(message_addr as *const *const c_char);
        if !message.is_null() {
            let text = CStr::from_ptr(message);
            cb(
                record.kind,
                record.operation,
                0,
                message_addr,
                1,
                c"const char*".as_ptr(),
                c"message".as_ptr(),
                text.as_ptr(),
                1,
                user_data,
            );
        }
    }
    status::SUCCESS
}
