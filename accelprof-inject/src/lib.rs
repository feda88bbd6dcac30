//! The accel-profiling tracer ([`accel_profiling::Tracer`]) started inside a program it did not
//! start. One shared library, `libaccelprof_inject.so`, with a front door for each vendor's way of
//! loading tools:
//!
//! | vendor | how the library gets in | its entry | the tracer ends |
//! | --- | --- | --- | --- |
//! | NVIDIA CUDA | `CUDA_INJECTION64_PATH=libaccelprof_inject.so`: the driver `dlopen`s it in `cuInit` | `InitializeInjection` ([`cuda`]) | at exit (`atexit`, Python's `Py_AtExit`) |
//! | AMD ROCm | `ROCP_TOOL_LIBRARIES=libaccelprof_inject.so`: rocprofiler-sdk opens it and calls it | `rocprofiler_configure` ([`rocprofiler`]) | at the tool's finalize (or exit) |
//! | Huawei Ascend | `LD_PRELOAD=libmspti.so:libaccelprof_inject.so` and `ACCELPROF_VENDOR=mspti` | an ELF constructor ([`ascend`]) | at exit |
//!
//! Each door starts the one engine of the process (a second door, or a second call, finds it
//! running and stays out), with the settings the environment gives
//! ([`TracerConfig::from_env`]: the `ACCELPROF_*` variables of [`accel_profiling::settings`]; the
//! vendor is the door's). The engine does the rest: the trace files, the summary on stderr and in
//! `ACCELPROF_SUMMARY_JSON`, the launcher's channel, the signals and the capture window; a door
//! only starts it, says so, and stops it at exit. Everything the doors say goes to stderr, each line
//! starting `[accelprof]`. A door that cannot start the tracer says why (under the launcher, which is
//! told why and says it at the end, only that it did not start) and returns: the program runs on
//! untraced; no panic reaches the vendor's C code.

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};

use accel_profiling::{Tracer, TracerConfig, TracerError, Vendor};

pub mod ascend;
pub mod cuda;
pub mod rocprofiler;

/// The one engine of the process.
static ENGINE: Mutex<Option<Tracer>> = Mutex::new(None);
/// The process that started it (a child made by `fork` inherits the exit handler and this static,
/// not the tracer's threads: it must leave the engine alone).
static OWNER: AtomicU32 = AtomicU32::new(0);

fn engine() -> MutexGuard<'static, Option<Tracer>> {
    ENGINE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Says `text` on stderr, each line prefixed `[accelprof]` (control characters escaped: kernel
/// names and paths are the program's, and must not drive the terminal).
pub(crate) fn say(text: &str) {
    let text = accel_profiling::accelprof_export::summary::escape_control_lines(text);
    let lines: String = text.lines().map(|l| format!("[accelprof] {l}\n")).collect();
    // One write: lines of other processes of the run do not interleave with ours. A closed stderr
    // drops it (no panic, no SIGPIPE).
    accel_profiling::launcher::say_on_stderr(&lines);
}

/// Whether this process's engine runs (started by any door).
pub fn is_running() -> bool {
    OWNER.load(Ordering::SeqCst) == std::process::id() && engine().is_some()
}

/// Runs `f` for a door entry called by C: a panic is caught and said, never unwound into the caller.
pub(crate) fn guarded(door: &str, f: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(f)).is_err() {
        say(&format!("internal error in the {door} door; the program runs on untraced"));
    }
}

