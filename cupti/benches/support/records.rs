//! Synthetic CUPTI activity buffers, written field by field at the offsets of the generated record
//! structs: what CUPTI writes, without a GPU. Shared by the decoder's unit tests and the benchmark.

#![allow(dead_code)]

use std::ffi::CStr;
use std::mem::{offset_of, size_of};

use cupti_sys as sys;

/// A buffer being filled with records, 8-byte aligned like the buffers we hand CUPTI.
#[derive(Default)]
pub struct Records {
    words: Vec<u64>,
    len: usize,
}

/// A record under construction: its bytes, written at offsets.
pub struct Rec<'a> {
    bytes: &'a mut [u8],
}

impl Rec<'_> {
    pub fn u8(&mut self, off: usize, v: u8) -> &mut Self {
        self.bytes[off] = v;
        self
    }
    pub fn u16(&mut self, off: usize, v: u16) -> &mut Self {
        self.bytes[off..off + 2].copy_from_slice(&v.to_ne_bytes());
        self
    }
    pub fn u32(&mut self, off: usize, v: u32) -> &mut Self {
        self.bytes[off..off + 4].copy_from_slice(&v.to_ne_bytes());
        self
    }
    pub fn u64(&mut self, off: usize, v: u64) -> &mut Self {
        self.bytes[off..off + 8].copy_from_slice(&v.to_ne_bytes());
        self
    }
    /// A `const char *` field pointing at `s` (which must outlive every walk of the buffer).
    pub fn ptr(&mut self, off: usize, s: Option<&'static CStr>) -> &mut Self {
        let addr = s.map_or(0, |s| s.as_ptr() as usize);
        self.bytes[off..off + size_of::<usize>()].copy_from_slice(&addr.to_ne_bytes());
        self
    }
}

/// A kernel launch as the tests describe it.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    pub start: u64,
    pub end: u64,
    pub device: u32,
    pub context: u32,
    pub stream: u32,
    pub correlation: u32,
    pub grid: [i32; 3],
    pub block: [i32; 3],
    pub static_shared: i32,
    pub dynamic_shared: i32,
    pub registers: u16,
    pub name: &'static CStr,
}

impl Default for Kernel {
    fn default() -> Self {
        Kernel {
            start: 1_000,
            end: 2_000,
            device: 0,
            context: 1,
            stream: 7,
            correlation: 1,
            grid: [1, 1, 1],
            block: [128, 1, 1],
            static_shared: 0,
            dynamic_shared: 0,
            registers: 32,
            name: c"vectorAdd",
        }
    }
}

impl Records {
    pub fn new() -> Self {
        Records::default()
    }

