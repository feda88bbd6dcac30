//! The walk over one CUPTI buffer: record by record, by kind and the size table of the running library.

use std::collections::HashMap;
use std::sync::Arc;

use accelprof_core::intern::Interner;
use accelprof_core::{Batch, RecordWalker, WalkStats};

use super::bytes::kind_at;
use super::layout::RecordLayouts;
use super::name_cache::{NameCache, NameTransform};
use super::shared::DecoderShared;
use super::sinks::Sinks;
use super::{kinds, PendingRange};
use crate::activity::ApiFilter;

/// Asks the library how many bytes the record at the start of `bytes` occupies (`bytes` runs to the end of
/// the valid part of the buffer). `None` when it cannot tell (e.g. it is the last record).
pub type StrideProbe = Box<dyn FnMut(&[u8]) -> Option<usize> + Send>;

/// Decodes CUPTI activity buffers into [`accelprof_core`] columns: the [`RecordWalker`] of the `cupti` crate.
///
/// Records are walked in place, by kind and the record size of the running library
/// ([`RecordLayouts::for_version`]); no call into CUPTI per record. What each kind becomes:
///
/// | CUPTI kind | columns |
/// |---|---|
/// | KERNEL, CONCURRENT_KERNEL | `kernels` (name interned once per distinct string) |
/// | MEMCPY / MEMSET | `memcpys` / `memsets` |
/// | RUNTIME / DRIVER | `api_calls`, `domain` = [`API_DOMAIN_DRIVER`] / [`API_DOMAIN_RUNTIME`] |
/// | OVERHEAD | `api_calls`, `domain` = [`API_DOMAIN_OVERHEAD`], `cbid` = the overhead kind |
/// | MARKER (NVTX) | `markers`: a range is one row, emitted when its end record arrives |
/// | SYNCHRONIZATION | `syncs` (when asked for; otherwise only the fence clock sees them) |
/// | CUDA_EVENT | `syncs`, `sync_type` = [`SYNC_TYPE_EVENT_RECORD`], start = end = device timestamp |
/// | EXTERNAL_CORRELATION | `external_correlations` |
/// | MEMORY2 | `memory` |
///
/// Runtime and driver calls that the walker's API filter ([`Walker::with_api_filter`]) leaves out are in
/// no column, counted in `WalkStats::filtered`.
///
/// Any other kind whose size is known is skipped and counted (`WalkStats::skipped_unknown`). A kind whose
/// size is not known stops the walk of that buffer (see [`DecoderStats::truncated_buffers`](super::DecoderStats)),
/// unless a [`StrideProbe`] can size it.
///
/// [`API_DOMAIN_DRIVER`]: super::API_DOMAIN_DRIVER
/// [`API_DOMAIN_RUNTIME`]: super::API_DOMAIN_RUNTIME
/// [`API_DOMAIN_OVERHEAD`]: super::API_DOMAIN_OVERHEAD
/// [`SYNC_TYPE_EVENT_RECORD`]: super::SYNC_TYPE_EVENT_RECORD
pub struct Walker {
    pub(super) layouts: RecordLayouts,
    /// Kinds whose size is settled (bit per kind < 64): from a verified table or from the probe.
    settled: u64,
    probe: Option<StrideProbe>,
    pub(super) shared: Arc<DecoderShared>,
    pub(super) emit_sync: bool,
    pub(super) kernel_names: NameCache,
    /// Interned API names per domain, indexed by cbid (`u32::MAX` = not looked up yet, `u32::MAX - 1` =
    /// left out by `api_filter`).
    pub(super) api_names: [Vec<u32>; 2],
    /// The API calls kept while decoding (`None`: every call); the others are counted as filtered.
    pub(super) api_filter: Option<ApiFilter>,
    pub(super) open_ranges: HashMap<u32, PendingRange>,
    /// Device of each context seen on device records (SYNCHRONIZATION records carry only the context).
    pub(super) context_devices: HashMap<u32, u32>,
    pub(super) last_context: (u32, u32),
    pub(super) sync_names: [u32; 6],
    pub(super) process_id: u32,
    /// Whether the records' string pointers (kernel names, NVTX messages and domains) are read:
    /// only for a walker made with the contract of [`Walker::new`].
    pub(super) read_strings: bool,
}

impl Walker {
    /// A walker for buffers of the CUPTI whose record sizes are `layouts`, which reads the strings
    /// the records point at (kernel names, NVTX messages and domains). The activity session makes
    /// one for the buffers CUPTI completes; to walk bytes from anywhere else, use
    /// [`untrusted`](Self::untrusted).
    ///
    /// # Safety
    /// Every buffer this walker is given ([`RecordWalker::walk`]) must be one CUPTI wrote (or
    /// written the same way): each string field of each record it holds, as the record's kind
    /// and `layouts` place it, is NULL or points to a NUL-terminated string that stays valid and
    /// unchanged for the whole walk. A record's bytes are otherwise untrusted: a pointer field
    /// holding anything else (a truncated or corrupted buffer, bytes of another format) is
    /// undefined behaviour, as following it can fault.
    pub unsafe fn new(layouts: RecordLayouts) -> Self {
        Walker { read_strings: true, ..Self::untrusted(layouts) }
    }

