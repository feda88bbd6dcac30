//! Callback domains (`msptiCallbackDomain`).

use mspti_sys as sys;

id_newtype! {
    /// A group of API functions whose calls can be intercepted.
    pub struct Domain(u32) from sys::msptiCallbackDomain;
    /// `MSPTI_CB_DOMAIN_INVALID` (0).
    INVALID = sys::msptiCallbackDomain::MSPTI_CB_DOMAIN_INVALID, "INVALID";
    /// `MSPTI_CB_DOMAIN_RUNTIME` (1): the CANN runtime's `aclrt*` functions.
    RUNTIME = sys::msptiCallbackDomain::MSPTI_CB_DOMAIN_RUNTIME, "RUNTIME";
    /// `MSPTI_CB_DOMAIN_HCCL` (2): HCCL collective communication.
    HCCL = sys::msptiCallbackDomain::MSPTI_CB_DOMAIN_HCCL, "HCCL";
}
