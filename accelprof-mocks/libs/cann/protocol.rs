//! What CANN's libraries and `libmspti.so` exchange, laid out as in the open-source MSPTI
//! (`csrc/common/inject/*.h`, `csrc/activity/ascend/channel/channel_data.h`). Included by path by
//! the mock `libmspti.so` and by the CANN stand-ins, so that both sides agree byte for byte and the
//! stand-ins speak to the real library as they speak to the mock.
#![allow(dead_code)]

/// `ProfilerCallbackType`: the slots of `MsprofRegisterProfileCallback`.
pub mod callback_type {
    pub const REPORT_COMPACT: i32 = 4;
    pub const REPORT_ADDITIONAL: i32 = 5;
    pub const REPORT_API_C: i32 = 9;
    pub const REPORT_EVENT_C: i32 = 10;
    pub const REPORT_REG_TYPE_INFO_C: i32 = 11;
    pub const REPORT_GET_HASH_ID_C: i32 = 12;
    pub const HOST_FREQ_IS_ENABLE_C: i32 = 13;
    pub const DEVICE_STATE_C: i32 = 16;
    /// One past the last slot.
    pub const COUNT: usize = 17;
}

/// Report levels of `MsprofApi::level` and `MsprofCompactInfo::level`.
pub mod level {
    pub const RUNTIME: u16 = 5000;
    pub const NODE_BASE: u16 = 10000;
    pub const ACL: u16 = 20000;
}

/// `MsprofApi::type` of a node launch (`MSPROF_REPORT_NODE_LAUNCH_TYPE`).
pub const NODE_LAUNCH_TYPE: u32 = 5;
/// `MsprofCompactInfo::type` of a runtime task track (`RT_PROFILE_TYPE_TASK_TRACK`).
pub const TASK_TRACK_TYPE: u32 = 802;
/// `MsprofApi::magicNumber` and `MsprofCompactInfo::magicNumber`.
pub const MAGIC: u16 = 0x5a5a;

/// `MsprofApi`: one host API call (begin/end on the host clock, CLOCK_MONOTONIC_RAW ns here).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsprofApi {
    pub magic_number: u16,
    pub level: u16,
    pub ty: u32,
    pub thread_id: u32,
    pub reserve: u32,
    pub begin_time: u64,
    pub end_time: u64,
    pub item_id: u64,
}

/// `MsprofRuntimeTrack`: a task the runtime queued on a device.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MsprofRuntimeTrack {
    pub device_id: u16,
    pub stream_id: u16,
    pub task_info: u32,
    pub task_type: u64,
    pub kernel_name: u64,
}

/// `MsprofCompactInfo` (the union is 40 bytes; only the runtime track is used here).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MsprofCompactInfo {
    pub magic_number: u16,
    pub level: u16,
    pub ty: u32,
    pub thread_id: u32,
    pub data_len: u32,
    pub time_stamp: u64,
    pub runtime_track: MsprofRuntimeTrack,
    pub rest: [u8; 16],
}

/// `ProfSetDevPara`: a device was opened or closed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ProfSetDevPara {
    pub chip_id: u32,
    pub dev_id: u32,
    pub is_open: bool,
}

/// `ProfPollInfo`: a channel with data to read.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct ProfPollInfo {
    pub device_id: u32,
    pub channel_id: u32,
}

/// `ChannelInfo`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ChannelInfo {
    pub channel_name: [u8; 32],
    pub channel_type: u32,
    pub channel_id: u32,
}

/// `ChannelList` (`prof_drv_get_channels`).
#[repr(C)]
pub struct ChannelList {
    pub chip_type: u32,
    pub channel_num: u32,
    pub channel: [ChannelInfo; 160],
}

/// The driver's channel of STARS logs (task begin/end on a 910B).
pub const CHANNEL_STARS_SOC_LOG: u32 = 50;
/// The driver's channel of TS firmware data (device-side markers).
pub const CHANNEL_TS_FW: u32 = 44;
/// `PlatformType::CHIP_910B`, as `halGetDeviceInfo(VERSION) >> 8 & 0xff`.
pub const CHIP_910B: i64 = 5;

