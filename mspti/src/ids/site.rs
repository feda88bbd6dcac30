//! Where in an API call a callback runs (`msptiApiCallbackSite`).

use mspti_sys as sys;

accelprof_core::id_newtype! {
    /// Where in an API call a callback runs (`msptiApiCallbackSite`): ENTER (before the API
    /// function runs) or EXIT (after it returned).
    #[doc(alias = "msptiApiCallbackSite")]
    #[derive(Default)]
    pub struct CallbackSite(pub u32) from sys::msptiApiCallbackSite {
        /// `MSPTI_API_ENTER` (0).
        ENTER = sys::msptiApiCallbackSite::MSPTI_API_ENTER.0;
        /// `MSPTI_API_EXIT` (1).
        EXIT = sys::msptiApiCallbackSite::MSPTI_API_EXIT.0;
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
