//! The vendors: which profiling library this machine has (the loaders' search, their typed errors),
//! which driver or runtime, and `accelprof info`.

use std::path::{Path, PathBuf};

use accelprof_loader::{LibrarySpec, LoadError};

/// A vendor the command traces on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Vendor {
    /// NVIDIA CUPTI.
    Cuda,
    /// AMD rocprofiler-sdk.
    Rocm,
    /// Huawei Ascend MSPTI.
    Ascend,
}

impl Vendor {
    /// In the order `auto` prefers them when several are present.
    pub(crate) const ALL: [Vendor; 3] = [Vendor::Cuda, Vendor::Rocm, Vendor::Ascend];

    /// `cuda|rocm|ascend` and their aliases; `auto` is `None`.
    pub(crate) fn parse(name: &str) -> Result<Option<Vendor>, String> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Ok(None),
            "cuda" | "cupti" | "nvidia" => Ok(Some(Vendor::Cuda)),
            "rocm" | "rocprofiler" | "rocprofiler-sdk" | "amd" | "hip" => Ok(Some(Vendor::Rocm)),
            "ascend" | "mspti" | "huawei" | "npu" => Ok(Some(Vendor::Ascend)),
            other => Err(format!("--vendor {other:?}: unknown vendor ({})", Vendor::ACCEPTED)),
        }
    }

    /// The names [`parse`](Self::parse) takes, as said in its errors.
    pub(crate) const ACCEPTED: &'static str =
        "cuda, rocm, ascend, auto; or cupti, nvidia, rocprofiler, amd, mspti, huawei";

    /// The name the engine reads in `ACCELPROF_VENDOR`.
    pub(crate) fn engine_name(self) -> &'static str {
        match self {
            Vendor::Cuda => "cupti",
            Vendor::Rocm => "rocprofiler",
            Vendor::Ascend => "mspti",
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Vendor::Cuda => "cuda",
            Vendor::Rocm => "rocm",
            Vendor::Ascend => "ascend",
        }
    }

    /// The profiling library's search (the vendor's -sys crate's loader).
    pub(crate) fn spec(self) -> &'static LibrarySpec {
        match self {
            Vendor::Cuda => &cupti_sys::SPEC,
            Vendor::Rocm => &rocprofiler_sys::SPEC,
            Vendor::Ascend => &mspti_sys::SPEC,
        }
    }

    /// The driver or runtime whose presence says the machine runs this vendor's devices.
    fn driver(self) -> &'static str {
        match self {
            Vendor::Cuda => "libcuda.so.1",
            Vendor::Rocm => "libamdhip64.so",
            Vendor::Ascend => "libascendcl.so",
        }
    }
}

/// What the search for one vendor's profiling library found.
#[derive(Debug)]
pub(crate) struct Found {
    pub(crate) vendor: Vendor,
    pub(crate) library: Result<PathBuf, LoadError>,
    /// The version, when the library says it without a device (CUPTI's `cuptiGetVersion`,
    /// rocprofiler-sdk's `rocprofiler_get_version`).
    pub(crate) version: Option<String>,
}

/// Looks for `vendor`'s profiling library, as its crate would (the same search order; a candidate is
/// opened only once its symbol table says it is that library, MSPTI's after its preflight).
pub(crate) fn find(vendor: Vendor) -> Found {
    let library = accelprof_loader::open(vendor.spec(), None).map(|l| l.path().to_path_buf());
    let version = match (&library, vendor) {
        (Ok(path), Vendor::Cuda) => {
            cupti::Cupti::open_path(path).ok().map(|c| cupti_version(c.api_version()))
        }
        // `rocprofiler_get_version` answers at any time, before any tool configured.
        (Ok(path), Vendor::Rocm) => {
            rocprofiler::Rocprofiler::open_path(path).and_then(|r| r.version()).ok().map(|v| v.to_string())
        }
        // MSPTI has no version call.
        _ => None,
    };
    Found { vendor, library, version }
}

