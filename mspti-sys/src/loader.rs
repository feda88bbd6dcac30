//! Finding and opening `libmspti.so`, and refusing the files that would take the process down.

use std::path::{Path, PathBuf};

use accelprof_loader::{LibrarySpec, OpenedFile, SearchPlace};

use crate::generated::functions::MsptiFunctions;

/// Environment variable that may name the `libmspti.so` file to open.
pub const LIBRARY_PATH_VAR: &str = "MSPTI_LIBRARY_PATH";

/// The old name of [`LIBRARY_PATH_VAR`].
#[deprecated(note = "renamed `LIBRARY_PATH_VAR`, the name in every -sys crate")]
pub const ENV_VAR: &str = LIBRARY_PATH_VAR;

/// Where a CANN toolkit is usually installed when no environment variable says.
pub const DEFAULT_TOOLKIT: &str = "/usr/local/Ascend/ascend-toolkit/latest";

/// A CANN library that `libmspti.so` opens itself, and what it needs of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dependency {
    /// The file name (`"libascendalog.so"`).
    pub file: &'static str,
    /// The functions `libmspti.so` cannot do without.
    pub symbols: &'static [&'static str],
    /// When it is opened, and what happens without it.
    pub when: &'static str,
    /// What to install to get it.
    pub install: &'static str,
}

/// The libraries `libmspti.so` opens with `dlopen` (from `$ASCEND_HOME_PATH/lib64/<file>` when that
/// file exists, else through the system loader), each of which, when missing, makes it throw a C++
/// exception that aborts the process:
/// - `libascendalog.so` and `libprofapi.so`, from static constructors while it is being loaded
///   (only `CheckLogLevelForC` is needed of the log library: `DlogInnerForC` is called only for a
///   level it enables);
/// - `libascend_hal.so` (the NPU driver) at `msptiSubscribe`: a toolkit installed on a machine
///   without the driver opens fine and aborts at the first subscription.
pub const CANN_DEPENDENCIES: &[Dependency] = &[
    Dependency {
        file: "libascendalog.so",
        symbols: &["CheckLogLevelForC"],
        when: "opened by a static constructor (missing: the process aborts while loading libmspti.so)",
        install: "the CANN toolkit",
    },
    Dependency {
        file: "libprofapi.so",
        symbols: &["MsprofRegisterProfileCallback"],
        when: "opened by a static constructor (missing: the process aborts while loading libmspti.so)",
        install: "the CANN toolkit",
    },
    Dependency {
        file: "libascend_hal.so",
        symbols: &["drvGetDevNum", "prof_channel_poll", "prof_channel_read"],
        when: "opened by msptiSubscribe (missing: the process aborts at the first subscription)",
        install: "the Ascend NPU driver (its lib64/driver directory holds libascend_hal.so; the toolkit's \
                  set_env.sh puts it on LD_LIBRARY_PATH)",
    },
];

/// The toolkit's securec library that `libmspti.so` is linked against (a DT_NEEDED entry, found
/// by the system loader: `LD_LIBRARY_PATH`, which the toolkit's `set_env.sh` sets, or the loader
/// cache). Missing, `dlopen` fails with a plain error.
pub const SECUREC: &str = "libc_sec.so";

const HINT: &str = "install the CANN toolkit and `source <toolkit>/set_env.sh` (it sets ASCEND_HOME_PATH), \
     or set MSPTI_LIBRARY_PATH to the libmspti.so file";

/// Symbols every version of the library exports: a file lacking any is not this library (and is
/// never opened; see [`LibrarySpec::identity`]).
pub const IDENTITY: &[&str] = &["msptiSubscribe", "msptiActivityRegisterCallbacks"];

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
    env_var: LIBRARY_PATH_VAR,
    file_names: &["libmspti.so"],
    places: search_places,
    sonames: &["libmspti.so"],
    reuse_loaded: true,
    preflight: Some(preflight),
    identity: IDENTITY,
    hint: HINT,
};

const SUBDIRS: &[&str] = &["lib64", "tools/mspti/lib64"];

/// The vendor's usual directories, in search order (reads the environment now).
pub fn search_places() -> Vec<SearchPlace> {
    let mut places = SearchPlace::under_env("ASCEND_HOME_PATH", SUBDIRS);
    places.extend(SearchPlace::under_env("ASCEND_TOOLKIT_HOME", SUBDIRS));
    for sub in SUBDIRS {
        places
            .push(SearchPlace::new(format!("{DEFAULT_TOOLKIT}/{sub}"), Path::new(DEFAULT_TOOLKIT).join(sub)));
    }
    places
}

