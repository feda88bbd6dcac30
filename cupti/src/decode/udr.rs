//! User-defined records (CUPTI 13.3 and later): records that hold only the fields the session selected,
//! laid out as CUPTI reports for each buffer (`CUpti_BufferCallbackCompleteInfo::ppRecordLayouts`, an
//! array indexed by activity kind).
//!
//! The layouts are copied when CUPTI completes the buffer (they are valid only during that call) and
//! travel with it to the decode thread ([`LayoutBook`]), so a buffer is always decoded against the
//! selection that was active when it was filled. Offsets come only from CUPTI's layout, never from our
//! own idea of how the fields pack. Under user-defined records `correlationId` and `threadId` are
//! 64-bit; every field is read at the width the layout gives.

use std::ffi::c_char;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use accelprof_core::columns::ApiRow;
use accelprof_core::columns::{
    CopyKind, ExternalCorrelationRow, KernelRow, MemcpyRow, MemoryKind, MemoryRow, MemsetRow, SyncRow,
};
use accelprof_core::intern::Interner;
use accelprof_core::{NameId, WalkStats};
use cupti_sys::v13_5 as sys;

use super::bytes::kind_at;
use super::sinks::Sinks;
use super::walker::{Decoded, Walker};
use super::{kinds, API_DOMAIN_DRIVER, API_DOMAIN_RUNTIME};
use crate::activity::ActivityKind;

/// Kinds a layout array can describe (ppRecordLayouts is indexed by kind).
const MAX_KINDS: usize = 64;
/// Most fields one kind's layout may list (the 13.5 headers define at most 49 per kind).
const MAX_FIELDS: usize = 256;

/// One field of CUPTI's layout of a kind: `(field id, offset, size)`.
type RawField = (u32, usize, usize);

/// CUPTI's layout of one kind's records, copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawLayout {
    kind: u32,
    record_size: usize,
    fields: Vec<RawField>,
}

/// Where a column's field sits in a record: `size` bytes at `off` (`size` 0: not selected, reads 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    off: u16,
    size: u8,
}

impl Slot {
    /// The field's value, zero-extended (little-endian, as CUPTI writes on every platform it runs on).
    #[inline(always)]
    fn read(self, rec: &[u8]) -> u64 {
        let at = usize::from(self.off);
        match self.size {
            1 => rec.get(at).map_or(0, |&b| u64::from(b)),
            2 => rec.get(at..at + 2).map_or(0, |b| u64::from(u16::from_ne_bytes([b[0], b[1]]))),
            4 => rec.get(at..at + 4).map_or(0, |b| u64::from(u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))),
            8 => rec.get(at..at + 8).map_or(0, |b| u64::from_ne_bytes(b.try_into().expect("8 bytes"))),
            _ => 0,
        }
    }

    #[inline(always)]
    fn u32(self, rec: &[u8]) -> u32 {
        self.read(rec) as u32
    }

    /// A signed 32-bit count (grid and block sizes, shared memory): negative reads as 0.
    #[inline(always)]
    fn count(self, rec: &[u8]) -> u32 {
        (self.read(rec) as u32 as i32).max(0) as u32
    }
}

