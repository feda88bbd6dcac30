//! [`Subscriber`]: a closure that receives CUPTI callbacks, and what it has enabled.

use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use accelprof_core::callback::{Handler, Target};

use super::anchor::entry;
use super::data::CallbackData;
use super::vendor::{CuptiVendor, Hub, SubscriptionKind};
use crate::error::Result;
use crate::ids::{CallbackDomain, CallbackId};
use crate::library::Cupti;

impl Cupti {
    /// Subscribes `callback` to CUPTI callbacks. Nothing is enabled yet: call
    /// [`Subscriber::enable_domain`] or [`Subscriber::enable`].
    ///
    /// Every subscriber of a library shares one CUPTI subscription (the first one made takes
    /// it; the last one dropped releases it), so any number may exist although CUPTI before
    /// 13.2 allows one subscriber per process.
    ///
    /// `callback` runs on the application thread, inside the CUDA call, for every enabled
    /// callback: keep it short and non-blocking. A panic in it is caught and counted
    /// ([`Subscriber::panics`]); it never reaches CUPTI.
    ///
    /// The subscriber that makes the library's CUPTI subscription (the first one, or the first
    /// after [`Cupti::release_subscription`]) is served directly while it is the only subscriber
    /// with anything enabled: CUPTI calls a function made for its closure, which reaches it with
    /// no routing table and uses CUPTI's own per-call slot for its [`crate::CorrelationSlot`].
    /// That is the cheapest way to receive callbacks; any other subscriber goes through the
    /// switchboard (a table lookup, an indirect call, per-subscriber slots). If that first
    /// closure owns nothing to drop (it captures nothing, or only `Copy` values and references
    /// to statics), it is kept until the subscription is given back and called with no
    /// bookkeeping at all; see [`Subscriber`]'s drop for what that changes.
    ///
    /// Errors: [`crate::Error::MultipleSubscribers`] when another tool holds CUPTI;
    /// [`crate::Error::Internal`] (13.x) or [`crate::Error::NotInitialized`] (12.x) when no GPU
    /// driver is present.
    ///
    /// ```no_run
    /// use cupti::{CallbackDomain, Cupti};
    ///
    /// let cupti = Cupti::open()?;
    /// let subscriber = cupti.subscribe(|cb| {
    ///     if let Some(call) = cb.api() {
    ///         if call.is_enter() {
    ///             call.correlation_slot().set(42); // read back at this call's EXIT
    ///         }
    ///         println!("{} {:?} #{}", call.site(), call.function_name(), call.correlation_id());
    ///     }
    /// })?;
    /// subscriber.enable_domain(CallbackDomain::RUNTIME_API)?;
    /// # Ok::<(), cupti::Error>(())
    /// ```
    ///
    /// A subscriber borrows its library, so it cannot outlive it (use [`Cupti::global`] for a
    /// `Subscriber<'static>`):
    ///
    /// ```compile_fail,E0597
    /// let subscriber = {
    ///     let cupti = cupti::Cupti::open().unwrap();
    ///     cupti.subscribe(|_| {}).unwrap()
    /// }; // error: `cupti` does not live long enough
    /// drop(subscriber);
    /// ```
    #[doc(alias = "cuptiSubscribe")]
    #[doc(alias = "cuptiSubscribe_v2")]
    pub fn subscribe<F>(&self, callback: F) -> Result<Subscriber<'_>>
    where
        F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
    {
        let hub = self.hub()?;
        // A kept subscription the library no longer knows (a test's mock reset since) is made again.
        hub.forget_if_not_held();
        if hub.subscription().is_none() {
            // Read by the names of the callbacks of the subscription about to be made.
            hub.vendor().version.store(self.api_version(), Ordering::Relaxed);
        }
        let handler = hub.register(callback, entry::<F>)?;
        Ok(Subscriber { cupti: self, hub, handler })
    }

    /// How this library's callback subscription is held right now: `None` before the first
    /// [`Subscriber`] and after [`Cupti::release_subscription`]. Dropping the last subscriber
    /// keeps it (see there); a kept subscription that the library no longer knows (the mock
    /// `libcupti` of `accelprof-mocks` reset between tests) is made again by the next subscriber.
    pub fn subscription(&self) -> Option<SubscriptionKind> {
        let hub = self.hub().ok()?;
        hub.subscription().and(hub.vendor().kind())
    }

    /// Gives CUPTI's callback subscription back, so that another tool can subscribe, once no
    /// [`Subscriber`] is left. Returns `Ok(false)` (and changes nothing) while subscribers
    /// remain or when nothing is held.
    ///
    /// Dropping the last [`Subscriber`] only disables its callbacks and keeps the subscription:
    /// the real CUPTI 13.0.85 and 13.2.86 were seen (H200, driver 580) to crash threads making
    /// CUDA calls while another thread called `cuptiUnsubscribe` (13.5.25 was not). That is why
    /// this is separate, and unsafe.
    ///
    /// # Safety
    /// No thread of the process may be inside, or enter, a CUDA call until this returns.
    #[doc(alias = "cuptiUnsubscribe")]
    pub unsafe fn release_subscription(&self) -> Result<bool> {
        // SAFETY: forwarded to the caller.
        unsafe { self.hub()?.release() }
    }

