use std::ffi::c_void;
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use crate::elf::{inspect, Inspection};
use crate::error::{missing_dependency, Attempt, LoadError, FOUND_BUT};
use crate::symbol::Resolver;

/// A check run on a candidate file before it is opened; `Err(reason)` refuses it.
///
/// Used where opening the real library can take the process down (MSPTI aborts when CANN is
/// missing): the check proves it is safe first.
pub type Preflight = fn(&Path) -> Result<(), String>;

/// A directory where a vendor usually installs its library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchPlace {
    /// How the directory was derived, for error messages (`"$CUDA_HOME/extras/CUPTI/lib64"`).
    pub origin: String,
    /// The directory.
    pub dir: PathBuf,
}

impl SearchPlace {
    /// A place described by `origin`.
    pub fn new(origin: impl Into<String>, dir: impl Into<PathBuf>) -> Self {
        SearchPlace { origin: origin.into(), dir: dir.into() }
    }

    /// `$VAR/<suffix>` for each suffix, when the environment variable is set and not empty.
    pub fn under_env(var: &str, suffixes: &[&str]) -> Vec<SearchPlace> {
        match std::env::var_os(var) {
            Some(v) if !v.is_empty() => suffixes
                .iter()
                .map(|s| {
                    let dir = if s.is_empty() { PathBuf::from(&v) } else { Path::new(&v).join(s) };
                    let origin = if s.is_empty() { format!("${var}") } else { format!("${var}/{s}") };
                    SearchPlace { origin, dir }
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Where and how to find one vendor library.
#[derive(Clone)]
pub struct LibrarySpec {
    /// Human name for messages (`"CUPTI (libcupti)"`).
    pub name: &'static str,
    /// Environment variable that may name the library file (`"CUPTI_LIBRARY_PATH"`).
    pub env_var: &'static str,
    /// File names to look for in each place, preferred first.
    pub file_names: &'static [&'static str],
    /// The vendor's usual directories, computed when searching (they read the environment).
    pub places: fn() -> Vec<SearchPlace>,
    /// Plain sonames handed to the system loader last (`LD_LIBRARY_PATH`, ld.so.cache).
    pub sonames: &'static [&'static str],
    /// Try first to reuse a copy the process has already loaded (`RTLD_NOLOAD`), so that a tool
    /// never maps a second copy of a library that keeps global state.
    pub reuse_loaded: bool,
    /// A check run before opening any candidate file.
    pub preflight: Option<Preflight>,
    /// Symbols every version of the vendor's library exports: a candidate lacking any of them is
    /// not that library and is never opened (looked up in the file's symbol table before
    /// `dlopen`, so another vendor's constructors never run) or kept (looked up with `dlsym` for
    /// a copy found by soname or already loaded).
    pub identity: &'static [&'static str],
    /// What a user can do when nothing is found.
    pub hint: &'static str,
}

impl fmt::Debug for LibrarySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LibrarySpec")
            .field("name", &self.name)
            .field("env_var", &self.env_var)
            .field("file_names", &self.file_names)
            .field("sonames", &self.sonames)
            .field("reuse_loaded", &self.reuse_loaded)
            .field("identity", &self.identity)
            .finish_non_exhaustive()
    }
}

/// An opened vendor library. It is never unloaded: vendor libraries start threads and keep
/// callbacks that could still run after a `dlclose`, so the mapping lives until the process ends.
#[derive(Debug, Clone)]
pub struct LoadedLibrary {
    library: &'static libloading::Library,
    name: &'static str,
    path: PathBuf,
    origin: String,
}

impl LoadedLibrary {
    /// What was passed to `dlopen` (a path, or a plain soname).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Which step of the search order found it.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Human name of the library.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// A resolver over this library's exported symbols.
    pub fn resolver(&self) -> Resolver {
        let lib = self.library;
        let find = move |name: &std::ffi::CStr| {
            // SAFETY: we only read the symbol's address; it is never dereferenced here.
            let sym = unsafe { lib.get::<*mut c_void>(name.to_bytes_with_nul()) };
            sym.ok().and_then(|s| NonNull::new(*s))
        };
        // SAFETY: the library is never unloaded (leaked in `open`), so every address it returns
        // stays valid for the life of the process; the caller pairs this resolver with bindings
        // generated from this vendor's headers.
        unsafe { Resolver::new(self.name, find) }
    }
}