/// Columns per record family, each the index of its [`Slot`].
mod col {
    pub(super) const START: usize = 0;
    pub(super) const END: usize = 1;
    pub(super) const DEVICE: usize = 2;
    pub(super) const CONTEXT: usize = 3;
    pub(super) const STREAM: usize = 4;
    pub(super) const CORRELATION: usize = 5;
    // Kernels.
    pub(super) const GRID_X: usize = 6;
    pub(super) const GRID_Y: usize = 7;
    pub(super) const GRID_Z: usize = 8;
    pub(super) const BLOCK_X: usize = 9;
    pub(super) const BLOCK_Y: usize = 10;
    pub(super) const BLOCK_Z: usize = 11;
    pub(super) const STATIC_SHARED: usize = 12;
    pub(super) const DYNAMIC_SHARED: usize = 13;
    pub(super) const REGISTERS: usize = 14;
    pub(super) const NAME: usize = 15;
    // Copies and sets (and memory).
    pub(super) const BYTES: usize = 6;
    pub(super) const COPY_KIND: usize = 7;
    pub(super) const SRC_KIND: usize = 8;
    pub(super) const DST_KIND: usize = 9;
    pub(super) const FLAGS: usize = 10;
    pub(super) const VALUE: usize = 11;
    pub(super) const MEMORY_KIND: usize = 12;
    // API calls.
    pub(super) const CBID: usize = 6;
    pub(super) const PROCESS: usize = 7;
    pub(super) const THREAD: usize = 8;
    // Synchronizations.
    pub(super) const SYNC_TYPE: usize = 6;
    pub(super) const EVENT: usize = 7;
    // External correlations.
    pub(super) const EXTERNAL_KIND: usize = 6;
    pub(super) const EXTERNAL_ID: usize = 7;
    // Memory.
    pub(super) const ADDRESS: usize = 13;
    pub(super) const OPERATION: usize = 14;
    pub(super) const TIMESTAMP: usize = 15;
    pub(super) const MEMORY_PROCESS: usize = 7;
    pub(super) const COUNT: usize = 16;
}

