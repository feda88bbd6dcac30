//! Where in an API call a callback runs (`msptiApiCallbackSite`).

use mspti_sys as sys;

id_newtype! {
    /// ENTER (before the API function runs) or EXIT (after it returned).
    pub struct Site(u32) from sys::msptiApiCallbackSite;
    /// `MSPTI_API_ENTER` (0).
    ENTER = sys::msptiApiCallbackSite::MSPTI_API_ENTER, "ENTER";
    /// `MSPTI_API_EXIT` (1).
    EXIT = sys::msptiApiCallbackSite::MSPTI_API_EXIT, "EXIT";
}
