//! Run-time loading shared by the `cupti-sys`, `mspti-sys` and `rocprofiler-sys` crates.
//!
//! Nothing here links a vendor library. A vendor crate describes where its library usually lives
//! ([`LibrarySpec`]), [`open`] walks that search order and reports every place it tried, and
//! [`function_table!`] turns a bindgen `extern "C"` block into a table whose entries are resolved
//! lazily, on first call, through a [`Resolver`]: a missing symbol is a per-call
//! [`MissingSymbol`] error, never a load failure or a panic, so an older library still serves
//! every function it has.

mod elf;
mod error;
mod library;
mod search;
mod symbol;
mod table;

pub use error::{missing_dependency, Attempt, LoadError, MissingSymbol};
pub use library::{FunctionTable, Library};
pub use search::{
    check_file, open, open_file, open_preferring_loaded, LibrarySpec, LoadedLibrary, OpenedFile, Preflight,
    SearchPlace,
};
pub use symbol::{LazySymbol, Resolver};

#[doc(hidden)]
pub mod __private {
    pub use core::ffi::CStr;
    pub use core::mem::transmute;
}

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