    /// The valid bytes so far.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `words` holds at least `len` initialised bytes; u8 has no alignment requirement.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.len) }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Appends a zeroed record of `size` bytes starting with `kind`.
    pub fn record(&mut self, kind: u32, size: usize) -> Rec<'_> {
        assert!(size % 8 == 0 && size >= 8);
        let start = self.len;
        self.len += size;
        self.words.resize(self.len.div_ceil(8), 0);
        // SAFETY: `words` now holds at least `self.len` bytes; the slice borrows `self` mutably.
        let all = unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast::<u8>(), self.len) };
        let mut rec = Rec { bytes: &mut all[start..] };
        rec.u32(0, kind);
        rec
    }

    /// A kernel record of `size` bytes (208: `Kernel9`, 12.9; 216: `Kernel10`, 13.0; 224: 13.2).
    pub fn kernel(&mut self, size: usize, kind: u32, k: &Kernel) {
        type K = sys::CUpti_ActivityKernel9;
        let mut r = self.record(kind, size);
        r.u64(offset_of!(K, start), k.start)
            .u64(offset_of!(K, end), k.end)
            .u64(offset_of!(K, completed), k.end)
            .u32(offset_of!(K, deviceId), k.device)
            .u32(offset_of!(K, contextId), k.context)
            .u32(offset_of!(K, streamId), k.stream)
            .u32(offset_of!(K, correlationId), k.correlation)
            .u32(offset_of!(K, gridX), k.grid[0] as u32)
            .u32(offset_of!(K, gridY), k.grid[1] as u32)
            .u32(offset_of!(K, gridZ), k.grid[2] as u32)
            .u32(offset_of!(K, blockX), k.block[0] as u32)
            .u32(offset_of!(K, blockY), k.block[1] as u32)
            .u32(offset_of!(K, blockZ), k.block[2] as u32)
            .u32(offset_of!(K, staticSharedMemory), k.static_shared as u32)
            .u32(offset_of!(K, dynamicSharedMemory), k.dynamic_shared as u32)
            .u16(offset_of!(K, registersPerThread), k.registers)
            .ptr(offset_of!(K, name), Some(k.name));
    }

    /// A memcpy record (`Memcpy6`, 96 bytes in 12.9 and 13.0).
    #[allow(clippy::too_many_arguments)]
    pub fn memcpy(
        &mut self,
        copy_kind: u8,
        src: u8,
        dst: u8,
        bytes: u64,
        start: u64,
        end: u64,
        stream: u32,
        correlation: u32,
    ) {
        type C = sys::CUpti_ActivityMemcpy6;
        let mut r = self.record(1, size_of::<C>());
        r.u8(offset_of!(C, copyKind), copy_kind)
            .u8(offset_of!(C, srcKind), src)
            .u8(offset_of!(C, dstKind), dst)
            .u8(offset_of!(C, flags), 1)
            .u64(offset_of!(C, bytes), bytes)
            .u64(offset_of!(C, start), start)
            .u64(offset_of!(C, end), end)
            .u32(offset_of!(C, deviceId), 0)
            .u32(offset_of!(C, contextId), 1)
            .u32(offset_of!(C, streamId), stream)
            .u32(offset_of!(C, correlationId), correlation);
    }

    /// A memset record (`Memset4`, 88 bytes).
    pub fn memset(&mut self, value: u32, bytes: u64, start: u64, end: u64, stream: u32, correlation: u32) {
        type S = sys::CUpti_ActivityMemset4;
        let mut r = self.record(2, size_of::<S>());
        r.u32(offset_of!(S, value), value)
            .u64(offset_of!(S, bytes), bytes)
            .u64(offset_of!(S, start), start)
            .u64(offset_of!(S, end), end)
            .u32(offset_of!(S, deviceId), 0)
            .u32(offset_of!(S, contextId), 1)
            .u32(offset_of!(S, streamId), stream)
            .u32(offset_of!(S, correlationId), correlation)
            .u16(offset_of!(S, memoryKind), 3);
    }

    /// A runtime (kind 5) or driver (kind 4) API record.
    #[allow(clippy::too_many_arguments)]
    pub fn api(
        &mut self,
        kind: u32,
        cbid: u32,
        start: u64,
        end: u64,
        process: u32,
        thread: u32,
        correlation: u32,
    ) {
        type A = sys::CUpti_ActivityAPI;
        let mut r = self.record(kind, size_of::<A>());
        r.u32(offset_of!(A, cbid), cbid)
            .u64(offset_of!(A, start), start)
            .u64(offset_of!(A, end), end)
            .u32(offset_of!(A, processId), process)
            .u32(offset_of!(A, threadId), thread)
            .u32(offset_of!(A, correlationId), correlation);
    }

    /// A synchronization record (`Synchronization2`).
    pub fn sync(
        &mut self,
        sync_type: u32,
        start: u64,
        end: u64,
        context: u32,
        stream: u32,
        correlation: u32,
    ) {
        type Y = sys::CUpti_ActivitySynchronization2;
        let mut r = self.record(38, size_of::<Y>());
        r.u32(offset_of!(Y, type_), sync_type)
            .u64(offset_of!(Y, start), start)
            .u64(offset_of!(Y, end), end)
            .u32(offset_of!(Y, contextId), context)
            .u32(offset_of!(Y, streamId), stream)
            .u32(offset_of!(Y, correlationId), correlation);
    }

    /// An external correlation record.
    pub fn external(&mut self, external_kind: u32, external_id: u64, correlation: u32) {
        type X = sys::CUpti_ActivityExternalCorrelation;
        let mut r = self.record(39, size_of::<X>());
        r.u32(offset_of!(X, externalKind), external_kind)
            .u64(offset_of!(X, externalId), external_id)
            .u32(offset_of!(X, correlationId), correlation);
    }

    /// An NVTX marker record (`Marker2`) on a host thread.
    pub fn marker(&mut self, flags: u32, timestamp: u64, id: u32, thread: u32, name: Option<&'static CStr>) {
        type M = sys::CUpti_ActivityMarker2;
        let object = offset_of!(M, objectId);
        let mut r = self.record(12, size_of::<M>());
        r.u32(offset_of!(M, flags), flags)
            .u64(offset_of!(M, timestamp), timestamp)
            .u32(offset_of!(M, id), id)
            .u32(offset_of!(M, objectKind), 2)
            .u32(object, 4242)
            .u32(object + 4, thread)
            .ptr(offset_of!(M, name), name);
    }
}
