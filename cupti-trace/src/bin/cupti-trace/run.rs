//! Running the traced program, forwarding signals to it, and saying where the traces went.

use std::ffi::{c_int, OsStr, OsString};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus};
use std::sync::atomic::{AtomicI32, Ordering};

use accelprof_export::trace::{partial_path, recover as close_trace};
use cupti_trace::config::{vars, TraceConfig};
use cupti_trace::launcher::{
    check_outputs, is_own_file, without_sigxfsz, Channel, Line, OutputPattern, EXTENSIONS,
};
use cupti_trace::settings::unknown_variables;

fn say(message: &str) {
    // Paths and variable names come from files and the environment: escaped.
    eprintln!("[cupti-trace] {}", accelprof_export::summary::escape_control_lines(message));
}

/// The tracer library: `explicit`, else `libcupti_trace.so` next to this executable (or in `../lib`).
fn find_library(explicit: Option<&OsStr>) -> Result<PathBuf, String> {
    if let Some(path) = explicit {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(std::fs::canonicalize(&path).unwrap_or(path))
        } else {
            Err(format!("the tracer library {} does not exist", path.display()))
        };
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    let tried = [dir.join("libcupti_trace.so"), dir.join("../lib/libcupti_trace.so")];
    tried.iter().find(|p| p.is_file()).map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())).ok_or_else(|| {
        let places: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
        format!(
            "cannot find the tracer library libcupti_trace.so (tried {}): build it with `cargo build --release -p cupti-trace`, or pass --lib",
            places.join(", ")
        )
    })
}

/// Puts the CUPTI sharing shim (`libcupti_shim.so` next to the tracer library) first in the program's
/// `LD_PRELOAD`, unless `--share off` (docs/CUPTI-SHARING.md): with it, the program's own CUPTI client
/// (PyTorch's profiler) and the tracer both complete. A missing shim is said, and tracing goes on.
fn share_cupti(command: &mut Command, library: &Path, settings: &[(&'static str, String)]) {
    let share = settings.iter().find(|(v, _)| *v == vars::SHARE).map(|(_, s)| s.clone());
    let share = share.or_else(|| std::env::var(vars::SHARE).ok()).unwrap_or_else(|| "on".into());
    if matches!(share.trim(), "off" | "0" | "no" | "false") {
        return;
    }
    let shim = library.with_file_name("libcupti_shim.so");
    if !shim.is_file() {
        say(&format!(
            "warning: {} not found: a CUPTI client of the program's own (PyTorch's profiler) and the tracer \
             will take records from each other (build it with `cargo build --release -p cupti-shim`)",
            shim.display()
        ));
        return;
    }
    let mut preload = shim.into_os_string();
    if let Some(previous) = std::env::var_os("LD_PRELOAD").filter(|p| !p.is_empty()) {
        preload.push(":");
        preload.push(previous);
    }
    command.env("LD_PRELOAD", preload);
}

/// The exit status when the program succeeded but records were lost to another CUPTI client in it.
const LOST_TO_ANOTHER_CLIENT: u8 = 4;

/// The program's child pid, for the signal handler (0: none yet).
static CHILD: AtomicI32 = AtomicI32::new(0);

extern "C" fn forward(signal: c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // A signal the terminal sent (Ctrl-C, Ctrl-\) went to the whole foreground process group, the program
    // included: forwarding it would deliver it twice.
    // SAFETY: the kernel passes a valid siginfo_t with SA_SIGINFO.
    let from_terminal = !info.is_null() && unsafe { (*info).si_code } == libc::SI_KERNEL;
    let child = CHILD.load(Ordering::SeqCst);
    if child > 0 && !from_terminal {
        // SAFETY: kill(2) is async-signal-safe.
        unsafe { libc::kill(child, signal) };
    }
}

/// Forwards these signals to the program while it runs.
fn forward_signals(signals: &[c_int]) {
    for &signal in signals {
        // SAFETY: `forward` only calls async-signal-safe functions; the action is fully initialised.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction =
                forward as extern "C" fn(c_int, *mut libc::siginfo_t, *mut libc::c_void) as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// Exits as `status` says the program did: its code, or its signal (raised on ourselves).
fn exit_like(status: ExitStatus) -> ExitCode {
    if let Some(signal) = status.signal() {
        // SAFETY: restoring the default disposition, then raising: the launcher dies of the same signal.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
        return ExitCode::from(128u8.wrapping_add(signal as u8));
    }
    ExitCode::from(status.code().unwrap_or(1).clamp(0, 255) as u8)
}

fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal} ({})", signal_name(signal)),
        _ => "ended".to_owned(),
    }
}

fn signal_name(signal: c_int) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGUSR2 => "SIGUSR2",
        _ => "a signal",
    }
}

