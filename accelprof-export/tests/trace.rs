use std::path::PathBuf;

use accelprof_core::columns::*;
use accelprof_core::intern::Interner;
use accelprof_export::trace::{Categories, ChromeTrace, DeviceProperties, RunMeta, Style, TimeMap};
use regex::Regex;
use serde_json::{json, Value};

const BASE: u64 = 1_700_000_000_000_000_000;
/// Vendor clock = Unix - 1 s.
const OFFSET: i64 = 1_000_000_000;
const RUNTIME: u32 = 1;
const DRIVER: u32 = 2;
const PID: u32 = 4242;
const TID: u64 = 17;

/// Vendor timestamp of `us` microseconds (plus `ns`) after the trace base.
fn at(us: u64, ns: u64) -> u64 {
    BASE - OFFSET as u64 + us * 1000 + ns
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accelprof-export-trace-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sample(names: &mut Interner) -> Batch {
    let mut b = Batch::new();
    let launch = names.intern("cudaLaunchKernel");
    b.api_calls.push(ApiRow {
        start: at(10, 0),
        end: at(15, 250),
        process: PID,
        thread: TID,
        correlation: 7,
        domain: RUNTIME,
        cbid: 211,
        name: launch,
    });
    let memcpy = names.intern("cudaMemcpyAsync");
    b.api_calls.push(ApiRow {
        start: at(20, 0),
        end: at(21, 0),
        process: PID,
        thread: TID,
        correlation: 8,
        domain: RUNTIME,
        cbid: 41,
        name: memcpy,
    });
    let cu = names.intern("cuLaunchKernel");
    b.api_calls.push(ApiRow {
        start: at(30, 0),
        end: at(31, 0),
        process: PID,
        thread: TID,
        correlation: 9,
        domain: DRIVER,
        cbid: 307,
        name: cu,
    });
    let gemm = names.intern("void gemm<\"quoted\">\n(float*)");
    b.kernels.push(KernelRow {
        start: at(40, 1),
        end: at(140, 2),
        device: 0,
        context: 1,
        stream: 7,
        correlation: 7,
        grid_x: 128,
        grid_y: 2,
        grid_z: 1,
        block_x: 256,
        block_y: 1,
        block_z: 1,
        shared_memory: 4096,
        registers: 64,
        name: gemm,
    });
    let nccl = names.intern("ncclDevKernel_AllReduce_Sum_f32");
    b.kernels.push(KernelRow {
        start: at(200, 0),
        end: at(300, 0),
        device: 1,
        stream: 9,
        correlation: 99,
        name: nccl,
        ..Default::default()
    });
    b.memcpys.push(MemcpyRow {
        start: at(50, 0),
        end: at(52, 0),
        device: 0,
        context: 1,
        stream: 7,
        correlation: 8,
        bytes: 4_000_000,
        copy_kind: CopyKind::HTOD,
        src_kind: MemoryKind::PAGEABLE,
        dst_kind: MemoryKind::DEVICE,
        is_async: true,
    });
    b.memsets.push(MemsetRow {
        start: at(60, 0),
        end: at(61, 0),
        device: 0,
        stream: 7,
        correlation: 10,
        bytes: 1024,
        memory_kind: MemoryKind::DEVICE,
        ..Default::default()
    });
    let step = names.intern("ProfilerStep#3");
    b.markers.push(MarkerRow {
        start: at(5, 0),
        end: at(500, 0),
        process: PID,
        thread: TID,
        device: HOST_DEVICE,
        name: step,
        ..Default::default()
    });
    let mark = names.intern("checkpoint");
    b.markers.push(MarkerRow {
        start: at(8, 0),
        end: at(8, 0),
        process: PID,
        thread: TID,
        device: HOST_DEVICE,
        name: mark,
        ..Default::default()
    });
    let range = names.intern("gpu range");
    b.markers.push(MarkerRow {
        start: at(40, 0),
        end: at(90, 0),
        device: 0,
        stream: 7,
        name: range,
        ..Default::default()
    });
    let allreduce = names.intern("AllReduce");
    b.collectives.push(CollectiveRow {
        start: at(200, 0),
        end: at(300, 0),
        device: 1,
        stream: 9,
        correlation: 99,
        name: allreduce,
        count: 1024,
        bytes: 4096,
        ..Default::default()
    });
    let sync = names.intern("Stream Sync");
    b.syncs.push(SyncRow {
        start: at(400, 0),
        end: at(410, 0),
        device: 0,
        stream: 7,
        correlation: 11,
        sync_type: 3,
        name: sync,
        ..Default::default()
    });
    b.memory.push(MemoryRow {
        start: at(3, 0),
        end: at(3, 0),
        device: 0,
        address: 0xdead_0000,
        bytes: 1 << 20,
        op: 1,
        ..Default::default()
    });
    let counter = names.intern("SQ_WAVES");
    b.counters.push(CounterRow {
        correlation: 7,
        device: 0,
        counter,
        value: 42.0,
        start: at(40, 0),
        end: at(140, 0),
    });
    b.external_correlations.push(ExternalCorrelationRow { external_kind: 1, external_id: 5, correlation: 7 });
    b
}

fn meta() -> RunMeta {
    RunMeta {
        start_unix_ns: BASE,
        rank: 3,
        world_size: 8,
        backend: Some("nccl".into()),
        device_properties: vec![DeviceProperties {
            id: 0,
            name: "Mock GPU".into(),
            total_global_mem: Some(80 << 30),
            compute_major: Some(9),
            compute_minor: Some(0),
            num_sms: Some(132),
            ..Default::default()
        }],
        trace_name: Some("rank3".into()),
        extra: vec![("cupti_version".into(), json!(26)), ("traceEvents".into(), json!("ignored"))],
        ..Default::default()
    }
}

/// Writes the sample trace and returns (raw text, parsed).
fn written(test: &str) -> (String, Value) {
    let mut names = Interner::new();
    let batch = sample(&mut names);
    let style = Style {
        categories: Categories::default().with_api_domain(DRIVER, "cuda_driver"),
        ..Style::default()
    };
    let mut trace = ChromeTrace::with_style(meta(), style);
    trace.add_batch(&batch, &names.names(), &TimeMap::from_offset(OFFSET));
    trace.add_process_name(u64::from(PID), "python train.py");
    trace.add_thread_name(u64::from(PID), TID, "main");
    let path = temp_dir(test).join("rank3.json");
    trace.write_to(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed = serde_json::from_str(&text).expect("valid JSON");
    (text, parsed)
}

fn events(trace: &Value) -> &Vec<Value> {
    trace["traceEvents"].as_array().unwrap()
}

fn find<'a>(trace: &'a Value, ph: &str, name: &str) -> &'a Value {
    events(trace)
        .iter()
        .find(|e| e["ph"] == ph && e["name"] == name)
        .unwrap_or_else(|| panic!("no {ph} event named {name}"))
}

