//! Stand-in for the NPU driver's `libascend_hal.so`: one 910B device with two channels, read by
//! the profiling library with `prof_channel_poll` / `prof_channel_read` as from the real driver:
//! the STARS log channel carries the begin and end of each task the runtime stand-in ran
//! (`mock_hal_task`), the TS firmware channel the step-trace record of each `aclrtProfTrace` the
//! stream reached (`mock_hal_step_trace`: MSPTI's device-side marks). Each channel carries data
//! only while started (`prof_drv_start`). The device counter is CLOCK_MONOTONIC_RAW in
//! nanoseconds (frequency 1e6 ticks per ms).
//!
//! As on a real device, data reach the host after the work ran, with a latency
//! ([`DEFAULT_LATENCY_NS`], `mock_hal_set_latency_ns`): not at launch, and not necessarily before
//! the program's `aclrtSynchronizeStream` returns. `halProfDataFlush` counts only what reached
//! the host (stricter than a driver that would push the device's pending data first).

#![allow(clippy::missing_safety_doc)]

#[path = "../protocol.rs"]
mod protocol;

use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use protocol::{
    ChannelInfo, ChannelList, ProfPollInfo, CHANNEL_STARS_SOC_LOG, CHANNEL_TS_FW, STARS_LOG_SIZE,
    STEP_TRACE_SIZE,
};

struct Channel {
    started: bool,
    /// Logs on the host, readable.
    queued: Vec<u8>,
    /// Logs still on their way from the device: (when they arrive, in device ticks; the bytes).
    in_flight: Vec<(u64, Vec<u8>)>,
}

impl Channel {
    /// Moves the logs whose time has come to the host queue, in order of arrival.
    fn arrive(&mut self) {
        let now = protocol::monotonic_raw_ns();
        self.in_flight.sort_by_key(|(due, _)| *due);
        let n = self.in_flight.iter().take_while(|(due, _)| *due <= now).count();
        for (_, bytes) in self.in_flight.drain(..n) {
            self.queued.extend_from_slice(&bytes);
        }
    }

    /// Nanoseconds until the next log in flight arrives.
    fn next_arrival(&self) -> Option<u64> {
        let now = protocol::monotonic_raw_ns();
        self.in_flight.iter().map(|(due, _)| due.saturating_sub(now)).min()
    }
}

/// The STARS log channel and the TS firmware channel, under one lock.
struct Channels {
    stars: Channel,
    ts_fw: Channel,
}

impl Channels {
    fn get(&mut self, id: u32) -> Option<&mut Channel> {
        match id {
            CHANNEL_STARS_SOC_LOG => Some(&mut self.stars),
            CHANNEL_TS_FW => Some(&mut self.ts_fw),
            _ => None,
        }
    }
}

/// The size of one record of a channel.
fn record_size(id: u32) -> usize {
    if id == CHANNEL_TS_FW {
        STEP_TRACE_SIZE
    } else {
        STARS_LOG_SIZE
    }
}

const IDLE: Channel = Channel { started: false, queued: Vec::new(), in_flight: Vec::new() };
static CHANNELS: Mutex<Channels> = Mutex::new(Channels { stars: IDLE, ts_fw: IDLE });

/// Time from a task's end on the device to its logs on the host, by default: longer than the
/// 20 ms `msptiActivityDisable(KERNEL)` waits for the driver.
pub const DEFAULT_LATENCY_NS: u64 = 30_000_000;

static LATENCY_NS: AtomicU64 = AtomicU64::new(DEFAULT_LATENCY_NS);
static DATA: Condvar = Condvar::new();

fn channels() -> MutexGuard<'static, Channels> {
    CHANNELS.lock().unwrap_or_else(|e| e.into_inner())
}

#[no_mangle]
pub unsafe extern "C" fn drvGetDevNum(count: *mut u32) -> i32 {
    // SAFETY: the caller's out-pointer.
    unsafe { *count = 1 };
    0
}

#[no_mangle]
pub unsafe extern "C" fn drvGetDevIDs(devices: *mut u32, len: u32) -> i32 {
    if len > 0 {
        // SAFETY: the caller's array of `len` ids.
        unsafe { *devices = 0 };
    }
    0
}

/// Below the version from which MSPTI reads a host counter frequency: host times are
/// CLOCK_MONOTONIC_RAW.
#[no_mangle]
pub unsafe extern "C" fn halGetAPIVersion(version: *mut i32) -> i32 {
    // SAFETY: the caller's out-pointer.
    unsafe { *version = 0x071900 };
    0
}

#[no_mangle]
pub unsafe extern "C" fn halGetDeviceInfo(_dev: u32, _module: i32, info: i32, value: *mut i64) -> i32 {
    const VERSION: i32 = 1;
    const SYS_COUNT: i32 = 13;
    const DEV_OSC_FREQUE: i32 = 25;
    const NOT_SUPPORT: i32 = 0xfffe;
    let v = match info {
        VERSION => protocol::CHIP_910B << 8,
        SYS_COUNT => protocol::monotonic_raw_ns() as i64,
        DEV_OSC_FREQUE => 1_000_000,
        _ => return NOT_SUPPORT,
    };
    // SAFETY: the caller's out-pointer.
    unsafe { *value = v };
    0
}

#[no_mangle]
pub unsafe extern "C" fn prof_drv_get_channels(_dev: u32, list: *mut ChannelList) -> i32 {
    // SAFETY: the caller's out-struct.
    let list = unsafe { &mut *list };
    let info = |name: &[u8], id| {
        let mut channel_name = [0u8; 32];
        channel_name[..name.len()].copy_from_slice(name);
        ChannelInfo { channel_name, channel_type: 0, channel_id: id }
    };
    list.chip_type = protocol::CHIP_910B as u32;
    list.channel_num = 2;
    list.channel[0] = info(b"ts_fw", CHANNEL_TS_FW);
    list.channel[1] = info(b"stars_soc_log", CHANNEL_STARS_SOC_LOG);
    0
}