    /// A walker that trusts nothing in the bytes it is given: it follows no pointer they hold,
    /// so kernel names and NVTX messages and domains read as no name ([`NameId::NONE`]); every
    /// other field decodes as with [`new`](Self::new). Any bytes are safe to walk (a file, a
    /// fuzzer's input).
    ///
    /// [`NameId::NONE`]: accelprof_core::NameId::NONE
    pub fn untrusted(layouts: RecordLayouts) -> Self {
        let settled = if layouts.is_verified() { u64::MAX } else { 0 };
        Walker {
            layouts,
            settled,
            probe: None,
            shared: Arc::new(DecoderShared::default()),
            emit_sync: true,
            kernel_names: NameCache::new(),
            api_names: [Vec::new(), Vec::new()],
            api_filter: None,
            open_ranges: HashMap::new(),
            context_devices: HashMap::new(),
            last_context: (u32::MAX, u32::MAX),
            sync_names: [u32::MAX; 6],
            process_id: std::process::id(),
            read_strings: false,
        }
    }

    /// Whether SYNCHRONIZATION records become `syncs` rows (default true). With `false` they only advance
    /// the fence clock ([`DecoderShared::max_sync_end`]) and are counted as fence records: the session
    /// enables that kind just for `flush(sync)` when the user did not ask for it.
    pub fn emit_sync_rows(mut self, emit: bool) -> Self {
        self.emit_sync = emit;
        self
    }

    /// Keeps only the runtime and driver calls `filter` records: the others are read, left out of the
    /// batches and counted in `WalkStats::filtered` (the session's [`ApiFilterAt::Decode`]). Default:
    /// every call ([`ApiFilter::all`]).
    ///
    /// [`ApiFilterAt::Decode`]: crate::activity::ApiFilterAt::Decode
    pub fn with_api_filter(mut self, filter: ApiFilter) -> Self {
        self.api_filter = (!filter.is_all()).then_some(filter);
        self.api_names = [Vec::new(), Vec::new()];
        self
    }

    /// Lets the walker ask the library for a record's size: once per kind when the size table is not
    /// verified for this library version, and for any kind the table does not know. What the library says
    /// wins over the table (counted in `DecoderStats::stride_corrections` when they differ).
    pub fn with_stride_probe(mut self, probe: StrideProbe) -> Self {
        self.probe = Some(probe);
        self
    }

    /// Applies `transform` to each distinct kernel name before interning it (e.g. a C++ demangler: CUPTI
    /// reports mangled names). Runs once per distinct name, on the decode thread.
    pub fn with_kernel_name_transform(mut self, transform: NameTransform) -> Self {
        self.kernel_names.transform = Some(transform);
        self
    }

    /// The state this walker shares with other threads (fence clock, tallies).
    pub fn shared(&self) -> Arc<DecoderShared> {
        Arc::clone(&self.shared)
    }

    /// The size table in use.
    pub fn layouts(&self) -> &RecordLayouts {
        &self.layouts
    }

    /// The strides that need no check: settled kinds of the table (0 = ask `stride_slow`).
    fn settled_strides(&self) -> [u16; 64] {
        let mut fast = [0u16; 64];
        for (kind, slot) in fast.iter_mut().enumerate() {
            if self.settled & (1 << kind) != 0 {
                *slot = self.layouts.size_of(kind as u32).map_or(0, |s| s as u16);
            }
        }
        fast
    }

    #[cold]
    fn stride_slow(&mut self, kind: u32, rest: &[u8], known: Option<usize>) -> Option<usize> {
        let Some(probe) = self.probe.as_mut() else { return known };
        match probe(rest) {
            Some(size) if size >= 8 && size % 8 == 0 => {
                if kind < 64 {
                    self.settled |= 1 << kind;
                }
                if known != Some(size) {
                    if known.is_some() {
                        self.shared.stride_corrected();
                    }
                    self.layouts.set_size(kind, size);
                }
                Some(size)
            }
            // The library could not tell (the last record of the buffer) or answered nonsense: trust the
            // table for this record and ask again next time.
            _ => known,
        }
    }

