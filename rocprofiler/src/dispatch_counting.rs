//! Dispatch counting: before each kernel is enqueued on an agent of the context's set, a closure
//! picks which counters to collect for it (or none); the values arrive in a buffer (decoded into
//! counter columns) or through a second closure when the kernel completes.
//!
//! While a counting context is active the SDK serializes kernels on every agent of its set, even
//! for dispatches the closure declines: narrow the set with
//! [`Context::set_counting_agents`](crate::Context::set_counting_agents).

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};

use rocprofiler_sys as sys;

use crate::callback_tracing::DispatchInfo;
use crate::ids::{AgentId, Correlation, CounterConfigId, CounterId};
use crate::library::Rocprofiler;

/// A dispatch about to be enqueued: choose its counters with [`collect`](Self::collect).
pub struct CountingRequest<'a> {
    data: &'a sys::rocprofiler_dispatch_counting_service_data_t,
    config: &'a mut sys::rocprofiler_counter_config_id_t,
    user_data: &'a mut sys::rocprofiler_user_data_t,
    lib: &'static Rocprofiler,
}

impl std::fmt::Debug for CountingRequest<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CountingRequest").field("info", &self.info()).finish_non_exhaustive()
    }
}

impl CountingRequest<'_> {
    /// The dispatch: agent, kernel, grid.
    pub fn info(&self) -> DispatchInfo {
        (&self.data.dispatch_info).into()
    }

    /// The correlation ids of the call that launched it.
    pub fn correlation(&self) -> Correlation {
        // SAFETY: reading the u64 member of the external-id union is always valid.
        let external = unsafe { self.data.correlation_id.external.value };
        Correlation { internal: self.data.correlation_id.internal, external, ancestor: 0 }
    }

    /// Collect the counters of `config` (made for this dispatch's agent) for this dispatch.
    /// Not calling it declines: nothing is collected, but the dispatch is still serialized.
    pub fn collect(&mut self, config: CounterConfigId) {
        self.config.handle = config.0;
    }

    /// A value handed back with this dispatch's results (the record callback's `user_data`, and
    /// each buffered counter record's).
    pub fn user_data(&mut self) -> &mut u64 {
        // SAFETY: the u64 member covers the whole union.
        unsafe { &mut self.user_data.value }
    }

    /// The SDK, for making counter configs lazily (allowed here).
    pub fn rocprofiler(&self) -> &'static Rocprofiler {
        self.lib
    }
}

/// One counter value of a completed dispatch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CounterValue {
    /// The counter.
    pub counter: CounterId,
    /// The instance (dimension position) id, as the SDK encodes it.
    pub instance: u64,
    /// The value.
    pub value: f64,
    /// The agent it was read on.
    pub agent: AgentId,
}

/// The counters collected for one completed dispatch (callback form).
#[derive(Clone, Debug, PartialEq)]
pub struct CountingResult {
    /// The dispatch.
    pub info: DispatchInfo,
    /// The correlation ids of the call that launched it.
    pub correlation: Correlation,
    /// Start (ns, SDK clock).
    pub start: u64,
    /// End (ns, SDK clock).
    pub end: u64,
    /// What the request stored in [`CountingRequest::user_data`].
    pub user_data: u64,
    /// The values, one per counter instance.
    pub values: Vec<CounterValue>,
}

pub(crate) type DispatchFn = Box<dyn Fn(&mut CountingRequest<'_>) + Send + Sync>;
pub(crate) type RecordFn = Box<dyn Fn(&CountingResult) + Send + Sync>;

/// The closures of one counting service; leaked when registered (no SDK call removes one).
pub(crate) struct CountingService {
    pub(crate) dispatch: DispatchFn,
    pub(crate) record: Option<RecordFn>,
    pub(crate) lib: &'static Rocprofiler,
    pub(crate) panics: AtomicU64,
}

pub(crate) unsafe extern "C" fn dispatch_trampoline(
    data: sys::rocprofiler_dispatch_counting_service_data_t,
    config: *mut sys::rocprofiler_counter_config_id_t,
    user_data: *mut sys::rocprofiler_user_data_t,
    args: *mut c_void,
) {
    if args.is_null() || config.is_null() || user_data.is_null() {
        return;
    }
    // SAFETY: `args` is the leaked service registered with this callback.
    let service = unsafe { &*(args as *const CountingService) };
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the SDK's out-parameters are valid for the callback.
        let (config, user_data) = unsafe { (&mut *config, &mut *user_data) };
        let mut req = CountingRequest { data: &data, config, user_data, lib: service.lib };
        (service.dispatch)(&mut req);
    }));
    if result.is_err() {
        // A panicking closure collects nothing for this dispatch.
        // SAFETY: as above.
        unsafe { (*config).handle = 0 };
        service.panics.fetch_add(1, Ordering::Relaxed);
    }
}

pub(crate) unsafe extern "C" fn record_trampoline(
    data: sys::rocprofiler_dispatch_counting_service_data_t,
    records: *mut sys::rocprofiler_counter_record_t,
    count: usize,
    user_data: sys::rocprofiler_user_data_t,
    args: *mut c_void,
) {
    if args.is_null() {
        return;
    }
    // SAFETY: `args` is the leaked service registered with this callback.
    let service = unsafe { &*(args as *const CountingService) };
    let Some(record) = service.record.as_ref() else { return };
    let result = catch_unwind(AssertUnwindSafe(|| {
        let raw = if records.is_null() || count == 0 {
            &[][..]
        } else {
            // SAFETY: the SDK passes `count` records valid for the call.
            unsafe { std::slice::from_raw_parts(records, count) }
        };
        let values = raw
            .iter()
            .map(|r| CounterValue {
                counter: service.lib.record_counter(r.id).unwrap_or_default(),
                instance: r.id,
                value: r.counter_value,
                agent: AgentId(r.agent_id.handle),
            })
            .collect();
        // SAFETY: reading the u64 members of the unions is always valid.
        let (external, user) = unsafe { (data.correlation_id.external.value, user_data.value) };
        let result = CountingResult {
            info: (&data.dispatch_info).into(),
            correlation: Correlation { internal: data.correlation_id.internal, external, ancestor: 0 },
            start: data.start_timestamp,
            end: data.end_timestamp,
            user_data: user,
            values,
        };
        record(&result);
    }));
    if result.is_err() {
        service.panics.fetch_add(1, Ordering::Relaxed);
    }
}
