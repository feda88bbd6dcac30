//! Buffers: the SDK fills them and hands their records to a callback on its own thread. The
//! callback only copies the records into a pooled buffer and hands it to the decode thread
//! (accelprof-core's pipeline), which turns them into column batches for the subscribed consumers.
//! Each buffer is a shared core [`Session`] over rocprofiler's [`Backend`]: its flush, its ledger, its
//! end.
//!
//! Nothing is lost silently: the SDK's drop count (cumulative, DISCARD policy) reaches the
//! pipeline's counts as vendor-dropped records, and so does any record we could not copy.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use accelprof_core::activity::{ActivityError, FlushReport, Session, SessionConfig};
use accelprof_core::callback::trampoline::guard;
use accelprof_core::pipeline::ConsumerId;
use accelprof_core::{ActivityBuffer, Batch, FamilySet, Handoff, Names, PipelineConfig};
use rocprofiler_sys as sys;

use super::backend::{Backend, DropTallies};
use super::ActivityCounts;
use crate::error::{check, Error, Result};
use crate::ids::{BufferKind, BufferPolicy};
use crate::library::Rocprofiler;
use crate::tool::Context;

/// How a buffer is set up.
#[derive(Clone, Debug)]
pub struct BufferConfig {
    /// The SDK buffer's size in bytes, [`MIN_BUFFER_SIZE`] to [`MAX_BUFFER_SIZE`].
    pub size: usize,
    /// Fill level (bytes) at which the SDK delivers on its own.
    pub watermark: usize,
    /// What a full buffer does.
    pub policy: BufferPolicy,
    /// Size of each pooled copy buffer (a delivery larger than this spans several).
    pub copy_buffer_size: usize,
    /// Pooled copy buffers in flight at most; when all are in use, records are counted dropped.
    pub max_buffers: usize,
    /// Rows per batch handed to consumers (also on every flush).
    pub batch_rows: usize,
}

impl Default for BufferConfig {
    fn default() -> Self {
        BufferConfig {
            size: 1 << 20,
            watermark: (1 << 20) - (1 << 17),
            policy: BufferPolicy::Lossless,
            copy_buffer_size: 1 << 18,
            max_buffers: 64,
            batch_rows: 4096,
        }
    }
}

/// A thread of the SDK's on which buffer callbacks run
/// ([`Configurator::create_callback_thread`](crate::Configurator::create_callback_thread)).
/// Every buffer starts on [`CallbackThread::INTERNAL`]; handles come only from the SDK.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CallbackThread(pub(crate) u64);

impl CallbackThread {
    /// The SDK's internal thread (handle 0), where buffers are delivered by default.
    pub const INTERNAL: CallbackThread = CallbackThread(0);

    /// The SDK's handle.
    pub fn handle(&self) -> u64 {
        self.0
    }
}

/// The smallest SDK buffer we create: the SDK silently loses a record larger than its buffer.
pub const MIN_BUFFER_SIZE: usize = 4096;

/// The largest SDK buffer we create. The SDK does not bound the size: it maps the buffer (two
/// of them under LOSSLESS), keeps a 16-byte header slot per byte of it, and aborts the process
/// when the mapping or the allocation fails (a size near `usize::MAX` also wraps its page
/// rounding).
pub const MAX_BUFFER_SIZE: usize = 1 << 26;

/// What the SDK's callback needs, and the buffer's session; leaked (the SDK has no way to destroy a
/// buffer's callback).
pub(crate) struct BufferShared {
    pub(crate) session: Session<Backend>,
    handoff: Handoff,
    drops: Arc<DropTallies>,
}

/// A buffer and its decode pipeline. Cheap to clone; valid for the life of the process.
#[derive(Clone)]
pub struct Buffer {
    pub(crate) id: u64,
    pub(crate) shared: &'static BufferShared,
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buffer").field("id", &self.id).finish_non_exhaustive()
    }
}

