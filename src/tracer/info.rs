//! What a tracer opened ([`LibraryInfo`]) and what it could not collect ([`Skipped`]).

use std::fmt;
use std::path::PathBuf;

use accelprof_core::columns::Family;

use super::Vendor;

/// The vendor library a tracer uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryInfo {
    /// The vendor.
    pub vendor: Vendor,
    /// The file opened (or the plain soname the system loader found).
    pub path: PathBuf,
    /// Its version, as the library reports it (`130001`, `1.0.0`, or empty when it has no call for it).
    pub version: String,
    /// How it was found (`$CUPTI_LIBRARY_PATH`, `already loaded in this process`, `explicit path`).
    pub found: String,
}

impl fmt::Display for LibraryInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.vendor)?;
        if !self.version.is_empty() {
            write!(f, " {}", self.version)?;
        }
        write!(f, " from {}", self.path.display())?;
        if !self.found.is_empty() {
            write!(f, " ({})", self.found)?;
        }
        Ok(())
    }
}

/// A family (or one vendor kind of it) asked for that the tracer does not collect, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The family.
    pub family: Family,
    /// The vendor's kind, when only that kind of the family is missing (`MEMCPY`, `RCCL_API`).
    pub kind: Option<String>,
    /// Why (the vendor crate's message says what to do, where something can be done).
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Some(kind) => write!(f, "{} ({kind}): {}", self.family.name(), self.reason),
            None => write!(f, "{}: {}", self.family.name(), self.reason),
        }
    }
}
