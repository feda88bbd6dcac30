//! Two contexts counting at the same time on two GPUs: each context's dispatch counting service
//! is restricted to one GPU with `set_agents` (disjoint sets may be active together; two
//! unrestricted counting contexts conflict), and dispatches on other GPUs are neither
//! instrumented nor serialized. Results arrive through the callback form, on the SDK's counting
//! thread, some time after each kernel completed (at the latest when the SDK stops the contexts
//! at exit); they are printed at finalization.
//!
//! No released rocprofiler-sdk has `set_agents` yet (it is in an open pull request): on such an
//! SDK the example says so and falls back to one context counting on every GPU, collecting on
//! the first two and declining the others (which are still serialized).
//!
//! As a tool: build as a cdylib (see `rocprofiler_common`) and set `ROCP_TOOL_LIBRARIES`.
//! Here: `cargo run --example rocprofiler_two_gpu_counting`.

// Built as a cdylib, `main` and the runtime stand-in go unused.
#![allow(dead_code)]

mod rocprofiler_common;

use std::sync::{Arc, Mutex};

use rocprofiler::{
    AgentId, Configurator, Context, CounterConfigs, CountingResult, Error, Result, Rocprofiler, Tool,
};

const COUNTERS: &[&str] = &["SQ_WAVES", "GRBM_GUI_ACTIVE"];

struct TwoGpuCounting {
    contexts: Vec<Context>,
    results: Arc<Mutex<Vec<String>>>,
}

/// One line per result: each counter's value summed over its dimension instances.
fn line(sdk: &Rocprofiler, context: usize, res: &CountingResult) -> String {
    let mut counters: Vec<_> = res.values.iter().map(|v| v.counter).collect();
    counters.dedup();
    let values: Vec<String> = counters
        .iter()
        .map(|&c| {
            let name = sdk.counter_info(c).map(|i| i.name).unwrap_or_else(|_| format!("counter {}", c.0));
            format!("{name}={}", res.total(c).unwrap_or_default())
        })
        .collect();
    format!(
        "context {context} (GPU {}): dispatch {} grid {:?} -> [{}]",
        res.info.agent.0,
        res.info.dispatch_id,
        res.info.grid,
        values.join(", ")
    )
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
        let chosen: Vec<AgentId> = gpus.iter().take(2).map(|g| g.id).collect();
        if sdk.has_per_agent_scoping() {
            for (i, gpu) in chosen.iter().enumerate() {
                let ctx = cfg.create_context()?;
                // Each GPU's config is made when its first dispatch asks (HSA is loaded then).
                let configs = CounterConfigs::by_name(COUNTERS);
                let out = results.clone();
                cfg.dispatch_counting_callback(
                    &ctx,
                    move |req| {
                        if let Err(e) = req.collect(&configs) {
                            eprintln!("two-gpu-counting: no counter config for agent {}: {e}", req.agent().0);
                        }
                    },
                    move |res| out.lock().unwrap().push(line(sdk, i, res)),
                )?;
                // Without this, the second context's start would fail with CONTEXT_CONFLICT.
                ctx.set_counting_agents(&[*gpu])?;
                contexts.push(ctx);
            }
        } else {
            eprintln!(
                "two-gpu-counting: this rocprofiler-sdk has no per-agent scoping (set_agents is in no \
                 release yet): one context counts on every GPU and collects on the first two"
            );
            let ctx = cfg.create_context()?;
            let configs = CounterConfigs::by_name(COUNTERS);
            let out = results.clone();
            let collected = chosen.clone();
            cfg.dispatch_counting_callback(
                &ctx,
                move |req| {
                    if collected.contains(&req.agent()) {
                        if let Err(e) = req.collect(&configs) {
                            eprintln!("two-gpu-counting: no counter config for agent {}: {e}", req.agent().0);
                        }
                    }
                },
                move |res| {
                    let i = chosen.iter().position(|g| *g == res.info.agent).unwrap_or(0);
                    out.lock().unwrap().push(line(sdk, i, res));
                },
            )?;
            contexts.push(ctx);
        }
        for ctx in &contexts {
            ctx.start()?;
        }
        Ok(TwoGpuCounting { contexts, results })
    }

    fn finalize(&mut self) {
        // The SDK stopped the contexts before this runs: every result was delivered.
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
