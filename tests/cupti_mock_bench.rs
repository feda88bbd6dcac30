//! The GPU tracer benchmark (`gpu/bench_tracer.py`) run against the mock libcupti with
//! `libaccelprof_inject.so`, so that a broken script is found here and not on the GPU machine: fresh
//! processes per mode, every workload measured in profiler off/on blocks, our tracer switched by the
//! capture range (started by the child itself, since the mock has no driver to do it), the floor
//! library (with our and with Kineto's CUPTI configuration, and the factor variants) when it can be
//! built, the analysis at the end.
//!
//! The floor needs gcc and the CUPTI 13.0 headers `accelprof-bindgen/regen-cupti.sh` unpacks into
//! `.vendor/cupti`; without them its modes are left out (said on stdout) and the rest still runs.
//! CI checks the floor itself after unpacking them (`gpu/bench_floor_check.py`).

use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// accelprof-inject's library, built in this target directory by the workspace's test run (`cargo test
/// --workspace` builds every member before running any test; the package is not a dependency of this
/// one, which it depends on). Missing: the test fails and says how to build it.
fn library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let candidates =
        [deps.join("libaccelprof_inject.so"), deps.parent().unwrap().join("libaccelprof_inject.so")];
    let found =
        candidates.iter().filter(|p| p.exists()).max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok());
    found.cloned().unwrap_or_else(|| {
        panic!("no libaccelprof_inject.so in {}: build it (cargo build -p accelprof-inject, or cargo test --workspace)", deps.display())
    })
}

fn have(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// A new directory of this process's own (0700; an existing path, a link included, is an error).
fn private_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accelprof-bench-mock-{}-{name}", std::process::id()));
    std::fs::DirBuilder::new().mode(0o700).create(&dir).unwrap();
    dir
}

