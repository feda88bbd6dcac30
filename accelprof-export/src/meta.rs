use accelprof_core::trace::{DeviceProperties, TimeMap};

/// What a trace file says about the process that wrote it: given when the writer is created, so that a file
/// is self-describing from its first batch on.
///
/// A later merge of many ranks' files needs all of it: which rank and job the file is, on which host, with
/// which devices and libraries, and how the records' clock maps to Unix time (so that traces of many hosts
/// line up). Build with struct update syntax: `RunMeta { rank: 3, world_size: 8, ..RunMeta::default() }`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunMeta {
    /// This process's rank in a distributed job (0 for a single process).
    pub rank: u32,
    /// Number of ranks (1 for a single process).
    pub world_size: u32,
    /// Host name.
    pub host: String,
    /// Process id of the traced process.
    pub process_id: u32,
    /// Which vendor library produced the records (`cupti`, `rocprofiler`, `mspti`): it says what the raw
    /// vendor codes (`api_domain`, `cbid`, `sync_type`, ...) mean.
    pub vendor: String,
    /// Library versions, e.g. `("cupti", "13.0.0")`, `("driver", "580.65")`, `("torch", "2.11")`.
    pub library_versions: Vec<(String, String)>,
    /// The devices (Kineto's `deviceProperties` keys).
    pub device_properties: Vec<DeviceProperties>,
    /// How the records' timestamps map to Unix time.
    pub clock: ClockAnchor,
    /// Communication backend (`nccl`, `rccl`, `hccl`), when known.
    pub backend: Option<String>,
    /// A name for the trace, when given.
    pub trace_name: Option<String>,
    /// Further `key = value` pairs (written under `accelprof.extra.<key>` in Parquet).
    pub extra: Vec<(String, String)>,
}

impl Default for RunMeta {
    fn default() -> Self {
        RunMeta {
            rank: 0,
            world_size: 1,
            host: String::new(),
            process_id: std::process::id(),
            vendor: String::new(),
            library_versions: Vec::new(),
            device_properties: Vec::new(),
            clock: ClockAnchor::REALTIME,
            backend: None,
            trace_name: None,
            extra: Vec::new(),
        }
    }
}

/// One simultaneous reading of the records' clock and of Unix time (`CLOCK_REALTIME`): it maps every record
/// timestamp to Unix time, `unix = record + (unix_ns - record_ns)`.
///
/// Files keep the records' own clock (no per-record conversion); a merge of many hosts' files applies each
/// file's anchor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockAnchor {
    /// The records' clock, by name (`CLOCK_REALTIME`, `CLOCK_MONOTONIC_RAW`, `cupti`, `hsa`, ...).
    pub clock: String,
    /// A reading of the records' clock, ns.
    pub record_ns: u64,
    /// The Unix time at that reading, ns.
    pub unix_ns: u64,
}

impl ClockAnchor {
    /// Records already carry Unix time.
    pub const REALTIME: ClockAnchor = ClockAnchor { clock: String::new(), record_ns: 0, unix_ns: 0 };

    /// An anchor from a pair of simultaneous readings.
    pub fn new(clock: impl Into<String>, record_ns: u64, unix_ns: u64) -> Self {
        ClockAnchor { clock: clock.into(), record_ns, unix_ns }
    }

    /// An anchor for a [`TimeMap`] (as the vendor crates give it), read at `record_ns`.
    pub fn from_time_map(clock: impl Into<String>, time: TimeMap, record_ns: u64) -> Self {
        ClockAnchor { clock: clock.into(), record_ns, unix_ns: time.to_unix_ns(record_ns) }
    }

    /// The clock's name, `CLOCK_REALTIME` when none was given.
    pub fn clock_name(&self) -> &str {
        if self.clock.is_empty() {
            "CLOCK_REALTIME"
        } else {
            &self.clock
        }
    }

    /// `unix_ns - record_ns`: what is added to a record timestamp to get Unix time.
    pub fn unix_offset_ns(&self) -> i64 {
        self.time_map().offset_ns()
    }

    /// The mapping as a [`TimeMap`].
    pub fn time_map(&self) -> TimeMap {
        TimeMap::from_pair(self.record_ns, self.unix_ns)
    }
}

impl Default for ClockAnchor {
    fn default() -> Self {
        ClockAnchor::REALTIME
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_anchor_maps_record_time_to_unix_time() {
        let anchor = ClockAnchor::new("CLOCK_MONOTONIC_RAW", 5_000, 1_700_000_000_000_005_000);
        assert_eq!(anchor.unix_offset_ns(), 1_700_000_000_000_000_000);
        assert_eq!(anchor.time_map().to_unix_ns(6_000), 1_700_000_000_000_006_000);
        let back = ClockAnchor::from_time_map("x", anchor.time_map(), 42);
        assert_eq!(back.unix_offset_ns(), anchor.unix_offset_ns());
        assert_eq!(ClockAnchor::REALTIME.clock_name(), "CLOCK_REALTIME");
        assert_eq!(ClockAnchor::REALTIME.unix_offset_ns(), 0);
    }
}
