//! The decode thread's side: copied SDK records -> accelprof-core column batches.
//!
//! Records arrive in the order they completed, not in time order (a kernel that started first
//! may complete last), and from several sources; rows are appended as they come with their own
//! start and end, so nothing here depends on order. Counter values find their dispatch's times
//! through the dispatch header that precedes them.
//!
//! The SDK writes one counter record per dimension instance (per XCC, shader engine, ...):
//! the values of one counter on one dispatch are summed into one counter row (as rocprofv3
//! reports them), emitted once the header's `num_records` values have arrived. The SDK writes
//! a dispatch's header and values under one lock, so they are never interleaved with another
//! dispatch's; a delivery may still split them, which is why a dispatch waits across walks.
//! When the next header arrives before a dispatch's last value (the SDK dropped some, and
//! counted them), what arrived is emitted.

use std::collections::HashMap;
use std::sync::Arc;

use accelprof_core::columns::{
    ApiRow, CopyKind, CounterRow, KernelRow, MarkerRow, MemcpyRow, MemoryKind, HOST_DEVICE,
};
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, NameId, WalkStats};
use rocprofiler_sys as sys;

use super::names::{KernelNames, MarkerMessages};
use crate::activity::FRAME_HEADER;
use crate::ids::{BufferKind, Operation};
use crate::library::{OperationNames, Rocprofiler};

/// What the walker needs to know besides the records.
pub(crate) struct Walker {
    pub(crate) lib: &'static Rocprofiler,
    pub(crate) kernels: Arc<KernelNames>,
    pub(crate) markers: Arc<MarkerMessages>,
    /// Agent handle -> device number in the columns (GPU index; CPUs: node id).
    pub(crate) devices: HashMap<u64, u32>,
    /// Operation names of the API kinds, by buffer kind.
    pub(crate) operations: HashMap<u32, OperationNames>,
    counters: HashMap<u64, NameId>,
    /// Dispatches whose values are still arriving, by dispatch id.
    dispatches: HashMap<u64, PendingDispatch>,
    process: u32,
}

/// A counting header's dispatch and the per-counter sums of the values seen so far.
struct PendingDispatch {
    correlation: u64,
    start: u64,
    end: u64,
    /// Values the header announced that have not arrived.
    remaining: u64,
    /// (counter id, device, sum of its instances), in the order counters first appeared.
    sums: Vec<(u64, u32, f64)>,
}

impl Walker {
    pub(crate) fn new(
        lib: &'static Rocprofiler,
        kernels: Arc<KernelNames>,
        markers: Arc<MarkerMessages>,
        devices: HashMap<u64, u32>,
    ) -> Walker {
        let operations = API_KINDS.iter().map(|k| (k.0, OperationNames::buffer(lib, *k))).collect();
        Walker {
            lib,
            kernels,
            markers,
            devices,
            operations,
            counters: HashMap::new(),
            dispatches: HashMap::new(),
            process: std::process::id(),
        }
    }

    fn device(&self, agent: u64) -> u32 {
        self.devices.get(&agent).copied().unwrap_or(u32::MAX - 1)
    }

    fn op_name(&self, kind: u32, op: i32, names: &mut Interner) -> NameId {
        match self.operations.get(&kind).and_then(|t| t.get(Operation(op))) {
            Some(n) => names.intern(n),
            None => names.intern(&format!("operation {op}")),
        }
    }

    fn counter_name(&mut self, counter: crate::ids::CounterId, names: &mut Interner) -> NameId {
        if let Some(id) = self.counters.get(&counter.0) {
            return *id;
        }
        let id = match self.lib.counter_info(counter) {
            Ok(info) => names.intern(&info.name),
            Err(_) => names.intern(&format!("counter {}", counter.0)),
        };
        self.counters.insert(counter.0, id);
        id
    }
}

/// API-call kinds decoded into API rows (markers go to marker rows).
const API_KINDS: &[BufferKind] = &[
    BufferKind::HSA_CORE_API,
    BufferKind::HSA_AMD_EXT_API,
    BufferKind::HSA_IMAGE_EXT_API,
    BufferKind::HSA_FINALIZE_EXT_API,
    BufferKind::HIP_RUNTIME_API,
    BufferKind::HIP_COMPILER_API,
    BufferKind::RCCL_API,
    BufferKind::MARKER_CORE_API,
    BufferKind::MARKER_CONTROL_API,
    BufferKind::MARKER_NAME_API,
];

