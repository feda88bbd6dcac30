//! What a callback closure sees about one ENTER or EXIT.

use std::ffi::CStr;

use super::slot::Slot;
use crate::ids::{CallbackId, Domain, Site};

/// One callback: which API function, ENTER or EXIT, its name, and the entry/exit [`Slot`].
///
/// MSPTI's `msptiCallbackData` also has `correlationId`, `correlationData`, `functionParams`,
/// `functionReturnValue` and `symbolName`, but the real library leaves them uninitialised
/// (stack garbage that differs between ENTER and EXIT), so they are not exposed: correlate
/// with activity records through the API records' correlation ids instead, and use
/// [`CallbackData::slot`] for the entry/exit data.
#[derive(Debug)]
pub struct CallbackData<'a> {
    pub(crate) id: CallbackId,
    pub(crate) site: Site,
    pub(crate) function_name: Option<&'a CStr>,
    pub(crate) slot: Slot<'a>,
}

impl<'a> CallbackData<'a> {
    /// The function's domain.
    pub fn domain(&self) -> Domain {
        self.id.domain()
    }

    /// The function, typed by domain (`CallbackId::Runtime(RuntimeCbid::LAUNCH)`).
    pub fn id(&self) -> CallbackId {
        self.id
    }

    /// ENTER or EXIT.
    pub fn site(&self) -> Site {
        self.site
    }

    /// At the API call's entry.
    pub fn is_enter(&self) -> bool {
        self.site == Site::ENTER
    }

    /// At the API call's exit.
    pub fn is_exit(&self) -> bool {
        self.site == Site::EXIT
    }

    /// The API function's name as MSPTI reports it (`"aclrtLaunchKernel"`), if valid UTF-8.
    pub fn function_name(&self) -> Option<&'a str> {
        self.function_name.and_then(|n| n.to_str().ok())
    }

    /// The API function's name as MSPTI passed it.
    pub fn function_name_cstr(&self) -> Option<&'a CStr> {
        self.function_name
    }

    /// The `u64` shared by this call's ENTER and EXIT on this thread: store at ENTER, read at
    /// EXIT. Kept by this crate (MSPTI's own pointer is garbage); nested calls each get their own.
    pub fn slot(&self) -> &Slot<'a> {
        &self.slot
    }
}
