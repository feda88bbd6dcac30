//! Activity records in the real layouts (the generated `CUpti_Activity*` structs), as bytes
//! ready to copy into a client buffer. Each record is as long as the played release's record of
//! that kind (see `kinds::record_size`); fields the mock does not model are zero, which is what
//! CUPTI writes for "unknown" (`CUPTI_TIMESTAMP_UNKNOWN`, `CUPTI_GRID_ID_UNKNOWN`, ...).

use std::ffi::{c_char, CStr};
use std::mem::{offset_of, size_of};

use super::kinds;
use crate::sys::*;
use crate::version;

/// `CUPTI_SYNCHRONIZATION_INVALID_VALUE`.
pub const SYNC_INVALID: u32 = u32::MAX;

/// An all-zero record struct.
fn zeroed<T: Copy>() -> T {
    // SAFETY: only used for the plain-data `CUpti_Activity*` structs (integers, newtype enums,
    // raw pointers, unions of those), for which all-zero bytes are a valid value.
    unsafe { std::mem::zeroed() }
}

/// Bytes a record is built in on the stack: as many as the largest record the mock writes (a 13.4
/// kernel, `CUpti_ActivityKernel13`, 248 bytes) takes.
const INLINE: usize = 256;

/// One record's bytes, ready to copy into a client buffer: on the stack up to [`INLINE`] bytes (a
/// heap allocation per record cost more than the rest of writing it), on the heap past that.
// The large variant is the point: the record lives on the stack.
#[allow(clippy::large_enum_variant)]
pub enum Record {
    Inline(usize, [u8; INLINE]),
    Heap(Vec<u8>),
}

impl std::ops::Deref for Record {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Record::Inline(len, buf) => &buf[..*len],
            Record::Heap(v) => v,
        }
    }
}

/// The bytes of `rec`, padded with zeros to the release's size for `kind`.
fn bytes<T: Copy>(rec: &T, kind: u32) -> Record {
    let len = kinds::record_size(kind).unwrap_or(0).max(size_of::<T>());
    let src = (rec as *const T).cast::<u8>();
    if len <= INLINE {
        let mut out = [0u8; INLINE];
        // SAFETY: `rec` is a plain-data struct of `size_of::<T>()` <= `len` <= INLINE bytes.
        unsafe { std::ptr::copy_nonoverlapping(src, out.as_mut_ptr(), size_of::<T>()) };
        Record::Inline(len, out)
    } else {
        let mut out = vec![0u8; len];
        // SAFETY: `rec` is a plain-data struct of `size_of::<T>()` bytes and `out` is at least as long.
        unsafe { std::ptr::copy_nonoverlapping(src, out.as_mut_ptr(), size_of::<T>()) };
        Record::Heap(out)
    }
}

fn ptr(s: Option<&'static CStr>) -> *const c_char {
    s.map_or(std::ptr::null(), CStr::as_ptr)
}

pub struct Kernel {
    /// KERNEL or CONCURRENT_KERNEL.
    pub kind: u32,
    pub name: &'static CStr,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    pub static_shared: u32,
    pub registers: u16,
    pub start: u64,
    /// 0 while the kernel is in flight.
    pub end: u64,
    pub device: u32,
    pub context: u32,
    pub stream: u32,
    pub correlation: u32,
    pub grid_id: i64,
}

macro_rules! fill_kernel {
    ($rec:expr, $k:expr) => {{
        let (r, k) = (&mut $rec, $k);
        r.kind = CUpti_ActivityKind(k.kind);
        r.registersPerThread = k.registers;
        r.start = k.start;
        r.end = k.end;
        r.completed = k.end;
        r.deviceId = k.device;
        r.contextId = k.context;
        r.streamId = k.stream;
        r.gridX = k.grid[0] as i32;
        r.gridY = k.grid[1] as i32;
        r.gridZ = k.grid[2] as i32;
        r.blockX = k.block[0] as i32;
        r.blockY = k.block[1] as i32;
        r.blockZ = k.block[2] as i32;
        r.staticSharedMemory = k.static_shared as i32;
        r.dynamicSharedMemory = k.dynamic_shared as i32;
        r.sharedMemoryExecuted = k.static_shared + k.dynamic_shared;
        r.correlationId = k.correlation;
        r.gridId = k.grid_id;
        r.name = k.name.as_ptr();
    }};
}

