//! `deviceProperties` learned after a streamed Chrome trace began (a CUDA driver describes its devices
//! only once the program initialized it): the tail carries them, from the next write on.

use std::io::Read;
use std::path::{Path, PathBuf};

use accelprof_core::columns::{Batch, KernelRow};
use accelprof_core::intern::Interner;
use accelprof_export::trace::{
    ChromeTraceWriter, ClockAnchor, DeviceProperties, RunMeta, TimeMap, TraceSink,
};
use serde_json::{json, Value};

const BASE: u64 = 1_700_000_000_000_000_000;

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accelprof-export-devices-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read(path: &Path) -> Value {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut text = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..]).read_to_end(&mut text).unwrap();
        text
    } else {
        raw
    };
    serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{} is not whole JSON: {e}", path.display()))
}

fn kernels(names: &mut Interner, n: u64) -> Batch {
    let name = names.intern("k");
    let mut b = Batch::new();
    for c in 0..n {
        let t = BASE + c * 1_000;
        b.kernels.push(KernelRow {
            start: t,
            end: t + 500,
            stream: 7,
            correlation: c + 1,
            name,
            ..Default::default()
        });
    }
    b
}

fn h200(id: u32) -> DeviceProperties {
    DeviceProperties {
        id,
        name: "NVIDIA H200".into(),
        total_global_mem: Some(150_754_820_096),
        compute_major: Some(9),
        compute_minor: Some(0),
        num_sms: Some(132),
        extra: vec![("uuid".into(), json!("GPU-0"))],
        ..Default::default()
    }
}

fn late_devices(name: &str) {
    let dir = temp_dir(name);
    let path = dir.join(name);
    let mut names = Interner::new();
    let meta = RunMeta {
        start_unix_ns: BASE,
        host: "node7".into(),
        vendor: "cupti".into(),
        library_versions: vec![("cupti".into(), "130001".into())],
        clock: ClockAnchor::new("cupti", 5, BASE + 5),
        ..Default::default()
    };
    let mut writer: Box<dyn TraceSink> = Box::new(ChromeTraceWriter::create(&path, meta).unwrap());
    let partial = writer.partial_path().to_path_buf();
    let start = read(&partial);
    assert_eq!(start["deviceProperties"], json!([]), "a whole trace, no devices yet");
    assert_eq!((start["host"].as_str(), start["vendor"].as_str()), (Some("node7"), Some("cupti")));
    assert_eq!(start["pid"], json!(std::process::id()));
    assert_eq!(start["library_versions"], json!({"cupti": "130001"}));
    assert_eq!(start["clock_anchor"]["unix_offset_ns"], json!(BASE));

    writer.add_batch(&kernels(&mut names, 10), &names.names(), &TimeMap::IDENTITY).unwrap();
    writer.add_device_properties(&[h200(0), h200(1)]).unwrap();
    writer.sync().unwrap();
    let now = read(&partial);
    let devices = now["deviceProperties"].as_array().unwrap();
    assert_eq!(devices.len(), 2, "the devices are in the file at once");
    assert_eq!((devices[1]["id"].as_u64(), devices[1]["numSms"].as_u64()), (Some(1), Some(132)));
    assert_eq!(devices[0]["computeMajor"], 9);

    writer.add_batch(&kernels(&mut names, 10), &names.names(), &TimeMap::IDENTITY).unwrap();
    writer.sync().unwrap();
    assert_eq!(read(&partial)["deviceProperties"].as_array().unwrap().len(), 2, "and in every later tail");
    writer.finish(Some(&json!({"k": 1}))).unwrap();
    let done = read(&path);
    assert_eq!(done["deviceProperties"], now["deviceProperties"]);
    assert_eq!(done["traceEvents"].as_array().unwrap().iter().filter(|e| e["cat"] == "kernel").count(), 20);
    assert_eq!(done["traceSummary"], json!({"k": 1}));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn devices_learned_late_are_in_a_plain_trace() {
    late_devices("t.json");
}

#[test]
fn devices_learned_late_are_in_a_gzip_trace() {
    late_devices("t.json.gz");
}

#[test]
fn devices_known_at_the_start_stay() {
    let dir = temp_dir("known");
    let path = dir.join("t.json");
    let meta = RunMeta { device_properties: vec![h200(0)], ..Default::default() };
    let mut writer = ChromeTraceWriter::create(&path, meta).unwrap();
    writer.add_device_properties(&[h200(0), h200(1), h200(2)]).unwrap();
    writer.finish(None).unwrap();
    let done = read(&path);
    assert_eq!(done["deviceProperties"].as_array().unwrap().len(), 1, "{done}");
    let _ = std::fs::remove_dir_all(&dir);
}
