//! Trace any CUDA program without changing it.
//!
//! ```sh
//! CUDA_INJECTION64_PATH=/path/to/libcupti_trace.so python train.py
//! ```
//!
//! The CUDA driver loads this library at `cuInit` and calls its `InitializeInjection`. From then on every
//! kernel, copy, set and runtime/driver call of the process is recorded through CUPTI's activity API (the
//! `cupti` crate: pooled buffers, decoding off CUPTI's thread, nothing lost silently). At exit the library
//! writes a Chrome trace JSON with PyTorch profiler's conventions (Perfetto, chrome://tracing and
//! HolisticTraceAnalysis read it: `kernel` / `gpu_memcpy` / `gpu_memset` on `pid` = device, `tid` =
//! stream; `cuda_runtime` / `cuda_driver` on the host thread; `ac2g` flow arrows from each launch to its
//! kernel) and prints a per-kernel summary table on stderr.
//!
//! Settings are environment variables ([`config::vars`]): `CUPTI_TRACE_OUTPUT` (default
//! `cupti_trace_<pid>.json`, `none` for summary only), `CUPTI_TRACE_KINDS`, `CUPTI_TRACE_BUFFER_SIZE`, ...
//! `CUPTI_LIBRARY_PATH` picks the libcupti file (by default the one the process already loaded, e.g.
//! PyTorch's, else the usual places).
//!
//! As a library (`rlib`), [`Tracer`] does the same inside a Rust program.

mod collection;
pub mod config;
mod injection;
pub mod settings;
mod signals;
mod summary;
mod tracer;

pub use collection::Collection;
pub use config::TraceConfig;
pub use injection::{finish_and_report, InitializeInjection};
pub use summary::{KernelStat, KernelSummary};
pub use tracer::{TraceReport, Tracer};

/// Reports on stderr, prefixed so it stands out of the traced program's output.
pub(crate) fn report(message: &str) {
    eprintln!("[cupti-trace] {message}");
}
