//! [`TracerConfig`]: what a tracer collects and where it goes.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use accelprof_core::FamilySet;

use super::{Distributed, Format, Output, Vendor};

/// Waits until the device finished the work issued so far: `Ok(true)` when some work was waited
/// for, `Ok(false)` when none can exist (no device context).
pub type SynchronizeFn = dyn Fn() -> Result<bool, String> + Send + Sync;

/// How a tracer makes the device finish its work before a flush proves that everything issued
/// before it was delivered (CUPTI's fence; MSPTI's and rocprofiler's flushes need none).
#[derive(Clone)]
pub struct Synchronize(pub Arc<SynchronizeFn>);

impl Synchronize {
    /// From a closure (`torch.cuda.synchronize()` through your bindings, a mock's controls, ...).
    pub fn new(f: impl Fn() -> Result<bool, String> + Send + Sync + 'static) -> Synchronize {
        Synchronize(Arc::new(f))
    }
}

impl fmt::Debug for Synchronize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Synchronize(..)")
    }
}

/// A tracer's settings. Build with struct update syntax:
/// `TracerConfig { vendor: Vendor::Cupti, outputs: vec!["trace.json".into()], ..Default::default() }`.
#[derive(Clone, Debug)]
pub struct TracerConfig {
    /// Which vendor (default [`Vendor::Auto`]: whichever the machine has).
    pub vendor: Vendor,
    /// This exact library file instead of the vendor's search (needs a vendor other than `Auto`).
    pub library: Option<PathBuf>,
    /// The record families to collect (default [`TracerConfig::COMMON`]), each mapped to the
    /// vendor's kinds (see [`crate::tracer`]); a family the vendor has no record for is reported in
    /// [`Tracer::skipped`](super::Tracer::skipped).
    pub families: FamilySet,
    /// Where the records go (default none: subscribers, the summary and the counts only). Each path
    /// a file of its own: one given twice is refused ([`TracerError::Config`](super::TracerError::Config)).
    pub outputs: Vec<Output>,
    /// The formats a file output may have, tried in order (default [`Format::built_in`]: Chrome JSON,
    /// and with the `columns` feature Parquet and Perfetto's protobuf).
    pub formats: Vec<Format>,
    /// This process's rank (default `None`: from `RANK`, `WORLD_SIZE`, `LOCAL_RANK`).
    pub distributed: Option<Distributed>,
    /// Kernel names as PyTorch's profiler shows them (demangled by the C++ runtime's
    /// `__cxa_demangle`) where the vendor reports them mangled (CUPTI). Default true.
    pub demangle: bool,
    /// How the device is synchronized for a flush (default `None`: the vendor's own way; CUPTI
    /// synchronizes the process's CUDA contexts through the driver).
    pub synchronize: Option<Synchronize>,
    /// Hand the vendor's completed buffers over at least this often, so that files on disk are at
    /// most about this far behind (default 1 s). CUPTI's own period does it; for rocprofiler-sdk (no
    /// period) and MSPTI (whose period hands back only full buffers) a thread of the tracer flushes
    /// every period. `None`: only on flush and when buffers fill.
    pub flush_period: Option<Duration>,
    /// The trace's `traceName` (default `accel-profiling`).
    pub trace_name: Option<String>,
    /// Kernels listed in a trace file's `traceSummary` and the printed summary (default 20).
    pub summary_top: usize,
    /// Collection starts this long after [`Tracer::start`](super::Tracer::start) (default 0).
    pub delay: Duration,
    /// Collection stops this long after it started; the outputs are then finished (the report is
    /// kept for [`Tracer::stop`](super::Tracer::stop)) and the program runs on. Default `None`.
    pub duration: Option<Duration>,
    /// A signal that pauses and resumes collection (`libc::SIGUSR2`, ...; default `None`): SIGUSR1,
    /// SIGUSR2, SIGWINCH, SIGURG, SIGHUP or a real-time signal (another is
    /// [`TracerError::Config`](super::TracerError::Config)). Its handler is installed only when asked,
    /// and only while the signal's disposition is the default; once installed, it stays the process's
    /// toggle signal: a later tracer asking for another one (which would kill the program when sent,
    /// having no handler) is [`TracerError::Config`](super::TracerError::Config) naming both signals, as
    /// is one asking for a signal an earlier tracer of the process ends the trace on.
    pub toggle_signal: Option<i32>,
    /// Collect only between the program's profiler start and stop calls (default
    /// [`CaptureRange::None`]); a vendor that cannot observe them is [`TracerError::Unsupported`](super::TracerError::Unsupported).
    pub capture_range: CaptureRange,
    /// SIGINT, SIGTERM or SIGHUP that would kill the program first finish every output (and the
    /// summary), then the process dies of the same signal (default false; true from the
    /// environment, [`from_env`](Self::from_env)). A program that handles a signal itself keeps it.
    pub handle_signals: bool,
    /// Also write the report as JSON ([`TracerReport::to_json`](super::TracerReport::to_json)) here
    /// when the tracer ends (`%p`, `%r` as for outputs). Default `None`.
    pub summary_json: Option<PathBuf>,
    /// Print the report (the kernel table of `summary_top` rows) to stderr when the outputs are
    /// finished: at [`Tracer::stop`](super::Tracer::stop) or drop, at the end of `duration`, on a
    /// terminating signal. Default false; true from the environment.
    pub print_summary: bool,
    /// The launcher's private report directory ([`crate::launcher`]): the tracer claims its outputs
    /// there (a name another process of the run took becomes `name.<pid>.ext`) and tells the launcher
    /// where they are and how they ended. Default `None`.
    pub launcher_report: Option<PathBuf>,
    /// Bytes per vendor buffer (default `None`: the vendor crate's; less than the pool's smallest,
    /// `BufferPool::MIN_BUFFER_SIZE`, is refused by the vendor's setup). rocprofiler-sdk: the SDK
    /// buffer's size, bounded to what it takes (4 KiB at least; [`from_env`](Self::from_env) says so
    /// when it bounds it), made by the first tracer of the process only.
    pub buffer_size: Option<usize>,
    /// Most pool buffers in flight (default `None`: the vendor crate's; rocprofiler-sdk: pooled
    /// copy buffers, first tracer of the process only).
    pub max_buffers: Option<usize>,
    /// When every buffer is in flight (CUPTI; rocprofiler-sdk's full buffer: `Lossy` discards,
    /// counted; MSPTI has one behaviour, see [`BufferPolicy`]).
    pub policy: BufferPolicy,
    /// CUPTI only: which runtime and driver calls are recorded, in the `cupti` crate's
    /// `ApiFilter::parse` syntax (`timeline`, `all`, `none`, `+name`, `-name`). Default `None`: a
    /// timeline's calls where the library can filter.
    pub cuda_api_calls: Option<String>,
    /// CUPTI only: apply [`cuda_api_calls`](Self::cuda_api_calls) while decoding (the `cupti` crate's
    /// `ApiFilterAt::Decode`, Kineto's way: CUPTI records every call but four, the decoder drops the
    /// rest, counted in `Counts::records_filtered`) rather than inside CUPTI (default `true`: the cheaper
    /// per call on the H200, see BENCHMARKS.md).
    pub cuda_api_filter_in_decoder: bool,
}