/// 12.x writes `CUpti_ActivityKernel9`, 13.0 `Kernel10` (9 plus `isDeviceLaunched`), 13.2
/// `Kernel11` (10 plus `priority`, left 0).
pub fn kernel(k: &Kernel) -> Record {
    if version::is_v12() {
        let mut r: CUpti_ActivityKernel9 = zeroed();
        fill_kernel!(r, k);
        bytes(&r, k.kind)
    } else {
        let mut r: CUpti_ActivityKernel10 = zeroed();
        fill_kernel!(r, k);
        bytes(&r, k.kind)
    }
}

// Kernel9 and Kernel10 share their prefix, so one set of offsets patches both.
const _: () = {
    assert!(offset_of!(CUpti_ActivityKernel9, start) == offset_of!(CUpti_ActivityKernel10, start));
    assert!(offset_of!(CUpti_ActivityKernel9, end) == offset_of!(CUpti_ActivityKernel10, end));
    assert!(offset_of!(CUpti_ActivityKernel9, completed) == offset_of!(CUpti_ActivityKernel10, completed));
};

/// The offsets of start, end and completed in a fixed kernel record (every version has them there), to
/// patch a kernel written in flight; none for other kinds.
pub fn kernel_time_offsets(kind: u32) -> [Option<usize>; 3] {
    if kind != kinds::KERNEL && kind != kinds::CONCURRENT_KERNEL {
        return [None; 3];
    }
    [
        Some(offset_of!(CUpti_ActivityKernel10, start)),
        Some(offset_of!(CUpti_ActivityKernel10, end)),
        Some(offset_of!(CUpti_ActivityKernel10, completed)),
    ]
}

/// The offsets of the timestamp fields of a record of `kind` the mock writes (none for other kinds).
pub fn time_offsets(kind: u32) -> &'static [usize] {
    match kind {
        kinds::KERNEL | kinds::CONCURRENT_KERNEL => &[
            offset_of!(CUpti_ActivityKernel10, start),
            offset_of!(CUpti_ActivityKernel10, end),
            offset_of!(CUpti_ActivityKernel10, completed),
            offset_of!(CUpti_ActivityKernel10, queued),
            offset_of!(CUpti_ActivityKernel10, submitted),
        ],
        kinds::MEMCPY => &[offset_of!(CUpti_ActivityMemcpy6, start), offset_of!(CUpti_ActivityMemcpy6, end)],
        kinds::MEMSET => &[offset_of!(CUpti_ActivityMemset4, start), offset_of!(CUpti_ActivityMemset4, end)],
        kinds::DRIVER | kinds::RUNTIME => {
            &[offset_of!(CUpti_ActivityAPI, start), offset_of!(CUpti_ActivityAPI, end)]
        }
        kinds::SYNCHRONIZATION => &[
            offset_of!(CUpti_ActivitySynchronization2, start),
            offset_of!(CUpti_ActivitySynchronization2, end),
        ],
        kinds::MARKER => &[offset_of!(CUpti_ActivityMarker2, timestamp)],
        kinds::MEMORY2 => &[offset_of!(CUpti_ActivityMemory4, timestamp)],
        _ => &[],
    }
}

