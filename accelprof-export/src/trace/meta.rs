use serde_json::Value;

use super::{Categories, ClockAnchor, DeviceProperties};

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
    /// The `deviceProperties` list. A streamed trace whose devices are known only later (a CUDA driver
    /// answers once the program initialized it) gets them through
    /// [`TraceSink::add_device_properties`](super::TraceSink::add_device_properties).
    pub device_properties: Vec<DeviceProperties>,
    /// The host's name (`host`; left out when empty): see [`host_name`](super::host_name).
    pub host: String,
    /// The traced process (`pid`; default this process).
    pub process_id: u32,
    /// Which vendor library produced the records (`vendor`: `cupti`, `rocprofiler`, `mspti`; left out
    /// when empty): it says what the raw vendor codes (API domains, callback ids) mean.
    pub vendor: String,
    /// Library versions (`library_versions`, an object; left out when empty), e.g. `("cupti", "130001")`,
    /// `("cuda_driver", "13000")`.
    pub library_versions: Vec<(String, String)>,
    /// How the records' clock was mapped to the trace's Unix times (`clock_anchor`: `{"clock",
    /// "record_ns", "unix_ns", "unix_offset_ns"}`).
    pub clock: ClockAnchor,
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
            host: String::new(),
            process_id: std::process::id(),
            vendor: String::new(),
            library_versions: Vec::new(),
            clock: ClockAnchor::REALTIME,
            trace_name: None,
            categories: Categories::default(),
            device_label: "GPU".into(),
            metadata: Vec::new(),
            schema_version: 1,
        }
    }
}

/// `{"clock", "record_ns", "unix_ns", "unix_offset_ns"}`: a [`ClockAnchor`] as traces write it.
pub fn clock_anchor_json(anchor: &ClockAnchor) -> Value {
    serde_json::json!({
        "clock": anchor.clock_name(),
        "record_ns": anchor.record_ns,
        "unix_ns": anchor.unix_ns,
        "unix_offset_ns": anchor.unix_offset_ns(),
    })
}

/// The host's name (`/proc/sys/kernel/hostname`, else `$HOSTNAME`; empty when neither says).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default()
}

/// Top-level keys the writer produces itself.
#[cfg(feature = "chrome")]
pub(crate) const RESERVED_KEYS: [&str; 12] = [
    "schemaVersion",
    "deviceProperties",
    "displayTimeUnit",
    "baseTimeNanoseconds",
    "traceEvents",
    "distributedInfo",
    "traceName",
    "host",
    "pid",
    "vendor",
    "library_versions",
    "clock_anchor",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_anchor_is_written_with_its_offset() {
        let anchor = ClockAnchor::new("CLOCK_MONOTONIC_RAW", 5_000, 1_700_000_000_000_005_000);
        let json = clock_anchor_json(&anchor);
        assert_eq!(json["unix_offset_ns"], 1_700_000_000_000_000_000i64);
        assert_eq!(json["clock"], "CLOCK_MONOTONIC_RAW");
        assert_eq!(clock_anchor_json(&ClockAnchor::REALTIME)["clock"], "CLOCK_REALTIME");
    }
}
