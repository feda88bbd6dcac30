//! The vendor side of an MSPTI activity session: what the shared core's
//! [`Session`](accelprof_core::activity::Session) asks of MSPTI.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

use accelprof_core::activity::{ActivityBackend, FlushDepth, RouteSlot};

use super::buffers::{self, CallbackTallies};
use super::MsptiCounts;
use crate::decode::WalkerTallies;
use crate::error::{check, Error, Result};
use crate::ids::ActivityKind;
use crate::Mspti;

/// How a session reaches MSPTI: the library, and the tallies of its callbacks, decoder and stuck-buffer
/// watcher. Made by [`ActivitySession::new`](super::ActivitySession::new).
pub struct Backend<'m> {
    pub(crate) mspti: &'m Mspti,
    pub(crate) callbacks: Arc<CallbackTallies>,
    pub(crate) walker: Arc<WalkerTallies>,
    /// `msptiActivityFlushAll` calls the stuck-buffer watcher made.
    pub(crate) rescues: Arc<AtomicU64>,
    /// Device waits that ran out with records still arriving.
    pub(crate) unsettled: Arc<AtomicU64>,
}

impl Backend<'_> {
    /// Refuses what MSPTI would accept and then deliver nothing for.
    pub(crate) fn check_kind(&self, kind: ActivityKind) -> Result<()> {
        if kind.needs_subscriber() && !crate::callback::subscribed() {
            return Err(Error::SubscriberRequired(kind));
        }
        if kind.needs_ld_preload() {
            self.mspti.interposition_live()?;
        }
        Ok(())
    }
}

impl<'m> ActivityBackend for Backend<'m> {
    type Kind = ActivityKind;
    type Error = Error;
    type RouteData = Arc<CallbackTallies>;
    type Extras = MsptiCounts;

    const VENDOR: &'static str = "MSPTI";

    fn route(&self) -> Option<(&'static RouteSlot<Arc<CallbackTallies>>, Arc<CallbackTallies>)> {
        Some((&buffers::ROUTE, Arc::clone(&self.callbacks)))
    }

    #[doc(alias = "msptiActivityRegisterCallbacks")]
    fn register(&self) -> Result<()> {
        check(
            // SAFETY: both functions have the C signatures MSPTI expects and live for the program.
            unsafe {
                self.mspti.sys().msptiActivityRegisterCallbacks(
                    Some(buffers::buffer_requested),
                    Some(buffers::buffer_completed),
                )
            },
            "msptiActivityRegisterCallbacks",
        )
    }

    /// `msptiActivityEnable`, after the checks of [`ActivitySession::enable`](super::ActivitySession::enable).
    #[doc(alias = "msptiActivityEnable")]
    fn enable(&self, kind: ActivityKind) -> Result<()> {
        self.check_kind(kind)?;
        // SAFETY: a known kind (MSPTI checks it against its supported set).
        check(unsafe { self.mspti.sys().msptiActivityEnable(kind.into()) }, "msptiActivityEnable")
    }

    #[doc(alias = "msptiActivityDisable")]
    fn disable(&self, kind: ActivityKind) -> Result<()> {
        // SAFETY: a plain value.
        check(unsafe { self.mspti.sys().msptiActivityDisable(kind.into()) }, "msptiActivityDisable")
    }

    /// `msptiActivityFlushAll` whatever the depth: MSPTI has one flush, synchronous, which hands back
    /// every buffer (the partly filled one too) before it returns; the flag is unused.
    #[doc(alias = "msptiActivityFlushAll")]
    fn flush(&self, _depth: FlushDepth) -> Result<()> {
        // SAFETY: a plain value.
        check(unsafe { self.mspti.sys().msptiActivityFlushAll(1) }, "msptiActivityFlushAll")
    }

    fn extras(&self) -> MsptiCounts {
        MsptiCounts {
            null_completions: self.callbacks.null_completions.load(Relaxed),
            abandoned_bytes: self.walker.abandoned_bytes.load(Relaxed),
            last_unknown_kind: self.walker.last_unknown_kind.load(Relaxed) as u32,
            rescue_flushes: self.rescues.load(Relaxed),
            unsettled_waits: self.unsettled.load(Relaxed),
        }
    }
}

impl fmt::Debug for Backend<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Backend").field("mspti", &self.mspti.path()).finish_non_exhaustive()
    }
}
