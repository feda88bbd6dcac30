//! Counters a GPU agent supports, their dimensions, and counter configs (which counters to
//! collect on one agent).
//!
//! A counter's results are not one value per dispatch: the SDK reports one record per
//! *dimension instance* (per XCC, shader engine, cache instance, ...). [`Dimension`]s come from
//! the SDK ([`Rocprofiler::counter_dimensions`]) and are the only thing
//! [`Rocprofiler::dimension_position`] accepts: the SDK shifts by the dimension id without a
//! bound, so no other value may reach it.
//!
//! Counter configs cannot be forged, destroyed or used on another agent: a [`CounterConfig`] is
//! made only by the SDK, lives as long as the process (the SDK's dispatch path looks a chosen id
//! up with `map.at` after the dispatch callback returned; a destroyed or unknown id crashes it),
//! and reaches a dispatch only through [`CounterConfigs`], which holds at most one config per
//! agent, keyed by the config's own agent:
//! [`CountingRequest::collect`](crate::CountingRequest::collect) picks the one of the
//! dispatch's agent.
//!
//! ```compile_fail
//! // A config id cannot be made up:
//! let forged = rocprofiler::CounterConfig { id: 7, agent: rocprofiler::AgentId(1) };
//! ```

use std::collections::HashMap;
use std::ffi::{c_void, CStr};
use std::sync::RwLock;

use rocprofiler_sys as sys;

use crate::error::{check, Error, Result};
use crate::ids::{AgentId, CounterId};
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

/// One dimension of a counter's results (`DIMENSION_XCC`, `DIMENSION_SHADER_ENGINE`, ...): a
/// counter has one record per combination of its dimensions' positions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dimension {
    /// The SDK's id; private, so only ids the SDK reported reach
    /// `rocprofiler_query_record_dimension_position`.
    id: u64,
    /// The SDK's name for it (`"DIMENSION_XCC"`).
    pub name: String,
    /// How many positions it has.
    pub instances: usize,
}

impl Dimension {
    /// The SDK's dimension id (`rocprofiler_counter_dimension_id_t`).
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// A counter config: which counters to collect on one agent, made by the SDK
/// ([`Rocprofiler::counter_config`]). It is never destroyed (an id the SDK no longer knows
/// crashes its dispatch path), so it is valid for the life of the process; it cannot be built
/// from a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CounterConfig {
    id: u64,
    agent: AgentId,
}

impl CounterConfig {
    /// The agent it was made for (the only agent it can collect on).
    pub fn agent(&self) -> AgentId {
        self.agent
    }

    /// The SDK's handle (`rocprofiler_counter_config_id_t`), for logs.
    pub fn handle(&self) -> u64 {
        self.id
    }
}

/// Counter configs by agent, for [`CountingRequest::collect`](crate::CountingRequest::collect):
/// at most one per agent, keyed by the config's own agent, so a dispatch only ever gets a config
/// made for its agent. Made empty ([`new`](Self::new), filled with [`insert`](Self::insert)) or
/// from counter names ([`by_name`](Self::by_name)), in which case an agent's config is made the
/// first time a dispatch on it asks (inside the dispatch callback, where the real SDK can build
/// it: during tool setup HSA is not loaded yet).
#[derive(Debug, Default)]
pub struct CounterConfigs {
    by_agent: RwLock<HashMap<u64, CounterConfig>>,
    names: Option<Vec<String>>,
}

impl CounterConfigs {
    /// No configs: dispatches collect nothing until configs are [`insert`](Self::insert)ed.
    pub fn new() -> CounterConfigs {
        CounterConfigs::default()
    }

    /// The counters named `names` on every agent that asks, each agent's config made on first use.
    pub fn by_name(names: &[&str]) -> CounterConfigs {
        CounterConfigs {
            by_agent: RwLock::default(),
            names: Some(names.iter().map(|n| n.to_string()).collect()),
        }
    }

    /// Adds `config` for its agent, replacing (and returning) the one that agent had.
    pub fn insert(&self, config: CounterConfig) -> Option<CounterConfig> {
        self.by_agent.write().unwrap_or_else(|e| e.into_inner()).insert(config.agent.0, config)
    }

    /// The config of `agent`, if one was made or inserted.
    pub fn get(&self, agent: AgentId) -> Option<CounterConfig> {
        self.by_agent.read().unwrap_or_else(|e| e.into_inner()).get(&agent.0).copied()
    }

