//! The activity records, written by hand.
//!
//! The headers declare every record `__attribute__((packed, aligned(8)))`: fields sit at
//! unaligned offsets and the size is rounded up to a multiple of 8. Rust cannot express
//! "packed and aligned" in one type (bindgen's output for them fails with E0588), so each record
//! is a `#[repr(C, packed)]` struct whose trailing `_pad` restores the C size. Offsets and sizes
//! are pinned by the tests at the bottom of this file to what gcc reports for the headers.
//!
//! Records are copied out of a buffer with [`read_record`] (an unaligned read after a length
//! check), never referenced in place. Read fields by value (`{ rec.start }`): a reference to a
//! field of a packed struct is not allowed.

use std::os::raw::c_char;

use crate::generated::types::{
    msptiActivityFlag, msptiActivityKind, msptiActivityMemcpyKind, msptiActivityMemoryKind,
    msptiActivityMemoryOperationType, msptiActivitySourceKind, msptiCommunicationDataType,
    msptiExternalCorrelationKind,
};

/// A record whose every bit pattern is a valid value (plain integers, floats, raw pointers and
/// `#[repr(transparent)]` integer newtypes), so it may be read from any bytes.
///
/// # Safety
/// Implement only for `#[repr(C, packed)]` structs made of such fields.
pub unsafe trait Record: Copy {
    /// Bytes the record takes in a buffer (the C `sizeof`, a multiple of 8).
    const SIZE: usize = std::mem::size_of::<Self>();
}

/// Process and thread of a host-side record.
#[repr(C, packed)]
#[derive(Debug, Default, Copy, Clone)]
pub struct msptiProcessThread {
    /// Process id.
    pub processId: u32,
    /// Thread id.
    pub threadId: u32,
}

/// Device and stream of a device-side record.
#[repr(C, packed)]
#[derive(Debug, Default, Copy, Clone)]
pub struct msptiDeviceStream {
    /// Device id.
    pub deviceId: u32,
    /// Stream id.
    pub streamId: u32,
}

/// `msptiObjectId`: where a marker happened (host: process/thread; device: device/stream,
/// chosen by the marker's `sourceKind`).
#[repr(C, packed)]
#[derive(Copy, Clone)]
pub union msptiObjectId {
    /// Host markers.
    pub pt: msptiProcessThread,
    /// Device markers.
    pub ds: msptiDeviceStream,
}

impl std::fmt::Debug for msptiObjectId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: both variants are two u32s: any bits are valid for either.
        let pt = unsafe { self.pt };
        f.debug_struct("msptiObjectId").field("a", &{ pt.processId }).field("b", &{ pt.threadId }).finish()
    }
}

/// `msptiActivityMarker` (kind MARKER): an MSTX mark or range edge.
#[repr(C, packed)]
#[derive(Debug, Copy, Clone)]
pub struct msptiActivityMarker {
    pub kind: msptiActivityKind,
    pub flag: msptiActivityFlag,
    pub sourceKind: msptiActivitySourceKind,
    pub timestamp: u64,
    pub id: u64,
    pub objectId: msptiObjectId,
    pub name: *const c_char,
    pub domain: *const c_char,
    pub _pad: [u8; 4],
}

/// `msptiActivityApi` (kinds API, ACL_API, NODE_API, RUNTIME_API).
#[repr(C, packed)]
#[derive(Debug, Copy, Clone)]
pub struct msptiActivityApi {
    pub kind: msptiActivityKind,
    pub start: u64,
    pub end: u64,
    pub pt: msptiProcessThread,
    pub correlationId: u64,
    pub name: *const c_char,
    pub _pad: [u8; 4],
}

/// `msptiActivityKernel` (kind KERNEL).
#[repr(C, packed)]
#[derive(Debug, Copy, Clone)]
pub struct msptiActivityKernel {
    pub kind: msptiActivityKind,
    pub start: u64,
    pub end: u64,
    pub ds: msptiDeviceStream,
    pub correlationId: u64,
    pub type_: *const c_char,
    pub name: *const c_char,
    pub _pad: [u8; 4],
}

/// `msptiActivityHccl` (kind HCCL): one collective operation.
#[repr(C, packed)]
#[derive(Debug, Copy, Clone)]
pub struct msptiActivityHccl {
    pub kind: msptiActivityKind,
    pub start: u64,
    pub end: u64,
    pub ds: msptiDeviceStream,
    pub bandWidth: f64,
    pub name: *const c_char,
    pub commName: *const c_char,
    pub _pad: [u8; 4],
}

