//! AMD rocprofiler-sdk through the `rocprofiler` crate: one context and one buffer, created in the
//! SDK's tool window, which an in-process tracer opens with `rocprofiler_force_configure`.
//!
//! | family | buffer tracing kinds |
//! | --- | --- |
//! | kernels | `KERNEL_DISPATCH` |
//! | copies | `MEMORY_COPY` |
//! | API calls | `HIP_RUNTIME_API`, `RCCL_API` |
//! | markers | `MARKER_CORE_API` (roctx) |
//! | sets, collectives, memory, synchronizations, external correlations, counters | none (see [`skip_reason`]) |
//!
//! The SDK runs a tool's setup once per process: the first tracer creates the context and the buffer
//! for its families, and a later tracer in the same process reuses them (it may ask for those
//! families or fewer; the records of all of them reach it).

use std::borrow::Cow;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use accelprof_core::columns::Family;
use accelprof_core::pipeline::ConsumerId;
use accelprof_core::{Counts, FamilySet, Names};
use accelprof_export::trace::{Categories, DeviceProperties, TimeMap};
use rocprofiler::{Buffer, BufferConfig, BufferKind, Configurator, Context, Rocprofiler, Tool};

use super::{unmapped, Backend, Consumer, Stopped, TraceStyle};
use crate::tracer::counts::since;
use crate::tracer::{LibraryInfo, Skipped, TracerConfig, TracerCounts, TracerError, Vendor, VendorAttempt};

const VENDOR: Vendor = Vendor::Rocprofiler;

/// Opens the SDK (the copy the ROCm runtime loaded first), kept for the process.
pub(super) fn locate(library: Option<&Path>) -> Result<&'static Rocprofiler, VendorAttempt> {
    let opened = match library {
        Some(path) => Rocprofiler::open_path(path),
        None => Rocprofiler::global(),
    };
    opened.map_err(|e| {
        let tried = match &e {
            rocprofiler::Error::Load(load) => load.tried().to_vec(),
            _ => Vec::new(),
        };
        VendorAttempt { vendor: VENDOR, reason: e.to_string(), tried }
    })
}

pub(super) fn info(lib: &Rocprofiler) -> LibraryInfo {
    LibraryInfo {
        vendor: VENDOR,
        path: lib.sys().path().to_path_buf(),
        version: lib.version().map(|(a, b, c)| format!("{a}.{b}.{c}")).unwrap_or_default(),
        found: lib.sys().origin().to_string(),
    }
}

/// The buffer tracing kinds of each family.
fn kinds(family: Family) -> &'static [BufferKind] {
    match family {
        Family::KERNEL => &[BufferKind::KERNEL_DISPATCH],
        Family::MEMCPY => &[BufferKind::MEMORY_COPY],
        Family::API => &[BufferKind::HIP_RUNTIME_API, BufferKind::RCCL_API],
        Family::MARKER => &[BufferKind::MARKER_CORE_API],
        _ => &[],
    }
}

/// Why a family has no kind here.
fn skip_reason(family: Family) -> Option<String> {
    Some(
        match family {
            Family::MEMSET => {
                "rocprofiler-sdk has no memset records (hipMemset runs as a kernel, recorded as one)"
            }
            Family::COLLECTIVE => {
                "rocprofiler-sdk has no collective records: RCCL's calls are API rows (RCCL_API) and its \
                 kernels kernels"
            }
            Family::MEMORY => "the rocprofiler crate does not decode MEMORY_ALLOCATION records yet",
            Family::COUNTER => {
                "counters are chosen per kernel dispatch: use the rocprofiler crate's dispatch counting"
            }
            _ => return None,
        }
        .into(),
    )
}

/// What the tool's setup made: the tracer's context and buffer, for the life of the process.
struct Setup {
    context: Context,
    buffer: Buffer,
    kinds: Vec<BufferKind>,
}

/// The kinds the next setup configures (set just before `force_configure`).
static REQUEST: Mutex<Option<Vec<BufferKind>>> = Mutex::new(None);
/// What the setup made.
static SETUP: Mutex<Option<Setup>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The tracer as a rocprofiler tool: its setup runs in the SDK's tool window.
struct TracerTool;

impl Tool for TracerTool {
    const NAME: &'static str = "accel-profiling tracer";

    fn setup(cfg: &mut Configurator<'_>) -> rocprofiler::Result<Self> {
        let kinds = lock(&REQUEST).take().unwrap_or_default();
        let context = cfg.create_context()?;
        let buffer = cfg.create_buffer(&context, BufferConfig::default())?;
        for kind in &kinds {
            cfg.buffer_tracing(&context, *kind, &[], &buffer)?;
        }
        *lock(&SETUP) = Some(Setup { context, buffer, kinds });
        Ok(TracerTool)
    }
}

struct RocprofilerBackend {
    info: LibraryInfo,
    lib: &'static Rocprofiler,
    context: Context,
    buffer: Buffer,
    families: FamilySet,
    skipped: Vec<Skipped>,
    /// The buffer's counts when this tracer began (an earlier tracer of the process used it).
    baseline: Counts,
    consumers: Mutex<Vec<ConsumerId>>,
    time_map: TimeMap,
    started: bool,
}