/// When collection is on, beyond [`Tracer::pause`](super::Tracer::pause) and
/// [`resume`](super::Tracer::resume).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum CaptureRange {
    /// Always (after the delay).
    #[default]
    None,
    /// Between the program's profiler start and stop calls, collection paused until the first:
    /// `cudaProfilerStart` / `cuProfilerStart` resume, `cudaProfilerStop` / `cuProfilerStop` pause
    /// (CUPTI); `roctxProfilerResume` resumes, `roctxProfilerPause` pauses (rocprofiler-sdk). MSPTI
    /// has no such calls, and MSTX ranges are not turned into a capture window yet:
    /// [`TracerError::Unsupported`](super::TracerError::Unsupported).
    ProfilerApi,
}

impl CaptureRange {
    /// `none`, `profiler-api`.
    pub fn name(self) -> &'static str {
        match self {
            CaptureRange::None => "none",
            CaptureRange::ProfilerApi => "profiler-api",
        }
    }
}

/// What happens when every buffer is in flight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum BufferPolicy {
    /// CUPTI: extra buffers beyond the pool while decoding lags, then the program's thread waits for
    /// the decoding (records dropped, counted, only if no buffer is decoded for a while).
    #[default]
    Lossless,
    /// CUPTI: dropped, counted, as soon as the buffers are out; rocprofiler-sdk: a full SDK buffer
    /// discards (counted). MSPTI always behaves so at its pool's bound (counted).
    Lossy,
}

impl TracerConfig {
    /// The families every vendor has in some form: kernels, copies, sets, API calls, markers and
    /// collectives.
    pub const COMMON: FamilySet = FamilySet::KERNEL
        .union(FamilySet::MEMCPY)
        .union(FamilySet::MEMSET)
        .union(FamilySet::API)
        .union(FamilySet::MARKER)
        .union(FamilySet::COLLECTIVE);
}

impl Default for TracerConfig {
    fn default() -> Self {
        TracerConfig {
            vendor: Vendor::Auto,
            library: None,
            families: TracerConfig::COMMON,
            outputs: Vec::new(),
            formats: Format::built_in(),
            distributed: None,
            demangle: true,
            synchronize: None,
            flush_period: Some(Duration::from_secs(1)),
            trace_name: None,
            summary_top: 20,
            delay: Duration::ZERO,
            duration: None,
            toggle_signal: None,
            capture_range: CaptureRange::None,
            handle_signals: false,
            summary_json: None,
            print_summary: false,
            launcher_report: None,
            buffer_size: None,
            max_buffers: None,
            policy: BufferPolicy::Lossless,
            cuda_api_calls: None,
            cuda_api_filter_in_decoder: true,
        }
    }
}