/// `msptiActivityMemory` (kind MEMORY): an allocation or release.
#[repr(C, packed)]
#[derive(Debug, Copy, Clone)]
pub struct msptiActivityMemory {
    pub kind: msptiActivityKind,
    pub memoryOperationType: msptiActivityMemoryOperationType,
    pub memoryKind: msptiActivityMemoryKind,
    pub correlationId: u64,
    pub start: u64,
    pub end: u64,
    pub address: u64,
    pub bytes: u64,
    pub processId: u32,
    pub deviceId: u32,
    pub streamId: u32,
}

/// `msptiActivityMemset` (kind MEMSET).
#[repr(C, packed)]
#[derive(Debug, Copy, Clone)]
pub struct msptiActivityMemset {
    pub kind: msptiActivityKind,
    pub value: u32,
    pub bytes: u64,
    pub start: u64,
    pub end: u64,
    pub deviceId: u32,
    pub streamId: u32,
    pub correlationId: u64,
    pub isAsync: u8,
    pub _pad: [u8; 7],
}

/// `msptiActivityMemcpy` (kind MEMCPY).
#[repr(C, packed)]
#[derive(Debug, Copy, Clone)]
pub struct msptiActivityMemcpy {
    pub kind: msptiActivityKind,
    pub copyKind: msptiActivityMemcpyKind,
    pub bytes: u64,
    pub start: u64,
    pub end: u64,
    pub deviceId: u32,
    pub streamId: u32,
    pub correlationId: u64,
    pub isAsync: u8,
    pub _pad: [u8; 7],
}

/// `msptiActivityExternalCorrelation` (kind EXTERNAL_CORRELATION).
#[repr(C, packed)]
#[derive(Debug, Copy, Clone)]
pub struct msptiActivityExternalCorrelation {
    pub kind: msptiActivityKind,
    pub externalKind: msptiExternalCorrelationKind,
    pub externalId: u64,
    pub correlationId: u64,
}

/// `msptiActivityCommunication` (kind COMMUNICATION): one communication task.
#[repr(C, packed)]
#[derive(Debug, Copy, Clone)]
pub struct msptiActivityCommunication {
    pub kind: msptiActivityKind,
    pub dataType: msptiCommunicationDataType,
    pub count: u64,
    pub ds: msptiDeviceStream,
    pub start: u64,
    pub end: u64,
    pub algType: *const c_char,
    pub name: *const c_char,
    pub commName: *const c_char,
    pub correlationId: u64,
}

// SAFETY: each is `#[repr(C, packed)]` of integers, f64, raw pointers, integer newtypes and a
// union of two such structs: every bit pattern is a valid value.
unsafe impl Record for msptiActivityMarker {}
// SAFETY: as above.
unsafe impl Record for msptiActivityApi {}
// SAFETY: as above.
unsafe impl Record for msptiActivityKernel {}
// SAFETY: as above.
unsafe impl Record for msptiActivityHccl {}
// SAFETY: as above.
unsafe impl Record for msptiActivityMemory {}
// SAFETY: as above.
unsafe impl Record for msptiActivityMemset {}
// SAFETY: as above.
unsafe impl Record for msptiActivityMemcpy {}
// SAFETY: as above.
unsafe impl Record for msptiActivityExternalCorrelation {}
// SAFETY: as above.
unsafe impl Record for msptiActivityCommunication {}

/// Copies a record out of the start of `bytes`; `None` when `bytes` is shorter than the record.
pub fn read_record<R: Record>(bytes: &[u8]) -> Option<R> {
    if bytes.len() < R::SIZE {
        return None;
    }
    // SAFETY: `bytes` holds at least `size_of::<R>()` readable bytes; `read_unaligned` needs no
    // alignment, and `Record` guarantees every bit pattern is a valid `R`.
    Some(unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast::<R>()) })
}

/// The kind field every record starts with; `None` when fewer than 4 bytes remain.
pub fn record_kind(bytes: &[u8]) -> Option<msptiActivityKind> {
    let b: [u8; 4] = bytes.get(..4)?.try_into().ok()?;
    Some(msptiActivityKind(u32::from_ne_bytes(b)))
}

/// How many bytes a record of `kind` takes in a buffer (what the library advances by), or
/// `None` for a kind this crate does not know: a walker must stop there, since the size of an
/// unknown record, and so where the next one starts, cannot be known.
pub fn record_size(kind: msptiActivityKind) -> Option<usize> {
    use std::mem::size_of;
    Some(match kind {
        msptiActivityKind::MSPTI_ACTIVITY_KIND_MARKER => size_of::<msptiActivityMarker>(),
        msptiActivityKind::MSPTI_ACTIVITY_KIND_KERNEL => size_of::<msptiActivityKernel>(),
        msptiActivityKind::MSPTI_ACTIVITY_KIND_API
        | msptiActivityKind::MSPTI_ACTIVITY_KIND_ACL_API
        | msptiActivityKind::MSPTI_ACTIVITY_KIND_NODE_API
        | msptiActivityKind::MSPTI_ACTIVITY_KIND_RUNTIME_API => size_of::<msptiActivityApi>(),
        msptiActivityKind::MSPTI_ACTIVITY_KIND_HCCL => size_of::<msptiActivityHccl>(),
        msptiActivityKind::MSPTI_ACTIVITY_KIND_MEMORY => size_of::<msptiActivityMemory>(),
        msptiActivityKind::MSPTI_ACTIVITY_KIND_MEMSET => size_of::<msptiActivityMemset>(),
        msptiActivityKind::MSPTI_ACTIVITY_KIND_MEMCPY => size_of::<msptiActivityMemcpy>(),
        msptiActivityKind::MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION => {
            size_of::<msptiActivityExternalCorrelation>()
        }
        msptiActivityKind::MSPTI_ACTIVITY_KIND_COMMUNICATION => size_of::<msptiActivityCommunication>(),
        _ => return None,
    })
}

