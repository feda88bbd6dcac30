//! `accelprof`: one command for GPU/NPU traces (this library is the command: `src/main.rs` calls
//! [`main_with`]; the `cupti-trace` compatibility command calls [`cupti_trace`]).
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
//! the program cannot be run, 127 when it is not found, 1 when it succeeded but a trace or the summary
//! JSON was not written whole (a write error of the tracer never ends the program: it is said, and the
//! status tells), 4 when it succeeded but records were lost to another profiling client in it. The injection library travels inside a release build of this
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

/// Says `message` on stderr as `accelprof: <message>` (control characters escaped).
pub(crate) fn complain(message: &str) {
    complain_as("accelprof", message);
}

/// Says `message` on stderr as `<who>: <message>` (control characters escaped). Every diagnostic of the
/// command goes through here (or `trace`'s `say`, on the same writer): a closed stderr (`accelprof ...
/// 2>&1 | head -1`) drops it, where `eprintln!` panicked (exit 101).
pub(crate) fn complain_as(who: &str, message: &str) {
    accel_profiling::launcher::say_on_stderr(&format!(
        "{who}: {}\n",
        accelprof_export::summary::escape_control_lines(message)
    ));
}

/// Writes `text` to standard output. A reader that went away (`accelprof analyze DIR | head`) ends the
/// output quietly with success, as `head` expects (`print!` panicked there, exit 101); another write
/// error is said, and fails.
pub(crate) fn out(text: &str) -> ExitCode {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            complain(&format!("writing the output: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// The command: `args` are the arguments after the program name; what `main` returns.
pub fn main_with(args: Vec<std::ffi::OsString>) -> ExitCode {
    let command = match args::parse(args) {
        Ok(command) => command,
        Err(args::Usage(message)) => {
            complain(&message);
            return ExitCode::from(2);
        }
    };
    match command {
        args::Command::Help(subcommand) => out(&args::help(subcommand)),
        args::Command::Version => {
            let carried =
                if embedded::carries() { "libraries carried inside" } else { "libraries next to it" };
            out(&format!("accelprof {} ({carried})\n", env!("CARGO_PKG_VERSION")))
        }
        args::Command::Trace { vendor, settings, program } => trace::run(vendor, &settings, &program),
        #[cfg(feature = "analyze")]
        args::Command::Analyze(rest) => analyze::run(rest),
        #[cfg(not(feature = "analyze"))]
        args::Command::Analyze(_) => {
            complain(NO_ANALYZE);
            ExitCode::from(2)
        }
        args::Command::Recover(files) => trace::recover(&files),
        args::Command::Info { verbose } => vendors::info(verbose),
    }
}

/// The command line's parser alone, for the fuzz target (`fuzz/fuzz_targets/accelprof_args.rs`):
/// `Err` holds the usage error. Not part of the command's API.
#[doc(hidden)]
pub fn check_arguments(args: Vec<std::ffi::OsString>) -> Result<(), String> {
    args::parse(args).map(drop).map_err(|args::Usage(message)| message)
}

/// Options of `cupti-trace`'s own launcher that `accelprof trace` names otherwise: the old name, and
/// what to write instead.
const RETIRED_OPTIONS: [(&str, &str); 4] = [
    ("--kinds", "--families (record families: kernel, memcpy, memset, api, ...)"),
    ("--api-calls", "--cuda-api-calls"),
    ("--profiler-range", "--capture-range profiler-api"),
    ("--share", "--cuda-share"),
];

/// The `cupti-trace` compatibility command: `cupti-trace [options] [--] program [args...]` is
/// `accelprof trace --vendor cupti [options] [--] program [args...]` (the same options, the same
/// engine, the same injection library), `cupti-trace recover FILE...` is `accelprof recover`.
/// `cupti-trace`'s own tracer is gone (issue 18); what it read is refused with its successor's name
/// rather than ignored: a `CUPTI_TRACE_*` variable in the environment, or one of its options that
/// `accelprof` names otherwise, is a usage error (exit 2) before anything runs.
pub fn cupti_trace(args: Vec<std::ffi::OsString>) -> ExitCode {
    let say = |message: &str| {
        complain_as("cupti-trace", message);
    };
    match args.first().and_then(|a| a.to_str()) {
        Some("-h" | "--help" | "help") => {
            return out(&format!(
                "cupti-trace: `accelprof trace --vendor cupti`, under its old name (cupti-trace's own tracer is \
                 gone: the settings are accelprof's, ACCELPROF_*).\n\n{}",
                args::help(Some("trace"))
            ));
        }
        Some("-V" | "--version") => {
            return out(&format!(
                "cupti-trace {} (accelprof trace --vendor cupti)\n",
                env!("CARGO_PKG_VERSION")
            ));
        }
        Some("recover") => return main_with(args),
        _ => {}
    }
    let mut retired: Vec<String> = std::env::vars_os()
        .filter_map(|(name, _)| name.into_string().ok())
        .filter_map(|name| accel_profiling::settings::retired_variable(&name))
        .collect();
    retired.sort();
    if !retired.is_empty() {
        for message in &retired {
            say(message);
        }
        return ExitCode::from(2);
    }
    let mut command: Vec<std::ffi::OsString> = vec!["trace".into(), "--vendor".into(), "cupti".into()];
    command.extend(args.iter().cloned());
    if let Err(args::Usage(message)) = args::parse(command.clone()) {
        // An option of the old launcher, before the program: named with its successor.
        let options = args.iter().take_while(|a| *a != "--").filter_map(|a| a.to_str());
        let old = options.filter_map(|a| {
            RETIRED_OPTIONS
                .iter()
                .find(|(o, _)| a == *o || a.strip_prefix(o).is_some_and(|r| r.starts_with('=')))
        });
        match old.clone().next() {
            Some((option, new)) if message.contains(option) => {
                say(&format!("{option} is cupti-trace's old option: use {new}"))
            }
            _ => say(&message),
        }
        return ExitCode::from(2);
    }
    main_with(command)
}