/// Starts the engine for `vendor` through `door` (once per process), creating the tracer with
/// `make` from the settings ([`TracerConfig::from_env`], the vendor the door's; [`Tracer::new`] for
/// most doors). Returns whether this call started it.
pub(crate) fn start(
    vendor: Vendor,
    door: &str,
    make: impl FnOnce(TracerConfig) -> Result<Tracer, TracerError>,
) -> bool {
    let mut slot = engine();
    let pid = std::process::id();
    if slot.is_some() {
        if OWNER.load(Ordering::SeqCst) == pid {
            say(&format!("pid {pid}: the tracer runs already; the {door} door stays out"));
        }
        return false;
    }
    let (config, warnings) = TracerConfig::from_env();
    // Under the launcher, which checked the settings before the program started, only what is this
    // process's own (its rank) is said.
    let launched = config.launcher_report.is_some();
    for w in warnings.iter().filter(|w| !launched || w.contains("RANK") || w.contains("WORLD_SIZE")) {
        say(w);
    }
    if config.vendor != Vendor::Auto && config.vendor != vendor {
        say(&format!(
            "pid {pid}: {} names {}, the {door} door is for {vendor}: not tracing here",
            accel_profiling::settings::vars::VENDOR,
            config.vendor
        ));
        return false;
    }
    let config = TracerConfig { vendor, ..config };
    let window = window_said(&config);
    let tracer = match make(config) {
        Ok(t) => t,
        // Under the launcher, `Tracer::new` told it why (the launcher says it once, with the file it
        // names, when the program ends; said here too were it not told): only that it did not start.
        Err(_) if launched => {
            say(&format!(
                "pid {pid}: tracing with {vendor} ({door}) did not start (the command says why when the program ends); \
                 the program runs untraced"
            ));
            return false;
        }
        Err(e) => {
            say(&format!(
                "pid {pid}: cannot start tracing with {vendor} ({door}): {e}; the program runs untraced"
            ));
            return false;
        }
    };
    if let Err(e) = tracer.start() {
        say(&format!(
            "pid {pid}: cannot start tracing with {vendor} ({door}): {e}; the program runs untraced"
        ));
        return false;
    }
    let lib = tracer.library();
    let files: Vec<String> = tracer.partial_paths().iter().map(|p| p.display().to_string()).collect();
    let version = if lib.version.is_empty() { String::new() } else { format!(" {}", lib.version) };
    let mut line = format!(
        "pid {pid}: tracing with {}{version} ({}) through the {door} door",
        vendor.library_name(),
        lib.path.display()
    );
    if files.is_empty() {
        line.push_str("; no trace file (summary only)");
    } else {
        line.push_str(&format!("; the trace streams to {} (whole at exit)", files.join(", ")));
    }
    line.push_str(&window);
    say(&line);
    *slot = Some(tracer);
    OWNER.store(pid, Ordering::SeqCst);
    true
}

/// Tells the launcher (when `config` has its channel) that tracing did not start, and why: what
/// [`Tracer::new`] does of its own failures, for a failure of a door's own before it. Not told, it is
/// said here.
pub(crate) fn tell_start_failed(config: &TracerConfig, e: &TracerError) {
    let Some(dir) = &config.launcher_report else { return };
    let line = accel_profiling::launcher::Line::StartFailed(e.to_string());
    if let Err(io) = accel_profiling::launcher::tell(dir, &line) {
        say(&format!("could not tell the launcher ({}): {io}; tracing did not start: {e}", dir.display()));
    }
}

/// What the start line says of the collection window, when it is not "from now to the end": the
/// toggle signal, the capture range, the delay and the duration (each `; ...`).
fn window_said(config: &TracerConfig) -> String {
    let mut said = String::new();
    if let Some(signal) = config.toggle_signal {
        let name = accel_profiling::tracer::signal_name(signal);
        said.push_str(&format!(
            "; {name} pauses and resumes collection (kill -{} {})",
            &name[3..],
            std::process::id()
        ));
    }
    if config.capture_range == accel_profiling::CaptureRange::ProfilerApi {
        said.push_str(
            "; collecting only between the program's profiler start and stop calls (cudaProfilerStart and \
             cudaProfilerStop, roctxProfilerResume and roctxProfilerPause)",
        );
    }
    if !config.delay.is_zero() {
        said.push_str(&format!("; collection starts after {:?}", config.delay));
    }
    if let Some(duration) = config.duration {
        said.push_str(&format!("; collection ends after {duration:?}"));
    }
    said
}

