//! `InitializeInjection`: how the CUDA driver attaches the tracer to an unmodified program.
//!
//! With `CUDA_INJECTION64_PATH=/path/to/libcupti_trace.so`, the driver `dlopen`s this library during
//! `cuInit` and calls `InitializeInjection`. It starts a [`Tracer`] (the trace streams to its file batch by
//! batch), prints where the trace goes, and arranges for it to be finished: by a C `atexit` handler
//! (registered during `cuInit`, it runs before the CUDA runtime's own exit handlers tear the contexts
//! down), by SIGINT / SIGTERM / SIGHUP that would kill the program (then the process dies of the signal
//! as it would have), or at the end of the configured duration. Every failure is reported on stderr and
//! the program runs on untraced; nothing here panics into the driver.

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use cupti::Cupti;

use crate::launcher::{self, Line};
use crate::signals::{self, signal_name};
use crate::{report, Collection, TraceConfig, Tracer};

/// The tracer of this process.
static TRACER: Mutex<Option<(Tracer, TraceConfig)>> = Mutex::new(None);
/// Its collection switch (kept apart: toggling must not wait for a finish in progress).
static COLLECTION: Mutex<Option<Arc<Collection>>> = Mutex::new(None);
/// The process that started it (a forked child inherits the exit handler, not the threads).
static OWNER: AtomicU32 = AtomicU32::new(0);

/// Called by the CUDA driver inside `cuInit` when `CUDA_INJECTION64_PATH` names this library. Returns 1
/// (the driver's "success") even when tracing could not start: the error is on stderr, and the program
/// must run on.
#[no_mangle]
pub extern "C" fn InitializeInjection() -> c_int {
    if catch_unwind(start).is_err() {
        report("internal error while starting; the program runs untraced");
    }
    1
}

/// Tells the launcher `line` through its private channel, when the launcher set one.
fn tell_launcher(config: &TraceConfig, line: &Line) {
    let Some(dir) = &config.launcher_report else { return };
    if let Err(e) = launcher::tell(dir, line) {
        report(&format!("could not tell the launcher ({}): {e}", dir.display()));
    }
}

/// Under the launcher: each output name is claimed for this process; a name another process of the run
/// took already (`-o same.json`, a program that starts two) becomes `same.<pid>.json`, and this is said.
fn claim_outputs(config: &mut TraceConfig) {
    let Some(dir) = config.launcher_report.clone() else { return };
    let pid = std::process::id();
    for path in config.output.iter_mut().chain(config.more_outputs.iter_mut()) {
        if !launcher::claim(&dir, path) {
            let mine = launcher::numbered(path, pid);
            report(&format!(
                "pid {pid}: another process of this run writes {}: this one writes {}",
                path.display(),
                mine.display()
            ));
            *path = mine;
        }
    }
}

fn start() {
    let mut slot = TRACER.lock().unwrap_or_else(|e| e.into_inner());
    if slot.is_some() {
        return;
    }
    let (mut config, warnings) = TraceConfig::from_env();
    // Under the launcher, which checked the settings before the program started, only what is this
    // process's own (its rank) is reported.
    let launched = config.launcher_report.is_some();
    for warning in warnings.iter().filter(|w| !launched || w.contains("RANK") || w.contains("WORLD_SIZE")) {
        report(warning);
    }
    claim_outputs(&mut config);
    let cupti = match Cupti::global() {
        Ok(cupti) => cupti,
        Err(e) => {
            report(&format!("cannot load CUPTI, not tracing: {e}"));
            return;
        }
    };
    let tracer = match Tracer::start(cupti, config.clone()) {
        Ok(tracer) => tracer,
        Err(e) => {
            report(&format!("cannot start tracing: {e}"));
            tell_launcher(&config, &Line::Failed(format!("cannot start tracing: {e}")));
            return;
        }
    };
    let pid = std::process::id();
    OWNER.store(pid, Ordering::SeqCst);
    let collection = Arc::clone(tracer.collection());
    *COLLECTION.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::clone(&collection));
    let partial = tracer.partial_path().map(PathBuf::from);
    for (partial, output) in tracer.files() {
        tell_launcher(&config, &Line::Start { partial: partial.clone(), output: output.clone() });
    }
    if let Some(error) = tracer.trace_error() {
        tell_launcher(&config, &Line::Failed(error));
    }
    *slot = Some((tracer, config.clone()));
    drop(slot);

    // SAFETY: `at_exit` is an `extern "C" fn()` that never unwinds.
    if unsafe { libc::atexit(at_exit) } != 0 {
        report("could not register the exit handler: call cupti_trace::finish_and_report() before exiting");
    }
    register_with_python();
    let installed = signals::install(config.handle_signals, config.toggle_signal, on_end_signal, on_toggle);
    for note in &installed.notes {
        report(note);
    }
    if config.duration.is_some() {
        let spawned = std::thread::Builder::new().name("cupti-trace-duration".into()).spawn(move || {
            if collection.wait_window_over() {
                report("the collection window is over: finishing the trace (the program runs on)");
                finish_and_report();
            }
        });
        if let Err(e) = spawned {
            report(&format!("could not start the duration's thread ({e}): the trace is written at exit"));
        }
    }

    let when = match (config.profiler_range, config.delay.is_zero(), installed.toggle) {
        (true, _, _) => "collecting between cudaProfilerStart and cudaProfilerStop".to_owned(),
        (false, false, _) => format!("collecting after {:?}", config.delay),
        (false, true, _) => "collecting now".to_owned(),
    };
    let mut when = when;
    if let Some(duration) = config.duration {
        when.push_str(&format!(" for {duration:?}"));
    }
    if let Some(signal) = installed.toggle {
        when.push_str(&format!(", {} pauses and resumes", signal_name(signal)));
    }
    let ends: Vec<String> = installed.end.iter().map(|s| signal_name(*s)).collect();
    let rank = if config.world_size > 1 {
        format!(", rank {}/{}", config.rank, config.world_size)
    } else {
        String::new()
    };
    match (&partial, &config.output) {
        (Some(partial), Some(output)) => {
            report(&format!(
                "pid {pid}{rank}: tracing with CUPTI {} ({}); {when}; the trace streams to {} and becomes {} at exit{}",
                cupti.api_version(),
                cupti.path().display(),
                partial.display(),
                output.display(),
                if ends.is_empty() { String::new() } else { format!(" (or on {})", ends.join(", ")) }
            ));
        }
        (None, Some(output)) => report(&format!(
            "pid {pid}{rank}: tracing with CUPTI {} ({}); {when}; NO trace: {} could not be created (summary only)",
            cupti.api_version(),
            cupti.path().display(),
            output.display()
        )),
        (_, None) => report(&format!(
            "pid {pid}{rank}: tracing with CUPTI {} ({}); {when}; no trace file (summary only)",
            cupti.api_version(),
            cupti.path().display()
        )),
    }
}

