//! Callback domains (`msptiCallbackDomain`).

use mspti_sys as sys;

accelprof_core::id_newtype! {
    /// A callback domain (`msptiCallbackDomain`): a group of API functions whose calls can be
    /// intercepted.
    #[doc(alias = "msptiCallbackDomain")]
    #[derive(Default)]
    pub struct CallbackDomain(pub u32) from sys::msptiCallbackDomain {
        /// `MSPTI_CB_DOMAIN_INVALID` (0).
        INVALID = sys::msptiCallbackDomain::MSPTI_CB_DOMAIN_INVALID.0;
        /// `MSPTI_CB_DOMAIN_RUNTIME` (1): the CANN runtime's `aclrt*` functions.
        RUNTIME = sys::msptiCallbackDomain::MSPTI_CB_DOMAIN_RUNTIME.0;
        /// `MSPTI_CB_DOMAIN_HCCL` (2): HCCL collective communication.
        HCCL = sys::msptiCallbackDomain::MSPTI_CB_DOMAIN_HCCL.0;
    }
}

impl CallbackDomain {
    /// The runtime's domain under the name every vendor crate gives it ([`CallbackDomain::RUNTIME`]).
    pub const RUNTIME_API: CallbackDomain = CallbackDomain::RUNTIME;
}
