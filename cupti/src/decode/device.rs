//! Kernels, memory copies and memory sets: work that ran on a device.

use std::mem::{offset_of, size_of};

use accelprof_core::columns::{
    CopyKind, KernelColumns, KernelRow, MemcpyColumns, MemcpyRow, MemoryKind, MemsetColumns, MemsetRow,
    RowWriter,
};
use accelprof_core::intern::Interner;
use accelprof_core::NameId;
use cupti_sys::{
    CUpti_ActivityKernel10, CUpti_ActivityKernel9, CUpti_ActivityMemcpy6, CUpti_ActivityMemset4,
};

use super::bytes::{i32_at, non_negative, ptr_at, u16_at, u32_at, u64_at, u8_at, view};
use super::kinds;
use super::walker::{Decoded, Walker};

/// Kernel fields are read at `CUpti_ActivityKernel9` offsets: 12.9 writes that struct, 13.0 writes
/// `Kernel10` and 13.2 `Kernel11`, which only append fields. Checked here for the fields we read.
type K = CUpti_ActivityKernel9;
const KERNEL_BYTES: usize = size_of::<K>();

macro_rules! same_offsets {
    ($a:ty, $b:ty: $($f:ident),+) => {
        const _: () = { $( assert!(offset_of!($a, $f) == offset_of!($b, $f)); )+ };
    };
}
same_offsets!(CUpti_ActivityKernel9, CUpti_ActivityKernel10:
    start, end, deviceId, contextId, streamId, gridX, gridY, gridZ, blockX, blockY, blockZ,
    staticSharedMemory, dynamicSharedMemory, registersPerThread, correlationId, name);
// 12.9's Memcpy6 and Memset4 have padding where 13.0 has `isDeviceLaunched`: same offsets otherwise.
same_offsets!(CUpti_ActivityMemcpy6, cupti_sys::v12::CUpti_ActivityMemcpy6:
    copyKind, srcKind, dstKind, flags, bytes, start, end, deviceId, contextId, streamId, correlationId);
same_offsets!(CUpti_ActivityMemset4, cupti_sys::v12::CUpti_ActivityMemset4:
    value, bytes, start, end, deviceId, contextId, streamId, correlationId, flags, memoryKind);

type C = CUpti_ActivityMemcpy6;
const MEMCPY_BYTES: usize = size_of::<C>();
type S = CUpti_ActivityMemset4;
const MEMSET_BYTES: usize = size_of::<S>();

/// `CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC` / `CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC`.
const FLAG_ASYNC: u32 = 1;

/// A CUPTI memory kind (`CUpti_ActivityMemoryKind`, same numbering as [`MemoryKind`]).
fn memory_kind(raw: u32) -> MemoryKind {
    u8::try_from(raw).map_or(MemoryKind::UNKNOWN, MemoryKind)
}

impl Walker {
    /// Remembers which device a context belongs to (for records that carry only the context).
    #[inline(always)]
    pub(super) fn context_on(&mut self, context: u32, device: u32) {
        if self.last_context != (context, device) {
            self.last_context = (context, device);
            self.context_devices.insert(context, device);
        }
    }

    #[inline]
    pub(super) fn kernel(
        &mut self,
        rec: &[u8],
        out: &mut RowWriter<'_, KernelColumns>,
        names: &mut Interner,
    ) -> Decoded {
        let Some(r) = view::<KERNEL_BYTES>(rec) else { return Decoded::Skipped };
        let row = self.kernel_row(r, names);
        out.push(row);
        Decoded::Row
    }

    /// Decodes the run of kernel records of `kind` (KERNEL or CONCURRENT_KERNEL, `stride` bytes each)
    /// at the start of `bytes`: every record up to the first one of another kind or one that does not
    /// fit whole. Returns how many were decoded (each is a row). A loop of its own, as for API records
    /// ([`Walker::api_run`]): a kernel row has 15 columns, and going back to the walk's dispatch for
    /// every record spilled and reloaded the writer's pointers each time.
    pub(super) fn kernel_run(
        &mut self,
        kind: u32,
        stride: usize,
        bytes: &[u8],
        out: &mut RowWriter<'_, KernelColumns>,
        names: &mut Interner,
    ) -> usize {
        // One loop per kind: the kind checked is a constant then (a register more for the columns).
        match kind {
            kinds::CONCURRENT_KERNEL => {
                self.kernel_run_of::<{ kinds::CONCURRENT_KERNEL }>(stride, bytes, out, names)
            }
            kinds::KERNEL => self.kernel_run_of::<{ kinds::KERNEL }>(stride, bytes, out, names),
            _ => 0,
        }
    }

