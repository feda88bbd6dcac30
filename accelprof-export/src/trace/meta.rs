use serde_json::Value;

use super::ClockAnchor;

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