#[cfg(test)]
mod layout {
    //! Sizes and offsets measured with gcc 12 on x86-64 from the `Ascend/mspti` headers
    //! (`sizeof`/`offsetof` of each record), as recorded in the vendor notes.
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn sizes_match_gcc() {
        assert_eq!(size_of::<msptiObjectId>(), 8);
        assert_eq!(size_of::<msptiActivityMarker>(), 56);
        assert_eq!(size_of::<msptiActivityApi>(), 48);
        assert_eq!(size_of::<msptiActivityKernel>(), 56);
        assert_eq!(size_of::<msptiActivityHccl>(), 56);
        assert_eq!(size_of::<msptiActivityMemory>(), 64);
        assert_eq!(size_of::<msptiActivityMemset>(), 56);
        assert_eq!(size_of::<msptiActivityMemcpy>(), 56);
        assert_eq!(size_of::<msptiActivityExternalCorrelation>(), 24);
        assert_eq!(size_of::<msptiActivityCommunication>(), 72);
        assert_eq!(size_of::<crate::generated::types::msptiActivity>(), 8);
    }

    #[test]
    fn every_size_is_a_multiple_of_8() {
        for k in 1..=12 {
            let size = record_size(msptiActivityKind(k)).expect("known kind");
            assert_eq!(size % 8, 0, "kind {k}");
        }
        assert_eq!(record_size(msptiActivityKind(0)), None);
        assert_eq!(record_size(msptiActivityKind(13)), None);
    }

    #[test]
    fn marker_offsets() {
        assert_eq!(offset_of!(msptiActivityMarker, kind), 0);
        assert_eq!(offset_of!(msptiActivityMarker, flag), 4);
        assert_eq!(offset_of!(msptiActivityMarker, sourceKind), 8);
        assert_eq!(offset_of!(msptiActivityMarker, timestamp), 12);
        assert_eq!(offset_of!(msptiActivityMarker, id), 20);
        assert_eq!(offset_of!(msptiActivityMarker, objectId), 28);
        assert_eq!(offset_of!(msptiActivityMarker, name), 36);
        assert_eq!(offset_of!(msptiActivityMarker, domain), 44);
        assert_eq!(offset_of!(msptiProcessThread, threadId), 4);
        assert_eq!(offset_of!(msptiDeviceStream, streamId), 4);
    }

    #[test]
    fn api_offsets() {
        assert_eq!(offset_of!(msptiActivityApi, kind), 0);
        assert_eq!(offset_of!(msptiActivityApi, start), 4);
        assert_eq!(offset_of!(msptiActivityApi, end), 12);
        assert_eq!(offset_of!(msptiActivityApi, pt), 20);
        assert_eq!(offset_of!(msptiActivityApi, correlationId), 28);
        assert_eq!(offset_of!(msptiActivityApi, name), 36);
    }

    #[test]
    fn kernel_offsets() {
        assert_eq!(offset_of!(msptiActivityKernel, kind), 0);
        assert_eq!(offset_of!(msptiActivityKernel, start), 4);
        assert_eq!(offset_of!(msptiActivityKernel, end), 12);
        assert_eq!(offset_of!(msptiActivityKernel, ds), 20);
        assert_eq!(offset_of!(msptiActivityKernel, correlationId), 28);
        assert_eq!(offset_of!(msptiActivityKernel, type_), 36);
        assert_eq!(offset_of!(msptiActivityKernel, name), 44);
    }

    #[test]
    fn hccl_offsets() {
        assert_eq!(offset_of!(msptiActivityHccl, start), 4);
        assert_eq!(offset_of!(msptiActivityHccl, end), 12);
        assert_eq!(offset_of!(msptiActivityHccl, ds), 20);
        assert_eq!(offset_of!(msptiActivityHccl, bandWidth), 28);
        assert_eq!(offset_of!(msptiActivityHccl, name), 36);
        assert_eq!(offset_of!(msptiActivityHccl, commName), 44);
    }

