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
    /// Where the records go (default none: subscribers, the summary and the counts only).
    pub outputs: Vec<Output>,
    /// The formats a file output may have, tried in order (default: [`Format::chrome_json`]).
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
    /// most about this far behind (default 1 s; CUPTI and MSPTI; rocprofiler-sdk delivers at its
    /// buffer's watermark). `None`: only on flush and when buffers fill.
    pub flush_period: Option<Duration>,
    /// The trace's `traceName` (default `accel-profiling`).
    pub trace_name: Option<String>,
    /// Kernels listed in a trace file's `traceSummary` (default 20).
    pub summary_top: usize,
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
            formats: vec![Format::chrome_json()],
            distributed: None,
            demangle: true,
            synchronize: None,
            flush_period: Some(Duration::from_secs(1)),
            trace_name: None,
            summary_top: 20,
        }
    }
}
