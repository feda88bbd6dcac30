//! User-defined records (13.2 beta, 13.3 production): a record holds the selected fields only, laid out
//! as the layouts handed to the buffer-completed callback say (`ppRecordLayouts`, indexed by kind).
//!
//! What the mock does (headers' documentation unless marked):
//! - The kind field (id 0) must be the first field selected.
//! - `correlationId` and `threadId` are 64-bit; every other field keeps its fixed record's width.
//! - Layout: the kind field at offset 0, then the other fields by decreasing width (then id), each at an
//!   offset aligned to its width, the record rounded up to 8 bytes. CUPTI does not promise an order: a
//!   reader must take offsets from the layouts, and the mock's order is not the selection's.
//! - Fields the mock does not model are written as 8 zero bytes.
//! - 13.2 completes buffers with `ppRecordLayouts` NULL (seen by PyTorch's CUPTI monitor, which therefore
//!   requires 13.3).

use std::mem::{offset_of, size_of};

use super::kinds;
use crate::sys::v13_5::types as v135;
use crate::sys::*;

/// `(field id, offset in the fixed record the mock writes, its width, width in a user-defined record)`.
type Field = (u32, usize, usize, usize);

macro_rules! fields {
    ($t:ty { $($id:expr => $f:ident $(: $udr:expr)?),* $(,)? }) => {{
        const fn width<T>(_: *const T) -> usize { size_of::<T>() }
        &[$({
            let uninit = std::mem::MaybeUninit::<$t>::uninit();
            // SAFETY: only the field's address is taken (never read through): its width is the size of
            // what that pointer points to.
            let fixed = width(unsafe { std::ptr::addr_of!((*uninit.as_ptr()).$f) });
            #[allow(unused_variables)]
            let udr = fixed;
            $(let udr = $udr;)?
            ($id.0, offset_of!($t, $f), fixed, udr)
        }),*]
    }};
}

