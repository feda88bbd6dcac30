use std::ffi::{c_void, CStr};
use std::fmt;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Arc;

/// Finds a symbol by name: wraps a `libloading` library, an already-loaded handle or a test fake.
///
/// The closure must return a pointer that stays valid for as long as the resolver (and every
/// clone of it) lives; a resolver built by [`crate::open`] keeps its library open for that long.
#[derive(Clone)]
pub struct Resolver {
    library: &'static str,
    find: Arc<FindFn>,
}

/// The lookup a [`Resolver`] wraps.
type FindFn = dyn Fn(&CStr) -> Option<NonNull<c_void>> + Send + Sync;

impl fmt::Debug for Resolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resolver").field("library", &self.library).finish_non_exhaustive()
    }
}

impl Resolver {
    /// A resolver from any lookup closure, ash-style (`load(|name| ...)`).
    ///
    /// # Safety
    /// Every non-null pointer `find` returns for a name must be that C function of the library
    /// described by the bindings the table was generated from, and must stay callable while this
    /// resolver or any clone of it is alive.
    pub unsafe fn new<F>(library: &'static str, find: F) -> Self
    where
        F: Fn(&CStr) -> Option<NonNull<c_void>> + Send + Sync + 'static,
    {
        Resolver { library, find: Arc::new(find) }
    }

    /// Human name of the library this resolver serves.
    pub fn library(&self) -> &'static str {
        self.library
    }

    /// Looks a symbol up now (uncached).
    pub fn find(&self, name: &CStr) -> Option<NonNull<c_void>> {
        (self.find)(name)
    }
}

/// Sentinel stored in a [`LazySymbol`] once the library was found to lack the symbol.
const MISSING: *mut c_void = 1 as *mut c_void;

/// One entry of a function table: unresolved, resolved, or known missing.
///
/// The first call resolves it; later calls cost one atomic load.
pub struct LazySymbol(AtomicPtr<c_void>);

impl fmt::Debug for LazySymbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0.load(Ordering::Relaxed);
        let state = if p.is_null() {
            "unresolved"
        } else if p == MISSING {
            "missing"
        } else {
            "resolved"
        };
        f.write_str(state)
    }
}

impl Default for LazySymbol {
    fn default() -> Self {
        Self::new()
    }
}

impl LazySymbol {
    /// An unresolved entry.
    pub const fn new() -> Self {
        LazySymbol(AtomicPtr::new(ptr::null_mut()))
    }

    /// The symbol's address, resolving it on first use. `None` when the library lacks it.
    #[inline]
    pub fn get(&self, resolver: &Resolver, name: &CStr) -> Option<NonNull<c_void>> {
        let p = self.0.load(Ordering::Acquire);
        if p == MISSING {
            return None;
        }
        if let Some(p) = NonNull::new(p) {
            return Some(p);
        }
        self.resolve_slow(resolver, name)
    }

    #[cold]
    fn resolve_slow(&self, resolver: &Resolver, name: &CStr) -> Option<NonNull<c_void>> {
        let found = resolver.find(name);
        // Two threads may race here; both store the same answer.
        let stored = found.map_or(MISSING, NonNull::as_ptr);
        self.0.store(stored, Ordering::Release);
        found
    }
}
