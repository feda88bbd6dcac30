//! C++ kernel names as PyTorch's profiler (Kineto) shows them.
//!
//! CUDA, HIP and Ascend kernels are C++ functions: the vendors report their mangled symbol
//! (`_ZN2at6native29vectorized_elementwise_kernelILi4E...`). Kineto turns each one into text with the C++
//! runtime's `abi::__cxa_demangle` (libstdc++), which prints `std::array<char*, 1ul>` and no return type on
//! a template function that only names a lambda's scope. A user comparing our trace with a Kineto trace
//! compares names as strings, so [`Demangler`] calls that same function:
//!
//! 1. `__cxa_demangle` found in the process's global scope (`dlsym(RTLD_DEFAULT)`): every process that
//!    runs CUDA C++ has libstdc++ loaded; then a libstdc++ already mapped without global visibility
//!    (`dlopen("libstdc++.so.6", RTLD_NOLOAD)`: nothing new is loaded).
//! 2. Otherwise the `cpp_demangle` crate (close, but not the same strings: `(unsigned long)1` for `1ul`).
//!
//! Kineto's rules are kept too: a name longer than [`KINETO_MAX_NAME`] bytes is left as it is, and any
//! name the demangler refuses (`ampere_sgemm_128x64_tn`, Triton's `triton_poi_fused_add_0`) stays raw.
//! Nothing here panics or aborts on any input.

mod cxa;

use std::fmt;

pub use cxa::CxaDemangle;

/// Kineto leaves names longer than this (in bytes) mangled (`kMaxSymbolSize` in `libkineto/src/Demangle.cpp`).
pub const KINETO_MAX_NAME: usize = 1024;

/// Which demangler a [`Demangler`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DemanglerKind {
    /// The C++ runtime's `abi::__cxa_demangle`, as Kineto: names equal to PyTorch's profiler's.
    CxaDemangle,
    /// The `cpp_demangle` crate (no C++ runtime in the process): readable, but some names differ from
    /// Kineto's (`(unsigned long)2` for `2ul`, return types on template functions named in a scope).
    CppDemangle,
}

impl DemanglerKind {
    /// A short label for logs and trace metadata.
    pub fn label(self) -> &'static str {
        match self {
            DemanglerKind::CxaDemangle => "abi::__cxa_demangle",
            DemanglerKind::CppDemangle => "cpp_demangle",
        }
    }
}

/// Turns mangled C++ names into the text Kineto shows (see the [module docs](self)).
///
/// `Send + Sync`: `__cxa_demangle` keeps no global state (it allocates its result).
pub struct Demangler {
    cxa: Option<CxaDemangle>,
    max_len: usize,
}

impl Demangler {
    /// Kineto's demangler when the process has it, else `cpp_demangle`; names up to
    /// [`KINETO_MAX_NAME`] bytes.
    pub fn new() -> Demangler {
        Demangler { cxa: CxaDemangle::find(), max_len: KINETO_MAX_NAME }
    }

    /// Always `cpp_demangle` (what [`new`](Self::new) falls back to).
    pub fn cpp_demangle() -> Demangler {
        Demangler { cxa: None, max_len: KINETO_MAX_NAME }
    }

    /// Demangles names up to `max_len` bytes instead of Kineto's 1024 (longer ones stay raw).
    pub fn with_max_len(mut self, max_len: usize) -> Demangler {
        self.max_len = max_len;
        self
    }

    /// Which demangler is used.
    pub fn kind(&self) -> DemanglerKind {
        if self.cxa.is_some() {
            DemanglerKind::CxaDemangle
        } else {
            DemanglerKind::CppDemangle
        }
    }

    /// The demangled text of `raw`, or `None` when the name stays as it is (not a mangled name, longer
    /// than the limit, or refused by the demangler).
    pub fn demangle(&self, raw: &[u8]) -> Option<String> {
        if raw.is_empty() || raw.len() > self.max_len || raw.contains(&0) {
            return None;
        }
        match &self.cxa {
            Some(cxa) => cxa.demangle(raw),
            None => demangle_with_crate(raw),
        }
    }
}

impl Default for Demangler {
    fn default() -> Self {
        Demangler::new()
    }
}

impl fmt::Debug for Demangler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Demangler").field("kind", &self.kind()).field("max_len", &self.max_len).finish()
    }
}

/// `cpp_demangle`, for `_Z` symbols only (`__cxa_demangle` also reads bare type codes such as `i`, which
/// the crate treats differently; without the C++ runtime only function symbols are worth demangling).
fn demangle_with_crate(raw: &[u8]) -> Option<String> {
    if !raw.starts_with(b"_Z") {
        return None;
    }
    let symbol = cpp_demangle::Symbol::new(raw).ok()?;
    // The crate recurses on nested templates; its own recursion limit bounds it, and a panic would be a
    // bug there: contain it rather than unwind through the decode thread.
    std::panic::catch_unwind(move || symbol.demangle().ok()).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(miri, ignore = "under Miri, cpp_demangle 0.5.1 drops the parameters (see docs/CHECKS.md)")]
    fn the_fallback_demangles_symbols_and_keeps_everything_else() {
        let d = Demangler::cpp_demangle();
        assert_eq!(d.kind(), DemanglerKind::CppDemangle);
        assert_eq!(
            d.demangle(b"_Z9vectorAddPKfS0_Pfi").as_deref(),
            Some("vectorAdd(float const*, float const*, float*, int)")
        );
        for raw in [&b"ampere_sgemm_128x64_tn"[..], b"triton_poi_fused_add_0", b"_Zgarbage", b"", b"_Z\0x"] {
            assert_eq!(d.demangle(raw), None, "{raw:?}");
        }
        let long = format!("_Z{}", "a".repeat(KINETO_MAX_NAME));
        assert_eq!(d.demangle(long.as_bytes()), None, "longer than Kineto's limit: kept raw");
    }
}
