//! [`Subscriber`]: a closure that receives MSPTI callbacks, and what it has enabled.

use std::fmt;
use std::sync::Arc;

use accelprof_core::callback::{Handler, Target};

use super::data::CallbackData;
use super::vendor::{hub_for, Hub, MsptiVendor};
use crate::error::Result;
use crate::ids::{CallbackDomain, CallbackId};
use crate::Mspti;

/// A closure subscribed to MSPTI's API callbacks, with the domains and ids it enabled.
///
/// Created by [`Mspti::subscribe`]. Enable what to receive with
/// [`enable_domain`](Self::enable_domain) and [`enable`](Self::enable) (they need `libmspti.so`
/// preloaded, see [`crate::preload`]: [`Error::WithoutLdPreload`](crate::Error::WithoutLdPreload)
/// or [`Error::InterpositionNotLive`](crate::Error::InterpositionNotLive) otherwise).
///
/// Any number of subscribers may exist in a process although MSPTI allows one subscription: they
/// share it (see [`crate::callback`]). Enabling is reference-counted across them: MSPTI delivers a
/// callback while any subscriber has it enabled, and each closure sees only what it enabled itself,
/// so two subscribers enabling the same id never disable each other.
///
/// MSPTI checks at each ENTER and each EXIT whether the id is enabled: a call in flight while its
/// id is switched off delivers its ENTER but not its EXIT, one in flight while it is switched on
/// delivers an EXIT without ENTER (its [`CorrelationSlot`](crate::CorrelationSlot) is then
/// unpaired, 0).
///
/// After dropping it (or [`unsubscribe`](Self::unsubscribe)) no call of the closure starts; the
/// last subscriber gives MSPTI's subscription back, and MSPTI may still call in late (it does not
/// wait for callbacks in flight), which this crate absorbs. Dropping does not wait for calls already
/// running on other threads (the last of them frees the closure on its way out);
/// [`unsubscribe`](Self::unsubscribe) does.
pub struct Subscriber<'m> {
    mspti: &'m Mspti,
    hub: &'static Hub,
    handler: Arc<Handler<MsptiVendor>>,
    subscribed: bool,
}

impl fmt::Debug for Subscriber<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subscriber")
            .field("key", &self.handler.key())
            .field("panics", &self.panics())
            .finish()
    }
}

impl<'m> Subscriber<'m> {
    pub(crate) fn new<F>(mspti: &'m Mspti, callback: F) -> Result<Subscriber<'m>>
    where
        F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
    {
        let hub = hub_for(mspti)?;
        let handler = hub.register(callback, ())?;
        Ok(Subscriber { mspti, hub, handler, subscribed: true })
    }

    /// Enables every callback of `domain` for this subscriber (`msptiEnableDomain(1, ...)` when it
    /// is the first to).
    #[doc(alias = "msptiEnableDomain")]
    pub fn enable_domain(&self, domain: CallbackDomain) -> Result<()> {
        self.mspti.interposition_live()?;
        self.hub.enable(self.key(), Target::Domain(domain.0))
    }

    /// Enables one callback (`msptiEnableCallback(1, ...)` when it is the first to):
    /// `RuntimeCbid::LAUNCH`, `HcclCbid::ALLREDUCE`, or a raw [`CallbackId`]. MSPTI accepts any id
    /// below 64 without checking it belongs to the domain, and never calls back one it does not
    /// define: such an id ([`CallbackId::is_defined`] false) is refused with
    /// [`Error::UnknownCallbackId`](crate::Error::UnknownCallbackId).
    #[doc(alias = "msptiEnableCallback")]
    pub fn enable(&self, id: impl Into<CallbackId>) -> Result<()> {
        let id = id.into();
        if !id.is_defined() && matches!(id.domain, CallbackDomain::RUNTIME | CallbackDomain::HCCL) {
            return Err(crate::Error::UnknownCallbackId(id));
        }
        self.mspti.interposition_live()?;
        self.hub.enable(self.key(), Target::Id(id.domain.0, id.cbid))
    }

    accelprof_core::subscriber_facade! {
        vendor: "MSPTI",
        handler: |s| &s.handler,
        switchboard: {
            hub: |s| s.hub,
            domain: CallbackDomain,
            id: CallbackId,
            alias_domain: "msptiEnableDomain",
            alias_id: "msptiEnableCallback",
            result: Result,
        },
    }

    /// The library.
    pub fn mspti(&self) -> &'m Mspti {
        self.mspti
    }

    /// Unsubscribes (`msptiUnsubscribe` when it is the last subscriber), then waits until no call
    /// of the closure is running on another thread, so that the closure has been dropped when this
    /// returns. Do not call it while holding a lock the closure takes. (Called from inside a
    /// callback it cannot wait: the closure is then dropped when the last call inside it returns.)
    #[doc(alias = "msptiUnsubscribe")]
    pub fn unsubscribe(mut self) -> Result<()> {
        self.subscribed = false;
        self.hub.unregister(self.key(), true)
    }
}

impl Drop for Subscriber<'_> {
    fn drop(&mut self) {
        if self.subscribed {
            let _ = self.hub.unregister(self.key(), false);
        }
    }
}
