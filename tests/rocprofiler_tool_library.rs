//! The examples as tool libraries, the way ROCm loads them: a runtime (the stand-in example, on
//! the mock SDK) with `ROCP_TOOL_LIBRARIES` naming the cdylibs; each tool's exported
//! `rocprofiler_configure` runs and its crate reuses the process's SDK.

use std::path::PathBuf;
use std::process::Command;

fn examples_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().join("examples")
}

/// Builds the tool libraries and the runtime stand-in (a no-op when `cargo test` built them),
/// with the profile this test was built with.
fn build() {
    let release = examples_dir().parent().and_then(|p| p.file_name()).is_some_and(|n| n == "release");
    // `--workspace`: the feature sets `cargo test --workspace` built, so that this is a no-op there
    // (one package alone unifies other features and compiles the mocks and this crate again).
    let status = Command::new(env!("CARGO"))
        .arg("build")
        .args(release.then_some("--release"))
        .args([
            "--quiet",
            "--workspace",
            "--example",
            "rocprofiler_tool_buffered_tracing",
            "--example",
            "rocprofiler_tool_two_gpu_counting",
            "--example",
            "rocprofiler_tool_foreign_kernel_count",
            "--example",
            "rocprofiler_runtime_stand_in",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo");
    assert!(status.success());
}

fn run_stand_in(tools: &str) -> String {
    let out = Command::new(examples_dir().join("rocprofiler_runtime_stand_in"))
        .env("ROCP_TOOL_LIBRARIES", tools)
        .output()
        .expect("run the runtime stand-in");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{text}");
    text
}

#[test]
fn tool_libraries_named_by_rocp_tool_libraries_are_configured_and_finalized() {
    build();
    let dir = examples_dir();
    let buffered = dir.join("librocprofiler_tool_buffered_tracing.so");
    let two_gpu = dir.join("librocprofiler_tool_two_gpu_counting.so");

    let one = run_stand_in(&buffered.to_string_lossy());
    assert!(one.contains("records: produced 36, delivered 36, dropped 0"), "{one}");
    assert!(one.contains("hipLaunchKernel\": 12"), "{one}");

    // Two tools: the SDK ignores what follows the last ':', so the list ends with one.
    let both = run_stand_in(&format!("{}:{}:", buffered.display(), two_gpu.display()));
    assert!(both.contains("records: produced 36"), "{both}");
    assert_eq!(both.matches("context 0 (GPU").count(), 6, "{both}");
    assert_eq!(both.matches("context 1 (GPU").count(), 6, "{both}");

    // Without the trailing ':' the second library is never loaded (the real SDK's parsing).
    let first_only = run_stand_in(&format!("{}:{}", buffered.display(), two_gpu.display()));
    assert!(first_only.contains("records: produced 36"), "{first_only}");
    assert!(!first_only.contains("context 0 (GPU"), "{first_only}");
}

/// Issue 23: rocprofiler-sdk lets several tools register; ours neither breaks nor is broken by
/// another vendor's tool library (here one on the SDK's C API only, as rocprofv3 is). In either
/// order both get every kernel of the workload (12), each through its own client id, priority,
/// context and buffer, and ours accounts for every record.
#[test]
fn another_tool_library_next_to_ours_both_get_every_kernel() {
    build();
    let dir = examples_dir();
    let ours = dir.join("librocprofiler_tool_buffered_tracing.so");
    let foreign = dir.join("librocprofiler_tool_foreign_kernel_count.so");
    for (first, second, foreign_priority) in [(&ours, &foreign, 1), (&foreign, &ours, 0)] {
        let out = run_stand_in(&format!("{}:{}:", first.display(), second.display()));
        assert!(out.contains(&format!("priority {foreign_priority}): 12 kernels")), "{out}");
        assert!(out.contains("records: produced 36, delivered 36, dropped 0"), "{out}");
        let launches: u64 = out
            .lines()
            .filter(|l| l.starts_with("vector_add") || l.starts_with("reduce_sum"))
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum();
        assert_eq!(launches, 12, "ours saw every kernel too:\n{out}");
    }
}
