//! [`Version`]: a vendor library's version, one shape for every vendor crate's `version()`.

use std::fmt;

/// A library's version: `major.minor.patch`, ordered as numbers.
///
/// ```
/// use accelprof_core::Version;
/// let v = Version::from_encoded(130_001); // CUPTI 13's and MSPTI's encoding
/// assert_eq!(v, Version::new(13, 0, 1));
/// assert_eq!(v.to_string(), "13.0.1");
/// assert!(v > Version::new(12, 9, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// The major number.
    pub major: u32,
    /// The minor number.
    pub minor: u32,
    /// The patch number.
    pub patch: u32,
}

impl Version {
    /// `major.minor.patch`.
    pub const fn new(major: u32, minor: u32, patch: u32) -> Version {
        Version { major, minor, patch }
    }

    /// The `major * 10000 + minor * 100 + patch` encoding of `cuptiGetVersion` (13.0 and later) and
    /// `msptiGetVersion`.
    pub const fn from_encoded(encoded: u32) -> Version {
        Version { major: encoded / 10_000, minor: encoded / 100 % 100, patch: encoded % 100 }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}