/// The modelled fields of each kind whose user-defined records the mock writes; `None` for other kinds.
pub fn fields_of(kind: u32) -> Option<&'static [Field]> {
    use v135::CUpti_ActivityApiFieldIds as A;
    use v135::CUpti_ActivityExternalCorrelationFieldIds as X;
    use v135::CUpti_ActivityKernelFieldIds as K;
    use v135::CUpti_ActivityMemcpyFieldIds as C;
    use v135::CUpti_ActivityMemoryFieldIds as M;
    use v135::CUpti_ActivityMemsetFieldIds as S;
    use v135::CUpti_ActivitySynchronizationFieldIds as Y;
    static KERNEL: &[Field] = fields!(CUpti_ActivityKernel10 {
        K::KERNEL_FIELD_KIND => kind,
        K::KERNEL_FIELD_REGISTERS_PER_THREAD => registersPerThread,
        K::KERNEL_FIELD_START => start,
        K::KERNEL_FIELD_END => end,
        K::KERNEL_FIELD_COMPLETED => completed,
        K::KERNEL_FIELD_DEVICE_ID => deviceId,
        K::KERNEL_FIELD_CONTEXT_ID => contextId,
        K::KERNEL_FIELD_STREAM_ID => streamId,
        K::KERNEL_FIELD_GRID_X => gridX,
        K::KERNEL_FIELD_GRID_Y => gridY,
        K::KERNEL_FIELD_GRID_Z => gridZ,
        K::KERNEL_FIELD_BLOCK_X => blockX,
        K::KERNEL_FIELD_BLOCK_Y => blockY,
        K::KERNEL_FIELD_BLOCK_Z => blockZ,
        K::KERNEL_FIELD_STATIC_SHARED_MEMORY => staticSharedMemory,
        K::KERNEL_FIELD_DYNAMIC_SHARED_MEMORY => dynamicSharedMemory,
        K::KERNEL_FIELD_CORRELATION_ID => correlationId: 8,
        K::KERNEL_FIELD_GRID_ID => gridId,
        K::KERNEL_FIELD_NAME => name,
        K::KERNEL_FIELD_SHARED_MEMORY_EXECUTED => sharedMemoryExecuted,
    });
    static MEMCPY: &[Field] = fields!(CUpti_ActivityMemcpy6 {
        C::MEMCPY_FIELD_KIND => kind,
        C::MEMCPY_FIELD_COPY_KIND => copyKind,
        C::MEMCPY_FIELD_SRC_KIND => srcKind,
        C::MEMCPY_FIELD_DST_KIND => dstKind,
        C::MEMCPY_FIELD_FLAGS => flags,
        C::MEMCPY_FIELD_BYTES => bytes,
        C::MEMCPY_FIELD_START => start,
        C::MEMCPY_FIELD_END => end,
        C::MEMCPY_FIELD_DEVICE_ID => deviceId,
        C::MEMCPY_FIELD_CONTEXT_ID => contextId,
        C::MEMCPY_FIELD_STREAM_ID => streamId,
        C::MEMCPY_FIELD_CORRELATION_ID => correlationId: 8,
        C::MEMCPY_FIELD_COPY_COUNT => copyCount,
    });
    static MEMSET: &[Field] = fields!(CUpti_ActivityMemset4 {
        S::MEMSET_FIELD_KIND => kind,
        S::MEMSET_FIELD_VALUE => value,
        S::MEMSET_FIELD_BYTES => bytes,
        S::MEMSET_FIELD_START => start,
        S::MEMSET_FIELD_END => end,
        S::MEMSET_FIELD_DEVICE_ID => deviceId,
        S::MEMSET_FIELD_CONTEXT_ID => contextId,
        S::MEMSET_FIELD_STREAM_ID => streamId,
        S::MEMSET_FIELD_CORRELATION_ID => correlationId: 8,
        S::MEMSET_FIELD_FLAGS => flags,
        S::MEMSET_FIELD_MEMORY_KIND => memoryKind,
    });
    static API: &[Field] = fields!(CUpti_ActivityAPI {
        A::API_FIELD_KIND => kind,
        A::API_FIELD_CBID => cbid,
        A::API_FIELD_START => start,
        A::API_FIELD_END => end,
        A::API_FIELD_PROCESS_ID => processId,
        A::API_FIELD_THREAD_ID => threadId: 8,
        A::API_FIELD_CORRELATION_ID => correlationId: 8,
        A::API_FIELD_RETURN_VALUE => returnValue,
    });
    static SYNC: &[Field] = fields!(CUpti_ActivitySynchronization2 {
        Y::SYNCHRONIZATION_FIELD_KIND => kind,
        Y::SYNCHRONIZATION_FIELD_TYPE => type_,
        Y::SYNCHRONIZATION_FIELD_START => start,
        Y::SYNCHRONIZATION_FIELD_END => end,
        Y::SYNCHRONIZATION_FIELD_CORRELATION_ID => correlationId: 8,
        Y::SYNCHRONIZATION_FIELD_CONTEXT_ID => contextId,
        Y::SYNCHRONIZATION_FIELD_STREAM_ID => streamId,
        Y::SYNCHRONIZATION_FIELD_CUDA_EVENT_ID => cudaEventId,
        Y::SYNCHRONIZATION_FIELD_CUDA_EVENT_SYNC_ID => cudaEventSyncId,
        Y::SYNCHRONIZATION_FIELD_RETURN_VALUE => returnValue,
    });
    static EXTERNAL: &[Field] = fields!(CUpti_ActivityExternalCorrelation {
        X::EXTERNAL_CORRELATION_FIELD_KIND => kind,
        X::EXTERNAL_CORRELATION_FIELD_EXTERNAL_KIND => externalKind,
        X::EXTERNAL_CORRELATION_FIELD_EXTERNAL_ID => externalId,
        X::EXTERNAL_CORRELATION_FIELD_CORRELATION_ID => correlationId: 8,
    });
    static MEMORY: &[Field] = fields!(CUpti_ActivityMemory4 {
        M::MEMORY_FIELD_KIND => kind,
        M::MEMORY_FIELD_OPERATION_TYPE => memoryOperationType,
        M::MEMORY_FIELD_MEMORY_KIND => memoryKind,
        M::MEMORY_FIELD_CORRELATION_ID => correlationId: 8,
        M::MEMORY_FIELD_ADDRESS => address,
        M::MEMORY_FIELD_BYTES => bytes,
        M::MEMORY_FIELD_TIMESTAMP => timestamp,
        M::MEMORY_FIELD_PROCESS_ID => processId,
        M::MEMORY_FIELD_DEVICE_ID => deviceId,
        M::MEMORY_FIELD_CONTEXT_ID => contextId,
        M::MEMORY_FIELD_STREAM_ID => streamId,
    });
    Some(match kind {
        kinds::KERNEL | kinds::CONCURRENT_KERNEL => KERNEL,
        kinds::MEMCPY => MEMCPY,
        kinds::MEMSET => MEMSET,
        kinds::RUNTIME | kinds::DRIVER => API,
        kinds::SYNCHRONIZATION => SYNC,
        kinds::EXTERNAL_CORRELATION => EXTERNAL,
        kinds::MEMORY2 => MEMORY,
        _ => return None,
    })
}

