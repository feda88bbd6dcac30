//! [`Vendor`]: which profiling library a tracer uses.

use std::fmt;
use std::str::FromStr;

/// Which vendor's profiling library the tracer uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Vendor {
    /// The first of CUPTI, rocprofiler-sdk and MSPTI (in that order) whose library is found; for
    /// CUPTI, only with a usable GPU driver (a `libcupti` from a Python wheel on a machine without
    /// an NVIDIA GPU is passed over). Vendors whose feature is off are not looked for.
    #[default]
    Auto,
    /// NVIDIA CUPTI (`libcupti`), the `cupti` crate.
    Cupti,
    /// Huawei Ascend MSPTI (`libmspti.so`), the `mspti` crate.
    Mspti,
    /// AMD rocprofiler-sdk (`librocprofiler-sdk.so`), the `rocprofiler` crate.
    Rocprofiler,
}

impl Vendor {
    /// The vendors [`Vendor::Auto`] tries, in order.
    pub const SEARCH_ORDER: [Vendor; 3] = [Vendor::Cupti, Vendor::Rocprofiler, Vendor::Mspti];

    /// `auto`, `cupti`, `mspti`, `rocprofiler`: the name [`FromStr`] reads and the feature's name.
    pub fn name(self) -> &'static str {
        match self {
            Vendor::Auto => "auto",
            Vendor::Cupti => "cupti",
            Vendor::Mspti => "mspti",
            Vendor::Rocprofiler => "rocprofiler",
        }
    }

    /// The library's human name (`CUPTI`, `MSPTI`, `rocprofiler-sdk`).
    pub fn library_name(self) -> &'static str {
        match self {
            Vendor::Auto => "any vendor library",
            Vendor::Cupti => "CUPTI",
            Vendor::Mspti => "MSPTI",
            Vendor::Rocprofiler => "rocprofiler-sdk",
        }
    }

    /// Whether this build has the vendor (its cargo feature is on). `Auto` is always built.
    pub fn is_built(self) -> bool {
        match self {
            Vendor::Auto => true,
            Vendor::Cupti => cfg!(feature = "cupti"),
            Vendor::Mspti => cfg!(feature = "mspti"),
            Vendor::Rocprofiler => cfg!(feature = "rocprofiler"),
        }
    }
}

impl fmt::Display for Vendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.library_name())
    }
}

impl FromStr for Vendor {
    type Err = String;

    /// `auto`, `cupti`, `mspti` or `rocprofiler` (any case; `cuda`, `nvidia`, `ascend`, `rocm`, `amd`
    /// too).
    fn from_str(s: &str) -> Result<Vendor, String> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(Vendor::Auto),
            "cupti" | "cuda" | "nvidia" => Ok(Vendor::Cupti),
            "mspti" | "ascend" | "npu" => Ok(Vendor::Mspti),
            "rocprofiler" | "rocprofiler-sdk" | "rocm" | "amd" | "hip" => Ok(Vendor::Rocprofiler),
            other => Err(format!("unknown vendor `{other}` (auto, cupti, mspti, rocprofiler)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for v in [Vendor::Auto, Vendor::Cupti, Vendor::Mspti, Vendor::Rocprofiler] {
            assert_eq!(v.name().parse::<Vendor>(), Ok(v));
        }
        assert_eq!("ROCm".parse::<Vendor>(), Ok(Vendor::Rocprofiler));
        assert!("opencl".parse::<Vendor>().unwrap_err().contains("auto, cupti, mspti, rocprofiler"));
    }
}