/// Runs the program with the tracer and reports where the traces went.
pub(crate) fn run(settings: &[(&'static str, String)], program: &[OsString]) -> ExitCode {
    let explicit = settings.iter().find(|(v, _)| *v == vars::LIBRARY).map(|(_, p)| OsString::from(p));
    let explicit = explicit.or_else(|| std::env::var_os(vars::LIBRARY));
    let library = match find_library(explicit.as_deref()) {
        Ok(library) => library,
        Err(e) => {
            eprintln!("cupti-trace: {e}");
            return ExitCode::from(2);
        }
    };
    // The outputs: checked before anything runs.
    let list = match settings.iter().find(|(v, _)| *v == vars::OUTPUT) {
        Some((_, o)) => o.clone(),
        None => std::env::var(vars::OUTPUT).unwrap_or_else(|_| "cupti_trace_%p.json".into()),
    };
    let formats: &[&str] = if cfg!(feature = "columns") { &EXTENSIONS } else { &EXTENSIONS[..2] };
    let outputs = match check_outputs(&list, formats) {
        Ok(outputs) => outputs,
        Err(e) => {
            eprintln!("cupti-trace: {e}");
            return ExitCode::from(2);
        }
    };
    let output = if outputs.is_empty() { "no trace (summary only)".to_owned() } else { list.clone() };
    // Check the settings the program's tracer will read, and say what is wrong before it starts.
    let lookup = |name: &str| {
        settings
            .iter()
            .find(|(v, _)| *v == name)
            .map(|(_, value)| OsString::from(value))
            .or_else(|| std::env::var_os(name))
    };
    let (_, warnings) = TraceConfig::from_lookup_os(lookup);
    for warning in warnings {
        say(&format!("warning: {warning}"));
    }
    let names: Vec<String> = std::env::vars_os().filter_map(|(n, _)| n.into_string().ok()).collect();
    for warning in unknown_variables(names.iter().map(String::as_str)) {
        say(&format!("warning: {warning}"));
    }
    if let Some(previous) = std::env::var_os("CUDA_INJECTION64_PATH").filter(|p| Path::new(p) != library) {
        say(&format!("warning: CUDA_INJECTION64_PATH was {previous:?}: replaced by the tracer"));
    }
    // The report channel: a private directory (see `cupti_trace::launcher`).
    let channel = match Channel::create() {
        Ok(channel) => channel,
        Err(e) => {
            eprintln!(
                "cupti-trace: cannot make a private directory in {}: {e}",
                std::env::temp_dir().display()
            );
            return ExitCode::from(1);
        }
    };

    let mut command = Command::new(&program[0]);
    command
        .args(&program[1..])
        .env("CUDA_INJECTION64_PATH", &library)
        .env(vars::LAUNCHER_REPORT, channel.dir());
    for (var, value) in settings.iter().filter(|(v, _)| *v != vars::LIBRARY && *v != vars::OUTPUT) {
        command.env(var, value);
    }
    // The outputs as resolved: absolute (a process that changes directory writes where asked).
    let resolved: Vec<String> = outputs.iter().map(|o| o.0.display().to_string()).collect();
    command.env(vars::OUTPUT, if resolved.is_empty() { "none".to_owned() } else { resolved.join(",") });
    share_cupti(&mut command, &library, settings);
    let shown: Vec<String> = program.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    say(&format!(
        "tracing `{}` ({}); each process that starts CUDA writes {output}",
        shown.join(" "),
        library.display()
    ));
    forward_signals(&[
        libc::SIGINT,
        libc::SIGTERM,
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGUSR1,
        libc::SIGUSR2,
    ]);
    let mut child = match command.spawn() {
        Ok(child) => child,
        // As shells say it: 127 not found, 126 found but not runnable.
        Err(e) => {
            eprintln!("cupti-trace: cannot run {}: {e}", shown[0]);
            return ExitCode::from(if e.kind() == std::io::ErrorKind::NotFound { 127 } else { 126 });
        }
    };
    CHILD.store(child.id() as i32, Ordering::SeqCst);
    let status = loop {
        match child.wait() {
            Ok(status) => break status,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!("cupti-trace: waiting for the program failed: {e}");
                return ExitCode::from(1);
            }
        }
    };
    CHILD.store(0, Ordering::SeqCst);

    let reports = channel.read();
    drop(channel);
    if reports.is_empty() {
        say(&format!(
            "`{}` {}; no process started CUDA with the tracer, so no trace was written",
            shown[0],
            describe(status)
        ));
    }
    let mut lost = 0;
    for (pid, lines) in &reports {
        lost += say_where_the_traces_went(*pid, lines, &outputs);
    }
    if !reports.is_empty() {
        say(&format!("`{}` {}", shown[0], describe(status)));
    }
    if lost > 0 {
        say(&format!("{lost} trace file(s) NOT complete or not written (said above)"));
        if status.success() {
            return ExitCode::from(1);
        }
    }
    let taken: Vec<String> = reports
        .iter()
        .flat_map(|(pid, lines)| {
            lines.iter().filter_map(move |l| match l {
                Line::Lost { taken, foreign } => {
                    Some(format!("pid {pid} ({taken} taken, {foreign} foreign)"))
                }
                _ => None,
            })
        })
        .collect();
    if !taken.is_empty() {
        say(&format!(
            "records were lost to another CUPTI client in {} (see its summary); exit status {LOST_TO_ANOTHER_CLIENT} if the program succeeded",
            taken.join(", ")
        ));
        if status.success() {
            return ExitCode::from(LOST_TO_ANOTHER_CLIENT);
        }
    }
    exit_like(status)
}

/// What the launcher says of one process's traces (closing those it left unfinished); how many were
/// lost. Acts only on the files it derives itself from the outputs it resolved and the pid: a line
/// naming anything else is reported and left alone.
fn say_where_the_traces_went(pid: u32, lines: &[Line], outputs: &[OutputPattern]) -> usize {
    let mut lost = 0;
    let failures: Vec<&String> =
        lines.iter().filter_map(|l| if let Line::Failed(why) = l { Some(why) } else { None }).collect();
    for why in &failures {
        say(&format!("pid {pid}: its trace could not be written: {why}"));
        lost += 1;
    }
    for line in lines {
        let Line::Start { partial, output } = line else { continue };
        if !outputs.iter().any(|o| o.matches(output, pid)) {
            say(&format!(
                "pid {pid} reported a trace at {}, not one of the outputs asked for: left alone",
                output.display()
            ));
            continue;
        }
        let expected = partial_path(output, pid);
        if *partial != expected {
            say(&format!(
                "pid {pid} reported writing {}, not the file it should write ({}): left alone",
                partial.display(),
                expected.display()
            ));
            continue;
        }
        let end = lines.iter().find_map(|l| match l {
            Line::End { path, events, bytes } if path == output => Some((events, bytes)),
            _ => None,
        });
        if !is_own_file(&expected) {
            match end {
                Some((events, bytes)) => say(&format!(
                    "trace of pid {pid}: {} ({events} events, {})",
                    output.display(),
                    megabytes(*bytes)
                )),
                None if is_own_file(output) => say(&format!("trace of pid {pid}: {}", output.display())),
                None => {
                    say(&format!("pid {pid}: its trace {} is missing", output.display()));
                    lost += 1;
                }
            }
            continue;
        }
        // The file is still being written: the process died, or could not finish it.
        let why = if failures.is_empty() {
            "died before finishing its trace"
        } else {
            "could not finish its trace"
        };
        match without_sigxfsz(|| close_trace(&expected, Some(output))) {
            Ok(r) if r.events == 0 && !r.path.to_string_lossy().contains(".json") => {
                say(&format!("pid {pid} {why}: {} holds what was written up to then", r.path.display()))
            }
            Ok(r) => say(&format!(
                "pid {pid} {why}: {} holds its {} events up to then{}",
                r.path.display(),
                r.events,
                if r.dropped_bytes > 0 {
                    format!(" ({} bytes of a torn last write left out)", r.dropped_bytes)
                } else {
                    String::new()
                }
            )),
            Err(e) => {
                lost += 1;
                say(&format!("pid {pid} {why}; {} could not be closed: {e}", expected.display()))
            }
        }
    }
    lost
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// `cupti-trace recover FILE...`.
pub(crate) fn recover(files: &[OsString]) -> ExitCode {
    let mut failed = false;
    for file in files {
        match without_sigxfsz(|| close_trace(Path::new(file), None)) {
            Ok(r) if r.was_complete => say(&format!(
                "{}: whole, renamed to {} ({} events)",
                Path::new(file).display(),
                r.path.display(),
                r.events
            )),
            Ok(r) => say(&format!(
                "{}: closed as {} ({} events kept, {} bytes of a torn last write left out)",
                Path::new(file).display(),
                r.path.display(),
                r.events,
                r.dropped_bytes
            )),
            Err(e) => {
                failed = true;
                let message = format!("cupti-trace: {}: {e}", Path::new(file).display());
                eprintln!("{}", accelprof_export::summary::escape_control_lines(&message));
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
