//! Finding and opening `libmspti.so`, and refusing the files that would take the process down.

use std::path::{Path, PathBuf};

use accel_loader::{LibrarySpec, SearchPlace};

use crate::generated::functions::MsptiFunctions;

/// Environment variable that may name the `libmspti.so` file to open.
pub const ENV_VAR: &str = "MSPTI_LIBRARY_PATH";

/// Where a CANN toolkit is usually installed when no environment variable says.
pub const DEFAULT_TOOLKIT: &str = "/usr/local/Ascend/ascend-toolkit/latest";

/// The CANN libraries that `libmspti.so` opens from a static constructor, with the symbols it
/// requires of them. Missing either (or those symbols) makes that constructor throw, which
/// aborts the process.
pub const CANN_DEPENDENCIES: &[(&str, &[&str])] = &[
    ("libascendalog.so", &["CheckLogLevelForC", "DlogInnerForC"]),
    ("libprofapi.so", &["MsprofRegisterProfileCallback"]),
];

const HINT: &str = "install the CANN toolkit and `source <toolkit>/set_env.sh` (it sets ASCEND_HOME_PATH), \
     or set MSPTI_LIBRARY_PATH to the libmspti.so file";

/// The search order:
/// 1. an explicit path (and nothing else);
/// 2. a copy already loaded in this process (for example through `LD_PRELOAD`, which MSPTI's
///    callbacks need anyway), so that a second copy with its own state is never mapped;
/// 3. `$MSPTI_LIBRARY_PATH`;
/// 4. `$ASCEND_HOME_PATH`, `$ASCEND_TOOLKIT_HOME` and `/usr/local/Ascend/ascend-toolkit/latest`,
///    each with `lib64` and `tools/mspti/lib64`;
/// 5. the plain soname `libmspti.so` through the system loader.
///
/// Every candidate file goes through [`preflight`] first.
pub static SPEC: LibrarySpec = LibrarySpec {
    name: "MSPTI (libmspti)",
    env_var: ENV_VAR,
    file_names: &["libmspti.so"],
    places,
    sonames: &["libmspti.so"],
    reuse_loaded: true,
    preflight: Some(preflight),
    hint: HINT,
};

const SUBDIRS: &[&str] = &["lib64", "tools/mspti/lib64"];

/// The vendor's usual directories, in search order (reads the environment now).
pub fn places() -> Vec<SearchPlace> {
    let mut places = SearchPlace::under_env("ASCEND_HOME_PATH", SUBDIRS);
    places.extend(SearchPlace::under_env("ASCEND_TOOLKIT_HOME", SUBDIRS));
    for sub in SUBDIRS {
        places
            .push(SearchPlace::new(format!("{DEFAULT_TOOLKIT}/{sub}"), Path::new(DEFAULT_TOOLKIT).join(sub)));
    }
    places
}

fn dlopen(path: &Path, no_load: bool) -> Result<libloading::Library, String> {
    // SAFETY: opening a CANN library runs its initialisers, exactly as `libmspti.so` would when
    // it opens the same file a moment later; with `no_load` nothing new is loaded.
    unsafe { accel_loader::open_file(path, no_load) }
}

/// Where `libmspti.so` will open `lib` from: `$ASCEND_HOME_PATH/lib64/<lib>` when that file
/// exists, else the plain name through the system loader (it has no RPATH).
fn dependency_path(lib: &str) -> (String, PathBuf) {
    if let Some(home) = std::env::var_os("ASCEND_HOME_PATH").filter(|h| !h.is_empty()) {
        let p = Path::new(&home).join("lib64").join(lib);
        if p.is_file() {
            return ("$ASCEND_HOME_PATH/lib64".into(), p);
        }
    }
    ("system loader".into(), PathBuf::from(lib))
}

/// Checks that opening `candidate` cannot abort the process: it is already loaded, or the CANN
/// libraries its static constructor needs ([`CANN_DEPENDENCIES`]) can be opened from the places
/// it will look (`$ASCEND_HOME_PATH/lib64`, else the system loader's path) and export what it
/// calls. The opened dependencies stay loaded, as `libmspti.so` would keep them.
///
/// `Err` says what is missing and what to install or set.
pub fn preflight(candidate: &Path) -> Result<(), String> {
    if dlopen(candidate, true).is_ok() {
        return Ok(());
    }
    let mut problems = Vec::new();
    for (lib, symbols) in CANN_DEPENDENCIES {
        let (origin, path) = dependency_path(lib);
        match dlopen(&path, false) {
            Ok(handle) => {
                let missing: Vec<&str> = symbols
                    .iter()
                    .copied()
                    .filter(|s| {
                        let name = format!("{s}\0");
                        // SAFETY: only the address is looked up; it is not called here.
                        unsafe { handle.get::<*mut std::ffi::c_void>(name.as_bytes()) }.is_err()
                    })
                    .collect();
                if missing.is_empty() {
                    std::mem::forget(handle);
                } else {
                    problems.push(format!(
                        "{} ({origin}) lacks {} (not a CANN copy this libmspti.so can use)",
                        path.display(),
                        missing.join(", ")
                    ));
                }
            }
            Err(e) => problems.push(format!("{lib} cannot be opened ({origin}: {e})")),
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let mut reason = format!(
        "the CANN libraries it needs are missing: {}; the real libmspti.so aborts the process \
         without them. Install the CANN toolkit and `source <toolkit>/set_env.sh`, or set \
         ASCEND_HOME_PATH to the toolkit directory whose lib64 holds libascendalog.so and \
         libprofapi.so",
        problems.join("; ")
    );
    if std::env::var_os("ASCEND_HOME_PATH").map_or(true, |h| h.is_empty()) {
        reason.push_str(" (ASCEND_HOME_PATH is not set)");
    }
    if let Some(toolkit) = toolkit_beside(candidate) {
        reason.push_str(&format!(
            "; they are present beside this file: set ASCEND_HOME_PATH={}",
            toolkit.display()
        ));
    }
    Err(reason)
}

/// The toolkit directory of a candidate installed as `<toolkit>/lib64/libmspti.so` or
/// `<toolkit>/tools/mspti/lib64/libmspti.so`, when that toolkit has the CANN libraries.
fn toolkit_beside(candidate: &Path) -> Option<PathBuf> {
    let dir = candidate.parent()?;
    let roots = [dir.parent(), dir.parent().and_then(Path::parent).and_then(Path::parent)];
    roots
        .into_iter()
        .flatten()
        .find(|root| CANN_DEPENDENCIES.iter().all(|(lib, _)| root.join("lib64").join(lib).is_file()))
        .map(Path::to_path_buf)
}

/// An opened `libmspti.so` and its lazily resolved functions (see [`accel_loader::Library`]):
/// [`Library::open`] follows the [`SPEC`] search order, refusing a file whose CANN dependencies
/// are missing. The library is never unloaded (MSPTI's threads and callbacks can outlive any
/// handle).
pub type Library = accel_loader::Library<MsptiFunctions>;

impl accel_loader::FunctionTable for MsptiFunctions {
    const SPEC: &'static LibrarySpec = &SPEC;
    fn from_resolver(resolver: accel_loader::Resolver) -> Self {
        MsptiFunctions::new(resolver)
    }
}
