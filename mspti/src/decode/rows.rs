//! One MSPTI record -> one row of the shared columns.

use std::ffi::{c_char, CStr};

use accelprof_core::columns::{
    ApiRow, CollectiveRow, CopyKind, ExternalCorrelationRow, KernelRow, MarkerRow, MemcpyRow, MemoryKind,
    MemoryRow, MemsetRow, HOST_DEVICE,
};
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, NameId};
use mspti_sys::records::{self as rec, read_record};
use mspti_sys::{msptiActivityKind as K, msptiActivityMemcpyKind as C, msptiActivitySourceKind};

/// A name from a record: NULL and "" are no name.
fn name(names: &mut Interner, p: *const c_char) -> NameId {
    if p.is_null() {
        return NameId::NONE;
    }
    // SAFETY: MSPTI's record names point into strings it keeps for the life of the process
    // (its name caches are never freed), NUL-terminated.
    let bytes = unsafe { CStr::from_ptr(p) }.to_bytes();
    if bytes.is_empty() {
        NameId::NONE
    } else {
        names.intern_bytes(bytes)
    }
}

fn copy_kind(kind: C) -> (CopyKind, MemoryKind, MemoryKind) {
    let (h, d) = (MemoryKind::UNKNOWN, MemoryKind::DEVICE);
    match kind {
        C::MSPTI_ACTIVITY_MEMCPY_KIND_HTOH => (CopyKind::HTOH, h, h),
        C::MSPTI_ACTIVITY_MEMCPY_KIND_HTOD => (CopyKind::HTOD, h, d),
        C::MSPTI_ACTIVITY_MEMCPY_KIND_DTOH => (CopyKind::DTOH, d, h),
        C::MSPTI_ACTIVITY_MEMCPY_KIND_DTOD => (CopyKind::DTOD, d, d),
        _ => (CopyKind::UNKNOWN, MemoryKind::UNKNOWN, MemoryKind::UNKNOWN),
    }
}

/// Bytes per element of a communication data type (0 when unknown).
pub fn data_type_size(data_type: u32) -> u64 {
    match data_type {
        0 | 7 | 14..=17 => 1, // INT8, UINT8, HIF8 and the FP8s
        1 | 3 | 8 | 11 => 2,  // INT16, FP16, UINT16, BFP16
        2 | 4 | 9 => 4,       // INT32, FP32, UINT32
        5 | 6 | 10 => 8,      // INT64, UINT64, FP64
        12 => 16,             // INT128
        _ => 0,
    }
}

pub(crate) fn decode(kind: K, bytes: &[u8], out: &mut Batch, names: &mut Interner) {
    match kind {
        K::MSPTI_ACTIVITY_KIND_API
        | K::MSPTI_ACTIVITY_KIND_ACL_API
        | K::MSPTI_ACTIVITY_KIND_NODE_API
        | K::MSPTI_ACTIVITY_KIND_RUNTIME_API => {
            let Some(r) = read_record::<rec::msptiActivityApi>(bytes) else { return };
            out.api_calls.push(ApiRow {
                start: r.start,
                end: r.end,
                process: r.pt.processId,
                thread: r.pt.threadId.into(),
                correlation: r.correlationId,
                domain: kind.0,
                cbid: 0,
                name: name(names, r.name),
            });
        }
        K::MSPTI_ACTIVITY_KIND_KERNEL => {
            let Some(r) = read_record::<rec::msptiActivityKernel>(bytes) else { return };
            out.kernels.push(KernelRow {
                start: r.start,
                end: r.end,
                device: r.ds.deviceId,
                stream: r.ds.streamId.into(),
                correlation: r.correlationId,
                name: name(names, r.name),
                ..KernelRow::default()
            });
        }
        K::MSPTI_ACTIVITY_KIND_MARKER => {
            let Some(r) = read_record::<rec::msptiActivityMarker>(bytes) else { return };
            // SAFETY: both union variants are two u32s.
            let object = unsafe { r.objectId.pt };
            let host = { r.sourceKind } == msptiActivitySourceKind::MSPTI_ACTIVITY_SOURCE_KIND_HOST;
            out.markers.push(MarkerRow {
                start: r.timestamp,
                end: r.timestamp,
                id: r.id,
                process: if host { object.processId } else { 0 },
                thread: if host { object.threadId.into() } else { 0 },
                device: if host { HOST_DEVICE } else { object.processId },
                stream: if host { 0 } else { object.threadId.into() },
                domain: name(names, r.domain),
                name: name(names, r.name),
                flags: r.flag.0,
            });
        }
        K::MSPTI_ACTIVITY_KIND_HCCL => {
            let Some(r) = read_record::<rec::msptiActivityHccl>(bytes) else { return };
            out.collectives.push(CollectiveRow {
                start: r.start,
                end: r.end,
                device: r.ds.deviceId,
                stream: r.ds.streamId.into(),
                name: name(names, r.name),
                comm_name: name(names, r.commName),
                bandwidth_gbps: r.bandWidth,
                ..CollectiveRow::default()
            });
        }
        K::MSPTI_ACTIVITY_KIND_COMMUNICATION => {
            let Some(r) = read_record::<rec::msptiActivityCommunication>(bytes) else { return };
            out.collectives.push(CollectiveRow {
                start: r.start,
                end: r.end,
                device: r.ds.deviceId,
                stream: r.ds.streamId.into(),
                correlation: r.correlationId,
                name: name(names, r.name),
                comm_name: name(names, r.commName),
                count: r.count,
                bytes: r.count.saturating_mul(data_type_size(r.dataType.0)),
                bandwidth_gbps: 0.0,
                data_type: r.dataType.0,
                algorithm: name(names, r.algType),
            });
        }
        K::MSPTI_ACTIVITY_KIND_MEMORY => {
            let Some(r) = read_record::<rec::msptiActivityMemory>(bytes) else { return };
            out.memory.push(MemoryRow {
                start: r.start,
                end: r.end,
                device: r.deviceId,
                stream: r.streamId.into(),
                correlation: r.correlationId,
                address: r.address,
                bytes: r.bytes,
                op: r.memoryOperationType.0,
                memory_kind: r.memoryKind.0,
                process: r.processId,
            });
        }
        K::MSPTI_ACTIVITY_KIND_MEMSET => {
            let Some(r) = read_record::<rec::msptiActivityMemset>(bytes) else { return };
            out.memsets.push(MemsetRow {
                start: r.start,
                end: r.end,
                device: r.deviceId,
                context: 0,
                stream: r.streamId.into(),
                correlation: r.correlationId,
                bytes: r.bytes,
                value: r.value,
                memory_kind: MemoryKind::DEVICE,
            });
        }
        K::MSPTI_ACTIVITY_KIND_MEMCPY => {
            let Some(r) = read_record::<rec::msptiActivityMemcpy>(bytes) else { return };
            let (copy_kind, src_kind, dst_kind) = copy_kind(r.copyKind);
            out.memcpys.push(MemcpyRow {
                start: r.start,
                end: r.end,
                device: r.deviceId,
                context: 0,
                stream: r.streamId.into(),
                correlation: r.correlationId,
                bytes: r.bytes,
                copy_kind,
                src_kind,
                dst_kind,
                is_async: r.isAsync != 0,
            });
        }
        K::MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION => {
            let Some(r) = read_record::<rec::msptiActivityExternalCorrelation>(bytes) else { return };
            out.external_correlations.push(ExternalCorrelationRow {
                external_kind: r.externalKind.0,
                external_id: r.externalId,
                correlation: r.correlationId,
            });
        }
        _ => {}
    }
}