#[test]
fn metadata_comes_before_the_events_and_rank_matches_htas_regex() {
    let (text, trace) = written("order");
    let pos = |key: &str| text.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("{key} missing"));
    // Kineto's keys, all before the events (HTA reads lines until its rank regex matches, and a streamed
    // trace says everything about itself before its first event).
    let order = [
        "schemaVersion",
        "distributedInfo",
        "deviceProperties",
        "cupti_version",
        "traceName",
        "displayTimeUnit",
        "baseTimeNanoseconds",
        "traceEvents",
    ];
    for pair in order.windows(2) {
        assert!(pos(pair[0]) < pos(pair[1]), "{} before {}", pair[0], pair[1]);
    }
    assert_eq!(
        text.matches("\"traceEvents\":").count(),
        1,
        "a reserved key in metadata is not written twice"
    );
    let rank = Regex::new(r#""rank":\s+(\d+)"#).unwrap();
    assert_eq!(&rank.captures(&text).expect("HTA's rank regex matches")[1], "3");
    assert_eq!(trace["distributedInfo"], json!({"backend": "nccl", "rank": 3, "world_size": 8}));
    assert_eq!(trace["baseTimeNanoseconds"], json!(BASE));
    assert_eq!(trace["schemaVersion"], 1);
    assert_eq!(trace["traceName"], "rank3");
    assert_eq!(trace["cupti_version"], 26);
    let device = &trace["deviceProperties"][0];
    assert_eq!((device["id"].clone(), device["name"].clone()), (json!(0), json!("Mock GPU")));
    assert_eq!((device["computeMajor"].clone(), device["numSms"].clone()), (json!(9), json!(132)));
    assert!(device.get("warpSize").is_none(), "unknown properties are left out");
}

