//! The one error of this crate: what every `open` and `load` returns.

use std::path::PathBuf;

/// Why a mock's controls, or the runtime that drives a mock, could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The library at `path` could not be loaded (`dlopen`'s message).
    Open {
        /// The file given.
        path: PathBuf,
        /// What the loader said.
        message: String,
    },
    /// The library at `path` loaded but lacks the control `control`: it is not this crate's mock
    /// (the real library, or another build).
    NotTheMock {
        /// The file given.
        path: PathBuf,
        /// The first control symbol missing.
        control: &'static str,
    },
    /// A function the runtime needs is not in the process's global symbol scope.
    NotInGlobalScope {
        /// The C function.
        symbol: &'static str,
    },
    /// A runtime call failed: the C function and its result code.
    Call {
        /// The C function.
        function: &'static str,
        /// What it returned.
        code: i32,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Open { path, message } => write!(f, "{} could not be loaded: {message}", path.display()),
            Error::NotTheMock { path, control } => {
                write!(f, "{} has no {control}: it is not the accelprof-mocks mock", path.display())
            }
            Error::NotInGlobalScope { symbol } => write!(f, "{symbol} is not in the global symbol scope"),
            Error::Call { function, code } => write!(f, "{function} returned {code}"),
        }
    }
}

impl std::error::Error for Error {}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `dlopen` of `path` (a mock: a std-only Rust `cdylib` whose initialisers only set up its own
/// statics, and, for `libmspti.so`, load the CANN stand-ins).
pub(crate) fn open_library(path: &std::ffi::OsStr) -> Result<libloading::Library> {
    // SAFETY: the libraries opened here are this crate's mocks or the library the caller's loader
    // already opened (its initialisers ran then); loading one has no other precondition.
    unsafe { libloading::Library::new(path) }
        .map_err(|e| Error::Open { path: PathBuf::from(path), message: e.to_string() })
}
