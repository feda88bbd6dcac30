//! One error type: every MSPTI result code, the loader's errors, the activity session's, and this
//! crate's own.

use std::fmt;

use accelprof_core::activity::ActivityError;
use mspti_sys::{msptiResult, LoadError, MissingSymbol};

accelprof_core::vendor_result_code! {
    /// An `msptiResult` value: any value is representable, including codes newer than this crate.
    msptiResult, "MSPTI_SUCCESS"
}

/// The name of every result code of the headers this crate was generated from.
const NAMES: &[(msptiResult, &str)] = {
    use msptiResult as R;
    &[
        (R::MSPTI_SUCCESS, "MSPTI_SUCCESS"),
        (R::MSPTI_ERROR_INVALID_PARAMETER, "MSPTI_ERROR_INVALID_PARAMETER"),
        (R::MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"),
        (R::MSPTI_ERROR_MAX_LIMIT_REACHED, "MSPTI_ERROR_MAX_LIMIT_REACHED"),
        (R::MSPTI_ERROR_DEVICE_OFFLINE, "MSPTI_ERROR_DEVICE_OFFLINE"),
        (R::MSPTI_ERROR_QUEUE_EMPTY, "MSPTI_ERROR_QUEUE_EMPTY"),
        (R::MSPTI_ERROR_WITHOUT_LD_PRELOAD, "MSPTI_ERROR_WITHOUT_LD_PRELOAD"),
        (R::MSPTI_ERROR_INNER, "MSPTI_ERROR_INNER"),
    ]
};

impl ResultCode {
    /// `MSPTI_ERROR_INNER` (999): MSPTI's internal error ([`Error::Internal`]).
    pub const INTERNAL: ResultCode = ResultCode(msptiResult::MSPTI_ERROR_INNER.0);

    /// The code's C name in the headers this crate was generated from (`"MSPTI_ERROR_QUEUE_EMPTY"`);
    /// `None` for a code they do not have.
    pub fn name(self) -> Option<&'static str> {
        NAMES.iter().find(|(code, _)| code.0 == self.0).map(|(_, name)| *name)
    }
}