/// `(field id, column)` of every field the decoder reads, per kind.
fn columns_of(kind: u32) -> &'static [(u32, usize)] {
    use sys::CUpti_ActivityApiFieldIds as A;
    use sys::CUpti_ActivityExternalCorrelationFieldIds as X;
    use sys::CUpti_ActivityKernelFieldIds as K;
    use sys::CUpti_ActivityMemcpyFieldIds as C;
    use sys::CUpti_ActivityMemoryFieldIds as M;
    use sys::CUpti_ActivityMemsetFieldIds as S;
    use sys::CUpti_ActivitySynchronizationFieldIds as Y;
    const KERNEL: &[(u32, usize)] = &[
        (K::KERNEL_FIELD_START.0, col::START),
        (K::KERNEL_FIELD_END.0, col::END),
        (K::KERNEL_FIELD_DEVICE_ID.0, col::DEVICE),
        (K::KERNEL_FIELD_CONTEXT_ID.0, col::CONTEXT),
        (K::KERNEL_FIELD_STREAM_ID.0, col::STREAM),
        (K::KERNEL_FIELD_CORRELATION_ID.0, col::CORRELATION),
        (K::KERNEL_FIELD_GRID_X.0, col::GRID_X),
        (K::KERNEL_FIELD_GRID_Y.0, col::GRID_Y),
        (K::KERNEL_FIELD_GRID_Z.0, col::GRID_Z),
        (K::KERNEL_FIELD_BLOCK_X.0, col::BLOCK_X),
        (K::KERNEL_FIELD_BLOCK_Y.0, col::BLOCK_Y),
        (K::KERNEL_FIELD_BLOCK_Z.0, col::BLOCK_Z),
        (K::KERNEL_FIELD_STATIC_SHARED_MEMORY.0, col::STATIC_SHARED),
        (K::KERNEL_FIELD_DYNAMIC_SHARED_MEMORY.0, col::DYNAMIC_SHARED),
        (K::KERNEL_FIELD_REGISTERS_PER_THREAD.0, col::REGISTERS),
        (K::KERNEL_FIELD_NAME.0, col::NAME),
    ];
    const MEMCPY: &[(u32, usize)] = &[
        (C::MEMCPY_FIELD_START.0, col::START),
        (C::MEMCPY_FIELD_END.0, col::END),
        (C::MEMCPY_FIELD_DEVICE_ID.0, col::DEVICE),
        (C::MEMCPY_FIELD_CONTEXT_ID.0, col::CONTEXT),
        (C::MEMCPY_FIELD_STREAM_ID.0, col::STREAM),
        (C::MEMCPY_FIELD_CORRELATION_ID.0, col::CORRELATION),
        (C::MEMCPY_FIELD_BYTES.0, col::BYTES),
        (C::MEMCPY_FIELD_COPY_KIND.0, col::COPY_KIND),
        (C::MEMCPY_FIELD_SRC_KIND.0, col::SRC_KIND),
        (C::MEMCPY_FIELD_DST_KIND.0, col::DST_KIND),
        (C::MEMCPY_FIELD_FLAGS.0, col::FLAGS),
    ];
    const MEMSET: &[(u32, usize)] = &[
        (S::MEMSET_FIELD_START.0, col::START),
        (S::MEMSET_FIELD_END.0, col::END),
        (S::MEMSET_FIELD_DEVICE_ID.0, col::DEVICE),
        (S::MEMSET_FIELD_CONTEXT_ID.0, col::CONTEXT),
        (S::MEMSET_FIELD_STREAM_ID.0, col::STREAM),
        (S::MEMSET_FIELD_CORRELATION_ID.0, col::CORRELATION),
        (S::MEMSET_FIELD_BYTES.0, col::BYTES),
        (S::MEMSET_FIELD_VALUE.0, col::VALUE),
        (S::MEMSET_FIELD_MEMORY_KIND.0, col::MEMORY_KIND),
    ];
    const API: &[(u32, usize)] = &[
        (A::API_FIELD_START.0, col::START),
        (A::API_FIELD_END.0, col::END),
        (A::API_FIELD_CORRELATION_ID.0, col::CORRELATION),
        (A::API_FIELD_CBID.0, col::CBID),
        (A::API_FIELD_PROCESS_ID.0, col::PROCESS),
        (A::API_FIELD_THREAD_ID.0, col::THREAD),
    ];
    const SYNC: &[(u32, usize)] = &[
        (Y::SYNCHRONIZATION_FIELD_START.0, col::START),
        (Y::SYNCHRONIZATION_FIELD_END.0, col::END),
        (Y::SYNCHRONIZATION_FIELD_CONTEXT_ID.0, col::CONTEXT),
        (Y::SYNCHRONIZATION_FIELD_STREAM_ID.0, col::STREAM),
        (Y::SYNCHRONIZATION_FIELD_CORRELATION_ID.0, col::CORRELATION),
        (Y::SYNCHRONIZATION_FIELD_TYPE.0, col::SYNC_TYPE),
        (Y::SYNCHRONIZATION_FIELD_CUDA_EVENT_ID.0, col::EVENT),
    ];
    const EXTERNAL: &[(u32, usize)] = &[
        (X::EXTERNAL_CORRELATION_FIELD_CORRELATION_ID.0, col::CORRELATION),
        (X::EXTERNAL_CORRELATION_FIELD_EXTERNAL_KIND.0, col::EXTERNAL_KIND),
        (X::EXTERNAL_CORRELATION_FIELD_EXTERNAL_ID.0, col::EXTERNAL_ID),
    ];
    const MEMORY: &[(u32, usize)] = &[
        (M::MEMORY_FIELD_DEVICE_ID.0, col::DEVICE),
        (M::MEMORY_FIELD_STREAM_ID.0, col::STREAM),
        (M::MEMORY_FIELD_CORRELATION_ID.0, col::CORRELATION),
        (M::MEMORY_FIELD_BYTES.0, col::BYTES),
        (M::MEMORY_FIELD_MEMORY_KIND.0, col::MEMORY_KIND),
        (M::MEMORY_FIELD_ADDRESS.0, col::ADDRESS),
        (M::MEMORY_FIELD_OPERATION_TYPE.0, col::OPERATION),
        (M::MEMORY_FIELD_TIMESTAMP.0, col::TIMESTAMP),
        (M::MEMORY_FIELD_PROCESS_ID.0, col::MEMORY_PROCESS),
    ];
    match kind {
        kinds::KERNEL | kinds::CONCURRENT_KERNEL => KERNEL,
        kinds::MEMCPY => MEMCPY,
        kinds::MEMSET => MEMSET,
        kinds::RUNTIME | kinds::DRIVER => API,
        kinds::SYNCHRONIZATION => SYNC,
        kinds::EXTERNAL_CORRELATION => EXTERNAL,
        kinds::MEMORY2 => MEMORY,
        _ => &[],
    }
}

