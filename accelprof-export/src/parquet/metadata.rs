//! The file's key-value metadata: the run's [`RunMeta`] under `accelprof.*` keys.

use crate::trace::DeviceProperties;
use accelprof_core::{Family, PerFamily};
use parquet::file::metadata::KeyValue;
use serde_json::{json, Map, Value};

use crate::{ClockAnchor, Error, RunMeta};

/// `accelprof.schema_version`: the column layout ([`SCHEMA_VERSION`](crate::arrow::SCHEMA_VERSION)).
pub const KEY_SCHEMA_VERSION: &str = "accelprof.schema_version";
/// `accelprof.rank`: the rank, decimal.
pub const KEY_RANK: &str = "accelprof.rank";
/// `accelprof.world_size`: the number of ranks, decimal.
pub const KEY_WORLD_SIZE: &str = "accelprof.world_size";
/// `accelprof.host`: the host name.
pub const KEY_HOST: &str = "accelprof.host";
/// `accelprof.process_id`: the traced process, decimal.
pub const KEY_PROCESS_ID: &str = "accelprof.process_id";
/// `accelprof.vendor`: `cupti`, `rocprofiler`, `mspti`: how to read the raw vendor codes.
pub const KEY_VENDOR: &str = "accelprof.vendor";
/// `accelprof.library_versions`: a JSON object, library name to version.
pub const KEY_LIBRARY_VERSIONS: &str = "accelprof.library_versions";
/// `accelprof.device_properties`: a JSON array of Kineto's `deviceProperties` objects.
pub const KEY_DEVICE_PROPERTIES: &str = "accelprof.device_properties";
/// `accelprof.clock`: a JSON object `{"clock", "record_ns", "unix_ns", "unix_offset_ns"}`; Unix time of a
/// record timestamp `t` is `t + unix_offset_ns`.
pub const KEY_CLOCK: &str = "accelprof.clock";
/// `accelprof.backend`: the communication backend, when known.
pub const KEY_BACKEND: &str = "accelprof.backend";
/// `accelprof.trace_name`: the trace's name, when given.
pub const KEY_TRACE_NAME: &str = "accelprof.trace_name";
/// `accelprof.start_unix_ns`: when the trace began (left out when not known).
pub const KEY_START: &str = "accelprof.start_unix_ns";

/// `accelprof.extra.<key>`: the run's further pairs (a string as it is, another value as its JSON text).
pub const KEY_EXTRA_PREFIX: &str = "accelprof.extra.";
/// `accelprof.rows`: written at finish, a JSON object, family name to rows written.
pub const KEY_ROWS: &str = "accelprof.rows";

/// The metadata of a run as key-value pairs.
pub(crate) fn to_key_values(meta: &RunMeta) -> Vec<KeyValue> {
    let mut kv = vec![
        KeyValue::new(KEY_SCHEMA_VERSION.into(), crate::arrow::SCHEMA_VERSION.to_owned()),
        KeyValue::new(KEY_RANK.into(), meta.rank.to_string()),
        KeyValue::new(KEY_WORLD_SIZE.into(), meta.world_size.to_string()),
        KeyValue::new(KEY_HOST.into(), meta.host.clone()),
        KeyValue::new(KEY_PROCESS_ID.into(), meta.process_id.to_string()),
        KeyValue::new(KEY_VENDOR.into(), meta.vendor.clone()),
    ];
    let versions: Map<String, Value> =
        meta.library_versions.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect();
    kv.push(KeyValue::new(KEY_LIBRARY_VERSIONS.into(), Value::Object(versions).to_string()));
    let devices: Vec<Value> = meta.device_properties.iter().map(device_to_json).collect();
    kv.push(KeyValue::new(KEY_DEVICE_PROPERTIES.into(), Value::Array(devices).to_string()));
    let clock = json!({
        "clock": meta.clock.clock_name(),
        "record_ns": meta.clock.record_ns,
        "unix_ns": meta.clock.unix_ns,
        "unix_offset_ns": meta.clock.unix_offset_ns(),
    });
    kv.push(KeyValue::new(KEY_CLOCK.into(), clock.to_string()));
    if let Some(backend) = &meta.backend {
        kv.push(KeyValue::new(KEY_BACKEND.into(), backend.clone()));
    }
    if let Some(name) = &meta.trace_name {
        kv.push(KeyValue::new(KEY_TRACE_NAME.into(), name.clone()));
    }
    if meta.start_unix_ns != 0 {
        kv.push(KeyValue::new(KEY_START.into(), meta.start_unix_ns.to_string()));
    }
    for (key, value) in &meta.extra {
        let text = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
        kv.push(KeyValue::new(format!("{KEY_EXTRA_PREFIX}{key}"), text));
    }
    kv
}

