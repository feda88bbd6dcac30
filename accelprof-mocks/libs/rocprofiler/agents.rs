//! Agents (one CPU, three GPUs, as read from `/sys/class/kfd`; none without KFD), the GPUs'
//! counters with their dimensions, and counter configs.
//!
//! As in the real library: agents come only from the KFD topology, so a machine without KFD has
//! no agent at all, not even a CPU, and the query hands its callback `(NULL, 0)` (the data of an
//! empty vector); a counter's results are one record per dimension instance, the instance id
//! carrying the counter in its top 16 bits and each dimension's position in 6 bits at
//! `(dimension - 1) * 6`; `rocprofiler_query_record_counter_id` never fails (it shifts);
//! counter config creation skips duplicates, accepts an empty list, refuses a CPU agent's
//! counters with METRIC_NOT_VALID_FOR_AGENT and too many counters of one block with
//! EXCEEDS_HW_LIMIT, and copies the counters of the config whose id `*config_id` holds on entry;
//! destroying a config always succeeds.

use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use crate::state::{state, CounterConfig, CONFIG_OFFSET};
use crate::*;

pub const AGENT_BASE: u64 = 0xA9E7_0000;
pub const GPU_COUNT: u64 = 3;

/// Agent structs in node order; their pointers stay valid for the life of the process.
struct Agents(Vec<rocprofiler_agent_v0_t>);
// SAFETY: the structs are never mutated after creation; their pointers are to static strings.
unsafe impl Sync for Agents {}
// SAFETY: as above.
unsafe impl Send for Agents {}

fn cstr(s: &'static str) -> *const c_char {
    s.as_ptr() as *const c_char
}

fn agents() -> &'static [rocprofiler_agent_v0_t] {
    static AGENTS: OnceLock<Agents> = OnceLock::new();
    &AGENTS
        .get_or_init(|| {
            let mut all = Vec::new();
            for node in 0..=GPU_COUNT {
                let mut a = rocprofiler_agent_v0_t {
                    size: std::mem::size_of::<rocprofiler_agent_v0_t>() as u64,
                    id: rocprofiler_agent_id_t { handle: AGENT_BASE + node },
                    node_id: node as u32,
                    logical_node_id: node as i32,
                    vendor_name: cstr("AMD\0"),
                    vendor_id: 0x1002,
                    ..Default::default()
                };
                if node == 0 {
                    a.type_ = rocprofiler_agent_type_t::ROCPROFILER_AGENT_TYPE_CPU;
                    a.cpu_cores_count = 64;
                    a.name = cstr("AMD EPYC 9654 (mock)\0");
                    a.product_name = cstr("AMD EPYC 9654 (mock)\0");
                    a.model_name = cstr("\0");
                    a.logical_node_type_id = 0;
                } else {
                    a.type_ = rocprofiler_agent_type_t::ROCPROFILER_AGENT_TYPE_GPU;
                    a.simd_count = 1216;
                    a.cu_count = 304;
                    a.wave_front_size = 64;
                    a.gfx_target_version = 90402;
                    a.name = cstr("gfx942\0");
                    a.product_name = cstr("AMD Instinct MI300X (mock)\0");
                    a.model_name = cstr("mi300x\0");
                    a.logical_node_type_id = node as i32 - 1;
                    a.device_id = 0x74a1;
                }
                all.push(a);
            }
            Agents(all)
        })
        .0
}

/// Whether `/sys/class/kfd` exists (the machine has the amdgpu kernel driver).
static KFD: AtomicBool = AtomicBool::new(true);

fn kfd() -> bool {
    KFD.load(Ordering::Relaxed)
}

pub fn is_gpu(handle: u64) -> bool {
    kfd() && handle > AGENT_BASE && handle <= AGENT_BASE + GPU_COUNT
}

pub fn is_agent(handle: u64) -> bool {
    kfd() && (AGENT_BASE..=AGENT_BASE + GPU_COUNT).contains(&handle)
}

pub fn gpu_handles() -> Vec<u64> {
    if !kfd() {
        return Vec::new();
    }
    (1..=GPU_COUNT).map(|n| AGENT_BASE + n).collect()
}

/// Dimension ids as the SDK numbers them (`rocprofiler_profile_counter_instance_types`).
pub const DIM_XCC: u64 = 1;
pub const DIM_SHADER_ENGINE: u64 = 3;
pub const DIM_AGENT: u64 = 4;
pub const DIM_INSTANCE: u64 = 7;
/// `ROCPROFILER_DIMENSION_LAST`: 48 bits of dimensions, 6 per dimension.
pub const DIM_LAST: u64 = 8;
const DIM_BITS: u64 = 48 / DIM_LAST;

