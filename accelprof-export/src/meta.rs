pub use crate::trace::ClockAnchor;
use crate::trace::DeviceProperties;
use serde_json::Value;

/// What a trace file says about the process that wrote it: given when the writer is created, so that a file
/// is self-describing from its first batch on. The one metadata type of every writer (Chrome JSON, Parquet,
/// Perfetto) and of every [`TraceSink`](crate::trace::TraceSink) a tracer creates; how a format presents
/// the records (the Chrome `cat`s, a device timeline's label) is that writer's option, not metadata.
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
    /// Unix time (ns) at which the trace began (the tracer's session start): the Chrome trace's zero
    /// (`baseTimeNanoseconds`; every `ts` is relative to it, and HTA converts back to wall time with
    /// it). 0 when not known: the Chrome trace then writes absolute Unix times.
    pub start_unix_ns: u64,
    /// Further top-level pairs (Chrome JSON: keys of their own, after `deviceProperties`, keys a writer
    /// writes itself left out; Parquet: `accelprof.extra.<key>`, a string as it is, another value as its
    /// JSON text, read back as a string).
    pub extra: Vec<(String, Value)>,
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
            start_unix_ns: 0,
            extra: Vec::new(),
        }
    }
}