/// A record of type `T` from `bytes`, when it is large enough.
fn read<T: Copy>(bytes: &[u8]) -> Option<T> {
    (bytes.len() >= std::mem::size_of::<T>())
        // SAFETY: `bytes` holds at least size_of::<T>() bytes of a record of type T, plain C data.
        .then(|| unsafe { std::ptr::read_unaligned(bytes.as_ptr() as *const T) })
}

fn blocks(grid: u32, group: u32) -> u32 {
    if group == 0 {
        grid
    } else {
        grid.div_ceil(group)
    }
}

impl accelprof_core::RecordWalker for Walker {
    fn walk(&mut self, bytes: &[u8], out: &mut Batch, names: &mut Interner) -> WalkStats {
        const TRACING: u32 = sys::rocprofiler_buffer_category_t::ROCPROFILER_BUFFER_CATEGORY_TRACING.0;
        const COUNTERS: u32 = sys::rocprofiler_buffer_category_t::ROCPROFILER_BUFFER_CATEGORY_COUNTERS.0;
        let mut stats = WalkStats::default();
        let mut at = 0;
        while at + FRAME_HEADER <= bytes.len() {
            let word = |i: usize| u32::from_ne_bytes(bytes[at + i..at + i + 4].try_into().expect("4 bytes"));
            let (category, kind, len) = (word(0), word(4), word(8) as usize);
            let end = at + FRAME_HEADER + len;
            if len == 0 || end > bytes.len() {
                break;
            }
            let payload = &bytes[at + FRAME_HEADER..end];
            at += FRAME_HEADER + len.div_ceil(8) * 8;
            let decoded = match category {
                TRACING => self.tracing(BufferKind(kind), payload, out, names),
                COUNTERS => self.counting(kind, payload, out, names),
                _ => false,
            };
            if decoded {
                stats.records += 1;
            } else {
                stats.skipped_unknown += 1;
            }
        }
        stats
    }
}

impl Walker {
    /// One tracing record; false when its kind is not decoded.
    fn tracing(&mut self, kind: BufferKind, payload: &[u8], out: &mut Batch, names: &mut Interner) -> bool {
        match kind {
            BufferKind::KERNEL_DISPATCH => {
                let Some(r) = read::<sys::rocprofiler_buffer_tracing_kernel_dispatch_record_t>(payload)
                else {
                    return false;
                };
                let i = &r.dispatch_info;
                let name = match self.kernels.get(i.kernel_id) {
                    Some(n) => names.intern(&n),
                    None => names.intern(&format!("kernel {}", i.kernel_id)),
                };
                out.kernels.push(KernelRow {
                    start: r.start_timestamp,
                    end: r.end_timestamp,
                    device: self.device(i.agent_id.handle),
                    context: 0,
                    stream: i.queue_id.handle,
                    correlation: r.correlation_id.internal,
                    grid_x: blocks(i.grid_size.x, i.workgroup_size.x),
                    grid_y: blocks(i.grid_size.y, i.workgroup_size.y),
                    grid_z: blocks(i.grid_size.z, i.workgroup_size.z),
                    block_x: i.workgroup_size.x,
                    block_y: i.workgroup_size.y,
                    block_z: i.workgroup_size.z,
                    shared_memory: i.group_segment_size,
                    registers: 0,
                    name,
                });
                true
            }
            BufferKind::MEMORY_COPY => {
                let Some(r) = read::<sys::rocprofiler_buffer_tracing_memory_copy_record_t>(payload) else {
                    return false;
                };
                use sys::rocprofiler_memory_copy_operation_t as Op;
                let (copy_kind, src_kind, dst_kind) = match r.operation {
                    Op::ROCPROFILER_MEMORY_COPY_HOST_TO_HOST => {
                        (CopyKind::HTOH, MemoryKind::PAGEABLE, MemoryKind::PAGEABLE)
                    }
                    Op::ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE => {
                        (CopyKind::HTOD, MemoryKind::PAGEABLE, MemoryKind::DEVICE)
                    }
                    Op::ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST => {
                        (CopyKind::DTOH, MemoryKind::DEVICE, MemoryKind::PAGEABLE)
                    }
                    Op::ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE => {
                        (CopyKind::DTOD, MemoryKind::DEVICE, MemoryKind::DEVICE)
                    }
                    _ => (CopyKind::UNKNOWN, MemoryKind::UNKNOWN, MemoryKind::UNKNOWN),
                };
                let gpu_side = if dst_kind == MemoryKind::DEVICE { r.dst_agent_id } else { r.src_agent_id };
                out.memcpys.push(MemcpyRow {
                    start: r.start_timestamp,
                    end: r.end_timestamp,
                    device: self.device(gpu_side.handle),
                    context: 0,
                    stream: 0,
                    correlation: r.correlation_id.internal,
                    bytes: r.bytes,
                    copy_kind,
                    src_kind,
                    dst_kind,
                    is_async: true,
                });
                true
            }
            k if API_KINDS.contains(&k) => {
                // Every API kind shares this record layout.
                let Some(r) = read::<sys::rocprofiler_buffer_tracing_hip_api_record_t>(payload) else {
                    return false;
                };
                let op_name = self.op_name(k.0, r.operation, names);
                if k == BufferKind::MARKER_CORE_API {
                    let name = match self.markers.take(r.correlation_id.internal) {
                        Some(message) => names.intern(&message),
                        None => op_name,
                    };
                    out.markers.push(MarkerRow {
                        start: r.start_timestamp,
                        end: r.end_timestamp,
                        id: r.correlation_id.internal,
                        process: self.process,
                        thread: r.thread_id,
                        device: HOST_DEVICE,
                        stream: 0,
                        domain: names.intern("roctx"),
                        name,
                        flags: r.operation as u32,
                    });
                } else {
                    out.api_calls.push(ApiRow {
                        start: r.start_timestamp,
                        end: r.end_timestamp,
                        process: self.process,
                        thread: r.thread_id,
                        correlation: r.correlation_id.internal,
                        domain: k.0,
                        cbid: r.operation as u32,
                        name: op_name,
                    });
                }
                true
            }
            _ => false,
        }
    }

