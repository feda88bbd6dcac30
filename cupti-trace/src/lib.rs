//! Trace any CUDA program without changing it.
//!
//! ```sh
//! cupti-trace -o trace_%p.json.gz -- python train.py
//! # or, without the launcher:
//! CUDA_INJECTION64_PATH=/path/to/libcupti_trace.so CUPTI_TRACE_OUTPUT=trace_%p.json.gz python train.py
//! ```
//!
//! The CUDA driver loads this library at `cuInit` and calls its `InitializeInjection`. From then on every
//! kernel, copy, set and runtime/driver call of the process is recorded through CUPTI's activity API (the
//! `cupti` crate: pooled buffers, decoding off CUPTI's thread, nothing lost silently) and streamed, batch
//! by batch, to a Chrome trace with PyTorch profiler's conventions (Perfetto, chrome://tracing and
//! HolisticTraceAnalysis read it: `kernel` / `gpu_memcpy` / `gpu_memset` on `pid` = device, `tid` =
//! stream; `cuda_runtime` / `cuda_driver` on the host thread; `ac2g` flow arrows from each launch to its
//! kernel). The file is whole after every batch, named `.partial-<pid>` until the process ends (normally,
//! or by SIGINT/SIGTERM/SIGHUP, which finish it first), then renamed; a per-kernel summary goes to stderr.
//! Kernel names are demangled by the C++ runtime's `__cxa_demangle`, as PyTorch's profiler does.
//!
//! Settings are environment variables ([`config::vars`]; every one is listed in [`settings::SETTINGS`] and by
//! `cupti-trace --help`): `CUPTI_TRACE_OUTPUT` (default `cupti_trace_<pid>.json`, `none` for summary
//! only), `CUPTI_TRACE_KINDS`, `CUPTI_TRACE_DELAY`, `CUPTI_TRACE_DURATION`, `CUPTI_TRACE_TOGGLE_SIGNAL`,
//! `CUPTI_TRACE_PROFILER_RANGE`, ... Several outputs come from one collection, each in its name's format:
//! `cupti-trace -o t.json.gz -o t.parquet -o t.pftrace -- cmd` (or `CUPTI_TRACE_OUTPUT=t.json.gz,t.parquet,t.pftrace`)
//! writes Chrome JSON, Parquet and Perfetto's protobuf trace, with the GPUs' `deviceProperties` from the
//! CUDA driver in each. `CUPTI_LIBRARY_PATH` picks the libcupti file (by default the one the
//! process already loaded, e.g. PyTorch's, else the usual places).
//!
//! As a library (`rlib`), [`Tracer`] does the same inside a Rust program.

mod collection;
pub mod config;
mod injection;
pub mod launcher;
mod outputs;
pub mod settings;
mod signals;
mod tracer;

pub use accelprof_export::summary::{KernelStat, KernelSummary};
pub use collection::Collection;
pub use config::TraceConfig;
pub use injection::{finish_and_report, InitializeInjection};
pub use tracer::{TraceReport, Tracer};

/// Reports on stderr, prefixed so it stands out of the traced program's output (control characters
/// escaped: a message may hold a name the program chose).
pub(crate) fn report(message: &str) {
    eprintln!("[cupti-trace] {}", accelprof_export::summary::escape_control_lines(message));
}
