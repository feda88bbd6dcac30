//! Host-side records: runtime and driver API calls, CUPTI's own overhead, NVTX markers.

use std::ffi::c_char;
use std::mem::{offset_of, size_of};

use accelprof_core::columns::{ApiColumns, ApiRow, MarkerRow, RowWriter, HOST_DEVICE};
use accelprof_core::intern::Interner;
use accelprof_core::NameId;
use cupti_sys::{
    cbid_name, CUpti_ActivityAPI, CUpti_ActivityMarker2, CUpti_ActivityOverhead3, CUpti_CallbackDomain,
};

use cupti_sys::CUpti_ActivityObjectKindId as ObjectId;
use cupti_sys::CUpti_ActivityObjectKindId__bindgen_ty_1 as ProcessThread;
use cupti_sys::CUpti_ActivityObjectKindId__bindgen_ty_2 as DeviceContextStream;

use super::bytes::{ptr_at, u32_at, u64_at, view};
use super::sinks::Sinks;
use super::walker::{Decoded, Walker};
use super::{kinds, PendingRange, API_DOMAIN_DRIVER, API_DOMAIN_OVERHEAD, API_DOMAIN_RUNTIME};
use crate::ids::{DriverCbid, RuntimeCbid};

type A = CUpti_ActivityAPI;
const API_BYTES: usize = size_of::<A>();
type O = CUpti_ActivityOverhead3;
const OVERHEAD_BYTES: usize = size_of::<O>();
type M = CUpti_ActivityMarker2;
const MARKER_BYTES: usize = size_of::<M>();

/// Offsets inside `CUpti_ActivityObjectKindId` (a union: `pt` = process/thread, `dcs` =
/// device/context/stream).
const PROCESS: usize = offset_of!(ObjectId, pt) + offset_of!(ProcessThread, processId);
const THREAD: usize = offset_of!(ObjectId, pt) + offset_of!(ProcessThread, threadId);
const DEVICE: usize = offset_of!(ObjectId, dcs) + offset_of!(DeviceContextStream, deviceId);
const STREAM: usize = offset_of!(ObjectId, dcs) + offset_of!(DeviceContextStream, streamId);

/// `CUpti_ActivityObjectKind` values naming a host object (process, thread).
const OBJECT_PROCESS: u32 = 1;
const OBJECT_THREAD: u32 = 2;

/// Marker flags (`CUPTI_ACTIVITY_FLAG_MARKER_*`).
const MARKER_INSTANTANEOUS: u32 = 1;
const MARKER_START: u32 = 2;
const MARKER_END: u32 = 4;

/// cbids from here on have no name (the tables do not grow that far).
const MAX_CBID: u32 = 1 << 16;

/// The `cbid` of an API record.
#[inline(always)]
fn cbid_of(r: &[u8; API_BYTES]) -> u32 {
    u32_at(r, offset_of!(A, cbid))
}

/// A not-yet-looked-up slot of the API name tables.
const UNSET: u32 = u32::MAX;
/// A slot of the API name tables whose calls the walker's API filter leaves out. Every slot below it
/// holds a name (interned names are numbered from 0 up, nowhere near it).
const FILTERED: u32 = u32::MAX - 1;

/// Kineto's names of CUPTI overhead kinds (`CUpti_ActivityOverheadKind`; 1 << 16 and above are indexed
/// by their bit).
fn overhead_name(kind: u32) -> &'static str {
    match kind {
        1 => "Driver Compiler",
        0x10000 => "Buffer Flush",
        0x20000 => "Instrumentation",
        0x40000 => "Resource",
        0x80000 => "Runtime Triggered Module Loading",
        0x100000 => "Lazy Function Loading",
        0x200000 => "Command Buffer Full",
        0x400000 => "Activity Buffer Request",
        0x800000 => "UVM Activity Init",
        _ => "Unknown Overhead",
    }
}

