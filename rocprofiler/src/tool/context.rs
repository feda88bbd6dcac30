//! Contexts: the unit a tool starts and stops. Created only inside the configure window (see
//! [`Configurator::create_context`](crate::Configurator::create_context)); the SDK has no way to
//! destroy one.

use rocprofiler_sys as sys;

use crate::error::{check, Error, Result};
use crate::ids::AgentId;
use crate::library::Rocprofiler;

/// A context. Starting and stopping are allowed at any time before finalization.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    pub(crate) id: u64,
    pub(crate) lib: &'static Rocprofiler,
}

impl PartialEq for Context {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Context {}

impl Context {
    /// The SDK's handle.
    pub fn id(&self) -> u64 {
        self.id
    }

    pub(crate) fn raw(&self) -> sys::rocprofiler_context_id_t {
        sys::rocprofiler_context_id_t { handle: self.id }
    }

    /// Starts collecting. Starting an active context again is a no-op. A context with a dispatch
    /// counting service fails with [`Error::ContextConflict`] while another active counting
    /// context claims one of its agents (both unrestricted, or overlapping `set_agents` sets).
    ///
    /// Refused with [`Error::WouldDeadlock`], before the SDK is called, where the SDK would wait
    /// for itself: inside a dispatch counting closure (`choose`) or a KERNEL_DISPATCH ENQUEUE
    /// tracing closure (the SDK holds the queue's callback read-lock there, and the first start
    /// of a counting context takes it for writing), and inside a counting record closure
    /// (`results`: when the SDK delivers results on the completing thread it holds its
    /// consumer's mutex, which starting a counting context takes).
    #[doc(alias = "rocprofiler_start_context")]
    pub fn start(&self) -> Result<()> {
        if crate::counters::dispatch_counting::in_queue_callback() {
            return Err(Error::WouldDeadlock(
                "starting a context from a dispatch counting or KERNEL_DISPATCH ENQUEUE closure (the SDK \
                 holds the queue's callback read-lock there; starting a counting context takes it for writing)",
            ));
        }
        if crate::counters::dispatch_counting::in_results() {
            return Err(Error::WouldDeadlock(
                "starting a context from a counting record closure (results delivered on the completing \
                 thread hold the SDK's consumer mutex, which starting a counting context takes)",
            ));
        }
        // SAFETY: a plain id.
        check(unsafe { self.lib.sys().rocprofiler_start_context(self.raw()) }, "rocprofiler_start_context")?;
        crate::tool::started_in_setup(*self);
        Ok(())
    }

    /// Stops collecting. Stopping a context that is not active is a no-op here (the SDK itself
    /// reports `CONTEXT_NOT_FOUND` for it).
    ///
    /// For a context with a dispatch counting service this is the drain of counter results:
    /// it returns once the SDK's counting thread has delivered the results of the dispatches
    /// that had completed (buffered ones are then in their buffer, for
    /// [`Buffer::flush`](crate::Buffer::flush)); the SDK's counting thread is shared, so this
    /// drains every counting context's results. Dispatches still running deliver theirs when
    /// they complete. Kernel and copy completions (records, COMPLETE and EXIT callbacks) come
    /// on HSA's async-signal thread some time after the work ran; the stop first waits for those
    /// of work enqueued before it (the SDK's queue sync, bounded in the newest SDKs).
    ///
    /// Not from inside a counting record closure (it runs on that thread), nor from a dispatch
    /// counting or KERNEL_DISPATCH ENQUEUE closure (the SDK holds the queue's callback lock
    /// there): [`Error::WouldDeadlock`].
    #[doc(alias = "rocprofiler_stop_context")]
    pub fn stop(&self) -> Result<()> {
        if crate::counters::dispatch_counting::in_queue_callback() {
            return Err(Error::WouldDeadlock(
                "stopping a context from a dispatch counting or KERNEL_DISPATCH ENQUEUE closure (the SDK \
                 holds the queue's callback lock there)",
            ));
        }
        if crate::counters::dispatch_counting::in_results() {
            return Err(Error::WouldDeadlock(
                "stopping a context from a counting record closure (the stop waits for the SDK's \
                 counting thread, which is running the closure)",
            ));
        }
        match check(
            // SAFETY: a plain id.
            unsafe { self.lib.sys().rocprofiler_stop_context(self.raw()) },
            "rocprofiler_stop_context",
        ) {
            Err(Error::ContextNotFound) if self.is_valid()? => Ok(()),
            other => other,
        }
    }

    /// Whether the context is active.
    #[doc(alias = "rocprofiler_context_is_active")]
    pub fn is_active(&self) -> Result<bool> {
        let mut s = 0;
        check(
            // SAFETY: valid out-pointer.
            unsafe { self.lib.sys().rocprofiler_context_is_active(self.raw(), &mut s) },
            "rocprofiler_context_is_active",
        )?;
        Ok(s != 0)
    }

    /// Whether the SDK knows this context (false once a tool that declined lost it).
    #[doc(alias = "rocprofiler_context_is_valid")]
    pub fn is_valid(&self) -> Result<bool> {
        let mut s = 0;
        match check(
            // SAFETY: valid out-pointer.
            unsafe { self.lib.sys().rocprofiler_context_is_valid(self.raw(), &mut s) },
            "rocprofiler_context_is_valid",
        ) {
            Ok(()) => Ok(s != 0),
            Err(Error::ContextNotFound) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Restricts this context's dispatch counting service to the GPU agents `agents`: dispatches
    /// on other agents are neither instrumented nor serialized, and two contexts with disjoint
    /// sets may count at the same time. Each call replaces the previous set; an empty slice
    /// restores the default of every GPU agent; a failed call leaves the previous set.
    ///
    /// Allowed after the service is configured and while the context is stopped (also after
    /// the configure window); while it is active: [`Error::ConfigurationLocked`]. Without a
    /// counting service: [`Error::ContextNotFound`]. A non-GPU agent: [`Error::AgentNotFound`].
    ///
    /// No released rocprofiler-sdk has the function yet (it is in an open pull request): there
    /// this returns [`Error::PerAgentScopingUnavailable`] and the context keeps counting on every
    /// GPU agent ([`Rocprofiler::has_per_agent_scoping`](crate::Rocprofiler::has_per_agent_scoping)
    /// tells beforehand).
    #[doc(alias = "rocprofiler_dispatch_counting_service_set_agents")]
    pub fn set_counting_agents(&self, agents: &[AgentId]) -> Result<()> {
        let list: Vec<sys::rocprofiler_agent_id_t> =
            agents.iter().map(|a| sys::rocprofiler_agent_id_t { handle: a.0 }).collect();
        let ptr = if list.is_empty() { std::ptr::null() } else { list.as_ptr() };
        // SAFETY: `ptr` points to `len` ids (or is NULL with 0); the SDK checks each id.
        match unsafe {
            self.lib.sys().rocprofiler_dispatch_counting_service_set_agents(self.raw(), ptr, list.len())
        } {
            Ok(status) => check(Ok(status), "rocprofiler_dispatch_counting_service_set_agents"),
            Err(missing) => Err(Error::PerAgentScopingUnavailable(missing)),
        }
    }

    /// Restores counting on every GPU agent (`set_agents(ctx, NULL, 0)`). On an SDK without
    /// per-agent scoping every context counts on every GPU agent already: `Ok(())` without a
    /// call.
    pub fn count_on_all_agents(&self) -> Result<()> {
        match self.set_counting_agents(&[]) {
            Err(Error::PerAgentScopingUnavailable(_)) => Ok(()),
            other => other,
        }
    }
}
