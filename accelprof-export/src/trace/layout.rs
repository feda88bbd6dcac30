//! The file around the events: what comes before `traceEvents`, what closes it, and the one extra event
//! HolisticTraceAnalysis needs on some traces.
//!
//! Everything a trace says about itself is written before its events (`schemaVersion`,
//! `distributedInfo`, `deviceProperties`, the run's `host`, `pid`, `vendor`, `library_versions` and
//! `clock_anchor`, other metadata, `traceName`, `displayTimeUnit`, `baseTimeNanoseconds`), so that the file
//! is one line of `"traceEvents": [` away from being complete at every moment: the tail is only `]` and the
//! closing brace (plus, once finished, the summary). One exception: a streamed trace whose devices were not
//! known when it began (a CUDA driver describes its devices only once the program initialized it) carries
//! `deviceProperties` in its tail, after the events, filled in when the tracer learns them (HTA does not
//! read `deviceProperties`; Kineto's own order has keys after the events too). Kineto
//! writes `distributedInfo` and `traceName` after the events; readers take keys in any order, and HTA
//! finds the rank by reading lines until `"rank":\s+(\d+)` matches, so an early `distributedInfo` spares it
//! reading the whole file.

use super::json_object::{key, pair};
use std::io;

use serde_json::Value;

use super::emit::RenderStats;
use super::flows::FlowStats;
use super::json_object::{write_json_str, JsonObject};
use super::meta::RESERVED_KEYS;
use crate::RunMeta;

/// `schemaVersion` (Kineto writes 1).
const SCHEMA_VERSION: u32 = 1;

/// The line that opens the events; everything before it is the head.
pub(crate) const EVENTS_OPEN: &str = "  \"traceEvents\": [";

/// The bytes before the first event (ending with [`EVENTS_OPEN`] and a newline). Without
/// `with_devices` the `deviceProperties` list is left out (the tail carries it: see [`tail`]).
pub(crate) fn head(meta: &RunMeta, with_devices: bool) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    head.extend_from_slice(b"{\n  \"schemaVersion\": ");
    head.extend_from_slice(SCHEMA_VERSION.to_string().as_bytes());
    head.extend_from_slice(b",\n  \"distributedInfo\": ");
    let mut info = JsonObject::begin(&mut head);
    if let Some(backend) = &meta.backend {
        info.str(key!("backend"), backend);
    }
    info.uint(key!("rank"), meta.rank.into()).uint(key!("world_size"), meta.world_size.into());
    info.end();
    if with_devices {
        head.extend_from_slice(b",\n  \"deviceProperties\": ");
        devices(&mut head, &meta.device_properties);
    }
    let mut run = Vec::new();
    if !meta.host.is_empty() {
        run.push(("host", Value::from(meta.host.as_str())));
    }
    run.push(("pid", Value::from(meta.process_id)));
    if !meta.vendor.is_empty() {
        run.push(("vendor", Value::from(meta.vendor.as_str())));
    }
    if !meta.library_versions.is_empty() {
        let versions: serde_json::Map<String, Value> =
            meta.library_versions.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect();
        run.push(("library_versions", Value::Object(versions)));
    }
    run.push(("clock_anchor", super::clock_anchor_json(&meta.clock)));
    let extra = meta.extra.iter().filter(|(k, _)| !RESERVED_KEYS.contains(&k.as_str()));
    for (key, value) in run.iter().map(|(k, v)| (*k, v)).chain(extra.map(|(k, v)| (k.as_str(), v))) {
        head.extend_from_slice(b",\n  ");
        write_json_str(&mut head, key);
        head.extend_from_slice(b": ");
        // A metadata value on one line: the file keeps one item per line.
        head.extend_from_slice(serde_json::to_string(value)?.as_bytes());
    }
    if let Some(name) = &meta.trace_name {
        head.extend_from_slice(b",\n  \"traceName\": ");
        write_json_str(&mut head, name);
    }
    head.extend_from_slice(b",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
    head.extend_from_slice(meta.start_unix_ns.to_string().as_bytes());
    head.extend_from_slice(b",\n");
    head.extend_from_slice(EVENTS_OPEN.as_bytes());
    head.push(b'\n');
    Ok(head)
}

/// The `deviceProperties` list: `[` then one device per line, `]`.
pub(crate) fn devices(out: &mut Vec<u8>, devices: &[super::DeviceProperties]) {
    out.push(b'[');
    for (i, device) in devices.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
        device.write(out);
    }
    out.extend_from_slice(if devices.is_empty() { b"]" } else { b"\n  ]" });
}