/// The field ids of `kind` that the decoder turns into columns (the kind field included).
pub fn udr_fields_read(kind: ActivityKind) -> Vec<u32> {
    let mut ids = vec![crate::activity::KIND_FIELD];
    ids.extend(columns_of(kind.0).iter().map(|(id, _)| *id));
    ids
}

/// One kind's layout, resolved to the slots of the columns the decoder fills.
#[derive(Clone, Debug)]
struct KindTable {
    record_size: usize,
    slots: [Slot; col::COUNT],
}

/// The layouts of one buffer: CUPTI's, and each kind's slots.
#[derive(Debug)]
pub(crate) struct Layouts {
    raw: Vec<RawLayout>,
    tables: Vec<Option<KindTable>>,
}

impl Layouts {
    /// Resolves `raw` (one entry per kind). A kind whose layout does not start with its 4-byte kind
    /// field at offset 0, or lists a field outside the record, gets no table (its records stop the walk
    /// of a buffer, counted as truncated).
    pub(crate) fn new(raw: Vec<RawLayout>) -> Layouts {
        let mut tables = vec![None; MAX_KINDS];
        for layout in &raw {
            let sound = layout.record_size >= 8
                && layout.record_size % 8 == 0
                && layout.record_size <= usize::from(u16::MAX)
                && layout.fields.first() == Some(&(crate::activity::KIND_FIELD, 0, 4))
                && layout.fields.iter().all(|&(_, off, size)| {
                    matches!(size, 1 | 2 | 4 | 8 | 12 | 16 | 20 | 24) && off + size <= layout.record_size
                });
            let Some(entry) = tables.get_mut(layout.kind as usize) else { continue };
            if !sound {
                continue;
            }
            let mut slots = [Slot::default(); col::COUNT];
            for &(id, column) in columns_of(layout.kind) {
                if let Some(&(_, off, size)) = layout.fields.iter().find(|f| f.0 == id) {
                    // Wider fields than 8 bytes are never one of ours; leave them unread.
                    if size <= 8 {
                        slots[column] = Slot { off: off as u16, size: size as u8 };
                    }
                }
            }
            *entry = Some(KindTable { record_size: layout.record_size, slots });
        }
        Layouts { raw, tables }
    }

    fn table(&self, kind: u32) -> Option<&KindTable> {
        self.tables.get(kind as usize)?.as_ref()
    }

    /// The record size of `kind` (`None`: no layout for it in this buffer).
    #[cfg(test)]
    pub(crate) fn record_size(&self, kind: u32) -> Option<usize> {
        self.table(kind).map(|t| t.record_size)
    }
}

