//! [`Subscriber`]: the RAII subscription.

use std::ffi::c_void;

use mspti_sys::msptiSubscriberHandle;

use super::data::CallbackData;
use super::epoch;
use super::registration::Registration;
use super::trampoline::trampoline;
use crate::error::{check, Result};
use crate::ids::{CallbackId, Domain};
use crate::Mspti;

/// A subscription to MSPTI's API callbacks. Dropping it unsubscribes.
///
/// Created by [`Mspti::subscribe`]. Enable what to receive with [`enable_domain`](Self::enable_domain)
/// and [`enable_callback`](Self::enable_callback) (they need `libmspti.so` preloaded, see
/// [`crate::preload`]: [`Error::WithoutLdPreload`](crate::Error::WithoutLdPreload) or
/// [`Error::InterpositionNotLive`](crate::Error::InterpositionNotLive) otherwise).
///
/// MSPTI checks at each ENTER and each EXIT whether the id is enabled: a call in flight while its
/// id is switched off delivers its ENTER but not its EXIT, one in flight while it is switched on
/// delivers an EXIT without ENTER (its [`Slot`](crate::Slot) is then unpaired, 0).
///
/// After unsubscribing (drop or [`unsubscribe`](Self::unsubscribe)) no call of the closure
/// starts; MSPTI may still call in late (it does not wait for callbacks in flight), which this
/// crate absorbs. Dropping does not wait for calls already running on other threads;
/// [`unsubscribe`](Self::unsubscribe) does.
#[derive(Debug)]
pub struct Subscriber<'m> {
    mspti: &'m Mspti,
    handle: msptiSubscriberHandle,
    registration: &'static Registration,
    subscribed: bool,
}

// SAFETY: the handle is an opaque token MSPTI accepts from any thread; the registration is
// `Sync`.
unsafe impl Send for Subscriber<'_> {}
// SAFETY: `&Subscriber` only reads the token; enabling needs `&mut`.
unsafe impl Sync for Subscriber<'_> {}

impl std::fmt::Debug for Registration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registration").field("generation", &self.generation()).finish_non_exhaustive()
    }
}

impl<'m> Subscriber<'m> {
    pub(crate) fn new<F>(mspti: &'m Mspti, callback: F) -> Result<Subscriber<'m>>
    where
        F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
    {
        let registration = Registration::leak(callback);
        let mut handle: msptiSubscriberHandle = std::ptr::null_mut();
        let userdata = (registration as *const Registration).cast_mut().cast::<c_void>();
        // SAFETY: `handle` is a valid out-pointer; the trampoline matches `F` and `userdata` is
        // the registration it expects, which is never freed once MSPTI has it.
        let result = check(
            unsafe { mspti.sys().msptiSubscribe(&mut handle, Some(trampoline::<F>), userdata) },
            "subscriber",
        );
        if let Err(e) = result {
            // SAFETY: MSPTI refused the subscription, so it never kept `userdata`.
            unsafe { Registration::free_unregistered(registration) };
            return Err(e);
        }
        super::SUBSCRIBED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(Subscriber { mspti, handle, registration, subscribed: true })
    }

    /// Enables every callback of `domain` (`msptiEnableDomain(1, ...)`).
    #[doc(alias = "msptiEnableDomain")]
    pub fn enable_domain(&mut self, domain: Domain) -> Result<()> {
        self.set_domain(1, domain)
    }

    /// Disables every callback of `domain`.
    pub fn disable_domain(&mut self, domain: Domain) -> Result<()> {
        self.set_domain(0, domain)
    }

    /// Enables one callback (`msptiEnableCallback(1, ...)`): `RuntimeCbid::LAUNCH`,
    /// `HcclCbid::ALLREDUCE`, or a raw [`CallbackId`]. MSPTI accepts any id below 64 without
    /// checking it belongs to the domain.
    #[doc(alias = "msptiEnableCallback")]
    pub fn enable_callback(&mut self, id: impl Into<CallbackId>) -> Result<()> {
        self.set_callback(1, id.into())
    }

    /// Disables one callback.
    pub fn disable_callback(&mut self, id: impl Into<CallbackId>) -> Result<()> {
        self.set_callback(0, id.into())
    }

    fn set_domain(&mut self, enable: u32, domain: Domain) -> Result<()> {
        if enable != 0 {
            self.mspti.interposition_live()?;
        }
        // SAFETY: our live handle; plain values (MSPTI checks the domain).
        let r = check(
            unsafe { self.mspti.sys().msptiEnableDomain(enable, self.handle, domain.into()) },
            "domain",
        );
        if enable == 0 {
            // Calls in flight now lose their EXIT: their frames must not pair with later EXITs.
            epoch::domain_switched_off(domain.0);
        }
        r
    }

    fn set_callback(&mut self, enable: u32, id: CallbackId) -> Result<()> {
        if enable != 0 {
            self.mspti.interposition_live()?;
        }
        let (domain, cbid) = (id.domain(), id.raw());
        // SAFETY: our live handle; plain values (MSPTI accepts ids below 64 of a known domain).
        let r = check(
            unsafe { self.mspti.sys().msptiEnableCallback(enable, self.handle, domain.into(), cbid) },
            "domain or callback id (MSPTI accepts ids below 64)",
        );
        if enable == 0 {
            // Calls in flight now lose their EXIT: their frames must not pair with later EXITs.
            epoch::switched_off(domain.0, cbid);
        }
        r
    }

    /// Unsubscribes, then waits until no call of the closure is running on another thread,
    /// so that the closure has been dropped when this returns. Do not call it while holding a
    /// lock the closure takes. (Called from inside the closure itself it cannot wait for
    /// itself: the closure is then dropped when that call returns.)
    #[doc(alias = "msptiUnsubscribe")]
    pub fn unsubscribe(mut self) -> Result<()> {
        let result = self.retire();
        if !super::inside_callback() {
            // Until the closure's drop has returned: a call that was inside it drops it on its
            // way out, after its count of calls in flight already reads zero.
            while !self.registration.closure_dropped() {
                std::thread::yield_now();
            }
        }
        result
    }

    /// Whether the closure has been dropped (after unsubscribing, once no call is inside it).
    pub fn closure_dropped(&self) -> bool {
        self.registration.closure_dropped()
    }

    fn retire(&mut self) -> Result<()> {
        if !self.subscribed {
            return Ok(());
        }
        self.subscribed = false;
        // SAFETY: our live handle.
        let result = check(unsafe { self.mspti.sys().msptiUnsubscribe(self.handle) }, "subscriber");
        super::SUBSCRIBED.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        self.registration.retire();
        result
    }
}

impl Drop for Subscriber<'_> {
    fn drop(&mut self) {
        let _ = self.retire();
    }
}