    #[test]
    fn memory_offsets() {
        assert_eq!(offset_of!(msptiActivityMemory, memoryOperationType), 4);
        assert_eq!(offset_of!(msptiActivityMemory, memoryKind), 8);
        assert_eq!(offset_of!(msptiActivityMemory, correlationId), 12);
        assert_eq!(offset_of!(msptiActivityMemory, start), 20);
        assert_eq!(offset_of!(msptiActivityMemory, end), 28);
        assert_eq!(offset_of!(msptiActivityMemory, address), 36);
        assert_eq!(offset_of!(msptiActivityMemory, bytes), 44);
        assert_eq!(offset_of!(msptiActivityMemory, processId), 52);
        assert_eq!(offset_of!(msptiActivityMemory, deviceId), 56);
        assert_eq!(offset_of!(msptiActivityMemory, streamId), 60);
    }

    #[test]
    fn memset_and_memcpy_offsets() {
        assert_eq!(offset_of!(msptiActivityMemset, value), 4);
        assert_eq!(offset_of!(msptiActivityMemset, bytes), 8);
        assert_eq!(offset_of!(msptiActivityMemset, start), 16);
        assert_eq!(offset_of!(msptiActivityMemset, end), 24);
        assert_eq!(offset_of!(msptiActivityMemset, deviceId), 32);
        assert_eq!(offset_of!(msptiActivityMemset, streamId), 36);
        assert_eq!(offset_of!(msptiActivityMemset, correlationId), 40);
        assert_eq!(offset_of!(msptiActivityMemset, isAsync), 48);
        assert_eq!(offset_of!(msptiActivityMemcpy, copyKind), 4);
        assert_eq!(offset_of!(msptiActivityMemcpy, bytes), 8);
        assert_eq!(offset_of!(msptiActivityMemcpy, start), 16);
        assert_eq!(offset_of!(msptiActivityMemcpy, end), 24);
        assert_eq!(offset_of!(msptiActivityMemcpy, deviceId), 32);
        assert_eq!(offset_of!(msptiActivityMemcpy, streamId), 36);
        assert_eq!(offset_of!(msptiActivityMemcpy, correlationId), 40);
        assert_eq!(offset_of!(msptiActivityMemcpy, isAsync), 48);
    }

    #[test]
    fn external_correlation_and_communication_offsets() {
        assert_eq!(offset_of!(msptiActivityExternalCorrelation, externalKind), 4);
        assert_eq!(offset_of!(msptiActivityExternalCorrelation, externalId), 8);
        assert_eq!(offset_of!(msptiActivityExternalCorrelation, correlationId), 16);
        assert_eq!(offset_of!(msptiActivityCommunication, dataType), 4);
        assert_eq!(offset_of!(msptiActivityCommunication, count), 8);
        assert_eq!(offset_of!(msptiActivityCommunication, ds), 16);
        assert_eq!(offset_of!(msptiActivityCommunication, start), 24);
        assert_eq!(offset_of!(msptiActivityCommunication, end), 32);
        assert_eq!(offset_of!(msptiActivityCommunication, algType), 40);
        assert_eq!(offset_of!(msptiActivityCommunication, name), 48);
        assert_eq!(offset_of!(msptiActivityCommunication, commName), 56);
        assert_eq!(offset_of!(msptiActivityCommunication, correlationId), 64);
    }

    #[test]
    fn read_record_reads_unaligned_bytes() {
        // An API record at an odd offset, written field by field at the C offsets.
        let mut buf = [0u8; 1 + 48];
        let at = |o: usize| 1 + o;
        buf[at(0)..at(4)].copy_from_slice(&3u32.to_ne_bytes());
        buf[at(4)..at(12)].copy_from_slice(&100u64.to_ne_bytes());
        buf[at(12)..at(20)].copy_from_slice(&250u64.to_ne_bytes());
        buf[at(20)..at(24)].copy_from_slice(&7u32.to_ne_bytes());
        buf[at(24)..at(28)].copy_from_slice(&8u32.to_ne_bytes());
        buf[at(28)..at(36)].copy_from_slice(&42u64.to_ne_bytes());
        let api: msptiActivityApi = read_record(&buf[1..]).expect("long enough");
        assert_eq!({ api.kind }, msptiActivityKind::MSPTI_ACTIVITY_KIND_API);
        assert_eq!(({ api.start }, { api.end }), (100, 250));
        assert_eq!(({ api.pt.processId }, { api.pt.threadId }), (7, 8));
        assert_eq!({ api.correlationId }, 42);
        assert!(read_record::<msptiActivityApi>(&buf[2..]).is_none());
        assert_eq!(record_kind(&buf[1..]), Some(msptiActivityKind::MSPTI_ACTIVITY_KIND_API));
    }
}
