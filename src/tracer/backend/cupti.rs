//! NVIDIA CUPTI through the `cupti` crate: one activity session.
//!
//! | family | CUPTI activity kinds |
//! | --- | --- |
//! | kernels | `CONCURRENT_KERNEL` |
//! | copies, sets | `MEMCPY`, `MEMSET` |
//! | API calls | `RUNTIME`, `DRIVER` (the calls PyTorch's profiler shows: [`ApiFilter::timeline`], where the library can filter) |
//! | markers | `MARKER` (NVTX) |
//! | memory, synchronizations, external correlations | `MEMORY2`, `SYNCHRONIZATION`, `EXTERNAL_CORRELATION` |
//! | collectives, counters | none: NCCL kernels are kernels (named `nccl...`) |

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use accelprof_core::columns::Family;
use accelprof_core::pipeline::ConsumerId;
use accelprof_core::{FamilySet, Names};
use accelprof_export::demangle::Demangler;
use accelprof_export::trace::TimeMap;
use cupti::activity::{
    ActivityConfig, ActivityKind, ActivityKinds, ActivitySession, ApiFilter, ApiFilterAt, DeviceSync,
    KernelNameTransform,
};
use cupti::decode::{API_DOMAIN_DRIVER, API_DOMAIN_OVERHEAD, API_DOMAIN_RUNTIME};
use cupti::{CallbackData, Cupti, DriverCbid, RuntimeCbid};

use super::{flusher_of, sole, unmapped, Backend, Consumer, Flusher, RangeFn, Stopped, TraceStyle};
use crate::tracer::window::Switch;
use crate::tracer::{BufferPolicy, CaptureRange};
use crate::tracer::{LibraryInfo, Skipped, TracerConfig, TracerCounts, TracerError, Vendor, VendorAttempt};

const VENDOR: Vendor = Vendor::Cupti;

/// Opens `libcupti` (the process-wide one, or `library`) and checks that CUPTI can reach a GPU
/// driver: a `libcupti` from a Python wheel on a machine without an NVIDIA GPU loads, but refuses to
/// subscribe (`NOT_INITIALIZED` from 12.x, `UNKNOWN` from 13.x).
pub(super) fn locate(library: Option<&Path>) -> Result<&'static Cupti, VendorAttempt> {
    let opened = match library {
        None => Cupti::global(),
        Some(path) => match Cupti::init_global(Some(path)) {
            Ok(global) if global.path() == path => Ok(global),
            // The process-wide one is another file: this one gets a handle of its own, kept for the
            // process (CUPTI is never unloaded).
            Ok(_) => Cupti::open_path(path).map(|c| &*Box::leak(Box::new(c))),
            Err(e) => Err(e),
        },
    };
    let cupti = opened.map_err(|e| attempt(e, None))?;
    if let Err(e) = cupti.subscribe(|_| {}) {
        if e.is_no_driver() {
            return Err(attempt(e, Some(cupti)));
        }
        // Anything else (another tool holds the subscription) says CUPTI reached the driver.
    }
    Ok(cupti)
}

fn attempt(e: cupti::Error, found: Option<&Cupti>) -> VendorAttempt {
    let tried = match &e {
        cupti::Error::Load(load) => load.tried().to_vec(),
        _ => Vec::new(),
    };
    let reason = match found {
        Some(c) => format!(
            "libcupti {} at {} loads, but CUPTI cannot reach a GPU driver: {e}",
            c.api_version(),
            c.path().display()
        ),
        None => e.to_string(),
    };
    VendorAttempt { vendor: VENDOR, reason, tried }
}

pub(super) fn info(cupti: &Cupti) -> LibraryInfo {
    LibraryInfo {
        vendor: VENDOR,
        path: cupti.path().to_path_buf(),
        version: cupti.api_version().to_string(),
        found: cupti.sys().origin().to_string(),
    }
}

/// The CUPTI kinds of `families`, and the families it has no kind for.
fn kinds(families: FamilySet) -> (ActivityKinds, FamilySet) {
    let mut kinds = ActivityKinds::empty();
    let mut mapped = FamilySet::empty();
    for family in families.iter_families() {
        let of: &[ActivityKind] = match family {
            Family::KERNEL => &[ActivityKind::CONCURRENT_KERNEL],
            Family::MEMCPY => &[ActivityKind::MEMCPY],
            Family::MEMSET => &[ActivityKind::MEMSET],
            Family::API => &[ActivityKind::RUNTIME, ActivityKind::DRIVER],
            Family::MARKER => &[ActivityKind::MARKER],
            Family::MEMORY => &[ActivityKind::MEMORY],
            Family::SYNC => &[ActivityKind::SYNCHRONIZATION],
            Family::EXTERNAL_CORRELATION => &[ActivityKind::EXTERNAL_CORRELATION],
            _ => &[],
        };
        for kind in of {
            kinds.insert(*kind);
            mapped |= family.set();
        }
    }
    (kinds, mapped)
}

