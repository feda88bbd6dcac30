//! The runnable rocprofiler examples against the mock SDK (they play the runtime themselves),
//! with and without `set_agents` (a released SDK has none).

use std::path::PathBuf;
use std::process::Command;

const EXAMPLES: &[&str] = &["rocprofiler_two_gpu_counting", "rocprofiler_counter_collection"];

fn examples_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().join("examples")
}

fn build() {
    let release = examples_dir().parent().and_then(|p| p.file_name()).is_some_and(|n| n == "release");
    // `--workspace`: the feature sets `cargo test --workspace` built, so that this is a no-op there
    // (one package alone unifies other features and compiles the mocks and this crate again).
    let mut cmd = Command::new(env!("CARGO"));
    cmd.arg("build").args(release.then_some("--release")).args(["--quiet", "--workspace"]);
    for e in EXAMPLES {
        cmd.args(["--example", e]);
    }
    let status = cmd.current_dir(env!("CARGO_MANIFEST_DIR")).status().expect("run cargo");
    assert!(status.success());
}

fn run(example: &str, library: Option<&str>) -> String {
    let mut cmd = Command::new(examples_dir().join(example));
    match library {
        Some(l) => cmd.env("ROCPROFILER_LIBRARY_PATH", l),
        None => cmd.env_remove("ROCPROFILER_LIBRARY_PATH"),
    };
    let out = cmd.output().expect("run the example");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{text}");
    text
}

#[test]
fn two_gpu_counting_scopes_per_agent_where_the_sdk_can_and_falls_back_where_it_cannot() {
    build();
    let mock = accelprof_mocks::rocprofiler::MockRocprofiler::open(accelprof_mocks::rocprofiler::LIBRARY)
        .expect("the mock rocprofiler-sdk's controls");
    let gpus: Vec<u64> = (0..3).map(|i| mock.gpu_agent(i)).collect();
    for library in [None, Some(accelprof_mocks::rocprofiler::LIBRARY_MAINLINE)] {
        let out = run("rocprofiler_two_gpu_counting", library);
        let scoped = library.is_none();
        assert_eq!(!scoped, out.contains("no per-agent scoping"), "{out}");
        // The workload launches 6 kernels per GPU; GPUs 0 and 1 are counted, GPU 2 is not.
        assert_eq!(out.matches(&format!("context 0 (GPU {})", gpus[0])).count(), 6, "{out}");
        assert_eq!(out.matches(&format!("context 1 (GPU {})", gpus[1])).count(), 6, "{out}");
        assert!(!out.contains(&format!("(GPU {})", gpus[2])), "{out}");
        // Each counter is one value per dispatch, its dimension instances summed.
        assert!(out.contains("grid [65536, 1, 1] -> [SQ_WAVES=1024, GRBM_GUI_ACTIVE="), "{out}");
    }
}

#[test]
fn counter_collection_reports_every_collected_dispatch_at_finalize() {
    build();
    let out = run("rocprofiler_counter_collection", None);
    // Kernels of at least 8192 work-items: 3 vector_add, 2 of the 3 reduce_sum; 3 counters each.
    let rows: Vec<&str> = out.lines().filter(|l| l.contains("SQ_WAVES") && !l.contains("GPU")).collect();
    assert_eq!(rows.len(), 5, "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("vector_add") && l.contains("SQ_WAVES") && l.trim_end().ends_with(" 1024")),
        "{out}"
    );
}
