//! A rocprofiler tool that reads hardware counters per kernel dispatch: before each kernel is
//! enqueued it chooses the counters (here: for dispatches of at least 8192 work-items; smaller
//! ones are declined), and the values come back through a buffer as counter rows (one per
//! dispatch and counter, the counter's dimension instances summed). The SDK writes them into the
//! buffer later, on its own counting thread; they are all there once the SDK has stopped the
//! tool's contexts at exit, and the table is printed at finalization.
//!
//! As a tool: build as a cdylib (see `rocprofiler_common`) and set `ROCP_TOOL_LIBRARIES`.
//! Here: `cargo run --example rocprofiler_counter_collection`.

// Built as a cdylib, `main` and the runtime stand-in go unused.
#![allow(dead_code)]

mod rocprofiler_common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rocprofiler::{BufferConfig, BufferKind, Configurator, CounterConfigs, FamilySet, Result, Tool};

const COUNTERS: &[&str] = &["SQ_WAVES", "SQ_INSTS_VALU", "GRBM_GUI_ACTIVE"];

struct CounterCollector {
    /// (correlation, counter, value) rows, and kernel names by correlation.
    rows: Arc<Mutex<Vec<(u64, String, f64)>>>,
    kernels: Arc<Mutex<HashMap<u64, String>>>,
}

impl Tool for CounterCollector {
    const NAME: &'static str = "counter-collection";

    fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
        let sdk = cfg.rocprofiler();
        for gpu in sdk.gpus()? {
            let names: Vec<String> = sdk.counters(gpu.id)?.into_iter().map(|c| c.name).collect();
            println!(
                "GPU {} ({}): {} counters, e.g. {:?}",
                gpu.type_index,
                gpu.name,
                names.len(),
                &names[..3]
            );
        }
        let ctx = cfg.create_context()?;
        let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
        // Kernel names for the report (kernel dispatch records carry the launch's correlation).
        cfg.buffer_tracing(&ctx, BufferKind::KERNEL_DISPATCH, &[], &buffer)?;
        // Counter configs are made lazily, per agent, inside the dispatch callback (on a real
        // machine HSA is loaded only then), each only ever used for its own agent.
        let configs = CounterConfigs::by_name(COUNTERS);
        cfg.dispatch_counting_buffered(&ctx, &buffer, move |req| {
            if req.info().grid[0] < 8192 {
                return; // decline: nothing collected (the dispatch is still serialized)
            }
            if let Err(e) = req.collect(&configs) {
                eprintln!("no counter config for agent {}: {e}", req.agent().0);
            }
        })?;
        let rows: Arc<Mutex<Vec<(u64, String, f64)>>> = Arc::default();
        let kernels: Arc<Mutex<HashMap<u64, String>>> = Arc::default();
        let (r, k) = (rows.clone(), kernels.clone());
        buffer.subscribe(FamilySet::COUNTER | FamilySet::KERNEL, move |batch, names| {
            for c in batch.counters.rows() {
                r.lock().unwrap().push((c.correlation, names.resolve(c.counter).to_string(), c.value));
            }
            for kr in batch.kernels.rows() {
                k.lock().unwrap().insert(kr.correlation, names.resolve(kr.name).to_string());
            }
        });
        ctx.start()?;
        Ok(CounterCollector { rows, kernels })
    }

    fn finalize(&mut self) {
        let kernels = self.kernels.lock().unwrap();
        println!("{:<12} {:<12} {:<16} {:>12}", "correlation", "kernel", "counter", "value");
        for (corr, counter, value) in self.rows.lock().unwrap().iter() {
            let kernel = kernels.get(corr).map_or("?", String::as_str);
            println!("{corr:<12} {kernel:<12} {counter:<16} {value:>12}");
        }
    }
}

rocprofiler::export_tool!(CounterCollector);

fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let runtime = rocprofiler_common::MockRuntime::open()?;
    runtime.start_tool::<CounterCollector>()?;
    runtime.workload(&[0]);
    runtime.shutdown();
    Ok(())
}
