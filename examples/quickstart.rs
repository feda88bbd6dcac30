//! Quickstart: trace a small workload with the vendor-neutral tracer, print the per-kernel summary
//! and the record counts, write `trace.json`.
//!
//! ```text
//! cargo run --example quickstart                         # whatever the machine has, else the mock libcupti
//! cargo run --example quickstart -- --vendor mspti       # MSPTI: the real libmspti.so if found, else the mock
//! cargo run --example quickstart -- --vendor rocprofiler # rocprofiler-sdk (the mock plays a HIP program)
//! cargo run --example quickstart -- --ranks 2            # two processes, rank 0 and 1: trace_0.json, trace_1.json
//! ```
//!
//! With an NVIDIA GPU and its driver, the real `libcupti` traces real CUDA work (run through
//! cudarc); on an Ascend machine the real `libmspti.so` traces an ACL program's calls. Elsewhere the
//! bundled mock of the vendor's library plays the same kind of program (`accelprof-mocks`), so the
//! command works anywhere. Open `trace.json` in Perfetto (ui.perfetto.dev) or chrome://tracing, or
//! analyse it with HolisticTraceAnalysis: it follows PyTorch profiler's conventions.
//!
//! Options: `--vendor auto|cupti|mspti|rocprofiler`, `--mock` (the mock even where a real library
//! is found), `--output PATH` (`%r` = rank), `--steps N`, `--top N`, `--ranks N`, `--verbose`, `--help`.

#[cfg(any(feature = "cupti", feature = "mspti", feature = "rocprofiler"))]
#[path = "quickstart_work/mod.rs"]
mod work;

use std::process::ExitCode;

#[cfg(not(any(feature = "cupti", feature = "mspti", feature = "rocprofiler")))]
fn main() -> ExitCode {
    eprintln!("this build of accel-profiling has no vendor: enable the cupti, mspti or rocprofiler feature");
    ExitCode::FAILURE
}

#[cfg(any(feature = "cupti", feature = "mspti", feature = "rocprofiler"))]
fn main() -> ExitCode {
    let args = match work::Args::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}\n{}", work::USAGE);
            return ExitCode::from(2);
        }
    };
    if args.help {
        println!("{}\n{}", work::USAGE, work::HELP);
        return ExitCode::SUCCESS;
    }
    if let Some(ranks) = args.ranks {
        return work::ranks::run(ranks, &args);
    }
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Traces the workload; `Ok(false)` when the trace is not complete.
#[cfg(any(feature = "cupti", feature = "mspti", feature = "rocprofiler"))]
fn run(args: &work::Args) -> Result<bool, Box<dyn std::error::Error>> {
    // Which library, and which program plays on it: the real one where the machine has it.
    use accel_profiling::{Distributed, Tracer, TracerConfig};

    let plan = work::Plan::choose(args)?;
    let config = TracerConfig {
        vendor: plan.vendor(),
        library: plan.library(),
        outputs: vec![args.output().into()],
        synchronize: plan.synchronize(),
        ..TracerConfig::default()
    };
    // MSPTI: restarts this program with libmspti.so preloaded (this call then does not return).
    Tracer::prepare_process(&config)?;
    let workload = plan.workload(Distributed::from_env()?)?;

    let tracer = Tracer::new(config)?;
    let played = if plan.is_mock() { ", the bundled mock" } else { "" };
    println!("Tracing with {}{played}", tracer.library());
    tracer.start()?;
    workload.run(args.steps, tracer.distributed())?;
    let report = tracer.stop();

    print!("{}", report.render(args.top));
    for trace in report.traces.iter().filter_map(|t| t.result.as_ref().ok()) {
        println!("{}", how_to_open(&trace.path));
    }
    Ok(report.is_complete())
}

#[cfg(any(feature = "cupti", feature = "mspti", feature = "rocprofiler"))]
/// What opens a trace of this format: Perfetto's UI reads Chrome JSON (gzipped too) and Perfetto's own
/// protobuf, `chrome://tracing` the JSON only, and neither reads Parquet (the analysis does).
fn how_to_open(path: &std::path::Path) -> String {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let shown = path.display();
    if name.ends_with(".parquet") {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
        format!(
            "analyse {shown} with `accelprof analyze {}`, or read it with pyarrow or DuckDB",
            dir.display()
        )
    } else if name.ends_with(".pftrace") || name.ends_with(".perfetto-trace") {
        format!("open {shown} in https://ui.perfetto.dev")
    } else {
        format!("open {shown} in https://ui.perfetto.dev or chrome://tracing")
    }
}