/// Looks up the name of API `cbid` of `domain` and interns it into `table` (indexed by cbid, [`UNSET`] =
/// not looked up yet, [`FILTERED`] = left out by the walker's API filter): once per cbid, the first time
/// a run meets it. cbids from [`MAX_CBID`] on are left out (they read as no name).
#[cold]
#[inline(never)]
fn look_up_api_name(
    table: &mut Vec<u32>,
    domain: u32,
    cbid: u32,
    version: u32,
    names: &mut Interner,
    kept: bool,
) {
    if cbid >= MAX_CBID {
        return;
    }
    let name = if !kept {
        FILTERED
    } else {
        cbid_name(CUpti_CallbackDomain(domain), cbid, version).map_or(NameId::NONE, |n| names.intern(n)).0
    };
    let index = cbid as usize;
    if table.len() <= index {
        table.resize(index + 1, UNSET);
    }
    table[index] = name;
}

/// The row of API record `r`.
#[inline(always)]
fn api_row(r: &[u8; API_BYTES], domain: u32, cbid: u32, name: NameId) -> ApiRow {
    ApiRow {
        start: u64_at(r, offset_of!(A, start)),
        end: u64_at(r, offset_of!(A, end)),
        process: u32_at(r, offset_of!(A, processId)),
        thread: u64::from(u32_at(r, offset_of!(A, threadId))),
        correlation: u64::from(u32_at(r, offset_of!(A, correlationId))),
        domain,
        cbid,
        name,
    }
}

impl Walker {
    /// Decodes the run of API records of `kind` (RUNTIME or DRIVER, `stride` bytes each) at the start of
    /// `bytes`: every record up to the first one of another kind or one that does not fit whole. Returns how
    /// many became rows and how many the API filter left out (the run is their sum). A tight loop of its own: API calls come in long runs (a host
    /// thread's calls between two flushes), and each record is small, so per-record dispatch would cost
    /// more than the decoding. Never inlined: called once per run, and its four loops inlined into the
    /// walk cost every other record of the walk instructions (6 more per memcpy record, callgrind).
    #[inline(never)]
    pub(super) fn api_run(
        &mut self,
        kind: u32,
        stride: usize,
        bytes: &[u8],
        out: &mut RowWriter<'_, ApiColumns>,
        names: &mut Interner,
    ) -> (usize, usize) {
        // One loop per kind: the kind checked and the domain written are constants then, which leaves
        // two more registers to the eight column pointers.
        // And one without the API filter's case: it costs the loop 6 instructions per row (callgrind).
        match (kind, self.api_filter.is_some()) {
            (kinds::DRIVER, false) => self.api_run_of::<{ kinds::DRIVER }, false>(stride, bytes, out, names),
            (kinds::RUNTIME, false) => {
                self.api_run_of::<{ kinds::RUNTIME }, false>(stride, bytes, out, names)
            }
            (kinds::DRIVER, true) => self.api_run_of::<{ kinds::DRIVER }, true>(stride, bytes, out, names),
            (kinds::RUNTIME, true) => self.api_run_of::<{ kinds::RUNTIME }, true>(stride, bytes, out, names),
            _ => (0, 0),
        }
    }

