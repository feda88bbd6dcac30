//! [`TracerError`]: why a tracer could not be set up or do what was asked.

use std::fmt;
use std::path::PathBuf;

use accelprof_loader::Attempt;

use super::Vendor;

/// The error of a vendor crate (`cupti::Error`, `mspti::Error`, `rocprofiler::Error`), kept typed:
/// `source().downcast_ref::<cupti::Error>()` gets it back.
pub type VendorError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why a vendor was not used: its library was not found (every place its search tried), or was
/// found but cannot serve here (CUPTI without a GPU driver).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VendorAttempt {
    /// The vendor.
    pub vendor: Vendor,
    /// What happened, in a sentence (the vendor loader's message: it names every place tried).
    pub reason: String,
    /// Every place its search tried, in order (empty when the search did not get that far, e.g.
    /// the vendor's feature is off).
    pub tried: Vec<Attempt>,
}

impl VendorAttempt {
    /// The attempt of a vendor whose feature is off in this build.
    pub(crate) fn not_built(vendor: Vendor) -> VendorAttempt {
        VendorAttempt {
            vendor,
            reason: format!("not built (the `{}` feature of accel-profiling is off)", vendor.name()),
            tried: Vec::new(),
        }
    }
}

impl fmt::Display for VendorAttempt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.vendor, self.reason)
    }
}

/// Why a tracer could not be set up, or could not do what was asked.
#[derive(thiserror::Error)]
#[non_exhaustive]
pub enum TracerError {
    /// No vendor library was found (or none that can serve here). Each vendor's attempt says what
    /// its search tried.
    #[error("{}", not_found(.attempts))]
    NotFound {
        /// One per vendor looked for, in search order.
        attempts: Vec<VendorAttempt>,
    },
    /// The vendor asked for is not in this build (its cargo feature is off).
    #[error("{} is not built into accel-profiling (enable its `{}` feature)", .0, .0.name())]
    NotBuilt(Vendor),
    /// A call into the vendor's crate failed; `source` is that crate's typed error.
    #[error("{vendor}: {during}: {source}")]
    Vendor {
        /// The vendor.
        vendor: Vendor,
        /// What the tracer was doing (`"starting the activity session"`).
        during: &'static str,
        /// The vendor crate's error.
        #[source]
        source: VendorError,
    },
    /// The vendor cannot do what the configuration asks (a capture range it cannot observe, ...):
    /// what, and why.
    #[error("{vendor} cannot {what}: {why}")]
    Unsupported {
        /// The vendor.
        vendor: Vendor,
        /// What was asked (`"follow a capture range of profiler-api calls"`).
        what: &'static str,
        /// Why it cannot.
        why: String,
    },
    /// An output's name matches no known format.
    #[error("{}: no trace format for this name (known: {})", shown(.path), .known.join(", "))]
    UnknownFormat {
        /// The output asked for.
        path: PathBuf,
        /// The names the known formats take (`*.json`, `*.json.gz`, ...).
        known: Vec<String>,
    },
    /// An output could not be created.
    #[error("could not create the trace {}: {source}", .path.display())]
    Output {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A trace file could not be written (the message says which, and where what was written is).
    #[error("{0}")]
    Write(String),
    /// The configuration cannot work (the message says why and what to change).
    #[error("{0}")]
    Config(String),
}

impl TracerError {
    /// A vendor crate's error, typed.
    #[cfg_attr(not(any(feature = "cupti", feature = "mspti", feature = "rocprofiler")), allow(dead_code))]
    pub(crate) fn vendor(
        vendor: Vendor,
        during: &'static str,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> TracerError {
        TracerError::Vendor { vendor, during, source: Box::new(source) }
    }

    /// The attempts of [`TracerError::NotFound`] (empty for other errors).
    pub fn attempts(&self) -> &[VendorAttempt] {
        match self {
            TracerError::NotFound { attempts } => attempts,
            _ => &[],
        }
    }
}

/// `Debug` reads like `Display`, so that `fn main() -> Result<(), TracerError>` prints a sentence.
impl fmt::Debug for TracerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn not_found(attempts: &[VendorAttempt]) -> String {
    let mut s = String::from("no accelerator profiling library found here");
    for a in attempts {
        s.push_str("\n- ");
        s.push_str(&a.to_string().replace('\n', "\n  "));
    }
    s
}

/// An output's name as an error shows it: an empty one says so (it would show as nothing).
fn shown(path: &std::path::Path) -> String {
    if path.as_os_str().is_empty() {
        "an empty output name".to_owned()
    } else {
        path.display().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_found_lists_every_vendor_and_reads_well_from_main() {
        let e = TracerError::NotFound {
            attempts: vec![
                VendorAttempt {
                    vendor: Vendor::Cupti,
                    reason: "CUPTI (libcupti) not found (install it); tried:\n  - a: no".into(),
                    tried: Vec::new(),
                },
                VendorAttempt::not_built(Vendor::Mspti),
            ],
        };
        let text = format!("{e:?}");
        assert!(
            text.starts_with("no accelerator profiling library found here\n- CUPTI: CUPTI (libcupti)"),
            "{text}"
        );
        assert!(text.contains("\n    - a: no"), "nested lists are indented: {text}");
        assert!(text.contains("- MSPTI: not built (the `mspti` feature"), "{text}");
    }
}
