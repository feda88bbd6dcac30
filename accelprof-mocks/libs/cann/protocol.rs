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
    /// `MSPROF_REPORT_HCCL_NODE_LEVEL`: HCCL's own API reports (a collective's part on the host).
    pub const HCCL_NODE: u16 = 5500;
    pub const NODE_BASE: u16 = 10000;
    pub const ACL: u16 = 20000;
}

/// `MsprofApi::type` of a node launch (`MSPROF_REPORT_NODE_LAUNCH_TYPE`).
pub const NODE_LAUNCH_TYPE: u32 = 5;
/// `MsprofCompactInfo::type` (level `NODE_BASE`) of an HCCL operator's info
/// (`MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE`, an [`HcclOpInfo`] in the union).
pub const HCCL_OP_INFO_TYPE: u32 = 10;
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

/// `MsprofCompactInfo` (the union is 40 bytes: a runtime track, or any other member through
/// [`MsprofCompactInfo::data`] and [`MsprofCompactInfo::with_data`]).
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

impl MsprofCompactInfo {
    /// The union's 40 bytes.
    pub fn data(&self) -> [u8; 40] {
        let mut b = [0u8; 40];
        let t = &self.runtime_track;
        b[0..2].copy_from_slice(&t.device_id.to_ne_bytes());
        b[2..4].copy_from_slice(&t.stream_id.to_ne_bytes());
        b[4..8].copy_from_slice(&t.task_info.to_ne_bytes());
        b[8..16].copy_from_slice(&t.task_type.to_ne_bytes());
        b[16..24].copy_from_slice(&t.kernel_name.to_ne_bytes());
        b[24..40].copy_from_slice(&self.rest);
        b
    }

    /// A record of `level`/`ty` on the calling thread at `time_stamp` whose union holds `data`.
    pub fn with_data(level: u16, ty: u32, time_stamp: u64, data: [u8; 40]) -> Self {
        let u16_at = |o: usize| u16::from_ne_bytes([data[o], data[o + 1]]);
        let u32_at = |o: usize| u32::from_ne_bytes(data[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_ne_bytes(data[o..o + 8].try_into().expect("8 bytes"));
        MsprofCompactInfo {
            magic_number: MAGIC,
            level,
            ty,
            thread_id: gettid(),
            data_len: 40,
            time_stamp,
            runtime_track: MsprofRuntimeTrack {
                device_id: u16_at(0),
                stream_id: u16_at(2),
                task_info: u32_at(4),
                task_type: u64_at(8),
                kernel_name: u64_at(16),
            },
            rest: data[24..40].try_into().expect("16 bytes"),
        }
    }
}

/// `MsprofHcclOPInfo` (`#pragma pack(1)`, in `MsprofCompactInfo`'s union): `relay:1 retry:1` in
/// byte 0, `dataType` u8 at 1, `algType` (a hash id) u64 at 2, `count` u64 at 10, `groupName` (a
/// hash id) u64 at 18.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HcclOpInfo {
    pub data_type: u8,
    pub alg_type: u64,
    pub count: u64,
    pub group_name: u64,
}

impl HcclOpInfo {
    /// The union's bytes.
    pub fn encode(&self) -> [u8; 40] {
        let mut b = [0u8; 40];
        b[1] = self.data_type;
        b[2..10].copy_from_slice(&self.alg_type.to_ne_bytes());
        b[10..18].copy_from_slice(&self.count.to_ne_bytes());
        b[18..26].copy_from_slice(&self.group_name.to_ne_bytes());
        b
    }

