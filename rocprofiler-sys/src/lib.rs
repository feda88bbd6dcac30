//! Raw rocprofiler-sdk (AMD ROCm profiling) declarations and a run-time loader.
//!
//! Nothing links `librocprofiler-sdk.so`: [`Library::open`] finds it at run time (see [`SPEC`]
//! for the search order) and resolves each function on first call, so a library that lacks one
//! (an SDK older than `rocprofiler_dispatch_counting_service_set_agents`, for example) still
//! serves the rest and that call returns [`MissingSymbol`].
//!
//! A rocprofiler *tool* runs inside a process where the ROCm runtime has already loaded the SDK;
//! the loader therefore first reuses that copy (`RTLD_NOLOAD`) so that a tool never maps a second
//! SDK with its own state, and a tool library should not link the SDK at all.
//!
//! - [`generated`]: bindgen output from `ROCm/rocm-systems`
//!   `projects/rocprofiler-sdk/source/include` (snapshot `1b1610fc2b2a`, plus
//!   `rocprofiler_dispatch_counting_service_set_agents` and status 41 from newer headers). Enums
//!   are newtypes, so any value is representable. Regenerate with
//!   `cargo run -p accelprof-bindgen -- rocprofiler <tree of ROCm/rocm-systems>` (the generator's
//!   documentation says which stand-ins it writes for HIP and which types it leaves out).
//!   Operation ids of the HIP runtime API depend on the HIP version: look names up at run time
//!   with `rocprofiler_query_callback_tracing_kind_operation_name` rather than trusting the
//!   `ROCPROFILER_HIP_RUNTIME_API_ID_*` constants.
//!
//! The safe API is the `rocprofiler` crate.

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

pub use accelprof_loader::{Attempt, LoadError, LoadedLibrary, MissingSymbol};
pub use generated::functions::RocprofilerFunctions;
pub use generated::types::*;
#[allow(deprecated)]
pub use loader::{places, ENV_VAR};
pub use loader::{search_places, Library, LIBRARY_PATH_VAR, SPEC};

/// The directory of this crate's generated files (`types.rs`, `functions.rs`), as this build
/// found it. For code that compiles against the very same declarations outside this crate:
/// `accelprof-mocks` builds its mock `librocprofiler-sdk` from them (a build-dependency reads
/// this).
pub const GENERATED_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/generated");

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