/// Where `vendor`'s profiling library is, looked for WITHOUT loading it (no constructor of a vendor
/// library runs in the command): its variable, its usual directories, then the system loader's path,
/// by file name. What `trace` uses to pick a vendor and to name the SDK it preloads; `info` opens.
///
/// A file counts only when the search `info` runs would take it, as far as that can be told without
/// loading it ([`accelprof_loader::check_file`]: a shared object of this machine defining the vendor's
/// identifying symbols, past the vendor's preflight): any file named by `CUPTI_LIBRARY_PATH` picked CUDA
/// where `info` said CUPTI was not there. What only loading tells (a dependency missing) `info` alone
/// sees; a library found by soname on the loader's path is taken by name.
pub(crate) fn locate(vendor: Vendor) -> Option<PathBuf> {
    let spec = vendor.spec();
    let usable = |path: &Path| accelprof_loader::check_file(spec, path).is_ok();
    if let Some(path) = std::env::var_os(spec.env_var).map(PathBuf::from).filter(|p| usable(p)) {
        return Some(path);
    }
    for place in (spec.places)() {
        if let Some(path) = spec.file_names.iter().map(|n| place.dir.join(n)).find(|p| usable(p)) {
            return Some(path);
        }
    }
    spec.sonames.iter().find(|s| on_loader_path(s)).map(PathBuf::from)
}

/// `cuptiGetVersion`'s number as a release: 12.x counts from 1 (CUPTI API version), 13.x is
/// `major * 10000 + minor * 100 + patch`.
fn cupti_version(v: u32) -> String {
    if v >= 10000 {
        format!("{}.{}.{} (cuptiGetVersion {v})", v / 10000, v / 100 % 100, v % 100)
    } else {
        format!("API version {v} (cuptiGetVersion)")
    }
}

/// Whether this machine has `vendor`'s driver or runtime, looked for without loading it: in
/// `LD_LIBRARY_PATH`, the system loader's cache, and the vendor's usual directories.
pub(crate) fn has_driver(vendor: Vendor) -> bool {
    on_loader_path(vendor.driver())
}

