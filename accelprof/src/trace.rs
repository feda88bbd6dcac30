//! `accelprof trace`: the vendor's way into the program set up, the program run with its signals
//! forwarded, and where the traces went said (the traces of processes that died closed). Also
//! `accelprof recover`.

use std::ffi::{c_int, OsStr, OsString};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus};
use std::sync::atomic::{AtomicI32, Ordering};

use accelprof_export::trace::{partial_path, recover as close_trace};

use crate::embedded::{self, Lib};
use crate::engine::launcher::{
    check_outputs, check_summary_json, is_own_file, without_sigxfsz, Channel, Line, NameNumbers,
    OutputPattern, EXTENSIONS,
};
use crate::engine::settings::unknown_variables;
use crate::engine::{vars, TracerConfig};
use crate::vendors::{self, Vendor};

fn say(message: &str) {
    // Paths and variable names come from files and the environment: escaped.
    accel_profiling::launcher::say_on_stderr(&format!(
        "[accelprof] {}\n",
        accelprof_export::summary::escape_control_lines(message)
    ));
}

/// A usage error found before anything runs: said, exit status 2.
fn usage(message: &str) -> ExitCode {
    crate::complain(message);
    ExitCode::from(2)
}

/// `value` first in the list `var` (`:`-separated) of the program's environment.
fn prepend(command: &mut Command, var: &str, value: &OsStr) {
    let mut list = value.to_os_string();
    if let Some(previous) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        list.push(":");
        list.push(previous);
    }
    command.env(var, list);
}

/// `value` last in the list `var` (`:`-separated) of the program's environment.
fn append(command: &mut Command, var: &str, value: &OsStr) {
    let mut list = std::env::var_os(var).filter(|p| !p.is_empty()).unwrap_or_default();
    if !list.is_empty() {
        list.push(":");
    }
    list.push(value);
    command.env(var, list);
}

