//! Signals in the traced process: SIGINT, SIGTERM and SIGHUP finish the outputs before the process
//! dies of them ([`TracerConfig::handle_signals`](super::TracerConfig::handle_signals)); a toggle
//! signal pauses and resumes collection ([`TracerConfig::toggle_signal`](super::TracerConfig::toggle_signal)).
//!
//! The handlers' thread is started once per process, the first time a tracer asks; each later tracer
//! that asks is made the one they act on (a signal with no tracer to act on dies as with no handler, a
//! toggle does nothing), and what it asks for that no earlier tracer did is installed then (the end
//! signals, or a toggle signal when none is installed yet). A tracer that asks for a toggle signal
//! other than the one installed, or for one an earlier tracer ends the trace on, is refused before
//! anything is set up ([`check_toggle`]): the signal it asked for would not toggle (it would kill the
//! program, or end the trace).
//!
//! A handler is installed only for a signal whose disposition is the default (the signal would kill the
//! program): a program that handles a signal itself (Python raises `KeyboardInterrupt` on SIGINT, and
//! exits through its `atexit`, which finishes the trace) keeps doing so. The handler only writes the
//! signal's number into a pipe (async-signal-safe); a thread of ours reads it and does the work: finish
//! the trace and print the summary, then restore the default disposition and raise the signal again, so
//! that the process dies of it as it would have (same exit status for the shell, torchrun, the
//! scheduler). A second terminating signal while the trace is being finished kills the process at once,
//! unless it comes within [`REPEAT_WINDOW_NS`] of the first: one signal delivered twice (to the process
//! group by `timeout` or the terminal, and forwarded by the launcher) is one request.
//! A forked child (which inherits the handlers, not the thread) is treated as if nothing was installed;
//! so is a program that closed the pipe (`closefrom(3)`): the handler writes only into the pipe (checked
//! with `fstat`: its numbers may be the program's own files by then), and a terminating signal it cannot
//! send kills the process as with no handler (the trace is then recovered, not finished).

use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};

/// The signals that end the trace before they kill the program.
pub(crate) const END_SIGNALS: [c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The pipe's write end (-1: none).
static PIPE: AtomicI32 = AtomicI32::new(-1);
/// The pipe's device and inode (both ends'): a program that closes every descriptor (`closefrom(3)`)
/// closes the pipe too, and its numbers become the program's next files.
static PIPE_DEV: AtomicU64 = AtomicU64::new(0);
static PIPE_INO: AtomicU64 = AtomicU64::new(u64::MAX);

/// The device and inode of what `fd` is now (fstat is async-signal-safe); `None` when it is closed.
// `dev_t` and `ino_t` are `u64` on some targets only.
#[allow(clippy::useless_conversion)]
fn identity(fd: c_int) -> Option<(u64, u64)> {
    // SAFETY: fstat writes into a zeroed local `stat`.
    unsafe {
        let mut stat: libc::stat = std::mem::zeroed();
        (libc::fstat(fd, &mut stat) == 0).then(|| (u64::from(stat.st_dev), u64::from(stat.st_ino)))
    }
}

/// Whether descriptor `fd` is still the pipe.
fn is_pipe(fd: c_int) -> bool {
    identity(fd) == Some((PIPE_DEV.load(Ordering::SeqCst), PIPE_INO.load(Ordering::SeqCst)))
}
/// The process that installed the handlers.
static OWNER: AtomicU32 = AtomicU32::new(0);
/// The signal that toggles collection (0: none).
static TOGGLE: AtomicI32 = AtomicI32::new(0);
/// A terminating signal arrived and the trace is being finished.
static ENDING: AtomicBool = AtomicBool::new(false);
/// When it arrived (CLOCK_MONOTONIC ns).
static ENDING_SINCE: AtomicU64 = AtomicU64::new(0);
/// A terminating signal this soon after the first is taken for the same request delivered twice.
pub(crate) const REPEAT_WINDOW_NS: u64 = 2_000_000_000;

/// CLOCK_MONOTONIC in ns (async-signal-safe).
fn monotonic_ns() -> u64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime is async-signal-safe and writes the timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    (now.tv_sec as u64).wrapping_mul(1_000_000_000).wrapping_add(now.tv_nsec as u64)
}

