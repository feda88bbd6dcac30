//! `cupti-trace [options] [--] program [args...]`: runs a program with the CUPTI tracer injected.
//!
//! The launcher sets `CUDA_INJECTION64_PATH` to the tracer library (`libcupti_trace.so`, next to this
//! executable by default) and the `CUPTI_TRACE_*` variables from its options, runs the program, forwards
//! the signals it receives to it, and at the end lists the trace each traced process wrote (closing the
//! trace of one that died before finishing it). It exits as the program did (same status, or the same
//! signal), except with status 4 when the program succeeded and a traced process lost records to another
//! CUPTI client in it (a framework's profiler that registered its own buffer callbacks). `cupti-trace --help` lists every setting.

mod args;
mod run;

use std::process::ExitCode;

fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os().skip(1).collect()) {
        Ok(command) => command,
        Err(args::Usage(message)) => {
            eprintln!("cupti-trace: {message}");
            return ExitCode::from(2);
        }
    };
    match command {
        args::Command::Help => {
            print!("{}", args::help());
            ExitCode::SUCCESS
        }
        args::Command::Version => {
            println!("cupti-trace {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        args::Command::Recover(files) => run::recover(&files),
        args::Command::Run { settings, program } => run::run(&settings, &program),
    }
}