/// The bytes after the last event: the HTA guard event when needed (see [`hta_guard`]), `]`, the
/// `deviceProperties` list when the head left it out (`devices`: the list as [`devices`] writes it), the
/// summary when given (with the flow table's tallies), and the closing brace.
pub(crate) fn tail(
    guard: Option<&[u8]>,
    devices: Option<&[u8]>,
    summary: Option<(&Value, &FlowStats)>,
) -> io::Result<Vec<u8>> {
    let mut tail = Vec::new();
    if let Some(guard) = guard {
        tail.extend_from_slice(guard);
    }
    tail.extend_from_slice(b"\n  ]");
    if let Some(devices) = devices {
        tail.extend_from_slice(b",\n  \"deviceProperties\": ");
        tail.extend_from_slice(devices);
    }
    if let Some((summary, flows)) = summary {
        tail.extend_from_slice(b",\n  \"traceSummary\": ");
        tail.extend_from_slice(serde_json::to_string(summary)?.as_bytes());
        let flows = serde_json::json!({
            "arrows": flows.linked,
            "gpu_work_whose_launch_was_pushed_out": flows.targets_evicted,
            "launches_pushed_out_unlinked": flows.launches_evicted,
            "waiting_at_end": flows.pending,
        });
        tail.extend_from_slice(b",\n  \"traceFlows\": ");
        tail.extend_from_slice(flows.to_string().as_bytes());
    }
    tail.extend_from_slice(b"\n}\n");
    Ok(tail)
}

/// The bits of the integer type pandas' `to_numeric(downcast="integer")` picks for values in
/// `[min, max]`.
fn pandas_int_bits(min: i128, max: i128) -> u32 {
    [8u32, 16, 32]
        .into_iter()
        .find(|bits| {
            let limit = 1i128 << (bits - 1);
            min >= -limit && max < limit
        })
        .unwrap_or(64)
}

/// The event that keeps HolisticTraceAnalysis 0.5 loading this trace under pandas 3, when it needs one
/// (a line with its leading separator), else `None`.
///
/// HTA downcasts each integer column to the smallest type that holds it: the `correlation` column (ids,
/// and -1 for events without one) and the row `index` (the event's position in `traceEvents`). It then
/// stores row indexes into a copy of the `correlation` column; pandas 3 refuses a value that does not fit
/// (`TypeError: Invalid value ... for dtype 'int16'`). So a trace whose correlation ids all fit a narrower
/// type than its event count crashes HTA: a short program's whole trace usually does (ids below 128 and
/// more than 127 events already). The fix writes no false data: one more complete event, the span the
/// trace covers (`cat: "trace_span"`), whose `correlation` is -1 (HTA's own "none") written as `-1.0`;
/// a JSON number with a fraction makes pandas keep that column in floating point, which holds any row
/// index, and HTA's own result column is integer again after its final downcast. Traces whose ids are as
/// wide as their event count (Kineto's, and long runs) do not get it.
pub(crate) fn hta_guard(stats: &RenderStats, events_before: u64, host_pid: u64) -> Option<Vec<u8>> {
    let (start, end) = stats.span?;
    if stats.max_correlation == 0 {
        return None;
    }
    // The guard event is itself one more row.
    let rows = i128::from(events_before) + 1;
    if pandas_int_bits(-1, i128::from(stats.max_correlation)) >= pandas_int_bits(0, rows - 1) {
        return None;
    }
    let mut line = Vec::new();
    if events_before > 0 {
        line.extend_from_slice(b",\n");
    }
    line.extend_from_slice(b"    ");
    let mut o = JsonObject::begin(&mut line);
    o.pair(pair!("ph", "X")).pair(pair!("cat", "trace_span")).pair(pair!("name", "trace span"));
    o.uint(key!("pid"), host_pid)
        .uint(key!("tid"), 0)
        .micros(key!("ts"), start)
        .micros(key!("dur"), (end - start).max(0));
    let mut args = o.object(key!("args"));
    args.encoded(key!("correlation"), b"-1.0");
    args.str(
        key!("note"),
        "correlation -1.0 (none) keeps HolisticTraceAnalysis loading traces whose correlation ids are narrower than their event count",
    );
    args.end();
    o.end();
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pandas_picks_the_narrowest_signed_type() {
        assert_eq!(pandas_int_bits(-1, 127), 8);
        assert_eq!(pandas_int_bits(-1, 128), 16);
        assert_eq!(pandas_int_bits(0, 32_767), 16);
        assert_eq!(pandas_int_bits(0, 32_768), 32);
        assert_eq!(pandas_int_bits(-1, i128::from(u32::MAX)), 64);
    }

    #[test]
    fn the_guard_comes_only_when_ids_are_narrower_than_the_event_count() {
        let stats =
            |max_correlation| RenderStats { max_correlation, span: Some((0, 10)), ..Default::default() };
        assert!(hta_guard(&stats(100), 100, 1).is_none(), "101 rows fit int8 like the ids");
        assert!(hta_guard(&stats(100), 127, 1).is_none(), "128 rows: indexes 0..=127 fit int8");
        assert!(hta_guard(&stats(100), 128, 1).is_some(), "129 rows need int16, ids fit int8");
        assert!(hta_guard(&stats(40_000), 1_000_000, 1).is_none(), "both int32");
        assert!(hta_guard(&stats(30_000), 40_000, 1).is_some());
        assert!(hta_guard(&stats(0), 40_000, 1).is_none(), "no correlation at all");
        let line = String::from_utf8(hta_guard(&stats(5), 500, 9).unwrap()).unwrap();
        let event: Value = serde_json::from_str(line.trim_start_matches(",\n")).unwrap();
        assert_eq!(event["args"]["correlation"].as_f64(), Some(-1.0));
        assert_eq!((event["cat"].as_str(), event["pid"].as_u64()), (Some("trace_span"), Some(9)));
    }
}