/// Dies of `signal` as with no handler: default disposition, unblocked, raised.
fn die_of(signal: c_int) -> ! {
    // SAFETY: signal(2), sigprocmask on the calling thread, raise(3) and _exit(2) are async-signal-safe
    // and take plain values; the mask is a local sigset_t initialised by sigemptyset.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(signal);
        // A signal whose default is not to terminate (none of ours) would come back here.
        libc::_exit(128 + signal)
    }
}

extern "C" fn on_signal(signal: c_int) {
    // SAFETY: getpid is async-signal-safe.
    let forked = unsafe { libc::getpid() } as u32 != OWNER.load(Ordering::Relaxed);
    let terminating = signal != TOGGLE.load(Ordering::Relaxed);
    if forked {
        // Not the traced process: behave as if no handler were installed (every signal we handle
        // terminates by default, SIGUSR1/2 and SIGHUP included; SIGWINCH and SIGURG are ignored).
        if signal == libc::SIGWINCH || signal == libc::SIGURG {
            return;
        }
        die_of(signal);
    }
    if terminating {
        let now = monotonic_ns();
        if ENDING.swap(true, Ordering::SeqCst) {
            if now.wrapping_sub(ENDING_SINCE.load(Ordering::SeqCst)) < REPEAT_WINDOW_NS {
                // The same request delivered twice: the trace is being finished already.
                return;
            }
            // Asked again while the trace is being finished: die now.
            die_of(signal);
        }
        ENDING_SINCE.store(now, Ordering::SeqCst);
    }
    let fd = PIPE.load(Ordering::Relaxed);
    if fd >= 0 {
        // Only into the pipe: a program that closed it may have another file at its number now. Not
        // sent (the pipe is gone), a terminating signal kills the process as with no handler.
        // SAFETY: errno is saved and restored around fstat(2) and write(2), which are
        // async-signal-safe; the byte lives on this stack for the call.
        let sent = unsafe {
            let errno = *libc::__errno_location();
            let byte = signal as u8;
            let sent = is_pipe(fd)
                && (libc::write(fd, (&byte as *const u8).cast(), 1) == 1
                    || *libc::__errno_location() == libc::EAGAIN);
            *libc::__errno_location() = errno;
            sent
        };
        if !sent && terminating {
            die_of(signal);
        }
    }
}

/// Whether `signal`'s disposition is the default now.
fn is_default(signal: c_int) -> bool {
    // SAFETY: a query only (NULL new action) into a zeroed sigaction.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0 && current.sa_sigaction == libc::SIG_DFL
    }
}

fn install_handler(signal: c_int) -> bool {
    // SAFETY: `on_signal` is an `extern "C" fn(c_int)` that only does async-signal-safe work; the action
    // is fully initialised (zeroed, empty mask).
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as extern "C" fn(c_int) as usize;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(signal, &action, std::ptr::null_mut()) == 0
    }
}

/// What [`install`] did.
#[derive(Clone, Debug, Default)]
pub(crate) struct Installed {
    /// Terminating signals handled.
    pub(crate) end: Vec<c_int>,
    /// The toggle signal, when handled.
    pub(crate) toggle: Option<c_int>,
    /// Why something was not installed.
    pub(crate) notes: Vec<String>,
}

