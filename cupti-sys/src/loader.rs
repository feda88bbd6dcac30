//! Finding and opening `libcupti` at run time.

use std::fs;
use std::path::{Path, PathBuf};

use accelprof_loader::{LibrarySpec, SearchPlace};

use crate::CuptiFunctions;

/// Environment variable naming the `libcupti` file to open (checked right after an explicit path).
pub const LIBRARY_PATH_VAR: &str = "CUPTI_LIBRARY_PATH";

/// The toolkit's per-architecture library directory under a CUDA root.
#[cfg(target_arch = "aarch64")]
const TARGET_LIB: &str = "targets/sbsa-linux/lib";
/// The toolkit's per-architecture library directory under a CUDA root.
#[cfg(not(target_arch = "aarch64"))]
const TARGET_LIB: &str = "targets/x86_64-linux/lib";

/// Directories under a CUDA root where `libcupti` lives, in the order searched.
const CUDA_SUBDIRS: [&str; 3] = ["extras/CUPTI/lib64", "lib64", TARGET_LIB];

/// Directories of the CUPTI Python wheels under a `site-packages` directory: 13.x
/// (`nvidia-cuda-cupti`) first, then 12.x (`nvidia-cuda-cupti-cu12`).
const WHEEL_SUBDIRS: [&str; 2] = ["nvidia/cu13/lib", "nvidia/cuda_cupti/lib"];

/// Symbols every version of the library exports: a file lacking any is not this library (and is
/// never opened; see [`LibrarySpec::identity`]).
pub const IDENTITY: &[&str] = &["cuptiGetVersion", "cuptiSubscribe", "cuptiActivityRegisterCallbacks"];

/// Where and how `libcupti` is looked for. See [`search_places`] for the usual places.
pub const SPEC: LibrarySpec = LibrarySpec {
    name: "CUPTI (libcupti)",
    env_var: LIBRARY_PATH_VAR,
    file_names: &["libcupti.so", "libcupti.so.13", "libcupti.so.12"],
    places: search_places,
    sonames: &["libcupti.so", "libcupti.so.13", "libcupti.so.12"],
    // Inside a process that already mapped a libcupti (PyTorch's profiler, another tool), use that
    // copy: two copies of CUPTI in one process each think they own the driver's callbacks.
    reuse_loaded: true,
    preflight: None,
    identity: IDENTITY,
    hint:
        "install CUDA's CUPTI, or `pip install nvidia-cuda-cupti` (13.x) or `nvidia-cuda-cupti-cu12` (12.x), \
           or set CUPTI_LIBRARY_PATH to the libcupti.so file",
};

/// The usual places of `libcupti`, in the order searched (computed from the environment now):
///
/// 1. `$CUDA_HOME`, then `$CUDA_PATH`: each of `extras/CUPTI/lib64`, `lib64`,
///    `targets/<arch>-linux/lib`;
/// 2. the same three under `/usr/local/cuda`;
/// 3. the CUPTI Python wheels, `nvidia/cu13/lib` then `nvidia/cuda_cupti/lib`, in every
///    `site-packages` / `dist-packages` directory found (without running Python) under
///    `$VIRTUAL_ENV`, `$CONDA_PREFIX`, each entry of `$PYTHONPATH`, `~/.local`, `/usr/local`
///    and `/usr`, newest Python first.
///
/// A directory reached twice is listed once. [`Library::open`] tries an explicit path and
/// `$CUPTI_LIBRARY_PATH` before these, and the plain sonames (`libcupti.so`, `libcupti.so.13`,
/// `libcupti.so.12`, through the system loader) after them.
pub fn search_places() -> Vec<SearchPlace> {
    let mut places = Vec::new();
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        places.extend(SearchPlace::under_env(var, &CUDA_SUBDIRS));
    }
    for sub in CUDA_SUBDIRS {
        places
            .push(SearchPlace::new(format!("/usr/local/cuda/{sub}"), Path::new("/usr/local/cuda").join(sub)));
    }
    for (origin, site) in site_packages() {
        for sub in WHEEL_SUBDIRS {
            places.push(SearchPlace::new(format!("Python wheel ({origin}): {sub}"), site.join(sub)));
        }
    }
    let mut seen = std::collections::HashSet::new();
    places.retain(|p| seen.insert(p.dir.clone()));
    places
}

/// `site-packages` / `dist-packages` directories that exist, each with how it was found.
fn site_packages() -> Vec<(String, PathBuf)> {
    let mut prefixes: Vec<(String, PathBuf)> = Vec::new();
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            prefixes.push((format!("${var}"), PathBuf::from(v)));
        }
    }
    let mut sites = Vec::new();
    for (origin, prefix) in &prefixes {
        sites.extend(python_dirs(&prefix.join("lib"), origin));
    }
    if let Some(v) = std::env::var_os("PYTHONPATH") {
        for dir in std::env::split_paths(&v).filter(|d| d.is_dir()) {
            sites.push(("$PYTHONPATH".to_owned(), dir));
        }
    }
    if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        sites.extend(python_dirs(&Path::new(&home).join(".local/lib"), "~/.local"));
    }
    sites.extend(python_dirs(Path::new("/usr/local/lib"), "/usr/local"));
    sites.extend(python_dirs(Path::new("/usr/lib"), "/usr"));
    sites
}

