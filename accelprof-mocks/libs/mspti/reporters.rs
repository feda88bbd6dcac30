//! The records that come from CANN rather than from MSPTI's own wrappers, as the real library
//! gets them:
//! - names: the runtime registers report-type names and hashes kernel names through the
//!   callbacks MSPTI registers with `libprofapi.so` at load ([`reg_type_info`], [`hash_id`]);
//! - API-family records: the runtime reports every API call to the API reporter, registered only
//!   while a subscriber exists ([`register`]): ACL-level calls become ACL_API, runtime-level
//!   RUNTIME_API, node-level NODE_API and (for a node launch) API, the last two named by the
//!   operator; each carries its thread's current correlation id;
//! - KERNEL records: a launch's task track (compact reporter; it advances the thread's
//!   correlation id) is matched with the task's begin and end read from the driver's STARS
//!   channel by a reader thread, started at subscribe once the driver is opened; the channel is
//!   started for devices the runtime opened (device-state reporter) while KERNEL is enabled;
//! - COMMUNICATION records: a collective's task track, HCCL's API report, the operator's node
//!   launch and info, and the task's STARS logs (`crate::communication`);
//! - device-side MARKER records (and the times of HCCL records): step traces of the driver's TS
//!   firmware channel, started while MARKER or HCCL is enabled;
//! - the CANN profiling switches: enabling a kind on an opened device sends `profSetProfCommand`
//!   START with the switches of every kind enabled so far (KERNEL: `PROF_TASK_TIME |
//!   PROF_RUNTIME_TRACE`; none for MARKER, HCCL and the host-only kinds); unsubscribing sends STOP.

use std::collections::{BTreeSet, HashMap};
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::{Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::activity::{is_enabled, record};
use crate::protocol::{
    self, callback_type as cb, level, MsprofApi, MsprofCompactInfo, ProfPollInfo, ProfSetDevPara,
};
use crate::records::{self, kind};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// (level, type) -> name, and hash id -> name; names live for the process.
static TYPES: Mutex<Option<HashMap<(u16, u32), usize>>> = Mutex::new(None);
static HASHES: Mutex<Option<HashMap<u64, usize>>> = Mutex::new(None);

fn type_name(lvl: u16, ty: u32) -> *const c_char {
    lock(&TYPES).as_ref().and_then(|m| m.get(&(lvl, ty)).copied()).unwrap_or(0) as *const c_char
}

pub(crate) fn hash_name(id: u64) -> *const c_char {
    lock(&HASHES).as_ref().and_then(|m| m.get(&id).copied()).unwrap_or(0) as *const c_char
}

/// `MsptiGetHashIdImpl`: the id of a string (FNV-1a here), remembered with the string.
pub unsafe extern "C" fn hash_id(info: *const c_char, len: usize) -> u64 {
    if info.is_null() {
        return 0;
    }
    // SAFETY: the runtime's string of `len` bytes.
    let bytes = unsafe { std::slice::from_raw_parts(info.cast::<u8>(), len) };
    let id =
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3));
    lock(&HASHES).get_or_insert_with(HashMap::new).insert(id, crate::intern_bytes(bytes) as usize);
    id
}

/// `MsptiRegReportTypeInfoImpl`: the name of a report type.
pub unsafe extern "C" fn reg_type_info(lvl: u16, ty: u32, name: *const c_char, len: usize) -> i32 {
    if name.is_null() {
        return -1;
    }
    // SAFETY: the runtime's string of `len` bytes.
    let bytes = unsafe { std::slice::from_raw_parts(name.cast::<u8>(), len) };
    lock(&TYPES).get_or_insert_with(HashMap::new).insert((lvl, ty), crate::intern_bytes(bytes) as usize);
    0
}

fn api_record(k: u32, api: &MsprofApi, name: *const c_char) {
    if !is_enabled(k) || name.is_null() {
        return;
    }
    let corr = crate::correlation::current(api.thread_id);
    let (start, end) = (crate::realtime_from_raw(api.begin_time), crate::realtime_from_raw(api.end_time));
    record(records::api(k, start, end, std::process::id(), api.thread_id, corr, name).bytes(), false);
}

