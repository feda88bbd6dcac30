//! Activity records as the real library writes them: `packed, aligned(8)` C structs, copied
//! whole into the client's buffer. Written here field by field at byte offsets measured with
//! gcc, independently of any Rust struct, so that a layout mistake in `mspti-sys` shows up as a
//! wrong value rather than agreeing with itself. The trailing padding is not zeroed in the
//! real library (it copies uninitialised struct bytes), so it is filled with junk here.

// `errno_t memcpy_s(void*, size_t, const void*, size_t)` of `libc_sec.so`: records are copied
// into the client's buffers with it, so the mock needs that library as the real one does.
#[link(name = "c_sec")]
extern "C" {
    /// Bounded copy: 0 on success.
    pub fn memcpy_s(
        dest: *mut std::ffi::c_void,
        dest_max: usize,
        src: *const std::ffi::c_void,
        count: usize,
    ) -> i32;
}

/// `msptiActivityKind` values.
pub mod kind {
    pub const MARKER: u32 = 1;
    pub const KERNEL: u32 = 2;
    pub const API: u32 = 3;
    pub const HCCL: u32 = 4;
    pub const MEMORY: u32 = 5;
    pub const MEMSET: u32 = 6;
    pub const MEMCPY: u32 = 7;
    pub const EXTERNAL_CORRELATION: u32 = 8;
    pub const COMMUNICATION: u32 = 9;
    pub const ACL_API: u32 = 10;
    pub const NODE_API: u32 = 11;
    pub const RUNTIME_API: u32 = 12;
    /// One past the last kind (`MSPTI_ACTIVITY_KIND_COUNT`).
    pub const COUNT: u32 = 13;
}

/// The size the library advances by for a kind (`sizeof` of its struct), as its
/// `msptiActivityGetNextRecord` table has it; `None` for kinds it does not know.
pub fn size_of_kind(k: u32) -> Option<usize> {
    Some(match k {
        kind::MARKER | kind::KERNEL | kind::HCCL | kind::MEMSET | kind::MEMCPY => 56,
        kind::API | kind::ACL_API | kind::NODE_API | kind::RUNTIME_API => 48,
        kind::MEMORY => 64,
        kind::EXTERNAL_CORRELATION => 24,
        kind::COMMUNICATION => 72,
        _ => return None,
    })
}

/// A record under construction.
pub struct Rec(Vec<u8>);