/// Copies CUPTI's layouts out of a buffer-completed callback's info into `out` (cleared first); false
/// when there are none (13.2 leaves `ppRecordLayouts` NULL) or the structs are smaller than ours.
///
/// # Safety
/// `info` is NULL or points to the `CUpti_BufferCallbackCompleteInfo` CUPTI passed to the running
/// completion callback (its layouts are valid for the duration of that call).
pub(crate) unsafe fn copy_layouts(
    info: *const sys::CUpti_BufferCallbackCompleteInfo,
    out: &mut Vec<RawLayout>,
) -> bool {
    use std::mem::size_of;
    out.clear();
    // SAFETY: the caller's contract; every pointer below is checked for NULL and each struct's
    // `structSize` for covering the fields read, and counts are bounded.
    unsafe {
        let Some(info) = info.as_ref() else { return false };
        if info.structSize < size_of::<sys::CUpti_BufferCallbackCompleteInfo>()
            || info.ppRecordLayouts.is_null()
        {
            return false;
        }
        for kind in 0..info.numRecordLayouts.min(MAX_KINDS) {
            let Some(layout) = (*info.ppRecordLayouts.add(kind)).as_ref() else { continue };
            if layout.structSize < size_of::<sys::CUpti_ActivityRecordLayout>()
                || layout.pEntries.is_null()
                || layout.numFields > MAX_FIELDS
            {
                continue;
            }
            // Entries are laid out by the library's own entry size (which may have grown).
            let first = &*layout.pEntries;
            let stride = first.structSize;
            if stride < size_of::<sys::CUpti_ActivityFieldLayoutEntry>() || stride % 8 != 0 {
                continue;
            }
            let base = layout.pEntries.cast::<u8>();
            let fields = (0..layout.numFields)
                .map(|i| {
                    let e = &*base.add(i * stride).cast::<sys::CUpti_ActivityFieldLayoutEntry>();
                    (e.fieldId as u32, e.offset, e.size)
                })
                .collect();
            out.push(RawLayout { kind: kind as u32, record_size: layout.recordSize, fields });
        }
    }
    !out.is_empty()
}

/// The layouts of buffers on their way from CUPTI's completion callback to the decode thread, keyed by
/// the buffer's address. Consecutive buffers with the same layouts share one [`Layouts`].
#[derive(Debug, Default)]
pub(crate) struct LayoutBook {
    active: AtomicBool,
    inner: Mutex<BookInner>,
}

#[derive(Debug, Default)]
struct BookInner {
    current: Option<Arc<Layouts>>,
    scratch: Vec<RawLayout>,
    pending: Vec<(usize, Arc<Layouts>)>,
}

impl LayoutBook {
    /// Records the layouts of the buffer at `buffer`, completed now with `info`.
    ///
    /// # Safety
    /// As for [`copy_layouts`].
    pub(crate) unsafe fn note(&self, buffer: *const u8, info: *const sys::CUpti_BufferCallbackCompleteInfo) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let mut scratch = std::mem::take(&mut inner.scratch);
        // SAFETY: the caller's contract.
        let any = unsafe { copy_layouts(info, &mut scratch) };
        if any {
            let layouts = match &inner.current {
                Some(current) if current.raw == scratch => Arc::clone(current),
                _ => {
                    let fresh = Arc::new(Layouts::new(scratch.clone()));
                    inner.current = Some(Arc::clone(&fresh));
                    fresh
                }
            };
            inner.pending.push((buffer as usize, layouts));
            self.active.store(true, Ordering::Release);
        }
        inner.scratch = scratch;
    }

    /// The layouts noted for the buffer at `buffer`, removed from the book.
    pub(crate) fn take(&self, buffer: *const u8) -> Option<Arc<Layouts>> {
        if !self.active.load(Ordering::Acquire) {
            return None;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let at = inner.pending.iter().position(|(b, _)| *b == buffer as usize)?;
        Some(inner.pending.swap_remove(at).1)
    }
}

impl Walker {
    /// Walks a buffer of user-defined records, by the layouts CUPTI gave for it.
    pub(super) fn walk_user_defined(
        &mut self,
        bytes: &[u8],
        layouts: &Layouts,
        out: &mut Sinks<'_>,
        names: &mut Interner,
    ) -> WalkStats {
        let mut stats = WalkStats::default();
        let mut off = 0;
        while off < bytes.len() {
            let rest = &bytes[off..];
            let table = kind_at(bytes, off).and_then(|kind| Some((kind, layouts.table(kind)?)));
            let Some((kind, table)) = table.filter(|(_, t)| t.record_size <= rest.len()) else {
                stats.skipped_unknown += 1;
                if table.is_none() {
                    // No layout for this kind: the bytes from here may hold records no one can count
                    // (one of known size running past the end is the last one).
                    stats.abandoned_bytes = rest.len() as u64;
                }
                self.shared.truncated();
                if let Some(kind) = kind_at(bytes, off) {
                    self.shared.skipped_kind(kind);
                }
                break;
            };
            let rec = &rest[..table.record_size];
            match self.decode_user_defined(kind, &table.slots, rec, out, names) {
                Decoded::Row | Decoded::Held => stats.records += 1,
                Decoded::Filtered => stats.filtered += 1,
                Decoded::Skipped => {
                    stats.skipped_unknown += 1;
                    self.shared.skipped_kind(kind);
                }
            }
            off += table.record_size;
        }
        stats
    }

