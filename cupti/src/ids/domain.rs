//! [`CallbackDomain`].

use std::fmt;

use cupti_sys::CUpti_CallbackDomain as Sys;

/// A callback domain (`CUpti_CallbackDomain`): which family of events a callback id belongs to.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CallbackDomain(pub u32);

impl CallbackDomain {
    /// CUDA driver API calls (`cu*`); data: an API call.
    pub const DRIVER_API: CallbackDomain = CallbackDomain(Sys::CUPTI_CB_DOMAIN_DRIVER_API.0);
    /// CUDA runtime API calls (`cuda*`); data: an API call.
    pub const RUNTIME_API: CallbackDomain = CallbackDomain(Sys::CUPTI_CB_DOMAIN_RUNTIME_API.0);
    /// Creation and destruction of contexts, streams, modules, graphs.
    pub const RESOURCE: CallbackDomain = CallbackDomain(Sys::CUPTI_CB_DOMAIN_RESOURCE.0);
    /// Completed stream and context synchronizations.
    pub const SYNCHRONIZE: CallbackDomain = CallbackDomain(Sys::CUPTI_CB_DOMAIN_SYNCHRONIZE.0);
    /// NVTX calls (markers and ranges).
    pub const NVTX: CallbackDomain = CallbackDomain(Sys::CUPTI_CB_DOMAIN_NVTX.0);
    /// CUPTI state notifications (errors, warnings).
    pub const STATE: CallbackDomain = CallbackDomain(Sys::CUPTI_CB_DOMAIN_STATE.0);

    /// Every domain of the 13.0 headers.
    pub const ALL: [CallbackDomain; 6] = [
        CallbackDomain::DRIVER_API,
        CallbackDomain::RUNTIME_API,
        CallbackDomain::RESOURCE,
        CallbackDomain::SYNCHRONIZE,
        CallbackDomain::NVTX,
        CallbackDomain::STATE,
    ];

    /// `"DRIVER_API"`, ..., or `None` for a domain this crate does not know.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            CallbackDomain::DRIVER_API => "DRIVER_API",
            CallbackDomain::RUNTIME_API => "RUNTIME_API",
            CallbackDomain::RESOURCE => "RESOURCE",
            CallbackDomain::SYNCHRONIZE => "SYNCHRONIZE",
            CallbackDomain::NVTX => "NVTX",
            CallbackDomain::STATE => "STATE",
            _ => return None,
        })
    }

    /// Whether callbacks of this domain carry `CUpti_CallbackData` (an API call with ENTER and
    /// EXIT sites, parameters, a return value and the correlation slot).
    pub fn is_api(self) -> bool {
        self == CallbackDomain::DRIVER_API || self == CallbackDomain::RUNTIME_API
    }

    /// The raw value.
    pub const fn raw(self) -> u32 {
        self.0
    }
}

impl From<Sys> for CallbackDomain {
    fn from(d: Sys) -> Self {
        CallbackDomain(d.0)
    }
}

impl From<CallbackDomain> for Sys {
    fn from(d: CallbackDomain) -> Self {
        Sys(d.0)
    }
}

impl fmt::Debug for CallbackDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "CallbackDomain::{n}"),
            None => write!(f, "CallbackDomain({})", self.0),
        }
    }
}

impl fmt::Display for CallbackDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "domain {}", self.0),
        }
    }
}