    /// From the union's bytes.
    pub fn decode(b: &[u8; 40]) -> Self {
        let u64_at = |o: usize| u64::from_ne_bytes(b[o..o + 8].try_into().expect("8 bytes"));
        HcclOpInfo { data_type: b[1], alg_type: u64_at(2), count: u64_at(10), group_name: u64_at(18) }
    }
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

/// One `StepTrace` of the TS firmware channel (40 bytes on a 910B, `#pragma pack(4)`):
/// `TsTrackHead { mode: u8, rptType: u8, bufSize: u16 }`, 4 reserved, `timestamp` (device ticks)
/// at 8, `indexId` 16, `modelId` 24, `streamId` 32, `taskId` 34, `tagId` 36, 2 reserved.
pub const STEP_TRACE_SIZE: usize = 40;
/// `TsTrackRptType::RPT_TYPE_STEP_TRACE`.
pub const RPT_TYPE_STEP_TRACE: u8 = 10;
/// `StepTraceTag::STEP_TRACE_TAG_MARKEX`: the tag MSPTI's marks carry (`MARK_TAG_ID`).
pub const STEP_TRACE_TAG_MARKEX: u16 = 11;

/// `TraceData` (`#pragma pack(1)`, 18 bytes), what MSPTI passes to `aclrtProfTrace`: the mark's
/// id, its flag (`modelId`) and its tag.
pub const TRACE_DATA_SIZE: usize = 18;

/// Encodes one step-trace record.
pub fn step_trace(
    timestamp: u64,
    index: u64,
    model: u64,
    stream: u16,
    task: u16,
    tag: u16,
) -> [u8; STEP_TRACE_SIZE] {
    let mut b = [0u8; STEP_TRACE_SIZE];
    b[1] = RPT_TYPE_STEP_TRACE;
    b[2..4].copy_from_slice(&(STEP_TRACE_SIZE as u16).to_ne_bytes());
    b[8..16].copy_from_slice(&timestamp.to_ne_bytes());
    b[16..24].copy_from_slice(&index.to_ne_bytes());
    b[24..32].copy_from_slice(&model.to_ne_bytes());
    b[32..34].copy_from_slice(&stream.to_ne_bytes());
    b[34..36].copy_from_slice(&task.to_ne_bytes());
    b[36..38].copy_from_slice(&tag.to_ne_bytes());
    b
}

/// A decoded step-trace record.
#[derive(Clone, Copy, Debug)]
pub struct StepTrace {
    pub rpt_type: u8,
    pub timestamp: u64,
    pub index: u64,
    pub model: u64,
    pub stream: u16,
    pub task: u16,
    pub tag: u16,
}

/// Decodes one step-trace record (`b` of at least [`STEP_TRACE_SIZE`] bytes).
pub fn parse_step_trace(b: &[u8]) -> StepTrace {
    let u16_at = |o: usize| u16::from_ne_bytes([b[o], b[o + 1]]);
    let u64_at = |o: usize| {
        let mut x = [0u8; 8];
        x.copy_from_slice(&b[o..o + 8]);
        u64::from_ne_bytes(x)
    };
    StepTrace {
        rpt_type: b[1],
        timestamp: u64_at(8),
        index: u64_at(16),
        model: u64_at(24),
        stream: u16_at(32),
        task: u16_at(34),
        tag: u16_at(36),
    }
}

/// `profSetProfCommand`'s `CommandHandle`: the part read here (`profSwitch` 0, `profSwitchHi` 8,
/// `devNums` 16, `devIdList[64]` 20, `modelId` 276, `type` 280), then `cacheFlag` and parameters.
pub mod command {
    /// `PROF_ACL_API`, `PROF_TASK_TIME`, `PROF_HCCL_TRACE`, `PROF_RUNTIME_API`, `PROF_RUNTIME_TRACE`.
    pub const ACL_API: u64 = 0x1;
    pub const TASK_TIME: u64 = 0x800;
    pub const HCCL_TRACE: u64 = 0x20;
    pub const RUNTIME_API: u64 = 0x100;
    pub const RUNTIME_TRACE: u64 = 0x400_0000;
    /// `PROF_COMMANDHANDLE_TYPE_START` / `_STOP`.
    pub const TYPE_START: u32 = 1;
    pub const TYPE_STOP: u32 = 2;
    /// `MAX_DEV_NUM`.
    pub const MAX_DEV: usize = 64;
    /// `PROF_INVALID_MODE_ID`.
    pub const INVALID_MODEL: u32 = 0xffff_ffff;

    /// The leading fields of `CommandHandle`.
    #[repr(C)]
    #[derive(Clone, Copy, Debug)]
    pub struct Head {
        pub prof_switch: u64,
        pub prof_switch_hi: u64,
        pub dev_nums: u32,
        pub dev_id_list: [u32; MAX_DEV],
        pub model_id: u32,
        pub ty: u32,
        pub cache_flag: u32,
    }

    /// `sizeof(CommandHandle)` in MSPTI: the head (288 bytes), `CommandHandleParams { pathLen: u32,
    /// storageLimit: u32, profDataLen: u32, path[1024], profData[4096] }` and padding to 8.
    pub const SIZE: u32 = 5424;
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
