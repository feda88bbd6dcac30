//! HCCL records, as the real library makes them (`HcclInnerMark`, `HcclReporter`): while HCCL is
//! enabled, each interposed collective (not `HcclBarrier`) first puts a start mark on its stream
//! (`aclrtProfTrace` with flag START_WITH_DEVICE and a mark id of the shared counter) and
//! remembers the operation (name, communicator name from `HcclGetCommName`, data size), then,
//! after the call and its EXIT callback, an end mark (END_WITH_DEVICE). The device's step traces
//! of the two marks (the TS firmware channel, read by the channel reader) give the record its
//! device, stream, start and end; the end writes the record, with the bandwidth in bytes per ns
//! (GB/s): element size x count for AllReduce, Broadcast, Reduce, Send and Recv, x the rank size
//! too for AllGather, ReduceScatter and AlltoAll; 0 where it cannot be computed (here also
//! AlltoAllV and BatchSendRecv, and Scatter, whose rank size MSPTI never asks for). No
//! correlation id: the record has none.

use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};
use std::sync::{Mutex, MutexGuard};

use crate::activity::{is_enabled, record};
use crate::mstx::{END_WITH_DEVICE, START_WITH_DEVICE};
use crate::records::{self, kind};

/// An operation between its start mark and its end mark.
struct Op {
    name: *const c_char,
    comm: *const c_char,
    /// Bytes for the bandwidth (0: not computed).
    bytes: u64,
    stream: usize,
    device: Option<(u32, u32, u64)>,
}

// SAFETY: the names are interned strings that live for the process; the stream is only passed back.
unsafe impl Send for Op {}

static OPS: Mutex<Option<HashMap<u64, Op>>> = Mutex::new(None);

fn ops() -> MutexGuard<'static, Option<HashMap<u64, Op>>> {
    OPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// `HcclDataType` sizes (`dataType2Size`); `None` for a type MSPTI does not size.
pub fn dtype_size(t: i32) -> Option<u64> {
    Some(match t {
        0 | 7 => 1,
        1 | 3 | 8 | 11 => 2,
        2 | 4 | 9 => 4,
        5 | 6 | 10 => 8,
        12 => 16,
        _ => return None,
    })
}

/// The start of an operation `name` (`HcclMarkFactory::createMarker`): `None` while HCCL is off.
pub fn begin(name: &'static CStr, bytes: u64, comm: *mut c_void, stream: *mut c_void) -> Option<u64> {
    if !is_enabled(kind::HCCL) {
        return None;
    }
    let mut comm_name = [0 as c_char; 128];
    crate::interpose::comm_name(comm, comm_name.as_mut_ptr());
    comm_name[127] = 0;
    let id = crate::mstx::next_mark_id();
    if !stream.is_null() {
        crate::interpose::prof_trace(id, START_WITH_DEVICE, stream);
    }
    let op = Op {
        name: crate::intern_bytes(name.to_bytes()),
        comm: crate::intern(comm_name.as_ptr()),
        bytes,
        stream: stream as usize,
        device: None,
    };
    ops().get_or_insert_with(HashMap::new).insert(id, op);
    Some(id)
}

/// The end mark (`~HcclInnerMark`).
pub fn end(id: Option<u64>) {
    let Some(id) = id else { return };
    let stream = ops().as_ref().and_then(|m| m.get(&id)).map_or(0, |op| op.stream);
    if stream != 0 {
        crate::interpose::prof_trace(id, END_WITH_DEVICE, stream as *mut c_void);
    }
}

/// A device mark read from the driver: `true` when it is one of an HCCL operation
/// (`IsInnerMarker`), consumed here (`HcclReporter::RecordHcclMarker`).
pub fn device_mark(id: u64, flag: u32, timestamp: u64, device: u32, stream: u32) -> bool {
    let mut ops = ops();
    let Some(map) = ops.as_mut() else { return false };
    let Some(op) = map.get_mut(&id) else { return false };
    if flag == START_WITH_DEVICE {
        op.device = Some((device, stream, timestamp));
        return true;
    }
    if flag != END_WITH_DEVICE {
        return true;
    }
    let op = map.remove(&id).expect("found above");
    drop(ops);
    if !is_enabled(kind::HCCL) {
        return true;
    }
    let (device, stream, start) = op.device.unwrap_or((0, 0, 0));
    let bandwidth =
        if timestamp > start && op.bytes > 0 { op.bytes as f64 / (timestamp - start) as f64 } else { 0.0 };
    let r = records::hccl(start, timestamp, device, stream, bandwidth, op.name, op.comm);
    record(r.bytes(), false);
    true
}

/// Forgets open operations (a control).
pub fn reset() {
    *ops() = None;
}
