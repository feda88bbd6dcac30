//! Two contexts counting at the same time on two GPUs: each context's dispatch counting service
//! is restricted to one GPU with `set_agents` (disjoint sets may be active together; two
//! unrestricted counting contexts conflict), and dispatches on other GPUs are neither
//! instrumented nor serialized. Results arrive through the callback form.
//!
//! As a tool: build as a cdylib (see `rocprofiler_common`) and set `ROCP_TOOL_LIBRARIES`.
//! Here: `cargo run --example rocprofiler_two_gpu_counting`.

// Built as a cdylib, `main` and the runtime stand-in go unused.
#![allow(dead_code)]

mod rocprofiler_common;

use std::sync::{Arc, Mutex};

use rocprofiler::{Configurator, Context, Error, Result, Tool};

struct TwoGpuCounting {
    contexts: Vec<Context>,
    results: Arc<Mutex<Vec<String>>>,
}

impl Tool for TwoGpuCounting {
    const NAME: &'static str = "two-gpu-counting";

    fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
        let sdk = cfg.rocprofiler();
        let gpus = sdk.gpus()?;
        if gpus.len() < 2 {
            eprintln!("two-gpu-counting: needs two GPUs, found {}", gpus.len());
            return Err(Error::AgentNotFound);
        }
        let results: Arc<Mutex<Vec<String>>> = Arc::default();
        let mut contexts = Vec::new();
        for (i, gpu) in gpus.iter().take(2).enumerate() {
            let ctx = cfg.create_context()?;
            let config = sdk.counter_config_by_name(gpu.id, &["SQ_WAVES", "GRBM_GUI_ACTIVE"])?;
            let out = results.clone();
            cfg.dispatch_counting_callback(
                &ctx,
                move |req| req.collect(config),
                move |res| {
                    let values: Vec<String> = res.values.iter().map(|v| format!("{}", v.value)).collect();
                    out.lock().unwrap().push(format!(
                        "context {i} (GPU {}): dispatch {} grid {:?} -> [{}]",
                        res.info.agent.0,
                        res.info.dispatch_id,
                        res.info.grid,
                        values.join(", ")
                    ));
                },
            )?;
            // Without this, the second context's start would fail with CONTEXT_CONFLICT.
            ctx.set_counting_agents(&[gpu.id])?;
            contexts.push(ctx);
        }
        for ctx in &contexts {
            ctx.start()?;
        }
        Ok(TwoGpuCounting { contexts, results })
    }

    fn finalize(&mut self) {
        for line in self.results.lock().unwrap().iter() {
            println!("{line}");
        }
    }
}

rocprofiler::export_tool!(TwoGpuCounting);

fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let runtime = rocprofiler_common::MockRuntime::open()?;
    runtime.start_tool::<TwoGpuCounting>()?;
    // Kernels on GPUs 0 and 1 are counted by one context each; GPU 2 is left alone.
    runtime.workload(&[0, 1, 2]);
    runtime.shutdown();
    Ok(())
}