extern "C" fn at_exit() {
    let _ = catch_unwind(AssertUnwindSafe(finish_and_report));
}

/// In a Python process, also finish when the interpreter finalizes (`Py_AtExit`): after an uncaught
/// `KeyboardInterrupt` (Ctrl-C), Python ends by restoring SIGINT's default and killing itself with it once
/// finalized, so C `atexit` handlers never run. Found at run time in the process's global scope (the
/// `python` executable exports it); absent in other programs.
fn register_with_python() {
    type PyAtExit = unsafe extern "C" fn(extern "C" fn()) -> c_int;
    // SAFETY: a lookup by a NUL-terminated name in the global scope.
    let symbol = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"Py_AtExit".as_ptr()) };
    if symbol.is_null() {
        return;
    }
    // SAFETY: `int Py_AtExit(void (*func)(void))` in every CPython 3; `at_exit` never unwinds, and may run
    // after `atexit`'s call of it (finishing is idempotent).
    let registered = unsafe { std::mem::transmute::<*mut libc::c_void, PyAtExit>(symbol)(at_exit) };
    if registered != 0 {
        report(
            "could not register with Python's Py_AtExit: after Ctrl-C the trace stays .partial (still whole)",
        );
    }
}

/// A terminating signal arrived (on the signals thread): finish, then the caller dies of the signal.
fn on_end_signal(signal: c_int) {
    let _ = catch_unwind(|| {
        report(&format!("{}: finishing the trace before the program ends", signal_name(signal)));
        finish_and_report();
    });
}

fn on_toggle() {
    let collection = COLLECTION.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(collection) = collection {
        let on = collection.toggle();
        report(if on { "collection resumed" } else { "collection paused" });
    }
}

/// Ends the injected tracer now (idempotent): final flush, trace file finished and renamed into place,
/// summary on stderr. The exit handler, the signal handling and the end of the duration call it; a
/// program may call it earlier.
pub fn finish_and_report() {
    if OWNER.load(Ordering::SeqCst) != std::process::id() {
        return;
    }
    let taken = TRACER.lock().unwrap_or_else(|e| e.into_inner()).take();
    let Some((tracer, config)) = taken else { return };
    drop(COLLECTION.lock().unwrap_or_else(|e| e.into_inner()).take());
    let finished = tracer.finish();
    if let Some(path) = &config.summary_json {
        if let Err(e) = launcher::without_sigxfsz(|| std::fs::write(path, finished.to_json().to_string())) {
            report(&format!("could not write {}: {e}", path.display()));
        }
    }
    eprint!("{}", indent(&finished.render(config.summary_top, config.summary)));
    let other = finished.counts.other_client;
    if other.seen() {
        // The launcher exits non-zero for it.
        tell_launcher(&config, &Line::Lost { taken: other.buffers_taken, foreign: other.foreign_buffers });
    }
    match (&finished.trace, &finished.write_result) {
        (_, Err(e)) => tell_launcher(&config, &Line::Failed(e.clone())),
        (Some(file), Ok(())) => tell_launcher(
            &config,
            &Line::End { path: file.path.clone(), events: file.events, bytes: file.file_bytes },
        ),
        (None, Ok(())) => {}
    }
}

fn indent(text: &str) -> String {
    // Kernel names and paths are the program's: escaped, so that none drives the terminal.
    let text = accelprof_export::summary::escape_control_lines(text);
    text.lines().map(|l| format!("[cupti-trace] {l}\n")).collect()
}
