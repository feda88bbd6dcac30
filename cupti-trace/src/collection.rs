//! Starting and stopping collection while the program runs: a delay and a duration, a signal that
//! toggles, `cudaProfilerStart` / `cudaProfilerStop` ranges.
//!
//! Pausing pauses the activity session (its kinds are disabled in CUPTI, through whichever activity API
//! the session uses), so a paused tracer costs the program nothing; resuming enables them again. The trace
//! stays one file: its events come from the windows collection was on.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use cupti::activity::ActivitySwitch;
use cupti::{CallbackData, Cupti, DriverCbid, RuntimeCbid, Subscriber};

#[derive(Debug, Default)]
struct State {
    collecting: bool,
    /// The tracer is ending: nothing is enabled again.
    ended: bool,
    /// The duration's window is over (the tracer should be finished).
    window_over: bool,
    /// When collection last started.
    since: Option<Instant>,
    /// Windows collection was on (counting the current one).
    windows: u32,
}

/// Whether the tracer's activity kinds are on in CUPTI, and the means to switch them.
#[derive(Debug)]
pub struct Collection {
    cupti: &'static Cupti,
    switch: ActivitySwitch<'static>,
    state: Mutex<State>,
    changed: Condvar,
}

impl Collection {
    /// Control of a session through its `switch` (collecting now: the session has started).
    pub(crate) fn new(cupti: &'static Cupti, switch: ActivitySwitch<'static>) -> Arc<Collection> {
        let state = State { collecting: true, since: Some(Instant::now()), windows: 1, ..State::default() };
        Arc::new(Collection { cupti, switch, state: Mutex::new(state), changed: Condvar::new() })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether records are being collected now.
    pub fn is_collecting(&self) -> bool {
        self.lock().collecting
    }

    /// Collection windows so far (1 when collection was never paused).
    pub fn windows(&self) -> u32 {
        self.lock().windows
    }

    /// Stops collecting (the kinds are disabled in CUPTI); `false` when already stopped.
    pub fn pause(&self) -> bool {
        self.set(false)
    }

    /// Collects again; `false` when already collecting or when the tracer is ending.
    pub fn resume(&self) -> bool {
        self.set(true)
    }

    /// Pauses when collecting, resumes when paused; whether it collects now.
    pub fn toggle(&self) -> bool {
        let on = !self.is_collecting();
        self.set(on);
        self.is_collecting()
    }

    fn set(&self, on: bool) -> bool {
        let mut state = self.lock();
        if state.collecting == on || (on && state.ended) {
            return false;
        }
        let switched = if on { self.switch.resume() } else { self.switch.pause() };
        if let Err(e) = switched {
            crate::report(&format!("could not {} collection: {e}", if on { "resume" } else { "pause" }));
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

    /// Pauses right after the session started, before any window: collection waits for a delay, a
    /// signal or a profiler range.
    pub(crate) fn start_paused(&self) {
        self.pause();
        self.lock().windows = 0;
    }

    /// From now on nothing enables the kinds again (the tracer is ending).
    pub(crate) fn end(&self) {
        self.lock().ended = true;
        self.changed.notify_all();
    }

    /// Waits until the duration's window is over (`true`) or the tracer ends (`false`).
    pub fn wait_window_over(&self) -> bool {
        let mut state = self.lock();
        while !state.window_over && !state.ended {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.window_over
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

    /// Starts collection after `delay` (when collection is paused now), and ends the window `duration`
    /// after collection started, on a thread of its own.
    pub(crate) fn schedule(self: &Arc<Self>, delay: Duration, duration: Option<Duration>) {
        if delay.is_zero() && duration.is_none() {
            return;
        }
        let me = Arc::clone(self);
        let spawned = std::thread::Builder::new().name("cupti-trace-window".into()).spawn(move || {
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
        });
        if let Err(e) = spawned {
            crate::report(&format!(
                "could not start the collection window's thread ({e}): collecting throughout"
            ));
        }
    }

    /// A callback subscriber that resumes collection at `cudaProfilerStart` (and `cuProfilerStart`) and
    /// pauses it when `cudaProfilerStop` returns.
    pub(crate) fn follow_profiler_ranges(self: &Arc<Self>) -> cupti::Result<Subscriber<'static>> {
        let me = Arc::clone(self);
        let start = [RuntimeCbid::cudaProfilerStart_v4000.into(), DriverCbid::cuProfilerStart.into()];
        let stop = [RuntimeCbid::cudaProfilerStop_v4000.into(), DriverCbid::cuProfilerStop.into()];
        let subscriber = self.cupti.subscribe(move |cb: &CallbackData<'_>| {
            let Some(call) = cb.api() else { return };
            if call.is_enter() && start.contains(&cb.id()) {
                me.resume();
            } else if call.is_exit() && stop.contains(&cb.id()) {
                me.pause();
            }
        })?;
        for id in start.into_iter().chain(stop) {
            subscriber.enable(id)?;
        }
        Ok(subscriber)
    }
}
