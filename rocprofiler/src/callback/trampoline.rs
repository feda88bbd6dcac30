//! The `extern "C"` function the SDK calls for every callback tracing service, and the service it
//! finds through its `data` pointer.

use std::cell::Cell;
use std::ffi::c_void;

use accelprof_core::callback::trampoline::guard;
use accelprof_core::callback::{CallbackArgs, CorrelationSlot, Handler};
use rocprofiler_sys as sys;

use super::data::CallbackData;
use crate::ids::CallbackDomain;
use crate::library::{OperationNames, Rocprofiler};

/// What callback-tracing closures receive.
pub(crate) struct Tracing;

impl CallbackArgs for Tracing {
    type Data<'a> = CallbackData<'a>;
}

/// A configured callback service: the closure (the shared [`Handler`]: its panics counted) and
/// what the trampoline needs. Leaked when configured: the SDK has no way to remove a service, so
/// its handler is never retired and lives as long as the process (see
/// [`accelprof_core::callback::closure`]).
pub(crate) struct Service {
    pub(crate) handler: Handler<Tracing>,
    pub(crate) names: OperationNames,
    pub(crate) lib: &'static Rocprofiler,
    pub(crate) domain: CallbackDomain,
    pub(crate) context: u64,
}

/// The `extern "C"` callback of every callback service; `data` is a leaked [`Service`].
///
/// # Safety
/// Called by the SDK with the `data` the service was configured with, the record of this callback
/// and the call's user-data slot, valid for the call.
pub(crate) unsafe extern "C" fn trampoline(
    record: sys::rocprofiler_callback_tracing_record_t,
    user_data: *mut sys::rocprofiler_user_data_t,
    data: *mut c_void,
) {
    if data.is_null() || user_data.is_null() {
        return;
    }
    guard(|| {
        // SAFETY: `data` is the leaked service registered with this callback.
        let service = unsafe { &*(data as *const Service) };
        // SAFETY: the SDK's user-data slot (a union of a `u64` and a pointer, 8 bytes) is valid
        // for the callback and the same at ENTER and EXIT of a call; `Cell<u64>` has `u64`'s
        // layout.
        let cell = unsafe { &*user_data.cast::<Cell<u64>>() };
        let data = CallbackData {
            raw: &record,
            slot: CorrelationSlot::new(cell, true),
            names: &service.names,
            lib: service.lib,
        };
        // KERNEL_DISPATCH ENQUEUE runs with the queue's callback read-lock held.
        if service.domain == CallbackDomain::KERNEL_DISPATCH && record.operation == KERNEL_DISPATCH_ENQUEUE {
            crate::counters::dispatch_counting::as_queue_callback(|| service.handler.call(&data));
        } else {
            service.handler.call(&data);
        }
    });
}

/// `ROCPROFILER_KERNEL_DISPATCH_ENQUEUE`.
const KERNEL_DISPATCH_ENQUEUE: i32 =
    sys::rocprofiler_kernel_dispatch_operation_t::ROCPROFILER_KERNEL_DISPATCH_ENQUEUE.0 as i32;

// Keeps the parameter types honest against the bindings' callback type.
const _: sys::rocprofiler_callback_tracing_cb_t = Some(trampoline);
