//! Mock `libcupti.so`: the real CUPTI C symbols, with the behaviour the vendor notes and the
//! probed real libraries (12.9.79 and 13.0.85, run without a driver) show, plus a `mock_cupti_*`
//! control interface through which a test plays the CUDA runtime.
//!
//! Built by `accelprof-mocks`'s `build.rs` as a std-only `cdylib`. Record and struct layouts come
//! from the generated bindings of `cupti-sys` (included from `cupti_sys::GENERATED_DIR` in
//! [`sys`]), so the mock writes exactly the bytes the real library writes.
//!
//! Reading order: [`version`] (which library is played) -> [`results`] -> [`subscribers`] and
//! [`dispatch`] (callback API) -> [`activity`] (sinks per subscriber, per-callback-id filters, the V2
//! API and user-defined records, buffers, records, delivery thread) -> [`runtime`] (the played CUDA
//! runtime) -> [`control`] (the `mock_cupti_*` symbols) -> [`foreign`] (a second CUPTI client in the
//! process, played in Kineto's order of calls).
//!
//! Every exported function is `extern "C"` and never unwinds (`panic=abort`).

#![allow(clippy::missing_safety_doc)]
// The workspace's minimum Rust is 1.80: no `is_multiple_of` (1.87) or `is_none_or` (1.82).
#![allow(clippy::manual_is_multiple_of, clippy::unnecessary_map_or)]

mod activity;
mod callback_names;
mod clock;
mod control;
mod dispatch;
mod foreign;
mod fxhash;
mod results;
mod runtime;
mod stats;
mod subscribers;
mod sys;
mod version;

/// The controls' one declaration (`controls.rs`, which `accelprof-mocks` compiles into
/// `MockCupti` too): each names a function defined here, with exactly the declared C signature,
/// or the mock does not compile.
macro_rules! mock_controls {
    ($( $(#[$doc:meta])* $kind:ident fn $method:ident = $symbol:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        $( const _: unsafe extern "C" fn($($ty),*) $(-> $ret)? = $symbol; )*
    };
}

mod declared {
    use super::control::*;
    use super::foreign::*;
    use std::ffi::{c_char, c_void};
    include!("controls.rs");
}
