//! Raw MSPTI (Huawei Ascend profiling) declarations and a run-time loader.
//!
//! Nothing links `libmspti.so`: [`Library::open`] finds it at run time (see [`SPEC`] for the
//! search order) and resolves each function on first call, so a library that lacks one (the
//! optional `msptiActivityIsEnabled`, for example) still serves the rest and that call returns
//! [`MissingSymbol`]. A `libmspti.so` whose CANN dependencies (or NPU driver) are absent is refused
//! ([`LoadError::Refused`]) instead of opened, because opening it (or subscribing) aborts the
//! process; see [`preflight`].
//!
//! - [`generated`]: bindgen output from `Ascend/mspti` `csrc/include` (enums as newtypes, any
//!   value representable). Regenerate with
//!   `cargo run -p accelprof-bindgen -- mspti <Ascend/mspti checkout>/csrc/include`.
//! - [`records`]: the packed activity records, by hand (bindgen cannot express them).
//!
//! The safe API is the `mspti` crate.

#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]

/// bindgen output; do not edit.
#[allow(
    missing_docs,
    missing_debug_implementations,
    clippy::all,
    clippy::undocumented_unsafe_blocks,
    unsafe_op_in_unsafe_fn
)]
pub mod generated {
    pub mod functions;
    pub mod types;
}

mod loader;
pub mod records;

pub use accelprof_loader::{Attempt, LoadError, LoadedLibrary, MissingSymbol};
pub use generated::functions::MsptiFunctions;
pub use generated::types::*;
pub use loader::{
    check_driver, preflight, search_places, securec_dir, Dependency, Library, CANN_DEPENDENCIES,
    DEFAULT_TOOLKIT, LIBRARY_PATH_VAR, SECUREC, SPEC,
};
#[allow(deprecated)]
pub use loader::{places, ENV_VAR};

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
