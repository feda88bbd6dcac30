//! What a callback closure sees about one ENTER or EXIT.

use std::ffi::CStr;

use accelprof_core::callback::CorrelationSlot;

use crate::ids::{CallbackDomain, CallbackId, CallbackSite};

/// One callback: which API function, ENTER or EXIT, its name, and the entry/exit
/// [`CorrelationSlot`].
///
/// MSPTI's `msptiCallbackData` also has `correlationId`, `correlationData`, `functionParams`,
/// `functionReturnValue` and `symbolName`, but the real library leaves them uninitialised
/// (stack garbage that differs between ENTER and EXIT), so they are not exposed: correlate
/// with activity records through the API records' correlation ids instead, and use
/// [`CallbackData::correlation_slot`] for the entry/exit data.
#[derive(Debug)]
pub struct CallbackData<'a> {
    pub(crate) id: CallbackId,
    pub(crate) site: CallbackSite,
    pub(crate) function_name: Option<&'a CStr>,
    pub(crate) slot: CorrelationSlot<'a>,
}

impl<'a> CallbackData<'a> {
    /// The function's domain.
    pub fn domain(&self) -> CallbackDomain {
        self.id.domain
    }

    /// The function (`RuntimeCbid::LAUNCH.id()`; typed with [`CallbackId::runtime`] and
    /// [`CallbackId::hccl`]).
    pub fn id(&self) -> CallbackId {
        self.id
    }

    /// ENTER or EXIT.
    pub fn site(&self) -> CallbackSite {
        self.site
    }

    /// At the API call's entry.
    pub fn is_enter(&self) -> bool {
        self.site.is_enter()
    }

    /// At the API call's exit.
    pub fn is_exit(&self) -> bool {
        self.site.is_exit()
    }

    /// The API function's name as MSPTI reports it (`"aclrtLaunchKernel"`), if valid UTF-8.
    pub fn function_name(&self) -> Option<&'a str> {
        self.function_name.and_then(|n| n.to_str().ok())
    }

    /// The API function's name as MSPTI passed it.
    pub fn function_name_cstr(&self) -> Option<&'a CStr> {
        self.function_name
    }

    /// The `u64` shared by this call's ENTER and EXIT on this thread, this subscriber's own: store
    /// at ENTER, read at EXIT. Kept by this crate (MSPTI's own pointer is garbage); nested calls
    /// each get their own. [`CorrelationSlot::paired`] is false at an EXIT whose ENTER this
    /// subscriber did not see (its id was enabled in the middle of the call, or switched off and on
    /// again since that ENTER).
    ///
    /// Only usable inside the callback it was given to (it is neither `Send` nor `'static`):
    ///
    /// ```compile_fail
    /// let mspti = mspti::Mspti::open().unwrap();
    /// let kept = std::sync::Mutex::new(None);
    /// let _sub = mspti.subscribe(move |cb| {
    ///     *kept.lock().unwrap() = Some(cb.correlation_slot()); // error: the slot cannot leave the callback
    /// });
    /// ```
    pub fn correlation_slot(&self) -> CorrelationSlot<'a> {
        self.slot
    }
}