/// `MsptiApiReporterCallbackImpl`.
unsafe extern "C" fn report_api(_aging: u32, data: *const MsprofApi) -> i32 {
    // SAFETY: the runtime's live record (or NULL).
    let Some(api) = (unsafe { data.as_ref() }) else { return -1 };
    match api.level {
        level::ACL => api_record(kind::ACL_API, api, type_name(api.level, api.ty)),
        level::RUNTIME => api_record(kind::RUNTIME_API, api, type_name(api.level, api.ty)),
        level::NODE_BASE => {
            api_record(kind::NODE_API, api, hash_name(api.item_id));
            if api.ty == protocol::NODE_LAUNCH_TYPE {
                // A collective's operator takes a new correlation id here, which its API record
                // then carries (the real library's order: CannApiParser, CannTrackCache,
                // ParserManager).
                crate::communication::node_launch(api);
                api_record(kind::API, api, hash_name(api.item_id));
            }
        }
        level::HCCL_NODE => crate::communication::hccl_api(api),
        _ => {}
    }
    0
}

/// A launched task waiting for its device times: (device, stream, task) -> it.
struct Pending {
    name: *const c_char,
    ty: *const c_char,
    correlation: u64,
    start: Option<u64>,
}

// SAFETY: the names are interned strings that live for the process.
unsafe impl Send for Pending {}

/// Open task tracks by (device, stream, task).
type PendingTasks = HashMap<(u32, u16, u16), Pending>;
static PENDING: Mutex<Option<PendingTasks>> = Mutex::new(None);

/// `MsptiCompactInfoReporterCallbackImpl`: a task track of a kernel type starts a KERNEL record.
unsafe extern "C" fn report_compact(_aging: u32, data: *const c_void, len: u32) -> i32 {
    if data.is_null() || len as usize != std::mem::size_of::<MsprofCompactInfo>() {
        return -1;
    }
    // SAFETY: checked above: the runtime's record of this size.
    let info = unsafe { &*data.cast::<MsprofCompactInfo>() };
    if info.level == level::RUNTIME && info.ty == protocol::TASK_TRACK_TYPE {
        crate::first_launch_state_made(); // KernelParser::GetInstance(), whatever kinds are on
        crate::communication::task_track(info);
    }
    if info.level == level::NODE_BASE && info.ty == protocol::HCCL_OP_INFO_TYPE {
        crate::communication::op_info(info);
    }
    if info.level != level::RUNTIME || info.ty != protocol::TASK_TRACK_TYPE || !is_enabled(kind::KERNEL) {
        return 0;
    }
    let t = info.runtime_track;
    let ty = type_name(level::RUNTIME, t.task_type as u32);
    // SAFETY: interned names are NUL-terminated.
    if ty.is_null() || !unsafe { CStr::from_ptr(ty) }.to_bytes().starts_with(b"KERNEL") {
        return 0;
    }
    let correlation = crate::correlation::advance(info.thread_id);
    let pending = Pending { name: hash_name(t.kernel_name), ty, correlation, start: None };
    let key = (u32::from(t.device_id), t.stream_id, t.task_info as u16);
    lock(&PENDING).get_or_insert_with(HashMap::new).insert(key, pending);
    0
}

/// Devices the runtime opened, and the (device, channel)s started.
static DEVICES: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());
static STARTED: Mutex<BTreeSet<(u32, u32)>> = Mutex::new(BTreeSet::new());

/// `MsprofDeviceStateImpl` -> `ActivityManager::SetDevice`: a device opened while any kind is on
/// gets its CANN switches and channels for every kind on.
unsafe extern "C" fn device_state(para: *mut c_void, len: u32) -> i32 {
    if para.is_null() || len as usize != std::mem::size_of::<ProfSetDevPara>() {
        return -1;
    }
    // SAFETY: checked above.
    let p = unsafe { &*para.cast::<ProfSetDevPara>() };
    if p.is_open && lock(&DEVICES).insert(p.dev_id) {
        let on: Vec<u32> = (0..kind::COUNT).filter(|k| is_enabled(*k)).collect();
        start_device(p.dev_id, &on);
    }
    0
}

