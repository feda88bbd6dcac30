//! [`CallbackSite`]: the SDK's callback phase.

use rocprofiler_sys::rocprofiler_callback_phase_t as Sys;

accelprof_core::id_newtype! {
    /// Where in a traced call a callback runs: the SDK's *phase* (`rocprofiler_callback_phase_t`).
    #[doc(alias = "rocprofiler_callback_phase_t")]
    #[doc(alias = "phase")]
    #[doc(alias = "Phase")]
    pub struct CallbackSite(pub u32) from Sys {
        /// Events without a phase (completions).
        NONE = Sys::ROCPROFILER_CALLBACK_PHASE_NONE.0;
        /// Before the call (also: code object load).
        ENTER = Sys::ROCPROFILER_CALLBACK_PHASE_ENTER.0;
        /// After the call (also: code object unload).
        EXIT = Sys::ROCPROFILER_CALLBACK_PHASE_EXIT.0;
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
