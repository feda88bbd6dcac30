//! How an activity session collects: kinds, buffers, loss policy, flushing.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use super::{ActivityApi, ActivityKinds, ApiFilter, ApiFilterAt, FieldSelection};

/// What to do when every buffer of the pool is in flight and CUPTI asks for one more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferPolicy {
    /// Nothing is dropped while the decode thread makes progress: CUPTI gets an extra buffer allocated
    /// outside the pool (freed once decoded), up to `max_overflow` of them at once, and past that the
    /// thread asking for a buffer (the one producing records) waits until the decode thread gives one
    /// back. Memory stays within the pool's buffers plus `max_overflow` extra ones; the program is slowed
    /// to the decode thread's pace instead. Only a decode thread that returns no buffer for
    /// [`ActivityConfig::stall_timeout`] (a consumer that blocks) makes requests declined, counted as
    /// under [`Lossy`](Self::Lossy), and no request waits again until a buffer comes back: a stalled
    /// consumer never hangs the program.
    Lossless {
        /// Most extra buffers at once.
        max_overflow: usize,
    },
    /// Decline the request: CUPTI drops the records that needed the buffer and counts them
    /// (`cuptiActivityGetNumDroppedRecords`); memory never exceeds the pool's bound.
    Lossy,
}

/// Synchronizes the device(s) for `flush(sync)`'s fence: returns whether some device work was waited
/// for (`Ok(false)`: no CUDA context exists, so no GPU work can be pending).
pub type DeviceSyncFn = Arc<dyn Fn() -> Result<bool, String> + Send + Sync>;

/// How `flush(sync)` makes the device finish its work (which also makes CUPTI write a SYNCHRONIZATION
/// record past the fence point).
#[derive(Clone, Default)]
pub enum DeviceSync {
    /// The CUDA driver of the process, resolved at run time (`libcuda.so.1`, only if the process has
    /// already loaded it: a process that never touched CUDA has no GPU work to wait for). Synchronizes the
    /// calling thread's current context and every active primary context (`cuCtxSynchronize`).
    #[default]
    Driver,
    /// The caller's own synchronization (e.g. `torch.cuda.synchronize()`, `cudaDeviceSynchronize`).
    Custom(DeviceSyncFn),
    /// None: `flush(sync)` only flushes what CUPTI has completed and waits for it to be delivered.
    Skip,
}

impl DeviceSync {
    /// A custom synchronization from a closure.
    pub fn custom(f: impl Fn() -> Result<bool, String> + Send + Sync + 'static) -> Self {
        DeviceSync::Custom(Arc::new(f))
    }
}

impl fmt::Debug for DeviceSync {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeviceSync::Driver => "Driver",
            DeviceSync::Custom(_) => "Custom",
            DeviceSync::Skip => "Skip",
        })
    }
}

/// Turns a raw kernel name into the name delivered (e.g. demangles it; CUPTI reports mangled names);
/// `None` keeps the raw name. Called once per distinct name, on the decode thread.
#[derive(Clone)]
pub struct KernelNameTransform(pub Arc<NameFn>);

/// The function inside a [`KernelNameTransform`].
pub type NameFn = dyn Fn(&[u8]) -> Option<String> + Send + Sync;

impl KernelNameTransform {
    /// A transform from a closure.
    pub fn new(f: impl Fn(&[u8]) -> Option<String> + Send + Sync + 'static) -> Self {
        KernelNameTransform(Arc::new(f))
    }
}

impl fmt::Debug for KernelNameTransform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("KernelNameTransform")
    }
}

