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
use accelprof_export::trace::{DeviceProperties, TimeMap};
use rocprofiler::{
    Buffer, BufferConfig, BufferKind, CallbackDomain, Configurator, Context, Rocprofiler, Tool,
};

use super::{range_unsupported, unmapped, Backend, Consumer, Flusher, RangeFn, Stopped, TraceStyle};
use crate::tracer::counts::since;
use crate::tracer::window::Switch;
use crate::tracer::CaptureRange;
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
        version: lib.version().map(|v| v.to_string()).unwrap_or_default(),
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
    /// A context of its own whose callback tracing of MARKER_CONTROL_API sees the program's
    /// `roctxProfilerPause`/`Resume` (started only while a tracer follows them: it must see them
    /// while the tracer's context is stopped); or why there is none.
    control: Result<Context, String>,
}

/// What a roctx capture range calls (the tracer that follows it).
static RANGE: Mutex<Option<std::sync::Arc<RangeFn>>> = Mutex::new(None);

/// The MARKER_CONTROL_API callback (on the program's thread): `roctxProfilerResume` resumes the
/// following tracer, `roctxProfilerPause` pauses it, at their entry.
fn on_marker_control(cb: &rocprofiler::CallbackData<'_>) {
    if !cb.is_enter() {
        return;
    }
    let on = match cb.function_name() {
        Some("roctxProfilerResume") => true,
        Some("roctxProfilerPause") => false,
        _ => return,
    };
    let range = lock(&RANGE).clone();
    if let Some(range) = range {
        range(on);
    }
}

/// The kinds and the buffer the next setup configures (set just before `force_configure`).
static REQUEST: Mutex<Option<(Vec<BufferKind>, BufferConfig)>> = Mutex::new(None);

/// The buffer `config` asks for: its size (bounded to what the SDK takes) and pooled copies in
/// flight, and `Lossy` as the SDK's discarding policy (counted). Only the first tracer's setup of a
/// process makes the buffer.
fn buffer_config(config: &TracerConfig) -> BufferConfig {
    let mut b = BufferConfig::default();
    if let Some(size) = config.buffer_size {
        b.size = size.clamp(rocprofiler::MIN_BUFFER_SIZE, rocprofiler::MAX_BUFFER_SIZE);
        b.watermark = b.size - b.size / 8;
    }
    if let Some(max) = config.max_buffers {
        b.max_buffers = max;
    }
    if config.policy == crate::tracer::BufferPolicy::Lossy {
        b.policy = rocprofiler::BufferPolicy::Discard;
    }
    b
}
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
        let (kinds, buffer_config) = lock(&REQUEST).take().unwrap_or_default();
        *lock(&SETUP) = Some(make_setup(cfg, kinds, buffer_config)?);
        Ok(TracerTool)
    }
}

/// The tracer's context and buffer, tracing `kinds`, made in an open configure window.
fn make_setup(
    cfg: &mut Configurator<'_>,
    kinds: Vec<BufferKind>,
    buffer_config: BufferConfig,
) -> rocprofiler::Result<Setup> {
    let context = cfg.create_context()?;
    let buffer = cfg.create_buffer(&context, buffer_config)?;
    for kind in &kinds {
        cfg.buffer_tracing(&context, *kind, &[], &buffer)?;
    }
    // The SDK configures a tool once per process, so the observer of a capture range is set up
    // whether or not this tracer asks for one; it costs nothing until its context starts.
    let control = cfg.create_context().and_then(|control| {
        cfg.callback_tracing(&control, CallbackDomain::MARKER_CONTROL_API, &[], on_marker_control)?;
        Ok(control)
    });
    let control = control.map_err(|e| format!("the tool's setup could not trace MARKER_CONTROL_API: {e}"));
    Ok(Setup { context, buffer, kinds, control })
}

/// The kinds of `families` that `listed` has (what a setup configures).
fn wanted_kinds(families: FamilySet, listed: &[BufferKind]) -> Vec<BufferKind> {
    families.iter_families().flat_map(|f| kinds(f).iter().copied()).filter(|k| listed.contains(k)).collect()
}

/// Sets the tracer up inside a configure window the SDK opened for a tool *library* (the
/// `rocprofiler_configure` it found through `ROCP_TOOL_LIBRARIES` or the exported symbol; call it
/// from that tool's [`Tool::setup`]): the context and buffer for `families` are made there, and a
/// later [`Tracer::new`](crate::Tracer::new) with [`Vendor::Rocprofiler`] in this process uses them
/// instead of forcing a configure of its own (which from inside the window would deadlock). The
/// tracer may then be created and started in the same setup. A second call, or one after a tracer
/// of this process set itself up, changes nothing.
pub fn setup_in_configure_window(cfg: &mut Configurator<'_>, families: FamilySet) -> rocprofiler::Result<()> {
    if lock(&SETUP).is_some() {
        return Ok(());
    }
    let listed = cfg.rocprofiler().buffer_kinds()?;
    let made = make_setup(cfg, wanted_kinds(families, &listed), BufferConfig::default())?;
    lock(&SETUP).get_or_insert(made);
    Ok(())
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
    /// The context whose callbacks see roctxProfilerPause/Resume, or why there is none.
    control: Result<Context, String>,
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
        *lock(&REQUEST) = Some((wanted.clone(), buffer_config(config)));
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
    let (context, buffer, control) = (s.context, s.buffer.clone(), s.control.clone());
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
        control,
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

    fn flusher(&self) -> Flusher {
        let buffer = self.buffer.clone();
        Box::new(move || {
            buffer.flush().map(drop).map_err(|e| TracerError::vendor(VENDOR, "flushing the buffer", e))
        })
    }

    /// rocprofiler-sdk has no period: it hands a buffer over at its watermark (or when flushed).
    fn periodic_flusher(&self) -> Option<Flusher> {
        Some(self.flusher())
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

    fn switch(&self) -> Box<dyn Switch> {
        Box::new(ContextSwitch(self.context))
    }

    fn follow_capture_range(
        &self,
        range: CaptureRange,
        on: RangeFn,
    ) -> Result<Option<Box<dyn Send>>, TracerError> {
        match range {
            CaptureRange::None => Ok(None),
            CaptureRange::ProfilerApi => {
                let control = self.control.clone().map_err(|why| range_unsupported(VENDOR, range, &why))?;
                let mut following = lock(&RANGE);
                if following.is_some() {
                    return Err(TracerError::Config(format!(
                        "{VENDOR}: another tracer of this process follows roctxProfilerPause/Resume"
                    )));
                }
                control.start().map_err(|e| {
                    TracerError::vendor(VENDOR, "starting the context that sees roctxProfilerPause/Resume", e)
                })?;
                *following = Some(std::sync::Arc::new(on));
                Ok(Some(Box::new(ControlGuard(control))))
            }
        }
    }
}

/// While a tracer follows roctx's capture range: the control context runs and `RANGE` calls it.
struct ControlGuard(Context);

impl Drop for ControlGuard {
    fn drop(&mut self) {
        let _ = self.0.stop();
        lock(&RANGE).take();
    }
}

/// Pauses by stopping the tracer's context (`rocprofiler_stop_context`), resumes by starting it.
struct ContextSwitch(Context);

impl Switch for ContextSwitch {
    fn pause(&self) -> Result<(), String> {
        self.0.stop().map_err(|e| e.to_string())
    }

    fn resume(&self) -> Result<(), String> {
        self.0.start().map_err(|e| e.to_string())
    }
}