    /// [`kernel_run`](Self::kernel_run) for records of kind `KIND`.
    #[inline(always)]
    fn kernel_run_of<const KIND: u32>(
        &mut self,
        stride: usize,
        bytes: &[u8],
        out: &mut RowWriter<'_, KernelColumns>,
        names: &mut Interner,
    ) -> usize {
        let kind = KIND;
        if stride < KERNEL_BYTES {
            return 0;
        }
        let mut records = bytes.chunks_exact(stride);
        out.push_while(|| {
            let r = view::<KERNEL_BYTES>(records.clone().next()?)?;
            if u32_at(r, offset_of!(K, kind)) != kind {
                return None;
            }
            records.next();
            Some(self.kernel_row(r, names))
        })
    }

    /// The row of one kernel record (its context's device remembered, its name interned).
    #[inline(always)]
    fn kernel_row(&mut self, r: &[u8; KERNEL_BYTES], names: &mut Interner) -> KernelRow {
        let device = u32_at(r, offset_of!(K, deviceId));
        let context = u32_at(r, offset_of!(K, contextId));
        self.context_on(context, device);
        let shared = non_negative(i32_at(r, offset_of!(K, staticSharedMemory)))
            .saturating_add(non_negative(i32_at(r, offset_of!(K, dynamicSharedMemory))));
        let name = if self.read_strings {
            // SAFETY: a walker that reads strings was made with `Walker::new`'s contract: the
            // kernel name is NULL or a NUL-terminated string valid for this walk.
            unsafe { self.kernel_names.intern(ptr_at(r, offset_of!(K, name)), names) }
        } else {
            NameId::NONE
        };
        KernelRow {
            start: u64_at(r, offset_of!(K, start)),
            end: u64_at(r, offset_of!(K, end)),
            device,
            context,
            stream: u64::from(u32_at(r, offset_of!(K, streamId))),
            correlation: u64::from(u32_at(r, offset_of!(K, correlationId))),
            grid_x: non_negative(i32_at(r, offset_of!(K, gridX))),
            grid_y: non_negative(i32_at(r, offset_of!(K, gridY))),
            grid_z: non_negative(i32_at(r, offset_of!(K, gridZ))),
            block_x: non_negative(i32_at(r, offset_of!(K, blockX))),
            block_y: non_negative(i32_at(r, offset_of!(K, blockY))),
            block_z: non_negative(i32_at(r, offset_of!(K, blockZ))),
            shared_memory: shared,
            registers: u16_at(r, offset_of!(K, registersPerThread)),
            name,
        }
    }

    #[inline]
    pub(super) fn memcpy(&mut self, rec: &[u8], out: &mut RowWriter<'_, MemcpyColumns>) -> Decoded {
        let Some(r) = view::<MEMCPY_BYTES>(rec) else { return Decoded::Skipped };
        let device = u32_at(r, offset_of!(C, deviceId));
        let context = u32_at(r, offset_of!(C, contextId));
        self.context_on(context, device);
        let row = MemcpyRow {
            start: u64_at(r, offset_of!(C, start)),
            end: u64_at(r, offset_of!(C, end)),
            device,
            context,
            stream: u64::from(u32_at(r, offset_of!(C, streamId))),
            correlation: u64::from(u32_at(r, offset_of!(C, correlationId))),
            bytes: u64_at(r, offset_of!(C, bytes)),
            copy_kind: CopyKind(u8_at(r, offset_of!(C, copyKind))),
            src_kind: memory_kind(u8_at(r, offset_of!(C, srcKind)).into()),
            dst_kind: memory_kind(u8_at(r, offset_of!(C, dstKind)).into()),
            is_async: u32::from(u8_at(r, offset_of!(C, flags))) & FLAG_ASYNC != 0,
        };
        out.push(row);
        Decoded::Row
    }

    #[inline]
    pub(super) fn memset(&mut self, rec: &[u8], out: &mut RowWriter<'_, MemsetColumns>) -> Decoded {
        let Some(r) = view::<MEMSET_BYTES>(rec) else { return Decoded::Skipped };
        let device = u32_at(r, offset_of!(S, deviceId));
        let context = u32_at(r, offset_of!(S, contextId));
        self.context_on(context, device);
        let row = MemsetRow {
            start: u64_at(r, offset_of!(S, start)),
            end: u64_at(r, offset_of!(S, end)),
            device,
            context,
            stream: u64::from(u32_at(r, offset_of!(S, streamId))),
            correlation: u64::from(u32_at(r, offset_of!(S, correlationId))),
            bytes: u64_at(r, offset_of!(S, bytes)),
            value: u32_at(r, offset_of!(S, value)),
            memory_kind: memory_kind(u16_at(r, offset_of!(S, memoryKind)).into()),
        };
        out.push(row);
        Decoded::Row
    }
}