/// Kernel names as PyTorch's profiler shows them, each distinct raw name demangled once.
fn demangled_names(demangler: Demangler) -> KernelNameTransform {
    let memo: Mutex<HashMap<Box<[u8]>, Option<String>>> = Mutex::new(HashMap::new());
    KernelNameTransform::new(move |raw: &[u8]| {
        let mut memo = memo.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = memo.get(raw) {
            return known.clone();
        }
        let shown = demangler.demangle(raw);
        memo.insert(raw.into(), shown.clone());
        shown
    })
}

struct CuptiBackend {
    info: LibraryInfo,
    /// Shared with the flusher (which holds it only while flushing).
    session: Arc<ActivitySession<'static>>,
    families: FamilySet,
    skipped: Vec<Skipped>,
    demangler: Option<&'static str>,
    /// Which API calls are recorded (`timeline`, the asked filter, or `all` where CUPTI cannot filter).
    api_calls: String,
    /// Where that filter applies: `cupti` or `decode`.
    api_filter_at: &'static str,
}

pub(super) fn build(
    cupti: &'static Cupti,
    config: &TracerConfig,
) -> Result<Box<dyn super::Backend>, TracerError> {
    let (kinds, mapped) = kinds(config.families);
    let skipped = unmapped(config.families, mapped, |family| match family {
        Family::COLLECTIVE => Some(
            "CUPTI has no collective records: NCCL's kernels are recorded as kernels (names starting `nccl`)"
                .into(),
        ),
        Family::COUNTER => Some("counters need CUPTI's profiling API, which the tracer does not use".into()),
        _ => None,
    });
    // A library that cannot filter API calls (before 12.5) records every call rather than none, unless
    // the filter applies while decoding, which any library allows.
    let filtered_api = config.cuda_api_filter_in_decoder || ApiFilter::supported_by(cupti);
    let asked = match &config.cuda_api_calls {
        Some(spec) => ApiFilter::parse(spec).map_err(|unknown| {
            TracerError::Config(format!(
                "TracerConfig::cuda_api_calls: unknown presets or API names {unknown:?} in {spec:?}"
            ))
        })?,
        None => ApiFilter::timeline(),
    };
    let mut activity = ActivityConfig {
        kinds,
        api_filter: if filtered_api { asked } else { ApiFilter::all() },
        api_filter_at: if config.cuda_api_filter_in_decoder {
            ApiFilterAt::Decode
        } else {
            ApiFilterAt::Cupti
        },
        flush_period: config.flush_period,
        ..ActivityConfig::default()
    };
    if config.policy == BufferPolicy::Lossy {
        activity.policy = cupti::activity::BufferPolicy::Lossy;
    }
    if let Some(size) = config.buffer_size {
        activity.buffer_size = size;
    }
    if let Some(max) = config.max_buffers {
        activity.max_buffers = max;
    }
    if let Some(sync) = &config.synchronize {
        let sync = sync.0.clone();
        activity.device_sync = DeviceSync::custom(move || sync());
    }
    let mut demangler = None;
    if config.demangle {
        let d = Demangler::new();
        demangler = Some(d.kind().label());
        activity.kernel_names = Some(demangled_names(d));
    }
    let session = ActivitySession::new(cupti, activity)
        .map_err(|e| TracerError::vendor(VENDOR, "creating the activity session", e))?;
    Ok(Box::new(CuptiBackend {
        info: info(cupti),
        session: Arc::new(session),
        families: mapped,
        skipped,
        demangler,
        api_calls: match (&config.cuda_api_calls, filtered_api) {
            (_, false) => "all".to_owned(),
            (Some(spec), true) => spec.clone(),
            (None, true) => "timeline".to_owned(),
        },
        api_filter_at: if config.cuda_api_filter_in_decoder { "decode" } else { "cupti" },
    }))
}