/// The number of field ids the 13.5 headers define for `kind` (valid ids are below it).
pub fn field_count(kind: u32) -> Option<u32> {
    Some(match kind {
        kinds::KERNEL | kinds::CONCURRENT_KERNEL => v135::CUpti_ActivityKernelFieldIds::KERNEL_FIELD_MAX.0,
        kinds::MEMCPY => v135::CUpti_ActivityMemcpyFieldIds::MEMCPY_FIELD_MAX.0,
        kinds::MEMSET => v135::CUpti_ActivityMemsetFieldIds::MEMSET_FIELD_MAX.0,
        kinds::RUNTIME | kinds::DRIVER => v135::CUpti_ActivityApiFieldIds::API_FIELD_MAX.0,
        kinds::SYNCHRONIZATION => v135::CUpti_ActivitySynchronizationFieldIds::SYNCHRONIZATION_FIELD_MAX.0,
        kinds::EXTERNAL_CORRELATION => {
            v135::CUpti_ActivityExternalCorrelationFieldIds::EXTERNAL_CORRELATION_FIELD_MAX.0
        }
        kinds::MEMORY2 => v135::CUpti_ActivityMemoryFieldIds::MEMORY_FIELD_MAX.0,
        _ => return None,
    })
}

/// One field's place in a user-defined record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub id: u32,
    pub offset: usize,
    pub size: usize,
}

/// The layout of `kind`'s records with `selection` (kind field first, as checked by the enable).
pub fn layout(kind: u32, selection: &[u32]) -> (Vec<Placed>, usize) {
    let table = fields_of(kind).unwrap_or(&[]);
    let width = |id: u32| table.iter().find(|f| f.0 == id).map_or(8, |f| f.3);
    let mut rest: Vec<u32> = selection.iter().copied().filter(|&id| id != 0).collect();
    rest.sort_by_key(|&id| (std::cmp::Reverse(width(id)), id));
    let mut placed = vec![Placed { id: 0, offset: 0, size: 4 }];
    let mut at: usize = 4;
    for id in rest {
        let size = width(id);
        at = at.div_ceil(size) * size;
        placed.push(Placed { id, offset: at, size });
        at += size;
    }
    (placed, at.div_ceil(8) * 8)
}