/// Moves every set (non-zero) device timestamp of the fixed records in `buffer` (`used` bytes) by
/// `offset`: a buffer handed back while a timestamp callback is registered carries its clock. A
/// device time from before `registered_at` (CUPTI's own clock) becomes 0, unknown: on the H200 the
/// kernels and memsets run before PyTorch's profiler registered its clock, whose buffer completed
/// after, came with a start of 0 (90 kernels, two steps' worth).
///
/// # Safety
/// `buffer` holds `used` bytes of records the mock wrote, and the mock still owns it.
pub unsafe fn restamp(buffer: *mut u8, used: usize, offset: i128, registered_at: u64) {
    let mut at = 0usize;
    while at + 4 <= used {
        // SAFETY: `at + 4 <= used`, inside the buffer.
        let kind = unsafe { buffer.add(at).cast::<u32>().read_unaligned() };
        let Some(size) = kinds::record_size(kind) else { return };
        if size == 0 || at + size > used {
            return;
        }
        // API records were stamped at the call, on the clock of that moment (`clock::host_now`).
        let host = kind == kinds::DRIVER || kind == kinds::RUNTIME;
        for &field in time_offsets(kind).iter().filter(|_| !host) {
            if field + 8 > size {
                continue;
            }
            // SAFETY: the field lies inside this record, inside the buffer.
            unsafe {
                let p = buffer.add(at + field).cast::<u64>();
                let t = p.read_unaligned();
                if t != 0 && t < registered_at {
                    p.write_unaligned(0);
                } else if t != 0 {
                    p.write_unaligned((i128::from(t) + offset).clamp(1, i128::from(u64::MAX)) as u64);
                }
            }
        }
        at += size;
    }
}

pub struct Memcpy {
    /// `CUpti_ActivityMemcpyKind`.
    pub copy_kind: u8,
    /// `CUpti_ActivityMemoryKind` of source and destination.
    pub src_kind: u8,
    pub dst_kind: u8,
    pub is_async: bool,
    pub bytes: u64,
    pub start: u64,
    pub end: u64,
    pub device: u32,
    pub context: u32,
    pub stream: u32,
    pub correlation: u32,
}

/// `CUpti_ActivityMemcpy6` (12.9 and 13.0 differ only in a padding byte, zero in both).
pub fn memcpy(m: &Memcpy) -> Record {
    let mut r: CUpti_ActivityMemcpy6 = zeroed();
    r.kind = CUpti_ActivityKind(kinds::MEMCPY);
    r.copyKind = m.copy_kind;
    r.srcKind = m.src_kind;
    r.dstKind = m.dst_kind;
    r.flags = if m.is_async { CUpti_ActivityFlag::CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC.0 as u8 } else { 0 };
    r.bytes = m.bytes;
    r.start = m.start;
    r.end = m.end;
    r.deviceId = m.device;
    r.contextId = m.context;
    r.streamId = m.stream;
    r.correlationId = m.correlation;
    r.copyCount = 1;
    bytes(&r, kinds::MEMCPY)
}

pub struct Memset {
    pub value: u32,
    pub is_async: bool,
    pub bytes: u64,
    pub start: u64,
    pub end: u64,
    pub device: u32,
    pub context: u32,
    pub stream: u32,
    pub correlation: u32,
}

/// `CUpti_ActivityMemset4`.
pub fn memset(m: &Memset) -> Record {
    let mut r: CUpti_ActivityMemset4 = zeroed();
    r.kind = CUpti_ActivityKind(kinds::MEMSET);
    r.value = m.value;
    r.bytes = m.bytes;
    r.start = m.start;
    r.end = m.end;
    r.deviceId = m.device;
    r.contextId = m.context;
    r.streamId = m.stream;
    r.correlationId = m.correlation;
    r.flags = if m.is_async { CUpti_ActivityFlag::CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC.0 as u16 } else { 0 };
    r.memoryKind = CUpti_ActivityMemoryKind::CUPTI_ACTIVITY_MEMORY_KIND_DEVICE.0 as u16;
    bytes(&r, kinds::MEMSET)
}

pub struct Api {
    /// RUNTIME or DRIVER.
    pub kind: u32,
    pub cbid: u32,
    pub start: u64,
    pub end: u64,
    pub process: u32,
    pub thread: u32,
    pub correlation: u32,
    pub return_value: u32,
}