/// The rows-per-family pair written at finish.
pub(crate) fn rows_key_value(rows: &PerFamily<u64>) -> KeyValue {
    let counts: Map<String, Value> =
        Family::ALL.iter().zip(rows).map(|(f, n)| (f.name().to_owned(), Value::from(*n))).collect();
    KeyValue::new(KEY_ROWS.into(), Value::Object(counts).to_string())
}

/// The run's metadata back from a file's pairs, and the rows per family its footer counts (`None` for a
/// file without them).
pub(crate) fn from_key_values(kv: &[KeyValue]) -> Result<(RunMeta, Option<PerFamily<u64>>), Error> {
    let get = |key: &str| kv.iter().find(|p| p.key == key).and_then(|p| p.value.as_deref());
    let bad = |key: &str| Error::Schema(format!("metadata `{key}` is missing or malformed"));
    // A number's field and value are named: "malformed" of a rank of 2^32+1 or -1 said neither.
    let in_range = |key: &str, max: u64| -> Result<u64, Error> {
        let value = get(key).ok_or_else(|| Error::Schema(format!("metadata `{key}` is missing")))?;
        value.trim().parse::<u64>().ok().filter(|n| *n <= max).ok_or_else(|| {
            Error::Schema(format!("metadata `{key}` is {value:?}: not a whole number from 0 to {max}"))
        })
    };
    let number = |key: &str| in_range(key, u64::MAX);
    let parsed = |key: &str| -> Result<Value, Error> {
        get(key).and_then(|v| serde_json::from_str(v).ok()).ok_or_else(|| bad(key))
    };
    if get(KEY_SCHEMA_VERSION).is_none() {
        return Err(Error::Schema("not an accelprof file (no accelprof.schema_version)".into()));
    }
    let u32_of = |key: &str| in_range(key, u64::from(u32::MAX)).map(|n| n as u32);
    let versions = parsed(KEY_LIBRARY_VERSIONS)?;
    let library_versions = versions
        .as_object()
        .ok_or_else(|| bad(KEY_LIBRARY_VERSIONS))?
        .iter()
        .map(|(k, v)| Ok((k.clone(), v.as_str().ok_or_else(|| bad(KEY_LIBRARY_VERSIONS))?.to_owned())))
        .collect::<Result<_, Error>>()?;
    let devices = parsed(KEY_DEVICE_PROPERTIES)?;
    let device_properties = devices
        .as_array()
        .ok_or_else(|| bad(KEY_DEVICE_PROPERTIES))?
        .iter()
        .map(|d| device_from_json(d).ok_or_else(|| bad(KEY_DEVICE_PROPERTIES)))
        .collect::<Result<_, Error>>()?;
    let clock = parsed(KEY_CLOCK)?;
    let clock_name = clock["clock"].as_str().ok_or_else(|| bad(KEY_CLOCK))?;
    let clock = ClockAnchor {
        clock: if clock_name == "CLOCK_REALTIME" { String::new() } else { clock_name.to_owned() },
        record_ns: clock["record_ns"].as_u64().ok_or_else(|| bad(KEY_CLOCK))?,
        unix_ns: clock["unix_ns"].as_u64().ok_or_else(|| bad(KEY_CLOCK))?,
    };
    let extra = kv
        .iter()
        .filter_map(|p| {
            Some((p.key.strip_prefix(KEY_EXTRA_PREFIX)?.to_owned(), Value::from(p.value.clone()?)))
        })
        .collect();
    let start_unix_ns = match get(KEY_START) {
        None => 0,
        Some(_) => number(KEY_START)?,
    };
    let meta = RunMeta {
        rank: u32_of(KEY_RANK)?,
        world_size: u32_of(KEY_WORLD_SIZE)?,
        host: get(KEY_HOST).unwrap_or_default().to_owned(),
        process_id: u32_of(KEY_PROCESS_ID)?,
        vendor: get(KEY_VENDOR).unwrap_or_default().to_owned(),
        library_versions,
        device_properties,
        clock,
        backend: get(KEY_BACKEND).map(str::to_owned),
        trace_name: get(KEY_TRACE_NAME).map(str::to_owned),
        start_unix_ns,
        extra,
    };
    let rows = match get(KEY_ROWS) {
        None => None,
        Some(_) => {
            let counts = parsed(KEY_ROWS)?;
            let mut rows = PerFamily::<u64>::default();
            for family in Family::ALL {
                rows[family] = counts[family.name()].as_u64().ok_or_else(|| bad(KEY_ROWS))?;
            }
            Some(rows)
        }
    };
    Ok((meta, rows))
}