    /// Decodes one record; `Skipped` when its kind is not decoded or it is malformed.
    #[inline]
    fn decode(&mut self, kind: u32, rec: &[u8], out: &mut Sinks<'_>, names: &mut Interner) -> Decoded {
        match kind {
            kinds::KERNEL | kinds::CONCURRENT_KERNEL => self.kernel(rec, &mut out.kernels, names),
            kinds::MEMCPY => self.memcpy(rec, &mut out.memcpys),
            kinds::MEMSET => self.memset(rec, &mut out.memsets),
            kinds::RUNTIME => self.api(rec, super::API_DOMAIN_RUNTIME, &mut out.api_calls, names),
            kinds::DRIVER => self.api(rec, super::API_DOMAIN_DRIVER, &mut out.api_calls, names),
            kinds::OVERHEAD => self.overhead(rec, out, names),
            kinds::MARKER => self.marker(rec, out, names),
            kinds::SYNCHRONIZATION => self.synchronization(rec, out, names),
            kinds::CUDA_EVENT => self.cuda_event(rec, out, names),
            kinds::EXTERNAL_CORRELATION => self.external_correlation(rec, out),
            kinds::MEMORY2 => self.memory(rec, out),
            _ => Decoded::Skipped,
        }
    }
}

/// How far ahead of the record being decoded the buffer is prefetched.
const PREFETCH_AHEAD: usize = 1024;

/// Asks the CPU to bring `bytes[at..]` into cache (a hint: any address is fine, nothing is read).
#[inline(always)]
fn prefetch(bytes: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(bytes.as_ptr().wrapping_add(at).cast(), _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes, at);
}

/// What became of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decoded {
    /// Appended as a row.
    Row,
    /// Consumed without a row of its own (a range start waiting for its end, a fence-only sync record).
    Held,
    /// Not decoded: a kind we do not decode, a malformed record, an unpaired range end.
    Skipped,
    /// Left out by the walker's API filter (counted as filtered, not dropped).
    Filtered,
}

impl RecordWalker for Walker {
    fn walk(&mut self, bytes: &[u8], out: &mut Batch, names: &mut Interner) -> WalkStats {
        let out = &mut Sinks::new(out);
        self.kernel_names.next_walk();
        if let Some(layouts) = self.shared.layouts.take(bytes.as_ptr()) {
            return self.walk_user_defined(bytes, &layouts, out, names);
        }
        let mut stats = WalkStats::default();
        // A local copy: the row writers' stores cannot alias it, so it stays in registers and L1.
        let mut fast = self.settled_strides();
        let mut off = 0;
        while off < bytes.len() {
            prefetch(bytes, off + PREFETCH_AHEAD);
            let rest = &bytes[off..];
            let Some(kind) = kind_at(bytes, off) else {
                stats.skipped_unknown += 1;
                self.shared.truncated();
                break;
            };
            let fast_size = fast.get(kind as usize).map_or(0, |s| usize::from(*s));
            let size = if fast_size != 0 {
                Some(fast_size)
            } else {
                let size = self.stride_slow(kind, rest, self.layouts.size_of(kind));
                fast = self.settled_strides();
                size
            };
            let size = match size {
                Some(size) if size <= rest.len() => size,
                known => {
                    // Unknown size, or a record running past the valid bytes: nothing after it can be
                    // located. Count this record and stop. A record of known size running past the end
                    // is the last one (exactly one lost); from one of unknown size on, the bytes may
                    // hold records no one can count.
                    stats.skipped_unknown += 1;
                    if known.is_none() {
                        stats.abandoned_bytes = rest.len() as u64;
                    }
                    self.shared.truncated();
                    self.shared.skipped_kind(kind);
                    break;
                }
            };
            if fast_size != 0
                && (kind == kinds::RUNTIME || kind == kinds::DRIVER)
                && kind_at(bytes, off + size) == Some(kind)
            {
                // A run of API records (two or more), decoded in a loop of its own.
                let (rows, filtered) = self.api_run(kind, size, rest, &mut out.api_calls, names);
                if rows + filtered != 0 {
                    stats.records += rows as u64;
                    stats.filtered += filtered as u64;
                    off += (rows + filtered) * size;
                    continue;
                }
            }
            if fast_size != 0
                && (kind == kinds::CONCURRENT_KERNEL || kind == kinds::KERNEL)
                && kind_at(bytes, off + size) == Some(kind)
            {
                // A run of kernel records, likewise.
                let run = self.kernel_run(kind, size, rest, &mut out.kernels, names);
                if run != 0 {
                    stats.records += run as u64;
                    off += run * size;
                    continue;
                }
            }
            match self.decode(kind, &rest[..size], out, names) {
                Decoded::Row | Decoded::Held => stats.records += 1,
                Decoded::Filtered => stats.filtered += 1,
                Decoded::Skipped => {
                    stats.skipped_unknown += 1;
                    self.shared.skipped_kind(kind);
                }
            }
            off += size;
        }
        stats
    }
}

impl std::fmt::Debug for Walker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Walker")
            .field("layouts", &self.layouts)
            .field("emit_sync", &self.emit_sync)
            .field("probe", &self.probe.is_some())
            .finish_non_exhaustive()
    }
}