/// A library file opened with [`open_file`]: its `dlopen` handle. Dropping it closes the handle
/// (the library stays mapped while another handle holds it); [`OpenedFile::keep_loaded`] keeps
/// it loaded for the life of the process instead.
#[derive(Debug)]
pub struct OpenedFile(libloading::Library);

impl OpenedFile {
    /// Whether the library exports `symbol` (only its address is looked up).
    pub fn has_symbol(&self, symbol: &str) -> bool {
        // SAFETY: the address is only looked up, never dereferenced or called.
        unsafe { self.0.get::<*mut c_void>(symbol.as_bytes()) }.is_ok()
    }

    /// The address of `symbol`, when the library exports it (only looked up here). It stays valid
    /// while this handle, or another, keeps the library loaded.
    pub fn symbol(&self, symbol: &std::ffi::CStr) -> Option<NonNull<c_void>> {
        // SAFETY: the address is only read, never dereferenced or called here.
        let found = unsafe { self.0.get::<*mut c_void>(symbol.to_bytes_with_nul()) };
        found.ok().and_then(|s| NonNull::new(*s))
    }

    /// Never closes this handle: the library stays loaded until the process ends (what a program
    /// linked against it would have).
    pub fn keep_loaded(self) {
        std::mem::forget(self.0);
    }
}

/// Opens the file at `path` with `dlopen(RTLD_LAZY | RTLD_LOCAL)`; with `no_load`, only if the
/// process already has it loaded (`RTLD_NOLOAD`: nothing new is loaded). The error is the
/// loader's message.
///
/// # Safety
/// Opening a library runs its initialisers: the caller vouches that they may run in this process
/// (vendor libraries are made to be opened by tools; files known to abort are refused first).
pub unsafe fn open_file(path: &Path, no_load: bool) -> Result<OpenedFile, String> {
    // SAFETY: forwarded to the caller.
    unsafe { open_library(path, no_load) }.map(OpenedFile)
}

/// [`open_file`]'s `dlopen`, the handle as `libloading` has it.
///
/// # Safety
/// As [`open_file`].
#[cfg(unix)]
unsafe fn open_library(path: &Path, no_load: bool) -> Result<libloading::Library, String> {
    use libloading::os::unix::{Library, RTLD_LAZY, RTLD_LOCAL};
    const RTLD_NOLOAD: std::os::raw::c_int = 0x4;
    let flags = RTLD_LAZY | RTLD_LOCAL | if no_load { RTLD_NOLOAD } else { 0 };
    // SAFETY: forwarded to the caller.
    unsafe { Library::open(Some(path), flags) }.map(Into::into).map_err(|e| e.to_string())
}

/// See the Unix version; reusing a loaded copy is not offered here.
///
/// # Safety
/// As on Unix.
#[cfg(not(unix))]
unsafe fn open_library(path: &Path, no_load: bool) -> Result<libloading::Library, String> {
    if no_load {
        return Err("reusing a loaded copy is only supported on Unix".into());
    }
    // SAFETY: forwarded to the caller.
    unsafe { libloading::Library::new(path) }.map_err(|e| e.to_string())
}

/// [`open_file`] for the search: the vendor libraries searched for are made to be opened by tools,
/// and files known to abort on open are refused by a [`Preflight`] before this.
fn dlopen(path: &Path, no_load: bool) -> Result<libloading::Library, String> {
    // SAFETY: as said above.
    unsafe { open_library(path, no_load) }
}

fn opened(lib: libloading::Library, spec: &LibrarySpec, path: PathBuf, origin: String) -> LoadedLibrary {
    LoadedLibrary { library: Box::leak(Box::new(lib)), name: spec.name, path, origin }
}

/// The identifying symbols of `spec` that the opened `lib` does not export.
fn lacks(spec: &LibrarySpec, lib: &libloading::Library) -> Vec<&'static str> {
    spec.identity
        .iter()
        .copied()
        // SAFETY: the address is only looked up, never dereferenced or called.
        .filter(|s| unsafe { lib.get::<*mut c_void>(s.as_bytes()) }.is_err())
        .collect()
}

fn wrong_library(missing: &[&str]) -> String {
    format!("not this library: it does not export {}", missing.join(", "))
}