    /// Whether this library was seen to zero each API call's `correlationData` before the ENTER
    /// callback (CUPTI's headers do not say it does; the releases probed do). The first
    /// subscriber's fast path checks it over its first 4,096 calls, storing a sentinel at each
    /// EXIT, and from then on leaves the zeroing to the library if every ENTER saw 0 (else it
    /// keeps zeroing). `None` until that check has run.
    pub fn zeroes_correlation_slots(&self) -> Option<bool> {
        self.hub().ok()?.vendor().fast.library_zeroes_slots()
    }

    /// The raw `CUpti_SubscriberHandle` that every [`Subscriber`] shares, while one exists: for
    /// CUPTI functions this crate does not wrap that take a subscriber. Enabling or disabling
    /// callbacks through it bypasses the reference counts; and while the subscriber that made the
    /// subscription is the only one that has had anything enabled, whatever CUPTI delivers is
    /// taken as its own (its fast path does not filter), so what you enable here reaches it.
    pub fn raw_subscriber_handle(&self) -> Option<cupti_sys::CUpti_SubscriberHandle> {
        Some(self.hub().ok()?.subscription()? as cupti_sys::CUpti_SubscriberHandle)
    }
}

/// A closure subscribed to CUPTI callbacks, with the domains and ids it enabled.
///
/// Enabling is reference-counted across subscribers: CUPTI delivers a callback while any
/// subscriber has it enabled, and each closure sees only what it enabled itself.
///
/// Dropping it disables what it enabled (for CUPTI, only what no other subscriber still
/// wants), and returns once no callback can reach its closure any more: a callback running
/// on another thread finishes first. Dropped inside a callback (by another subscriber's closure,
/// or its own), no call of its closure starts after the drop, and the closure is freed once no
/// callback can reach it, by a later change to any subscriber (at the latest the next drop of a
/// subscriber outside a callback, which waits for that).
///
/// One exception, for speed: the closure of the subscriber that made the CUPTI subscription,
/// when it owns nothing to drop (see [`Cupti::subscribe`]), is called without marking a read
/// section. Dropping that subscriber stops new calls at once, but a call another thread had
/// already begun may still be running when the drop returns; the closure (which has nothing to
/// free) is kept, and released with the subscription ([`Cupti::release_subscription`]). Give the
/// closure something to own (an `Arc`) if that matters.
pub struct Subscriber<'lib> {
    cupti: &'lib Cupti,
    hub: &'static Hub,
    handler: Arc<Handler<CuptiVendor>>,
}

impl<'lib> Subscriber<'lib> {
    /// Enables every callback of `domain` for this subscriber.
    #[doc(alias = "cuptiEnableDomain")]
    pub fn enable_domain(&self, domain: CallbackDomain) -> Result<()> {
        self.hub.enable(self.key(), Target::Domain(domain.0))
    }

    /// Enables one callback id (`RuntimeCbid::cudaLaunchKernel_v7000`, a `CallbackId`, ...).
    #[doc(alias = "cuptiEnableCallback")]
    pub fn enable(&self, id: impl Into<CallbackId>) -> Result<()> {
        let id = id.into();
        self.hub.enable(self.key(), Target::Id(id.domain.0, id.cbid))
    }

    accelprof_core::subscriber_facade! {
        vendor: "CUPTI",
        handler: |s| &s.handler,
        switchboard: {
            hub: |s| s.hub,
            domain: CallbackDomain,
            id: CallbackId,
            alias_domain: "cuptiEnableDomain",
            alias_id: "cuptiEnableCallback",
            result: Result,
        },
    }

    /// Disables what this subscriber enabled and returns once no callback can reach its closure:
    /// what dropping it does, spelled out (CUPTI keeps no error for it: this returns `Ok`).
    #[doc(alias = "cuptiUnsubscribe")]
    pub fn unsubscribe(self) -> Result<()> {
        drop(self);
        Ok(())
    }

    /// The library.
    pub fn cupti(&self) -> &'lib Cupti {
        self.cupti
    }
}

impl Drop for Subscriber<'_> {
    fn drop(&mut self) {
        // The subscription is kept (see `Cupti::release_subscription`): nothing to report.
        let _ = self.hub.unregister(self.key(), true);
    }
}

impl fmt::Debug for Subscriber<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subscriber").field("key", &self.key()).field("panics", &self.panics()).finish()
    }
}
