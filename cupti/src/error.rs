//! One error type: the CUPTI result codes a caller can act on, every other code kept raw, and
//! the loader's errors.

use std::fmt;

use cupti_sys::{CUptiResult, LoadError, MissingSymbol};

/// A `CUptiResult` value: any value is representable, including codes newer than this crate.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ResultCode(pub u32);

impl ResultCode {
    /// `CUPTI_SUCCESS`.
    pub const SUCCESS: ResultCode = ResultCode(CUptiResult::CUPTI_SUCCESS.0);
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
    /// `CUPTI_ERROR_UNKNOWN`.
    pub const UNKNOWN: ResultCode = ResultCode(CUptiResult::CUPTI_ERROR_UNKNOWN.0);

    /// The raw value.
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// Whether this is `CUPTI_SUCCESS`.
    pub const fn is_success(self) -> bool {
        self.0 == 0
    }
}

impl From<CUptiResult> for ResultCode {
    fn from(r: CUptiResult) -> Self {
        ResultCode(r.0)
    }
}

impl From<ResultCode> for CUptiResult {
    fn from(r: ResultCode) -> Self {
        CUptiResult(r.0)
    }
}

impl fmt::Debug for ResultCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ResultCode({})", self.0)
    }
}

impl fmt::Display for ResultCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

const NO_DRIVER: &str =
    "CUPTI returns this when no NVIDIA GPU driver is loaded in the process (no GPU, no driver \
     installed, or the driver failed to initialise): check `nvidia-smi`";

/// What went wrong.
///
/// The CUPTI result codes a caller can act on have a variant each; every other code is
/// [`Error::Cupti`], with the raw value and the library's own name for it.
#[derive(Debug, Clone, thiserror::Error)]
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
    /// `CUPTI_ERROR_UNKNOWN` (999). CUPTI 13.x returns it from `cuptiSubscribe` when no GPU
    /// driver is present.
    #[error("{function} failed with CUPTI_ERROR_UNKNOWN; CUPTI 13.x {NO_DRIVER}")]
    Unknown {
        /// The CUPTI function that failed.
        function: &'static str,
    },
    /// Any other result code, with the library's own name for it.
    #[error("{function} failed: {message} (CUPTI result {code})")]
    Cupti {
        /// The CUPTI function that failed.
        function: &'static str,
        /// The raw result.
        code: ResultCode,
        /// What `cuptiGetResultString` says about it.
        message: String,
    },
    /// `libcupti` could not be found; the message lists every place tried.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The opened `libcupti` lacks a function (an older CUPTI); only that call fails.
    #[error("{0}")]
    MissingSymbol(#[from] MissingSymbol),
    /// Another activity session is running in this process. CUPTI's activity buffer callbacks are
    /// process-wide (plain function pointers), so a process has one activity session at a time.
    #[error(
        "an activity session is already running in this process: CUPTI's activity buffer callbacks are \
         process-wide, so stop that session first"
    )]
    ActivitySessionActive,
    /// The activity session's decode pipeline could not be started, or has stopped.
    #[error("activity decode pipeline: {0}")]
    Pipeline(String),
    /// `flush(sync)` saw no SYNCHRONIZATION record past its fence in time: records up to the call may
    /// still be in flight (they are delivered later or counted, never lost silently).
    #[error(
        "flush(sync): no synchronization record past the fence was decoded within {waited:?}; records \
         issued before the call may still be in flight"
    )]
    FenceTimeout {
        /// How long the fence waited.
        waited: std::time::Duration,
    },
}

/// `Result<T, cupti::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The error for result `code` of `function`, `None` for `CUPTI_SUCCESS`. `message` names a
    /// code that has no variant of its own (see [`crate::Cupti::result_string`]).
    pub fn from_code(
        function: &'static str,
        code: ResultCode,
        message: impl FnOnce() -> String,
    ) -> Option<Error> {
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
            ResultCode::UNKNOWN => Error::Unknown { function },
            code => Error::Cupti { function, code, message: message() },
        })
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
            Error::Unknown { .. } => ResultCode::UNKNOWN,
            Error::Cupti { code, .. } => *code,
            Error::Load(_)
            | Error::MissingSymbol(_)
            | Error::ActivitySessionActive
            | Error::Pipeline(_)
            | Error::FenceTimeout { .. } => return None,
        })
    }

    /// Whether CUPTI reported that no GPU driver is usable (`NOT_INITIALIZED` from 12.x,
    /// `UNKNOWN` from 13.x): the error a machine without an NVIDIA GPU gets from subscribing.
    pub fn is_no_driver(&self) -> bool {
        matches!(self, Error::NotInitialized { .. } | Error::Unknown { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknown_codes_keep_their_value() {
        for code in [1, 7, 8, 11, 12, 14, 15, 18, 21, 27, 35, 39, 999, 4242] {
            let e = Error::from_code("cuptiX", ResultCode(code), || "name".into()).unwrap();
            assert_eq!(e.code(), Some(ResultCode(code)), "{e}");
        }
        assert!(Error::from_code("cuptiX", ResultCode::SUCCESS, || unreachable!()).is_none());
        let e = Error::from_code("cuptiX", ResultCode(4242), || "CUPTI_ERROR_FUTURE".into()).unwrap();
        assert!(matches!(e, Error::Cupti { code: ResultCode(4242), .. }));
        assert_eq!(e.to_string(), "cuptiX failed: CUPTI_ERROR_FUTURE (CUPTI result 4242)");
    }

    #[test]
    fn no_driver_errors_say_so() {
        for code in [ResultCode::NOT_INITIALIZED, ResultCode::UNKNOWN] {
            let e = Error::from_code("cuptiSubscribe", code, String::new).unwrap();
            assert!(e.is_no_driver());
            assert!(e.to_string().contains("no NVIDIA GPU driver"), "{e}");
        }
        let e = Error::MultipleSubscribers { function: "cuptiSubscribe_v2", holder: Some("nsys".into()) };
        assert!(e.to_string().contains("held by \"nsys\""), "{e}");
        assert!(!e.is_no_driver());
    }
}