    fn decode_user_defined(
        &mut self,
        kind: u32,
        s: &[Slot; col::COUNT],
        r: &[u8],
        out: &mut Sinks<'_>,
        names: &mut Interner,
    ) -> Decoded {
        let at = |c: usize| s[c].read(r);
        match kind {
            kinds::KERNEL | kinds::CONCURRENT_KERNEL => {
                let (device, context) = (s[col::DEVICE].u32(r), s[col::CONTEXT].u32(r));
                self.context_on(context, device);
                let ptr = at(col::NAME) as usize as *const c_char;
                let name = if self.read_strings {
                    // SAFETY: a walker that reads strings was made with `Walker::new`'s contract:
                    // the kernel name is NULL or a NUL-terminated string valid for this walk. An
                    // unselected name reads as NULL.
                    unsafe { self.kernel_names.intern(ptr, names) }
                } else {
                    NameId::NONE
                };
                out.kernels.push(KernelRow {
                    start: at(col::START),
                    end: at(col::END),
                    device,
                    context,
                    stream: at(col::STREAM),
                    correlation: at(col::CORRELATION),
                    grid_x: s[col::GRID_X].count(r),
                    grid_y: s[col::GRID_Y].count(r),
                    grid_z: s[col::GRID_Z].count(r),
                    block_x: s[col::BLOCK_X].count(r),
                    block_y: s[col::BLOCK_Y].count(r),
                    block_z: s[col::BLOCK_Z].count(r),
                    shared_memory: s[col::STATIC_SHARED]
                        .count(r)
                        .saturating_add(s[col::DYNAMIC_SHARED].count(r)),
                    registers: at(col::REGISTERS) as u16,
                    name,
                });
                Decoded::Row
            }
            kinds::MEMCPY => {
                let (device, context) = (s[col::DEVICE].u32(r), s[col::CONTEXT].u32(r));
                self.context_on(context, device);
                out.memcpys.push(MemcpyRow {
                    start: at(col::START),
                    end: at(col::END),
                    device,
                    context,
                    stream: at(col::STREAM),
                    correlation: at(col::CORRELATION),
                    bytes: at(col::BYTES),
                    copy_kind: CopyKind(at(col::COPY_KIND) as u8),
                    src_kind: memory_kind(at(col::SRC_KIND)),
                    dst_kind: memory_kind(at(col::DST_KIND)),
                    is_async: at(col::FLAGS) & 1 != 0,
                });
                Decoded::Row
            }
            kinds::MEMSET => {
                let (device, context) = (s[col::DEVICE].u32(r), s[col::CONTEXT].u32(r));
                self.context_on(context, device);
                out.memsets.push(MemsetRow {
                    start: at(col::START),
                    end: at(col::END),
                    device,
                    context,
                    stream: at(col::STREAM),
                    correlation: at(col::CORRELATION),
                    bytes: at(col::BYTES),
                    value: s[col::VALUE].u32(r),
                    memory_kind: memory_kind(at(col::MEMORY_KIND)),
                });
                Decoded::Row
            }
            kinds::RUNTIME | kinds::DRIVER => {
                let domain = if kind == kinds::DRIVER { API_DOMAIN_DRIVER } else { API_DOMAIN_RUNTIME };
                let cbid = s[col::CBID].u32(r);
                let Some(name) = self.api_name(domain, cbid, names) else { return Decoded::Filtered };
                out.api_calls.push(ApiRow {
                    start: at(col::START),
                    end: at(col::END),
                    process: s[col::PROCESS].u32(r),
                    thread: at(col::THREAD),
                    correlation: at(col::CORRELATION),
                    domain,
                    cbid,
                    name,
                });
                Decoded::Row
            }
            kinds::SYNCHRONIZATION => {
                let end = at(col::END);
                self.shared.sync_seen(end);
                if !self.emit_sync {
                    self.shared.fence_record();
                    return Decoded::Held;
                }
                let sync_type = s[col::SYNC_TYPE].u32(r);
                let context = s[col::CONTEXT].u32(r);
                let name = self.sync_type_name(sync_type, names);
                out.syncs.push(SyncRow {
                    start: at(col::START),
                    end,
                    device: self.device_of(context),
                    context,
                    stream: at(col::STREAM),
                    correlation: at(col::CORRELATION),
                    sync_type,
                    event: at(col::EVENT),
                    name,
                });
                Decoded::Row
            }
            kinds::EXTERNAL_CORRELATION => {
                out.external_correlations.push(ExternalCorrelationRow {
                    external_kind: s[col::EXTERNAL_KIND].u32(r),
                    external_id: at(col::EXTERNAL_ID),
                    correlation: at(col::CORRELATION),
                });
                Decoded::Row
            }
            kinds::MEMORY2 => {
                let t = at(col::TIMESTAMP);
                out.memory.push(MemoryRow {
                    start: t,
                    end: t,
                    device: s[col::DEVICE].u32(r),
                    stream: at(col::STREAM),
                    correlation: at(col::CORRELATION),
                    address: at(col::ADDRESS),
                    bytes: at(col::BYTES),
                    op: s[col::OPERATION].u32(r),
                    memory_kind: s[col::MEMORY_KIND].u32(r),
                    process: s[col::MEMORY_PROCESS].u32(r),
                });
                Decoded::Row
            }
            _ => Decoded::Skipped,
        }
    }
}