#[test]
fn timestamps_are_microseconds_from_the_base_with_three_decimals() {
    let (text, trace) = written("time");
    let ts = Regex::new(r#""(ts|dur)": (-?[0-9.eE+]+)"#).unwrap();
    let three_decimals = Regex::new(r"^-?\d+\.\d{3}$").unwrap();
    let mut seen = 0;
    for cap in ts.captures_iter(&text) {
        assert!(three_decimals.is_match(&cap[2]), "{} {} has not 3 decimals", &cap[1], &cap[2]);
        seen += 1;
    }
    assert!(seen > 20);
    let kernel =
        events(&trace).iter().find(|e| e["cat"] == "kernel" && e["args"]["correlation"] == 7).unwrap();
    // Raw text: exact digits; the kernel started 40.001 us and lasted 100.001 us after the base.
    assert!(text.contains(r#""ts": 40.001, "dur": 100.001"#));
    assert_eq!(kernel["ts"].as_f64(), Some(40.001));
    let launch = find(&trace, "X", "cudaLaunchKernel");
    assert_eq!((launch["ts"].as_f64(), launch["dur"].as_f64()), (Some(10.0), Some(5.25)));
}

#[test]
fn every_analysed_event_has_the_fields_hta_needs() {
    let (_, trace) = written("fields");
    let complete: Vec<_> = events(&trace).iter().filter(|e| e["ph"] == "X").collect();
    assert_eq!(complete.len(), 11, "3 API + 2 kernels + memcpy + memset + 2 ranges + collective + sync");
    for event in complete {
        for key in ["ts", "dur", "name", "cat", "pid", "tid"] {
            assert!(event.get(key).is_some(), "{key} missing in {event}");
        }
    }
}

#[test]
fn gpu_work_is_on_device_and_stream_with_kinetos_args() {
    let (_, trace) = written("gpu");
    let kernel = find(&trace, "X", "void gemm<\"quoted\">\n(float*)");
    assert_eq!(
        (kernel["cat"].clone(), kernel["pid"].clone(), kernel["tid"].clone()),
        (json!("kernel"), json!(0), json!(7))
    );
    let args = &kernel["args"];
    assert_eq!(args["device"], 0);
    assert_eq!(args["context"], 1);
    assert_eq!(args["stream"], 7);
    assert_eq!(args["correlation"], 7);
    assert_eq!(args["grid"], json!([128, 2, 1]));
    assert_eq!(args["block"], json!([256, 1, 1]));
    assert_eq!(args["registers per thread"], 64);
    assert_eq!(args["shared memory"], 4096);
    assert_eq!(find(&trace, "X", "ncclDevKernel_AllReduce_Sum_f32")["pid"], 1);

    let copy = find(&trace, "X", "Memcpy HtoD (Pageable -> Device)");
    assert_eq!(copy["cat"], "gpu_memcpy");
    assert_eq!(copy["args"]["bytes"], 4_000_000);
    assert_eq!(
        copy["args"]["memory bandwidth (GB/s)"].as_f64(),
        Some(2000.0),
        "4e6 bytes in 2000 ns: 2000 bytes/ns = 2000 GB/s"
    );
    assert_eq!(copy["args"]["stream"], 7);
    let set = find(&trace, "X", "Memset (Device)");
    assert_eq!(set["cat"], "gpu_memset");
    assert_eq!(set["args"]["bytes"], 1024);

    let kernels = events(&trace).iter().filter(|e| e["cat"] == "kernel").count();
    assert_eq!(kernels, 2, "collectives are not counted as kernels");
    assert_eq!(find(&trace, "X", "AllReduce")["cat"], "collective");
    assert_eq!(find(&trace, "X", "Stream Sync")["cat"], "cuda_sync");
}

#[test]
fn api_calls_are_host_events_by_domain_category_and_never_carry_a_stream() {
    let (_, trace) = written("api");
    let runtime = find(&trace, "X", "cudaLaunchKernel");
    assert_eq!(runtime["cat"], "cuda_runtime");
    assert_eq!((runtime["pid"].clone(), runtime["tid"].clone()), (json!(PID), json!(TID)));
    assert_eq!(runtime["args"], json!({"correlation": 7, "cbid": 211}));
    assert_eq!(find(&trace, "X", "cuLaunchKernel")["cat"], "cuda_driver");
    for event in events(&trace) {
        let cat = event["cat"].as_str().unwrap_or("");
        if ["cuda_runtime", "cuda_driver", "user_annotation"].contains(&cat) {
            assert!(event["args"].get("stream").is_none(), "CPU event with a stream arg: {event}");
        }
    }
}

#[test]
fn flows_link_each_launch_to_its_gpu_work() {
    let (_, trace) = written("flows");
    let flows: Vec<_> = events(&trace).iter().filter(|e| e["cat"] == "ac2g").collect();
    // Correlations 7 (kernel) and 8 (memcpy) have both ends; 9, 10, 11, 99 have one.
    assert_eq!(flows.len(), 4);
    let end = |ph: &str, id: u64| flows.iter().find(|e| e["ph"] == ph && e["id"] == id).copied().unwrap();
    let (s, f) = (end("s", 7), end("f", 7));
    let (launch, kernel) =
        (find(&trace, "X", "cudaLaunchKernel"), find(&trace, "X", "void gemm<\"quoted\">\n(float*)"));
    assert_eq!(
        (s["pid"].clone(), s["tid"].clone(), s["ts"].clone()),
        (launch["pid"].clone(), launch["tid"].clone(), launch["ts"].clone())
    );
    assert_eq!(
        (f["pid"].clone(), f["tid"].clone(), f["ts"].clone()),
        (kernel["pid"].clone(), kernel["tid"].clone(), kernel["ts"].clone())
    );
    assert_eq!(f["bp"], "e");
    assert!(s.get("bp").is_none());
    assert_eq!(end("f", 8)["tid"], 7);
}

#[test]
fn markers_are_user_annotations_and_timelines_are_named() {
    let (_, trace) = written("markers");
    assert_eq!(find(&trace, "X", "ProfilerStep#3")["cat"], "user_annotation");
    assert_eq!(find(&trace, "X", "ProfilerStep#3")["pid"], PID);
    let instant = find(&trace, "i", "checkpoint");
    assert_eq!((instant["cat"].clone(), instant["s"].clone()), (json!("user_annotation"), json!("t")));
    let gpu = find(&trace, "X", "gpu range");
    assert_eq!(
        (gpu["cat"].clone(), gpu["pid"].clone(), gpu["tid"].clone()),
        (json!("gpu_user_annotation"), json!(0), json!(7))
    );
    assert_eq!(find(&trace, "C", "SQ_WAVES")["args"]["SQ_WAVES"].as_f64(), Some(42.0));
    assert_eq!(find(&trace, "i", "[memory]")["args"]["Bytes"], 1 << 20);

    let process_names: Vec<_> = events(&trace)
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "process_name")
        .map(|e| (e["pid"].as_u64().unwrap(), e["args"]["name"].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(
        process_names,
        [(0, "GPU 0".into()), (1, "GPU 1".into()), (u64::from(PID), "python train.py".into())]
    );
    let thread = find(&trace, "M", "thread_name");
    assert_eq!((thread["tid"].clone(), thread["args"]["name"].clone()), (json!(TID), json!("main")));
}

#[test]
fn batches_accumulate_and_flows_join_across_them() {
    let mut names = Interner::new();
    let launch = names.intern("hipLaunchKernel");
    let kernel = names.intern("k");
    let mut first = Batch::new();
    first.api_calls.push(ApiRow {
        start: at(1, 0),
        end: at(2, 0),
        correlation: 5,
        name: launch,
        ..Default::default()
    });
    let mut second = Batch::new();
    second.kernels.push(KernelRow {
        start: at(3, 0),
        end: at(4, 0),
        correlation: 5,
        name: kernel,
        ..Default::default()
    });
    let mut trace = ChromeTrace::new(RunMeta { start_unix_ns: BASE, ..Default::default() });
    let map = TimeMap::from_offset(OFFSET);
    trace.add_batch(&first, &names.names(), &map);
    trace.add_batch(&second, &names.names(), &map);
    trace.add_cpu_range("cpu_op", "aten::mm", 1, 2, BASE + 500, BASE + 1500);
    assert_eq!(trace.event_count(), 3);
    let mut out = Vec::new();
    trace.write(&mut out).unwrap();
    let parsed: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(find(&parsed, "X", "hipLaunchKernel")["cat"], "cuda_runtime", "HIP keeps cuda_runtime");
    assert_eq!(events(&parsed).iter().filter(|e| e["cat"] == "ac2g").count(), 2);
    let op = find(&parsed, "X", "aten::mm");
    assert_eq!((op["ts"].as_f64(), op["dur"].as_f64()), (Some(0.5), Some(1.0)));
    assert_eq!(parsed["distributedInfo"], json!({"rank": 0, "world_size": 1}));
}

#[test]
fn an_empty_trace_is_valid_json() {
    let mut out = Vec::new();
    ChromeTrace::new(RunMeta::default()).write(&mut out).unwrap();
    let parsed: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(parsed["traceEvents"], json!([]));
    assert_eq!(parsed["deviceProperties"], json!([]));
}

#[test]
fn writing_replaces_the_file_atomically_and_leaves_no_temporary_file() {
    let dir = temp_dir("atomic");
    let path = dir.join("trace.json");
    std::fs::write(&path, "old").unwrap();
    ChromeTrace::new(RunMeta::default()).write_to(&path).unwrap();
    let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(entries, [std::ffi::OsString::from("trace.json")]);
    assert!(serde_json::from_str::<Value>(&std::fs::read_to_string(&path).unwrap()).is_ok());

    let missing = dir.join("no-such-dir").join("trace.json");
    assert!(ChromeTrace::new(RunMeta::default()).write_to(&missing).is_err());
    assert!(!missing.exists());
}

/// The `traceEvents` lines of a trace of `batch` (base `BASE`, vendor clock = Unix - 1 s), as text.
fn event_lines(batch: &Batch, names: &Interner, test: &str) -> Vec<String> {
    let mut trace = ChromeTrace::new(RunMeta { start_unix_ns: BASE, ..Default::default() });
    trace.add_batch(batch, &names.names(), &TimeMap::from_offset(OFFSET));
    let path = temp_dir(test).join("pinned.json");
    trace.write_to(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let events = text.split_once("\"traceEvents\": [\n").unwrap().1;
    let events = &events[..events.find("\n  ]").unwrap()];
    events.lines().map(str::to_owned).collect()
}

/// The exact text of representative events: names that need escaping (at every offset around 8-byte
/// words), zero and the largest numbers, times before, at and far after the base. Rendering is free to
/// get faster; what a reader sees, byte for byte, is pinned here.
#[test]
fn rendered_events_are_pinned_byte_for_byte() {
    let mut names = Interner::new();
    let mut b = Batch::new();
    let launch = names.intern("cudaLaunchKernel");
    // At the base (ts 0.000), a zero duration, the largest correlation id.
    b.api_calls.push(ApiRow {
        start: at(0, 0),
        end: at(0, 0),
        process: 0,
        thread: 0,
        correlation: u64::MAX,
        domain: RUNTIME,
        cbid: 0,
        name: launch,
    });
    // Before the base (a negative ts), u32::MAX ids.
    b.api_calls.push(ApiRow {
        start: at(0, 0) - 1_005,
        end: at(0, 0) + 999,
        process: u32::MAX,
        thread: u64::MAX,
        correlation: 1,
        domain: RUNTIME,
        cbid: u32::MAX,
        name: launch,
    });
    let escaped = [
        "q\"",
        "a\\b\\c",
        "1234567\"tab\there",
        "12345678\n",
        "abcdefgh\u{1}ijklmnop\u{1f}",
        "utf-8 é € \u{10000} and a quote \" at 33",
        "void gemm<float>(float const*, float*, int)",
    ];
    for (i, name) in escaped.iter().enumerate() {
        let id = names.intern(name);
        let i = i as u64;
        b.kernels.push(KernelRow {
            start: at(1_000 * i, i),
            end: at(1_000 * i + 7, 999),
            device: i as u32,
            context: if i == 0 { u32::MAX } else { 0 },
            stream: if i == 0 { u64::MAX } else { i * 10 },
            correlation: if i == 0 { u64::MAX } else { 10_u64.pow(i as u32) },
            grid_x: if i == 0 { u32::MAX } else { 9 },
            grid_y: 10,
            grid_z: 99,
            block_x: 100,
            block_y: 999_999,
            block_z: 1_000_000,
            shared_memory: u32::MAX,
            registers: u16::MAX,
            name: id,
        });
    }
    // Far after the base (a timestamp of 20 digits of ns) and a copy of u64::MAX bytes.
    b.memcpys.push(MemcpyRow {
        start: u64::MAX - 1,
        end: u64::MAX,
        device: 3,
        context: 1,
        stream: 12_345_678_901,
        correlation: 1,
        bytes: u64::MAX,
        copy_kind: CopyKind::DTOH,
        src_kind: MemoryKind::DEVICE,
        dst_kind: MemoryKind::PINNED,
        is_async: true,
    });
    let lines = event_lines(&b, &names, "pinned");
    let expected = PINNED.trim_start_matches('\n');
    assert_eq!(lines.join("\n"), expected);
}

const PINNED: &str = r#"
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 0, "tid": 0, "ts": 0.000, "dur": 0.000, "args": {"correlation": 18446744073709551615, "cbid": 0}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 4294967295, "tid": 18446744073709551615, "ts": -1.005, "dur": 2.004, "args": {"correlation": 1, "cbid": 4294967295}},
    {"name": "process_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}},
    {"ph": "s", "id": 18446744073709551615, "pid": 0, "tid": 0, "ts": 0.000, "cat": "ac2g", "name": "ac2g"},
    {"ph": "f", "id": 18446744073709551615, "pid": 0, "tid": 18446744073709551615, "ts": 0.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "kernel", "name": "q\"", "pid": 0, "tid": 18446744073709551615, "ts": 0.000, "dur": 7.999, "args": {"device": 0, "context": 4294967295, "stream": 18446744073709551615, "correlation": 18446744073709551615, "registers per thread": 65535, "shared memory": 4294967295, "grid": [4294967295, 10, 99], "block": [100, 999999, 1000000]}},
    {"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "GPU 1"}},
    {"ph": "X", "cat": "kernel", "name": "a\\b\\c", "pid": 1, "tid": 10, "ts": 1000.001, "dur": 7.998, "args": {"device": 1, "context": 0, "stream": 10, "correlation": 10, "registers per thread": 65535, "shared memory": 4294967295, "grid": [9, 10, 99], "block": [100, 999999, 1000000]}},
    {"name": "process_name", "ph": "M", "pid": 2, "tid": 0, "args": {"name": "GPU 2"}},
    {"ph": "X", "cat": "kernel", "name": "1234567\"tab\there", "pid": 2, "tid": 20, "ts": 2000.002, "dur": 7.997, "args": {"device": 2, "context": 0, "stream": 20, "correlation": 100, "registers per thread": 65535, "shared memory": 4294967295, "grid": [9, 10, 99], "block": [100, 999999, 1000000]}},
    {"name": "process_name", "ph": "M", "pid": 3, "tid": 0, "args": {"name": "GPU 3"}},
    {"ph": "X", "cat": "kernel", "name": "12345678\n", "pid": 3, "tid": 30, "ts": 3000.003, "dur": 7.996, "args": {"device": 3, "context": 0, "stream": 30, "correlation": 1000, "registers per thread": 65535, "shared memory": 4294967295, "grid": [9, 10, 99], "block": [100, 999999, 1000000]}},
    {"name": "process_name", "ph": "M", "pid": 4, "tid": 0, "args": {"name": "GPU 4"}},
    {"ph": "X", "cat": "kernel", "name": "abcdefgh\u0001ijklmnop\u001f", "pid": 4, "tid": 40, "ts": 4000.004, "dur": 7.995, "args": {"device": 4, "context": 0, "stream": 40, "correlation": 10000, "registers per thread": 65535, "shared memory": 4294967295, "grid": [9, 10, 99], "block": [100, 999999, 1000000]}},
    {"name": "process_name", "ph": "M", "pid": 5, "tid": 0, "args": {"name": "GPU 5"}},
    {"ph": "X", "cat": "kernel", "name": "utf-8 é € 𐀀 and a quote \" at 33", "pid": 5, "tid": 50, "ts": 5000.005, "dur": 7.994, "args": {"device": 5, "context": 0, "stream": 50, "correlation": 100000, "registers per thread": 65535, "shared memory": 4294967295, "grid": [9, 10, 99], "block": [100, 999999, 1000000]}},
    {"name": "process_name", "ph": "M", "pid": 6, "tid": 0, "args": {"name": "GPU 6"}},
    {"ph": "X", "cat": "kernel", "name": "void gemm<float>(float const*, float*, int)", "pid": 6, "tid": 60, "ts": 6000.006, "dur": 7.993, "args": {"device": 6, "context": 0, "stream": 60, "correlation": 1000000, "registers per thread": 65535, "shared memory": 4294967295, "grid": [9, 10, 99], "block": [100, 999999, 1000000]}},
    {"ph": "s", "id": 1, "pid": 4294967295, "tid": 18446744073709551615, "ts": -1.005, "cat": "ac2g", "name": "ac2g"},
    {"ph": "f", "id": 1, "pid": 3, "tid": 12345678901, "ts": 9223372036854775.807, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 3, "tid": 12345678901, "ts": 16746744073709551.615, "dur": 0.001, "args": {"device": 3, "context": 1, "stream": 12345678901, "correlation": 1, "bytes": 18446744073709551615, "memory bandwidth (GB/s)": 1.8446744073709552e19}}"#;
