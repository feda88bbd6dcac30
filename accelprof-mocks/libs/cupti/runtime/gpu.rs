//! The GPU's timeline: when work on each stream ends, and the kernels still in flight.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use crate::activity::buffers::{self, PatchOutcome as Completion};
use crate::clock;
use crate::fxhash::FxHashMap;

/// GPU work starts this long after the API call that queued it, at the earliest.
pub const LAUNCH_LATENCY_NS: u64 = 1_000;

/// When work issued now may start at the earliest: after the innermost API call that issues it
/// has begun (a kernel never starts before its `cuLaunchKernel`), plus the launch latency.
pub fn earliest_start() -> u64 {
    crate::clock::now() + LAUNCH_LATENCY_NS
}

pub struct InFlight {
    pub device: u32,
    pub stream: u32,
    pub start: u64,
}

/// The GPU's timeline, and the counters behind grid ids, addresses and marker ids.
pub struct Gpu {
    /// When the last work on `(device, stream id)` ends.
    /// Looked up per launch: the mock's fast hash (only ever looked up, never walked).
    stream_end: FxHashMap<(u32, u32), u64>,
    in_flight: HashMap<u32, InFlight>,
    next_grid_id: i64,
    next_address: u64,
    next_marker_id: u32,
}

static GPU: Mutex<Option<Gpu>> = Mutex::new(None);

fn gpu() -> MutexGuard<'static, Option<Gpu>> {
    let mut g = GPU.lock().unwrap_or_else(|e| e.into_inner());
    g.get_or_insert_with(|| Gpu {
        stream_end: FxHashMap::default(),
        in_flight: HashMap::new(),
        next_grid_id: 1,
        next_address: 0x7f00_0000_0000,
        next_marker_id: 1,
    });
    g
}

pub fn with_gpu<R>(f: impl FnOnce(&mut Gpu) -> R) -> R {
    f(gpu().as_mut().expect("initialised by gpu()"))
}

impl Gpu {
    /// Places work of `duration` on a stream no earlier than `earliest`; `None` duration: it
    /// starts but has no known end yet (in flight).
    pub fn schedule(&mut self, device: u32, stream: u32, earliest: u64, duration: Option<u64>) -> (u64, u64) {
        let free = self.stream_end.get(&(device, stream)).copied().unwrap_or(0);
        let start = earliest.max(free);
        let Some(duration) = duration else { return (start, 0) };
        let end = start + duration;
        self.stream_end.insert((device, stream), end);
        (start, end)
    }

    /// When all work on the device (or one stream of it) ends.
    pub fn idle_at(&self, device: u32, stream: Option<u32>) -> u64 {
        self.stream_end
            .iter()
            .filter(|((d, s), _)| *d == device && stream.map_or(true, |want| want == *s))
            .map(|(_, &end)| end)
            .max()
            .unwrap_or(0)
    }

    /// A kernel that started and has not ended, keyed by its correlation id.
    pub fn add_in_flight(&mut self, correlation: u32, kernel: InFlight) {
        self.in_flight.insert(correlation, kernel);
    }

    /// The next kernel's `gridId`.
    pub fn next_grid_id(&mut self) -> i64 {
        self.next_grid_id += 1;
        self.next_grid_id - 1
    }

    /// The next marker id.
    pub fn next_marker_id(&mut self) -> u32 {
        self.next_marker_id += 1;
        self.next_marker_id - 1
    }

    /// A fresh device address range of `bytes` (256-byte aligned).
    pub fn allocate(&mut self, bytes: u64) -> u64 {
        let a = self.next_address;
        self.next_address += bytes.max(1).div_ceil(256) * 256;
        a
    }
}

pub fn reset() {
    *GPU.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

pub fn kernels_in_flight() -> u64 {
    with_gpu(|g| g.in_flight.len() as u64)
}

/// Finishes an in-flight kernel at `end`; see [`Completion`].
fn finish_kernel(correlation: u32, start: u64, end: u64) -> Completion {
    buffers::complete_record(correlation, start, end)
}

/// Ends an in-flight kernel `duration` ns after it started (at the latest now).
/// `None` if no such kernel is in flight.
pub fn complete_kernel(correlation: u32, duration: u64) -> Option<Completion> {
    let k = with_gpu(|g| g.in_flight.remove(&correlation))?;
    let end = k.start + duration;
    with_gpu(|g| {
        let e = g.stream_end.entry((k.device, k.stream)).or_insert(0);
        *e = (*e).max(end);
    });
    Some(finish_kernel(correlation, k.start, end))
}

/// Ends, now, every in-flight kernel a synchronization waits for.
pub fn complete_in_flight(device: u32, stream: Option<u32>) {
    let done: Vec<(u32, InFlight)> = with_gpu(|g| {
        let keys: Vec<u32> = g
            .in_flight
            .iter()
            .filter(|(_, k)| k.device == device && stream.map_or(true, |s| s == k.stream))
            .map(|(&c, _)| c)
            .collect();
        keys.into_iter().filter_map(|c| g.in_flight.remove(&c).map(|k| (c, k))).collect()
    });
    for (correlation, k) in done {
        let end = clock::now().max(k.start + 1);
        with_gpu(|g| {
            let e = g.stream_end.entry((k.device, k.stream)).or_insert(0);
            *e = (*e).max(end);
        });
        finish_kernel(correlation, k.start, end);
    }
}