/// The user-defined record of `kind` with `selection`, made from its fixed record `full`; the offsets of
/// its START, END and COMPLETED fields (for patching an in-flight kernel), if selected.
pub fn project(kind: u32, selection: &[u32], full: &[u8]) -> (Vec<u8>, [Option<usize>; 3]) {
    use v135::CUpti_ActivityKernelFieldIds as K;
    let table = fields_of(kind).unwrap_or(&[]);
    let (placed, size) = layout(kind, selection);
    let mut out = vec![0u8; size];
    let mut times = [None; 3];
    for p in &placed {
        if let Some(&(_, off, fixed, _)) = table.iter().find(|f| f.0 == p.id) {
            let n = fixed.min(p.size);
            if let (Some(src), Some(dst)) = (full.get(off..off + n), out.get_mut(p.offset..p.offset + n)) {
                dst.copy_from_slice(src);
            }
        }
        if kind == kinds::KERNEL || kind == kinds::CONCURRENT_KERNEL {
            match p.id {
                id if id == K::KERNEL_FIELD_START.0 => times[0] = Some(p.offset),
                id if id == K::KERNEL_FIELD_END.0 => times[1] = Some(p.offset),
                id if id == K::KERNEL_FIELD_COMPLETED.0 => times[2] = Some(p.offset),
                _ => {}
            }
        }
    }
    (out, times)
}

/// The layouts handed to a V2 completion callback: `CUpti_BufferCallbackCompleteInfo` and what it
/// points to, alive for the call.
pub struct CLayouts {
    pub info: Box<v135::CUpti_BufferCallbackCompleteInfo>,
    _array: Vec<*mut v135::CUpti_ActivityRecordLayout>,
    // Boxed: `_array` points at each layout while more are pushed.
    #[allow(clippy::vec_box)]
    _layouts: Vec<Box<v135::CUpti_ActivityRecordLayout>>,
    _entries: Vec<Vec<v135::CUpti_ActivityFieldLayoutEntry>>,
}

// SAFETY: plain data owned by this value; moved to the delivery thread with its buffer.
unsafe impl Send for CLayouts {}

/// Kinds a layout array covers (`CUPTI_ACTIVITY_KIND_COUNT` of the 13.5 headers is 60).
const LAYOUT_KINDS: usize = 64;

impl CLayouts {
    /// The layouts of `selections` (indexed by kind); with `with_layouts` false, none (13.2).
    pub fn new(selections: &[Option<Vec<u32>>], with_layouts: bool, thread: u64) -> CLayouts {
        let mut entries = Vec::new();
        let mut layouts = Vec::new();
        let mut array = vec![std::ptr::null_mut(); LAYOUT_KINDS];
        for (kind, sel) in selections.iter().enumerate().take(LAYOUT_KINDS) {
            let Some(sel) = sel.as_ref().filter(|_| with_layouts) else { continue };
            let (placed, size) = layout(kind as u32, sel);
            let mut e: Vec<v135::CUpti_ActivityFieldLayoutEntry> = placed
                .iter()
                .map(|p| v135::CUpti_ActivityFieldLayoutEntry {
                    structSize: size_of::<v135::CUpti_ActivityFieldLayoutEntry>(),
                    fieldId: p.id as i32,
                    offset: p.offset,
                    size: p.size,
                    alignment: p.size,
                })
                .collect();
            let mut l = Box::new(v135::CUpti_ActivityRecordLayout {
                structSize: size_of::<v135::CUpti_ActivityRecordLayout>(),
                pEntries: e.as_mut_ptr(),
                numFields: e.len(),
                recordSize: size,
            });
            array[kind] = &mut *l;
            entries.push(e);
            layouts.push(l);
        }
        let info = Box::new(v135::CUpti_BufferCallbackCompleteInfo {
            structSize: size_of::<v135::CUpti_BufferCallbackCompleteInfo>(),
            threadId: thread,
            ppRecordLayouts: if with_layouts { array.as_mut_ptr() } else { std::ptr::null_mut() },
            numRecordLayouts: if with_layouts { array.len() } else { 0 },
        });
        CLayouts { info, _array: array, _layouts: layouts, _entries: entries }
    }
}