pub(super) fn build(
    lib: &'static Rocprofiler,
    config: &TracerConfig,
) -> Result<Box<dyn Backend>, TracerError> {
    let listed =
        lib.buffer_kinds().map_err(|e| TracerError::vendor(VENDOR, "listing the buffer tracing kinds", e))?;
    let mut wanted = Vec::new();
    let mut mapped = FamilySet::empty();
    let mut skipped = unmapped(config.families, families_with_kinds(), skip_reason);
    for family in config.families.iter_families() {
        for kind in kinds(family) {
            if listed.contains(kind) {
                wanted.push(*kind);
                mapped |= family.set();
            } else {
                skipped.push(Skipped {
                    family,
                    kind: Some(kind.name().unwrap_or("?").to_string()),
                    reason: "this rocprofiler-sdk does not list the kind".into(),
                });
            }
        }
    }
    let mut setup = lock(&SETUP);
    if setup.is_none() {
        drop(setup);
        *lock(&REQUEST) = Some(wanted.clone());
        let forced = rocprofiler::force_configure::<TracerTool>(lib);
        lock(&REQUEST).take();
        setup = lock(&SETUP);
        if let Err(e) = forced {
            if setup.is_none() {
                return Err(TracerError::vendor(
                    VENDOR,
                    "configuring the tracer as a tool (rocprofiler_force_configure; with an SDK older than \
                     late start, create the tracer before the program's first HIP call)",
                    e,
                ));
            }
        }
    }
    let Some(s) = setup.as_ref() else {
        return Err(TracerError::Config(format!("{VENDOR}: the SDK did not run the tracer's setup")));
    };
    if let Some(missing) = wanted.iter().find(|k| !s.kinds.contains(k)) {
        return Err(TracerError::Config(format!(
            "{VENDOR} configures a tool once per process, and this process's tracer was set up without {}: \
             ask for the families of the first tracer (or fewer), or trace in another process",
            missing.name().unwrap_or("that kind")
        )));
    }
    // Every family the setup traces reaches this tracer.
    let families = s.kinds.iter().fold(FamilySet::empty(), |set, k| set | family_of(*k)) | mapped;
    let (context, buffer) = (s.context, s.buffer.clone());
    drop(setup);
    let vendor_now =
        lib.timestamp().map_err(|e| TracerError::vendor(VENDOR, "reading the SDK's clock", e))?;
    let time_map = TimeMap::from_pair(vendor_now, crate::tracer::unix_now_ns());
    Ok(Box::new(RocprofilerBackend {
        info: info(lib),
        lib,
        context,
        baseline: buffer.counts().pipeline,
        buffer,
        families,
        skipped,
        consumers: Mutex::new(Vec::new()),
        time_map,
        started: false,
    }))
}

fn families_with_kinds() -> FamilySet {
    Family::ALL.iter().filter(|f| !kinds(**f).is_empty()).fold(FamilySet::empty(), |set, f| set | f.set())
}

fn family_of(kind: BufferKind) -> FamilySet {
    Family::ALL.iter().find(|f| kinds(**f).contains(&kind)).map_or(FamilySet::empty(), |f| f.set())
}

impl Backend for RocprofilerBackend {
    fn library(&self) -> &LibraryInfo {
        &self.info
    }

    fn families(&self) -> FamilySet {
        self.families
    }

    fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    fn subscribe(&self, families: FamilySet, consumer: Consumer) -> ConsumerId {
        let id = self.buffer.subscribe(families, consumer);
        lock(&self.consumers).push(id);
        id
    }

    fn unsubscribe(&self, id: ConsumerId) -> bool {
        lock(&self.consumers).retain(|c| *c != id);
        self.buffer.unsubscribe(id)
    }

    fn names(&self) -> Names {
        self.buffer.names()
    }

    fn time_map(&self) -> TimeMap {
        self.time_map
    }

    fn trace_style(&self) -> TraceStyle {
        let devices = self
            .lib
            .agents()
            .unwrap_or_default()
            .into_iter()
            .filter(|a| a.is_gpu())
            .map(|a| DeviceProperties {
                id: a.type_index.max(0) as u32,
                name: if a.product_name.is_empty() { a.name.clone() } else { a.product_name.clone() },
                num_sms: Some(a.cu_count),
                warp_size: Some(a.wave_front_size),
                extra: vec![("gcnArchName".to_owned(), a.name.into())],
                ..DeviceProperties::default()
            })
            .collect();
        TraceStyle {
            // Kineto keeps `cuda_runtime` for HIP calls on AMD.
            categories: Categories::default(),
            device_label: "GPU",
            comm_backend: "nccl",
            metadata: vec![("rocprofiler_sdk_version".to_owned(), self.info.version.clone().into())],
            devices,
        }
    }

    fn api_domain_name(&self, domain: u32) -> Option<Cow<'static, str>> {
        BufferKind(domain).name().map(|n| Cow::Owned(n.to_ascii_lowercase()))
    }

    fn start(&mut self) -> Result<(), TracerError> {
        if !self.started {
            self.context.start().map_err(|e| TracerError::vendor(VENDOR, "starting the context", e))?;
            self.started = true;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), TracerError> {
        self.buffer.flush().map(drop).map_err(|e| TracerError::vendor(VENDOR, "flushing the buffer", e))
    }

    fn counts(&self) -> TracerCounts {
        TracerCounts {
            vendor: VENDOR,
            pipeline: since(self.buffer.counts().pipeline, self.baseline),
            vendor_extras: vec![("sdk_drop_count", self.buffer.sdk_drop_count())],
            other_client: Default::default(),
        }
    }

    fn stop(self: Box<Self>) -> Stopped {
        let mut errors = Vec::new();
        if self.started {
            if let Err(e) = self.context.stop() {
                errors.push(format!("stopping the context: {e}"));
            }
        }
        if let Err(e) = self.buffer.flush() {
            errors.push(format!("flushing the buffer: {e}"));
        }
        let counts = self.counts();
        // The buffer lives on with the process: later deliveries (the SDK's own finalization) must
        // not reach this tracer's consumers.
        for id in std::mem::take(&mut *lock(&self.consumers)) {
            self.buffer.unsubscribe(id);
        }
        Stopped { counts, error: (!errors.is_empty()).then(|| format!("{VENDOR}: {}", errors.join("; "))) }
    }
}
