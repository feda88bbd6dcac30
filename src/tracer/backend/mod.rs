//! The vendors behind the tracer: one file per vendor, each implementing [`Backend`] over that
//! vendor's crate. Everything vendor-specific lives in those files; this one only picks the file.
//!
//! A backend is made in two steps: [`locate`] opens the vendor's library (what [`Vendor::Auto`]
//! tries vendor after vendor), [`build`] sets up the collection on it (a session, its consumers,
//! the kinds to enable).

use std::borrow::Cow;
use std::path::Path;

use accelprof_core::pipeline::ConsumerId;
use accelprof_core::{Batch, FamilySet, Names};
use accelprof_export::trace::{DeviceProperties, TimeMap};
use serde_json::Value;

use super::window::Switch;
use super::{
    CaptureRange, LibraryInfo, Skipped, TracerConfig, TracerCounts, TracerError, Vendor, VendorAttempt,
};

/// Called with `true` where the program's capture range begins, `false` where it ends.
pub(crate) type RangeFn = Box<dyn Fn(bool) + Send + Sync + 'static>;

#[cfg(feature = "cupti")]
mod cupti;
#[cfg(feature = "mspti")]
mod mspti;
#[cfg(feature = "rocprofiler")]
mod rocprofiler;

#[cfg(feature = "rocprofiler")]
pub use rocprofiler::setup_in_configure_window;

/// A backend's flush, callable without the backend (see [`Backend::flusher`]).
pub(crate) type Flusher = Box<dyn Fn() -> Result<(), TracerError> + Send + Sync>;

/// A [`Flusher`] calling `flush` on `shared` while the backend holds it, and doing nothing after (the
/// backend's `stop` took it): a weak reference, so the tracer's flusher never keeps a stopped session.
#[cfg(any(feature = "cupti", feature = "mspti"))]
pub(crate) fn flusher_of<S: Send + Sync + 'static>(
    shared: &std::sync::Arc<S>,
    flush: impl Fn(&S) -> Result<(), TracerError> + Send + Sync + 'static,
) -> Flusher {
    let weak = std::sync::Arc::downgrade(shared);
    Box::new(move || weak.upgrade().map_or(Ok(()), |s| flush(&s)))
}