/// Kineto's keys, absent values left out (as the JSON trace's `deviceProperties`).
fn device_to_json(d: &DeviceProperties) -> Value {
    let mut o = Map::new();
    o.insert("id".into(), d.id.into());
    o.insert("name".into(), d.name.clone().into());
    let mut opt = |key: &str, value: Option<Value>| {
        if let Some(v) = value {
            o.insert(key.into(), v);
        }
    };
    opt("totalGlobalMem", d.total_global_mem.map(Value::from));
    opt("computeMajor", d.compute_major.map(Value::from));
    opt("computeMinor", d.compute_minor.map(Value::from));
    opt("maxThreadsPerBlock", d.max_threads_per_block.map(Value::from));
    opt("maxThreadsPerMultiprocessor", d.max_threads_per_multiprocessor.map(Value::from));
    opt("regsPerBlock", d.regs_per_block.map(Value::from));
    opt("regsPerMultiprocessor", d.regs_per_multiprocessor.map(Value::from));
    opt("warpSize", d.warp_size.map(Value::from));
    opt("sharedMemPerBlock", d.shared_mem_per_block.map(Value::from));
    opt("sharedMemPerMultiprocessor", d.shared_mem_per_multiprocessor.map(Value::from));
    opt("numSms", d.num_sms.map(Value::from));
    opt("sharedMemPerBlockOptin", d.shared_mem_per_block_optin.map(Value::from));
    for (key, value) in &d.extra {
        o.insert(key.clone(), value.clone());
    }
    Value::Object(o)
}

const KINETO_KEYS: [&str; 14] = [
    "id",
    "name",
    "totalGlobalMem",
    "computeMajor",
    "computeMinor",
    "maxThreadsPerBlock",
    "maxThreadsPerMultiprocessor",
    "regsPerBlock",
    "regsPerMultiprocessor",
    "warpSize",
    "sharedMemPerBlock",
    "sharedMemPerMultiprocessor",
    "numSms",
    "sharedMemPerBlockOptin",
];

fn device_from_json(v: &Value) -> Option<DeviceProperties> {
    let o = v.as_object()?;
    let u64_of = |k: &str| o.get(k).and_then(Value::as_u64);
    let u32_of = |k: &str| u64_of(k).and_then(|n| u32::try_from(n).ok());
    let i32_of = |k: &str| o.get(k).and_then(Value::as_i64).and_then(|n| i32::try_from(n).ok());
    Some(DeviceProperties {
        id: u32_of("id")?,
        name: o.get("name")?.as_str()?.to_owned(),
        total_global_mem: u64_of("totalGlobalMem"),
        compute_major: i32_of("computeMajor"),
        compute_minor: i32_of("computeMinor"),
        max_threads_per_block: u32_of("maxThreadsPerBlock"),
        max_threads_per_multiprocessor: u32_of("maxThreadsPerMultiprocessor"),
        regs_per_block: u32_of("regsPerBlock"),
        regs_per_multiprocessor: u32_of("regsPerMultiprocessor"),
        warp_size: u32_of("warpSize"),
        shared_mem_per_block: u64_of("sharedMemPerBlock"),
        shared_mem_per_multiprocessor: u64_of("sharedMemPerMultiprocessor"),
        num_sms: u32_of("numSms"),
        shared_mem_per_block_optin: u64_of("sharedMemPerBlockOptin"),
        extra: o
            .iter()
            .filter(|(k, _)| !KINETO_KEYS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    })
}