    /// One counter-collection record; false when its kind is not decoded.
    fn counting(&mut self, kind: u32, payload: &[u8], out: &mut Batch, names: &mut Interner) -> bool {
        use sys::rocprofiler_counter_record_kind_t as K;
        match kind {
            k if k == K::ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER.0 => {
                let Some(h) = read::<sys::rocprofiler_dispatch_counting_service_record_t>(payload) else {
                    return false;
                };
                // A dispatch still waiting for values will get no more: its header and values
                // are written together, so what was dropped was dropped by the SDK.
                let waiting: Vec<u64> = self.dispatches.keys().copied().collect();
                for d in waiting {
                    self.emit(d, out, names);
                }
                let pending = PendingDispatch {
                    correlation: h.correlation_id.internal,
                    start: h.start_timestamp,
                    end: h.end_timestamp,
                    remaining: h.num_records,
                    sums: Vec::new(),
                };
                self.dispatches.insert(h.dispatch_info.dispatch_id, pending);
                if h.num_records == 0 {
                    self.emit(h.dispatch_info.dispatch_id, out, names);
                }
                true
            }
            k if k == K::ROCPROFILER_COUNTER_RECORD_VALUE.0 => {
                let Some(v) = read::<sys::rocprofiler_counter_record_t>(payload) else { return false };
                let counter = self.lib.record_counter(v.id).map_or(0, |c| c.0);
                let device = self.device(v.agent_id.handle);
                let Some(d) = self.dispatches.get_mut(&v.dispatch_id) else {
                    // A value without its header: a row of its own, without times.
                    let name = self.counter_name(crate::ids::CounterId(counter), names);
                    out.counters.push(CounterRow {
                        correlation: 0,
                        device,
                        counter: name,
                        value: v.counter_value,
                        start: 0,
                        end: 0,
                    });
                    return true;
                };
                match d.sums.iter_mut().find(|s| s.0 == counter && s.1 == device) {
                    Some(s) => s.2 += v.counter_value,
                    None => d.sums.push((counter, device, v.counter_value)),
                }
                d.remaining = d.remaining.saturating_sub(1);
                if d.remaining == 0 {
                    self.emit(v.dispatch_id, out, names);
                }
                true
            }
            _ => false,
        }
    }

    /// The rows of a dispatch's counters (one per counter, its instances summed).
    fn emit(&mut self, dispatch: u64, out: &mut Batch, names: &mut Interner) {
        let Some(d) = self.dispatches.remove(&dispatch) else { return };
        for (counter, device, value) in d.sums {
            let name = self.counter_name(crate::ids::CounterId(counter), names);
            out.counters.push(CounterRow {
                correlation: d.correlation,
                device,
                counter: name,
                value,
                start: d.start,
                end: d.end,
            });
        }
    }
}