impl Rec {
    /// `size` bytes of junk with `kind` at offset 0.
    pub fn new(kind: u32, size: usize) -> Rec {
        let mut r = Rec(vec![0xA5; size]);
        r.u32(0, kind);
        r
    }
    pub fn u8(&mut self, at: usize, v: u8) -> &mut Rec {
        self.0[at] = v;
        self
    }
    pub fn u32(&mut self, at: usize, v: u32) -> &mut Rec {
        self.0[at..at + 4].copy_from_slice(&v.to_ne_bytes());
        self
    }
    pub fn u64(&mut self, at: usize, v: u64) -> &mut Rec {
        self.0[at..at + 8].copy_from_slice(&v.to_ne_bytes());
        self
    }
    pub fn f64(&mut self, at: usize, v: f64) -> &mut Rec {
        self.0[at..at + 8].copy_from_slice(&v.to_ne_bytes());
        self
    }
    pub fn ptr<T>(&mut self, at: usize, p: *const T) -> &mut Rec {
        self.u64(at, p as usize as u64)
    }
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

use std::os::raw::c_char;

/// `msptiActivityApi` (also ACL_API, NODE_API, RUNTIME_API): kind 0, start 4, end 12,
/// pt.processId 20, pt.threadId 24, correlationId 28, name 36; size 48.
#[allow(clippy::too_many_arguments)]
pub fn api(k: u32, start: u64, end: u64, pid: u32, tid: u32, corr: u64, name: *const c_char) -> Rec {
    let mut r = Rec::new(k, 48);
    r.u64(4, start).u64(12, end).u32(20, pid).u32(24, tid).u64(28, corr).ptr(36, name);
    r
}

/// `msptiActivityKernel`: start 4, end 12, ds.deviceId 20, ds.streamId 24, correlationId 28,
/// type 36, name 44; size 56.
#[allow(clippy::too_many_arguments)]
pub fn kernel(
    start: u64,
    end: u64,
    device: u32,
    stream: u32,
    corr: u64,
    ty: *const c_char,
    name: *const c_char,
) -> Rec {
    let mut r = Rec::new(kind::KERNEL, 56);
    r.u64(4, start).u64(12, end).u32(20, device).u32(24, stream).u64(28, corr).ptr(36, ty).ptr(44, name);
    r
}

/// `msptiActivityMarker`: flag 4, sourceKind 8, timestamp 12, id 20, objectId 28 (two u32),
/// name 36, domain 44; size 56.
#[allow(clippy::too_many_arguments)]
pub fn marker(
    flag: u32,
    source_kind: u32,
    timestamp: u64,
    id: u64,
    object_a: u32,
    object_b: u32,
    name: *const c_char,
    domain: *const c_char,
) -> Rec {
    let mut r = Rec::new(kind::MARKER, 56);
    r.u32(4, flag)
        .u32(8, source_kind)
        .u64(12, timestamp)
        .u64(20, id)
        .u32(28, object_a)
        .u32(32, object_b)
        .ptr(36, name)
        .ptr(44, domain);
    r
}

/// `msptiActivityHccl`: start 4, end 12, ds 20/24, bandWidth (f64) 28, name 36, commName 44;
/// size 56.
#[allow(clippy::too_many_arguments)]
pub fn hccl(
    start: u64,
    end: u64,
    device: u32,
    stream: u32,
    bandwidth: f64,
    name: *const c_char,
    comm_name: *const c_char,
) -> Rec {
    let mut r = Rec::new(kind::HCCL, 56);
    r.u64(4, start)
        .u64(12, end)
        .u32(20, device)
        .u32(24, stream)
        .f64(28, bandwidth)
        .ptr(36, name)
        .ptr(44, comm_name);
    r
}

/// `msptiActivityMemory`: memoryOperationType 4, memoryKind 8, correlationId 12, start 20,
/// end 28, address 36, bytes 44, processId 52, deviceId 56, streamId 60; size 64.
#[allow(clippy::too_many_arguments)]
pub fn memory(
    op: u32,
    memory_kind: u32,
    corr: u64,
    start: u64,
    end: u64,
    address: u64,
    bytes: u64,
    pid: u32,
    device: u32,
    stream: u32,
) -> Rec {
    let mut r = Rec::new(kind::MEMORY, 64);
    r.u32(4, op)
        .u32(8, memory_kind)
        .u64(12, corr)
        .u64(20, start)
        .u64(28, end)
        .u64(36, address)
        .u64(44, bytes)
        .u32(52, pid)
        .u32(56, device)
        .u32(60, stream);
    r
}

/// `msptiActivityMemset` / `msptiActivityMemcpy`: value|copyKind 4, bytes 8, start 16, end 24,
/// deviceId 32, streamId 36, correlationId 40, isAsync (u8) 48; size 56.
#[allow(clippy::too_many_arguments)]
pub fn memset_or_memcpy(
    k: u32,
    value_or_copy_kind: u32,
    bytes: u64,
    start: u64,
    end: u64,
    device: u32,
    stream: u32,
    corr: u64,
    is_async: u8,
) -> Rec {
    let mut r = Rec::new(k, 56);
    r.u32(4, value_or_copy_kind)
        .u64(8, bytes)
        .u64(16, start)
        .u64(24, end)
        .u32(32, device)
        .u32(36, stream)
        .u64(40, corr)
        .u8(48, is_async);
    r
}

/// `msptiActivityExternalCorrelation`: externalKind 4, externalId 8, correlationId 16; size 24.
pub fn external_correlation(external_kind: u32, external_id: u64, corr: u64) -> Rec {
    let mut r = Rec::new(kind::EXTERNAL_CORRELATION, 24);
    r.u32(4, external_kind).u64(8, external_id).u64(16, corr);
    r
}

/// `msptiActivityCommunication`: dataType 4, count 8, ds 16/20, start 24, end 32, algType 40,
/// name 48, commName 56, correlationId 64; size 72.
#[allow(clippy::too_many_arguments)]
pub fn communication(
    data_type: u32,
    count: u64,
    device: u32,
    stream: u32,
    start: u64,
    end: u64,
    alg_type: *const c_char,
    name: *const c_char,
    comm_name: *const c_char,
    corr: u64,
) -> Rec {
    let mut r = Rec::new(kind::COMMUNICATION, 72);
    r.u32(4, data_type)
        .u64(8, count)
        .u32(16, device)
        .u32(20, stream)
        .u64(24, start)
        .u64(32, end)
        .ptr(40, alg_type)
        .ptr(48, name)
        .ptr(56, comm_name)
        .u64(64, corr);
    r
}
