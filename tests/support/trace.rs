//! A trace file checked against the conventions of PyTorch profiler's traces (Kineto) that
//! Perfetto and HolisticTraceAnalysis rely on (`docs/TRACE-FORMAT.md`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use serde_json::Value;

/// GPU work categories: `pid` = device, `tid` = stream.
pub const GPU_CATS: [&str; 3] = ["kernel", "gpu_memcpy", "gpu_memset"];

/// Host categories: never an integer `stream` arg.
pub const HOST_CATS: [&str; 4] = ["cuda_runtime", "cuda_driver", "user_annotation", "overhead"];

/// What a checked trace holds.
#[derive(Debug)]
pub struct Checked {
    /// The whole document.
    pub doc: Value,
    /// Complete (`ph: "X"`) events per `cat`.
    pub by_cat: BTreeMap<String, usize>,
    /// Instant (`ph: "i"`) events per `cat`.
    pub instants: BTreeMap<String, usize>,
    /// Flow arrows (`s`/`f` pairs).
    pub flows: usize,
    /// `distributedInfo.rank`.
    pub rank: u64,
    /// The `pid`s (devices) of kernels.
    pub kernel_devices: HashSet<u64>,
}

impl Checked {
    /// Complete events of `cat`.
    pub fn count(&self, cat: &str) -> usize {
        self.by_cat.get(cat).copied().unwrap_or(0)
    }

    /// Complete events of `cat` (in file order).
    pub fn events(&self, cat: &str) -> Vec<&Value> {
        self.doc["traceEvents"]
            .as_array()
            .expect("traceEvents")
            .iter()
            .filter(|e| e["ph"] == "X" && e["cat"] == cat)
            .collect()
    }
}

/// Reads `path` (a finished `.json` trace) and checks it; panics with what is wrong.
pub fn check(path: &Path) -> Checked {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    check_text(&text, &path.display().to_string())
}

/// [`check`] on a trace's text.
pub fn check_text(text: &str, what: &str) -> Checked {
    let doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what} is not JSON: {e}"));
    let at = |key: &str| text.find(&format!("\"{key}\"")).unwrap_or_else(|| panic!("{what}: no {key}"));
    // Metadata first: HTA's metadata parser stops at traceEvents, its rank regex needs a space.
    for key in ["schemaVersion", "distributedInfo", "baseTimeNanoseconds"] {
        assert!(at(key) < at("traceEvents"), "{what}: {key} after traceEvents");
    }
    let rank_at = text.find("\"rank\": ").unwrap_or_else(|| panic!("{what}: no `\"rank\": N` (HTA's regex)"));
    assert!(rank_at < at("traceEvents"), "{what}: the rank after traceEvents");
    assert!(
        doc["baseTimeNanoseconds"].as_u64().is_some_and(|t| t > 1_500_000_000_000_000_000),
        "{what}: base time"
    );
    let rank = doc["distributedInfo"]["rank"].as_u64().expect("distributedInfo.rank");

    let events = doc["traceEvents"].as_array().unwrap_or_else(|| panic!("{what}: traceEvents"));
    let mut by_cat = BTreeMap::new();
    let mut instants = BTreeMap::new();
    let mut kernel_devices = HashSet::new();
    let mut gpu_correlations = HashSet::new();
    let mut starts: HashMap<u64, usize> = HashMap::new();
    let mut finishes: HashMap<u64, usize> = HashMap::new();
    for e in events {
        match e["ph"].as_str() {
            Some("X") => {
                for key in ["ts", "dur", "name", "cat", "pid", "tid"] {
                    assert!(!e[key].is_null(), "{what}: an event without {key}: {e}");
                }
                let cat = e["cat"].as_str().expect("cat").to_owned();
                if GPU_CATS.contains(&cat.as_str()) {
                    let args = &e["args"];
                    for key in ["device", "stream", "correlation"] {
                        assert!(args[key].is_u64(), "{what}: GPU work without args.{key}: {e}");
                    }
                    assert_eq!(e["pid"], args["device"], "{what}: GPU work's pid is its device: {e}");
                    assert_eq!(e["tid"], args["stream"], "{what}: GPU work's tid is its stream: {e}");
                    gpu_correlations.insert(args["correlation"].as_u64().unwrap());
                    if cat == "kernel" {
                        kernel_devices.insert(e["pid"].as_u64().unwrap());
                    }
                    if cat == "gpu_memcpy" {
                        assert!(e["name"].as_str().unwrap().starts_with("Memcpy"), "{what}: {e}");
                    }
                    if cat == "gpu_memset" {
                        assert!(e["name"].as_str().unwrap().starts_with("Memset"), "{what}: {e}");
                    }
                } else if HOST_CATS.contains(&cat.as_str()) {
                    // HTA takes any event with an integer stream and correlation for GPU work.
                    assert!(
                        !e["args"]["stream"].is_i64(),
                        "{what}: a host event with an integer stream: {e}"
                    );
                }
                if cat == "cuda_runtime" || cat == "cuda_driver" {
                    assert!(
                        e["args"]["correlation"].is_u64(),
                        "{what}: an API call without correlation: {e}"
                    );
                }
                *by_cat.entry(cat).or_insert(0) += 1;
            }
            Some("s") => {
                assert_eq!(e["cat"], "ac2g", "{what}: {e}");
                *starts.entry(e["id"].as_u64().expect("flow id")).or_default() += 1;
            }
            Some("f") => {
                assert_eq!(e["cat"], "ac2g", "{what}: {e}");
                assert_eq!(e["bp"], "e", "{what}: a flow end binds to its enclosing slice: {e}");
                *finishes.entry(e["id"].as_u64().expect("flow id")).or_default() += 1;
            }
            Some("i") => {
                // Instant markers (MSTX marks, roctx marks).
                for key in ["ts", "name", "cat", "pid", "tid"] {
                    assert!(!e[key].is_null(), "{what}: an instant without {key}: {e}");
                }
                *instants.entry(e["cat"].as_str().expect("cat").to_owned()).or_insert(0) += 1;
            }
            Some("M") => {}
            other => panic!("{what}: an event of phase {other:?}: {e}"),
        }
    }
    assert_eq!(starts, finishes, "{what}: every arrow has both ends");
    for id in finishes.keys() {
        assert!(gpu_correlations.contains(id), "{what}: an arrow to no GPU work (correlation {id})");
    }
    let flows = starts.values().sum();
    Checked { doc, by_cat, instants, flows, rank, kernel_devices }
}