impl Backend for CuptiBackend {
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
        self.session.subscribe(families, consumer)
    }

    fn unsubscribe(&self, id: ConsumerId) -> bool {
        self.session.unsubscribe(id)
    }

    fn names(&self) -> Names {
        self.session.names()
    }

    fn time_map(&self) -> TimeMap {
        self.session.clock().time_map
    }

    fn trace_style(&self) -> TraceStyle {
        let mut metadata = vec![
            ("cupti_version".to_owned(), self.session.cupti().api_version().into()),
            ("record_clock_is_realtime".to_owned(), self.session.clock().is_realtime.into()),
            ("api_calls".to_owned(), self.api_calls.clone().into()),
            ("api_filter_at".to_owned(), self.api_filter_at.into()),
        ];
        if let Some(kind) = self.demangler {
            metadata.push(("kernel_name_demangler".to_owned(), kind.into()));
        }
        TraceStyle { comm_backend: "nccl", metadata, devices: Vec::new() }
    }

    fn api_domain_name(&self, domain: u32) -> Option<Cow<'static, str>> {
        match domain {
            API_DOMAIN_RUNTIME => Some("cuda_runtime".into()),
            API_DOMAIN_DRIVER => Some("cuda_driver".into()),
            API_DOMAIN_OVERHEAD => Some("cupti_overhead".into()),
            _ => None,
        }
    }

    fn start(&mut self) -> Result<(), TracerError> {
        self.session.start().map_err(|e| TracerError::vendor(VENDOR, "enabling the activity kinds", e))
    }

    fn flusher(&self) -> Flusher {
        flusher_of(&self.session, |s| {
            s.fence().map(drop).map_err(|e| TracerError::vendor(VENDOR, "flushing", e))
        })
    }

    fn counts(&self) -> TracerCounts {
        counts(&self.session.counts())
    }

    fn stop(self: Box<Self>) -> Stopped {
        let end = sole(self.session).end();
        Stopped {
            counts: counts(&end.counts),
            error: end.fence.err().map(|e| {
                format!("{VENDOR}: the final fence did not complete ({e}); records were flushed all the same")
            }),
        }
    }

    fn switch(&self) -> Box<dyn Switch> {
        Box::new(self.session.switch())
    }

    fn follow_capture_range(
        &self,
        range: CaptureRange,
        on: RangeFn,
    ) -> Result<Option<Box<dyn Send>>, TracerError> {
        match range {
            CaptureRange::None => Ok(None),
            CaptureRange::ProfilerApi => {
                // cudaProfilerStart (and cuProfilerStart) resume at their entry, cudaProfilerStop (and
                // cuProfilerStop) pause when they return: the work between is collected whole.
                let start = [RuntimeCbid::cudaProfilerStart_v4000.into(), DriverCbid::cuProfilerStart.into()];
                let stop = [RuntimeCbid::cudaProfilerStop_v4000.into(), DriverCbid::cuProfilerStop.into()];
                let subscriber = self
                    .session
                    .cupti()
                    .subscribe(move |cb: &CallbackData<'_>| {
                        let Some(call) = cb.api() else { return };
                        if call.is_enter() && start.contains(&cb.id()) {
                            on(true);
                        } else if call.is_exit() && stop.contains(&cb.id()) {
                            on(false);
                        }
                    })
                    .map_err(|e| TracerError::vendor(VENDOR, "subscribing to cudaProfilerStart/Stop", e))?;
                for id in start.into_iter().chain(stop) {
                    subscriber.enable(id).map_err(|e| {
                        TracerError::vendor(VENDOR, "enabling the cudaProfilerStart/Stop callbacks", e)
                    })?;
                }
                Ok(Some(Box::new(subscriber)))
            }
        }
    }
}

impl Switch for cupti::activity::ActivitySwitch<'static> {
    fn pause(&self) -> Result<(), String> {
        cupti::activity::ActivitySwitch::pause(self).map(drop).map_err(|e| e.to_string())
    }

    fn resume(&self) -> Result<(), String> {
        cupti::activity::ActivitySwitch::resume(self).map(drop).map_err(|e| e.to_string())
    }
}

fn counts(c: &cupti::activity::ActivityCounts) -> TracerCounts {
    TracerCounts {
        vendor: VENDOR,
        pipeline: c.pipeline,
        vendor_extras: vec![
            ("overflow_buffers", c.overflow_buffers),
            ("buffers_held_by_cupti", c.buffers_held_by_vendor as u64),
            ("fence_records", c.vendor.decoder.fence_records),
            ("open_ranges", c.vendor.decoder.open_ranges),
            ("truncated_buffers", c.vendor.decoder.truncated_buffers),
        ],
        other_client: c.other_client,
    }
}

#[cfg(test)]
mod tests {
    use accelprof_export::trace::{Style, CUPTI_API_DOMAIN_DRIVER, CUPTI_API_DOMAIN_OVERHEAD};
    use cupti::decode::{API_DOMAIN_DRIVER, API_DOMAIN_OVERHEAD, API_DOMAIN_RUNTIME};

    /// The writers' CUPTI style names CUPTI's raw domains by their values (accelprof-export has no
    /// CUPTI dependency): the two are held equal here.
    #[test]
    fn the_writers_cupti_style_knows_cuptis_domains() {
        assert_eq!(
            (CUPTI_API_DOMAIN_DRIVER, CUPTI_API_DOMAIN_OVERHEAD),
            (API_DOMAIN_DRIVER, API_DOMAIN_OVERHEAD)
        );
        let style = Style::of_vendor(super::VENDOR.name());
        assert_eq!(style.categories.api_category(API_DOMAIN_DRIVER), "cuda_driver");
        assert_eq!(style.categories.api_category(API_DOMAIN_RUNTIME), "cuda_runtime");
    }
}