impl Buffer {
    /// A buffer of `context`; `own`: the context and kinds of the activity session it is made for.
    pub(crate) fn create(
        lib: &'static Rocprofiler,
        context: sys::rocprofiler_context_id_t,
        config: &BufferConfig,
        walker: crate::decode::Walker,
        own: Option<(Context, Vec<BufferKind>)>,
    ) -> Result<Buffer> {
        if !(MIN_BUFFER_SIZE..=MAX_BUFFER_SIZE).contains(&config.size) {
            return Err(Error::InvalidArgument);
        }
        let pool =
            accelprof_core::BufferPool::try_new(config.copy_buffer_size.max(4096), config.max_buffers.max(1))
                .map_err(ActivityError::from)?;
        let drops = Arc::new(DropTallies::default());
        let (own_context, kinds) = match own {
            Some((ctx, kinds)) => (Some(ctx), kinds),
            None => (None, Vec::new()),
        };
        let backend = Backend {
            lib,
            buffer: AtomicU64::new(0),
            context: own_context,
            kinds: kinds.clone(),
            drops: Arc::clone(&drops),
        };
        let session_config = SessionConfig {
            pipeline: PipelineConfig {
                batch_rows: config.batch_rows,
                thread_name: "rocprofiler-decode".into(),
                ..PipelineConfig::default()
            },
            ..SessionConfig::default()
        };
        let session = Session::new(backend, walker, pool, kinds, session_config)?;
        let shared: &'static BufferShared =
            Box::leak(Box::new(BufferShared { handoff: session.handoff().clone(), session, drops }));
        let policy = match config.policy {
            BufferPolicy::Discard => sys::rocprofiler_buffer_policy_t::ROCPROFILER_BUFFER_POLICY_DISCARD,
            BufferPolicy::Lossless => sys::rocprofiler_buffer_policy_t::ROCPROFILER_BUFFER_POLICY_LOSSLESS,
        };
        let mut id = sys::rocprofiler_buffer_id_t { handle: 0 };
        let created = check(
            // SAFETY: the trampoline matches the callback type; `shared` is leaked and so outlives
            // every callback; `id` is a valid out-pointer.
            unsafe {
                lib.sys().rocprofiler_create_buffer(
                    context,
                    config.size,
                    config.watermark.min(config.size),
                    policy,
                    Some(trampoline),
                    shared as *const BufferShared as *mut c_void,
                    &mut id,
                )
            },
            "rocprofiler_create_buffer",
        );
        if let Err(e) = created {
            // No SDK buffer reaches the pipeline: stop its thread (the rest stays leaked, as small).
            shared.session.end();
            return Err(e);
        }
        shared.session.backend().buffer.store(id.handle, Ordering::Release);
        Ok(Buffer { id: id.handle, shared })
    }

    /// The SDK's handle.
    pub fn id(&self) -> u64 {
        self.id
    }

    pub(crate) fn raw(&self) -> sys::rocprofiler_buffer_id_t {
        sys::rocprofiler_buffer_id_t { handle: self.id }
    }

    /// Calls `consumer` with every batch holding rows of `families`, on the decode thread.
    pub fn subscribe<F>(&self, families: FamilySet, consumer: F) -> ConsumerId
    where
        F: FnMut(&Batch, &Names) + Send + 'static,
    {
        self.shared.session.subscribe(families, consumer)
    }

    /// Stops calling a consumer.
    pub fn unsubscribe(&self, id: ConsumerId) -> bool {
        self.shared.session.unsubscribe(id)
    }

    /// Makes the SDK deliver what the buffer holds (`rocprofiler_flush_buffer`) and waits until every
    /// record delivered so far has been decoded and handed to the consumers. Inside a consumer:
    /// [`ActivityError::OnDecodeThread`] (the wait would be for the thread running the consumer).
    #[doc(alias = "rocprofiler_flush_buffer")]
    pub fn flush(&self) -> Result<FlushReport> {
        self.shared.session.flush()
    }

