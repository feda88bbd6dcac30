//! Our own reader of the tracers' columnar files, for machines without pyarrow or Perfetto's Python
//! package: what each file holds, as one JSON line per file.
//!
//! ```sh
//! trace_counts rank0.parquet rank0.pftrace
//! ```
//!
//! - `.parquet`: rows per family (`kernel`, `memcpy`, ...) read back with this crate's reader, the
//!   footer's rows per family, and `accelprof.device_properties` / `accelprof.library_versions` as written.
//! - `.pftrace` / `.perfetto-trace`: slices per category, and `gpu_kernel_slices`: slice begins of category
//!   `kernel` on a track under a `GPU <n>` device track (decoded with this crate's prost messages).
//!
//! Exits 1 when a file cannot be read.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::ExitCode;

use accelprof_core::Family;
use accelprof_export::perfetto::protos::TrackEventType;
use accelprof_export::perfetto::{read_perfetto, TraceSummary};
use parquet::file::reader::{FileReader, SerializedFileReader};
use serde_json::{json, Value};

fn parquet(path: &Path) -> Result<Value, String> {
    let trace = accelprof_export::parquet::read_parquet(path).map_err(|e| e.to_string())?;
    let rows: BTreeMap<&str, u64> = Family::ALL
        .iter()
        .map(|f| (f.name(), trace.batch.len_of(*f) as u64))
        .filter(|(_, n)| *n > 0)
        .collect();
    let reader = SerializedFileReader::new(std::fs::File::open(path).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let footer: BTreeMap<String, String> = (reader.metadata().file_metadata().key_value_metadata())
        .into_iter()
        .flatten()
        .map(|kv| (kv.key.clone(), kv.value.clone().unwrap_or_default()))
        .collect();
    let parsed = |key: &str| {
        footer.get(key).and_then(|v| serde_json::from_str::<Value>(v).ok()).unwrap_or(Value::Null)
    };
    Ok(json!({
        "format": "parquet",
        "kernels": rows.get("kernel").copied().unwrap_or(0),
        "rows": rows,
        "footer_rows": parsed("accelprof.rows"),
        "row_groups": trace.row_groups,
        "rank": trace.meta.rank,
        "device_properties": parsed("accelprof.device_properties"),
        "library_versions": parsed("accelprof.library_versions"),
        "clock": parsed("accelprof.clock"),
    }))
}

fn perfetto(path: &Path) -> Result<Value, String> {
    let trace = read_perfetto(path).map_err(|e| e.to_string())?;
    let summary = TraceSummary::of(&trace);
    // Tracks under a device track named `GPU <n>`; kernel slices on them.
    let mut parent: HashMap<u64, (Option<u64>, String)> = HashMap::new();
    for p in &trace.packet {
        if let Some(t) = &p.track_descriptor {
            parent.insert(t.uuid.unwrap_or(0), (t.parent_uuid, t.name.clone().unwrap_or_default()));
        }
    }
    let on_gpu = |mut track: u64| {
        for _ in 0..16 {
            let Some((up, name)) = parent.get(&track) else { return false };
            if name.strip_prefix("GPU ").is_some_and(|n| n.parse::<u32>().is_ok()) {
                return true;
            }
            match up {
                Some(up) => track = *up,
                None => return false,
            }
        }
        false
    };
    let mut categories: HashMap<(u32, u64), String> = HashMap::new();
    let mut gpu_kernels = 0u64;
    for p in &trace.packet {
        let seq = p.trusted_packet_sequence_id.unwrap_or(0);
        if let Some(i) = &p.interned_data {
            for c in &i.event_categories {
                categories.insert((seq, c.iid.unwrap_or(0)), c.name.clone().unwrap_or_default());
            }
        }
        let Some(e) = &p.track_event else { continue };
        let kernel =
            e.category_iids.first().and_then(|c| categories.get(&(seq, *c))).is_some_and(|c| c == "kernel");
        if kernel && e.r#type() == TrackEventType::SliceBegin && on_gpu(e.track_uuid.unwrap_or(0)) {
            gpu_kernels += 1;
        }
    }
    Ok(json!({
        "format": "perfetto",
        "kernels": summary.events("kernel"),
        "gpu_kernel_slices": gpu_kernels,
        "by_category": summary.events_by_category,
        "unbalanced": summary.unbalanced,
        "unresolved": summary.unresolved,
        "linked_flows": summary.linked_flows,
    }))
}

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: trace_counts FILE.parquet|FILE.pftrace ...");
        return ExitCode::from(2);
    }
    let mut failed = false;
    for file in files {
        let path = Path::new(&file);
        let read = if file.ends_with(".parquet") { parquet(path) } else { perfetto(path) };
        match read {
            Ok(mut v) => {
                v["file"] = Value::from(file.as_str());
                println!("{v}");
            }
            Err(e) => {
                println!("{}", json!({"file": file, "error": e}));
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