/// One `StarsSocLog` (64 bytes): `funcType:6 | cnt:4 | taskType:6` in the first `u16`, then
/// `resv0`, `streamId`, `taskId`, `timestamp` (device ticks), and padding.
pub const STARS_LOG_SIZE: usize = 64;
/// `funcType` of a task's begin and end.
pub const STARS_FUNC_BEGIN: u16 = 0;
pub const STARS_FUNC_END: u16 = 1;

/// Encodes one STARS log record.
pub fn stars_log(func_type: u16, stream: u16, task: u16, timestamp: u64) -> [u8; STARS_LOG_SIZE] {
    let mut b = [0u8; STARS_LOG_SIZE];
    b[0..2].copy_from_slice(&(func_type & 0x3f).to_ne_bytes());
    b[4..6].copy_from_slice(&stream.to_ne_bytes());
    b[6..8].copy_from_slice(&task.to_ne_bytes());
    b[8..16].copy_from_slice(&timestamp.to_ne_bytes());
    b
}

/// Decodes (funcType, streamId, taskId, timestamp) of one STARS log record.
pub fn parse_stars_log(b: &[u8]) -> (u16, u16, u16, u64) {
    let u16_at = |o: usize| u16::from_ne_bytes([b[o], b[o + 1]]);
    let mut ts = [0u8; 8];
    ts.copy_from_slice(&b[8..16]);
    (u16_at(0) & 0x3f, u16_at(4), u16_at(6), u64::from_ne_bytes(ts))
}

/// `ProfModule`: who gets the MSTX function table.
pub mod prof_module {
    pub const MSPROF: i32 = 1;
    pub const MSPTI: i32 = 2;
}

/// `MstxFuncModule` and the slots of each module's table.
pub mod mstx {
    pub const MODULE_CORE: i32 = 1;
    pub const MODULE_CORE_DOMAIN: i32 = 2;
    pub const CORE_MARKA: usize = 1;
    pub const CORE_RANGE_STARTA: usize = 2;
    pub const CORE_RANGE_END: usize = 3;
    pub const CORE_END: usize = 5;
    pub const DOMAIN_CREATEA: usize = 1;
    pub const DOMAIN_DESTROY: usize = 2;
    pub const DOMAIN_MARKA: usize = 3;
    pub const DOMAIN_END: usize = 6;
}

/// A slot of an MSTX table: a function pointer, or NULL.
pub type MstxFn = Option<unsafe extern "C" fn()>;
/// `MstxGetModuleFuncTableFunc`.
pub type MstxGetTable =
    unsafe extern "C" fn(module: i32, table: *mut *mut *mut MstxFn, size: *mut u32) -> i32;
/// `MstxInitInjectionFunc`.
pub type MstxInit = unsafe extern "C" fn(get: MstxGetTable) -> i32;

/// `msptiActivityMemcpyKind`-independent `aclrtMemcpyKind` values.
pub mod memcpy_kind {
    pub const HOST_TO_HOST: i32 = 0;
    pub const HOST_TO_DEVICE: i32 = 1;
    pub const DEVICE_TO_HOST: i32 = 2;
    pub const DEVICE_TO_DEVICE: i32 = 3;
}

/// Nanoseconds of CLOCK_MONOTONIC_RAW: the host clock CANN reports API times on when the driver
/// offers no host counter frequency (as here), and the device counter of the stand-in driver.
pub fn monotonic_raw_ns() -> u64 {
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_MONOTONIC_RAW: i32 = 4;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: a valid out-pointer.
    unsafe { clock_gettime(CLOCK_MONOTONIC_RAW, &mut ts) };
    ts.sec as u64 * 1_000_000_000 + ts.nsec as u64
}

/// The calling thread's kernel id.
pub fn gettid() -> u32 {
    extern "C" {
        fn gettid() -> i32;
    }
    // SAFETY: no preconditions.
    unsafe { gettid() as u32 }
}
