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

/// Whether some attempt found a file that exists but could not be loaded (the message then must
/// not say "not found").
fn found_any(tried: &[Attempt]) -> bool {
    tried.iter().any(|a| a.reason.starts_with(FOUND_BUT))
}

/// How [`Attempt::reason`] starts for a file that exists but that `dlopen` refused.
pub(crate) const FOUND_BUT: &str = "exists, but cannot be loaded: ";

fn headline(library: &str, tried: &[Attempt]) -> String {
    if found_any(tried) {
        format!("{library} could not be loaded")
    } else {
        format!("{library} not found")
    }
}

/// The library could not be opened.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// No candidate could be opened; `tried` lists every place, in search order. When a
    /// candidate existed but `dlopen` refused it, its attempt's reason says so and the message
    /// reads "could not be loaded" rather than "not found".
    #[error("{} ({hint}); tried:{}", headline(.library, .tried), list(.tried))]
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
    /// A candidate exists, but a library it needs (a DT_NEEDED entry) cannot be found by the
    /// system loader: the message names both and what to install or set.
    #[error(
        "{library} was found at {}, but it needs {dependency}, which the system loader cannot find \
         (LD_LIBRARY_PATH, the loader cache); {hint}; tried:{}",
        .path.display(),
        list(.tried)
    )]
    DependencyMissing {
        /// Human name of the library.
        library: &'static str,
        /// The file that was found.
        path: PathBuf,
        /// The library it needs that is missing (`"libc_sec.so"`).
        dependency: String,
        /// What a user can do about it.
        hint: &'static str,
        /// Every place tried, in order (this one included).
        tried: Vec<Attempt>,
    },
    /// An empty path was given: `dlopen("")` opens the program itself, never a vendor library.
    #[error("{library}: an empty path names no library file")]
    EmptyPath {
        /// Human name of the library.
        library: &'static str,
    },
    /// The file is not one the system loader can map safely in this process (not an ELF shared
    /// object of this machine, or cut short: the loader would die of SIGBUS mapping it), so it was
    /// not opened.
    #[error("{library} at {} was not opened: the file {reason}; tried:{}", .path.display(), list(.tried))]
    NotALibrary {
        /// Human name of the library.
        library: &'static str,
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
        /// Every place tried, in order (this one included).
        tried: Vec<Attempt>,
    },
    /// The file is a library, but not this vendor's: it does not export the symbols every version
    /// of the vendor's library has (looked up in its symbol table before it was opened, or with
    /// `dlsym` after). Nothing of it was kept.
    #[error(
        "{} is not {library}: it does not export {} (every {library} does); tried:{}",
        .path.display(),
        .missing.join(", "),
        list(.tried)
    )]
    WrongLibrary {
        /// Human name of the library.
        library: &'static str,
        /// The file (or soname).
        path: PathBuf,
        /// The identifying symbols it lacks.
        missing: Vec<&'static str>,
        /// Every place tried, in order (this one included).
        tried: Vec<Attempt>,
    },
}

impl LoadError {
    /// Every place tried, in search order.
    pub fn tried(&self) -> &[Attempt] {
        match self {
            LoadError::NotFound { tried, .. }
            | LoadError::Refused { tried, .. }
            | LoadError::DependencyMissing { tried, .. }
            | LoadError::NotALibrary { tried, .. }
            | LoadError::WrongLibrary { tried, .. } => tried,
            LoadError::EmptyPath { .. } => &[],
        }
    }
}

/// The library that a `dlopen` message says is missing, when it is not `requested` itself: glibc
/// reports `"<missing>: cannot open shared object file: No such file or directory"` for the first
/// name it could not find, be it the file asked for or one it needs.
pub fn missing_dependency(requested: &std::path::Path, message: &str) -> Option<String> {
    const NO_SUCH: &str = ": cannot open shared object file";
    let at = message.find(NO_SUCH)?;
    let missing = message[..at].rsplit(": ").next().unwrap_or(&message[..at]).trim();
    let requested_name = requested.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let asked = requested.to_string_lossy();
    (missing != asked && missing != requested_name && !missing.is_empty()).then(|| missing.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_missing_dependency_is_told_from_a_missing_file() {
        let dep =
            "/opt/x/libmspti.so: libc_sec.so: cannot open shared object file: No such file or directory";
        assert_eq!(missing_dependency(Path::new("/opt/x/libmspti.so"), dep), Some("libc_sec.so".into()));
        let itself = "libmspti.so: cannot open shared object file: No such file or directory";
        assert_eq!(missing_dependency(Path::new("libmspti.so"), itself), None);
        let bad_elf = "/opt/x/libmspti.so: invalid ELF header";
        assert_eq!(missing_dependency(Path::new("/opt/x/libmspti.so"), bad_elf), None);
    }

    #[test]
    fn a_file_that_exists_is_not_reported_as_not_found() {
        let tried = vec![Attempt {
            origin: "explicit path".into(),
            path: "/opt/x/libdemo.so".into(),
            reason: format!("{FOUND_BUT}invalid ELF header"),
        }];
        let e = LoadError::NotFound { library: "demo", hint: "install demo", tried };
        let text = e.to_string();
        assert!(text.starts_with("demo could not be loaded") && !text.contains("not found"), "{text}");
        let e = LoadError::NotFound { library: "demo", hint: "install demo", tried: Vec::new() };
        assert!(e.to_string().starts_with("demo not found"));
    }
}

/// A function this library does not export (an older or newer version than our bindings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{library} does not export `{symbol}` (this library version lacks it)")]
#[non_exhaustive]
pub struct MissingSymbol {
    /// Human name of the library.
    pub library: &'static str,
    /// The C symbol looked for.
    pub symbol: &'static str,
}

impl MissingSymbol {
    /// `symbol`, which `library` does not export.
    pub const fn new(library: &'static str, symbol: &'static str) -> MissingSymbol {
        MissingSymbol { library, symbol }
    }
}
