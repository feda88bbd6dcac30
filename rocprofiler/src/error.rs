//! One error type: a variant per `rocprofiler_status_t` code, unknown codes kept raw, the
//! loader's errors and the activity session's.

use accelprof_core::activity::ActivityError;
use rocprofiler_sys::{rocprofiler_status_t, LoadError, MissingSymbol};

accelprof_core::vendor_result_code! {
    /// A `rocprofiler_status_t` value: any value is representable, including codes newer than this crate.
    rocprofiler_status_t, "ROCPROFILER_STATUS_SUCCESS"
}

impl ResultCode {
    /// The code's C name as this crate knows it (`"ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT"`); `None`
    /// for a code it does not know ([`Rocprofiler::status_name`](crate::Rocprofiler::status_name) asks
    /// the library).
    pub fn name(self) -> Option<&'static str> {
        Error::from_code(self, "").and_then(|e| e.status_name())
    }

    /// `Ok(())` for SUCCESS, else the error of `function` (for a raw call through
    /// [`Rocprofiler::sys`](crate::Rocprofiler::sys)).
    pub fn check(self, function: &'static str) -> Result<()> {
        match Error::from_code(self, function) {
            None => Ok(()),
            Some(e) => Err(e),
        }
    }
}

macro_rules! statuses {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $cname:literal, $msg:literal; )*) => {
        /// Everything that can go wrong. Each SDK status code has its own variant (the raw value
        /// is [`Error::code`]); a code this crate does not know, including one at or past the
        /// library's `ROCPROFILER_STATUS_LAST` (whose status string is NULL), is [`Error::Unknown`].
        /// `Debug` prints the same sentence as `Display`, so `fn main() -> Result<(), rocprofiler::Error>`
        /// tells the user what to do.
        #[derive(Clone)]
        #[non_exhaustive]
        pub enum Error {
            $( $(#[$doc])* $variant, )*
            /// A status code this crate does not know (newer SDK, or at/past `ROCPROFILER_STATUS_LAST`),
            /// kept raw, with the library's name for it when it has one.
            Unknown {
                /// The SDK function that failed.
                function: &'static str,
                /// The raw status.
                code: ResultCode,
                /// Its name, from the library (`rocprofiler_get_status_name`).
                name: Option<String>,
            },
            /// The library could not be opened.
            Load(LoadError),
            /// The opened library lacks a function (an older SDK).
            MissingSymbol(MissingSymbol),
            /// The SDK has no `rocprofiler_dispatch_counting_service_set_agents`: per-agent
            /// scoping of dispatch counting is in no released rocprofiler-sdk yet (only in an
            /// open pull request). The fallback is what the SDK does anyway: the context counts
            /// on every GPU agent. Two such contexts conflict, so count with one context and
            /// decline, in its dispatch callback, the dispatches of agents you do not want (they
            /// are still serialized). [`Rocprofiler::has_per_agent_scoping`](crate::Rocprofiler::has_per_agent_scoping)
            /// tells beforehand.
            PerAgentScopingUnavailable(MissingSymbol),
            /// A tool's setup did not run in rocprofiler's configure window.
            NotConfigured(&'static str),
            /// A call refused before it reached the SDK, because from where it was made the SDK
            /// would wait for itself (stopping a context inside a counting record closure, which
            /// runs on the SDK's counting thread that the stop waits for) or take a lock it
            /// holds (forcing a configuration from inside a tool's setup).
            WouldDeadlock(&'static str),
            /// A tool's code panicked where the SDK called it (the panic did not reach C).
            Panicked(&'static str),
            /// The activity session refused or could not finish a call (a flush from inside a
            /// consumer, a kind not configured in the window, its decode thread, ...).
            Activity(ActivityError),
            /// No counter of this name on the agent
            /// ([`counter_config_by_name`](crate::Rocprofiler::counter_config_by_name)): its status is
            /// `ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND`, as [`Error::CounterNotFound`]'s.
            CounterNameNotFound {
                /// The name looked for.
                name: String,
                /// The agent it was looked for on (its handle).
                agent: u64,
                /// How many counters the agent has ([`counters`](crate::Rocprofiler::counters) lists them).
                counters: usize,
            },
        }

        impl std::fmt::Display for Error {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    $( Error::$variant => write!(f, "{}: {}", $cname, $msg), )*
                    Error::Unknown { function, code, name } => write!(
                        f,
                        "{function} failed: {} (rocprofiler-sdk status {})",
                        name.as_deref().unwrap_or("a status this crate does not know"),
                        code.0
                    ),
                    Error::Load(e) => e.fmt(f),
                    Error::MissingSymbol(e) => e.fmt(f),
                    Error::PerAgentScopingUnavailable(e) => write!(
                        f,
                        "{e}: per-agent scoping of dispatch counting is in no released rocprofiler-sdk yet; \
                         the context counts on every GPU agent (use one counting context for all GPUs and \
                         decline unwanted dispatches in its dispatch callback)"
                    ),
                    Error::NotConfigured(why) => write!(f, "the configure window is not open: {why}"),
                    Error::WouldDeadlock(what) => write!(f, "not called: {what}"),
                    Error::Panicked(what) => write!(f, "{what} panicked"),
                    Error::Activity(e) => e.fmt(f),
                    Error::CounterNameNotFound { name, agent, counters } => write!(
                        f,
                        "ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND: no counter named {name:?} on agent {agent} \
                         (it has {counters}; Rocprofiler::counters lists them)"
                    ),
                }
            }
        }

        impl std::fmt::Debug for Error {
            /// The `Display` sentence (what `fn main() -> Result<(), rocprofiler::Error>` prints).
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(self, f)
            }
        }

        impl std::error::Error for Error {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                match self {
                    Error::Load(e) => Some(e),
                    Error::MissingSymbol(e) | Error::PerAgentScopingUnavailable(e) => Some(e),
                    Error::Activity(e) => Some(e),
                    _ => None,
                }
            }
        }

        impl From<LoadError> for Error {
            fn from(e: LoadError) -> Self {
                Error::Load(e)
            }
        }

        impl From<MissingSymbol> for Error {
            fn from(e: MissingSymbol) -> Self {
                Error::MissingSymbol(e)
            }
        }

        impl From<ActivityError> for Error {
            fn from(e: ActivityError) -> Self {
                Error::Activity(e)
            }
        }

        impl Error {
            /// The error for status `code` of `function`; `None` for `ROCPROFILER_STATUS_SUCCESS`.
            pub fn from_code(code: ResultCode, function: &'static str) -> Option<Error> {
                match code.0 {
                    0 => None,
                    $( $code => Some(Error::$variant), )*
                    _ => Some(Error::Unknown { function, code, name: None }),
                }
            }

            /// The SDK status code (`None` for loader and crate errors).
            pub fn code(&self) -> Option<ResultCode> {
                match self {
                    $( Error::$variant => Some(ResultCode($code)), )*
                    Error::Unknown { code, .. } => Some(*code),
                    Error::CounterNameNotFound { .. } => Error::CounterNotFound.code(),
                    _ => None,
                }
            }

            /// The C name of the status (`"ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT"`).
            pub fn status_name(&self) -> Option<&'static str> {
                match self {
                    $( Error::$variant => Some($cname), )*
                    Error::CounterNameNotFound { .. } => Error::CounterNotFound.status_name(),
                    _ => None,
                }
            }
        }
    };
}

