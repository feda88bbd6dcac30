//! Synchronizations, CUDA event records, external correlations and memory allocations.

use std::mem::{offset_of, size_of};

use accelprof_core::columns::{ExternalCorrelationRow, MemoryRow, SyncRow};
use accelprof_core::intern::Interner;
use accelprof_core::NameId;
use cupti_sys::{
    CUpti_ActivityCudaEvent2, CUpti_ActivityExternalCorrelation, CUpti_ActivityMemory4,
    CUpti_ActivitySynchronization2,
};

use super::bytes::{u32_at, u64_at, view};
use super::sinks::Sinks;
use super::walker::{Decoded, Walker};
use super::SYNC_TYPE_EVENT_RECORD;

type Y = CUpti_ActivitySynchronization2;
const SYNC_BYTES: usize = size_of::<Y>();
type E = CUpti_ActivityCudaEvent2;
const EVENT_BYTES: usize = size_of::<E>();
type X = CUpti_ActivityExternalCorrelation;
const EXTERNAL_BYTES: usize = size_of::<X>();
type Mem = CUpti_ActivityMemory4;
const MEMORY_BYTES: usize = size_of::<Mem>();

/// Kineto's names of `CUpti_ActivitySynchronizationType` 0..=4, then of a CUDA event record.
const SYNC_NAMES: [&str; 6] =
    ["Unknown Sync", "Event Sync", "Stream Wait Event", "Stream Sync", "Context Sync", "Event Record"];

impl Walker {
    /// The interned display name of a sync type (index into [`SYNC_NAMES`]), interned once.
    fn sync_name(&mut self, index: usize, names: &mut Interner) -> NameId {
        let index = index.min(SYNC_NAMES.len() - 1);
        if self.sync_names[index] == u32::MAX {
            self.sync_names[index] = names.intern(SYNC_NAMES[index]).0;
        }
        NameId(self.sync_names[index])
    }

    /// The display name of a `CUpti_ActivitySynchronizationType`.
    pub(super) fn sync_type_name(&mut self, sync_type: u32, names: &mut Interner) -> NameId {
        self.sync_name(if sync_type <= 4 { sync_type as usize } else { 0 }, names)
    }

    pub(super) fn device_of(&self, context: u32) -> u32 {
        self.context_devices.get(&context).copied().unwrap_or(0)
    }

    /// A synchronization: advances the fence clock; a row only when the session asked for them.
    pub(super) fn synchronization(
        &mut self,
        rec: &[u8],
        out: &mut Sinks<'_>,
        names: &mut Interner,
    ) -> Decoded {
        let Some(r) = view::<SYNC_BYTES>(rec) else { return Decoded::Skipped };
        let end = u64_at(r, offset_of!(Y, end));
        self.shared.sync_seen(end);
        if !self.emit_sync {
            self.shared.fence_record();
            return Decoded::Held;
        }
        let sync_type = u32_at(r, offset_of!(Y, type_));
        let context = u32_at(r, offset_of!(Y, contextId));
        let name = self.sync_type_name(sync_type, names);
        out.syncs.push(SyncRow {
            start: u64_at(r, offset_of!(Y, start)),
            end,
            device: self.device_of(context),
            context,
            stream: u64::from(u32_at(r, offset_of!(Y, streamId))),
            correlation: u64::from(u32_at(r, offset_of!(Y, correlationId))),
            sync_type,
            event: u64::from(u32_at(r, offset_of!(Y, cudaEventId))),
            name,
        });
        Decoded::Row
    }

    /// A CUDA event record (`cudaEventRecord`): a point in time on a stream (the device timestamp, 0
    /// unless device timestamps for CUDA events are enabled).
    pub(super) fn cuda_event(&mut self, rec: &[u8], out: &mut Sinks<'_>, names: &mut Interner) -> Decoded {
        let Some(r) = view::<EVENT_BYTES>(rec) else { return Decoded::Skipped };
        let at = u64_at(r, offset_of!(E, deviceTimestamp));
        let name = self.sync_name(5, names);
        out.syncs.push(SyncRow {
            start: at,
            end: at,
            device: u32_at(r, offset_of!(E, deviceId)),
            context: u32_at(r, offset_of!(E, contextId)),
            stream: u64::from(u32_at(r, offset_of!(E, streamId))),
            correlation: u64::from(u32_at(r, offset_of!(E, correlationId))),
            sync_type: SYNC_TYPE_EVENT_RECORD,
            event: u64::from(u32_at(r, offset_of!(E, eventId))),
            name,
        });
        Decoded::Row
    }

    pub(super) fn external_correlation(&mut self, rec: &[u8], out: &mut Sinks<'_>) -> Decoded {
        let Some(r) = view::<EXTERNAL_BYTES>(rec) else { return Decoded::Skipped };
        out.external_correlations.push(ExternalCorrelationRow {
            external_kind: u32_at(r, offset_of!(X, externalKind)),
            external_id: u64_at(r, offset_of!(X, externalId)),
            correlation: u64::from(u32_at(r, offset_of!(X, correlationId))),
        });
        Decoded::Row
    }

    /// An allocation or free (`CUPTI_ACTIVITY_KIND_MEMORY2`): one timestamp, start = end.
    pub(super) fn memory(&mut self, rec: &[u8], out: &mut Sinks<'_>) -> Decoded {
        let Some(r) = view::<MEMORY_BYTES>(rec) else { return Decoded::Skipped };
        let at = u64_at(r, offset_of!(Mem, timestamp));
        out.memory.push(MemoryRow {
            start: at,
            end: at,
            device: u32_at(r, offset_of!(Mem, deviceId)),
            stream: u64::from(u32_at(r, offset_of!(Mem, streamId))),
            correlation: u64::from(u32_at(r, offset_of!(Mem, correlationId))),
            address: u64_at(r, offset_of!(Mem, address)),
            bytes: u64_at(r, offset_of!(Mem, bytes)),
            op: u32_at(r, offset_of!(Mem, memoryOperationType)),
            memory_kind: u32_at(r, offset_of!(Mem, memoryKind)),
            process: u32_at(r, offset_of!(Mem, processId)),
        });
        Decoded::Row
    }
}
