//! Huawei Ascend MSPTI through the `mspti` crate: an activity session and the subscriber MSPTI needs
//! to produce API, kernel and marker records.
//!
//! | family | MSPTI activity kinds |
//! | --- | --- |
//! | kernels | `KERNEL` (needs a subscriber, and the device opened while subscribed) |
//! | copies, sets, memory | `MEMCPY`, `MEMSET`, `MEMORY` (need `libmspti.so` preloaded) |
//! | API calls | `ACL_API`, `API`, `NODE_API`, `RUNTIME_API` (need a subscriber; the last two are new in 2026) |
//! | markers | `MARKER` (MSTX; needs a subscriber) |
//! | collectives | `HCCL` (needs `libmspti.so` preloaded), `COMMUNICATION` |
//! | external correlations | `EXTERNAL_CORRELATION` |
//! | synchronizations, counters | none |

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use accelprof_core::columns::Family;
use accelprof_core::pipeline::ConsumerId;
use accelprof_core::{FamilySet, Names};
use accelprof_export::trace::TimeMap;
use mspti::{ActivityConfig, ActivityKind, ActivitySession, Mspti, Subscriber};

use super::{
    flusher_of, range_unsupported, sole, unmapped, Backend, Consumer, Flusher, RangeFn, Stopped, TraceStyle,
};
use crate::tracer::window::Switch;
use crate::tracer::CaptureRange;
use crate::tracer::{LibraryInfo, Skipped, TracerConfig, TracerCounts, TracerError, Vendor, VendorAttempt};

const VENDOR: Vendor = Vendor::Mspti;

/// Opens `libmspti.so` (the preloaded copy first), kept for the process.
pub(super) fn locate(library: Option<&Path>) -> Result<&'static Mspti, VendorAttempt> {
    let opened = match library {
        Some(path) => Mspti::open_path(path),
        None => Mspti::open(),
    };
    match opened {
        Ok(m) => Ok(Box::leak(Box::new(m))),
        Err(e) => {
            let tried = match &e {
                mspti::Error::Load(load) => load.tried().to_vec(),
                _ => Vec::new(),
            };
            Err(VendorAttempt { vendor: VENDOR, reason: e.to_string(), tried })
        }
    }
}

pub(super) fn info(mspti: &Mspti) -> LibraryInfo {
    let loaded = mspti.sys().loaded();
    LibraryInfo {
        vendor: VENDOR,
        path: loaded.path().to_path_buf(),
        version: String::new(),
        found: loaded.origin().to_string(),
    }
}

/// Restarts the program with this `libmspti.so` preloaded, unless it is preloaded already.
pub(super) fn prepare_process(mspti: &Mspti) -> Result<(), TracerError> {
    if mspti::preload::is_preloaded() {
        return Ok(());
    }
    let path = mspti.sys().loaded().path().to_path_buf();
    mspti::preload::reexec_with_preload(&path, &[]).map_err(|e| {
        TracerError::Config(format!(
            "{VENDOR}: could not restart the program with {} in LD_PRELOAD: {e}",
            path.display()
        ))
    })
}

/// The MSPTI kinds of each family.
fn kinds(family: Family) -> &'static [ActivityKind] {
    match family {
        Family::KERNEL => &[ActivityKind::KERNEL],
        Family::MEMCPY => &[ActivityKind::MEMCPY],
        Family::MEMSET => &[ActivityKind::MEMSET],
        Family::API => {
            &[ActivityKind::ACL_API, ActivityKind::API, ActivityKind::NODE_API, ActivityKind::RUNTIME_API]
        }
        Family::MARKER => &[ActivityKind::MARKER],
        Family::COLLECTIVE => &[ActivityKind::HCCL, ActivityKind::COMMUNICATION],
        Family::MEMORY => &[ActivityKind::MEMORY],
        Family::EXTERNAL_CORRELATION => &[ActivityKind::EXTERNAL_CORRELATION],
        _ => &[],
    }
}

