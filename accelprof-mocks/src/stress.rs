//! Helpers for lifecycle stress tests against the mocks: a [`Watchdog`] that turns a hang into a
//! failed test, a [`DropFlag`] that tells whether a closure was freed, and [`iterations`], the
//! round count a test runs (longer with `ACCELPROF_STRESS_ITERS`).
//!
//! ```
//! use std::sync::atomic::Ordering;
//! use std::time::Duration;
//!
//! use accelprof_mocks::stress::{iterations, DropFlag, Watchdog};
//!
//! let dog = Watchdog::start("doc example", Duration::from_secs(60));
//! for round in 0..iterations(10) {
//!     dog.progress(if round % 2 == 0 { "even round" } else { "odd round" });
//!     let (flag, freed) = DropFlag::new();
//!     let closure = move || flag.check();
//!     closure();
//!     drop(closure);
//!     assert!(freed.load(Ordering::SeqCst));
//! }
//! assert_eq!(DropFlag::violations(), 0);
//! ```

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The variable that sets the round count of every stress test ([`iterations`]).
pub const ITERS_VAR: &str = "ACCELPROF_STRESS_ITERS";

/// `default` rounds, or the count in `ACCELPROF_STRESS_ITERS` (a positive integer) to run longer.
pub fn iterations(default: u64) -> u64 {
    match std::env::var(ITERS_VAR) {
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(n) if n > 0 => n,
            _ => panic!("{ITERS_VAR}={v:?}: expected a positive integer"),
        },
        Err(_) => default,
    }
}

/// Fails a test that stops making progress: unless [`progress`](Self::progress) is called at least
/// once every `limit`, it prints the phase last reported and aborts the process (a hung thread cannot
/// be unwound; the test harness then reports the test binary as failed). Stopped when dropped.
///
/// This bounds waits, it times nothing: `limit` is a hang detector (tens of seconds), far above what
/// any phase takes even under a sanitizer.
#[derive(Debug)]
pub struct Watchdog {
    beat: Arc<Beat>,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Debug)]
struct Beat {
    phase: Mutex<String>,
    /// Microseconds since `begun` of the last progress.
    last: AtomicU64,
    begun: Instant,
}

impl Beat {
    fn now(&self) -> u64 {
        self.begun.elapsed().as_micros() as u64
    }
}

impl Watchdog {
    /// Watches the test `name`; `ACCELPROF_STRESS_HANG_S` (seconds) replaces `limit`.
    pub fn start(name: &str, limit: Duration) -> Watchdog {
        let limit = std::env::var("ACCELPROF_STRESS_HANG_S")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .map_or(limit, Duration::from_secs);
        let beat = Arc::new(Beat {
            phase: Mutex::new("start".into()),
            last: AtomicU64::new(0),
            begun: Instant::now(),
        });
        let (stop, stopped) = mpsc::channel::<()>();
        let b = Arc::clone(&beat);
        let name = name.to_string();
        let thread = std::thread::Builder::new()
            .name("stress-watchdog".into())
            .spawn(move || loop {
                match stopped.recv_timeout(Duration::from_millis(200)) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
                    Err(RecvTimeoutError::Timeout) => {}
                }
                let idle = Duration::from_micros(b.now().saturating_sub(b.last.load(Ordering::SeqCst)));
                if idle > limit {
                    let phase = b.phase.lock().map(|p| p.clone()).unwrap_or_else(|e| e.into_inner().clone());
                    // Straight to the process's stderr: the test harness captures `eprintln!`, and
                    // what it captured is lost when the process aborts.
                    let _ = writeln!(
                        std::io::stderr(),
                        "HANG: {name}: no progress for {idle:?} (limit {limit:?}) in phase: {phase}"
                    );
                    std::process::abort();
                }
            })
            .expect("spawn the watchdog thread");
        Watchdog { beat, stop: Some(stop), thread: Some(thread) }
    }

    /// Reports progress, now in `phase`.
    pub fn progress(&self, phase: &str) {
        if let Ok(mut p) = self.beat.phase.lock() {
            p.clear();
            p.push_str(phase);
        }
        self.beat.last.store(self.beat.now(), Ordering::SeqCst);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

static VIOLATIONS: AtomicU64 = AtomicU64::new(0);

/// Owned by a closure handed to a vendor library: sets its flag when dropped (the closure was freed).
/// The closure calls [`check`](Self::check) on every call, which counts a call that came after the
/// flag was set (a callback after its closure was freed) in [`DropFlag::violations`].
#[derive(Debug)]
pub struct DropFlag(Arc<AtomicBool>);

impl DropFlag {
    /// The flag, and a handle that reads it after the closure is gone.
    pub fn new() -> (DropFlag, Arc<AtomicBool>) {
        let freed = Arc::new(AtomicBool::new(false));
        (DropFlag(Arc::clone(&freed)), freed)
    }

    /// Counts a violation if the owning closure was already freed; whether it was.
    pub fn check(&self) -> bool {
        let freed = self.0.load(Ordering::SeqCst);
        if freed {
            VIOLATIONS.fetch_add(1, Ordering::SeqCst);
        }
        freed
    }

    /// Calls made after their closure was freed, in this process so far.
    pub fn violations() -> u64 {
        VIOLATIONS.load(Ordering::SeqCst)
    }
}

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// What the panics a stress test makes on purpose say first ([`hush_deliberate_panics`]).
pub const DELIBERATE: &str = "deliberate panic";

/// Keeps the panic hook from printing panics whose message starts with [`DELIBERATE`] (a stress test
/// makes thousands); every other panic is printed as before. Installed once per process.
pub fn hush_deliberate_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let message = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
            if !message.is_some_and(|m| m.starts_with(DELIBERATE)) {
                previous(info);
            }
        }));
    });
}
