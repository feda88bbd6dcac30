//! Dispatch counting: before each kernel is enqueued on an agent of the context's set, a closure
//! picks which counters to collect for it (or none); the values arrive in a buffer (decoded into
//! counter columns) or through a second closure.
//!
//! When results arrive: later, on the SDK's own counting thread, not on the thread that
//! launched the kernel nor right after the kernel completed. Nothing tells a tool when; the
//! one drain is [`Context::stop`](crate::Context::stop), which returns once the results of the
//! dispatches that had completed were delivered (buffered results are then in the buffer:
//! [`Buffer::flush`](crate::Buffer::flush) hands them to the consumers). A kernel still running
//! when its context stops delivers its results when it completes (the SDK keeps the contexts a
//! dispatch was enqueued with). At finalization the SDK stops a tool's contexts before this
//! crate flushes its buffers, so [`Tool::finalize`](crate::Tool::finalize) sees every result.
//!
//! Each counter gives one value per *dimension instance* (per XCC, shader engine, ...; see
//! [`Rocprofiler::counter_dimensions`](crate::Rocprofiler::counter_dimensions)): the callback
//! form hands every instance ([`CounterValue::instance`]); the buffered form's counter rows sum
//! a counter's instances into one row per (dispatch, counter), as rocprofv3 reports them.
//!
//! While a counting context is active the SDK serializes kernels on every agent of its set, even
//! for dispatches the closure declines: narrow the set with
//! [`Context::set_counting_agents`](crate::Context::set_counting_agents) where the SDK has it.

use std::cell::Cell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};

use rocprofiler_sys as sys;

use crate::callback::DispatchInfo;
use crate::counters::{sdk_slice, CounterConfigs};
use crate::error::Result;
use crate::ids::{AgentId, Correlation, CounterId};
use crate::library::Rocprofiler;

/// A dispatch about to be enqueued: choose its counters with [`collect`](Self::collect).
///
/// Every counting callback of every active context that counts on the dispatch's agent sees the
/// same dispatch, in turn, with the same [`user_data`](Self::user_data) slot.
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

    /// The GPU the dispatch runs on.
    pub fn agent(&self) -> AgentId {
        AgentId(self.data.dispatch_info.agent_id.handle)
    }

    /// The correlation ids of the call that launched it.
    pub fn correlation(&self) -> Correlation {
        // SAFETY: reading the u64 member of the external-id union is always valid.
        let external = unsafe { self.data.correlation_id.external.value };
        Correlation { internal: self.data.correlation_id.internal, external, ancestor: 0 }
    }

    /// Collects, for this dispatch, the counters of `configs`' config for the dispatch's agent
    /// (made now for a [`CounterConfigs::by_name`]). `Ok(false)`: `configs` has none for this
    /// agent and nothing is collected. An error: the SDK refused to make the agent's config;
    /// nothing is collected. Not calling it declines: nothing is collected, but the dispatch is
    /// still serialized. Only a config made for this dispatch's agent can be chosen.
    pub fn collect(&mut self, configs: &CounterConfigs) -> Result<bool> {
        match configs.for_agent(self.lib, self.agent())? {
            Some(config) if config.agent() == self.agent() => {
                self.config.handle = config.handle();
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The dispatch's user-data slot: zero before the first counting callback, shared by every
    /// counting callback of this dispatch (each sees what the ones before it stored), and handed
    /// back with the results of the callback form ([`CountingResult::user_data`]). Buffered
    /// counter records do not carry it (the SDK writes 0 there).
    pub fn user_data(&mut self) -> &mut u64 {
        // SAFETY: the u64 member covers the whole union.
        unsafe { &mut self.user_data.value }
    }

    /// The SDK, for counter lookups (allowed here).
    pub fn rocprofiler(&self) -> &'static Rocprofiler {
        self.lib
    }
}

/// One counter value of a completed dispatch: one dimension instance of one counter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CounterValue {
    /// The counter.
    pub counter: CounterId,
    /// The record's instance id: which dimension instance this is (read positions with
    /// [`Rocprofiler::dimension_position`](crate::Rocprofiler::dimension_position)).
    pub instance: u64,
    /// The value of this instance.
    pub value: f64,
    /// The agent it was read on.
    pub agent: AgentId,
}

/// The counters collected for one completed dispatch (callback form), delivered on the SDK's
/// counting thread some time after the dispatch completed (see the module documentation).
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
    /// The dispatch's user-data slot as its counting callbacks left it.
    pub user_data: u64,
    /// The values, one per dimension instance of each collected counter.
    pub values: Vec<CounterValue>,
}

impl CountingResult {
    /// The values of one counter summed over its dimension instances.
    pub fn total(&self, counter: CounterId) -> Option<f64> {
        let mut found = self.values.iter().filter(|v| v.counter == counter).peekable();
        found.peek()?;
        Some(found.map(|v| v.value).sum())
    }
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

thread_local! {
    /// Set while a record closure runs on the SDK's counting thread: stopping a context from
    /// there makes that thread wait for itself.
    static IN_RESULTS: Cell<bool> = const { Cell::new(false) };
}

/// Whether the calling thread is inside a counting record closure.
pub(crate) fn in_results() -> bool {
    IN_RESULTS.with(Cell::get)
}

thread_local! {
    /// Set while a dispatch counting closure or a KERNEL_DISPATCH ENQUEUE tracing closure runs:
    /// the SDK holds the queue's callback read-lock there.
    static IN_QUEUE_CALLBACK: Cell<bool> = const { Cell::new(false) };
}

/// Whether the calling thread is inside the enqueue callbacks of a dispatch.
pub(crate) fn in_queue_callback() -> bool {
    IN_QUEUE_CALLBACK.with(Cell::get)
}

/// Runs `f` marked as inside the enqueue callbacks of a dispatch.
pub(crate) fn as_queue_callback<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            IN_QUEUE_CALLBACK.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(IN_QUEUE_CALLBACK.with(|c| c.replace(true)));
    f()
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
    let result = as_queue_callback(|| {
        catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: the SDK's out-parameters are valid for the callback.
            let (config, user_data) = unsafe { (&mut *config, &mut *user_data) };
            let mut req = CountingRequest { data: &data, config, user_data, lib: service.lib };
            (service.dispatch)(&mut req);
        }))
    });
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
    let was = IN_RESULTS.with(|f| f.replace(true));
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the SDK passes `count` records valid for the call (or NULL, 0).
        let raw = unsafe { sdk_slice(records, count) };
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
    IN_RESULTS.with(|f| f.set(was));
    if result.is_err() {
        service.panics.fetch_add(1, Ordering::Relaxed);
    }
}