/// Whether the system loader would find the library `name` (no `/`), looked for without loading it:
/// in `LD_LIBRARY_PATH`, the vendors' usual directories, and the loader's cache.
fn on_loader_path(name: &str) -> bool {
    let mut dirs: Vec<PathBuf> =
        std::env::var_os("LD_LIBRARY_PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
    for (var, sub) in [("ROCM_PATH", "lib"), ("ASCEND_HOME_PATH", "lib64"), ("CUDA_HOME", "lib64")] {
        if let Some(root) = std::env::var_os(var) {
            dirs.push(Path::new(&root).join(sub));
        }
    }
    dirs.extend(["/opt/rocm/lib", "/usr/local/Ascend/ascend-toolkit/latest/lib64"].map(PathBuf::from));
    if dirs.iter().any(|d| d.join(name).is_file()) {
        return true;
    }
    // The cache holds each library's name NUL-terminated.
    let mut needle = name.as_bytes().to_vec();
    needle.push(0);
    std::fs::read("/etc/ld.so.cache").is_ok_and(|cache| cache.windows(needle.len()).any(|w| w == needle))
}

/// The vendor `auto` picks: the one whose library is found ([`locate`]); of several, the first whose
/// driver is present (else the first found). With no library found, the one vendor whose driver is
/// present: the program may bring the library itself (PyTorch's CUDA wheels carry libcupti in the
/// program's own environment, where the injected library finds it). `Err`: neither, with `info`'s
/// lines.
pub(crate) fn pick() -> Result<Vendor, String> {
    pick_from(&Vendor::ALL.into_iter().filter(|v| locate(*v).is_some()).collect::<Vec<_>>(), has_driver)
}

fn pick_from(present: &[Vendor], has_driver: impl Fn(Vendor) -> bool) -> Result<Vendor, String> {
    let drivers: Vec<Vendor> = Vendor::ALL.into_iter().filter(|v| has_driver(*v)).collect();
    match present {
        [] if drivers.len() == 1 => Ok(drivers[0]),
        [] => Err(Vendor::ALL.into_iter().map(|v| line(&find(v), false)).collect::<Vec<_>>().join("\n")),
        [one] => Ok(*one),
        several => Ok(several.iter().copied().find(|v| has_driver(*v)).unwrap_or(several[0])),
    }
}

/// `info`'s line for one vendor (with `verbose`, every place looked in on lines of their own).
pub(crate) fn line(found: &Found, verbose: bool) -> String {
    let head = format!("{:<7}{}", found.vendor.name(), found.vendor.spec().name);
    match &found.library {
        Ok(path) => {
            let version = found.version.as_ref().map_or(String::new(), |v| format!(", version {v}"));
            let driver = if has_driver(found.vendor) { "" } else { " (no driver found)" };
            format!("{head}: found at {}{version}{driver}", path.display())
        }
        Err(e) => {
            let tried = e.tried();
            // A file that exists nowhere is "not found", whatever refused it first (MSPTI's preflight
            // checks the plain soname's dependencies before the loader looks for it).
            let exists = |p: &Path| {
                if p.components().count() > 1 {
                    p.is_file()
                } else {
                    on_loader_path(&p.to_string_lossy())
                }
            };
            let refused_exists = matches!(e, LoadError::Refused { path, .. } if exists(path));
            let what = match e {
                LoadError::NotFound { .. } | LoadError::Refused { .. }
                    if !refused_exists
                        && !tried.iter().any(|a| {
                            a.reason.starts_with("exists")
                                || (!a.path.as_os_str().is_empty() && exists(&a.path))
                        }) =>
                {
                    "not found".to_owned()
                }
                // Found but refused, or its dependency missing: the loader's headline says which.
                other => {
                    let first = other.to_string().lines().next().unwrap_or("not loaded").to_owned();
                    match first.char_indices().nth(200) {
                        Some((cut, _)) if !verbose => format!("{}... (accelprof info -v)", &first[..cut]),
                        _ => first,
                    }
                }
            };
            // Each place once, in search order (a soname is tried as a loaded copy and by the loader).
            let mut places: Vec<String> = Vec::new();
            for a in tried {
                let place = if a.path.as_os_str().is_empty() {
                    a.origin.clone()
                } else {
                    a.path.display().to_string()
                };
                if !places.contains(&place) {
                    places.push(place);
                }
            }
            let mut text = if verbose {
                format!("{head}: {what} (looked in {} places):", places.len())
            } else {
                format!("{head}: {what} (looked in {} places: {})", places.len(), places.join(", "))
            };
            if verbose {
                for attempt in tried {
                    text.push_str(&format!("\n         {attempt}"));
                }
            }
            if tried.is_empty() {
                text = format!("{head}: {e}").replace('\n', " ");
            }
            text
        }
    }
}

/// `accelprof info`: one line per vendor. Exit status 0 (finding nothing is an answer).
pub(crate) fn info(verbose: bool) -> std::process::ExitCode {
    let mut text = String::new();
    for vendor in Vendor::ALL {
        let line = line(&find(vendor), verbose);
        text.push_str(&accelprof_export::summary::escape_control_lines(&line));
        text.push('\n');
    }
    crate::out(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_no_library_found_the_one_vendor_whose_driver_is_present_is_picked() {
        // A PyTorch machine: libcuda.so.1 installed, libcupti only inside the program's wheels.
        assert_eq!(pick_from(&[], |v| v == Vendor::Cuda), Ok(Vendor::Cuda));
        assert!(pick_from(&[], |_| false).is_err(), "nothing found, no driver: a usage error");
        assert!(
            pick_from(&[], |v| v != Vendor::Ascend).is_err(),
            "two drivers, no library: ask for --vendor"
        );
        assert_eq!(
            pick_from(&[Vendor::Rocm], |v| v == Vendor::Cuda),
            Ok(Vendor::Rocm),
            "a found library wins"
        );
    }
}
