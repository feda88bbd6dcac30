//! COMMUNICATION records from CANN's reports, as the real library builds them (`CannTrackCache`,
//! `CommunicationCalculator`, `DeviceTaskCalculator`), every step only while COMMUNICATION is
//! enabled, per reporting thread:
//! 1. a runtime task track (compact, level 5000) becomes the thread's last task ([`task_track`]);
//! 2. an HCCL-level API report (level 5500) whose host range holds the last task's time stamp
//!    makes that task a communication task of the thread's next operator, waiting for its STARS
//!    logs keyed (device, stream, task) ([`hccl_api`]);
//! 3. a node launch (level 10000, `NODE_LAUNCH`) whose host range holds the last HCCL-level report
//!    makes the operator: named by its item id's hash, with a new correlation id for the thread
//!    (which the thread's later records carry, and which writes the pushed external ids' records)
//!    ([`node_launch`]);
//! 4. an operator info (compact, level 10000, type 10, `MsprofHcclOPInfo`) is queued by its time
//!    stamp ([`op_info`]);
//! 5. the STARS end log of the operator's task ([`stars_log`]; its begin log gave the start) writes
//!    the record with the first queued info inside the operator's host range (data type, count,
//!    algorithm and communicator names by hash id), and drops every info in that range; without
//!    one, no record (the real library logs a warning and counts nothing).
//!
//! Stricter where the real library would make up a value: a task whose begin log never came
//! gives no record (the real one takes start 0), and a report out of this order gives none.

use std::collections::{BTreeMap, HashMap};
use std::ffi::c_char;
use std::sync::{Mutex, MutexGuard};

use crate::activity::{is_enabled, record};
use crate::protocol::{HcclOpInfo, MsprofApi, MsprofCompactInfo};
use crate::records::{self, kind};

/// (device, stream, task).
type Key = (u32, u16, u16);

/// `CannThreadCache`.
#[derive(Default)]
struct ThreadCache {
    /// The last task track: its key and time stamp.
    last_task: Option<(Key, u64)>,
    /// The last communication task: its key and host range.
    last_comm: Option<(Key, u64, u64)>,
    /// `nodeLaunchId`: the operator the next communication task belongs to.
    node_launch: u32,
}

/// An operator waiting for its task's device times (`CommunicationOpDesc`).
struct Op {
    correlation: u64,
    name: *const c_char,
    thread: u32,
    host_begin: u64,
    host_end: u64,
    key: Key,
}

// SAFETY: the name is an interned string that lives for the process.
unsafe impl Send for Op {}

#[derive(Default)]
struct State {
    threads: HashMap<u32, ThreadCache>,
    /// Communication tasks by key: their operator's event id and the device begin time seen.
    tasks: HashMap<Key, (u64, Option<u64>)>,
    /// Operators by event id.
    ops: HashMap<u64, Op>,
    /// Operator infos by thread, by time stamp.
    infos: HashMap<u32, BTreeMap<u64, HcclOpInfo>>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn state() -> MutexGuard<'static, Option<State>> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

fn on() -> bool {
    is_enabled(kind::COMMUNICATION)
}

/// Step 1: a runtime task track.
pub fn task_track(info: &MsprofCompactInfo) {
    if !on() {
        return;
    }
    let t = info.runtime_track;
    let key = (u32::from(t.device_id), t.stream_id, t.task_info as u16);
    let mut s = state();
    s.get_or_insert_with(State::default).threads.entry(info.thread_id).or_default().last_task =
        Some((key, info.time_stamp));
}

/// Step 2: an HCCL-level API report.
pub fn hccl_api(api: &MsprofApi) {
    if !on() {
        return;
    }
    let mut s = state();
    let s = s.get_or_insert_with(State::default);
    let cache = s.threads.entry(api.thread_id).or_default();
    let Some((key, ts)) = cache.last_task else { return };
    if !(api.begin_time <= ts && ts <= api.end_time) {
        return;
    }
    cache.last_comm = Some((key, api.begin_time, api.end_time));
    let event = (u64::from(api.thread_id) << 32) | u64::from(cache.node_launch);
    s.tasks.insert(key, (event, None));
}

/// Step 3: a node launch (after its NODE_API record, before its API record, as in the real
/// library).
pub fn node_launch(api: &MsprofApi) {
    if !on() {
        return;
    }
    let mut s = state();
    let s = s.get_or_insert_with(State::default);
    let cache = s.threads.entry(api.thread_id).or_default();
    let Some((key, begin, end)) = cache.last_comm else { return };
    if !(api.begin_time <= begin && end <= api.end_time) {
        return;
    }
    let event = (u64::from(api.thread_id) << 32) | u64::from(cache.node_launch);
    cache.node_launch = cache.node_launch.wrapping_add(1);
    let correlation = crate::correlation::advance(api.thread_id);
    let name = crate::reporters::hash_name(api.item_id);
    let op = Op {
        correlation,
        name,
        thread: api.thread_id,
        host_begin: api.begin_time,
        host_end: api.end_time,
        key,
    };
    s.ops.insert(event, op);
}

/// Step 4: an operator info.
pub fn op_info(info: &MsprofCompactInfo) {
    if !on() {
        return;
    }
    let op = HcclOpInfo::decode(&info.data());
    let mut s = state();
    s.get_or_insert_with(State::default).infos.entry(info.thread_id).or_default().insert(info.time_stamp, op);
}

/// Step 5: one STARS log (`func` begin or end) of the driver's channel.
pub fn stars_log(dev: u32, func: u16, stream: u16, task: u16, ts: u64) {
    if !on() {
        return;
    }
    let key = (dev, stream, task);
    let mut guard = state();
    let Some(s) = guard.as_mut() else { return };
    if func == crate::protocol::STARS_FUNC_BEGIN {
        if let Some(t) = s.tasks.get_mut(&key) {
            t.1 = Some(ts);
        }
        return;
    }
    if func != crate::protocol::STARS_FUNC_END {
        return;
    }
    let Some((event, begin)) = s.tasks.remove(&key) else { return };
    let Some(op) = s.ops.remove(&event) else { return };
    let Some(begin) = begin else { return };
    let Some(infos) = s.infos.get_mut(&op.thread) else { return };
    let in_range: Vec<u64> = infos.range(op.host_begin..=op.host_end).map(|(t, _)| *t).collect();
    let Some(info) = in_range.first().and_then(|t| infos.get(t)).copied() else { return };
    for t in in_range {
        infos.remove(&t);
    }
    drop(guard);
    let name_of = |id: u64| {
        let n = crate::reporters::hash_name(id);
        if n.is_null() {
            c"".as_ptr()
        } else {
            n
        }
    };
    let r = records::communication(
        info.data_type.into(),
        info.count,
        dev,
        op.key.1.into(),
        crate::realtime_from_raw(begin),
        crate::realtime_from_raw(ts),
        name_of(info.alg_type),
        if op.name.is_null() { c"".as_ptr() } else { op.name },
        name_of(info.group_name),
        op.correlation,
    );
    record(r.bytes(), false);
}

/// Forgets every thread's reports and every waiting operator (a control).
pub fn reset() {
    *state() = None;
}
