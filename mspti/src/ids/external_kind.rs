//! External correlation kinds (`msptiExternalCorrelationKind`).

use mspti_sys as sys;

accelprof_core::id_newtype! {
    /// Which of the caller's id spaces an external correlation id belongs to. MSPTI keeps one
    /// stack per kind, shared by every thread of the process.
    #[doc(alias = "msptiExternalCorrelationKind")]
    #[derive(Default)]
    pub struct ExternalKind(pub u32) from sys::msptiExternalCorrelationKind {
        /// `MSPTI_EXTERNAL_CORRELATION_KIND_INVALID` (0).
        INVALID = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_INVALID.0;
        /// `MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN` (1).
        UNKNOWN = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN.0;
        /// `MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0` (2).
        CUSTOM0 = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0.0;
        /// `MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1` (3).
        CUSTOM1 = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1.0;
        /// `MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2` (4).
        CUSTOM2 = sys::msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2.0;
    }
}