fn dimension_name(id: u64) -> &'static str {
    match id {
        DIM_XCC => "DIMENSION_XCC\0",
        2 => "DIMENSION_AID\0",
        DIM_SHADER_ENGINE => "DIMENSION_SHADER_ENGINE\0",
        DIM_AGENT => "DIMENSION_AGENT\0",
        5 => "DIMENSION_SHADER_ARRAY\0",
        6 => "DIMENSION_WGP\0",
        DIM_INSTANCE => "DIMENSION_INSTANCE\0",
        _ => "DIMENSION_NONE\0",
    }
}

/// A counter of the mock GPUs (gfx942); its handle is its index + 1.
pub struct CounterDef {
    pub name: &'static str,
    pub description: &'static str,
    pub block: &'static str,
    pub expression: &'static str,
    pub derived: bool,
    /// (dimension id, instances) in the order the SDK reports them.
    pub dims: &'static [(u64, u64)],
}

pub const COUNTERS: &[CounterDef] = &[
    CounterDef {
        name: "SQ_WAVES\0",
        description: "Waves dispatched\0",
        block: "SQ\0",
        expression: "\0",
        derived: false,
        dims: &[(DIM_XCC, 2), (DIM_SHADER_ENGINE, 4)],
    },
    CounterDef {
        name: "SQ_INSTS_VALU\0",
        description: "Vector ALU instructions\0",
        block: "SQ\0",
        expression: "\0",
        derived: false,
        dims: &[(DIM_XCC, 2)],
    },
    CounterDef {
        name: "GRBM_GUI_ACTIVE\0",
        description: "GPU busy time\0",
        block: "GRBM\0",
        expression: "\0",
        derived: false,
        dims: &[(DIM_XCC, 2)],
    },
    CounterDef {
        name: "TCC_HIT\0",
        description: "L2 cache hits\0",
        block: "TCC\0",
        expression: "\0",
        derived: false,
        dims: &[(DIM_INSTANCE, 4)],
    },
    CounterDef {
        name: "FETCH_SIZE\0",
        description: "Kilobytes fetched from memory\0",
        block: "\0",
        expression: "TCC_EA0_RDREQ*64/1024\0",
        derived: true,
        dims: &[(DIM_AGENT, 1)],
    },
    CounterDef {
        name: "TCC_MISS\0",
        description: "L2 cache misses\0",
        block: "TCC\0",
        expression: "\0",
        derived: false,
        dims: &[(DIM_INSTANCE, 4)],
    },
];

/// How many counters of one hardware block a config may hold (more: EXCEEDS_HW_LIMIT).
fn block_limit(block: &str) -> usize {
    match block {
        "SQ\0" => 8,
        "GRBM\0" => 2,
        "TCC\0" => 1,
        _ => usize::MAX,
    }
}

pub fn counter(handle: u64) -> Option<&'static CounterDef> {
    (handle as usize).checked_sub(1).and_then(|i| COUNTERS.get(i))
}

/// The (instance id, value) records of one counter on one dispatch: `total` split over the
/// counter's dimension instances (their sum is `total`).
pub fn instance_records(handle: u64, total: f64) -> Vec<(u64, f64)> {
    let Some(def) = counter(handle) else { return Vec::new() };
    let count: u64 = def.dims.iter().map(|d| d.1).product::<u64>().max(1);
    let integral = total.fract() == 0.0 && total >= 0.0;
    (0..count)
        .map(|k| {
            let mut id = handle << 48;
            let mut rest = k;
            for &(dim, size) in def.dims {
                id |= (rest % size) << ((dim - 1) * DIM_BITS);
                rest /= size;
            }
            let value = if integral {
                let base = (total / count as f64).floor();
                let left = total - base * count as f64;
                base + if (k as f64) < left { 1.0 } else { 0.0 }
            } else {
                total / count as f64
            };
            (id, value)
        })
        .collect()
}

