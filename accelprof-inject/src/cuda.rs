//! The CUDA door: `InitializeInjection`.
//!
//! With `CUDA_INJECTION64_PATH=libaccelprof_inject.so`, the CUDA driver `dlopen`s this library
//! inside the program's `cuInit` and calls `InitializeInjection`. It starts the engine with
//! [`Vendor::Cupti`] on the `libcupti` the process has (`CUPTI_LIBRARY_PATH`, else the copy
//! already loaded, else the CUDA toolkit's: the `cupti` crate's search), and finishes it at exit:
//! the `atexit` handler is registered inside `cuInit`, after the CUDA runtime's own, so it runs
//! before they tear the contexts down (the order cupti-trace's retired injection library kept).

use std::ffi::c_int;

use accel_profiling::{Tracer, Vendor};

/// Called by the CUDA driver inside `cuInit` when `CUDA_INJECTION64_PATH` names this library.
/// Returns 1 (the driver's "success") even when tracing could not start: the reason is on stderr,
/// and the program runs on.
#[no_mangle]
pub extern "C" fn InitializeInjection() -> c_int {
    crate::guarded("CUDA", || {
        if crate::start(Vendor::Cupti, "CUDA", Tracer::new) {
            crate::finish_at_exit(crate::When::InProgram);
        }
    });
    1
}
