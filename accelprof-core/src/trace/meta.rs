use serde_json::Value;

use super::{Categories, DeviceProperties};

/// What a trace file says about itself, besides its events.
///
/// Build with struct update syntax: `TraceMeta { base_time_unix_ns, rank: 3, world_size: 8,
/// ..Default::default() }`.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceMeta {
    /// Unix time (ns) of the trace's zero, written as `baseTimeNanoseconds`; every `ts` is relative to it.
    /// Use the session's start (HTA uses it to convert to wall time). 0 writes absolute Unix times.
    pub base_time_unix_ns: u64,
    /// This process's rank in a distributed job (`distributedInfo.rank`).
    pub rank: u32,
    /// Number of ranks (`distributedInfo.world_size`).
    pub world_size: u32,
    /// Communication backend (`distributedInfo.backend`, e.g. `nccl`, `hccl`), when known.
    pub backend: Option<String>,
    /// The `deviceProperties` list.
    pub device_properties: Vec<DeviceProperties>,
    /// `traceName`, when given.
    pub trace_name: Option<String>,
    /// The `cat` of each kind of event.
    pub categories: Categories,
    /// Prefix of the default process name of a device's timeline (`GPU` gives `GPU 0`, `GPU 1`, ...).
    pub device_label: String,
    /// Further top-level metadata keys, written after `deviceProperties` (keys this writer writes itself
    /// are ignored here).
    pub metadata: Vec<(String, Value)>,
    /// `schemaVersion` (Kineto writes 1).
    pub schema_version: u32,
}

impl Default for TraceMeta {
    fn default() -> Self {
        TraceMeta {
            base_time_unix_ns: 0,
            rank: 0,
            world_size: 1,
            backend: None,
            device_properties: Vec::new(),
            trace_name: None,
            categories: Categories::default(),
            device_label: "GPU".into(),
            metadata: Vec::new(),
            schema_version: 1,
        }
    }
}

/// Top-level keys the writer produces itself.
pub(crate) const RESERVED_KEYS: [&str; 7] = [
    "schemaVersion",
    "deviceProperties",
    "displayTimeUnit",
    "baseTimeNanoseconds",
    "traceEvents",
    "distributedInfo",
    "traceName",
];
