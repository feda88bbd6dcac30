//! `cupti-trace`: the old name of `accelprof trace --vendor cupti`.
//!
//! `cupti-trace [options] [--] program [args...]` runs what `accelprof trace --vendor cupti` runs: the
//! same options, the one engine of accel-profiling injected through the CUDA door of
//! `libaccelprof_inject.so` (carried inside a release build of this executable, as in `accelprof`),
//! the same exit statuses. `cupti-trace recover FILE...` is `accelprof recover`. The variables of
//! cupti-trace's own tracer (`CUPTI_TRACE_*`), which is gone, are refused with their successors'
//! names (exit 2); so are its options that `accelprof` names otherwise (`--kinds`, `--api-calls`,
//! `--profiler-range`, `--share`).

fn main() -> std::process::ExitCode {
    accelprof::cupti_trace(std::env::args_os().skip(1).collect())
}