/// Puts the CUPTI sharing shim (`libcupti_shim.so`) first in the program's `LD_PRELOAD`, unless
/// `--share off` (docs/CUPTI-SHARING.md): with it, the program's own CUPTI client (PyTorch's profiler)
/// and the tracer both complete. A missing shim is said, and tracing goes on.
fn share_cupti(command: &mut Command, settings: &[(&'static str, String)]) {
    let share = settings.iter().find(|(v, _)| *v == vars::CUDA_SHARE).map(|(_, s)| s.clone());
    let share = share.or_else(|| std::env::var(vars::CUDA_SHARE).ok()).unwrap_or_else(|| "on".into());
    if matches!(share.trim(), "off" | "0" | "no" | "false") {
        return;
    }
    match embedded::locate(Lib::Shim, None) {
        Ok(shim) => prepend(command, "LD_PRELOAD", shim.as_os_str()),
        Err(e) => say(&format!(
            "warning: the CUPTI sharing shim: {e}; a CUPTI client of the program's own (PyTorch's profiler) \
             and the tracer will take records from each other"
        )),
    }
}

/// The vendor library named by `--vendor-lib` (or `ACCELPROF_LIBRARY`, set non-empty), checked and
/// made absolute: `Err` when it is not `vendor`'s library as far as can be told without loading it
/// ([`accelprof_loader::check_file`], as the automatic choice checks: a shared object of this machine
/// defining the vendor's identifying symbols), a usage error naming the option or the variable. Any file
/// passed before, and one that is no library (`/etc/passwd`) was preloaded, the loader refusing it only
/// in the program, with the run going on untraced.
fn vendor_library(settings: &[(&'static str, String)], vendor: Vendor) -> Result<Option<PathBuf>, String> {
    let (given, path) = match settings.iter().find(|(v, _)| *v == vars::LIBRARY) {
        Some((_, value)) => (format!("--vendor-lib {value:?}"), PathBuf::from(value)),
        None => match std::env::var_os(vars::LIBRARY).filter(|v| !v.is_empty()) {
            Some(value) => (format!("{}={value:?}", vars::LIBRARY), PathBuf::from(value)),
            None => return Ok(None),
        },
    };
    match std::fs::metadata(&path) {
        Ok(meta) if meta.is_file() => match accelprof_loader::check_file(vendor.spec(), &path) {
            Ok(()) => Ok(Some(std::path::absolute(&path).unwrap_or(path))),
            Err(why) => Err(format!("{given}: not {}'s library: {why}", vendor.name())),
        },
        Ok(_) => Err(format!("{given}: not a file (name the vendor's library file)")),
        Err(e) => Err(format!("{given}: {e}")),
    }
}

/// Sets up `vendor`'s way into the program for the injection library `library`; `vendor_lib`: the vendor
/// library named (`--vendor-lib`), preloaded in place of the one found where the vendor's way preloads
/// it. `Err`: a reason not to run (said as a usage error).
fn inject(
    command: &mut Command,
    vendor: Vendor,
    library: &Path,
    vendor_lib: Option<&Path>,
    settings: &[(&'static str, String)],
) -> Result<(), String> {
    match vendor {
        // The CUDA driver loads CUDA_INJECTION64_PATH at cuInit and calls its InitializeInjection.
        Vendor::Cuda => {
            if let Some(previous) =
                std::env::var_os("CUDA_INJECTION64_PATH").filter(|p| Path::new(p) != library)
            {
                say(&format!("warning: CUDA_INJECTION64_PATH was {previous:?}: replaced by the tracer"));
            }
            command.env("CUDA_INJECTION64_PATH", library);
            share_cupti(command, settings);
        }
        // As rocprofv3 does (docs/VENDOR-NOTES.md): the tool library added to ROCP_TOOL_LIBRARIES (a
        // list: tools the user named stay), the tool and the SDK appended to LD_PRELOAD, and the SDK
        // told to start in its constructor (ROCPROFILER_LIBRARY_CTOR).
        Vendor::Rocm => {
            append(command, "ROCP_TOOL_LIBRARIES", library.as_os_str());
            append(command, "LD_PRELOAD", library.as_os_str());
            if let Some(sdk) = vendor_lib.map(Path::to_path_buf).or_else(|| vendors::locate(Vendor::Rocm)) {
                append(command, "LD_PRELOAD", sdk.as_os_str());
            }
            command.env("ROCPROFILER_LIBRARY_CTOR", "1");
        }
        // MSPTI's callbacks need libmspti.so loaded before the runtime: it first, then our library, whose
        // constructor starts the engine when ACCELPROF_VENDOR=mspti.
        Vendor::Ascend => {
            let mspti = match vendor_lib {
                Some(named) => named.to_path_buf(),
                None => {
                    let found = vendors::find(Vendor::Ascend);
                    found.library.as_ref().map_err(|_| vendors::line(&found, false))?.clone()
                }
            };
            let mut preload = mspti.clone().into_os_string();
            preload.push(":");
            preload.push(library);
            append(command, "LD_PRELOAD", &preload);
            // libmspti.so has no RPATH: the loader of the program must find the CANN libraries it needs
            // where mspti-sys's preflight found them (beside it, or in $ASCEND_HOME_PATH/lib64), else the
            // program does not start at all (a preloaded library's missing dependency is fatal).
            let current: Vec<PathBuf> = std::env::var_os("LD_LIBRARY_PATH")
                .map(|p| std::env::split_paths(&p).collect())
                .unwrap_or_default();
            let home = std::env::var_os("ASCEND_HOME_PATH").map(|h| Path::new(&h).join("lib64"));
            let mut added = current.clone();
            for dir in mspti.parent().map(Path::to_path_buf).into_iter().chain(home) {
                if dir.is_dir() && !dir.as_os_str().is_empty() && !added.contains(&dir) {
                    added.push(dir);
                }
            }
            if added.len() > current.len() {
                let joined = std::env::join_paths(&added).map_err(|e| format!("LD_LIBRARY_PATH: {e}"))?;
                command.env("LD_LIBRARY_PATH", joined);
            }
        }
    }
    // The tracer in the program is this vendor's: a door of another vendor there stays out, and the
    // Ascend door (a constructor, run wherever the library is loaded) acts only when it names MSPTI.
    command.env(vars::VENDOR, vendor.engine_name());
    Ok(())
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
pub(crate) fn run(
    vendor: Option<Vendor>,
    settings: &[(&'static str, String)],
    program: &[OsString],
) -> ExitCode {
    // Not given: ACCELPROF_VENDOR's, else the one this machine has. A value it does not take is a usage
    // error (it was ignored, and the vendor picked as if unset); set empty, it is unset.
    let vendor = match vendor {
        Some(vendor) => Some(vendor),
        None => match std::env::var_os(vars::VENDOR).filter(|v| !v.to_string_lossy().trim().is_empty()) {
            None => None,
            Some(value) => match value.to_str().map(|v| Vendor::parse(v.trim())) {
                Some(Ok(vendor)) => vendor,
                _ => {
                    return usage(&format!(
                        "{}={value:?}: unknown vendor ({})",
                        vars::VENDOR,
                        Vendor::ACCEPTED
                    ))
                }
            },
        },
    };
    let vendor = match vendor {
        Some(vendor) => vendor,
        None => match vendors::pick() {
            Ok(vendor) => vendor,
            Err(lines) => {
                return usage(&format!(
                    "no vendor profiling library found on this machine (name one with --vendor):\n{lines}"
                ))
            }
        },
    };
    let explicit = settings.iter().find(|(v, _)| *v == vars::INJECT_LIBRARY).map(|(_, p)| OsString::from(p));
    let explicit = explicit.or_else(|| std::env::var_os(vars::INJECT_LIBRARY).filter(|v| !v.is_empty()));
    let library = match embedded::locate(Lib::Inject, explicit.as_deref()) {
        Ok(library) => library,
        Err(e) => return usage(&format!("the injection library: {e}")),
    };
    // The vendor library named (--vendor-lib, ACCELPROF_LIBRARY): the vendor's library, for every vendor
    // (it was checked by no one before the program ran, and ROCm's and Ascend's preloads did not use it).
    let vendor_lib = match vendor_library(settings, vendor) {
        Ok(path) => path,
        Err(e) => return usage(&e),
    };
    // The outputs and the summary JSON: checked before anything runs. A variable set empty is unset, as
    // the tracer reads it; an option given empty is a mistake.
    let given = |var: &str| {
        settings
            .iter()
            .find(|(v, _)| *v == var)
            .map(|(_, value)| value.clone())
            .or_else(|| std::env::var(var).ok().filter(|v| !v.trim().is_empty()))
    };
    let list = given(vars::OUTPUT).unwrap_or_else(|| crate::engine::settings::DEFAULT_OUTPUT.into());
    let formats: &[&str] = &EXTENSIONS;
    // What `%p`, `%r` and `%l` may become in the program: a name too long with them is refused now.
    let numbers = NameNumbers::from_env();
    let outputs = match check_outputs(&list, formats, &numbers) {
        Ok(outputs) => outputs,
        Err(e) => return usage(&e),
    };
    let summary_json =
        match given(vars::SUMMARY_JSON).map(|name| check_summary_json(&name, &numbers)).transpose() {
            Ok(path) => path,
            Err(e) => return usage(&e),
        };
    // The summary is written over its file in place when the program ends: named as a trace, it replaced
    // that trace whole, exit 0.
    if let Some(path) = &summary_json {
        if outputs.iter().any(|OutputPattern(o)| o == path) {
            return usage(&format!(
                "summary JSON {:?}: also named as a trace output (the summary would replace the trace): name \
                 another file",
                path.display().to_string()
            ));
        }
    }
    let output = if outputs.is_empty() { "no trace (summary only)".to_owned() } else { list.clone() };
    // Check the settings the program's tracer will read, and say what is wrong before it starts.
    let engine_vendor = vendor.engine_name().to_owned();
    let lookup = |name: &str| {
        if name == vars::VENDOR {
            return Some(OsString::from(&engine_vendor));
        }
        settings
            .iter()
            .find(|(v, _)| *v == name)
            .map(|(_, value)| OsString::from(value))
            .or_else(|| std::env::var_os(name))
    };
    let (_, warnings) = TracerConfig::from_lookup_os(lookup);
    for warning in warnings {
        say(&format!("warning: {warning}"));
    }
    let names: Vec<String> = std::env::vars_os().filter_map(|(n, _)| n.into_string().ok()).collect();
    for warning in unknown_variables(names.iter().map(String::as_str)) {
        say(&format!("warning: {warning}"));
    }
    // The report channel: a private directory (see `accel_profiling::launcher`).
    let channel = match Channel::create() {
        Ok(channel) => channel,
        Err(e) => {
            crate::complain(&format!(
                "cannot make a private directory in {}: {e}",
                std::env::temp_dir().display()
            ));
            return ExitCode::from(1);
        }
    };

    let mut command = Command::new(&program[0]);
    command.args(&program[1..]).env(vars::LAUNCHER_REPORT, channel.dir());
    let resolved_here = [vars::INJECT_LIBRARY, vars::OUTPUT, vars::SUMMARY_JSON];
    for (var, value) in settings.iter().filter(|(v, _)| !resolved_here.contains(v)) {
        command.env(var, value);
    }
    // The outputs and the summary JSON as resolved: absolute (a process that changes directory writes
    // where asked).
    let resolved: Vec<String> = outputs.iter().map(|o| o.0.display().to_string()).collect();
    command.env(vars::OUTPUT, if resolved.is_empty() { "none".to_owned() } else { resolved.join(",") });
    if let Some(path) = &summary_json {
        command.env(vars::SUMMARY_JSON, path);
    }
    if let Err(e) = inject(&mut command, vendor, &library, vendor_lib.as_deref(), settings) {
        return usage(&e);
    }
    let shown: Vec<String> = program.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    say(&format!(
        "tracing `{}` on {} ({}); each process that starts it writes {output}",
        shown.join(" "),
        vendor.name(),
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
            let status = if e.kind() == std::io::ErrorKind::NotFound { 127 } else { 126 };
            crate::complain(&format!("cannot run {}: {e}", shown[0]));
            return ExitCode::from(status);
        }
    };
    CHILD.store(child.id() as i32, Ordering::SeqCst);
    let status = loop {
        match child.wait() {
            Ok(status) => break status,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                crate::complain(&format!("waiting for the program failed: {e}"));
                return ExitCode::from(1);
            }
        }
    };
    CHILD.store(0, Ordering::SeqCst);

    let reports = channel.read();
    drop(channel);
    if reports.is_empty() && outputs.is_empty() {
        // Output `none`: the tracer tells the launcher nothing of a run that went well, so whether the
        // runtime started is not known here (the program's summary, above, says what was traced).
        say(&format!("`{}` {}; no trace file was asked for (output `none`)", shown[0], describe(status)));
    } else if reports.is_empty() {
        say(&format!(
            "`{}` {}; no process started the vendor's runtime with the tracer, so no trace was written",
            shown[0],
            describe(status)
        ));
    }
    let mut lost = 0;
    let mut summaries_lost = 0;
    let mut not_started = 0;
    for (pid, lines) in &reports {
        lost += say_where_the_traces_went(*pid, lines, &outputs);
        for line in lines {
            match line {
                Line::SummaryFailed { path, why } => {
                    say(&format!("pid {pid}: the summary JSON {} was NOT written: {why}", path.display()));
                    summaries_lost += 1;
                }
                Line::StartFailed(why) => {
                    say(&format!("pid {pid}: tracing did not start: {why}"));
                    not_started += 1;
                }
                _ => {}
            }
        }
    }
    if !reports.is_empty() {
        say(&format!("`{}` {}", shown[0], describe(status)));
    }
    if lost > 0 || summaries_lost > 0 || not_started > 0 {
        let mut what = Vec::new();
        if not_started > 0 {
            what.push(format!("tracing did not start in {not_started} process(es)"));
        }
        if lost > 0 {
            what.push(format!("{lost} trace file(s) NOT complete or not written"));
        }
        if summaries_lost > 0 {
            what.push(format!("{summaries_lost} summary JSON file(s) NOT written"));
        }
        say(&format!("{} (said above); exit status 1 if the program succeeded", what.join(", ")));
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
    // Each output that failed is counted once: here, not again when its `.partial` cannot be closed.
    let mut failed_outputs = Vec::new();
    for line in lines {
        let Line::TraceFailed { output, why } = line else { continue };
        say(&format!("pid {pid}: its trace {} is NOT complete: {why}", output.display()));
        failed_outputs.push(output);
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
        let failed = failed_outputs.contains(&output);
        if !is_own_file(&expected) {
            match end {
                Some((events, bytes)) => say(&format!(
                    "trace of pid {pid}: {} ({events} events, {})",
                    output.display(),
                    megabytes(*bytes)
                )),
                None if is_own_file(output) => say(&format!("trace of pid {pid}: {}", output.display())),
                // Counted already when it failed.
                None if failed => {}
                None => {
                    say(&format!("pid {pid}: its trace {} is missing", output.display()));
                    lost += 1;
                }
            }
            continue;
        }
        // The file is still being written: the process died, or could not finish it.
        let why = if failures.is_empty() && !failed {
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
                    format!(" ({} bytes of the file, a torn last write, left out)", r.dropped_bytes)
                } else {
                    String::new()
                }
            )),
            Err(e) => {
                if !failed {
                    lost += 1;
                }
                say(&format!("pid {pid} {why}; {} could not be closed: {e}", expected.display()))
            }
        }
    }
    lost
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// What a recovery kept, in the file's own units.
fn kept(r: &accelprof_export::trace::Recovery) -> String {
    match r.packets {
        Some(packets) => format!("{packets} packets, {} track events", r.events),
        None => format!("{} events", r.events),
    }
}

/// What a recovery of `partial` says of the name it gave: a `.partial` name as long as a file name may be
/// (within the 3 bytes a cut at a character boundary leaves) may be one shortened to take its suffix,
/// and then the name given is only as much of the one asked for as it kept (the writer's own rename
/// used the full name; a recovery knows only the `.partial` one).
fn shortened(partial: &Path) -> String {
    const NAME_MAX: usize = accelprof_export::trace::NAME_MAX;
    let length = partial.file_name().map_or(0, |n| n.len());
    if length + 3 < NAME_MAX {
        return String::new();
    }
    format!(
        "; its .partial name is {length} bytes, about the {NAME_MAX} a file name may have: the name the trace was \
         asked for may have been longer and shortened to fit the suffix, in which case this is only as much \
         of its start as the .partial name kept (rename the file if so)"
    )
}

/// `accelprof recover FILE...`.
pub(crate) fn recover(files: &[OsString]) -> ExitCode {
    let mut failed = false;
    for file in files {
        match without_sigxfsz(|| close_trace(Path::new(file), None)) {
            Ok(r) if r.was_complete => say(&format!(
                "{}: whole, renamed to {} ({}){}",
                Path::new(file).display(),
                r.path.display(),
                kept(&r),
                shortened(Path::new(file))
            )),
            Ok(r) => say(&format!(
                "{}: closed as {} ({} kept, {} bytes of the file, a torn last write, left out){}",
                Path::new(file).display(),
                r.path.display(),
                kept(&r),
                r.dropped_bytes,
                shortened(Path::new(file))
            )),
            Err(e) => {
                failed = true;
                crate::complain(&format!("{}: {e}", Path::new(file).display()));
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