/// `CUpti_ActivityAPI`.
pub fn api(a: &Api) -> Record {
    let r = CUpti_ActivityAPI {
        kind: CUpti_ActivityKind(a.kind),
        cbid: a.cbid,
        start: a.start,
        end: a.end,
        processId: a.process,
        threadId: a.thread,
        correlationId: a.correlation,
        returnValue: a.return_value,
    };
    bytes(&r, a.kind)
}

pub struct Sync {
    /// `CUpti_ActivitySynchronizationType`.
    pub sync_type: u32,
    pub start: u64,
    pub end: u64,
    pub correlation: u32,
    pub context: u32,
    /// [`SYNC_INVALID`] for a context synchronization.
    pub stream: u32,
    pub return_value: u32,
}

/// `CUpti_ActivitySynchronization2`.
pub fn sync(s: &Sync) -> Record {
    let r = CUpti_ActivitySynchronization2 {
        kind: CUpti_ActivityKind(kinds::SYNCHRONIZATION),
        type_: CUpti_ActivitySynchronizationType(s.sync_type),
        start: s.start,
        end: s.end,
        correlationId: s.correlation,
        contextId: s.context,
        streamId: s.stream,
        cudaEventId: SYNC_INVALID,
        cudaEventSyncId: u64::from(SYNC_INVALID),
        returnValue: s.return_value,
        pad: 0,
    };
    bytes(&r, kinds::SYNCHRONIZATION)
}

/// `CUpti_ActivityExternalCorrelation`.
pub fn external_correlation(external_kind: u32, external_id: u64, correlation: u32) -> Record {
    let r = CUpti_ActivityExternalCorrelation {
        kind: CUpti_ActivityKind(kinds::EXTERNAL_CORRELATION),
        externalKind: CUpti_ExternalCorrelationKind(external_kind),
        externalId: external_id,
        correlationId: correlation,
        reserved: 0,
    };
    bytes(&r, kinds::EXTERNAL_CORRELATION)
}

pub struct Marker {
    /// `CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS` (1), `_START` (2) or `_END` (4).
    pub flags: u32,
    pub timestamp: u64,
    pub id: u32,
    pub process: u32,
    pub thread: u32,
    /// NULL for an end marker.
    pub name: Option<&'static CStr>,
    /// NULL for the default domain.
    pub domain: Option<&'static CStr>,
}

/// `CUpti_ActivityMarker2`, owned by the thread that made it.
pub fn marker(m: &Marker) -> Record {
    let mut r: CUpti_ActivityMarker2 = zeroed();
    r.kind = CUpti_ActivityKind(kinds::MARKER);
    r.flags = CUpti_ActivityFlag(m.flags);
    r.timestamp = m.timestamp;
    r.id = m.id;
    r.objectKind = CUpti_ActivityObjectKind::CUPTI_ACTIVITY_OBJECT_THREAD;
    r.objectId.pt = CUpti_ActivityObjectKindId__bindgen_ty_1 { processId: m.process, threadId: m.thread };
    r.name = ptr(m.name);
    r.domain = ptr(m.domain);
    bytes(&r, kinds::MARKER)
}

pub struct Memory {
    /// `CUpti_ActivityMemoryOperationType`: 1 allocation, 2 release.
    pub operation: u32,
    pub address: u64,
    pub bytes: u64,
    pub timestamp: u64,
    pub process: u32,
    pub device: u32,
    pub context: u32,
    pub correlation: u32,
}

/// `CUpti_ActivityMemory4` (kind MEMORY2), for device memory.
pub fn memory(m: &Memory) -> Record {
    let mut r: CUpti_ActivityMemory4 = zeroed();
    r.kind = CUpti_ActivityKind(kinds::MEMORY2);
    r.memoryOperationType = CUpti_ActivityMemoryOperationType(m.operation);
    r.memoryKind = CUpti_ActivityMemoryKind::CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    r.correlationId = m.correlation;
    r.address = m.address;
    r.bytes = m.bytes;
    r.timestamp = m.timestamp;
    r.processId = m.process;
    r.deviceId = m.device;
    r.contextId = m.context;
    bytes(&r, kinds::MEMORY2)
}
