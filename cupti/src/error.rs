//! One error type: the CUPTI result codes a caller can act on, every other code kept raw, the
//! loader's errors and the activity session's.

use std::fmt;

use accelprof_core::activity::ActivityError;
use cupti_sys::{CUptiResult, LoadError, MissingSymbol};

accelprof_core::vendor_result_code! {
    /// A `CUptiResult` value: any value is representable, including codes newer than this crate.
    CUptiResult, "CUPTI_SUCCESS"
}

/// The name of every result code of the headers this crate was generated from.
const NAMES: &[(CUptiResult, &str)] = {
    use CUptiResult as R;
    &[
        (R::CUPTI_SUCCESS, "CUPTI_SUCCESS"),
        (R::CUPTI_ERROR_INVALID_PARAMETER, "CUPTI_ERROR_INVALID_PARAMETER"),
        (R::CUPTI_ERROR_INVALID_DEVICE, "CUPTI_ERROR_INVALID_DEVICE"),
        (R::CUPTI_ERROR_INVALID_CONTEXT, "CUPTI_ERROR_INVALID_CONTEXT"),
        (R::CUPTI_ERROR_INVALID_EVENT_DOMAIN_ID, "CUPTI_ERROR_INVALID_EVENT_DOMAIN_ID"),
        (R::CUPTI_ERROR_INVALID_EVENT_ID, "CUPTI_ERROR_INVALID_EVENT_ID"),
        (R::CUPTI_ERROR_INVALID_EVENT_NAME, "CUPTI_ERROR_INVALID_EVENT_NAME"),
        (R::CUPTI_ERROR_INVALID_OPERATION, "CUPTI_ERROR_INVALID_OPERATION"),
        (R::CUPTI_ERROR_OUT_OF_MEMORY, "CUPTI_ERROR_OUT_OF_MEMORY"),
        (R::CUPTI_ERROR_HARDWARE, "CUPTI_ERROR_HARDWARE"),
        (R::CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT, "CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT"),
        (R::CUPTI_ERROR_API_NOT_IMPLEMENTED, "CUPTI_ERROR_API_NOT_IMPLEMENTED"),
        (R::CUPTI_ERROR_MAX_LIMIT_REACHED, "CUPTI_ERROR_MAX_LIMIT_REACHED"),
        (R::CUPTI_ERROR_NOT_READY, "CUPTI_ERROR_NOT_READY"),
        (R::CUPTI_ERROR_NOT_COMPATIBLE, "CUPTI_ERROR_NOT_COMPATIBLE"),
        (R::CUPTI_ERROR_NOT_INITIALIZED, "CUPTI_ERROR_NOT_INITIALIZED"),
        (R::CUPTI_ERROR_INVALID_METRIC_ID, "CUPTI_ERROR_INVALID_METRIC_ID"),
        (R::CUPTI_ERROR_INVALID_METRIC_NAME, "CUPTI_ERROR_INVALID_METRIC_NAME"),
        (R::CUPTI_ERROR_QUEUE_EMPTY, "CUPTI_ERROR_QUEUE_EMPTY"),
        (R::CUPTI_ERROR_INVALID_HANDLE, "CUPTI_ERROR_INVALID_HANDLE"),
        (R::CUPTI_ERROR_INVALID_STREAM, "CUPTI_ERROR_INVALID_STREAM"),
        (R::CUPTI_ERROR_INVALID_KIND, "CUPTI_ERROR_INVALID_KIND"),
        (R::CUPTI_ERROR_INVALID_EVENT_VALUE, "CUPTI_ERROR_INVALID_EVENT_VALUE"),
        (R::CUPTI_ERROR_DISABLED, "CUPTI_ERROR_DISABLED"),
        (R::CUPTI_ERROR_INVALID_MODULE, "CUPTI_ERROR_INVALID_MODULE"),
        (R::CUPTI_ERROR_INVALID_METRIC_VALUE, "CUPTI_ERROR_INVALID_METRIC_VALUE"),
        (R::CUPTI_ERROR_HARDWARE_BUSY, "CUPTI_ERROR_HARDWARE_BUSY"),
        (R::CUPTI_ERROR_NOT_SUPPORTED, "CUPTI_ERROR_NOT_SUPPORTED"),
        (R::CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED, "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED"),
        (
            R::CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE,
            "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE",
        ),
        (
            R::CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_NON_P2P_DEVICES,
            "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_NON_P2P_DEVICES",
        ),
        (
            R::CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_WITH_MPS,
            "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_WITH_MPS",
        ),
        (R::CUPTI_ERROR_CDP_TRACING_NOT_SUPPORTED, "CUPTI_ERROR_CDP_TRACING_NOT_SUPPORTED"),
        (R::CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED"),
        (R::CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE, "CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE"),
        (R::CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"),
        (R::CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED, "CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED"),
        (R::CUPTI_ERROR_OPENACC_UNDEFINED_ROUTINE, "CUPTI_ERROR_OPENACC_UNDEFINED_ROUTINE"),
        (R::CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED, "CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED"),
        (R::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"),
        (
            R::CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES,
            "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES",
        ),
        (
            R::CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED,
            "CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED",
        ),
        (R::CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED"),
        (R::CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED"),
        (R::CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED"),
        (R::CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED"),
        (R::CUPTI_ERROR_INVALID_CHIP_NAME, "CUPTI_ERROR_INVALID_CHIP_NAME"),
        (R::CUPTI_ERROR_UNKNOWN, "CUPTI_ERROR_UNKNOWN"),
    ]
};

impl ResultCode {
    /// `CUPTI_ERROR_INVALID_PARAMETER`.
    pub const INVALID_PARAMETER: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_INVALID_PARAMETER.0);
    /// `CUPTI_ERROR_INVALID_OPERATION`.
    pub const INVALID_OPERATION: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_INVALID_OPERATION.0);
    /// `CUPTI_ERROR_OUT_OF_MEMORY`.
    pub const OUT_OF_MEMORY: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_OUT_OF_MEMORY.0);
    /// `CUPTI_ERROR_API_NOT_IMPLEMENTED`.
    pub const API_NOT_IMPLEMENTED: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_API_NOT_IMPLEMENTED.0);
    /// `CUPTI_ERROR_MAX_LIMIT_REACHED`.
    pub const MAX_LIMIT_REACHED: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_MAX_LIMIT_REACHED.0);
    /// `CUPTI_ERROR_NOT_COMPATIBLE`.
    pub const NOT_COMPATIBLE: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_NOT_COMPATIBLE.0);
    /// `CUPTI_ERROR_NOT_INITIALIZED`.
    pub const NOT_INITIALIZED: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_NOT_INITIALIZED.0);
    /// `CUPTI_ERROR_QUEUE_EMPTY`.
    pub const QUEUE_EMPTY: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_QUEUE_EMPTY.0);
    /// `CUPTI_ERROR_INVALID_KIND`.
    pub const INVALID_KIND: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_INVALID_KIND.0);
    /// `CUPTI_ERROR_NOT_SUPPORTED`.
    pub const NOT_SUPPORTED: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_NOT_SUPPORTED.0);
    /// `CUPTI_ERROR_INSUFFICIENT_PRIVILEGES`.
    pub const INSUFFICIENT_PRIVILEGES: ResultCode =
        ResultCode(CUptiResult::CUPTI_ERROR_INSUFFICIENT_PRIVILEGES.0);
    /// `CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED`.
    pub const MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: ResultCode =
        ResultCode(CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED.0);
    /// `CUPTI_ERROR_UNKNOWN` (999): CUPTI's internal error ([`Error::Internal`]).
    pub const INTERNAL: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_UNKNOWN.0);

    /// The code's C name in the headers this crate was generated from (`"CUPTI_ERROR_INVALID_KIND"`);
    /// `None` for a code they do not have (a newer library's: [`crate::Cupti::result_string`] asks the
    /// library).
    pub fn name(self) -> Option<&'static str> {
        NAMES.iter().find(|(code, _)| code.0 == self.0).map(|(_, name)| *name)
    }
}

