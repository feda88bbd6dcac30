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
    let status = Command::new(env!("CARGO"))
        .arg("build")
        .args(release.then_some("--release"))
        .args([
            "--quiet",
            "--example",
            "rocprofiler_tool_buffered_tracing",
            "--example",
            "rocprofiler_tool_two_gpu_counting",
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