/// Why the file at `path`, read without loading it, is not `spec`'s library: the reason, with the
/// identifying symbols it lacks when it is a shared object without them; `None` when it may be (an ELF
/// shared object of this machine defining them, or without a section table to tell).
fn refusal(spec: &LibrarySpec, path: &Path) -> Option<(String, Option<Vec<&'static str>>)> {
    match inspect(path, spec.identity) {
        Ok(Inspection::SharedObject { missing: None }) => None,
        Ok(Inspection::SharedObject { missing: Some(missing) }) if missing.is_empty() => None,
        Ok(Inspection::SharedObject { missing: Some(missing) }) => {
            Some((wrong_library(&missing), Some(missing)))
        }
        Ok(Inspection::Unusable(reason)) | Err(reason) => Some((reason, None)),
    }
}

/// Opens a vendor library, trying in order:
///
/// 1. `explicit`, when given (and nothing else: a caller who names a file gets that file or an error);
/// 2. when [`LibrarySpec::reuse_loaded`], a copy the process already has loaded;
/// 3. the file named by the environment variable [`LibrarySpec::env_var`];
/// 4. each of [`LibrarySpec::file_names`] in each of the vendor's usual [`LibrarySpec::places`];
/// 5. each plain soname through the system loader.
///
/// The error lists every place tried. A [`LibrarySpec::preflight`] failure refuses at once.
pub fn open(spec: &LibrarySpec, explicit: Option<&Path>) -> Result<LoadedLibrary, LoadError> {
    search(spec, explicit, false)
}

/// Like [`open`], but a copy of the library that this process has already loaded (any of
/// [`LibrarySpec::sonames`], found with `RTLD_NOLOAD`) wins over everything, `explicit` included.
///
/// For libraries that call *into* the caller (rocprofiler-sdk calls a tool's
/// `rocprofiler_configure`): inside such a process the loaded copy is the one whose state
/// matters, and mapping a second copy from another path would silently split that state.
/// When no copy is loaded, the search goes on exactly as [`open`]'s steps 1 and 3-5.
pub fn open_preferring_loaded(
    spec: &LibrarySpec,
    explicit: Option<&Path>,
) -> Result<LoadedLibrary, LoadError> {
    search(spec, explicit, true)
}

/// A copy the process already has loaded, after the spec's preflight (a loaded copy can still
/// need what it opens later; it is refused, not passed over: another copy must not be mapped).
fn reuse_loaded_copy(
    spec: &LibrarySpec,
    tried: &mut Vec<Attempt>,
) -> Result<Option<LoadedLibrary>, LoadError> {
    for soname in spec.sonames {
        match dlopen(Path::new(soname), true) {
            Ok(lib) if !lacks(spec, &lib).is_empty() => tried.push(Attempt {
                origin: "already loaded in this process".into(),
                path: PathBuf::from(soname),
                reason: wrong_library(&lacks(spec, &lib)),
            }),
            Ok(lib) => {
                if let Some(Err(reason)) = spec.preflight.map(|check| check(Path::new(soname))) {
                    return Err(LoadError::Refused {
                        library: spec.name,
                        path: PathBuf::from(soname),
                        reason,
                        tried: std::mem::take(tried),
                    });
                }
                return Ok(Some(opened(
                    lib,
                    spec,
                    PathBuf::from(soname),
                    "already loaded in this process".into(),
                )));
            }
            Err(_) => tried.push(Attempt {
                origin: "already loaded in this process".into(),
                path: PathBuf::from(soname),
                reason: "not loaded".into(),
            }),
        }
    }
    Ok(None)
}

/// Whether the search would take the file at `path` as `spec`'s library, read without loading it (no
/// constructor of it runs): a file, an ELF shared object of this machine whose dynamic symbol table
/// defines `spec.identity` (or that has no section table to tell), and that passes `spec.preflight`.
/// `Err(reason)`: why the search would pass it over or refuse it. Left unchecked: what only `dlopen`
/// tells (its dependencies found, and for a file without a section table, its symbols).
pub fn check_file(spec: &LibrarySpec, path: &Path) -> Result<(), String> {
    if !path.is_file() {
        return Err("no such file".into());
    }
    if let Some((reason, _)) = refusal(spec, path) {
        return Err(reason);
    }
    match spec.preflight {
        Some(check) => check(path),
        None => Ok(()),
    }
}

