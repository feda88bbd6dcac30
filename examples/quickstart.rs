//! Quickstart: trace a small CUDA workload, print the kernel summary, write `trace.json`.
//!
//! ```text
//! cargo run --example quickstart
//! ```
//!
//! With an NVIDIA GPU and its driver, the real `libcupti` traces real CUDA work (run through cudarc).
//! Without one, the bundled mock `libcupti` plays the same kind of program, so the command works
//! anywhere. Open `trace.json` in Perfetto (ui.perfetto.dev) or chrome://tracing, or analyse it with
//! HolisticTraceAnalysis: it follows PyTorch profiler's conventions.
//!
//! The same tracer attaches to any unmodified CUDA program:
//! `CUDA_INJECTION64_PATH=target/release/libcupti_trace.so python train.py`.

#[path = "cupti_callback_common/mod.rs"]
mod common;

#[path = "cupti_activity_common/mod.rs"]
mod activity_common;

use std::path::PathBuf;

use cupti::activity::ActivityConfig;
use cupti_trace::{TraceConfig, Tracer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let setup = common::setup();
    let output = PathBuf::from("trace.json");
    let config = TraceConfig {
        output: Some(output.clone()),
        activity: ActivityConfig {
            device_sync: activity_common::device_sync(&setup),
            ..ActivityConfig::default()
        },
        ..TraceConfig::default()
    };
    let tracer = Tracer::start(setup.cupti, config)?;
    activity_common::run(&setup, 8)?;
    let report = tracer.finish();
    print!("{}", report.render(15, true));
    if let Err(e) = &report.write_result {
        eprintln!("{e}");
        std::process::exit(1);
    }
    println!("open {} in https://ui.perfetto.dev or chrome://tracing", output.display());
    Ok(())
}
