//! [`CallbackSite`].

use cupti_sys::CUpti_ApiCallbackSite as Sys;

accelprof_core::id_newtype! {
    /// Where in an API call a callback runs (`CUpti_ApiCallbackSite`): on entry, before the CUDA
    /// function does anything, or on exit, after it returned.
    #[doc(alias = "CUpti_ApiCallbackSite")]
    #[derive(Default)]
    pub struct CallbackSite(pub u32) from Sys {
        /// `CUPTI_API_ENTER`.
        ENTER = Sys::CUPTI_API_ENTER.0;
        /// `CUPTI_API_EXIT`.
        EXIT = Sys::CUPTI_API_EXIT.0;
    }
}

impl CallbackSite {
    /// Whether this is [`CallbackSite::ENTER`].
    pub fn is_enter(self) -> bool {
        self == CallbackSite::ENTER
    }

    /// Whether this is [`CallbackSite::EXIT`].
    pub fn is_exit(self) -> bool {
        self == CallbackSite::EXIT
    }
}