statuses! {
    /// `ROCPROFILER_STATUS_ERROR`: a generic failure.
    Generic = 1, "ROCPROFILER_STATUS_ERROR", "generic error";
    /// No context with this id (or, from `stop`, a context that is not active).
    ContextNotFound = 2, "ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND", "no such context, or no dispatch counting service configured on it";
    /// No buffer with this id.
    BufferNotFound = 3, "ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND", "no such buffer";
    /// Unknown tracing kind.
    KindNotFound = 4, "ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND", "unknown tracing kind";
    /// Operation not valid for the kind.
    OperationNotFound = 5, "ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND", "unknown operation for this kind";
    /// No thread with this id.
    ThreadNotFound = 6, "ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND", "no such thread";
    /// Not an agent (or, for counting, not a GPU agent).
    AgentNotFound = 7, "ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND", "no such (GPU) agent";
    /// No counter with this id.
    CounterNotFound = 8, "ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND", "no such counter";
    /// A generic context error.
    ContextError = 9, "ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR", "context error";
    /// The context is not valid.
    ContextInvalid = 10, "ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID", "not a valid context";
    /// The context could not be started.
    ContextNotStarted = 11, "ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED", "context could not be started";
    /// Another active context conflicts (two counting contexts whose agent sets overlap).
    ContextConflict = 12, "ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT", "conflicts with an active context (counting on overlapping agents)";
    /// A context id must be zero before `create_context`.
    ContextIdNotZero = 13, "ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO", "context id not zeroed";
    /// The buffer is busy (a flush asked for from inside that buffer's own callback).
    BufferBusy = 14, "ROCPROFILER_STATUS_ERROR_BUFFER_BUSY", "buffer busy";
    /// The service is already configured on this context (callback tracing: once per kind).
    ServiceAlreadyConfigured = 15, "ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED", "service already configured on this context";
    /// Only valid inside the configure window (or, for `set_agents`, while the context is stopped).
    ConfigurationLocked = 16, "ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED", "configuration is locked (outside the configure window, or the context is active)";
    /// Not implemented by this SDK.
    NotImplemented = 17, "ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED", "not implemented";
    /// A structure size the SDK does not accept.
    IncompatibleAbi = 18, "ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI", "incompatible ABI";
    /// An invalid argument.
    InvalidArgument = 19, "ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT", "invalid argument";
    /// A metric not valid for the agent.
    MetricNotValidForAgent = 20, "ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT", "metric not valid for agent";
    /// rocprofiler has been finalized.
    Finalized = 21, "ROCPROFILER_STATUS_ERROR_FINALIZED", "already finalized";
    /// HSA is not loaded yet.
    HsaNotLoaded = 22, "ROCPROFILER_STATUS_ERROR_HSA_NOT_LOADED", "HSA not loaded";
    /// A counter dimension was not found.
    DimNotFound = 23, "ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND", "dimension not found";
    /// A counter was not found in the profile.
    ProfileCounterNotFound = 24, "ROCPROFILER_STATUS_ERROR_PROFILE_COUNTER_NOT_FOUND", "counter not found in profile";
    /// A derived counter's expression could not be parsed.
    AstGenerationFailed = 25, "ROCPROFILER_STATUS_ERROR_AST_GENERATION_FAILED", "counter expression could not be parsed";
    /// A derived counter's expression was not found.
    AstNotFound = 26, "ROCPROFILER_STATUS_ERROR_AST_NOT_FOUND", "counter expression not found";
    /// AQL profile could not find an event coordinate.
    AqlNoEventCoord = 27, "ROCPROFILER_STATUS_ERROR_AQL_NO_EVENT_COORD", "no event coordinate";
    /// The kernel driver (KFD) is too old for the service.
    IncompatibleKernel = 28, "ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_KERNEL", "kernel driver too old for this service";
    /// Out of resources.
    OutOfResources = 29, "ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES", "out of resources";
    /// No counter config (profile) with this id.
    ProfileNotFound = 30, "ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND", "no such counter config";
    /// Agent and dispatch counting cannot share a context.
    AgentDispatchConflict = 31, "ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT", "agent and dispatch counting in one context";
    /// Internal: no agent context.
    InternalNoAgentContext = 32, "ROCPROFILER_STATUS_INTERNAL_NO_AGENT_CONTEXT", "no agent context";
    /// PC sampling rate exceeded.
    SampleRateExceeded = 33, "ROCPROFILER_STATUS_ERROR_SAMPLE_RATE_EXCEEDED", "sample rate exceeded";
    /// The profiling queue could not be created.
    NoProfileQueue = 34, "ROCPROFILER_STATUS_ERROR_NO_PROFILE_QUEUE", "profile queue creation failed";
    /// No hardware counters were given.
    NoHardwareCounters = 35, "ROCPROFILER_STATUS_ERROR_NO_HARDWARE_COUNTERS", "no hardware counters given";
    /// The profile's agent differs from the context's.
    AgentMismatch = 36, "ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH", "agent mismatch";
    /// The service is not available.
    NotAvailable = 37, "ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE", "service not available";
    /// Exceeds hardware limits.
    ExceedsHwLimit = 38, "ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT", "exceeds hardware limits";
    /// The agent's architecture is not supported.
    AgentArchNotSupported = 39, "ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED", "agent architecture not supported";
    /// Permission denied.
    PermissionDenied = 40, "ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED", "permission denied";
    /// rocprofiler-register is too old for what was asked (late start by
    /// [`force_configure`](crate::force_configure) after the runtimes loaded needs ROCm 7.0+).
    /// Status 41 in mainline SDKs; a feature branch once gave 41 another name
    /// (`ROCPROFILER_STATUS_FIRMWARE_INCOMPATIBLE`), which no release has.
    IncompatibleRegisterVersion = 41, "ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION", "rocprofiler-register is too old (late-start profiling needs ROCm 7.0+)";
}

