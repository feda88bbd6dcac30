//! The tracer writes Chrome JSON, Parquet and Perfetto's protobuf from one run on the mock `libcupti`
//! (the output's extension picks the format), with the same kernels in each, and the devices of the
//! mock CUDA driver in every file's metadata.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock};

use accel_profiling::{Distributed, Family, Synchronize, Tracer, TracerConfig, Vendor};
use accelprof_export::perfetto::{read_perfetto, TraceSummary};
use accelprof_mocks::cuda::MockCuda;
use accelprof_mocks::cupti::{MockCupti, LIBRARY};
use parquet::file::reader::{FileReader, SerializedFileReader};
use serde_json::Value;

fn mock() -> &'static MockCupti {
    static MOCK: OnceLock<MockCupti> = OnceLock::new();
    MOCK.get_or_init(|| MockCupti::open(LIBRARY).expect("the mock libcupti's controls"))
}

/// One tracer at a time: CUPTI's activity records are process-wide.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kernels per name in a Parquet file, read with the `parquet` crate's row reader (`family` = `kernel`),
/// and its footer's key-value pairs.
fn parquet_kernels(path: &Path) -> (BTreeMap<String, u64>, BTreeMap<String, String>) {
    let reader = SerializedFileReader::new(std::fs::File::open(path).expect("the parquet file")).unwrap();
    let footer = reader.metadata().file_metadata().key_value_metadata().cloned().unwrap_or_default();
    let footer = footer.into_iter().map(|kv| (kv.key, kv.value.unwrap_or_default())).collect();
    let schema = reader.metadata().file_metadata().schema_descr();
    let column = |name: &str| schema.columns().iter().position(|c| c.name() == name).expect(name);
    let (family, name) = (column("family"), column("name"));
    let mut kernels = BTreeMap::new();
    for row in reader.get_row_iter(None).unwrap() {
        let row = row.unwrap();
        let fields: Vec<_> = row.get_column_iter().map(|(_, f)| f.to_string()).collect();
        if fields[family].trim_matches('"') == "kernel" {
            *kernels.entry(fields[name].trim_matches('"').to_owned()).or_default() += 1;
        }
    }
    (kernels, footer)
}

