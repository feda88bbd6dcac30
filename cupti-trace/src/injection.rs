//! `InitializeInjection`: how the CUDA driver attaches the tracer to an unmodified program.
//!
//! With `CUDA_INJECTION64_PATH=/path/to/libcupti_trace.so`, the driver `dlopen`s this library during
//! `cuInit` and calls `InitializeInjection`. It starts a [`Tracer`] and registers a C `atexit` handler that
//! ends it (final fence and flush, trace file, summary) before the process exits: registered during
//! `cuInit`, it runs before the CUDA runtime's own exit handlers tear the contexts down. Every failure is
//! reported on stderr and the program runs on untraced; nothing here panics into the driver.

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use cupti::Cupti;

use crate::{report, TraceConfig, Tracer};

/// The tracer of this process.
static TRACER: Mutex<Option<(Tracer, TraceConfig)>> = Mutex::new(None);
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

fn start() {
    let mut slot = TRACER.lock().unwrap_or_else(|e| e.into_inner());
    if slot.is_some() {
        return;
    }
    let (config, warnings) = TraceConfig::from_env();
    for warning in warnings {
        report(&warning);
    }
    let cupti = match Cupti::global() {
        Ok(cupti) => cupti,
        Err(e) => {
            report(&format!("cannot load CUPTI, not tracing: {e}"));
            return;
        }
    };
    match Tracer::start(cupti, config.clone()) {
        Ok(tracer) => {
            *slot = Some((tracer, config));
            OWNER.store(std::process::id(), Ordering::SeqCst);
            // SAFETY: `at_exit` is an `extern "C" fn()` that never unwinds.
            if unsafe { libc::atexit(at_exit) } != 0 {
                report("could not register the exit handler: call cupti_trace::finish_and_report() before exiting");
            }
        }
        Err(e) => report(&format!("cannot start tracing: {e}")),
    }
}

extern "C" fn at_exit() {
    let _ = catch_unwind(AssertUnwindSafe(finish_and_report));
}

/// Ends the injected tracer now (idempotent): final flush, trace file, summary on stderr. The exit
/// handler calls it; a program may call it earlier.
pub fn finish_and_report() {
    if OWNER.load(Ordering::SeqCst) != std::process::id() {
        return;
    }
    let taken = TRACER.lock().unwrap_or_else(|e| e.into_inner()).take();
    let Some((tracer, config)) = taken else { return };
    let finished = tracer.finish();
    if let Some(path) = &config.summary_json {
        if let Err(e) = std::fs::write(path, finished.to_json().to_string()) {
            report(&format!("could not write {}: {e}", path.display()));
        }
    }
    eprint!("{}", indent(&finished.render(config.summary_top, config.summary)));
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("[cupti-trace] {l}\n")).collect()
}
