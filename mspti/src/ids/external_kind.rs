//! External correlation kinds (`msptiExternalCorrelationKind`).

use mspti_sys as sys;

id_newtype! {
    /// Which of the caller's id spaces an external correlation id belongs to. MSPTI keeps one
    /// stack per kind, shared by every thread of the process.
    pub struct ExternalKind(u32) from sys::msptiExternalCorrelationKind;
    /// `MSPTI_EXTERNAL_CORRELATION_KIND_INVALID` (0).
    INVALID = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_INVALID, "INVALID";
    /// `MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN` (1).
    UNKNOWN = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN, "UNKNOWN";
    /// `MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0` (2).
    CUSTOM0 = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, "CUSTOM0";
    /// `MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1` (3).
    CUSTOM1 = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, "CUSTOM1";
    /// `MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2` (4).
    CUSTOM2 = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, "CUSTOM2";
}
