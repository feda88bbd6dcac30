//! Agents (one CPU, three GPUs), the GPUs' counters, and counter configs.

use std::ffi::{c_char, c_void};
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

pub fn is_gpu(handle: u64) -> bool {
    handle > AGENT_BASE && handle <= AGENT_BASE + GPU_COUNT
}

pub fn is_agent(handle: u64) -> bool {
    (AGENT_BASE..=AGENT_BASE + GPU_COUNT).contains(&handle)
}

pub fn gpu_handles() -> Vec<u64> {
    (1..=GPU_COUNT).map(|n| AGENT_BASE + n).collect()
}

/// (name, description, block, expression, derived), counter handle = index + 1.
pub const COUNTERS: &[(&str, &str, &str, &str, bool)] = &[
    ("SQ_WAVES\0", "Waves dispatched\0", "SQ\0", "\0", false),
    ("SQ_INSTS_VALU\0", "Vector ALU instructions\0", "SQ\0", "\0", false),
    ("GRBM_GUI_ACTIVE\0", "GPU busy time\0", "GRBM\0", "\0", false),
    ("TCC_HIT\0", "L2 cache hits\0", "TCC\0", "\0", false),
    ("FETCH_SIZE\0", "Kilobytes fetched from memory\0", "\0", "TCC_EA0_RDREQ*64/1024\0", true),
];

/// The value the mock "measures" for a counter on a dispatch.
pub fn counter_value(counter: u64, work_items: u64, duration_ns: u64) -> f64 {
    match counter {
        1 => work_items.div_ceil(64) as f64,
        2 => (work_items * 4) as f64,
        3 => duration_ns as f64,
        4 => (work_items / 2) as f64,
        5 => (work_items * 4) as f64 / 1024.0,
        _ => 0.0,
    }
}

/// A record's instance id carries its counter id in the top 16 bits.
pub fn instance_id(counter: u64, instance: u64) -> u64 {
    counter << 48 | instance
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
    let Some(cb) = callback else { return status::INVALID_ARGUMENT };
    let mut pointers: Vec<*const c_void> = agents().iter().map(|a| a as *const _ as *const c_void).collect();
    cb(version, pointers.as_mut_ptr(), pointers.len(), user_data)
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_iterate_agent_supported_counters(
    agent_id: rocprofiler_agent_id_t,
    cb: rocprofiler_available_counters_cb_t,
    user_data: *mut c_void,
) -> rocprofiler_status_t {
    if !is_gpu(agent_id.handle) {
        return status::AGENT_NOT_FOUND;
    }
    let Some(cb) = cb else { return status::INVALID_ARGUMENT };
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
    let Some(&(name, description, block, expression, derived)) =
        (counter_id.handle as usize).checked_sub(1).and_then(|i| COUNTERS.get(i))
    else {
        return status::COUNTER_NOT_FOUND;
    };
    if info.is_null() {
        return status::INVALID_ARGUMENT;
    }
    match version {
        rocprofiler_counter_info_version_id_t::ROCPROFILER_COUNTER_INFO_VERSION_0 => {
            let mut v0 = rocprofiler_counter_info_v0_t {
                id: counter_id,
                name: cstr(name),
                description: cstr(description),
                block: cstr(block),
                expression: cstr(expression),
                ..Default::default()
            };
            v0.set_is_derived(derived as u8);
            *(info as *mut rocprofiler_counter_info_v0_t) = v0;
        }
        rocprofiler_counter_info_version_id_t::ROCPROFILER_COUNTER_INFO_VERSION_1 => {
            let mut v1 = rocprofiler_counter_info_v1_t {
                size: std::mem::size_of::<rocprofiler_counter_info_v1_t>() as u64,
                id: counter_id,
                name: cstr(name),
                description: cstr(description),
                block: cstr(block),
                expression: cstr(expression),
                ..Default::default()
            };
            v1.set_is_derived(derived as u8);
            *(info as *mut rocprofiler_counter_info_v1_t) = v1;
        }
        _ => return status::INVALID_ARGUMENT,
    }
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_query_record_counter_id(
    id: rocprofiler_counter_instance_id_t,
    counter_id: *mut rocprofiler_counter_id_t,
) -> rocprofiler_status_t {
    let handle = id >> 48;
    if handle == 0 || handle as usize > COUNTERS.len() {
        return status::COUNTER_NOT_FOUND;
    }
    if counter_id.is_null() {
        return status::INVALID_ARGUMENT;
    }
    (*counter_id).handle = handle;
    status::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn rocprofiler_create_counter_config(
    agent_id: rocprofiler_agent_id_t,
    counters_list: *mut rocprofiler_counter_id_t,
    counters_count: usize,
    config_id: *mut rocprofiler_counter_config_id_t,
) -> rocprofiler_status_t {
    if config_id.is_null() {
        return status::INVALID_ARGUMENT;
    }
    if !is_gpu(agent_id.handle) {
        return status::AGENT_NOT_FOUND;
    }
    if counters_list.is_null() || counters_count == 0 {
        return status::NO_HARDWARE_COUNTERS;
    }
    let counters: Vec<u64> =
        std::slice::from_raw_parts(counters_list, counters_count).iter().map(|c| c.handle).collect();
    if counters.iter().any(|&c| c == 0 || c as usize > COUNTERS.len()) {
        return status::COUNTER_NOT_FOUND;
    }
    let mut st = state();
    let handle = CONFIG_OFFSET + st.configs.len() as u64;
    st.configs.push(Some(CounterConfig { agent: agent_id.handle, counters }));
    (*config_id).handle = handle;
    status::SUCCESS
}

#[no_mangle]
pub extern "C" fn rocprofiler_destroy_counter_config(
    config_id: rocprofiler_counter_config_id_t,
) -> rocprofiler_status_t {
    let mut st = state();
    let Some(idx) = config_id.handle.checked_sub(CONFIG_OFFSET) else { return status::PROFILE_NOT_FOUND };
    match st.configs.get_mut(idx as usize) {
        Some(slot @ Some(_)) => {
            *slot = None;
            status::SUCCESS
        }
        _ => status::PROFILE_NOT_FOUND,
    }
}

/// Handle of GPU agent `index` (0-based), or 0.
#[no_mangle]
pub extern "C" fn mock_rocprofiler_gpu_agent(index: u32) -> u64 {
    if (index as u64) < GPU_COUNT {
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
