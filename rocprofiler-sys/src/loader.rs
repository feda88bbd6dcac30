//! Finding and opening `librocprofiler-sdk.so`, preferring the copy the process already has.

use accelprof_loader::{LibrarySpec, SearchPlace};

use crate::generated::functions::RocprofilerFunctions;

/// Environment variable that may name the `librocprofiler-sdk.so` file to open.
pub const LIBRARY_PATH_VAR: &str = "ROCPROFILER_LIBRARY_PATH";

/// The old name of [`LIBRARY_PATH_VAR`].
#[deprecated(note = "renamed `LIBRARY_PATH_VAR`, the name in every -sys crate")]
pub const ENV_VAR: &str = LIBRARY_PATH_VAR;

const HINT: &str =
    "install ROCm (rocprofiler-sdk) and set ROCM_PATH, or set ROCPROFILER_LIBRARY_PATH to the \
     librocprofiler-sdk.so file";

/// Symbols every version of the library exports: a file lacking any is not this library (and is
/// never opened; see [`LibrarySpec::identity`]).
pub const IDENTITY: &[&str] =
    &["rocprofiler_get_version", "rocprofiler_create_context", "rocprofiler_create_buffer"];

/// The search order:
/// 1. a copy already loaded in this process (the ROCm runtime loads the SDK before it calls a
///    tool; a second copy would have its own, empty, state);
/// 2. an explicit path;
/// 3. `$ROCPROFILER_LIBRARY_PATH`;
/// 4. `$ROCM_PATH/lib`, then `/opt/rocm/lib`;
/// 5. the plain sonames `librocprofiler-sdk.so`, `librocprofiler-sdk.so.1` through the system loader.
pub static SPEC: LibrarySpec = LibrarySpec {
    name: "rocprofiler-sdk (librocprofiler-sdk)",
    env_var: LIBRARY_PATH_VAR,
    file_names: &["librocprofiler-sdk.so", "librocprofiler-sdk.so.1"],
    places: search_places,
    sonames: &["librocprofiler-sdk.so", "librocprofiler-sdk.so.1"],
    reuse_loaded: true,
    preflight: None,
    identity: IDENTITY,
    hint: HINT,
};

/// The vendor's usual directories, in search order (reads the environment now).
pub fn search_places() -> Vec<SearchPlace> {
    let mut places = SearchPlace::under_env("ROCM_PATH", &["lib"]);
    places.push(SearchPlace::new("/opt/rocm/lib", "/opt/rocm/lib"));
    places
}

/// An opened `librocprofiler-sdk.so` and its lazily resolved functions (see
/// [`accelprof_loader::Library`]): [`Library::open`] takes the copy already loaded in this process
/// when there is one, else `explicit` when given, else the rest of the [`SPEC`] search order.
/// The library is never unloaded (the SDK's threads and callbacks can outlive any handle).
pub type Library = accelprof_loader::Library<RocprofilerFunctions>;

impl accelprof_loader::FunctionTable for RocprofilerFunctions {
    const SPEC: &'static LibrarySpec = &SPEC;
    const PREFER_LOADED: bool = true;
    fn from_resolver(resolver: accelprof_loader::Resolver) -> Self {
        RocprofilerFunctions::new(resolver)
    }
}

/// The old name of [`search_places`].
#[deprecated(note = "renamed `search_places`, the name in every -sys crate")]
pub fn places() -> Vec<SearchPlace> {
    search_places()
}
