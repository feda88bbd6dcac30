//! Several outputs of one collection, each in its name's format: `accelprof trace --vendor cuda -o
//! t.json.gz -o t.parquet -o t.pftrace -- program` on the mock libcupti and the mock CUDA driver. The same kernels
//! in the three (JSON read with serde_json, Parquet with the parquet crate, Perfetto decoded with
//! prost), the driver's devices in the JSON trace and the Parquet footer; and what a killed process
//! leaves. (Ported from cupti-trace's tests of its retired tracer.)

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use accelprof_export::perfetto::{read_perfetto, TraceSummary};
use parquet::file::reader::{FileReader, SerializedFileReader};
use serde_json::Value;
use support::*;

const CHILD: &str = "traced_child";

/// The traced program of the test here (run in a child process; ignored in a normal run).
#[test]
#[ignore = "the child process of the tests in this file"]
fn traced_child() {
    support::child::run();
}

/// Kernel rows per name (`family` = `kernel`) and the footer's pairs of a Parquet file.
fn parquet_kernels(path: &Path) -> (BTreeMap<String, u64>, BTreeMap<String, String>) {
    let reader = SerializedFileReader::new(std::fs::File::open(path).expect("the parquet file")).unwrap();
    let footer = reader.metadata().file_metadata().key_value_metadata().cloned().unwrap_or_default();
    let footer = footer.into_iter().map(|kv| (kv.key, kv.value.unwrap_or_default())).collect();
    let schema = reader.metadata().file_metadata().schema_descr();
    let column = |name: &str| schema.columns().iter().position(|c| c.name() == name).expect(name);
    let (family, name) = (column("family"), column("name"));
    let mut kernels = BTreeMap::new();
    for row in reader.get_row_iter(None).unwrap() {
        let fields: Vec<String> = row.unwrap().get_column_iter().map(|(_, f)| f.to_string()).collect();
        if fields[family].trim_matches('"') == "kernel" {
            *kernels.entry(fields[name].trim_matches('"').to_owned()).or_default() += 1;
        }
    }
    (kernels, footer)
}

#[test]
fn one_collection_writes_json_parquet_and_perfetto_with_the_same_kernels_and_devices() {
    let dir = temp_dir("outputs");
    let file = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let child = child_command(CHILD, "devices");
    let mut cmd = accelprof();
    cmd.args(["trace", "--vendor", "cuda"]);
    cmd.args(["-o", &file("t.json.gz"), "-o", &file("t.parquet"), "--output", &file("t.pftrace"), "--"]);
    cmd.arg(child.get_program()).args(child.get_args());
    for (k, v) in child.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // The launcher names each file of the collection.
    for name in ["t.json.gz", "t.parquet", "t.pftrace"] {
        let said =
            stderr.lines().any(|l| l.contains("trace of pid") && l.contains(&format!("{} (", file(name))));
        assert!(said, "{name}: {stderr}");
    }
    let expected: BTreeMap<String, u64> = [("demo::kernel()".to_owned(), 50)].into();

    let trace = read_trace(&dir.join("t.json.gz"));
    let mut from_json = BTreeMap::new();
    for e in events(&trace).iter().filter(|e| e["cat"] == "kernel") {
        *from_json.entry(e["name"].as_str().unwrap().to_owned()).or_default() += 1u64;
    }
    assert_eq!(from_json, expected, "{stderr}");
    let devices = trace["deviceProperties"].as_array().expect("deviceProperties");
    assert_eq!(devices.len(), 2, "the mock driver's two GPUs: {devices:?}");
    assert_eq!((devices[0]["name"].as_str(), devices[1]["id"].as_u64()), (Some("Mock NVIDIA H200"), Some(1)));
    assert_eq!(trace["library_versions"]["cuda_driver"], "13.0");

    let (from_parquet, footer) = parquet_kernels(&dir.join("t.parquet"));
    assert_eq!(from_parquet, expected);
    let footer_devices: Value = serde_json::from_str(&footer["accelprof.device_properties"]).unwrap();
    assert_eq!(&footer_devices, &trace["deviceProperties"]);
    assert_eq!(footer["accelprof.vendor"], "cupti");

    let perfetto = TraceSummary::of(&read_perfetto(dir.join("t.pftrace")).expect("a Perfetto trace"));
    let from_perfetto: BTreeMap<String, u64> = perfetto
        .events_by_name
        .iter()
        .filter(|((cat, _), _)| cat == "kernel")
        .map(|((_, name), n)| (name.clone(), *n))
        .collect();
    assert_eq!(from_perfetto, expected);
    assert_eq!((perfetto.unbalanced, perfetto.unresolved), (0, 0), "{perfetto:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18: after SIGKILL a Parquet output had 0 readable rows (a hidden 0-byte `.tmp`, no footer), the
/// launcher closed only the JSON trace, and periodic flushes never ended a row group. Now each row group
/// is written with a footer, and the launcher puts the Parquet and Perfetto files under their names.
#[test]
fn a_killed_process_leaves_readable_parquet_and_perfetto_files_under_their_names() {
    let dir = temp_dir("killed");
    let file = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let child = child_command(CHILD, "killed");
    let mut cmd = accelprof();
    cmd.args(["trace", "--vendor", "cuda", "--flush-period-ms", "200"]);
    cmd.args(["-o", &file("t.json"), "-o", &file("t.parquet"), "-o", &file("t.pftrace"), "--"]);
    cmd.arg(child.get_program()).args(child.get_args());
    for (k, v) in child.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("was killed by signal 9"), "{stderr}");
    let left: Vec<_> = files_with(&dir, "").into_iter().filter(|p| !p.ends_with("t.json")).collect();
    assert_eq!(left.len(), 2, "t.parquet and t.pftrace, nothing else: {left:?}\n{stderr}");
    let parquet =
        std::fs::File::open(dir.join("t.parquet")).unwrap_or_else(|e| panic!("{e}: {left:?}\n{stderr}"));
    let reader = SerializedFileReader::new(parquet).unwrap();
    assert!(reader.metadata().num_row_groups() >= 2, "a row group per second: {stderr}");
    let (kernels, _) = parquet_kernels(&dir.join("t.parquet"));
    assert!(kernels["demo::kernel()"] >= 100, "{kernels:?}");
    let perfetto = TraceSummary::of(&read_perfetto(dir.join("t.pftrace")).expect("a Perfetto trace"));
    assert!(perfetto.events_by_name.iter().any(|((cat, _), n)| cat == "kernel" && *n >= 100), "{perfetto:?}");
    assert!(!stderr.contains("unclosable"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
