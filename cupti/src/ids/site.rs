//! [`CallbackSite`].

use std::fmt;

use cupti_sys::CUpti_ApiCallbackSite as Sys;

/// Where in an API call a callback runs (`CUpti_ApiCallbackSite`): on entry, before the CUDA
/// function does anything, or on exit, after it returned.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CallbackSite(pub u32);

impl CallbackSite {
    /// `CUPTI_API_ENTER`.
    pub const ENTER: CallbackSite = CallbackSite(Sys::CUPTI_API_ENTER.0);
    /// `CUPTI_API_EXIT`.
    pub const EXIT: CallbackSite = CallbackSite(Sys::CUPTI_API_EXIT.0);

    /// Whether this is [`CallbackSite::ENTER`].
    pub fn is_enter(self) -> bool {
        self == CallbackSite::ENTER
    }

    /// Whether this is [`CallbackSite::EXIT`].
    pub fn is_exit(self) -> bool {
        self == CallbackSite::EXIT
    }

    /// The raw value.
    pub const fn raw(self) -> u32 {
        self.0
    }
}

impl From<Sys> for CallbackSite {
    fn from(s: Sys) -> Self {
        CallbackSite(s.0)
    }
}

impl fmt::Debug for CallbackSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CallbackSite::ENTER => f.write_str("CallbackSite::ENTER"),
            CallbackSite::EXIT => f.write_str("CallbackSite::EXIT"),
            CallbackSite(other) => write!(f, "CallbackSite({other})"),
        }
    }
}

impl fmt::Display for CallbackSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CallbackSite::ENTER => f.write_str("ENTER"),
            CallbackSite::EXIT => f.write_str("EXIT"),
            CallbackSite(other) => write!(f, "site {other}"),
        }
    }
}