/// `<lib>/python3.X/{site,dist}-packages` (and Debian's `<lib>/python3/dist-packages`) that
/// exist, newest Python first.
fn python_dirs(lib: &Path, origin: &str) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(lib) else { return Vec::new() };
    let mut versions: Vec<(u32, String)> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let minor = name.strip_prefix("python3")?;
            let minor = match minor.strip_prefix('.') {
                Some(m) => m.parse().ok()?,
                None if minor.is_empty() => 0,
                None => return None,
            };
            Some((minor, name))
        })
        .collect();
    versions.sort_by_key(|v| std::cmp::Reverse(v.0));
    let mut out = Vec::new();
    for (_, name) in versions {
        for kind in ["site-packages", "dist-packages"] {
            let dir = lib.join(&name).join(kind);
            if dir.is_dir() {
                out.push((origin.to_owned(), dir));
            }
        }
    }
    out
}

/// An opened `libcupti` and its lazily resolved functions (see [`accelprof_loader::Library`]).
///
/// [`Library::open`] takes `explicit` when given (that file or an error); otherwise a libcupti the
/// process already mapped, the file named by `$CUPTI_LIBRARY_PATH`, the [`search_places`], then
/// the plain sonames through the system loader. The error lists every place tried, in order.
/// The library stays mapped until the process ends (CUPTI runs threads and callbacks that could
/// outlive an unload). Functions resolve on first call: one this library version lacks returns
/// [`accelprof_loader::MissingSymbol`] naming it (see [`CuptiFunctions::missing`]).
pub type Library = accelprof_loader::Library<CuptiFunctions>;

impl accelprof_loader::FunctionTable for CuptiFunctions {
    const SPEC: &'static LibrarySpec = &SPEC;
    /// Through the CUPTI sharing shim when the process has it ([`shared_resolver`]), else `resolver`.
    fn from_resolver(resolver: accelprof_loader::Resolver) -> Self {
        CuptiFunctions::new(shared_resolver(resolver))
    }
}

/// The sharing shim's functions (`libcupti_shim.so`, crate `cupti-shim`), when the process has it.
#[cfg(unix)]
mod shim {
    use std::ffi::{c_char, c_int, c_void, CStr};
    use std::ptr::NonNull;
    use std::sync::OnceLock;

    extern "C" {
        fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    }

    type ClientFn = unsafe extern "C" fn(*const c_char) -> c_int;
    type SymbolFn = unsafe extern "C" fn(c_int, *const c_char) -> *mut c_void;

    /// This process's slot in the shim and its lookup, when the shim is loaded and gave a slot.
    pub(super) fn lookup() -> Option<(c_int, SymbolFn)> {
        static FOUND: OnceLock<Option<(c_int, usize)>> = OnceLock::new();
        let found = *FOUND.get_or_init(|| {
            // SAFETY: RTLD_DEFAULT (NULL on glibc) and NUL-terminated names; the addresses found are
            // the shim's exported functions of these C signatures (docs/CUPTI-SHARING.md).
            unsafe {
                let marker = dlsym(std::ptr::null_mut(), c"accelprof_cupti_shim_marker".as_ptr());
                let client = dlsym(std::ptr::null_mut(), c"accelprof_cupti_shim_client".as_ptr());
                let symbol = dlsym(std::ptr::null_mut(), c"accelprof_cupti_shim_symbol".as_ptr());
                if marker.is_null() || client.is_null() || symbol.is_null() {
                    return None;
                }
                let client = std::mem::transmute::<*mut c_void, ClientFn>(client);
                let slot = client(c"cupti-rs".as_ptr());
                (slot >= 0).then_some((slot, symbol as usize))
            }
        });
        // SAFETY: the address stored is the shim's `accelprof_cupti_shim_symbol`.
        found.map(|(slot, f)| (slot, unsafe { std::mem::transmute::<usize, SymbolFn>(f) }))
    }

    /// `name` as the shim hands it to our slot.
    pub(super) fn find(slot: c_int, symbol: SymbolFn, name: &CStr) -> Option<NonNull<c_void>> {
        // SAFETY: the shim's lookup with a slot it gave and a NUL-terminated name.
        NonNull::new(unsafe { symbol(slot, name.as_ptr()) })
    }
}

/// `resolver`, or, when the process has the CUPTI sharing shim loaded (preloaded by `accelprof trace`;
/// see the repository's `docs/CUPTI-SHARING.md`), a resolver that asks the shim for every function:
/// its own for the calls it shares between clients (subscription, buffer callbacks, enables, flush,
/// dropped counts, finalize), NULL for `cuptiSubscribe_v2` and the V2 activity functions (a client
/// of the shim uses the V1 API), and the real library's, from the copy the shim shares, for the
/// rest. This crate is then one client of the shim next to the program's own (PyTorch's profiler).
pub fn shared_resolver(resolver: accelprof_loader::Resolver) -> accelprof_loader::Resolver {
    #[cfg(unix)]
    if let Some((slot, symbol)) = shim::lookup() {
        let library = resolver.library();
        // SAFETY: the shim returns, for each CUPTI name, a function of that name's C signature (its
        // own or the real library's), valid for the life of the process (neither is unloaded).
        return unsafe {
            accelprof_loader::Resolver::new(library, move |name| shim::find(slot, symbol, name))
        };
    }
    resolver
}
