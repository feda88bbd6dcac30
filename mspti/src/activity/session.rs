//! [`Activity`]: a running activity session.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::sync::Arc;
use std::time::Duration;

use accelprof_core::pipeline::ConsumerId;
use accelprof_core::{Batch, BufferPool, FamilySet, Names, Pipeline, PipelineConfig};

use super::buffers::{self, Shared};
use super::decode::{MsptiWalker, WalkerTallies};
use super::rescue::{Flow, FlushAll, Rescue};
use super::{ActivityConfig, ActivityCounts};
use crate::error::{check, Error, Result};
use crate::ids::ActivityKind;
use crate::Mspti;

static RUNNING: AtomicBool = AtomicBool::new(false);

/// Collects MSPTI activity records into column batches.
///
/// The way of a record: MSPTI asks for a buffer (on the producing thread, under its internal
/// lock) and gets one from a bounded lock-free pool, or NULL when the pool is at its bound (the
/// record that asked is lost, and counted); MSPTI hands full buffers back on a new thread per
/// buffer, concurrently, and the partial one on [`flush_all`](Self::flush_all); each is sent to a
/// decode thread which walks it itself and appends rows to a [`Batch`] for the consumers
/// registered with [`subscribe`](Self::subscribe). A thread of the session checks that MSPTI hands
/// full buffers back, and flushes them out when it does not (its manager thread can be lost; see
/// [`ActivityConfig::stuck_buffer_check`]).
///
/// Dropping it disables the kinds it enabled, flushes, delivers what was collected and stops
/// the decode thread.
#[derive(Debug)]
pub struct Activity<'m> {
    mspti: &'m Mspti,
    pipeline: Option<Pipeline>,
    enabled: BTreeSet<ActivityKind>,
    tallies: Arc<WalkerTallies>,
    flow: Arc<Flow>,
    rescue: Option<Rescue>,
    finished: bool,
}

impl<'m> Activity<'m> {
    pub(crate) fn start(mspti: &'m Mspti, config: ActivityConfig) -> Result<Activity<'m>> {
        if RUNNING.swap(true, SeqCst) {
            return Err(Error::ActivityAlreadyRunning);
        }
        let tallies = Arc::new(WalkerTallies::default());
        let pool = BufferPool::new(config.buffer_size, config.max_buffers);
        let pipeline_config = PipelineConfig {
            batch_rows: config.batch_rows,
            flush_interval: config.batch_interval,
            thread_name: "mspti-decode".into(),
        };
        let pipeline =
            match Pipeline::start(MsptiWalker { tallies: Arc::clone(&tallies) }, pool, pipeline_config) {
                Ok(p) => p,
                Err(e) => {
                    RUNNING.store(false, SeqCst);
                    return Err(Error::Pipeline(e.to_string()));
                }
            };
        let flow = Arc::new(Flow::default());
        buffers::install(Box::new(Shared {
            handoff: pipeline.handoff(),
            null_completions: Default::default(),
            foreign_buffers: Default::default(),
            flow: Arc::clone(&flow),
        }));
        let mut activity = Activity {
            mspti,
            pipeline: Some(pipeline),
            enabled: BTreeSet::new(),
            tallies,
            flow,
            rescue: None,
            finished: false,
        };
        // SAFETY: both functions have the C signatures MSPTI expects and live for the program.
        let registered = check(
            unsafe {
                mspti.sys().msptiActivityRegisterCallbacks(
                    Some(buffers::buffer_requested),
                    Some(buffers::buffer_completed),
                )
            },
            "buffer callbacks",
        );
        if let Err(e) = registered {
            activity.stop();
            return Err(e);
        }
        if let (Some(every), Some(flush)) =
            (config.stuck_buffer_check, mspti.sys().raw_symbol(c"msptiActivityFlushAll"))
        {
            // SAFETY: the library's `msptiActivityFlushAll` (C signature of the bindings); the
            // library is never unloaded, so the address stays valid for the thread's life.
            let flush: FlushAll = unsafe { std::mem::transmute(flush.as_ptr()) };
            match Rescue::start(flush, Arc::clone(&activity.flow), every) {
                Ok(r) => activity.rescue = Some(r),
                Err(e) => {
                    activity.stop();
                    return Err(Error::Pipeline(format!("the stuck-buffer thread could not start: {e}")));
                }
            }
        }
        Ok(activity)
    }

    /// Enables records of `kind` (`msptiActivityEnable`).
    ///
    /// - HCCL, MEMORY, MEMSET and MEMCPY come from MSPTI's interposed functions: they need
    ///   `libmspti.so` preloaded ([`Error::WithoutLdPreload`] or [`Error::InterpositionNotLive`]).
    /// - MARKER, KERNEL and the API-family kinds (API, ACL_API, NODE_API, RUNTIME_API) are
    ///   produced only while a subscriber exists ([`ActivityKind::NEED_SUBSCRIBER`]): without one of
    ///   this crate's [`Subscriber`](crate::Subscriber)s this returns [`Error::SubscriberRequired`]
    ///   (enabling would succeed in MSPTI and collect nothing). Records stop when the subscriber
    ///   is dropped.
    #[doc(alias = "msptiActivityEnable")]
    pub fn enable(&mut self, kind: ActivityKind) -> Result<()> {
        if kind.needs_subscriber() && !crate::callback::subscribed() {
            return Err(Error::SubscriberRequired(kind));
        }
        if kind.needs_ld_preload() {
            self.mspti.interposition_live()?;
        }
        // SAFETY: a known kind (MSPTI checks it against its supported set).
        check(unsafe { self.mspti.sys().msptiActivityEnable(kind.into()) }, "activity kind")?;
        self.enabled.insert(kind);
        Ok(())
    }

    /// Disables records of `kind` (`msptiActivityDisable`).
    #[doc(alias = "msptiActivityDisable")]
    pub fn disable(&mut self, kind: ActivityKind) -> Result<()> {
        // SAFETY: a plain value.
        check(unsafe { self.mspti.sys().msptiActivityDisable(kind.into()) }, "activity kind")?;
        self.enabled.remove(&kind);
        Ok(())
    }

    /// Whether MSPTI collects `kind` now (`msptiActivityIsEnabled`, new in 2026: an older
    /// library gives [`Error::MissingSymbol`]).
    #[doc(alias = "msptiActivityIsEnabled")]
    pub fn is_enabled(&self, kind: ActivityKind) -> Result<bool> {
        // SAFETY: MSPTI indexes an array of its 13 kinds with `kind` unchecked; an `ActivityKind`
        // is one of 0..=12 by construction, within the array of every library that exports this
        // function (it came with kinds 10..=12).
        Ok(unsafe { self.mspti.sys().msptiActivityIsEnabled(kind.into()) }?)
    }

    /// The kinds this session enabled.
    pub fn enabled(&self) -> impl Iterator<Item = ActivityKind> + '_ {
        self.enabled.iter().copied()
    }

