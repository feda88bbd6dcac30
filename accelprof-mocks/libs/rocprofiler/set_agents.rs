//! `rocprofiler_dispatch_counting_service_set_agents`, from the open per-agent-scoping pull
//! request: exported by this mock only; the mainline build (`libs/rocprofiler-mainline`), like
//! every released SDK, lacks the symbol.

use crate::agents;
use crate::state::state;
use crate::*;

/// Restricts a context's counting service to `agents`. Checked in the order the pull request's
/// implementation returns them: a NULL list with a non-zero count first (before the context is
/// even looked up), then CONTEXT_INVALID, CONTEXT_NOT_FOUND (no counting service),
/// CONFIGURATION_LOCKED (active), AGENT_NOT_FOUND (an entry that is not a GPU agent). A failed
/// call leaves the previous set; `(NULL, 0)` restores every agent.
#[no_mangle]
pub unsafe extern "C" fn rocprofiler_dispatch_counting_service_set_agents(
    context_id: rocprofiler_context_id_t,
    agents: *const rocprofiler_agent_id_t,
    num_agents: usize,
) -> rocprofiler_status_t {
    if agents.is_null() && num_agents > 0 {
        return status::INVALID_ARGUMENT;
    }
    let mut st = state();
    let Some(ctx) = st.context_mut(context_id.handle) else { return status::CONTEXT_INVALID };
    if ctx.counting.is_empty() {
        return status::CONTEXT_NOT_FOUND;
    }
    if ctx.active {
        return status::CONFIGURATION_LOCKED;
    }
    if num_agents == 0 {
        ctx.agents = None;
        return status::SUCCESS;
    }
    let list = std::slice::from_raw_parts(agents, num_agents);
    if list.iter().any(|a| !agents::is_gpu(a.handle)) {
        return status::AGENT_NOT_FOUND;
    }
    let mut set: Vec<u64> = list.iter().map(|a| a.handle).collect();
    set.sort_unstable();
    set.dedup();
    ctx.agents = Some(set);
    status::SUCCESS
}
