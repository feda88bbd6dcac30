use std::fmt;
use std::path::PathBuf;

/// One place the loader looked for a library, and why it was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// Where it came from in the search order (e.g. `"explicit path"`, `"$CUPTI_LIBRARY_PATH"`,
    /// `"$CUDA_HOME/extras/CUPTI/lib64"`, `"system loader"`).
    pub origin: String,
    /// The path (or plain soname) handed to `dlopen`.
    pub path: PathBuf,
    /// Why it failed: the `dlopen` message, "file does not exist", or a refusal.
    pub reason: String,
}

impl fmt::Display for Attempt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.as_os_str().is_empty() {
            write!(f, "{}: {}", self.origin, self.reason)
        } else {
            write!(f, "{} ({}): {}", self.path.display(), self.origin, self.reason)
        }
    }
}

fn list(attempts: &[Attempt]) -> String {
    let mut s = String::new();
    for a in attempts {
        s.push_str("\n  - ");
        s.push_str(&a.to_string());
    }
    s
}

/// The library could not be opened.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LoadError {
    /// No candidate could be opened; `tried` lists every place, in search order.
    #[error("{library} not found ({hint}); tried:{}", list(.tried))]
    NotFound {
        /// Human name of the library (`"CUPTI (libcupti)"`).
        library: &'static str,
        /// What a user can do about it.
        hint: &'static str,
        /// Every place tried, in order.
        tried: Vec<Attempt>,
    },
    /// A candidate exists but opening it is known to be unsafe (for example the real
    /// `libmspti.so` aborts the process when CANN's libraries are absent).
    #[error("{library} at {} was not opened: {reason}; also tried:{}", .path.display(), list(.tried))]
    Refused {
        /// Human name of the library.
        library: &'static str,
        /// The file that was refused.
        path: PathBuf,
        /// Why, and what to install or set.
        reason: String,
        /// Every place tried before, in order.
        tried: Vec<Attempt>,
    },
}

impl LoadError {
    /// Every place tried, in search order.
    pub fn tried(&self) -> &[Attempt] {
        match self {
            LoadError::NotFound { tried, .. } | LoadError::Refused { tried, .. } => tried,
        }
    }
}

/// A function this library does not export (an older or newer version than our bindings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{library} does not export `{symbol}` (this library version lacks it)")]
pub struct MissingSymbol {
    /// Human name of the library.
    pub library: &'static str,
    /// The C symbol looked for.
    pub symbol: &'static str,
}