    /// The config of `agent`: the one held, else (for [`by_name`](Self::by_name)) a new one made
    /// now; `Ok(None)` when there is none to make.
    pub fn for_agent(&self, lib: &Rocprofiler, agent: AgentId) -> Result<Option<CounterConfig>> {
        if let Some(c) = self.get(agent) {
            return Ok(Some(c));
        }
        let Some(names) = &self.names else { return Ok(None) };
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let made = lib.counter_config_by_name(agent, &names)?;
        let mut map = self.by_agent.write().unwrap_or_else(|e| e.into_inner());
        // Another thread may have made one meanwhile: keep the first (both stay valid).
        Ok(Some(*map.entry(agent.0).or_insert(made)))
    }
}

fn text(p: *const std::ffi::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the SDK's counter strings are NUL-terminated and live as long as the SDK.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The slice an SDK callback hands over as (pointer, count): empty for `(NULL, 0)` (an empty
/// vector's data), which `slice::from_raw_parts` must never see.
///
/// # Safety
/// When `n > 0`, `p` points to `n` valid `T`s for the lifetime the caller picks.
pub(crate) unsafe fn sdk_slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}

impl Rocprofiler {
    /// The counters a GPU agent supports. A CPU agent: [`Error::AgentArchNotSupported`]; an id
    /// the SDK does not know: [`Error::AgentNotFound`].
    #[doc(alias = "rocprofiler_iterate_agent_supported_counters")]
    pub fn counters(&self, agent: AgentId) -> Result<Vec<Counter>> {
        unsafe extern "C" fn each(
            _: sys::rocprofiler_agent_id_t,
            ids: *mut sys::rocprofiler_counter_id_t,
            n: usize,
            data: *mut c_void,
        ) -> sys::rocprofiler_status_t {
            // SAFETY: the SDK passes `n` ids (or NULL, 0); `data` is our Vec.
            let (ids, out) = unsafe { (sdk_slice(ids, n), &mut *(data as *mut Vec<CounterId>)) };
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
        check(Ok(status), "rocprofiler_iterate_agent_supported_counters")?;
        ids.into_iter().map(|id| self.counter_info(id)).collect()
    }

    /// A counter's description.
    #[doc(alias = "rocprofiler_query_counter_info")]
    pub fn counter_info(&self, id: CounterId) -> Result<Counter> {
        let mut info = sys::rocprofiler_counter_info_v0_t::default();
        check(
            // SAFETY: `info` is a v0 struct, as the version asks; the SDK looks the id up in a map.
            unsafe {
                self.sys().rocprofiler_query_counter_info(
                    sys::rocprofiler_counter_id_t { handle: id.0 },
                    sys::rocprofiler_counter_info_version_id_t::ROCPROFILER_COUNTER_INFO_VERSION_0,
                    &mut info as *mut _ as *mut c_void,
                )
            },
            "rocprofiler_query_counter_info",
        )?;
        Ok(Counter {
            id,
            name: text(info.name),
            description: text(info.description),
            block: text(info.block),
            expression: text(info.expression),
            is_derived: info.is_derived() != 0,
        })
    }

    /// The dimensions of a counter's results, in the SDK's order.
    #[doc(alias = "rocprofiler_iterate_counter_dimensions")]
    pub fn counter_dimensions(&self, counter: CounterId) -> Result<Vec<Dimension>> {
        unsafe extern "C" fn each(
            _: sys::rocprofiler_counter_id_t,
            dims: *const sys::rocprofiler_counter_record_dimension_info_t,
            n: usize,
            data: *mut c_void,
        ) -> sys::rocprofiler_status_t {
            // SAFETY: the SDK passes `n` dimension infos (or NULL, 0); `data` is our Vec.
            let (dims, out) = unsafe { (sdk_slice(dims, n), &mut *(data as *mut Vec<Dimension>)) };
            out.extend(dims.iter().map(|d| Dimension {
                id: d.id,
                name: text(d.name),
                instances: d.instance_size,
            }));
            sys::rocprofiler_status_t::ROCPROFILER_STATUS_SUCCESS
        }
        let mut out: Vec<Dimension> = Vec::new();
        check(
            // SAFETY: the callback matches the signature; `out` outlives the call.
            unsafe {
                self.sys().rocprofiler_iterate_counter_dimensions(
                    sys::rocprofiler_counter_id_t { handle: counter.0 },
                    Some(each),
                    &mut out as *mut _ as *mut c_void,
                )
            },
            "rocprofiler_iterate_counter_dimensions",
        )?;
        Ok(out)
    }

    /// How many records (dimension instances) a counter gives per dispatch. The SDK does not
    /// look at the agent.
    #[doc(alias = "rocprofiler_query_counter_instance_count")]
    pub fn counter_instance_count(&self, agent: AgentId, counter: CounterId) -> Result<usize> {
        let mut n = 0usize;
        check(
            // SAFETY: a valid out-pointer; plain ids (looked up in a map).
            unsafe {
                self.sys().rocprofiler_query_counter_instance_count(
                    sys::rocprofiler_agent_id_t { handle: agent.0 },
                    sys::rocprofiler_counter_id_t { handle: counter.0 },
                    &mut n,
                )
            },
            "rocprofiler_query_counter_instance_count",
        )?;
        Ok(n)
    }

    /// The position of a record (its instance id, [`CounterValue::instance`](crate::CounterValue::instance))
    /// along one of its counter's dimensions.
    #[doc(alias = "rocprofiler_query_record_dimension_position")]
    pub fn dimension_position(&self, instance: u64, dimension: &Dimension) -> Result<usize> {
        let mut pos = 0usize;
        check(
            // SAFETY: a valid out-pointer; the dimension id is one the SDK reported (the SDK shifts
            // by it without a bound, so no other value is passed).
            unsafe {
                self.sys().rocprofiler_query_record_dimension_position(instance, dimension.id, &mut pos)
            },
            "rocprofiler_query_record_dimension_position",
        )?;
        Ok(pos)
    }

    /// The counter a record's instance id belongs to.
    #[doc(alias = "rocprofiler_query_record_counter_id")]
    pub fn record_counter(&self, instance_id: u64) -> Result<CounterId> {
        let mut id = sys::rocprofiler_counter_id_t { handle: 0 };
        check(
            // SAFETY: valid out-pointer; the SDK only shifts the id.
            unsafe { self.sys().rocprofiler_query_record_counter_id(instance_id, &mut id) },
            "rocprofiler_query_record_counter_id",
        )?;
        Ok(CounterId(id.handle))
    }

    /// A config collecting `counters` on `agent` (duplicates count once; an empty list is a
    /// config that collects nothing). Allowed at any time, including inside a dispatch counting
    /// callback (the SDK's samples make configs there: during tool setup HSA is not loaded).
    /// Errors as the SDK gives them: a CPU agent's counters [`Error::MetricNotValidForAgent`],
    /// more counters of one hardware block than it has [`Error::ExceedsHwLimit`], an unknown id
    /// [`Error::CounterNotFound`] or [`Error::AgentNotFound`].
    #[doc(alias = "rocprofiler_create_counter_config")]
    pub fn counter_config(&self, agent: AgentId, counters: &[CounterId]) -> Result<CounterConfig> {
        let mut list: Vec<sys::rocprofiler_counter_id_t> =
            counters.iter().map(|c| sys::rocprofiler_counter_id_t { handle: c.0 }).collect();
        // Zero on entry: the SDK copies the counters of the config whose id this holds.
        let mut id = sys::rocprofiler_counter_config_id_t { handle: 0 };
        let ptr = if list.is_empty() { std::ptr::null_mut() } else { list.as_mut_ptr() };
        check(
            // SAFETY: `ptr` holds `len` ids (NULL with 0); `id` is a valid, zeroed out-pointer.
            unsafe {
                self.sys().rocprofiler_create_counter_config(
                    sys::rocprofiler_agent_id_t { handle: agent.0 },
                    ptr,
                    list.len(),
                    &mut id,
                )
            },
            "rocprofiler_create_counter_config",
        )?;
        Ok(CounterConfig { id: id.handle, agent })
    }

    /// A config collecting the counters named `names` on `agent`. A name the agent has no
    /// counter of is [`Error::CounterNameNotFound`], naming it and the agent; otherwise the
    /// errors of [`counters`](Self::counters) and [`counter_config`](Self::counter_config).
    pub fn counter_config_by_name(&self, agent: AgentId, names: &[&str]) -> Result<CounterConfig> {
        let all = self.counters(agent)?;
        let ids = names
            .iter()
            .map(|n| {
                all.iter().find(|c| c.name == *n).map(|c| c.id).ok_or_else(|| Error::CounterNameNotFound {
                    name: (*n).to_owned(),
                    agent: agent.0,
                    counters: all.len(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        self.counter_config(agent, &ids)
    }
}
