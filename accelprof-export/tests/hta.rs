//! Traces we write load in HolisticTraceAnalysis as released (0.5.0 with pandas 3), and HTA sees every
//! kernel and links it to its launch.
//!
//! Needs a Python with HTA: `HTA_PYTHON=/path/to/python` (default `python3`). Without one the test says so
//! and passes, unless `HTA_REQUIRED=1` (CI sets it after `pip install HolisticTraceAnalysis psutil`).

use std::path::{Path, PathBuf};
use std::process::Command;

use accelprof_core::columns::{ApiRow, Batch, KernelRow, MemcpyRow};
use accelprof_core::intern::Interner;
use accelprof_export::trace::{recover, ChromeTraceWriter, RunMeta, TimeMap};

const BASE: u64 = 1_700_000_000_000_000_000;

fn script() -> PathBuf {
    PathBuf::from(accelprof_mocks::hta::CHECK_TRACES_SCRIPT)
}

/// The Python that has HTA, or `None` (and why) when there is none.
fn hta_python() -> Result<String, String> {
    let python = std::env::var("HTA_PYTHON").unwrap_or_else(|_| "python3".into());
    match Command::new(&python).args(["-c", "import hta.trace_analysis"]).output() {
        Ok(out) if out.status.success() => Ok(python),
        Ok(out) => Err(format!("{python} cannot import hta: {}", String::from_utf8_lossy(&out.stderr))),
        Err(e) => Err(format!("cannot run {python}: {e}")),
    }
}

/// `n` launches from correlation `first`, each with a kernel (10 us) or, every 10th, a copy (3 us);
/// `streams` streams. (HTA rounds times to whole microseconds: sub-microsecond work upsets its
/// breakdowns' own consistency checks, on Kineto's traces too.)
fn workload(names: &mut Interner, first: u64, n: u64, streams: u64) -> Batch {
    let launch = names.intern("cudaLaunchKernel");
    let copy = names.intern("cudaMemcpyAsync");
    let kernels = [names.intern("void gemm<2ul>(float*)"), names.intern("triton_poi_fused_add_0")];
    let mut b = Batch::new();
    for c in first..first + n {
        let t = BASE + (c - first) * 20_000;
        let is_copy = c % 10 == 0;
        b.api_calls.push(ApiRow {
            start: t,
            end: t + 500,
            process: 77,
            thread: 5,
            correlation: c,
            domain: 1,
            cbid: if is_copy { 41 } else { 211 },
            name: if is_copy { copy } else { launch },
        });
        let stream = 7 + c % streams;
        if is_copy {
            b.memcpys.push(MemcpyRow {
                start: t + 2_000,
                end: t + 5_000,
                stream,
                correlation: c,
                bytes: 4096,
                ..Default::default()
            });
        } else {
            b.kernels.push(KernelRow {
                start: t + 2_000,
                end: t + 12_000,
                stream,
                correlation: c,
                name: kernels[(c % 2) as usize],
                ..Default::default()
            });
        }
    }
    b
}

/// Writes a trace of `n` launches from `first` into `dir/name` in batches of 4,096; its kernel count.
fn write(dir: &Path, name: &str, first: u64, n: u64) -> u64 {
    std::fs::create_dir_all(dir).unwrap();
    let mut names = Interner::new();
    let meta = RunMeta { start_unix_ns: BASE, ..Default::default() };
    let mut writer = ChromeTraceWriter::create(dir.join(name), meta).unwrap();
    writer.add_process_name(77, "python train.py").unwrap();
    let mut kernels = 0;
    let mut c = first;
    while c < first + n {
        let chunk = (first + n - c).min(4_096);
        let batch = workload(&mut names, c, chunk, 2);
        kernels += batch.kernels.len() as u64;
        writer.add_batch(&batch, &names.names(), &TimeMap::IDENTITY).unwrap();
        c += chunk;
    }
    writer.finish(None).unwrap();
    kernels
}