    /// Calls `consumer` on the decode thread with each batch holding rows of `families`.
    pub fn subscribe<F>(&self, families: FamilySet, consumer: F) -> ConsumerId
    where
        F: FnMut(&Batch, &Names) + Send + 'static,
    {
        self.pipeline().subscribe(families, consumer)
    }

    /// Removes a consumer.
    pub fn unsubscribe(&self, id: ConsumerId) -> bool {
        self.pipeline().unsubscribe(id)
    }

    /// The names the batches' `NameId`s refer to.
    pub fn names(&self) -> Names {
        self.pipeline().names()
    }

    /// Makes MSPTI hand back every buffer, the partly filled one included
    /// (`msptiActivityFlushAll`, synchronous), then waits until all of it has been decoded and
    /// delivered to the consumers. Records of calls still running are not in it yet.
    #[doc(alias = "msptiActivityFlushAll")]
    pub fn flush_all(&self) -> Result<()> {
        // SAFETY: a plain value.
        check(unsafe { self.mspti.sys().msptiActivityFlushAll(1) }, "flush")?;
        self.pipeline().sync().map_err(|e| Error::Pipeline(e.to_string()))
    }

    /// Sets MSPTI's periodic flush (`msptiActivityFlushPeriod`): every `period` MSPTI hands back
    /// the buffers that are full; `None` turns it off (period 0). Below 1 ms counts as 1 ms.
    #[doc(alias = "msptiActivityFlushPeriod")]
    pub fn flush_period(&self, period: Option<Duration>) -> Result<()> {
        let ms = period.map_or(0, |p| p.as_millis().clamp(1, u32::MAX.into()) as u32);
        // SAFETY: a plain value.
        check(unsafe { self.mspti.sys().msptiActivityFlushPeriod(ms) }, "flush period")
    }

    /// The tallies now: see [`ActivityCounts`].
    pub fn counts(&self) -> ActivityCounts {
        let pipeline = self.pipeline();
        let mut counts = ActivityCounts::gather(pipeline.counts(), pipeline.pool().stats(), &self.tallies);
        counts.rescue_flushes = self.flow.rescues.load(SeqCst);
        counts
    }

    /// Stops like drop does, and returns the final tallies.
    pub fn finish(mut self) -> ActivityCounts {
        self.stop()
    }

    fn pipeline(&self) -> &Pipeline {
        self.pipeline.as_ref().expect("the pipeline lives until the session stops")
    }

    fn stop(&mut self) -> ActivityCounts {
        let Some(pipeline) = self.pipeline.as_ref() else {
            return ActivityCounts::default();
        };
        if self.finished {
            return ActivityCounts::gather(pipeline.counts(), pipeline.pool().stats(), &self.tallies);
        }
        self.finished = true;
        if let Some(mut rescue) = self.rescue.take() {
            rescue.stop();
        }
        for kind in std::mem::take(&mut self.enabled) {
            // SAFETY: a plain value.
            let _ = unsafe { self.mspti.sys().msptiActivityDisable(kind.into()) };
        }
        // SAFETY: a plain value.
        let _ = unsafe { self.mspti.sys().msptiActivityFlushAll(1) };
        let _ = pipeline.sync();
        let shared = buffers::uninstall();
        let pipeline = self.pipeline.take().expect("checked above");
        let pool = pipeline.pool().stats();
        let final_counts = pipeline.shutdown();
        RUNNING.store(false, SeqCst);
        let mut counts = ActivityCounts::gather(final_counts, pool, &self.tallies);
        if let Some(shared) = shared {
            counts.add_shared(&shared);
        }
        counts
    }
}

impl Drop for Activity<'_> {
    fn drop(&mut self) {
        if !self.finished {
            self.stop();
        }
    }
}