/// Installs the handlers and starts the thread that acts on them: `on_end(signal)` for a terminating
/// signal (then the process dies of it), `on_toggle()` for the toggle signal. Once per process.
fn install(end: bool, toggle: Option<c_int>, on_end: fn(c_int), on_toggle: fn()) -> Installed {
    let mut installed = Installed::default();
    if !end && toggle.is_none() {
        return installed;
    }
    let mut fds = [0 as c_int; 2];
    // SAFETY: pipe2 writes two descriptors into the array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        installed
            .notes
            .push(format!("no signal handling: pipe2 failed ({})", std::io::Error::last_os_error()));
        return installed;
    }
    let [read_end, write_end] = fds;
    // SAFETY: the write end is ours; O_NONBLOCK keeps a handler from ever blocking on a full pipe.
    unsafe {
        let flags = libc::fcntl(write_end, libc::F_GETFL);
        libc::fcntl(write_end, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
    if let Some((dev, ino)) = identity(write_end) {
        PIPE_DEV.store(dev, Ordering::SeqCst);
        PIPE_INO.store(ino, Ordering::SeqCst);
    }
    OWNER.store(std::process::id(), Ordering::SeqCst);
    PIPE.store(write_end, Ordering::SeqCst);
    let spawned = std::thread::Builder::new().name("accelprof-signals".into()).spawn(move || loop {
        // Never a read from a number that is not the pipe any more (the program's file now).
        if !is_pipe(read_end) {
            return;
        }
        let mut byte = 0u8;
        // SAFETY: reads one byte into a local.
        let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
        if n == 1 {
            let signal = c_int::from(byte);
            // The toggle signal now: a later tracer may have installed one.
            if signal == TOGGLE.load(Ordering::SeqCst) {
                on_toggle();
            } else {
                on_end(signal);
                die_of(signal);
            }
        } else if n == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return;
        }
    });
    if let Err(e) = spawned {
        PIPE.store(-1, Ordering::SeqCst);
        installed.notes.push(format!("no signal handling: could not start its thread ({e})"));
        return installed;
    }
    if let Some(signal) = toggle {
        install_toggle(&mut installed, signal);
    }
    if end {
        install_end(&mut installed);
    }
    installed
}

/// Installs the handler of the toggle signal `signal` (none is installed yet; the thread runs).
fn install_toggle(installed: &mut Installed, signal: c_int) {
    // Set before the handler exists: from then on the signal is taken for a toggle, never an end.
    let previous = TOGGLE.swap(signal, Ordering::SeqCst);
    if is_default(signal) && install_handler(signal) {
        installed.toggle = Some(signal);
    } else {
        TOGGLE.store(previous, Ordering::SeqCst);
        installed.notes.push(format!(
            "the program handles {} itself: collection is not toggled by it",
            signal_name(signal)
        ));
    }
}

/// Installs the handlers of the end signals that are not the toggle signal and still have their
/// default disposition (the thread runs).
fn install_end(installed: &mut Installed) {
    for signal in END_SIGNALS {
        if Some(signal) != installed.toggle
            && !installed.end.contains(&signal)
            && is_default(signal)
            && install_handler(signal)
        {
            installed.end.push(signal);
        }
    }
}

/// `SIGTERM`, `SIGUSR2`, `SIG34`.
pub fn signal_name(signal: c_int) -> String {
    let known = [
        (libc::SIGINT, "SIGINT"),
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGHUP, "SIGHUP"),
        (libc::SIGUSR1, "SIGUSR1"),
        (libc::SIGUSR2, "SIGUSR2"),
        (libc::SIGWINCH, "SIGWINCH"),
        (libc::SIGURG, "SIGURG"),
        (libc::SIGSEGV, "SIGSEGV"),
        (libc::SIGABRT, "SIGABRT"),
        (libc::SIGKILL, "SIGKILL"),
        (libc::SIGBUS, "SIGBUS"),
    ];
    known.iter().find(|(s, _)| *s == signal).map_or_else(|| format!("SIG{signal}"), |(_, n)| (*n).to_owned())
}

/// What the handlers act on: the tracer that asked last, while it lives.
pub(crate) struct Target {
    /// Finishes the outputs (the signal's name given); the process dies of the signal after.
    pub(crate) end: Box<dyn Fn(c_int) + Send + Sync>,
    /// Pauses or resumes collection.
    pub(crate) toggle: Box<dyn Fn() + Send + Sync>,
    /// Whether it asked for end signals to be handled.
    pub(crate) handles_end: bool,
    /// The toggle signal it asked for.
    pub(crate) toggle_signal: Option<c_int>,
}