fn run_hta(python: &str, cases: &[(PathBuf, u64, i64)]) -> (bool, String) {
    let mut cmd = Command::new(python);
    cmd.arg(script());
    for (dir, kernels, linked) in cases {
        cmd.arg(dir).arg(kernels.to_string()).arg(linked.to_string());
    }
    let out = cmd.output().expect("python runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn hta_loads_our_traces_and_links_every_kernel() {
    let python = match hta_python() {
        Ok(python) => python,
        Err(why) if std::env::var_os("HTA_REQUIRED").is_none() => {
            eprintln!("skipped: {why} (set HTA_PYTHON, or HTA_REQUIRED=1 to make this a failure)");
            return;
        }
        Err(why) => panic!("HTA_REQUIRED is set: {why}"),
    };
    let root = std::env::temp_dir().join(format!("accelprof-export-hta-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let mut cases = Vec::new();
    // Ids below 128 but 400 events (pandas: int8 ids, int16 row indexes).
    let k = write(&root.join("small"), "small.json", 1, 100);
    cases.push((root.join("small"), k, k as i64));
    // The reported case: more than 32,767 events, every id below 32,768; gzip.
    let k = write(&root.join("dense"), "dense.json.gz", 1, 12_000);
    cases.push((root.join("dense"), k, k as i64));
    // Ids wider than the event count (as in Kineto's traces): no guard event needed.
    let k = write(&root.join("wide"), "wide.json", 5_000_000, 3_000);
    cases.push((root.join("wide"), k, k as i64));
    // A trace recovered after its writer died mid-write.
    let torn = root.join("torn");
    std::fs::create_dir_all(&torn).unwrap();
    {
        let mut names = Interner::new();
        let meta = RunMeta { start_unix_ns: BASE, ..Default::default() };
        let mut writer = ChromeTraceWriter::create(torn.join("t.json.gz"), meta).unwrap();
        writer.add_batch(&workload(&mut names, 1, 300, 2), &names.names(), &TimeMap::IDENTITY).unwrap();
        writer.sync().unwrap();
        let partial = writer.partial_path().to_path_buf();
        let whole = std::fs::metadata(&partial).unwrap().len();
        writer.add_batch(&workload(&mut names, 301, 300, 2), &names.names(), &TimeMap::IDENTITY).unwrap();
        drop(writer);
        let grown = std::fs::metadata(&partial).unwrap().len();
        std::fs::OpenOptions::new().write(true).open(&partial).unwrap().set_len((whole + grown) / 2).unwrap();
        recover(&partial, None).unwrap();
    }
    cases.push((torn, 270, -1));
    let (ok, text) = run_hta(&python, &cases[..3]);
    assert!(ok, "HTA on our traces:\n{text}");
    eprintln!("{text}");

    // The control: the small trace without its guard event crashes HTA 0.5 + pandas 3 (if this starts
    // passing, HTA was fixed and the guard can go).
    let bare = root.join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    let text_small = std::fs::read_to_string(root.join("small/small.json")).unwrap();
    let without: String = text_small
        .lines()
        .filter(|l| !l.contains("\"trace_span\""))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replacen("},\n  ]", "}\n  ]", 1);
    serde_json::from_str::<serde_json::Value>(&without).expect("still valid JSON without the guard");
    std::fs::write(bare.join("bare.json"), without).unwrap();
    let (ok, text) = run_hta(&python, &[(bare, cases[0].1, cases[0].2)]);
    assert!(!ok && text.contains("Invalid value"), "HTA without the guard:\n{text}");

    // The recovered trace: loads, and HTA counts the kernels it kept.
    let (ok, text) = run_hta(&python, &[(cases[3].0.clone(), 0, -1)]);
    assert!(text.contains("\"kernels\": "), "HTA on the recovered trace:\n{text}");
    let kernels: u64 = text
        .lines()
        .find_map(|l| {
            serde_json::from_str::<serde_json::Value>(l).ok().filter(|v| v.get("kernels").is_some())
        })
        .and_then(|v| v["kernels"].as_u64())
        .unwrap();
    assert!(
        !ok && (270..540).contains(&kernels),
        "the first chunk's kernels and some of the second: {kernels}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
