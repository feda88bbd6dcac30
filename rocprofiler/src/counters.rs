//! Counters a GPU agent supports, and counter configs (which counters to collect).

use std::ffi::{c_void, CStr};

use rocprofiler_sys as sys;

use crate::error::{call, check, Error, Result};
use crate::ids::{AgentId, CounterConfigId, CounterId};
use crate::library::Rocprofiler;

/// A counter's description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counter {
    /// Its id (the same id may mean the same counter on GPUs of one architecture).
    pub id: CounterId,
    /// Name (`SQ_WAVES`).
    pub name: String,
    /// Description.
    pub description: String,
    /// Hardware block (`SQ`), empty for derived counters.
    pub block: String,
    /// Expression of a derived counter, empty for hardware counters.
    pub expression: String,
    /// Whether it is computed from other counters.
    pub is_derived: bool,
}

fn text(p: *const std::ffi::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the SDK's counter strings are NUL-terminated and live as long as the SDK.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

impl Rocprofiler {
    /// The counters a GPU agent supports (a CPU agent is `AgentNotFound`).
    #[doc(alias = "rocprofiler_iterate_agent_supported_counters")]
    pub fn counters(&self, agent: AgentId) -> Result<Vec<Counter>> {
        unsafe extern "C" fn each(
            _: sys::rocprofiler_agent_id_t,
            ids: *mut sys::rocprofiler_counter_id_t,
            n: usize,
            data: *mut c_void,
        ) -> sys::rocprofiler_status_t {
            // SAFETY: the SDK passes `n` ids; `data` is our Vec.
            let (ids, out) =
                unsafe { (std::slice::from_raw_parts(ids, n), &mut *(data as *mut Vec<CounterId>)) };
            out.extend(ids.iter().map(|c| CounterId(c.handle)));
            sys::rocprofiler_status_t::ROCPROFILER_STATUS_SUCCESS
        }
        let mut ids: Vec<CounterId> = Vec::new();
        // SAFETY: the callback matches the signature; `ids` outlives the call.
        let status = unsafe {
            self.sys().rocprofiler_iterate_agent_supported_counters(
                sys::rocprofiler_agent_id_t { handle: agent.0 },
                Some(each),
                &mut ids as *mut _ as *mut c_void,
            )
        }
        .map_err(Error::from)?;
        check(status)?;
        ids.into_iter().map(|id| self.counter_info(id)).collect()
    }

    /// A counter's description.
    #[doc(alias = "rocprofiler_query_counter_info")]
    pub fn counter_info(&self, id: CounterId) -> Result<Counter> {
        let mut info = sys::rocprofiler_counter_info_v0_t::default();
        // SAFETY: `info` is a v0 struct, as the version asks.
        call(unsafe {
            self.sys().rocprofiler_query_counter_info(
                sys::rocprofiler_counter_id_t { handle: id.0 },
                sys::rocprofiler_counter_info_version_id_t::ROCPROFILER_COUNTER_INFO_VERSION_0,
                &mut info as *mut _ as *mut c_void,
            )
        })?;
        Ok(Counter {
            id,
            name: text(info.name),
            description: text(info.description),
            block: text(info.block),
            expression: text(info.expression),
            is_derived: info.is_derived() != 0,
        })
    }

    /// The counter a record's instance id belongs to.
    #[doc(alias = "rocprofiler_query_record_counter_id")]
    pub fn record_counter(&self, instance_id: u64) -> Result<CounterId> {
        let mut id = sys::rocprofiler_counter_id_t { handle: 0 };
        // SAFETY: valid out-pointer.
        call(unsafe { self.sys().rocprofiler_query_record_counter_id(instance_id, &mut id) })?;
        Ok(CounterId(id.handle))
    }

    /// A config collecting `counters` on `agent`. Allowed at any time, including inside a
    /// dispatch counting callback.
    #[doc(alias = "rocprofiler_create_counter_config")]
    pub fn counter_config(&self, agent: AgentId, counters: &[CounterId]) -> Result<CounterConfigId> {
        let mut list: Vec<sys::rocprofiler_counter_id_t> =
            counters.iter().map(|c| sys::rocprofiler_counter_id_t { handle: c.0 }).collect();
        let mut id = sys::rocprofiler_counter_config_id_t { handle: 0 };
        // SAFETY: `list` holds `len` ids; `id` is a valid out-pointer.
        call(unsafe {
            self.sys().rocprofiler_create_counter_config(
                sys::rocprofiler_agent_id_t { handle: agent.0 },
                list.as_mut_ptr(),
                list.len(),
                &mut id,
            )
        })?;
        Ok(CounterConfigId(id.handle))
    }

    /// A config collecting the counters named `names` on `agent`.
    pub fn counter_config_by_name(&self, agent: AgentId, names: &[&str]) -> Result<CounterConfigId> {
        let all = self.counters(agent)?;
        let ids = names
            .iter()
            .map(|n| all.iter().find(|c| c.name == *n).map(|c| c.id).ok_or(Error::CounterNotFound))
            .collect::<Result<Vec<_>>>()?;
        self.counter_config(agent, &ids)
    }
}