#[test]
fn one_run_writes_json_parquet_and_perfetto_with_the_same_kernels_and_the_drivers_devices() {
    let _serial = serial();
    let dir = support::temp_dir("columns");
    let (json, parquet, perfetto) = (dir.join("t1.json"), dir.join("t1.parquet"), dir.join("t1.pftrace"));
    let asked = |ext: &str| dir.path().join(format!("t%r.{ext}"));
    let config = TracerConfig {
        vendor: Vendor::Cupti,
        library: Some(LIBRARY.into()),
        outputs: vec![asked("json").into(), asked("parquet").into(), asked("pftrace").into()],
        distributed: Some(Distributed { rank: 1, world_size: 2, ..Distributed::default() }),
        synchronize: Some(Synchronize::new(|| {
            mock().device_synchronize();
            Ok(true)
        })),
        ..TracerConfig::default()
    };
    // The program has its CUDA driver loaded (linked) but initializes it only after the tracer began,
    // at its first CUDA call: the devices come late, the driver's version at once.
    let driver = MockCuda::open(accelprof_mocks::cuda::LIBRARY).expect("the mock CUDA driver");
    driver.reset();
    driver.set_device_count(2);
    let tracer = Tracer::new(config).expect("a tracer on the mock");
    tracer.start().expect("start");
    let m = mock();
    m.launch(c"before_init", [1, 1, 1], [32, 1, 1], 0, 1);
    tracer.flush().expect("flush");
    driver.init().expect("cuInit of the mock driver");
    for i in 0..50 {
        m.set_device(i % 2);
        m.launch(c"gemm", [8, 1, 1], [128, 1, 1], 0, 1);
        if i % 5 == 0 {
            m.launch_driver(c"reduce", [2, 1, 1], [64, 1, 1], 0, 1);
        }
        if i == 25 {
            tracer.flush().expect("flush");
        }
    }
    let offset = tracer.time_map().offset_ns();
    let report = tracer.stop();
    assert!(report.is_complete(), "{}", report.render(10));
    assert_eq!(report.rows_of(Family::KERNEL), 61, "{}", report.render(10));
    for outcome in &report.traces {
        let file = outcome.result.as_ref().unwrap_or_else(|e| panic!("{:?}: {e}", outcome.path));
        assert!(file.path.exists() && file.file_bytes > 0, "{file:?}");
    }
    let expected: BTreeMap<String, u64> =
        [("before_init".to_owned(), 1), ("gemm".to_owned(), 50), ("reduce".to_owned(), 10)].into();

    // JSON, read with serde_json: Kineto's `kernel` events, and the devices in `deviceProperties`.
    let doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let mut from_json = BTreeMap::new();
    for e in doc["traceEvents"].as_array().unwrap().iter().filter(|e| e["cat"] == "kernel") {
        *from_json.entry(e["name"].as_str().unwrap().to_owned()).or_default() += 1u64;
    }
    assert_eq!(from_json, expected);
    let devices = doc["deviceProperties"].as_array().expect("deviceProperties");
    assert_eq!(devices.len(), 2, "{devices:?}");
    assert_eq!((devices[1]["id"].as_u64(), devices[1]["name"].as_str()), (Some(1), Some("Mock NVIDIA H200")));
    assert_eq!((devices[0]["numSms"].as_u64(), devices[0]["computeMajor"].as_u64()), (Some(132), Some(9)));
    assert_eq!(devices[0]["sharedMemPerBlockOptin"], 232_448);
    assert_eq!(doc["distributedInfo"]["rank"], 1);
    assert_eq!(doc["library_versions"]["cuda_driver"], "13.0", "{}", doc["library_versions"]);
    assert_eq!(doc["vendor"], "cupti");

    // Parquet, read with the parquet crate: the kernel rows, and the run in the footer.
    let (from_parquet, footer) = parquet_kernels(&parquet);
    assert_eq!(from_parquet, expected);
    let footer_devices: Value = serde_json::from_str(&footer["accelprof.device_properties"]).unwrap();
    assert_eq!(&footer_devices, &doc["deviceProperties"], "the same devices as the JSON trace");
    assert_eq!((footer["accelprof.rank"].as_str(), footer["accelprof.world_size"].as_str()), ("1", "2"));
    assert_eq!(footer["accelprof.vendor"], "cupti");
    let clock: Value = serde_json::from_str(&footer["accelprof.clock"]).unwrap();
    assert_eq!(clock["unix_offset_ns"], offset, "the tracer's clock mapping: {clock}");
    let summary: Value = serde_json::from_str(&footer["accelprof.summary"]).unwrap();
    assert_eq!(summary["rows"]["kernel"], 61);
    // The summary inside the files is made before they are finished: it names every output by its final
    // name (it said `"trace": null, "traces": []`), and leaves out what only a finished file knows.
    let named = [&json, &parquet, &perfetto].map(|p| serde_json::json!({"path": p.display().to_string()}));
    for embedded in [&summary, &doc["traceSummary"]] {
        assert_eq!(embedded["trace"], json.display().to_string(), "{embedded}");
        assert_eq!(embedded["traces"], serde_json::json!(named), "{embedded}");
        assert!(
            embedded.get("trace_bytes").is_none() && embedded.get("trace_events").is_none(),
            "{embedded}"
        );
    }
    assert!(!footer["accelprof.host"].is_empty());

    // Perfetto, decoded with prost: the kernel slices.
    let trace = TraceSummary::of(&read_perfetto(&perfetto).expect("a Perfetto trace"));
    let from_perfetto: BTreeMap<String, u64> = trace
        .events_by_name
        .iter()
        .filter(|((cat, _), _)| cat == "kernel")
        .map(|((_, name), n)| (name.clone(), *n))
        .collect();
    assert_eq!(from_perfetto, expected);
    assert_eq!((trace.unbalanced, trace.unresolved, trace.undeclared_tracks), (0, 0, 0), "{trace:?}");
    assert!(trace.linked_flows >= 61, "an arrow from each launch: {}", trace.linked_flows);
    driver.reset();
}

#[test]
fn a_file_name_no_format_takes_is_refused_and_every_built_in_format_is_listed() {
    let _serial = serial();
    let dir = support::temp_dir("columns-unknown");
    let config = TracerConfig {
        vendor: Vendor::Cupti,
        library: Some(LIBRARY.into()),
        outputs: vec![dir.join("t.parquet").into(), dir.join("t.sqlite").into()],
        distributed: Some(Distributed::default()),
        ..TracerConfig::default()
    };
    let message = Tracer::new(config).expect_err("no format writes .sqlite").to_string();
    for known in ["*.json", "*.json.gz", "*.parquet", "*.pftrace", "*.perfetto-trace"] {
        assert!(message.contains(known), "{message}");
    }
    assert!(!dir.join("t.parquet").exists(), "the outputs made before it are removed");
}