unsafe extern "C" fn host_freq_is_enable() -> i8 {
    0
}

unsafe extern "C" fn ignore_report(_aging: u32, _data: *const c_void, _len: u32) -> i32 {
    0
}

const REPORTERS: [i32; 6] = [
    cb::REPORT_API_C,
    cb::REPORT_COMPACT,
    cb::REPORT_ADDITIONAL,
    cb::REPORT_EVENT_C,
    cb::HOST_FREQ_IS_ENABLE_C,
    cb::DEVICE_STATE_C,
];

/// At subscribe (`RegisterReportCallback`).
pub fn register() {
    let p = crate::cann::profapi();
    let f: [*mut c_void; 6] = [
        report_api as *mut c_void,
        report_compact as *mut c_void,
        ignore_report as *mut c_void,
        ignore_report as *mut c_void,
        host_freq_is_enable as *mut c_void,
        device_state as *mut c_void,
    ];
    for (slot, f) in REPORTERS.iter().zip(f) {
        p.register(*slot, Some(f));
    }
}

/// At unsubscribe (`UnRegisterReportCallback`).
pub fn unregister() {
    for slot in REPORTERS {
        crate::cann::profapi().register(slot, None);
    }
}

/// `DevTaskManager::datatype_config_map_`: the CANN profiling switches a kind needs.
fn prof_switch_of(k: u32) -> u64 {
    use protocol::command::*;
    match k {
        kind::KERNEL => TASK_TIME | RUNTIME_TRACE,
        kind::API | kind::ACL_API | kind::NODE_API => ACL_API | TASK_TIME,
        kind::COMMUNICATION => ACL_API | RUNTIME_TRACE | TASK_TIME | HCCL_TRACE,
        kind::RUNTIME_API => RUNTIME_API,
        _ => 0,
    }
}

/// `DevProfTaskFactory::kindToChannel_map_` (910B): the driver channels a kind reads.
fn channels_of(k: u32) -> &'static [u32] {
    match k {
        kind::MARKER | kind::HCCL => &[protocol::CHANNEL_TS_FW],
        kind::KERNEL => &[protocol::CHANNEL_STARS_SOC_LOG],
        kind::COMMUNICATION => &[protocol::CHANNEL_TS_FW, protocol::CHANNEL_STARS_SOC_LOG],
        _ => &[],
    }
}

/// The switches sent so far (`profSwitch_`: only ever grows, as in the real library).
static PROF_SWITCH: AtomicU64 = AtomicU64::new(0);

/// `profSetProfCommand` of `CommandHandle { profSwitch, devNums 1, devIdList [dev], modelId
/// invalid, type }`, zeroed otherwise.
fn prof_command(dev: u32, ty: u32, switch: u64) {
    let Some(set) = crate::cann::profapi().set_command else { return };
    let mut cmd = vec![0u8; protocol::command::SIZE as usize];
    let head = protocol::command::Head {
        prof_switch: switch,
        prof_switch_hi: 0,
        dev_nums: 1,
        dev_id_list: {
            let mut l = [0u32; protocol::command::MAX_DEV];
            l[0] = dev;
            l
        },
        model_id: protocol::command::INVALID_MODEL,
        ty,
        cache_flag: 0,
    };
    // SAFETY: the buffer is larger than the head; written unaligned.
    unsafe { cmd.as_mut_ptr().cast::<protocol::command::Head>().write_unaligned(head) };
    // SAFETY: the broker's function with a command of the size it is told.
    unsafe { set(cmd.as_mut_ptr().cast(), protocol::command::SIZE) };
}