/// The value the mock "measures" for a counter on a dispatch (all instances together).
pub fn counter_value(counter: u64, work_items: u64, duration_ns: u64) -> f64 {
    match counter {
        1 => work_items.div_ceil(64) as f64,
        2 => (work_items * 4) as f64,
        3 => duration_ns as f64,
        4 => (work_items / 2) as f64,
        5 => (work_items * 4) as f64 / 1024.0,
        6 => (work_items / 8) as f64,
        _ => 0.0,
    }
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_available_agents(
    version: rocprofiler_agent_version_t,
    callback: rocprofiler_query_available_agents_cb_t,
    agent_size: usize,
    user_data: *mut c_void,
) -> rocprofiler_status_t {
    if version != rocprofiler_agent_version_t::ROCPROFILER_AGENT_INFO_VERSION_0 {
        return status::INVALID_ARGUMENT;
    }
    if agent_size > std::mem::size_of::<rocprofiler_agent_v0_t>() {
        return status::INCOMPATIBLE_ABI;
    }
    let Some(cb) = callback else { crash("rocprofiler_query_available_agents called a NULL callback") };
    if !kfd() {
        // No /sys/class/kfd: an empty topology, handed over as an empty vector's data (NULL).
        return cb(version, std::ptr::null_mut(), 0, user_data);
    }
    let mut pointers: Vec<*const c_void> = agents().iter().map(|a| a as *const _ as *const c_void).collect();
    cb(version, pointers.as_mut_ptr(), pointers.len(), user_data)
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_iterate_agent_supported_counters(
    agent_id: rocprofiler_agent_id_t,
    cb: rocprofiler_available_counters_cb_t,
    user_data: *mut c_void,
) -> rocprofiler_status_t {
    if !is_agent(agent_id.handle) {
        return status::AGENT_NOT_FOUND;
    }
    if !is_gpu(agent_id.handle) {
        // The CPU's architecture has no counters.
        return status::AGENT_ARCH_NOT_SUPPORTED;
    }
    let Some(cb) = cb else { crash("rocprofiler_iterate_agent_supported_counters called a NULL callback") };
    let mut ids: Vec<rocprofiler_counter_id_t> =
        (1..=COUNTERS.len() as u64).map(|handle| rocprofiler_counter_id_t { handle }).collect();
    cb(agent_id, ids.as_mut_ptr(), ids.len(), user_data)
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_counter_info(
    counter_id: rocprofiler_counter_id_t,
    version: rocprofiler_counter_info_version_id_t,
    info: *mut c_void,
) -> rocprofiler_status_t {
    let known = version == rocprofiler_counter_info_version_id_t::ROCPROFILER_COUNTER_INFO_VERSION_0
        || version == rocprofiler_counter_info_version_id_t::ROCPROFILER_COUNTER_INFO_VERSION_1;
    if !known {
        return status::INCOMPATIBLE_ABI;
    }
    let Some(def) = counter(counter_id.handle) else { return status::COUNTER_NOT_FOUND };
    if info.is_null() {
        crash("rocprofiler_query_counter_info wrote through a NULL info pointer");
    }
    if version == rocprofiler_counter_info_version_id_t::ROCPROFILER_COUNTER_INFO_VERSION_0 {
        let mut v0 = rocprofiler_counter_info_v0_t {
            id: counter_id,
            name: cstr(def.name),
            description: cstr(def.description),
            block: cstr(def.block),
            expression: cstr(def.expression),
            ..Default::default()
        };
        v0.set_is_derived(def.derived as u8);
        *(info as *mut rocprofiler_counter_info_v0_t) = v0;
    } else {
        let mut v1 = rocprofiler_counter_info_v1_t {
            size: std::mem::size_of::<rocprofiler_counter_info_v1_t>() as u64,
            id: counter_id,
            name: cstr(def.name),
            description: cstr(def.description),
            block: cstr(def.block),
            expression: cstr(def.expression),
            ..Default::default()
        };
        v1.set_is_derived(def.derived as u8);
        *(info as *mut rocprofiler_counter_info_v1_t) = v1;
    }
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_iterate_counter_dimensions(
    id: rocprofiler_counter_id_t,
    info_cb: rocprofiler_available_dimensions_cb_t,
    user_data: *mut c_void,
) -> rocprofiler_status_t {
    let Some(def) = counter(id.handle) else { return status::COUNTER_NOT_FOUND };
    if def.dims.is_empty() {
        return status::DIM_NOT_FOUND;
    }
    let Some(cb) = info_cb else { crash("rocprofiler_iterate_counter_dimensions called a NULL callback") };
    let dims: Vec<rocprofiler_counter_record_dimension_info_t> = def
        .dims
        .iter()
        .map(|&(dim, size)| rocprofiler_counter_record_dimension_info_t {
            name: cstr(dimension_name(dim)),
            instance_size: size as usize,
            id: dim,
        })
        .collect();
    // The SDK ignores what the callback returns.
    cb(id, dims.as_ptr(), dims.len(), user_data);
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_counter_instance_count(
    _agent_id: rocprofiler_agent_id_t,
    counter_id: rocprofiler_counter_id_t,
    instance_count: *mut usize,
) -> rocprofiler_status_t {
    if instance_count.is_null() {
        crash("rocprofiler_query_counter_instance_count wrote through a NULL pointer");
    }
    // The agent is not looked at: the count is the counter's.
    *instance_count = 0;
    let Some(def) = counter(counter_id.handle) else { return status::COUNTER_NOT_FOUND };
    *instance_count = def.dims.iter().map(|d| d.1 as usize).filter(|&n| n > 0).product();
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_record_counter_id(
    id: rocprofiler_counter_instance_id_t,
    counter_id: *mut rocprofiler_counter_id_t,
) -> rocprofiler_status_t {
    if counter_id.is_null() {
        crash("rocprofiler_query_record_counter_id wrote through a NULL pointer");
    }
    // As the SDK: no check, the counter is the top 16 bits.
    (*counter_id).handle = id >> 48;
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_record_dimension_position(
    id: rocprofiler_counter_instance_id_t,
    dim: rocprofiler_counter_dimension_id_t,
    pos: *mut usize,
) -> rocprofiler_status_t {
    if pos.is_null() {
        crash("rocprofiler_query_record_dimension_position wrote through a NULL pointer");
    }
    if dim >= DIM_LAST {
        // The SDK shifts by (dim - 1) * 6 bits without a check: past 64 bits that is undefined
        // behaviour, below it garbage.
        crash("rocprofiler_query_record_dimension_position got a dimension id past DIMENSION_LAST");
    }
    *pos = if dim == 0 {
        (id & ((1u64 << 48) - 1)) as usize
    } else {
        ((id >> ((dim - 1) * DIM_BITS)) & ((1u64 << DIM_BITS) - 1)) as usize
    };
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_create_counter_config(
    agent_id: rocprofiler_agent_id_t,
    counters_list: *mut rocprofiler_counter_id_t,
    counters_count: usize,
    config_id: *mut rocprofiler_counter_config_id_t,
) -> rocprofiler_status_t {
    if !is_agent(agent_id.handle) {
        return status::AGENT_NOT_FOUND;
    }
    if counters_list.is_null() && counters_count > 0 {
        crash("rocprofiler_create_counter_config read a NULL counter list");
    }
    if config_id.is_null() {
        crash("rocprofiler_create_counter_config read *config_id through a NULL pointer");
    }
    let given: &[rocprofiler_counter_id_t] =
        if counters_count == 0 { &[] } else { std::slice::from_raw_parts(counters_list, counters_count) };
    let mut counters: Vec<u64> = Vec::new();
    for c in given {
        if counter(c.handle).is_none() {
            return status::COUNTER_NOT_FOUND;
        }
        if counters.contains(&c.handle) {
            continue; // duplicates are skipped
        }
        if !is_gpu(agent_id.handle) {
            return status::METRIC_NOT_VALID_FOR_AGENT;
        }
        counters.push(c.handle);
    }
    let mut st = state();
    // A non-zero id on entry: that config's counters are added (the SDK's "copy" path).
    if (*config_id).handle != 0 {
        if let Some(existing) = st.config((*config_id).handle) {
            for &c in &existing.counters {
                if !counters.contains(&c) {
                    counters.push(c);
                }
            }
        }
    }
    for block in COUNTERS.iter().map(|d| d.block) {
        let used = counters
            .iter()
            .filter(|&&c| !COUNTERS[c as usize - 1].derived && COUNTERS[c as usize - 1].block == block)
            .count();
        if used > block_limit(block) {
            return status::EXCEEDS_HW_LIMIT;
        }
    }
    let handle = CONFIG_OFFSET + st.configs.len() as u64;
    st.configs.push(Some(CounterConfig { agent: agent_id.handle, counters }));
    (*config_id).handle = handle;
    status::SUCCESS
}

/// Always SUCCESS, as in the SDK (an unknown id included); a later dispatch that picks the
/// destroyed id crashes the real SDK, and aborts here.
#[no_mangle]
pub extern "C" fn rocprofiler_destroy_counter_config(
    config_id: rocprofiler_counter_config_id_t,
) -> rocprofiler_status_t {
    let mut st = state();
    if let Some(idx) = config_id.handle.checked_sub(CONFIG_OFFSET) {
        if let Some(slot) = st.configs.get_mut(idx as usize) {
            *slot = None;
        }
    }
    status::SUCCESS
}

/// Plays a machine with (1) or without (0) `/sys/class/kfd`: without it there are no agents.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_set_kfd(present: i32) {
    KFD.store(present != 0, Ordering::Relaxed);
}

pub fn reset_kfd() {
    KFD.store(true, Ordering::Relaxed);
}

/// Handle of GPU agent `index` (0-based), or 0.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_gpu_agent(index: u32) -> u64 {
    if kfd() && (index as u64) < GPU_COUNT {
        AGENT_BASE + 1 + index as u64
    } else {
        0
    }
}

/// Handle of the CPU agent.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_cpu_agent() -> u64 {
    AGENT_BASE
}
