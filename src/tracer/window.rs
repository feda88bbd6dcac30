//! The capture window: when collection is on. A delay and a duration, [`Tracer::pause`] and
//! [`Tracer::resume`], a signal that toggles, the program's profiler start/stop calls: each switches
//! the vendor's collection through the backend's [`Switch`] (the kinds disabled in the vendor
//! library, so a paused tracer costs the program nothing, and records of work done while paused are
//! not produced). The outputs stay one file each: their events come from the windows collection was
//! on.
//!
//! [`Tracer::pause`]: super::Tracer::pause
//! [`Tracer::resume`]: super::Tracer::resume

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Pauses and resumes a vendor's collection, from any thread (a timer, the signal thread, a vendor
/// callback) without the tracer's locks.
pub(crate) trait Switch: Send + Sync {
    /// Disables the kinds.
    fn pause(&self) -> Result<(), String>;
    /// Enables them again.
    fn resume(&self) -> Result<(), String>;
}

#[derive(Debug, Default)]
struct State {
    /// The tracer has started (before, nothing switches).
    started: bool,
    collecting: bool,
    /// The tracer is ending (or its outputs were finished): nothing is enabled again.
    ended: bool,
    /// The duration's window is over.
    window_over: bool,
    /// When collection last started.
    since: Option<Instant>,
    /// Windows collection was on (counting the current one).
    windows: u32,
    /// Switches the vendor refused, and why.
    errors: Vec<String>,
}

/// Whether the tracer's kinds are on in the vendor library, and the means to switch them.
pub(crate) struct Window {
    switch: Box<dyn Switch>,
    state: Mutex<State>,
    changed: Condvar,
}

impl Window {
    pub(crate) fn new(switch: Box<dyn Switch>) -> Arc<Window> {
        Arc::new(Window { switch, state: Mutex::new(State::default()), changed: Condvar::new() })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn is_collecting(&self) -> bool {
        self.lock().collecting
    }

    /// Collection windows so far (1 when collection was never paused).
    pub(crate) fn windows(&self) -> u32 {
        self.lock().windows
    }

    /// Switches the vendor refused.
    pub(crate) fn errors(&self) -> Vec<String> {
        self.lock().errors.clone()
    }

    /// The tracer started collecting (the backend's kinds are on): one window. With `paused`,
    /// collection waits (a delay, a capture range): the kinds are switched off again at once and
    /// no window is counted yet. `false` when it had started already.
    pub(crate) fn started(&self, paused: bool) -> bool {
        let mut state = self.lock();
        if state.started {
            return false;
        }
        state.started = true;
        state.collecting = true;
        state.since = Some(Instant::now());
        state.windows = 1;
        drop(state);
        if paused {
            self.set(false);
            self.lock().windows = 0;
        }
        true
    }

    /// Stops collecting; `false` when not collecting (or not started).
    pub(crate) fn pause(&self) -> bool {
        self.set(false)
    }

    /// Collects again; `false` when collecting already, not started, or ended.
    pub(crate) fn resume(&self) -> bool {
        self.set(true)
    }

    /// Pauses when collecting, resumes when paused; whether it collects now.
    pub(crate) fn toggle(&self) -> bool {
        let on = !self.is_collecting();
        self.set(on);
        self.is_collecting()
    }

    fn set(&self, on: bool) -> bool {
        let mut state = self.lock();
        if !state.started || state.collecting == on || (on && state.ended) {
            return false;
        }
        let switched = if on { self.switch.resume() } else { self.switch.pause() };
        if let Err(e) = switched {
            state.errors.push(format!("could not {} collection: {e}", if on { "resume" } else { "pause" }));
            return false;
        }
        state.collecting = on;
        if on {
            state.since = Some(Instant::now());
            state.windows += 1;
        }
        drop(state);
        self.changed.notify_all();
        true
    }

    /// From now on nothing enables the kinds again (the session's own end disables them, in the
    /// order the vendor needs).
    pub(crate) fn close(&self) {
        self.lock().ended = true;
        self.changed.notify_all();
    }

    /// Waits `timeout` or until the tracer ends; whether it ended.
    fn sleep(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.lock();
        while !state.ended {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self.changed.wait_timeout(state, left).unwrap_or_else(|e| e.into_inner()).0;
        }
        true
    }

    /// Starts collection after `delay` (when it waits for it), and ends the window `duration` after
    /// collection started, on a thread of its own; `over` runs then (it finishes the outputs).
    pub(crate) fn schedule(
        self: &Arc<Self>,
        delay: Duration,
        duration: Option<Duration>,
        over: impl FnOnce() + Send + 'static,
    ) -> Result<(), String> {
        if delay.is_zero() && duration.is_none() {
            return Ok(());
        }
        let me = Arc::clone(self);
        std::thread::Builder::new()
            .name("accelprof-window".into())
            .spawn(move || {
                if !delay.is_zero() {
                    if me.sleep(delay) {
                        return;
                    }
                    me.resume();
                }
                let Some(duration) = duration else { return };
                let started = me.lock().since.unwrap_or_else(Instant::now);
                let left = duration.saturating_sub(started.elapsed());
                if me.sleep(left) {
                    return;
                }
                me.pause();
                me.lock().window_over = true;
                me.changed.notify_all();
                over();
            })
            .map(drop)
            .map_err(|e| {
                format!("could not start the collection window's thread ({e}): collecting throughout")
            })
    }
}