/// `DevTaskManager::StartDevProfTask(dev, kinds)`: the CANN switches (`StartCannProfTask`: the
/// accumulated switch, sent when not zero), then each kind's channels the device has.
fn start_device(dev: u32, kinds: &[u32]) {
    if !crate::callbacks::subscribed() {
        return;
    }
    let add = kinds.iter().fold(0, |s, k| s | prof_switch_of(*k));
    let switch = PROF_SWITCH.fetch_or(add, SeqCst) | add;
    if switch != 0 {
        prof_command(dev, protocol::command::TYPE_START, switch);
    }
    let hal = crate::cann::hal();
    // The device's channels first (`GetAllChannels`): only a channel it has is started.
    // SAFETY: zeroed bytes are a valid (empty) list.
    let mut list: Box<protocol::ChannelList> = Box::new(unsafe { std::mem::zeroed() });
    // SAFETY: the driver's function fills the list.
    unsafe { (hal.get_channels)(dev, &mut *list) };
    let n = (list.channel_num as usize).min(list.channel.len());
    for k in kinds {
        for ch in channels_of(*k) {
            if !list.channel[..n].iter().any(|c| c.channel_id == *ch) || !lock(&STARTED).insert((dev, *ch)) {
                continue;
            }
            // SAFETY: the driver's function; no start parameters are read by the stand-in.
            unsafe { (hal.start)(dev, *ch, std::ptr::null_mut()) };
        }
    }
}

/// `msptiActivityEnable(k)`: every device opened so far.
pub fn on_enable(k: u32) {
    let devices: Vec<u32> = lock(&DEVICES).iter().copied().collect();
    for dev in devices {
        start_device(dev, &[k]);
    }
}

/// Bytes the reader thread has consumed, by channel (STARS, TS_FW).
static CONSUMED: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

fn consumed(ch: u32) -> &'static AtomicU64 {
    &CONSUMED[usize::from(ch == protocol::CHANNEL_TS_FW)]
}