/// `shared` alone again: waits while a flush that began before `stop` still holds it (a flush ends:
/// a fence has its timeout, and one on the decode thread is refused at once). The vendors whose
/// session the flusher shares use it.
#[cfg(any(feature = "cupti", feature = "mspti"))]
pub(crate) fn sole<T>(mut shared: std::sync::Arc<T>) -> T {
    loop {
        match std::sync::Arc::try_unwrap(shared) {
            Ok(alone) => return alone,
            Err(back) => {
                shared = back;
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
    }
}

/// A consumer of batches (runs on the vendor pipeline's decode thread).
pub(crate) type Consumer = Box<dyn FnMut(&Batch, &Names) + Send + 'static>;

/// What a vendor adds to a trace file's metadata (how its records look, the `cat`s and the devices'
/// label, is the writers' [`Style::of_vendor`](accelprof_export::trace::Style::of_vendor)).
pub(crate) struct TraceStyle {
    /// The collective library of a distributed job (`nccl`, `hccl`).
    pub(crate) comm_backend: &'static str,
    /// Further top-level keys (library version, clock, demangler).
    pub(crate) metadata: Vec<(String, Value)>,
    /// The devices, when the vendor describes them.
    pub(crate) devices: Vec<DeviceProperties>,
}

/// How a backend ended.
pub(crate) struct Stopped {
    /// The final tallies.
    pub(crate) counts: TracerCounts,
    /// What went wrong at the end (a fence that did not complete), if anything.
    pub(crate) error: Option<String>,
}

/// One vendor's collection: what [`Tracer`](super::Tracer) needs of it.
pub(crate) trait Backend: Send {
    /// What was opened.
    fn library(&self) -> &LibraryInfo;

    /// The families this backend was set up to produce.
    fn families(&self) -> FamilySet;

    /// Requested families (or kinds of them) it cannot produce, and why. Filled by `build` and
    /// `start`.
    fn skipped(&self) -> &[Skipped];

    /// Calls `consumer` on the decode thread with each later batch holding rows of `families`.
    fn subscribe(&self, families: FamilySet, consumer: Consumer) -> ConsumerId;

    /// Stops calling a consumer.
    fn unsubscribe(&self, id: ConsumerId) -> bool;

    /// The names of the batches' name ids.
    fn names(&self) -> Names;

    /// Maps the records' timestamps to Unix time.
    fn time_map(&self) -> TimeMap;

    /// How the records look in a trace.
    fn trace_style(&self) -> TraceStyle;

    /// The vendor's name of an API row's raw `domain` (`cuda_runtime`, `acl_api`, `hip_runtime_api`).
    fn api_domain_name(&self, domain: u32) -> Option<Cow<'static, str>>;

    /// Enables the kinds: collection begins (a no-op when it already has).
    fn start(&mut self) -> Result<(), TracerError>;

    /// What makes the vendor hand over what it has, and waits until it was delivered to the
    /// consumers: called without the tracer's lock on the backend (a consumer, on the decode thread
    /// that a flush waits for, may call the tracer meanwhile). After `stop` began it does nothing.
    fn flusher(&self) -> Flusher;

    /// What hands the vendor's buffers over (partly filled ones too) without waiting for the device,
    /// for the tracer's own periodic flush: `Some` for a vendor whose own period does not (CUPTI's
    /// `cuptiActivityFlushPeriod` does: `None`). Like [`flusher`](Self::flusher), called without
    /// the backend.
    fn periodic_flusher(&self) -> Option<Flusher> {
        None
    }

    /// The tallies now.
    fn counts(&self) -> TracerCounts;

    /// Disables the kinds, hands over and delivers everything, and returns the final tallies.
    fn stop(self: Box<Self>) -> Stopped;

    /// Pauses and resumes the collection without the backend (the tracer's window).
    fn switch(&self) -> Box<dyn Switch>;

    /// Calls `on` where the program's capture range of `range` begins and ends; what observes it
    /// (kept until the end), or [`TracerError::Unsupported`] when the vendor cannot.
    fn follow_capture_range(
        &self,
        range: CaptureRange,
        on: RangeFn,
    ) -> Result<Option<Box<dyn Send>>, TracerError>;
}

/// The typed error of a capture range `vendor` cannot observe.
#[cfg_attr(not(any(feature = "mspti", feature = "rocprofiler")), allow(dead_code))]
pub(crate) fn range_unsupported(vendor: Vendor, range: CaptureRange, why: &str) -> TracerError {
    TracerError::Unsupported {
        vendor,
        what: match range {
            CaptureRange::ProfilerApi => "follow a capture range of profiler API calls",
            CaptureRange::None => "follow a capture range",
        },
        why: why.to_owned(),
    }
}

/// A vendor's library, opened.
pub(crate) enum Located {
    #[cfg(feature = "cupti")]
    Cupti(&'static ::cupti::Cupti),
    #[cfg(feature = "mspti")]
    Mspti(&'static ::mspti::Mspti),
    #[cfg(feature = "rocprofiler")]
    Rocprofiler(&'static ::rocprofiler::Rocprofiler),
}

impl Located {
    /// What was opened.
    pub(crate) fn info(&self) -> LibraryInfo {
        match *self {
            #[cfg(feature = "cupti")]
            Located::Cupti(c) => cupti::info(c),
            #[cfg(feature = "mspti")]
            Located::Mspti(m) => mspti::info(m),
            #[cfg(feature = "rocprofiler")]
            Located::Rocprofiler(r) => rocprofiler::info(r),
        }
    }
}

/// Opens `vendor`'s library: `library` when given, else the vendor's search.
pub(crate) fn locate(vendor: Vendor, library: Option<&Path>) -> Result<Located, VendorAttempt> {
    let _ = library;
    match vendor {
        #[cfg(feature = "cupti")]
        Vendor::Cupti => cupti::locate(library).map(Located::Cupti),
        #[cfg(feature = "mspti")]
        Vendor::Mspti => mspti::locate(library).map(Located::Mspti),
        #[cfg(feature = "rocprofiler")]
        Vendor::Rocprofiler => rocprofiler::locate(library).map(Located::Rocprofiler),
        other => Err(VendorAttempt::not_built(other)),
    }
}

/// Sets up the collection on an opened library.
pub(crate) fn build(located: Located, config: &TracerConfig) -> Result<Box<dyn Backend>, TracerError> {
    let _ = config;
    match located {
        #[cfg(feature = "cupti")]
        Located::Cupti(c) => cupti::build(c, config),
        #[cfg(feature = "mspti")]
        Located::Mspti(m) => mspti::build(m, config),
        #[cfg(feature = "rocprofiler")]
        Located::Rocprofiler(r) => rocprofiler::build(r, config),
    }
}

/// Makes the process ready for the vendor of `located` before anything else runs in it: MSPTI's
/// `libmspti.so` preloaded (the program is restarted with it, and this does not return then).
pub(crate) fn prepare_process(located: &Located) -> Result<(), TracerError> {
    match *located {
        #[cfg(feature = "mspti")]
        Located::Mspti(m) => mspti::prepare_process(m),
        #[allow(unreachable_patterns)]
        _ => Ok(()),
    }
}

/// `families` without what the backend makes of them: each family asked for that `mapped` leaves
/// empty becomes a [`Skipped`] with `why`.
#[cfg_attr(not(any(feature = "cupti", feature = "mspti", feature = "rocprofiler")), allow(dead_code))]
pub(crate) fn unmapped(
    asked: FamilySet,
    mapped: FamilySet,
    why: impl Fn(accelprof_core::columns::Family) -> Option<String>,
) -> Vec<Skipped> {
    (asked - mapped)
        .iter_families()
        .map(|family| Skipped {
            family,
            kind: None,
            reason: why(family).unwrap_or_else(|| "the vendor has no records of this family".into()),
        })
        .collect()
}
