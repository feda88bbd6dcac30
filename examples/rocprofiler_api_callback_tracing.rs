//! A rocprofiler tool that traces HIP runtime calls and roctx markers as they happen, timing
//! each call with the per-call slot (ENTER stores the time, EXIT reads it back).
//!
//! As a tool (see `rocprofiler_common` for building it as a shared library):
//! `ROCP_TOOL_LIBRARIES=.../librocprofiler_api_callback_tracing.so ./hip_program`.
//! Here: `cargo run --example rocprofiler_api_callback_tracing` (plays the runtime on the mock).

// Built as a cdylib, `main` and the runtime stand-in go unused.
#![allow(dead_code)]

mod rocprofiler_common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rocprofiler::{CallbackDomain, Configurator, Result, Rocprofiler, Tool};

/// Calls per operation name: (count, total ns).
type Totals = Arc<Mutex<BTreeMap<String, (u64, u64)>>>;

struct ApiTracer {
    totals: Totals,
}

impl Tool for ApiTracer {
    const NAME: &'static str = "api-callback-tracing";

    fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
        let sdk: &'static Rocprofiler = cfg.rocprofiler();
        let ctx = cfg.create_context()?;
        let totals: Totals = Arc::default();
        let t = totals.clone();
        cfg.callback_tracing(&ctx, CallbackDomain::HIP_RUNTIME_API, &[], move |rec| {
            let now = sdk.timestamp().unwrap_or(0);
            if rec.is_enter() {
                rec.correlation_slot().set(now);
                return;
            }
            let took = now.saturating_sub(rec.correlation_slot().get());
            let name = rec.function_name().unwrap_or("?").to_string();
            println!(
                "[tid {}] {name} took {took} ns (correlation {})",
                rec.thread_id(),
                rec.correlation().internal
            );
            let mut t = t.lock().unwrap();
            let e = t.entry(name).or_default();
            e.0 += 1;
            e.1 += took;
        })?;
        cfg.callback_tracing(&ctx, CallbackDomain::MARKER_CORE_API, &[], |rec| {
            if rec.is_enter() {
                match rec.marker_message() {
                    Some(m) => {
                        println!("[tid {}] {} \"{m}\"", rec.thread_id(), rec.function_name().unwrap_or("?"))
                    }
                    None => println!("[tid {}] {}", rec.thread_id(), rec.function_name().unwrap_or("?")),
                }
            }
        })?;
        ctx.start()?;
        Ok(ApiTracer { totals })
    }

    fn finalize(&mut self) {
        println!("\n{:<24} {:>6} {:>12}", "HIP call", "calls", "total ns");
        for (name, (n, ns)) in self.totals.lock().unwrap().iter() {
            println!("{name:<24} {n:>6} {ns:>12}");
        }
    }
}

rocprofiler::export_tool!(ApiTracer);

fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let runtime = rocprofiler_common::MockRuntime::open()?;
    runtime.start_tool::<ApiTracer>()?;
    runtime.workload(&[0]);
    runtime.shutdown();
    Ok(())
}
