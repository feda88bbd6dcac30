//! `accelprof`: one command for GPU/NPU traces.
//!
//! - `accelprof trace [options] [--] program [args...]`: runs the program with the tracer injected
//!   through its vendor's way in (CUDA: `CUDA_INJECTION64_PATH`; ROCm: `ROCP_TOOL_LIBRARIES`; Ascend:
//!   `LD_PRELOAD` after `libmspti.so`), the vendor found on this machine unless `--vendor` names it;
//!   forwards the signals it receives; says where each process's trace went (closing those of processes
//!   that died) and exits as the program did.
//! - `accelprof analyze DIR`: accelprof-analyze's report of a directory of per-rank Parquet traces.
//! - `accelprof recover FILE...`: closes traces left by processes that died while writing them.
//! - `accelprof info [-v]`: which vendor libraries this machine has, one line each.
//!
//! Exit status: the program's (128+n for signal n), 2 for a usage error (before anything runs), 126 when
//! the program cannot be run, 127 when it is not found, 4 when it succeeded but records were lost to
//! another profiling client in it. The injection library travels inside a release build of this
//! executable (see `embedded`).

#[cfg(feature = "analyze")]
mod analyze;
mod args;
mod embedded;
mod engine;
mod trace;
mod vendors;

use std::process::ExitCode;

/// What `accelprof analyze` says in a build without the `analyze` feature.
#[cfg(not(feature = "analyze"))]
pub(crate) const NO_ANALYZE: &str = "analyze: this build of accelprof has no analyses (built without its \
                                     `analyze` feature); `accelprof-analyze` runs them";

fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os().skip(1).collect()) {
        Ok(command) => command,
        Err(args::Usage(message)) => {
            eprintln!("accelprof: {}", accelprof_export::summary::escape_control_lines(&message));
            return ExitCode::from(2);
        }
    };
    match command {
        args::Command::Help(subcommand) => {
            print!("{}", args::help(subcommand));
            ExitCode::SUCCESS
        }
        args::Command::Version => {
            let carried =
                if embedded::carries() { "libraries carried inside" } else { "libraries next to it" };
            println!("accelprof {} ({carried})", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        args::Command::Trace { vendor, settings, program } => trace::run(vendor, &settings, &program),
        #[cfg(feature = "analyze")]
        args::Command::Analyze(rest) => analyze::run(rest),
        #[cfg(not(feature = "analyze"))]
        args::Command::Analyze(_) => {
            eprintln!("accelprof: {NO_ANALYZE}");
            ExitCode::from(2)
        }
        args::Command::Recover(files) => trace::recover(&files),
        args::Command::Info { verbose } => vendors::info(verbose),
    }
}