/// What went wrong. Each MSPTI result code has a variant; a code this crate does not know is
/// kept raw in [`Error::Unknown`]. `Debug` prints the same sentence as `Display`, so
/// `fn main() -> Result<(), mspti::Error>` tells the user what to do.
#[derive(Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `MSPTI_ERROR_INVALID_PARAMETER` (1), with the call that was refused.
    #[error("MSPTI rejected a parameter{} (MSPTI_ERROR_INVALID_PARAMETER)", context(.0))]
    InvalidParameter(&'static str),
    /// `MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED` (2).
    #[error(
        "another MSPTI subscriber is active in this process (MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED): \
         MSPTI allows one subscriber at a time; drop the other `Subscriber` (or stop the other tool \
         that subscribed) first"
    )]
    MultipleSubscribers,
    /// `MSPTI_ERROR_MAX_LIMIT_REACHED` (3).
    #[error("MSPTI reached a limit (MSPTI_ERROR_MAX_LIMIT_REACHED)")]
    MaxLimitReached,
    /// `MSPTI_ERROR_DEVICE_OFFLINE` (4).
    #[error("the device is offline (MSPTI_ERROR_DEVICE_OFFLINE)")]
    DeviceOffline,
    /// `MSPTI_ERROR_QUEUE_EMPTY` (5).
    #[error("nothing to pop (MSPTI_ERROR_QUEUE_EMPTY)")]
    QueueEmpty,
    /// `MSPTI_ERROR_WITHOUT_LD_PRELOAD` (6).
    #[error(
        "MSPTI_ERROR_WITHOUT_LD_PRELOAD: libmspti.so must be in LD_PRELOAD when the program starts. MSPTI \
         gets runtime and HCCL callbacks, and HCCL/MEMORY/MEMSET/MEMCPY activity, by interposing the \
         `aclrt*` and `Hccl*` functions, which only works when it is preloaded; it reads LD_PRELOAD once, \
         so setting it later in the process does not help. Start the program as \
         `LD_PRELOAD=<toolkit>/lib64/libmspti.so <program>` (or call \
         `mspti::preload::reexec_with_preload` at the top of `main`)"
    )]
    WithoutLdPreload,
    /// `libmspti.so` is named in `LD_PRELOAD` (so MSPTI accepts the enable), but its interposed
    /// `aclrt*`/`Hccl*` functions are not what the program's calls reach: nothing would be
    /// delivered. The message says which copy the calls reach instead.
    #[error(
        "MSPTI's interposition is not live: {0}. MSPTI gets runtime and HCCL callbacks, and HCCL/MEMORY/\
         MEMSET/MEMCPY activity, from its own `aclrt*` and `Hccl*` functions, which a program's calls reach \
         only when this libmspti.so was preloaded when the program started: setting LD_PRELOAD later, or \
         opening another copy by path, enables nothing. Start the program as \
         `LD_PRELOAD=<toolkit>/lib64/libmspti.so <program>` (or call `mspti::preload::reexec_with_preload` \
         at the top of `main`), and open the preloaded copy (`Mspti::open()` reuses it)"
    )]
    InterpositionNotLive(String),
    /// MSPTI produces this kind only while a subscriber exists (see
    /// [`ActivityKind::NEED_SUBSCRIBER`](crate::ActivityKind::NEED_SUBSCRIBER)).
    #[error(
        "MSPTI produces {0} records only while a subscriber exists (msptiSubscribe registers the runtime's \
         reporters, switches MSTX on and reads the device's channels; unsubscribing stops them): subscribe \
         first, with `Mspti::subscribe` (a closure that does nothing will do), and keep the `Subscriber` \
         while you collect"
    )]
    SubscriberRequired(crate::ActivityKind),
    /// `MSPTI_ERROR_INNER` (999): an internal error of MSPTI's.
    #[error("{function} failed with MSPTI_ERROR_INNER (an internal error of MSPTI's)")]
    Internal {
        /// The MSPTI function that failed.
        function: &'static str,
    },
    /// Any other result code, kept raw.
    #[error(
        "{function} failed: {} (MSPTI result {})",
        name.as_deref().unwrap_or("a result code this crate does not know"),
        code.0
    )]
    Unknown {
        /// The MSPTI function that failed.
        function: &'static str,
        /// The raw result.
        code: ResultCode,
        /// Its name, from the headers.
        name: Option<String>,
    },
    /// `libmspti.so` could not be found or was refused (for example because the CANN libraries it
    /// needs are missing, which would abort the process); the message lists every place tried
    /// and what to install or set.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The opened library lacks this function (an older MSPTI).
    #[error("{0}")]
    MissingSymbol(#[from] MissingSymbol),
    /// The activity session refused or could not finish a call (another session running, a flush from
    /// inside a consumer, its decode thread, ...).
    #[error("{0}")]
    Activity(#[from] ActivityError),
    /// `msptiSubscribe` would abort the process: the NPU driver's `libascend_hal.so`, which
    /// MSPTI opens there, is missing (MSPTI throws a C++ exception that no caller can catch).
    #[error(
        "msptiSubscribe would abort the process: {0}. Install the Ascend NPU driver and `source \
         <toolkit>/set_env.sh` (it puts the driver's lib64/driver on LD_LIBRARY_PATH), or set ASCEND_HOME_PATH \
         to a directory whose lib64 holds libascend_hal.so"
    )]
    DriverMissing(String),
    /// Another copy of `libmspti.so` (another file) is loaded in this process. MSPTI's reporters
    /// live in CANN's `libprofapi.so`, one per process: the copy that subscribes last takes them
    /// from the other for good, whose records stop with no error. Use one copy (`Mspti::open()`
    /// reuses a preloaded one).
    #[error(
        "another libmspti.so is loaded in this process ({other}) besides this one ({ours}): subscribing with \
         this copy would take CANN's profiling reporters from the other for good (they are one per process), \
         and its records would stop silently. Open the copy already loaded (`Mspti::open()` reuses a \
         preloaded one)"
    )]
    AnotherCopyLoaded {
        /// The file this `Mspti` opened.
        ours: String,
        /// The other copy's file.
        other: String,
    },
    /// A callback id that the MSPTI headers of this crate do not define (RUNTIME 0..=36, HCCL
    /// 0..=12): MSPTI accepts any id below 64 and never calls it back.
    #[error(
        "{0} is not a callback MSPTI defines (RUNTIME 0..=36, HCCL 0..=12 in the headers this crate was \
         built from): MSPTI would accept it and never call back. A newer MSPTI's id needs a newer crate"
    )]
    UnknownCallbackId(crate::CallbackId),
    /// A name passed to MSPTI contains a NUL byte.
    #[error("the name contains a NUL byte")]
    NulInName,
}