    /// Waits until every record the SDK has handed over so far has been decoded and given to
    /// the consumers (without asking the SDK to flush). Inside a consumer:
    /// [`ActivityError::OnDecodeThread`].
    pub fn sync(&self) -> Result<()> {
        let pipeline = self.shared.session.pipeline();
        if pipeline.is_decode_thread() {
            return Err(ActivityError::OnDecodeThread { call: "Buffer::sync" }.into());
        }
        pipeline.sync().map_err(|e| ActivityError::from(e).into())
    }

    /// Records produced, delivered and dropped so far (`produced = delivered + dropped` once
    /// flushed), and the SDK's own drop count.
    pub fn counts(&self) -> ActivityCounts {
        self.shared.session.counts()
    }

    /// The names (kernels, operations, counters) the batches' name ids refer to.
    pub fn names(&self) -> Names {
        self.shared.session.names()
    }

    /// Records the SDK reported dropped so far (its cumulative drop count).
    pub fn sdk_drop_count(&self) -> u64 {
        self.shared.drops.last_drop_count.load(Ordering::Acquire)
    }

    /// Whether the buffer's session ended ([`ActivitySession::stop`](super::ActivitySession::stop)):
    /// what the SDK delivers into it from then on is counted as discarded.
    pub fn has_ended(&self) -> bool {
        self.shared.session.has_ended()
    }

    pub(crate) fn session(&self) -> &Session<Backend> {
        &self.shared.session
    }
}

/// Frame of one record in a copy buffer: category, kind, payload length, padding; then the
/// payload padded to 8 bytes.
pub(crate) const FRAME_HEADER: usize = 16;

/// Bytes of a record's payload: tracing records and counting headers start with their size;
/// counter values are fixed-size. `None`: unknown layout.
fn payload_len(category: u32, kind: u32, payload: *const u8) -> Option<usize> {
    const TRACING: u32 = sys::rocprofiler_buffer_category_t::ROCPROFILER_BUFFER_CATEGORY_TRACING.0;
    const COUNTERS: u32 = sys::rocprofiler_buffer_category_t::ROCPROFILER_BUFFER_CATEGORY_COUNTERS.0;
    const HEADER: u32 =
        sys::rocprofiler_counter_record_kind_t::ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER.0;
    const VALUE: u32 = sys::rocprofiler_counter_record_kind_t::ROCPROFILER_COUNTER_RECORD_VALUE.0;
    match (category, kind) {
        (COUNTERS, VALUE) => Some(std::mem::size_of::<sys::rocprofiler_counter_record_t>()),
        (TRACING, _) | (COUNTERS, HEADER) => {
            // SAFETY: these records begin with a u64 size field.
            let size = unsafe { (payload as *const u64).read_unaligned() } as usize;
            (8..=64 * 1024).contains(&size).then_some(size)
        }
        _ => None,
    }
}

/// Writes the frame of one record into `out` (`FRAME_HEADER` + the payload padded to 8 bytes).
fn write_frame(out: &mut [u8], category: u32, kind: u32, payload: &[u8]) {
    let len = payload.len();
    out[0..4].copy_from_slice(&category.to_ne_bytes());
    out[4..8].copy_from_slice(&kind.to_ne_bytes());
    out[8..12].copy_from_slice(&(len as u32).to_ne_bytes());
    out[12..16].fill(0);
    out[FRAME_HEADER..FRAME_HEADER + len].copy_from_slice(payload);
    out[FRAME_HEADER + len..].fill(0);
}