const NO_DRIVER: &str =
    "CUPTI returns this when no NVIDIA GPU driver is loaded in the process (no GPU, no driver \
     installed, or the driver failed to initialise): check `nvidia-smi`";

/// What went wrong.
///
/// The CUPTI result codes a caller can act on have a variant each; every other code is
/// [`Error::Unknown`], with the raw value and the library's own name for it. `Debug` prints the same
/// sentence as `Display`, so `fn main() -> Result<(), cupti::Error>` tells the user what to do.
#[derive(Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `CUPTI_ERROR_INVALID_PARAMETER` (1).
    #[error("CUPTI rejected a parameter of {function} (CUPTI_ERROR_INVALID_PARAMETER)")]
    InvalidParameter {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_INVALID_OPERATION` (7).
    #[error("{function} is not allowed now (CUPTI_ERROR_INVALID_OPERATION)")]
    InvalidOperation {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_OUT_OF_MEMORY` (8).
    #[error("CUPTI ran out of memory in {function} (CUPTI_ERROR_OUT_OF_MEMORY)")]
    OutOfMemory {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_API_NOT_IMPLEMENTED` (11): this CUPTI version does not implement the call.
    #[error("this CUPTI version does not implement {function} (CUPTI_ERROR_API_NOT_IMPLEMENTED)")]
    ApiNotImplemented {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_MAX_LIMIT_REACHED` (12).
    #[error("CUPTI reached a limit in {function} (CUPTI_ERROR_MAX_LIMIT_REACHED)")]
    MaxLimitReached {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_NOT_COMPATIBLE` (14).
    #[error(
        "{function} is not compatible with how CUPTI is used in this process (CUPTI_ERROR_NOT_COMPATIBLE)"
    )]
    NotCompatible {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_NOT_INITIALIZED` (15). CUPTI 12.x returns it from `cuptiSubscribe` when no
    /// GPU driver is present.
    #[error("{function}: CUPTI is not initialized (CUPTI_ERROR_NOT_INITIALIZED); CUPTI 12.x {NO_DRIVER}")]
    NotInitialized {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_QUEUE_EMPTY` (18).
    #[error("nothing to pop in {function} (CUPTI_ERROR_QUEUE_EMPTY)")]
    QueueEmpty {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_INVALID_KIND` (21).
    #[error("{function}: this CUPTI does not know the activity kind (CUPTI_ERROR_INVALID_KIND)")]
    InvalidKind {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_NOT_SUPPORTED` (27).
    #[error("{function} is not supported on this device or platform (CUPTI_ERROR_NOT_SUPPORTED)")]
    NotSupported {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_INSUFFICIENT_PRIVILEGES` (35).
    #[error(
        "{function}: insufficient privileges (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES); GPU performance counters \
         need admin rights unless the driver allows them (NVreg_RestrictProfilingToAdminUsers=0)"
    )]
    InsufficientPrivileges {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// `CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED` (39): another subscriber holds CUPTI.
    ///
    /// Before CUPTI 13.2 a process has one callback subscriber. Every [`crate::Subscriber`] of
    /// one library shares a single subscription, so this means *another* tool holds it (Nsight
    /// Systems, a framework profiler such as PyTorch's Kineto, or a raw `cuptiSubscribe`).
    #[error(
        "{function}: another CUPTI subscriber is active in this process{} \
         (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED). Before CUPTI 13.2 a process has one \
         subscriber; every cupti::Subscriber shares one subscription, so another tool (Nsight Systems, \
         a framework profiler, a raw cuptiSubscribe) holds it: stop that tool, or upgrade to CUPTI \
         13.2+, where tools that allow it can coexist",
        holder.as_deref().map(|h| format!(" (held by \"{h}\")")).unwrap_or_default()
    )]
    MultipleSubscribers {
        /// The CUPTI function that failed.
        function: &'static str,
        /// The name the holder subscribed under, when CUPTI told us (13.0+).
        holder: Option<String>,
    },
    /// `CUPTI_ERROR_UNKNOWN` (999): an internal error of CUPTI's. CUPTI 13.x returns it from
    /// `cuptiSubscribe` when no GPU driver is present.
    #[error(
        "{function} failed with CUPTI_ERROR_UNKNOWN (an internal error of CUPTI's); CUPTI 13.x {NO_DRIVER}"
    )]
    Internal {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// Any other result code, kept raw, with the library's own name for it when it has one.
    #[error(
        "{function} failed: {} (CUPTI result {})",
        name.as_deref().unwrap_or("a result code this crate does not know"),
        code.0
    )]
    Unknown {
        /// The CUPTI function that failed.
        function: &'static str,
        /// The raw result.
        code: ResultCode,
        /// Its name, from the headers or from `cuptiGetResultString`.
        name: Option<String>,
    },
    /// `libcupti` could not be found; the message lists every place tried.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The opened `libcupti` lacks a function (an older CUPTI); only that call fails.
    #[error("{0}")]
    MissingSymbol(#[from] MissingSymbol),
    /// The activity session refused or could not finish a call (another session running, a flush from
    /// inside a consumer, a fence that timed out, its decode thread, ...).
    #[error("{0}")]
    Activity(#[from] ActivityError),
    /// The fence's device synchronization ([`DeviceSync`](crate::activity::DeviceSync)) failed.
    #[error("fence: the device synchronization failed: {0}")]
    DeviceSync(String),
}

impl fmt::Debug for Error {
    /// The `Display` sentence (what `fn main() -> Result<(), cupti::Error>` prints).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// `Result<T, cupti::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The error for result `code` of `function`, `None` for `CUPTI_SUCCESS`. A code without a variant
    /// of its own is [`Error::Unknown`], named from the headers (see [`crate::Cupti::result_string`] for
    /// the library's own name).
    pub fn from_code(code: ResultCode, function: &'static str) -> Option<Error> {
        Some(match code {
            ResultCode::SUCCESS => return None,
            ResultCode::INVALID_PARAMETER => Error::InvalidParameter { function },
            ResultCode::INVALID_OPERATION => Error::InvalidOperation { function },
            ResultCode::OUT_OF_MEMORY => Error::OutOfMemory { function },
            ResultCode::API_NOT_IMPLEMENTED => Error::ApiNotImplemented { function },
            ResultCode::MAX_LIMIT_REACHED => Error::MaxLimitReached { function },
            ResultCode::NOT_COMPATIBLE => Error::NotCompatible { function },
            ResultCode::NOT_INITIALIZED => Error::NotInitialized { function },
            ResultCode::QUEUE_EMPTY => Error::QueueEmpty { function },
            ResultCode::INVALID_KIND => Error::InvalidKind { function },
            ResultCode::NOT_SUPPORTED => Error::NotSupported { function },
            ResultCode::INSUFFICIENT_PRIVILEGES => Error::InsufficientPrivileges { function },
            ResultCode::MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED => {
                Error::MultipleSubscribers { function, holder: None }
            }
            ResultCode::INTERNAL => Error::Internal { function },
            code => Error::Unknown { function, code, name: code.name().map(str::to_owned) },
        })
    }

    /// Names an [`Error::Unknown`] that the headers do not name with `name()` (the library's name).
    pub(crate) fn named(self, name: impl FnOnce() -> Option<String>) -> Error {
        match self {
            Error::Unknown { function, code, name: None } => Error::Unknown { function, code, name: name() },
            other => other,
        }
    }

    /// The CUPTI result this error came from; `None` for loader and session errors.
    pub fn code(&self) -> Option<ResultCode> {
        Some(match self {
            Error::InvalidParameter { .. } => ResultCode::INVALID_PARAMETER,
            Error::InvalidOperation { .. } => ResultCode::INVALID_OPERATION,
            Error::OutOfMemory { .. } => ResultCode::OUT_OF_MEMORY,
            Error::ApiNotImplemented { .. } => ResultCode::API_NOT_IMPLEMENTED,
            Error::MaxLimitReached { .. } => ResultCode::MAX_LIMIT_REACHED,
            Error::NotCompatible { .. } => ResultCode::NOT_COMPATIBLE,
            Error::NotInitialized { .. } => ResultCode::NOT_INITIALIZED,
            Error::QueueEmpty { .. } => ResultCode::QUEUE_EMPTY,
            Error::InvalidKind { .. } => ResultCode::INVALID_KIND,
            Error::NotSupported { .. } => ResultCode::NOT_SUPPORTED,
            Error::InsufficientPrivileges { .. } => ResultCode::INSUFFICIENT_PRIVILEGES,
            Error::MultipleSubscribers { .. } => ResultCode::MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
            Error::Internal { .. } => ResultCode::INTERNAL,
            Error::Unknown { code, .. } => *code,
            Error::Load(_) | Error::MissingSymbol(_) | Error::Activity(_) | Error::DeviceSync(_) => {
                return None
            }
        })
    }

    /// Whether CUPTI reported that no GPU driver is usable (`NOT_INITIALIZED` from 12.x,
    /// `UNKNOWN` from 13.x): the error a machine without an NVIDIA GPU gets from subscribing.
    pub fn is_no_driver(&self) -> bool {
        matches!(self, Error::NotInitialized { .. } | Error::Internal { .. })
    }
}

/// `Ok(())` for `CUPTI_SUCCESS`, else the typed error of `call` (a function this library lacks is
/// [`Error::MissingSymbol`]).
pub(crate) fn check(
    result: std::result::Result<CUptiResult, MissingSymbol>,
    call: &'static str,
) -> Result<()> {
    match Error::from_code(ResultCode::from(result?), call) {
        None => Ok(()),
        Some(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknown_codes_keep_their_value() {
        for code in [1, 7, 8, 11, 12, 14, 15, 18, 21, 27, 35, 39, 999, 4242] {
            let e = Error::from_code(ResultCode(code), "cuptiX").unwrap();
            assert_eq!(e.code(), Some(ResultCode(code)), "{e}");
        }
        assert!(Error::from_code(ResultCode::SUCCESS, "cuptiX").is_none());
        let e =
            Error::from_code(ResultCode(4242), "cuptiX").unwrap().named(|| Some("CUPTI_ERROR_FUTURE".into()));
        assert!(matches!(e, Error::Unknown { code: ResultCode(4242), .. }));
        assert_eq!(e.to_string(), "cuptiX failed: CUPTI_ERROR_FUTURE (CUPTI result 4242)");
        // A code of the headers without a variant of its own is named from them.
        let e = Error::from_code(ResultCode(2), "cuptiX").unwrap();
        assert_eq!(e.to_string(), "cuptiX failed: CUPTI_ERROR_INVALID_DEVICE (CUPTI result 2)");
        assert_eq!(ResultCode(21).to_string(), "CUPTI_ERROR_INVALID_KIND (21)");
        assert_eq!(ResultCode::INTERNAL.name(), Some("CUPTI_ERROR_UNKNOWN"));
    }

    #[test]
    fn no_driver_errors_say_so() {
        for code in [ResultCode::NOT_INITIALIZED, ResultCode::INTERNAL] {
            let e = Error::from_code(code, "cuptiSubscribe").unwrap();
            assert!(e.is_no_driver());
            assert!(e.to_string().contains("no NVIDIA GPU driver"), "{e}");
        }
        let e = Error::MultipleSubscribers { function: "cuptiSubscribe_v2", holder: Some("nsys".into()) };
        assert!(e.to_string().contains("held by \"nsys\""), "{e}");
        assert!(!e.is_no_driver());
    }

    #[test]
    fn debug_reads_like_display_for_errors_returned_from_main() {
        let e = Error::from_code(ResultCode::INSUFFICIENT_PRIVILEGES, "cuptiProfilerInitialize").unwrap();
        assert_eq!(format!("{e:?}"), e.to_string());
        assert!(format!("{e:?}").contains("NVreg_RestrictProfilingToAdminUsers=0"), "{e:?}");
        let e = Error::from(ActivityError::OnDecodeThread { call: "ActivitySession::fence" });
        assert_eq!(format!("{e:?}"), e.to_string());
    }
}
