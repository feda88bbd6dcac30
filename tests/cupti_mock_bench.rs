//! The GPU benchmark (`gpu/bench_tracer.py`) run against the mock libcupti, so that a broken script is
//! found here and not on the GPU machine: fresh processes per mode, our tracer injected (started by the
//! child itself, since the mock has no driver to do it), the floor library when it can be built, the
//! kernels of each workload's timed steps picked out of our trace by the marker kernels.
//!
//! Skipped (with a message) without `python3`; the floor is left out without `gcc` or the CUPTI headers
//! that `accelprof-bindgen/regen-cupti.sh` unpacks.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `libaccelprof_inject.so` of this build, the engine's CUDA door: next to the test binaries (where a
/// build of the workspace's tests puts it: `accelprof` depends on it), else in the profile's directory.
/// Not a dev-dependency: accelprof-inject depends on this package, and the cycle would build two of it.
fn tracer() -> PathBuf {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let candidates = [deps.join("libaccelprof_inject.so"), deps.join("../libaccelprof_inject.so")];
    let found = candidates.iter().find(|p| p.is_file());
    found.cloned().unwrap_or_else(|| {
        panic!(
            "no libaccelprof_inject.so in {candidates:?}: build it first (cargo build -p accelprof-inject)"
        )
    })
}

fn have(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The floor library built with gcc against the unpacked 13.0 headers, if both are here.
fn floor(dir: &Path) -> Option<PathBuf> {
    let include = root().join(".vendor/cupti/cu13/nvidia/cu13/include");
    if !have("gcc") || !include.join("cupti.h").exists() {
        println!("floor left out: needs gcc and the headers accelprof-bindgen/regen-cupti.sh unpacks");
        return None;
    }
    let out = dir.join("libcount_records.so");
    let status = Command::new("gcc")
        .args(["-O2", "-shared", "-fPIC", "-Wall", "-Werror"])
        .arg(format!("-I{}", include.display()))
        .arg("-o")
        .arg(&out)
        .arg(root().join("benches/c/count_records.c"))
        .args(["-ldl", "-lpthread"])
        .status()
        .expect("gcc runs");
    assert!(status.success(), "benches/c/count_records.c builds");
    Some(out)
}

#[test]
fn the_gpu_benchmark_runs_against_the_mock() {
    // The benchmark is a Python script: a machine without python3 cannot run it, and the test says so
    // by failing (a skip would count as a pass).
    assert!(have("python3"), "python3 is needed to run gpu/bench_tracer.py");
    let dir = std::env::temp_dir().join(format!("bench_tracer_test_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let floor = floor(&dir);
    let modes = if floor.is_some() { "untraced,ours,floor" } else { "untraced,ours" };
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("gpu/bench_tracer.py"))
        .args(["--backend", "mock", "--mock-lib", accelprof_mocks::cupti::LIBRARY])
        .arg("--tracer")
        .arg(tracer())
        .args(["--modes", modes, "--rounds", "2", "--min-rounds", "2", "--steps", "3", "--warmup", "1"])
        .args(["--memory-kernels", "20000", "--rss-every", "0.05"])
        .arg("--out")
        .arg(&dir);
    if let Some(f) = &floor {
        cmd.arg("--floor").arg(f);
    }
    let output = cmd.output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("tracer benchmark (mock)"), "the table is printed last: {stdout}");

    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("bench_results.json")).unwrap()).unwrap();
    let r = &results["results"];
    assert_eq!(r["rounds"], 2);
    // Every kernel of the timed steps is in our trace: 3 steps of each workload of gpu/bench_workloads.py.
    for (workload, kernels) in [("transformer", 600), ("graphs", 1500), ("streams", 120), ("tiny", 3 * 505)] {
        assert_eq!(
            r["names"][workload]["ours_kernels_in_steps"], kernels,
            "{workload}: {}",
            r["names"][workload]
        );
        assert!(r["workloads"][workload]["ours"]["median_step_ms"].as_f64().unwrap() > 0.0);
    }
    let ours = &r["records"]["ours"];
    assert_eq!(ours["records_dropped"], 0, "{ours}");
    if floor.is_some() {
        // The floor enables the same kinds and filter: it counts the records we deliver.
        let floor = &r["records"]["floor"];
        assert_eq!(floor["records"], ours["records_delivered"], "floor {floor}\nours {ours}");
        assert_eq!(floor["by_kind"]["10"], ours["rows"]["kernel"]);
    }
    let memory = &r["memory"]["ours"];
    assert_eq!(memory["kernels"], 20000);
    assert!(memory["summary"]["kernel_records"].as_u64().unwrap() >= 20000, "{memory}");
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert!(files <= 8, "at most 8 files come back from the GPU machine: {files}");
    let _ = std::fs::remove_dir_all(&dir);
}