/// The floor library built with gcc against the unpacked 13.0 headers (both must be here: the test
/// that needs them is ignored by default, and fails, not skips, without them).
fn floor(dir: &Path) -> PathBuf {
    let include = workspace().join(".vendor/cupti/cu13/nvidia/cu13/include");
    assert!(
        have("gcc") && include.join("cupti.h").exists(),
        "the floor needs gcc and the CUPTI 13.0 headers accelprof-bindgen/regen-cupti.sh unpacks into .vendor"
    );
    let out = dir.join("libcount_records.so");
    let status = Command::new("gcc")
        .args(["-O2", "-shared", "-fPIC", "-Wall", "-Wextra", "-Werror"])
        .arg(format!("-I{}", include.display()))
        .arg("-o")
        .arg(&out)
        .arg(workspace().join("benches/c/count_records.c"))
        .args(["-ldl", "-lpthread"])
        .status()
        .expect("gcc runs");
    assert!(status.success(), "benches/c/count_records.c builds");
    out
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Kernels per step of each mock workload (gpu/bench_workloads.py's MockBackend): 200 launches; 500
/// graph-node kernels; 20 x 2 streams; 500 launches and 5 driver launches.
const KERNELS_PER_STEP: [(&str, u64); 7] = [
    ("transformer", 200),
    ("graphs", 500),
    ("streams", 40),
    ("tiny", 505),
    ("resnet", 200),
    ("gpt", 200),
    ("cupy", 40),
];

const SETTLE: u64 = 1;

/// Kernels in a process's on blocks (the settle steps after each switch included).
fn kernels_on(line: &Value) -> u64 {
    let per_step = KERNELS_PER_STEP.iter().find(|(w, _)| *w == line["workload"]).unwrap().1;
    let on = line["blocks"].as_array().unwrap().iter().filter(|b| b["on"] == true);
    on.map(|b| per_step * (SETTLE + b["step_s"].as_array().unwrap().len() as u64)).sum()
}

/// The benchmark's untraced, ours and Kineto-less modes on the mock (every machine).
#[test]
fn the_gpu_benchmark_runs_against_the_mock() {
    run_benchmark("run", false);
}

/// The same with the C floor's modes and the factor variants (CI runs it in the floor's step, once the
/// bindings step has unpacked the CUPTI headers).
#[test]
#[ignore = "needs gcc and the CUPTI 13.0 headers accelprof-bindgen/regen-cupti.sh unpacks into .vendor"]
fn the_gpu_benchmark_with_the_floor_runs_against_the_mock() {
    run_benchmark("floor", true);
}

fn run_benchmark(name: &str, with_floor: bool) {
    // The benchmark is a Python script: a machine without python3 cannot run it, and the test says so
    // by failing (a skip would count as a pass).
    assert!(have("python3"), "python3 is needed to run gpu/bench_tracer.py");
    let dir = private_dir(name);
    let floor = with_floor.then(|| floor(&dir));
    let out = dir.join("out");
    let mut cmd = Command::new("python3");
    cmd.arg(workspace().join("gpu/bench_tracer.py"))
        .args(["--backend", "mock", "--mock-lib", accelprof_mocks::cupti::LIBRARY])
        .arg("--tracer")
        .arg(library())
        .args(["--rounds", "1", "--warmup", "1", "--pairs", "2", "--block-s", "0.01", "--min-steps", "2"])
        .args(["--max-steps", "3"])
        .args(["--settle", &SETTLE.to_string(), "--quiet-s", "0", "--bootstrap", "50", "--pin", "off"])
        .arg("--out")
        .arg(&out);
    if let Some(f) = &floor {
        // The floor with the engine's default configuration (the default modes), with the API filter in
        // CUPTI and with Kineto's configuration (asked for), and the factor group.
        cmd.arg("--floor").arg(f).arg("--factors");
        cmd.args(["--modes", "untraced,ours,floor,floor-cuptifilter,floor-kineto"]);
    }
    for var in ["CUDA_INJECTION64_PATH", "CUPTI_LIBRARY_PATH", "LD_PRELOAD"] {
        cmd.env_remove(var);
    }
    let output = cmd.output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("tracer benchmark (mock"), "the table is printed last: {stdout}");

    let raw = lines(&out.join("raw.jsonl"));
    let processes = lines(&out.join("processes.jsonl"));
    let mut modes = vec!["untraced", "ours"];
    if floor.is_some() {
        modes.extend(["floor", "floor-cuptifilter", "floor-kineto"]);
    }
    for mode in &modes {
        for (workload, _) in KERNELS_PER_STEP {
            let line = raw
                .iter()
                .find(|l| l["group"] == "main" && l["mode"] == *mode && l["workload"] == workload)
                .unwrap_or_else(|| panic!("{mode} {workload}: no line in raw.jsonl"));
            assert!(line.get("error").is_none(), "{line}");
            let blocks = line["blocks"].as_array().unwrap();
            // Off/on, then on/off.
            let order: Vec<bool> = blocks.iter().map(|b| b["on"] == true).collect();
            assert_eq!(order, [false, true, true, false], "{mode} {workload}");
            if mode.starts_with("floor") {
                // Each on block's records, flushed by the switch off: exactly its kernels.
                for b in blocks.iter().filter(|b| b["on"] == true) {
                    let steps = b["record_steps"].as_u64().unwrap();
                    let per_step = KERNELS_PER_STEP.iter().find(|(w, _)| *w == workload).unwrap().1;
                    assert_eq!(
                        b["records"]["by_kind"]["10"].as_u64(),
                        Some(per_step * steps),
                        "{mode} {workload}"
                    );
                    assert_eq!(b["records"]["dropped"], 0);
                }
            }
        }
    }
    // Our tracer collected exactly in the on blocks: one capture window per workload (the two on blocks
    // are adjacent), and the kernels of those blocks, no more, none dropped.
    let ours = processes.iter().find(|p| p["mode"] == "ours").unwrap();
    let summary = &ours["ours"];
    assert_eq!(summary["records_dropped"], 0, "{summary}");
    assert_eq!(summary["collection_windows"], KERNELS_PER_STEP.len(), "{summary}");
    let expected: u64 =
        raw.iter().filter(|l| l["mode"] == "ours" && l["group"] == "main").map(kernels_on).sum();
    assert_eq!(summary["rows"]["kernel"].as_u64(), Some(expected), "{summary}");
    if floor.is_some() {
        // The factor group: the tiny-op loop under Kineto's configuration and each one-change variant;
        // only the API filter changes the records (ours leaves cudaGetLastError and the rest out).
        for mode in ["floor-kineto", "fk-systid", "fk-cupticlock", "fk-timeline", "fk-recycle", "fk-eager"] {
            let line = raw.iter().find(|l| l["group"] == "factors" && l["mode"] == mode).unwrap();
            let on = line["blocks"].as_array().unwrap().iter().find(|b| b["on"] == true).unwrap();
            let steps = on["record_steps"].as_u64().unwrap();
            let runtime = on["records"]["by_kind"]["5"].as_u64().unwrap();
            // Per tiny step: 500 launches after 13 cudaGetDevice, 4 primary-context queries and one
            // cudaGetLastError each, then the step's cudaDeviceSynchronize; Kineto's filter keeps the
            // cudaGetLastError, ours does not.
            let want = if mode == "fk-timeline" { 501 } else { 1001 };
            assert_eq!(runtime, want * steps, "{mode}: {}", on["records"]);
        }
    }
    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench_results.json")).unwrap()).unwrap();
    let tiny = &results["main"]["tiny"];
    // The mock's timings are noise: the figures are there (a ratio is null where its denominator was
    // not above 0), with the records the floor counted.
    assert!(tiny["modes"]["ours"]["added_us"][0].is_number(), "{tiny}");
    if floor.is_some() {
        assert_eq!(tiny["ratios"]["ours/floor"]["within"].as_array().map(Vec::len), Some(3), "{tiny}");
        assert_eq!(tiny["ratios"]["ours/floor-kineto"]["within"].as_array().map(Vec::len), Some(3), "{tiny}");
        // Per tiny step, with the API filter in CUPTI (floor-cuptifilter): 505 kernels; 501 runtime
        // records (the launches and the synchronization); 505 driver records (each launch's nested
        // cuLaunchKernel, and the 5 driver launches). With the engine's default (floor: CUPTI leaves
        // out Kineto's four ids only, the filter applies while decoding): the 500 cudaGetLastError and
        // the synchronization's nested cuCtxSynchronize too.
        let per_step = |mode: &str| tiny["modes"][mode]["records_per_step"].as_f64();
        assert_eq!(per_step("floor-cuptifilter"), Some(1511.0), "{tiny}");
        assert_eq!(per_step("floor"), Some(2012.0), "{tiny}");
        assert_eq!(per_step("floor-kineto"), Some(2012.0), "{tiny}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