#[no_mangle]
pub extern "C" fn prof_drv_start(_dev: u32, channel: u32, _para: *mut c_void) -> i32 {
    if let Some(c) = channels().get(channel) {
        c.started = true;
    }
    0
}

#[no_mangle]
pub extern "C" fn prof_stop(_dev: u32, channel: u32) -> i32 {
    if let Some(c) = channels().get(channel) {
        c.started = false;
        c.queued.clear();
        c.in_flight.clear();
    }
    0
}

/// Waits (at most 50 ms here, `timeout` seconds in the driver) for a channel with data; fills
/// `out` with the channels that have some.
#[no_mangle]
pub unsafe extern "C" fn prof_channel_poll(out: *mut ProfPollInfo, num: i32, _timeout: i32) -> i32 {
    let deadline = std::time::Instant::now() + Duration::from_millis(50);
    let mut c = channels();
    loop {
        c.stars.arrive();
        c.ts_fw.arrive();
        let now = std::time::Instant::now();
        if !c.stars.queued.is_empty() || !c.ts_fw.queued.is_empty() || now >= deadline {
            break;
        }
        let next = [c.stars.next_arrival(), c.ts_fw.next_arrival()].into_iter().flatten().min();
        let wait = next.map_or(deadline - now, |ns| Duration::from_nanos(ns).min(deadline - now));
        c = DATA.wait_timeout(c, wait).unwrap_or_else(|e| e.into_inner()).0;
    }
    let ready =
        [(CHANNEL_TS_FW, !c.ts_fw.queued.is_empty()), (CHANNEL_STARS_SOC_LOG, !c.stars.queued.is_empty())];
    let mut n = 0;
    for (id, _) in ready.iter().filter(|(_, has)| *has) {
        if n >= num {
            break;
        }
        // SAFETY: the caller's array of `num` entries.
        unsafe { *out.add(n as usize) = ProfPollInfo { device_id: 0, channel_id: *id } };
        n += 1;
    }
    n
}

/// Moves whole records of the channel into `buf`; returns the bytes moved.
#[no_mangle]
pub unsafe extern "C" fn prof_channel_read(_dev: u32, channel: u32, buf: *mut u8, size: u32) -> i32 {
    let mut all = channels();
    let Some(c) = all.get(channel) else { return 0 };
    c.arrive();
    let n = c.queued.len().min(size as usize);
    let n = n - n % record_size(channel);
    // SAFETY: the caller's buffer of `size >= n` bytes.
    unsafe { std::ptr::copy_nonoverlapping(c.queued.as_ptr(), buf, n) };
    c.queued.drain(..n);
    n as i32
}

/// How many bytes the channel still holds (what a flush would deliver).
#[no_mangle]
pub unsafe extern "C" fn halProfDataFlush(_dev: u32, channel: u32, len: *mut u32) -> i32 {
    let n = channels().get(channel).map_or(0, |c| {
        c.arrive();
        c.queued.len()
    });
    // SAFETY: the caller's out-pointer.
    unsafe { *len = n as u32 };
    0
}

/// For the runtime stand-in: a task that runs on the device from `start` to `end` (device ticks);
/// if profiling started the STARS channel, its begin and end logs reach the host the latency after
/// `end`.
#[no_mangle]
pub extern "C" fn mock_hal_task(_dev: u32, stream: u16, task: u16, start: u64, end: u64) {
    let mut c = channels();
    if !c.stars.started {
        return;
    }
    let mut bytes = protocol::stars_log(protocol::STARS_FUNC_BEGIN, stream, task, start).to_vec();
    bytes.extend_from_slice(&protocol::stars_log(protocol::STARS_FUNC_END, stream, task, end));
    let due = end.max(protocol::monotonic_raw_ns()) + LATENCY_NS.load(SeqCst);
    c.stars.in_flight.push((due, bytes));
    DATA.notify_all();
}

/// For the runtime stand-in: the stream reached an `aclrtProfTrace` at `at` (device ticks); if
/// the TS firmware channel was started, its step-trace record (`index`, `model`, `tag` as the
/// trace data gave them) reaches the host the latency after `at`.
#[no_mangle]
pub extern "C" fn mock_hal_step_trace(
    _dev: u32,
    stream: u16,
    task: u16,
    index: u64,
    model: u64,
    tag: u16,
    at: u64,
) {
    let mut c = channels();
    if !c.ts_fw.started {
        return;
    }
    let bytes = protocol::step_trace(at, index, model, stream, task, tag).to_vec();
    let due = at.max(protocol::monotonic_raw_ns()) + LATENCY_NS.load(SeqCst);
    c.ts_fw.in_flight.push((due, bytes));
    DATA.notify_all();
}

/// A control: the time from a task's end to its logs on the host (0: at once;
/// [`DEFAULT_LATENCY_NS`] after `mock_hal_reset`).
#[no_mangle]
pub extern "C" fn mock_hal_set_latency_ns(ns: u64) {
    LATENCY_NS.store(ns, SeqCst);
}

/// A control: the default latency again, and nothing in flight.
#[no_mangle]
pub extern "C" fn mock_hal_reset() {
    LATENCY_NS.store(DEFAULT_LATENCY_NS, SeqCst);
    let mut guard = channels();
    let c = &mut *guard;
    for ch in [&mut c.stars, &mut c.ts_fw] {
        ch.in_flight.clear();
        ch.queued.clear();
    }
}
