//! The quickstart (built by `cargo test` with the examples) run as a user runs it, on each vendor's
//! mock (`--mock`: the same on a machine that has a real library), alone and as a job of two ranks.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::trace;

/// The quickstart of this build: built by `cargo test` with the examples, and by this function
/// when only this test is run (`cargo test --test quickstart` builds no example).
fn quickstart() -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let deps = std::env::current_exe().expect("test binary");
    let profile = deps.parent().and_then(|d| d.parent()).expect("target/<profile>").to_path_buf();
    BUILT.call_once(|| {
        let release = profile.file_name().is_some_and(|n| n == "release");
        // `--workspace`: the feature sets `cargo test --workspace` built, so that this is a no-op there
        // (one package alone unifies other features and compiles the mocks and this crate again).
        let status = Command::new(env!("CARGO"))
            .args(["build", "--quiet", "--workspace", "--example", "quickstart"])
            .args(release.then_some("--release"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("run cargo");
        assert!(status.success(), "cargo build --example quickstart");
    });
    let exe = profile.join("examples/quickstart");
    assert!(exe.exists(), "{} is built", exe.display());
    exe
}

/// Runs the quickstart in `dir` with `args`; its stdout.
fn run(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(quickstart())
        .args(args)
        .current_dir(dir)
        .env_remove("LD_PRELOAD")
        .env_remove("RANK")
        .env_remove("WORLD_SIZE")
        .env_remove("LOCAL_RANK")
        .env_remove("MSPTI_RS_REEXECED")
        .env_remove("ACCEL_QUICKSTART_MOCK")
        .output()
        .expect("run the quickstart");
    let text = support::output_text(&out);
    assert!(out.status.success(), "quickstart {args:?} failed:\n{text}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `--help` printed a line and the usage on stderr and exited 2, as a mistake does.
#[test]
fn quickstart_help_is_printed_with_success() {
    for flag in ["--help", "-h"] {
        let out = Command::new(quickstart()).arg(flag).output().expect("run the quickstart");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{flag}: {}", support::output_text(&out));
        assert!(stdout.contains("usage: quickstart") && stdout.contains("--ranks N"), "{stdout}");
        assert!(!stdout.contains("Tracing with"), "{flag}: it traced: {stdout}");
    }
    let out = Command::new(quickstart()).arg("--bogus").output().expect("run the quickstart");
    assert_eq!(out.status.code(), Some(2), "a mistake is still one");
}

/// The `P` of `records: P produced = D delivered + 0 dropped (...)[ + F filtered out]`, checked: nothing
/// dropped, and every record produced delivered or left out by the API filter (CUPTI's default filter
/// applies while decoding, so the calls it leaves out are produced and counted as filtered).
fn records(out: &str) -> u64 {
    let line =
        out.lines().find(|l| l.starts_with("records: ")).unwrap_or_else(|| panic!("no counts:\n{out}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let count = |w: &str| -> u64 { w.parse().unwrap_or_else(|_| panic!("a count, not {w:?}: {line}")) };
    let (produced, delivered) = (count(words[1]), count(words[4]));
    let filtered = line
        .strip_suffix(" filtered out")
        .map_or(0, |head| count(head.rsplit(' ').next().expect("the filtered count")));
    assert_eq!(produced, delivered + filtered, "{line}");
    assert!(line.contains(" + 0 dropped"), "{line}");
    produced
}

/// Checks the quickstart's output and trace on one mock: `kernels` kernel launches in the table and
/// the trace, the counts adding up.
fn check(vendor: &str, steps: usize, kernels: usize) {
    let dir = support::temp_dir(&format!("quickstart-{vendor}"));
    let steps_arg = steps.to_string();
    let out = run(dir.path(), &["--vendor", vendor, "--mock", "--steps", &steps_arg]);
    assert!(out.contains("Running on the bundled mock"), "{out}");
    assert!(out.contains(", the bundled mock\n"), "{out}");
    assert!(out.contains("  kernel\n"), "the kernel table: {out}");
    assert!(out.contains(&format!("{kernels} kernel launches")), "{out}");
    let produced = records(&out);
    assert!(out.contains("open trace.json in https://ui.perfetto.dev"), "{out}");
    let trace = trace::check(&dir.join("trace.json"));
    assert_eq!(trace.count("kernel"), kernels, "{vendor}: {:?}", trace.by_cat);
    assert_eq!(trace.doc["vendor"], vendor);
    assert_eq!(trace.doc["traceSummary"]["records_produced"], produced);
    assert!(trace.count("cuda_runtime") > 0 && trace.count("gpu_memcpy") >= steps, "{:?}", trace.by_cat);
    assert!(trace.flows >= kernels, "an arrow from each launch to its kernel: {}", trace.flows);
}

#[test]
fn quickstart_on_the_cupti_mock() {
    // 4 GEMMs, 4 element-wise kernels and a softmax per step.
    check("cupti", 3, 27);
}

#[test]
fn quickstart_on_the_mspti_mock() {
    // add_custom and matmul_custom per step.
    check("mspti", 3, 6);
}

#[test]
fn quickstart_on_the_rocprofiler_mock() {
    // vector_add and reduce_sum per step.
    check("rocprofiler", 3, 6);
}

#[test]
fn quickstart_as_two_ranks_writes_a_trace_per_rank() {
    for vendor in ["cupti", "mspti", "rocprofiler"] {
        let dir = support::temp_dir(&format!("quickstart-ranks-{vendor}"));
        let out = run(dir.path(), &["--vendor", vendor, "--mock", "--steps", "2", "--ranks", "2"]);
        for rank in 0..2u64 {
            let prefix = format!("[rank {rank}] ");
            let mine: String =
                out.lines().filter_map(|l| l.strip_prefix(&prefix)).map(|l| format!("{l}\n")).collect();
            records(&mine);
            assert!(mine.contains(&format!("open trace_{rank}.json")), "{vendor}: {out}");
            let trace = trace::check(&dir.join(&format!("trace_{rank}.json")));
            assert_eq!(trace.rank, rank, "{vendor}");
            assert_eq!(trace.doc["distributedInfo"]["world_size"], 2);
            assert_eq!(trace.doc["local_rank"], rank);
            // The CANN stand-ins' driver has one NPU, which both ranks use.
            let device = if vendor == "mspti" { 0 } else { rank };
            assert_eq!(
                trace.kernel_devices,
                [device].into_iter().collect(),
                "{vendor}: each rank on its device"
            );
            if vendor != "mspti" {
                // The played all-reduce kernel of a job of several ranks.
                let nccl = trace
                    .events("kernel")
                    .iter()
                    .filter(|e| e["name"].as_str().unwrap().starts_with("nccl"))
                    .count();
                assert_eq!(nccl, 2, "{vendor}: one all-reduce per step");
            }
        }
        assert!(!dir.join("trace.json").exists(), "no file shared by the ranks");
    }
}

#[test]
fn quickstart_without_arguments_traces_whatever_the_machine_has() {
    let dir = support::temp_dir("quickstart-default");
    let out = run(dir.path(), &["--steps", "2"]);
    assert!(out.contains("Tracing with "), "{out}");
    records(&out);
    let trace = trace::check(&dir.join("trace.json"));
    assert!(trace.count("kernel") > 0, "{:?}", trace.by_cat);
}

/// The Python that has HolisticTraceAnalysis (`HTA_PYTHON`, else `python3`), or why there is none.
fn hta_python() -> Result<String, String> {
    let python = std::env::var("HTA_PYTHON").unwrap_or_else(|_| "python3".into());
    match Command::new(&python).args(["-c", "import hta.trace_analysis"]).output() {
        Ok(out) if out.status.success() => Ok(python),
        Ok(out) => Err(format!("{python} cannot import hta: {}", String::from_utf8_lossy(&out.stderr))),
        Err(e) => Err(format!("cannot run {python}: {e}")),
    }
}

/// HolisticTraceAnalysis, as released, loads the quickstart's trace of each mock, sees every kernel
/// and links each to the call that launched it. Skipped without HTA unless `HTA_REQUIRED=1`.
#[test]
fn holistic_trace_analysis_reads_the_quickstarts_traces() {
    let python = match hta_python() {
        Ok(p) => p,
        Err(why) if std::env::var_os("HTA_REQUIRED").is_some() => panic!("HTA_REQUIRED, but {why}"),
        Err(why) => {
            println!(
                "SKIPPED: {why} (pip install HolisticTraceAnalysis psutil; HTA_PYTHON names the python)"
            );
            return;
        }
    };
    let dir = support::temp_dir("quickstart-hta");
    let mut args = Vec::new();
    for (vendor, kernels) in [("cupti", 27), ("mspti", 6), ("rocprofiler", 6)] {
        let sub = dir.join(vendor);
        std::fs::create_dir_all(&sub).expect("a directory per trace");
        run(&sub, &["--vendor", vendor, "--mock", "--steps", "3"]);
        args.extend([sub.display().to_string(), kernels.to_string(), kernels.to_string()]);
    }
    let out = Command::new(python)
        .arg(accelprof_mocks::hta::CHECK_TRACES_SCRIPT)
        .args(&args)
        .output()
        .expect("run HTA");
    let text = support::output_text(&out);
    println!("{text}");
    assert!(out.status.success(), "HTA on the quickstart's traces:\n{text}");
}

/// A Parquet trace is pointed at the analysis, not at Perfetto's UI or `chrome://tracing`, neither of
/// which reads Parquet.
#[test]
fn a_parquet_trace_is_pointed_at_the_analysis() {
    let dir = support::temp_dir("quickstart-parquet");
    let out = run(dir.path(), &["--vendor", "cupti", "--mock", "--steps", "1", "--output", "q.parquet"]);
    assert!(out.contains("analyse q.parquet with `accelprof analyze .`"), "{out}");
    assert!(!out.contains("perfetto") && !out.contains("chrome://"), "{out}");
    assert!(dir.join("q.parquet").exists());
}