    /// [`api_run`](Self::api_run) for records of kind `KIND`, by a walker with an API filter or not
    /// (`FILTERING`).
    #[inline(always)]
    fn api_run_of<const KIND: u32, const FILTERING: bool>(
        &mut self,
        stride: usize,
        bytes: &[u8],
        out: &mut RowWriter<'_, ApiColumns>,
        names: &mut Interner,
    ) -> (usize, usize) {
        let kind = KIND;
        if stride < API_BYTES {
            return (0, 0);
        }
        let domain = if kind == kinds::DRIVER { API_DOMAIN_DRIVER } else { API_DOMAIN_RUNTIME };
        let version = self.layouts.api_version();
        let slot = usize::from(domain == API_DOMAIN_DRIVER);
        // Without a filter, calls of cbids past the tables are rows with no name; with one, each is
        // decided on its own, outside the loop.
        let unfiltered = !FILTERING;
        // Moved out for the loop (and back after): a local table stays in registers, while one behind
        // `self` would be reloaded after every row's stores.
        let mut table = std::mem::take(&mut self.api_names[slot]);
        let mut records = bytes.chunks_exact(stride);
        let (mut decoded, mut filtered) = (0, 0);
        loop {
            // The loop that writes the rows makes no call: it stops at a cbid whose name is not looked up
            // yet (once per cbid), which is looked up here before it goes on. A call the filter leaves
            // out (its slot [`FILTERED`]) is passed over inside the loop, counted.
            decoded += out.push_while(|| loop {
                let r = view::<API_BYTES>(records.clone().next()?)?;
                if u32_at(r, offset_of!(A, kind)) != kind {
                    return None;
                }
                let cbid = cbid_of(r);
                let name = match table.get(cbid as usize) {
                    Some(&id) if id < FILTERED => NameId(id),
                    Some(&FILTERED) if FILTERING => {
                        records.next();
                        filtered += 1;
                        continue;
                    }
                    _ if cbid >= MAX_CBID && unfiltered => NameId::NONE,
                    _ => return None,
                };
                records.next();
                return Some(ApiRow {
                    start: u64_at(r, offset_of!(A, start)),
                    end: u64_at(r, offset_of!(A, end)),
                    process: u32_at(r, offset_of!(A, processId)),
                    thread: u64::from(u32_at(r, offset_of!(A, threadId))),
                    correlation: u64::from(u32_at(r, offset_of!(A, correlationId))),
                    domain,
                    cbid,
                    name,
                });
            });
            match records.clone().next().and_then(view::<API_BYTES>) {
                Some(r) if u32_at(r, offset_of!(A, kind)) == kind => {
                    let cbid = cbid_of(r);
                    let kept = self.keeps_api(domain, cbid);
                    if cbid < MAX_CBID {
                        look_up_api_name(&mut table, domain, cbid, version, names, kept);
                        continue;
                    }
                    // Past the tables, with a filter: this one call, decided here.
                    records.next();
                    if kept {
                        out.push(api_row(r, domain, cbid, NameId::NONE));
                        decoded += 1;
                    } else {
                        filtered += 1;
                    }
                }
                _ => break,
            }
        }
        self.api_names[slot] = table;
        (decoded, filtered)
    }

    /// Whether the walker's API filter keeps calls of `cbid` of `domain` (every call without a filter).
    #[cold]
    fn keeps_api(&self, domain: u32, cbid: u32) -> bool {
        match &self.api_filter {
            None => true,
            Some(f) if domain == API_DOMAIN_DRIVER => f.records_driver(DriverCbid(cbid)),
            Some(f) => f.records_runtime(RuntimeCbid(cbid)),
        }
    }

    /// The interned name of API `cbid` of `domain` (looked up once per cbid), or `None` when the walker's
    /// API filter leaves the call out.
    #[inline]
    pub(super) fn api_name(&mut self, domain: u32, cbid: u32, names: &mut Interner) -> Option<NameId> {
        let slot = usize::from(domain == API_DOMAIN_DRIVER);
        match self.api_names[slot].get(cbid as usize) {
            Some(&id) if id < FILTERED => Some(NameId(id)),
            Some(&FILTERED) => None,
            _ => self.api_name_slow(domain, cbid, names),
        }
    }

    /// [`api_name`](Self::api_name) of a cbid not looked up yet (or past the tables).
    #[cold]
    #[inline(never)]
    fn api_name_slow(&mut self, domain: u32, cbid: u32, names: &mut Interner) -> Option<NameId> {
        let kept = self.keeps_api(domain, cbid);
        let version = self.layouts.api_version();
        let table = &mut self.api_names[usize::from(domain == API_DOMAIN_DRIVER)];
        look_up_api_name(table, domain, cbid, version, names, kept);
        kept.then(|| table.get(cbid as usize).map_or(NameId::NONE, |&id| NameId(id)))
    }