static TARGET: std::sync::Mutex<Option<std::sync::Weak<Target>>> = std::sync::Mutex::new(None);
static INSTALLED: std::sync::Mutex<Option<Installed>> = std::sync::Mutex::new(None);

fn target() -> Option<std::sync::Arc<Target>> {
    TARGET.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(std::sync::Weak::upgrade)
}

fn on_end(signal: c_int) {
    if let Some(t) = target().filter(|t| t.handles_end) {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (t.end)(signal)));
    }
}

fn on_toggle() {
    let toggle = TOGGLE.load(Ordering::Relaxed);
    if let Some(t) = target().filter(|t| t.toggle_signal == Some(toggle)) {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (t.toggle)()));
    }
}

/// `Err` (why, naming both signals) when `asked` cannot toggle collection in this process because an
/// earlier tracer installed another toggle signal, or ends the trace on `asked`: the process has one
/// toggle signal, installed once, and `asked` would have no toggle handler (sent, it would kill the
/// program, or end the trace).
pub(crate) fn check_toggle(asked: Option<c_int>) -> Result<(), String> {
    let Some(asked) = asked else { return Ok(()) };
    let installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    let Some(done) = installed.as_ref() else { return Ok(()) };
    match done.toggle {
        Some(other) if other != asked => Err(format!(
            "TracerConfig::toggle_signal is {}, but an earlier tracer of this process toggles collection \
             with {} (a process has one toggle signal, installed once): ask for {}, or for none",
            signal_name(asked),
            signal_name(other),
            signal_name(other)
        )),
        None if done.end.contains(&asked) && PIPE.load(Ordering::SeqCst) >= 0 => Err(format!(
            "TracerConfig::toggle_signal is {}, but an earlier tracer of this process ends the trace on {}: \
             ask for another toggle signal",
            signal_name(asked),
            signal_name(asked)
        )),
        _ => Ok(()),
    }
}

/// Makes `target` the tracer the handlers act on, installing them the first time (once per
/// process); what is handled, and notes on what is not.
pub(crate) fn register(target: &std::sync::Arc<Target>) -> Installed {
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    let now = match installed.as_ref() {
        Some(done) => {
            // What this tracer asks for that no earlier one did is installed now, where the thread
            // runs (its pipe is open).
            let running = PIPE.load(Ordering::SeqCst) >= 0;
            let mut now = done.clone();
            now.notes.clear();
            if let Some(asked) = target.toggle_signal.filter(|s| done.toggle != Some(*s)) {
                if done.toggle.is_none() && !done.end.contains(&asked) && running {
                    install_toggle(&mut now, asked);
                } else {
                    let why = match done.toggle {
                        Some(other) => {
                            format!("an earlier tracer of this process toggles with {}", signal_name(other))
                        }
                        None if running => {
                            "an earlier tracer of this process ends the trace on it".to_owned()
                        }
                        None => "this process has no signal handling (it could not be set up)".to_owned(),
                    };
                    now.notes.push(format!("{} does not toggle collection: {why}", signal_name(asked)));
                }
            }
            if target.handles_end && running {
                install_end(&mut now);
            }
            if target.handles_end && now.end.is_empty() {
                now.notes.push(if running {
                    "SIGINT, SIGTERM and SIGHUP are handled by the program itself: they are not handled".to_owned()
                } else {
                    "this process has no signal handling (it could not be set up): SIGINT, SIGTERM and SIGHUP \
                     are not handled"
                        .to_owned()
                });
            }
            let notes = std::mem::take(&mut now.notes);
            *installed = Some(now.clone());
            now.notes = notes;
            now
        }
        None => {
            let done = install(target.handles_end, target.toggle_signal, on_end, on_toggle);
            *installed = Some(done.clone());
            done
        }
    };
    *TARGET.lock().unwrap_or_else(|e| e.into_inner()) = Some(std::sync::Arc::downgrade(target));
    now
}