/// When a door runs: inside the program (its interpreter, if any, is up), or before `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum When {
    /// Called by the vendor's runtime while the program runs (`cuInit`, the SDK's tool window).
    InProgram,
    /// An ELF constructor of a preloaded library: before `main`, so before a Python interpreter
    /// exists (CPython's `Py_AtExit` must not be called then: its runtime state is set up, and
    /// reset, in `main`).
    BeforeMain,
}

/// Finishes at process exit: a C `atexit` handler (it runs before the handlers registered earlier,
/// the vendor runtime's among them), and, for a door called inside a Python program, `Py_AtExit`.
pub(crate) fn finish_at_exit(when: When) {
    // SAFETY: `at_exit` is an `extern "C" fn()` that never unwinds.
    if unsafe { libc::atexit(at_exit) } != 0 {
        say("could not register the exit handler: the trace stays .partial (a whole trace up to the last flush)");
    }
    if when == When::InProgram {
        register_with_python();
    }
}

extern "C" fn at_exit() {
    let _ = catch_unwind(finish_bounded);
}

/// How long the exit handler waits for the engine to finish before it lets the process exit: a
/// vendor library whose own teardown already began can block its stop (libmspti's channel threads
/// waiting on a destroyed parser; docs/VENDOR-NOTES.md), and a tracer must never hang a program.
const EXIT_FINISH_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// [`finish`] on a thread of its own, waited for at most [`EXIT_FINISH_LIMIT`]: past it the process
/// exits with the trace `.partial` (whole up to the last flush), and says so.
pub(crate) fn finish_bounded() {
    if OWNER.load(Ordering::SeqCst) != std::process::id() || engine().is_none() {
        return;
    }
    let (done, wait) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new().name("accelprof-exit".into()).spawn(move || {
        let _ = catch_unwind(finish);
        let _ = done.send(());
    });
    if spawned.is_err() {
        finish();
        return;
    }
    if wait.recv_timeout(EXIT_FINISH_LIMIT).is_err() {
        say(&format!(
            "pid {}: the tracer did not finish within {} s at exit (the vendor library's own teardown blocked it; \
             on Ascend, end the program with aclFinalize): its trace stays .partial, whole up to the last flush",
            std::process::id(),
            EXIT_FINISH_LIMIT.as_secs()
        ));
    }
}

/// In a Python process, also finish when the interpreter finalizes (`Py_AtExit`): after an uncaught
/// `KeyboardInterrupt`, Python ends by killing itself with SIGINT once finalized, and C `atexit`
/// handlers never run. Found at run time in the global scope (the `python` executable exports it).
fn register_with_python() {
    type PyAtExit = unsafe extern "C" fn(extern "C" fn()) -> c_int;
    // SAFETY: a lookup by a NUL-terminated name in the global scope.
    let symbol = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"Py_AtExit".as_ptr()) };
    if symbol.is_null() {
        return;
    }
    // SAFETY: `int Py_AtExit(void (*func)(void))` in every CPython 3; `at_exit` never unwinds, and
    // may also run from `atexit` (finishing is idempotent).
    if unsafe { std::mem::transmute::<*mut libc::c_void, PyAtExit>(symbol)(at_exit) } != 0 {
        say(
            "could not register with Python's Py_AtExit: after Ctrl-C the trace stays .partial (still whole)",
        );
    }
}

/// Ends this process's engine now (idempotent; nothing in a process that did not start it): the
/// tracer is stopped, and it hands every record over, finishes the outputs, prints the summary,
/// writes `ACCELPROF_SUMMARY_JSON` and tells the launcher (each once: the door adds nothing).
pub fn finish() {
    if OWNER.load(Ordering::SeqCst) != std::process::id() {
        return;
    }
    let Some(tracer) = engine().take() else { return };
    drop(tracer.stop());
}