/// The frames the buffer callback writes for the SDK's record `headers` (what
/// [`Walker`](crate::decode::Walker) reads), appended to `out`, and how many headers were lost (NULL,
/// a NULL payload, a kind of unknown layout or a size out of bounds). The callback's own path,
/// given to a caller that plays the SDK (a fuzzer, a test of the copy).
///
/// # Safety
/// Each non-NULL header is readable, and its non-NULL payload holds the bytes its record's layout
/// says: a tracing record or counting header as many as the `u64` size it starts with (up to
/// 64 KiB), a counter value `size_of::<rocprofiler_counter_record_t>()`.
pub unsafe fn frame_records(headers: &[*mut sys::rocprofiler_record_header_t], out: &mut Vec<u8>) -> u64 {
    let mut lost = 0;
    for &h in headers {
        if h.is_null() {
            lost += 1;
            continue;
        }
        // SAFETY: a readable header (the caller's contract); the union's struct view covers the hash.
        let (category, kind, payload) = unsafe {
            let h = &*h;
            (
                h.__bindgen_anon_1.__bindgen_anon_1.category,
                h.__bindgen_anon_1.__bindgen_anon_1.kind,
                h.payload as *const u8,
            )
        };
        let Some(len) = (!payload.is_null()).then(|| payload_len(category, kind, payload)).flatten() else {
            lost += 1;
            continue;
        };
        // SAFETY: the payload holds `len` bytes (the caller's contract).
        let src = unsafe { std::slice::from_raw_parts(payload, len) };
        let at = out.len();
        out.resize(at + FRAME_HEADER + len.div_ceil(8) * 8, 0);
        write_frame(&mut out[at..], category, kind, src);
    }
    lost
}

unsafe extern "C" fn trampoline(
    _context: sys::rocprofiler_context_id_t,
    _buffer: sys::rocprofiler_buffer_id_t,
    headers: *mut *mut sys::rocprofiler_record_header_t,
    count: usize,
    data: *mut c_void,
    drop_count: u64,
) {
    if data.is_null() {
        return;
    }
    // SAFETY: `data` is the leaked `BufferShared` registered with this callback.
    let shared = unsafe { &*(data as *const BufferShared) };
    let _ = guard(|| {
        let before = shared.drops.last_drop_count.fetch_max(drop_count, Ordering::AcqRel);
        if drop_count > before {
            shared.handoff.vendor_dropped(drop_count - before);
        }
        if headers.is_null() || count == 0 {
            return;
        }
        // SAFETY: the SDK passes `count` header pointers valid for this call.
        let headers = unsafe { std::slice::from_raw_parts(headers, count) };
        copy_out(shared, headers);
    });
}

/// Copies the records into pooled buffers (the SDK reuses its memory when we return).
fn copy_out(shared: &BufferShared, headers: &[*mut sys::rocprofiler_record_header_t]) {
    let mut current: Option<(ActivityBuffer, usize)> = None;
    let mut lost = 0u64;
    for &h in headers {
        if h.is_null() {
            lost += 1;
            continue;
        }
        // SAFETY: a valid header for this call; the union's struct view covers the hash.
        let (category, kind, payload) = unsafe {
            let h = &*h;
            (
                h.__bindgen_anon_1.__bindgen_anon_1.category,
                h.__bindgen_anon_1.__bindgen_anon_1.kind,
                h.payload as *const u8,
            )
        };
        let Some(len) = (!payload.is_null()).then(|| payload_len(category, kind, payload)).flatten() else {
            lost += 1;
            continue;
        };
        let frame = FRAME_HEADER + len.div_ceil(8) * 8;
        if current.as_ref().is_some_and(|(b, used)| used + frame > b.len()) {
            let (b, used) = current.take().expect("checked");
            shared.handoff.completed(b, used);
        }
        if current.is_none() {
            match shared.handoff.request_buffer() {
                Some(b) if b.len() >= frame => current = Some((b, 0)),
                Some(b) => {
                    shared.handoff.pool().give_back(b);
                    lost += 1;
                    continue;
                }
                None => {
                    lost += 1;
                    continue;
                }
            }
        }
        let (b, used) = current.as_mut().expect("set above");
        // SAFETY: the SDK's payload holds `len` bytes for this call.
        let src = unsafe { std::slice::from_raw_parts(payload, len) };
        write_frame(&mut b.as_mut_bytes()[*used..*used + frame], category, kind, src);
        *used += frame;
    }
    if let Some((b, used)) = current {
        shared.handoff.completed(b, used);
    }
    if lost > 0 {
        shared.drops.copy_failures.fetch_add(lost, Ordering::Relaxed);
        shared.handoff.vendor_dropped(lost);
    }
}
