//! Agents: the CPUs and GPUs the SDK sees.

use std::ffi::{c_void, CStr};

use rocprofiler_sys as sys;

use crate::error::{check, Error, Result};
use crate::ids::AgentId;
use crate::library::Rocprofiler;

/// CPU or GPU (any other value kept raw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    /// A CPU agent.
    Cpu,
    /// A GPU agent (the only kind counters and dispatch counting apply to).
    Gpu,
    /// A type this crate does not know.
    Other(u32),
}

/// One agent, copied out of the SDK's description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agent {
    /// The SDK's id (use it with counters and `set_agents`).
    pub id: AgentId,
    /// CPU or GPU.
    pub kind: AgentKind,
    /// KFD node id.
    pub node_id: u32,
    /// Index among agents of the same kind (GPU 0, GPU 1, ...).
    pub type_index: i32,
    /// Architecture name (`gfx942`) or CPU name.
    pub name: String,
    /// Marketing name.
    pub product_name: String,
    /// Compute units (GPUs).
    pub cu_count: u32,
    /// Wavefront size (GPUs).
    pub wave_front_size: u32,
}

impl Agent {
    /// Whether this is a GPU.
    pub fn is_gpu(&self) -> bool {
        self.kind == AgentKind::Gpu
    }
}

fn text(p: *const std::ffi::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the SDK's agent strings are NUL-terminated and live as long as the SDK.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

impl Rocprofiler {
    /// Every agent, CPUs and GPUs, in the SDK's order. The SDK reads them from the KFD topology
    /// (`/sys/class/kfd`): on a machine without the amdgpu kernel driver the list is empty, not
    /// even a CPU.
    #[doc(alias = "rocprofiler_query_available_agents")]
    pub fn agents(&self) -> Result<Vec<Agent>> {
        unsafe extern "C" fn each(
            _: sys::rocprofiler_agent_version_t,
            agents: *mut *const c_void,
            n: usize,
            data: *mut c_void,
        ) -> sys::rocprofiler_status_t {
            // SAFETY: the SDK passes `n` pointers to v0 agent structs, or (NULL, 0) when it has
            // none (no KFD: an empty vector's data); `data` is our Vec.
            let (list, out) =
                unsafe { (crate::counters::sdk_slice(agents, n), &mut *(data as *mut Vec<Agent>)) };
            for &a in list {
                // SAFETY: each pointer is a valid `rocprofiler_agent_v0_t` for the call.
                let a = unsafe { &*(a as *const sys::rocprofiler_agent_v0_t) };
                let kind = match a.type_ {
                    sys::rocprofiler_agent_type_t::ROCPROFILER_AGENT_TYPE_CPU => AgentKind::Cpu,
                    sys::rocprofiler_agent_type_t::ROCPROFILER_AGENT_TYPE_GPU => AgentKind::Gpu,
                    other => AgentKind::Other(other.0),
                };
                out.push(Agent {
                    id: AgentId(a.id.handle),
                    kind,
                    node_id: a.node_id,
                    type_index: a.logical_node_type_id,
                    name: text(a.name),
                    product_name: text(a.product_name),
                    cu_count: a.cu_count,
                    wave_front_size: a.wave_front_size,
                });
            }
            sys::rocprofiler_status_t::ROCPROFILER_STATUS_SUCCESS
        }
        let mut out: Vec<Agent> = Vec::new();
        // SAFETY: the callback matches the signature; `out` outlives the call.
        let status = unsafe {
            self.sys().rocprofiler_query_available_agents(
                sys::rocprofiler_agent_version_t::ROCPROFILER_AGENT_INFO_VERSION_0,
                Some(each),
                std::mem::size_of::<sys::rocprofiler_agent_v0_t>(),
                &mut out as *mut _ as *mut c_void,
            )
        }
        .map_err(Error::from)?;
        check(Ok(status), "rocprofiler_query_available_agents")?;
        Ok(out)
    }

    /// The GPU agents, in the SDK's order.
    pub fn gpus(&self) -> Result<Vec<Agent>> {
        Ok(self.agents()?.into_iter().filter(Agent::is_gpu).collect())
    }
}