/// `msptiActivityDisable(k)` of a kind read from the device (`IsNeededDevTask`): for each of its
/// started channels, asks the driver how much it still holds and waits (at most 20 ms, as
/// `FlushDrvBuff` does) for the reader to take it. Switches and channels stay on.
pub fn on_disable(k: u32) {
    let started: Vec<(u32, u32)> =
        lock(&STARTED).iter().copied().filter(|(_, ch)| channels_of(k).contains(ch)).collect();
    for (dev, ch) in started {
        let mut len = 0u32;
        let before = consumed(ch).load(SeqCst);
        // SAFETY: the driver's function with a valid out-pointer.
        unsafe { (crate::cann::hal().flush)(dev, ch, &mut len) };
        let deadline = Instant::now() + Duration::from_millis(20);
        while len > 0 && consumed(ch).load(SeqCst) < before + u64::from(len) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}

/// At unsubscribe (`ResetAllDevice`): the CANN switches off (`StopCannProfTask`) and the started
/// channels stopped.
pub fn stop_devices() {
    let switch = PROF_SWITCH.load(SeqCst);
    if switch != 0 {
        for dev in lock(&DEVICES).iter().copied().collect::<Vec<_>>() {
            prof_command(dev, protocol::command::TYPE_STOP, switch);
        }
    }
    let started: Vec<(u32, u32)> = std::mem::take(&mut *lock(&STARTED)).into_iter().collect();
    for (dev, ch) in started {
        // SAFETY: the driver's function.
        unsafe { (crate::cann::hal().stop)(dev, ch) };
    }
}

static READING: AtomicBool = AtomicBool::new(false);
static READER: Mutex<Option<JoinHandle<()>>> = Mutex::new(None);

/// At subscribe (`ChannelPoolManager::Init`): opens the driver (aborting when it is missing, as
/// the real library's uncaught exception does) and starts the channel reader.
pub fn start_channels() {
    let hal = crate::cann::hal();
    let mut n = 0u32;
    // SAFETY: the driver's function with a valid out-pointer.
    if unsafe { (hal.get_dev_num)(&mut n) } != 0 || n == 0 {
        return;
    }
    let mut reader = lock(&READER);
    if reader.is_none() {
        READING.store(true, SeqCst);
        let t = std::thread::Builder::new().name("MsptiChannelPool".into()).spawn(read_channels);
        *reader = Some(t.expect("spawn the channel reader"));
    }
}

/// At unsubscribe (`ChannelPoolManager::UnInit`).
pub fn stop_channels() {
    READING.store(false, SeqCst);
    if let Some(t) = lock(&READER).take() {
        let _ = t.join();
    }
}

fn read_channels() {
    let hal = crate::cann::hal();
    let mut buf = vec![0u8; 64 * 1024];
    while READING.load(SeqCst) {
        let mut info = [ProfPollInfo::default(); 6];
        // SAFETY: the driver's function with an array of 6 entries.
        let n = unsafe { (hal.poll)(info.as_mut_ptr(), 6, 1) };
        for i in info.iter().take(n.max(0) as usize) {
            loop {
                // SAFETY: the driver's function with our buffer.
                let got =
                    unsafe { (hal.read)(i.device_id, i.channel_id, buf.as_mut_ptr(), buf.len() as u32) };
                if got <= 0 {
                    break;
                }
                let got = got as usize;
                if i.channel_id == protocol::CHANNEL_STARS_SOC_LOG {
                    for log in buf[..got].chunks_exact(protocol::STARS_LOG_SIZE) {
                        stars_log(i.device_id, log);
                    }
                } else if i.channel_id == protocol::CHANNEL_TS_FW {
                    for t in buf[..got].chunks_exact(protocol::STEP_TRACE_SIZE) {
                        step_trace(i.device_id, &protocol::parse_step_trace(t));
                    }
                }
                consumed(i.channel_id).fetch_add(got as u64, SeqCst);
            }
        }
    }
}

/// One STARS log: a pending task's begin, or its end (which records the kernel).
fn stars_log(dev: u32, log: &[u8]) {
    let (func, stream, task, ts) = protocol::parse_stars_log(log);
    crate::communication::stars_log(dev, func, stream % 2048, task, ts);
    if !is_enabled(kind::KERNEL) {
        return;
    }
    let key = (dev, stream % 2048, task);
    let mut pending = lock(&PENDING);
    let Some(map) = pending.as_mut() else { return };
    match func {
        protocol::STARS_FUNC_BEGIN => {
            if let Some(p) = map.get_mut(&key) {
                p.start = Some(ts);
            }
        }
        protocol::STARS_FUNC_END => {
            let Some(p) = map.remove(&key) else { return };
            drop(pending);
            let Some(start) = p.start else { return };
            let (start, end) = (crate::realtime_from_raw(start), crate::realtime_from_raw(ts));
            let r = records::kernel(start, end, dev, key.1.into(), p.correlation, p.ty, p.name);
            record(r.bytes(), false);
        }
        _ => {}
    }
}

/// One step trace of the TS firmware channel (`ParserManager::ReportStepTrace`): a mark's
/// (`STEP_TRACE_TAG_MARKEX`) device side, `MstxParser::ReportMarkDataToActivity`: the mark of an
/// HCCL operation goes to the HCCL reporter, any other becomes a device MARKER record (flag: the
/// trace's model id; id: its index; name and domain empty).
fn step_trace(dev: u32, t: &protocol::StepTrace) {
    if t.rpt_type != protocol::RPT_TYPE_STEP_TRACE || t.tag != protocol::STEP_TRACE_TAG_MARKEX {
        return;
    }
    let ts = crate::realtime_from_raw(t.timestamp);
    if crate::hccl::device_mark(t.index, t.model as u32, ts, dev, t.stream.into()) {
        return;
    }
    if !is_enabled(kind::MARKER) {
        return;
    }
    let r = records::marker(t.model as u32, 1, ts, t.index, dev, t.stream.into(), c"".as_ptr(), c"".as_ptr());
    record(r.bytes(), false);
}

/// Forgets pending tasks and opened devices (a control).
pub fn reset() {
    *lock(&PENDING) = None;
    lock(&DEVICES).clear();
    crate::communication::reset();
}
