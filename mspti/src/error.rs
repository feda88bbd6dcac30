//! One error type: every MSPTI result code, the loader's errors, and this crate's own.

use mspti_sys::{msptiResult, LoadError, MissingSymbol};

/// What went wrong. Each MSPTI result code has a variant; a code this crate does not know is
/// kept raw in [`Error::Unknown`].
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `MSPTI_ERROR_INVALID_PARAMETER` (1).
    #[error("MSPTI rejected a parameter (MSPTI_ERROR_INVALID_PARAMETER){}", context(.0))]
    InvalidParameter(&'static str),
    /// `MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED` (2).
    #[error(
        "another MSPTI subscriber is active in this process (MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED): \
         MSPTI allows one subscriber at a time; drop the other `Subscriber` (or stop the other tool \
         that subscribed) first"
    )]
    MultipleSubscribersNotSupported,
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
    /// `MSPTI_ERROR_INNER` (999).
    #[error("MSPTI internal error (MSPTI_ERROR_INNER)")]
    Inner,
    /// A result code this crate does not know.
    #[error("MSPTI returned unknown result code {0}")]
    Unknown(u32),
    /// `libmspti.so` could not be found or was refused (for example because the CANN libraries it
    /// needs are missing, which would abort the process); the message lists every place tried
    /// and what to install or set.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The opened library lacks this function (an older MSPTI).
    #[error("{0}")]
    MissingSymbol(#[from] MissingSymbol),
    /// Only one activity session can exist per process: MSPTI's buffer callbacks are global.
    #[error("an activity session is already running in this process; drop it first")]
    ActivityAlreadyRunning,
    /// The decode thread could not be started or stopped unexpectedly.
    #[error("the activity decode pipeline failed: {0}")]
    Pipeline(String),
    /// A name passed to MSPTI contains a NUL byte.
    #[error("the name contains a NUL byte")]
    NulInName,
}

fn context(what: &&'static str) -> String {
    if what.is_empty() {
        String::new()
    } else {
        format!(": {what}")
    }
}

/// `Result<T, mspti::Error>`.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The error for a non-success result code (`None` for `MSPTI_SUCCESS`).
    pub fn from_code(code: msptiResult) -> Option<Error> {
        Some(match code.0 {
            0 => return None,
            1 => Error::InvalidParameter(""),
            2 => Error::MultipleSubscribersNotSupported,
            3 => Error::MaxLimitReached,
            4 => Error::DeviceOffline,
            5 => Error::QueueEmpty,
            6 => Error::WithoutLdPreload,
            999 => Error::Inner,
            other => Error::Unknown(other),
        })
    }

    /// The MSPTI result code this error came from, if it came from one.
    pub fn code(&self) -> Option<u32> {
        Some(match self {
            Error::InvalidParameter(_) => 1,
            Error::MultipleSubscribersNotSupported => 2,
            Error::MaxLimitReached => 3,
            Error::DeviceOffline => 4,
            Error::QueueEmpty => 5,
            Error::WithoutLdPreload => 6,
            Error::Inner => 999,
            Error::Unknown(c) => *c,
            _ => return None,
        })
    }
}

/// `Ok(())` for `MSPTI_SUCCESS`, else the code's error (with `what` as context for
/// `InvalidParameter`).
pub(crate) fn check(code: std::result::Result<msptiResult, MissingSymbol>, what: &'static str) -> Result<()> {
    match Error::from_code(code?) {
        None => Ok(()),
        Some(Error::InvalidParameter(_)) => Err(Error::InvalidParameter(what)),
        Some(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_result_code_maps_to_a_variant_and_back() {
        for code in [1u32, 2, 3, 4, 5, 6, 999, 7, 1000] {
            let e = Error::from_code(msptiResult(code)).expect("not success");
            assert_eq!(e.code(), Some(code), "{e}");
        }
        assert!(Error::from_code(msptiResult::MSPTI_SUCCESS).is_none());
        assert!(matches!(Error::from_code(msptiResult(7)), Some(Error::Unknown(7))));
    }

    #[test]
    fn without_ld_preload_says_what_to_do() {
        let msg = Error::WithoutLdPreload.to_string();
        assert!(msg.contains("LD_PRELOAD=") && msg.contains("libmspti.so"), "{msg}");
    }
}