    /// One API record (a call between records of other kinds: the run loop's setup would cost more).
    #[inline]
    pub(super) fn api(
        &mut self,
        rec: &[u8],
        domain: u32,
        out: &mut RowWriter<'_, ApiColumns>,
        names: &mut Interner,
    ) -> Decoded {
        let Some(r) = view::<API_BYTES>(rec) else { return Decoded::Skipped };
        let cbid = cbid_of(r);
        let Some(name) = self.api_name(domain, cbid, names) else { return Decoded::Filtered };
        out.push(api_row(r, domain, cbid, name));
        Decoded::Row
    }

    pub(super) fn overhead(&mut self, rec: &[u8], out: &mut Sinks<'_>, names: &mut Interner) -> Decoded {
        let Some(r) = view::<OVERHEAD_BYTES>(rec) else { return Decoded::Skipped };
        let kind = u32_at(r, offset_of!(O, overheadKind));
        let object = offset_of!(O, objectId);
        let (process, thread) = match u32_at(r, offset_of!(O, objectKind)) {
            OBJECT_PROCESS | OBJECT_THREAD => (u32_at(r, object + PROCESS), u32_at(r, object + THREAD)),
            _ => (self.process_id, 0),
        };
        out.api_calls.push(ApiRow {
            start: u64_at(r, offset_of!(O, start)),
            end: u64_at(r, offset_of!(O, end)),
            process,
            thread: u64::from(thread),
            correlation: u64::from(u32_at(r, offset_of!(O, correlationId))),
            domain: API_DOMAIN_OVERHEAD,
            cbid: kind,
            name: names.intern(overhead_name(kind)),
        });
        Decoded::Row
    }

    /// NVTX markers: an instant is a row; a range start is held until its end record (same id) arrives,
    /// then the range is one row.
    pub(super) fn marker(&mut self, rec: &[u8], out: &mut Sinks<'_>, names: &mut Interner) -> Decoded {
        let Some(r) = view::<MARKER_BYTES>(rec) else { return Decoded::Skipped };
        let flags = u32_at(r, offset_of!(M, flags));
        let timestamp = u64_at(r, offset_of!(M, timestamp));
        let id = u32_at(r, offset_of!(M, id));
        if flags & MARKER_END != 0 {
            let Some(start) = self.open_ranges.remove(&id) else {
                self.shared.unpaired_range_end();
                return Decoded::Skipped;
            };
            self.shared.set_open_ranges(self.open_ranges.len());
            out.markers.push(MarkerRow { end: timestamp, ..start.row });
            return Decoded::Row;
        }
        let object = offset_of!(M, objectId);
        let (process, thread, device, stream) = match u32_at(r, offset_of!(M, objectKind)) {
            OBJECT_PROCESS | OBJECT_THREAD => {
                (u32_at(r, object + PROCESS), u64::from(u32_at(r, object + THREAD)), HOST_DEVICE, 0)
            }
            _ => (self.process_id, 0, u32_at(r, object + DEVICE), u64::from(u32_at(r, object + STREAM))),
        };
        let (name, domain) = if self.read_strings {
            // SAFETY: a walker that reads strings was made with `Walker::new`'s contract: the
            // marker's name and domain are NULL or NUL-terminated strings valid for this walk.
            // Interned by content: NVTX messages are often built per call.
            unsafe {
                (
                    names.intern_cstr(ptr_at(r, offset_of!(M, name)) as *const c_char),
                    names.intern_cstr(ptr_at(r, offset_of!(M, domain)) as *const c_char),
                )
            }
        } else {
            (NameId::NONE, NameId::NONE)
        };
        let row = MarkerRow {
            start: timestamp,
            end: timestamp,
            id: u64::from(id),
            process,
            thread,
            device,
            stream,
            domain,
            name,
            flags,
        };
        if flags & MARKER_START != 0 && flags & MARKER_INSTANTANEOUS == 0 {
            self.open_ranges.insert(id, PendingRange { row });
            self.shared.set_open_ranges(self.open_ranges.len());
            return Decoded::Held;
        }
        out.markers.push(row);
        Decoded::Row
    }
}