/// An activity session's settings. Build with struct update syntax:
/// `ActivityConfig { kinds, buffer_size: 8 << 20, ..Default::default() }`.
#[derive(Clone, Debug)]
pub struct ActivityConfig {
    /// Which records to collect (default: [`ActivityKinds::timeline`]).
    pub kinds: ActivityKinds,
    /// Which runtime and driver calls of the RUNTIME and DRIVER kinds get records (default
    /// [`ApiFilter::all`]: every call; [`ApiFilter::timeline`] records what PyTorch's profiler shows,
    /// at a fraction of CUPTI's cost on framework code). Where it applies is
    /// [`api_filter_at`](Self::api_filter_at).
    pub api_filter: ApiFilter,
    /// Where [`api_filter`](Self::api_filter) applies (default [`ApiFilterAt::Decode`], the cheaper per call on the H200). Inside CUPTI: a
    /// call filtered out is never written, so it is neither delivered nor counted; a library without
    /// `cuptiActivityEnableRuntimeApi` / `cuptiActivityEnableDriverApi` (older than 12.5) makes
    /// [`start`](super::ActivitySession::start) fail with [`Error::MissingSymbol`](crate::Error) for any
    /// filter but `all`. While decoding ([`ApiFilterAt::Decode`], Kineto's way): CUPTI records nearly
    /// every call, and each call filtered out is counted in `Counts::records_filtered`.
    pub api_filter_at: ApiFilterAt,
    /// Which activity API the session uses (default [`ActivityApi::Auto`]: the V2 API with user-defined
    /// records on CUPTI 13.3 and later, which lets other tools trace the process too).
    pub api: ActivityApi,
    /// The fields CUPTI writes in user-defined records (default [`FieldSelection::rows`]: every field the
    /// decoder reads); ignored with fixed layouts, which hold every field. Consumers can add theirs with
    /// [`ActivitySession::select_fields`](super::ActivitySession::select_fields) before the session starts.
    pub fields: FieldSelection,
    /// Bytes per buffer handed to CUPTI (default 4 MiB; CUPTI's guidance is 1-10 MB). At least 512 (a
    /// kernel record is 216 bytes) and at most 1 GiB: `ActivitySession::new` refuses others.
    pub buffer_size: usize,
    /// Most pool buffers in existence at once: held by CUPTI or waiting to be decoded (default 16).
    pub max_buffers: usize,
    /// What happens when they are all in flight (default lossless with up to 64 extra buffers).
    pub policy: BufferPolicy,
    /// Under [`BufferPolicy::Lossless`]: how long a buffer request waits with no buffer coming back from
    /// the decode thread before it is declined (default 5 s; `Duration::ZERO`: never wait, so a backlog
    /// past the overflow buffers drops records, counted).
    pub stall_timeout: Duration,
    /// Flush CUPTI's completed buffers (never forced) on a background thread at this period, and deliver
    /// decoded rows to consumers at least that often (default `None`: the caller flushes, and CUPTI hands
    /// over buffers as they fill).
    pub flush_period: Option<Duration>,
    /// Deliver decoded rows to consumers once this many are waiting (default 65536).
    pub batch_rows: usize,
    /// Also deliver a partial batch once its oldest row waited this long (default `None`).
    pub batch_interval: Option<Duration>,
    /// How `flush(sync)` synchronizes the device.
    pub device_sync: DeviceSync,
    /// How long `flush(sync)` waits for its fence record before giving up (default 10 s).
    pub fence_timeout: Duration,
    /// Applied to kernel names before they are interned (default `None`: names as CUPTI reports them).
    pub kernel_names: Option<KernelNameTransform>,
    /// API records carry the kernel's thread id (`gettid`, as PyTorch's profiler records them) instead of
    /// CUPTI's default `pthread_self` (default true; `cuptiSetThreadIdType`, process-wide).
    pub system_thread_ids: bool,
}

impl Default for ActivityConfig {
    fn default() -> Self {
        ActivityConfig {
            kinds: ActivityKinds::timeline(),
            api_filter: ApiFilter::all(),
            api_filter_at: ApiFilterAt::Decode,
            api: ActivityApi::Auto,
            fields: FieldSelection::rows(),
            buffer_size: 4 << 20,
            max_buffers: 16,
            policy: BufferPolicy::Lossless { max_overflow: 64 },
            stall_timeout: Duration::from_secs(5),
            flush_period: None,
            batch_rows: 64 * 1024,
            batch_interval: None,
            device_sync: DeviceSync::Driver,
            fence_timeout: Duration::from_secs(10),
            kernel_names: None,
            system_thread_ids: true,
        }
    }
}