impl fmt::Debug for Error {
    /// The `Display` sentence (what `fn main() -> Result<(), mspti::Error>` prints).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn context(what: &&'static str) -> String {
    if what.is_empty() {
        String::new()
    } else {
        format!(" of {what}")
    }
}

/// `Result<T, mspti::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The error for result `code` of `function`, `None` for `MSPTI_SUCCESS`.
    pub fn from_code(code: ResultCode, function: &'static str) -> Option<Error> {
        Some(match code.0 {
            0 => return None,
            1 => Error::InvalidParameter(function),
            2 => Error::MultipleSubscribers,
            3 => Error::MaxLimitReached,
            4 => Error::DeviceOffline,
            5 => Error::QueueEmpty,
            6 => Error::WithoutLdPreload,
            999 => Error::Internal { function },
            _ => Error::Unknown { function, code, name: code.name().map(str::to_owned) },
        })
    }

    /// The MSPTI result code this error came from, if it came from one.
    pub fn code(&self) -> Option<ResultCode> {
        Some(ResultCode(match self {
            Error::InvalidParameter(_) => 1,
            Error::MultipleSubscribers => 2,
            Error::MaxLimitReached => 3,
            Error::DeviceOffline => 4,
            Error::QueueEmpty => 5,
            Error::WithoutLdPreload => 6,
            Error::Internal { .. } => 999,
            Error::Unknown { code, .. } => return Some(*code),
            _ => return None,
        }))
    }
}

/// `Ok(())` for `MSPTI_SUCCESS`, else the typed error of `call` (a function this library lacks is
/// [`Error::MissingSymbol`]).
pub(crate) fn check(
    result: std::result::Result<msptiResult, MissingSymbol>,
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
    fn every_result_code_maps_to_a_variant_and_back() {
        for code in [1u32, 2, 3, 4, 5, 6, 999, 7, 1000] {
            let e = Error::from_code(ResultCode(code), "msptiX").expect("not success");
            assert_eq!(e.code(), Some(ResultCode(code)), "{e}");
        }
        assert!(Error::from_code(ResultCode::SUCCESS, "msptiX").is_none());
        assert!(matches!(
            Error::from_code(ResultCode(7), "msptiX"),
            Some(Error::Unknown { code: ResultCode(7), .. })
        ));
        let e = Error::from_code(ResultCode(7), "msptiActivityEnable").unwrap();
        assert_eq!(
            e.to_string(),
            "msptiActivityEnable failed: a result code this crate does not know (MSPTI result 7)"
        );
        assert_eq!(ResultCode(5).to_string(), "MSPTI_ERROR_QUEUE_EMPTY (5)");
    }

    #[test]
    fn without_ld_preload_says_what_to_do() {
        let msg = Error::WithoutLdPreload.to_string();
        assert!(msg.contains("LD_PRELOAD=") && msg.contains("libmspti.so"), "{msg}");
    }

    #[test]
    fn debug_reads_like_display_for_errors_returned_from_main() {
        let e = Error::from_code(ResultCode(1), "msptiActivityEnable").unwrap();
        assert_eq!(
            format!("{e:?}"),
            "MSPTI rejected a parameter of msptiActivityEnable (MSPTI_ERROR_INVALID_PARAMETER)"
        );
        let e = Error::from(ActivityError::SessionActive { vendor: "MSPTI" });
        assert_eq!(format!("{e:?}"), e.to_string());
    }
}
