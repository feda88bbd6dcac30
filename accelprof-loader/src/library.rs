//! An opened vendor library together with its function table: the one `Library` type every
//! `-sys` crate exposes (as `pub type Library = accelprof_loader::Library<TheirFunctions>`).

use std::ffi::{c_void, CStr};
use std::fmt;
use std::path::Path;
use std::ptr::NonNull;

use crate::error::LoadError;
use crate::search::{open, open_preferring_loaded, LibrarySpec, LoadedLibrary};
use crate::symbol::Resolver;

/// A generated function table and where its library is looked for.
///
/// Implemented by each `-sys` crate for the table [`function_table!`](crate::function_table)
/// generated from its vendor's headers.
pub trait FunctionTable: Sized {
    /// Where and how the library is looked for.
    const SPEC: &'static LibrarySpec;
    /// Whether a copy the process already loaded wins even over an explicit path (a tool
    /// library must never map a second copy of a runtime it is loaded into).
    const PREFER_LOADED: bool = false;
    /// A table resolving through `resolver`.
    fn from_resolver(resolver: Resolver) -> Self;
}

/// An opened vendor library and its lazily resolved functions.
///
/// The library is never unloaded (vendor threads and callbacks can outlive any handle), so the
/// table stays valid for as long as this value lives. It dereferences to the table.
pub struct Library<F> {
    loaded: LoadedLibrary,
    functions: F,
}

impl<F> fmt::Debug for Library<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Library").field("loaded", &self.loaded).finish_non_exhaustive()
    }
}

impl<F: FunctionTable> Library<F> {
    /// Opens the library: `explicit` when given (that file or an error; a copy the process already
    /// loaded comes first when [`FunctionTable::PREFER_LOADED`]), otherwise the spec's search order.
    /// The error lists every place tried, in order.
    ///
    /// Functions resolve on first call: one this library version lacks returns
    /// [`MissingSymbol`](crate::MissingSymbol) naming it.
    pub fn open(explicit: Option<&Path>) -> Result<Self, LoadError> {
        let loaded = if F::PREFER_LOADED {
            open_preferring_loaded(F::SPEC, explicit)?
        } else {
            open(F::SPEC, explicit)?
        };
        let functions = F::from_resolver(loaded.resolver());
        Ok(Library { loaded, functions })
    }
}

impl<F> Library<F> {
    /// The function table; each call returns `Err(MissingSymbol)` when this library lacks it.
    pub fn functions(&self) -> &F {
        &self.functions
    }

    /// What was opened and which step of the search order found it.
    pub fn loaded(&self) -> &LoadedLibrary {
        &self.loaded
    }

    /// What was passed to `dlopen`: a path, or a plain soname found by the system loader.
    pub fn path(&self) -> &Path {
        self.loaded.path()
    }

    /// Which step of the search order found it (`"explicit path"`, `"$CUPTI_LIBRARY_PATH"`,
    /// `"already loaded in this process"`, `"system loader"`, ...).
    pub fn origin(&self) -> &str {
        self.loaded.origin()
    }

    /// Looks up a symbol that is not part of the vendor's API (a mock's controls, for example).
    pub fn raw_symbol(&self, name: &CStr) -> Option<NonNull<c_void>> {
        self.loaded.resolver().find(name)
    }
}

impl<F> std::ops::Deref for Library<F> {
    type Target = F;
    fn deref(&self) -> &F {
        &self.functions
    }
}