fn memory_kind(raw: u64) -> MemoryKind {
    u8::try_from(raw).map_or(MemoryKind::UNKNOWN, MemoryKind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_resolve_by_cupti_offsets_and_reject_unsound_ones() {
        use sys::CUpti_ActivityApiFieldIds as A;
        let api = RawLayout {
            kind: kinds::RUNTIME,
            record_size: 40,
            // Packed by size, not in id order: the decoder must follow the offsets.
            fields: vec![
                (0, 0, 4),
                (A::API_FIELD_CBID.0, 4, 4),
                (A::API_FIELD_END.0, 8, 8),
                (A::API_FIELD_START.0, 16, 8),
                (A::API_FIELD_CORRELATION_ID.0, 24, 8),
            ],
        };
        let bad = RawLayout {
            kind: kinds::DRIVER,
            record_size: 16,
            fields: vec![(0, 0, 4), (A::API_FIELD_END.0, 12, 8)],
        };
        let l = Layouts::new(vec![api, bad]);
        assert_eq!(l.record_size(kinds::RUNTIME), Some(40));
        assert_eq!(l.record_size(kinds::DRIVER), None, "a field past the record end");
        let t = l.table(kinds::RUNTIME).unwrap();
        let mut rec = [0u8; 40];
        rec[..4].copy_from_slice(&5u32.to_ne_bytes());
        rec[16..24].copy_from_slice(&111u64.to_ne_bytes());
        rec[8..16].copy_from_slice(&222u64.to_ne_bytes());
        rec[24..32].copy_from_slice(&(1u64 << 40).to_ne_bytes());
        assert_eq!(t.slots[col::START].read(&rec), 111);
        assert_eq!(t.slots[col::END].read(&rec), 222);
        assert_eq!(t.slots[col::CORRELATION].read(&rec), 1 << 40, "64-bit correlation ids");
        assert_eq!(t.slots[col::THREAD].read(&rec), 0, "not selected: 0");
    }
}