struct MsptiBackend {
    info: LibraryInfo,
    mspti: &'static Mspti,
    /// Shared with the flusher (which holds it only while flushing).
    activity: Arc<ActivitySession<'static>>,
    /// Ours; `None` when another subscriber held MSPTI's one subscription.
    subscriber: Option<Subscriber<'static>>,
    /// (family, kind) to enable at start.
    wanted: Vec<(Family, ActivityKind)>,
    families: FamilySet,
    skipped: Vec<Skipped>,
    flush_period: Option<std::time::Duration>,
    started: bool,
    /// How long the device's records take to reach MSPTI (the session's `device_settle`).
    settle: std::time::Duration,
}

pub(super) fn build(mspti: &'static Mspti, config: &TracerConfig) -> Result<Box<dyn Backend>, TracerError> {
    let mut wanted = Vec::new();
    let mut mapped = FamilySet::empty();
    for family in config.families.iter_families() {
        for kind in kinds(family) {
            wanted.push((family, *kind));
            mapped |= family.set();
        }
    }
    let mut skipped = unmapped(config.families, mapped, |family| match family {
        Family::SYNC => Some("MSPTI has no synchronization records".into()),
        Family::COUNTER => Some("MSPTI has no counter records".into()),
        _ => None,
    });
    // MSPTI produces API, kernel and marker records only while a subscriber exists.
    let subscriber = match mspti.subscribe(|_| {}) {
        Ok(s) => Some(s),
        // Another tool of the program holds MSPTI's one subscription (a second one is refused, and
        // no shim can share it: see the vendor notes). MSPTI would write the kinds that need a
        // subscriber while that tool keeps it, and stop without a count when it lets go, so they
        // are not collected; each is named in the report. The rest (memory, copies, sets, HCCL
        // with the preload, external correlation) come as usual.
        Err(mspti::Error::MultipleSubscribers) => {
            wanted.retain(|(family, kind)| {
                if !kind.needs_subscriber() {
                    return true;
                }
                skipped.push(Skipped {
                    family: *family,
                    kind: Some(kind.to_string()),
                    reason: "another subscriber holds MSPTI's one subscription (another tool of this program): \
                             MSPTI writes these records only while a subscriber exists, and this tracer cannot \
                             know for how long the other keeps it; not collected"
                        .into(),
                });
                false
            });
            None
        }
        Err(e) => return Err(TracerError::vendor(VENDOR, "subscribing", e)),
    };
    // No kinds at start: the wanted ones are enabled one by one (the default would be the timeline),
    // each refusal its own skipped kind.
    let mut activity_config = ActivityConfig {
        kinds: mspti::ActivityKinds::empty(),
        enable_later: true,
        ..ActivityConfig::default()
    };
    let settle = activity_config.device_settle;
    if let Some(size) = config.buffer_size {
        activity_config.buffer_size = size;
    }
    if let Some(max) = config.max_buffers {
        activity_config.max_buffers = max;
    }
    let activity = ActivitySession::new(mspti, activity_config)
        .map_err(|e| TracerError::vendor(VENDOR, "starting the activity session", e))?;
    Ok(Box::new(MsptiBackend {
        info: info(mspti),
        mspti,
        activity: Arc::new(activity),
        subscriber,
        wanted,
        families: mapped,
        skipped,
        flush_period: config.flush_period,
        started: false,
        settle,
    }))
}