fn search(
    spec: &LibrarySpec,
    explicit: Option<&Path>,
    loaded_first: bool,
) -> Result<LoadedLibrary, LoadError> {
    let mut tried = Vec::new();
    if loaded_first {
        if let Some(lib) = reuse_loaded_copy(spec, &mut tried)? {
            return Ok(lib);
        }
    }
    // `explicit_call`: the caller named this file, so a refusal is the answer, not one more attempt.
    let try_file = |origin: String,
                    path: PathBuf,
                    explicit_call: bool,
                    tried: &mut Vec<Attempt>|
     -> Result<Option<LoadedLibrary>, LoadError> {
        if path.as_os_str().is_empty() {
            return Err(LoadError::EmptyPath { library: spec.name });
        }
        let is_file = path.components().count() > 1;
        if is_file && !path.exists() {
            tried.push(Attempt { origin, path, reason: "no such file".into() });
            return Ok(None);
        }
        if is_file {
            if let Some((reason, missing)) = refusal(spec, &path) {
                tried.push(Attempt { origin, path: path.clone(), reason: reason.clone() });
                if !explicit_call {
                    return Ok(None);
                }
                let tried = std::mem::take(tried);
                return Err(match missing {
                    Some(missing) => LoadError::WrongLibrary { library: spec.name, path, missing, tried },
                    None => LoadError::NotALibrary { library: spec.name, path, reason, tried },
                });
            }
        }
        if let Some(check) = spec.preflight {
            if let Err(reason) = check(&path) {
                return Err(LoadError::Refused {
                    library: spec.name,
                    path,
                    reason,
                    tried: std::mem::take(tried),
                });
            }
        }
        match dlopen(&path, false) {
            Ok(lib) => {
                let missing = lacks(spec, &lib);
                if missing.is_empty() {
                    return Ok(Some(opened(lib, spec, path, origin)));
                }
                // Not the vendor's library (found by soname, or a file without a section table):
                // closed again, never kept.
                drop(lib);
                tried.push(Attempt { origin, path: path.clone(), reason: wrong_library(&missing) });
                if !explicit_call {
                    return Ok(None);
                }
                Err(LoadError::WrongLibrary {
                    library: spec.name,
                    path,
                    missing,
                    tried: std::mem::take(tried),
                })
            }
            Err(message) => match missing_dependency(&path, &message) {
                Some(dependency) => {
                    tried.push(Attempt {
                        origin,
                        path: path.clone(),
                        reason: format!("{FOUND_BUT}{message}"),
                    });
                    Err(LoadError::DependencyMissing {
                        library: spec.name,
                        path,
                        dependency,
                        hint: spec.hint,
                        tried: std::mem::take(tried),
                    })
                }
                None => {
                    // A file handed over by path exists (checked above); a soname the loader
                    // resolved but could not load is reported as found too.
                    let found = is_file || !message.contains("cannot open shared object file");
                    let reason = if found { format!("{FOUND_BUT}{message}") } else { message };
                    tried.push(Attempt { origin, path, reason });
                    Ok(None)
                }
            },
        }
    };

    if let Some(path) = explicit {
        return match try_file("explicit path".into(), path.to_path_buf(), true, &mut tried)? {
            Some(lib) => Ok(lib),
            None => Err(LoadError::NotFound { library: spec.name, hint: spec.hint, tried }),
        };
    }

    if spec.reuse_loaded && !loaded_first {
        if let Some(lib) = reuse_loaded_copy(spec, &mut tried)? {
            return Ok(lib);
        }
    }

    match std::env::var_os(spec.env_var) {
        Some(v) if !v.is_empty() => {
            if let Some(lib) = try_file(format!("${}", spec.env_var), PathBuf::from(v), false, &mut tried)? {
                return Ok(lib);
            }
        }
        _ => tried.push(Attempt {
            origin: format!("${}", spec.env_var),
            path: PathBuf::new(),
            reason: "not set".into(),
        }),
    }

    for place in (spec.places)() {
        let candidates: Vec<PathBuf> =
            spec.file_names.iter().map(|f| place.dir.join(f)).filter(|p| p.exists()).collect();
        if candidates.is_empty() {
            tried.push(Attempt {
                origin: place.origin.clone(),
                path: place.dir.clone(),
                reason: format!("none of {} here", spec.file_names.join(", ")),
            });
            continue;
        }
        for path in candidates {
            if let Some(lib) = try_file(place.origin.clone(), path, false, &mut tried)? {
                return Ok(lib);
            }
        }
    }

    for soname in spec.sonames {
        if let Some(lib) = try_file("system loader".into(), PathBuf::from(soname), false, &mut tried)? {
            return Ok(lib);
        }
    }

    Err(LoadError::NotFound { library: spec.name, hint: spec.hint, tried })
}