impl Error {
    /// Whether this is the given raw status.
    pub fn is(&self, status: rocprofiler_status_t) -> bool {
        self.code() == Some(ResultCode(status.0))
    }

    /// Names an [`Error::Unknown`] with `name()` (the library's name for its code).
    pub(crate) fn named(self, name: impl FnOnce(ResultCode) -> Option<String>) -> Error {
        match self {
            Error::Unknown { function, code, name: None } => {
                Error::Unknown { function, code, name: name(code) }
            }
            other => other,
        }
    }
}

/// `Ok(())` for SUCCESS, else the typed error of `call` (a function this library lacks is
/// [`Error::MissingSymbol`]; a status this crate does not know is named by the library when it is open).
pub(crate) fn check(
    result: std::result::Result<rocprofiler_status_t, MissingSymbol>,
    call: &'static str,
) -> Result<()> {
    ResultCode::from(result?)
        .check(call)
        .map_err(|e| e.named(|code| crate::library::opened().and_then(|lib| lib.status_name(code.0))))
}

/// This crate's `Result`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_reads_like_display_for_errors_returned_from_main() {
        let e = Error::from_code(ResultCode(3), "rocprofiler_start_context").expect("an error");
        assert_eq!(format!("{e:?}"), e.to_string());
        assert!(e.to_string().contains("BUFFER_NOT_FOUND"), "{e}");
        let e = Error::Unknown { function: "rocprofiler_x", code: ResultCode(9999), name: None };
        assert_eq!(format!("{e:?}"), e.to_string());
        assert!(e.to_string().contains("9999") && e.to_string().contains("rocprofiler_x"), "{e}");
        let e = Error::from(accelprof_core::activity::ActivityError::Ended);
        assert_eq!(format!("{e:?}"), e.to_string());
    }

    #[test]
    fn every_code_maps_to_its_own_variant_and_back() {
        assert!(Error::from_code(ResultCode(0), "x").is_none());
        let mut names = std::collections::HashSet::new();
        for code in 1..=41 {
            let e = Error::from_code(ResultCode(code), "x").unwrap();
            assert_eq!(e.code(), Some(ResultCode(code)));
            assert!(!matches!(e, Error::Unknown { .. }), "{code}");
            assert!(names.insert(e.status_name().unwrap()), "{code} has its own name");
        }
        assert!(matches!(
            Error::from_code(ResultCode(42), "x"),
            Some(Error::Unknown { code: ResultCode(42), .. })
        ));
        assert!(matches!(
            Error::from_code(ResultCode(u32::MAX), "x"),
            Some(Error::Unknown { code: ResultCode(u32::MAX), .. })
        ));
        assert!(Error::from_code(ResultCode(12), "x").unwrap().to_string().contains("CONTEXT_CONFLICT"));
        let e = Error::from_code(ResultCode(42), "rocprofiler_x").unwrap();
        assert_eq!(
            e.to_string(),
            "rocprofiler_x failed: a status this crate does not know (rocprofiler-sdk status 42)"
        );
        assert_eq!(format!("{e:?}"), e.to_string(), "Debug reads like Display");
    }

    #[test]
    fn codes_agree_with_the_generated_constants() {
        use rocprofiler_status_t as S;
        let check = |s: S| ResultCode::from(s).check("x");
        assert!(matches!(check(S::ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT), Err(Error::ContextConflict)));
        assert!(matches!(
            check(S::ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED),
            Err(Error::ConfigurationLocked)
        ));
        assert!(matches!(
            check(S::ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION),
            Err(Error::IncompatibleRegisterVersion)
        ));
        assert_eq!(
            Error::from_code(ResultCode(41), "x").unwrap().status_name(),
            Some("ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION"),
            "status 41 has its mainline name"
        );
        assert_eq!(ResultCode(41).name(), Some("ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION"));
        assert!(matches!(
            check(S::ROCPROFILER_STATUS_LAST),
            Err(Error::Unknown { code: ResultCode(42), .. })
        ));
        assert!(check(S::ROCPROFILER_STATUS_SUCCESS).is_ok());
    }
}