impl Backend for MsptiBackend {
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
        self.activity.subscribe(families, consumer)
    }

    fn unsubscribe(&self, id: ConsumerId) -> bool {
        self.activity.unsubscribe(id)
    }

    fn names(&self) -> Names {
        self.activity.names()
    }

    fn time_map(&self) -> TimeMap {
        // MSPTI stamps records with CLOCK_REALTIME nanoseconds.
        TimeMap::IDENTITY
    }

    fn trace_style(&self) -> TraceStyle {
        let preloaded = mspti::preload::is_preloaded() && self.mspti.interposition_live().is_ok();
        TraceStyle {
            comm_backend: "hccl",
            metadata: vec![("mspti_preloaded".to_owned(), preloaded.into())],
            devices: Vec::new(),
        }
    }

    fn api_domain_name(&self, domain: u32) -> Option<Cow<'static, str>> {
        ActivityKind::from_raw(domain)
            .and_then(ActivityKind::name)
            .map(|n| Cow::Owned(n.to_ascii_lowercase()))
    }

    fn start(&mut self) -> Result<(), TracerError> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        // Started with no kind: each is enabled on its own below, so that one refused is skipped alone.
        self.activity.start().map_err(|e| TracerError::vendor(VENDOR, "starting the activity session", e))?;
        let mut enabled = FamilySet::empty();
        for (family, kind) in std::mem::take(&mut self.wanted) {
            match self.activity.enable(kind) {
                Ok(()) => enabled |= family.set(),
                // What needs the preload, a subscriber, or a newer library says so (and what to do).
                Err(e) => {
                    self.skipped.push(Skipped { family, kind: Some(kind.to_string()), reason: e.to_string() })
                }
            }
        }
        self.families = enabled;
        if let Some(period) = self.flush_period {
            self.activity
                .flush_period(Some(period))
                .map_err(|e| TracerError::vendor(VENDOR, "setting the flush period", e))?;
        }
        Ok(())
    }

    fn flusher(&self) -> Flusher {
        flusher_of(&self.activity, |a| {
            a.fence().map(drop).map_err(|e| TracerError::vendor(VENDOR, "flushing", e))
        })
    }

    /// MSPTI's period (`msptiActivityFlushPeriod`) hands back only the buffers that are full.
    fn periodic_flusher(&self) -> Option<Flusher> {
        Some(flusher_of(&self.activity, |a| {
            a.flush().map(drop).map_err(|e| TracerError::vendor(VENDOR, "flushing", e))
        }))
    }

    fn counts(&self) -> TracerCounts {
        counts(&self.activity.counts())
    }

    fn stop(self: Box<Self>) -> Stopped {
        let MsptiBackend { activity, subscriber, .. } = *self;
        // Disabling the kinds reads what the device still holds; then everything is flushed.
        let end = sole(activity).end();
        drop(subscriber);
        let error = end.fence.err().map(|e| format!("{VENDOR}: the final flush did not complete ({e})"));
        Stopped { counts: counts(&end.counts), error }
    }

    fn switch(&self) -> Box<dyn Switch> {
        Box::new(SettledSwitch { switch: self.activity.switch(), settle: self.settle })
    }

    fn follow_capture_range(
        &self,
        range: CaptureRange,
        _on: RangeFn,
    ) -> Result<Option<Box<dyn Send>>, TracerError> {
        match range {
            CaptureRange::None => Ok(None),
            _ => Err(range_unsupported(
                VENDOR,
                range,
                "MSPTI's callbacks cover the runtime (aclrt*) and HCCL domains, none of which is a profiler \
                 start/stop call, and MSTX marks reach it only as activity records, after the fact; use \
                 TracerConfig::delay/duration, a toggle signal or Tracer::pause/resume",
            )),
        }
    }
}

/// MSPTI's pause: MSPTI drops, uncounted, every record written after its kind was disabled, and the
/// device's records of earlier work reach it with a latency; so a pause first waits the session's
/// `device_settle` (what its fence and its end wait), then disables the kinds.
struct SettledSwitch {
    switch: mspti::activity::ActivitySwitch<'static>,
    settle: std::time::Duration,
}

impl Switch for SettledSwitch {
    fn pause(&self) -> Result<(), String> {
        if self.switch.is_collecting() {
            std::thread::sleep(self.settle);
        }
        self.switch.pause().map(drop).map_err(|e| e.to_string())
    }

    fn resume(&self) -> Result<(), String> {
        self.switch.resume().map(drop).map_err(|e| e.to_string())
    }
}

fn counts(c: &mspti::ActivityCounts) -> TracerCounts {
    // Process-wide: buffers MSPTI handed back that no session of this process could take.
    let route = mspti::activity::route_stats();
    TracerCounts {
        vendor: VENDOR,
        pipeline: c.pipeline,
        vendor_extras: vec![
            ("null_completions", c.vendor.null_completions),
            ("abandoned_bytes", c.vendor.abandoned_bytes),
            ("rescue_flushes", c.vendor.rescue_flushes),
            ("overflow_buffers", c.overflow_buffers),
            ("late_buffers", route.late_buffers),
            ("foreign_buffers", route.foreign_buffers),
        ],
        other_client: c.other_client,
    }
}
