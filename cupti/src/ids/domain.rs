//! [`CallbackDomain`].

use cupti_sys::CUpti_CallbackDomain as Sys;

accelprof_core::id_newtype! {
    /// A callback domain (`CUpti_CallbackDomain`): which family of events a callback id belongs to.
    #[doc(alias = "CUpti_CallbackDomain")]
    #[derive(Default)]
    pub struct CallbackDomain(pub u32) from Sys {
        /// CUDA driver API calls (`cu*`); data: an API call.
        DRIVER_API = Sys::CUPTI_CB_DOMAIN_DRIVER_API.0;
        /// CUDA runtime API calls (`cuda*`); data: an API call.
        RUNTIME_API = Sys::CUPTI_CB_DOMAIN_RUNTIME_API.0;
        /// Creation and destruction of contexts, streams, modules, graphs.
        RESOURCE = Sys::CUPTI_CB_DOMAIN_RESOURCE.0;
        /// Completed stream and context synchronizations.
        SYNCHRONIZE = Sys::CUPTI_CB_DOMAIN_SYNCHRONIZE.0;
        /// NVTX calls (markers and ranges).
        NVTX = Sys::CUPTI_CB_DOMAIN_NVTX.0;
        /// CUPTI state notifications (errors, warnings).
        STATE = Sys::CUPTI_CB_DOMAIN_STATE.0;
    }
}

impl CallbackDomain {
    /// Whether callbacks of this domain carry `CUpti_CallbackData` (an API call with ENTER and
    /// EXIT sites, parameters, a return value and the correlation slot).
    pub fn is_api(self) -> bool {
        self == CallbackDomain::DRIVER_API || self == CallbackDomain::RUNTIME_API
    }
}