fn dlopen(path: &Path, no_load: bool) -> Result<OpenedFile, String> {
    // SAFETY: opening a CANN library runs its initialisers, exactly as `libmspti.so` would when
    // it opens the same file a moment later; with `no_load` nothing new is loaded.
    unsafe { accelprof_loader::open_file(path, no_load) }
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

/// Where the toolkit keeps [`SECUREC`] for `candidate`: beside the candidate, in
/// `$ASCEND_HOME_PATH/lib64`, or in the toolkit the candidate is installed in (`None`: in none of
/// them).
///
/// A program that preloads `libmspti.so` must find it through the system loader when it starts
/// (otherwise it does not start): `mspti::preload::reexec_with_preload` puts this directory on
/// `LD_LIBRARY_PATH`.
pub fn securec_dir(candidate: &Path) -> Option<PathBuf> {
    let home =
        std::env::var_os("ASCEND_HOME_PATH").filter(|h| !h.is_empty()).map(|h| Path::new(&h).join("lib64"));
    let beside_toolkit = toolkit_beside(candidate).map(|t| t.join("lib64"));
    [candidate.parent().map(Path::to_path_buf), home, beside_toolkit]
        .into_iter()
        .flatten()
        .find(|dir| dir.join(SECUREC).is_file())
}

/// Makes [`SECUREC`] resolvable for `candidate`: already through the system loader, or by opening
/// the toolkit's copy by path (the loader then matches `libmspti.so`'s DT_NEEDED entry to it by
/// its soname). `Err` says where it looked.
fn provide_securec(candidate: &Path) -> Result<(), String> {
    if dlopen(Path::new(SECUREC), false).map(OpenedFile::keep_loaded).is_ok() {
        return Ok(());
    }
    match securec_dir(candidate) {
        Some(dir) => {
            let path = dir.join(SECUREC);
            dlopen(&path, false)
                .map(OpenedFile::keep_loaded)
                .map_err(|e| format!("{} cannot be opened ({e})", path.display()))?;
            // Only a copy whose DT_SONAME is libc_sec.so satisfies libmspti.so's DT_NEEDED entry.
            dlopen(Path::new(SECUREC), true).map(OpenedFile::keep_loaded).map_err(|_| {
                format!(
                    "{} has no DT_SONAME {SECUREC}, so the loader will not use it for libmspti.so: put {} on \
                     LD_LIBRARY_PATH",
                    path.display(),
                    dir.display()
                )
            })
        }
        None => Err(format!(
            "{SECUREC} (the CANN toolkit's securec library, which libmspti.so is linked against) is \
             neither on the loader path (LD_LIBRARY_PATH) nor beside {} or in $ASCEND_HOME_PATH/lib64",
            candidate.display()
        )),
    }
}

/// Checks that opening `candidate` cannot take the process down and that it will load: it is
/// already loaded, or
/// - [`SECUREC`] can be found (it is opened from the toolkit when the loader path lacks it), and
/// - every [`CANN_DEPENDENCIES`] library opens from where `libmspti.so` will look for it
///   (`$ASCEND_HOME_PATH/lib64`, else the system loader's path) and exports what it needs; the NPU
///   driver's `libascend_hal.so` included, without which the first `msptiSubscribe` aborts.
///
/// The opened libraries stay loaded, as `libmspti.so` would keep them. `Err` says what is
/// missing and what to install or set.
pub fn preflight(candidate: &Path) -> Result<(), String> {
    if candidate.as_os_str().is_empty() {
        return Err("an empty path names no library file (it would open the program itself)".into());
    }
    // A copy already loaded is safe to open again, when it is libmspti.so: any other library the
    // process has mapped (libc, the program itself) is not.
    // Loaded, its static constructors found what they need; the driver it opens at
    // `msptiSubscribe` is checked as for a copy not loaded yet (a preloaded copy on a machine
    // without the NPU driver loads fine and aborts the process at the first subscription).
    if let Ok(loaded) = dlopen(candidate, true) {
        let missing: Vec<&str> = IDENTITY.iter().copied().filter(|s| !loaded.has_symbol(s)).collect();
        if !missing.is_empty() {
            return Err(format!(
                "it is loaded in this process, but it is not libmspti.so: it does not export {}",
                missing.join(", ")
            ));
        }
        return check_driver().map_err(|p| {
            format!(
                "it is loaded in this process (preloaded), but {p}. The real libmspti.so aborts the process at \
                 the first msptiSubscribe without it. Install {} and `source <toolkit>/set_env.sh`, or set \
                 ASCEND_HOME_PATH to a directory whose lib64 holds it",
                DRIVER.install
            )
        });
    }
    // A plain soname the system loader cannot find: `dlopen` fails without loading anything, and
    // the search reports it not found. The dependencies are checked only for a file that exists.
    if candidate.components().count() == 1 && !loader_may_find(candidate) {
        return Ok(());
    }
    let mut problems = Vec::new();
    let mut install: Vec<&str> = Vec::new();
    if let Err(e) = provide_securec(candidate) {
        problems.push(e);
        install.push("the CANN toolkit");
    }
    for dep in CANN_DEPENDENCIES {
        let (origin, path) = dependency_path(dep.file);
        let problem = match dlopen(&path, false) {
            Ok(handle) => {
                let missing: Vec<&str> =
                    dep.symbols.iter().copied().filter(|s| !handle.has_symbol(s)).collect();
                handle.keep_loaded();
                (!missing.is_empty()).then(|| {
                    format!(
                        "{} ({origin}) lacks {} (not a copy this libmspti.so can use)",
                        path.display(),
                        missing.join(", ")
                    )
                })
            }
            Err(e) => Some(format!("{} cannot be opened ({origin}: {e}); it is {}", dep.file, dep.when)),
        };
        if let Some(p) = problem {
            problems.push(p);
            if !install.contains(&dep.install) {
                install.push(dep.install);
            }
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let mut reason = format!(
        "libraries it needs are missing: {}. The real libmspti.so aborts the process without them. \
         Install {} and `source <toolkit>/set_env.sh` (it sets ASCEND_HOME_PATH and LD_LIBRARY_PATH), or \
         set ASCEND_HOME_PATH to the toolkit directory whose lib64 holds them",
        problems.join("; "),
        install.join(" and ")
    );
    if std::env::var_os("ASCEND_HOME_PATH").map_or(true, |h| h.is_empty()) {
        reason.push_str(" (ASCEND_HOME_PATH is not set)");
    }
    if let Some(toolkit) = toolkit_beside(candidate) {
        reason.push_str(&format!(
            "; the toolkit's libraries are present beside this file: set ASCEND_HOME_PATH={}",
            toolkit.display()
        ));
    }
    Err(reason)
}

/// Whether the system loader may find the plain soname `name`: a file of that name in a directory of
/// `LD_LIBRARY_PATH` or a default one, or the name anywhere in `/etc/ld.so.cache`. Errs towards
/// "may" (then the preflight runs as for a file); only a name found nowhere is answered `false`.
fn loader_may_find(name: &Path) -> bool {
    let in_dir = |dir: &Path| !dir.as_os_str().is_empty() && dir.join(name).exists();
    if std::env::var_os("LD_LIBRARY_PATH").is_some_and(|v| std::env::split_paths(&v).any(|d| in_dir(&d))) {
        return true;
    }
    let arch = format!("{}-linux-gnu", std::env::consts::ARCH);
    let defaults = ["/lib", "/usr/lib", "/lib64", "/usr/lib64", "/usr/local/lib"];
    if defaults.iter().any(|d| in_dir(Path::new(d)) || in_dir(&Path::new(d).join(&arch))) {
        return true;
    }
    match std::fs::read("/etc/ld.so.cache") {
        Ok(cache) => {
            let needle = name.as_os_str().as_encoded_bytes();
            cache.windows(needle.len()).any(|w| w == needle)
        }
        // Unreadable: cannot tell, so it may.
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    }
}

/// The NPU driver's library among [`CANN_DEPENDENCIES`], which `libmspti.so` opens at
/// `msptiSubscribe`.
const DRIVER: &Dependency = &CANN_DEPENDENCIES[2];

/// Checks that the NPU driver's `libascend_hal.so`, which `libmspti.so` opens at each first
/// `msptiSubscribe` (and without which it throws a C++ exception there, aborting the process),
/// opens from where it will look (`$ASCEND_HOME_PATH/lib64`, else the system loader's path) and
/// exports what it needs. `Err` names the file and what is wrong.
pub fn check_driver() -> Result<(), String> {
    let (origin, path) = dependency_path(DRIVER.file);
    match dlopen(&path, false) {
        Ok(handle) => {
            let missing: Vec<&str> =
                DRIVER.symbols.iter().copied().filter(|s| !handle.has_symbol(s)).collect();
            handle.keep_loaded();
            if missing.is_empty() {
                Ok(())
            } else {
                Err(format!("{} ({origin}) lacks {}", path.display(), missing.join(", ")))
            }
        }
        Err(e) => Err(format!("{} cannot be opened ({origin}: {e}); it is {}", DRIVER.file, DRIVER.when)),
    }
}

/// The toolkit directory of a candidate installed as `<toolkit>/lib64/libmspti.so` or
/// `<toolkit>/tools/mspti/lib64/libmspti.so`, when that toolkit has the CANN libraries.
fn toolkit_beside(candidate: &Path) -> Option<PathBuf> {
    let dir = candidate.parent()?;
    let roots = [dir.parent(), dir.parent().and_then(Path::parent).and_then(Path::parent)];
    roots
        .into_iter()
        .flatten()
        .find(|root| {
            ["libascendalog.so", "libprofapi.so"].iter().all(|lib| root.join("lib64").join(lib).is_file())
        })
        .map(Path::to_path_buf)
}

/// An opened `libmspti.so` and its lazily resolved functions (see [`accelprof_loader::Library`]):
/// [`Library::open`] follows the [`SPEC`] search order, refusing a file whose CANN dependencies
/// are missing. The library is never unloaded (MSPTI's threads and callbacks can outlive any
/// handle).
pub type Library = accelprof_loader::Library<MsptiFunctions>;

impl accelprof_loader::FunctionTable for MsptiFunctions {
    const SPEC: &'static LibrarySpec = &SPEC;
    fn from_resolver(resolver: accelprof_loader::Resolver) -> Self {
        MsptiFunctions::new(resolver)
    }
}

/// The old name of [`search_places`].
#[deprecated(note = "renamed `search_places`, the name in every -sys crate")]
pub fn places() -> Vec<SearchPlace> {
    search_places()
}
