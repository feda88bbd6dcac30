//! A rocprofiler tool that records kernels, copies, HIP calls and roctx ranges with an activity
//! session (a context, its buffer and the buffer-tracing services, made in the configure window):
//! the SDK's records are decoded off its thread into column batches (the same columns the CUPTI
//! and MSPTI crates produce), and summarized at the end. Records arrive in completion order,
//! not time order; every row carries its own start and end.
//!
//! As a tool: build as a cdylib (see `rocprofiler_common`) and set `ROCP_TOOL_LIBRARIES`.
//! Here: `cargo run --example rocprofiler_buffered_tracing`.

// Built as a cdylib, `main` and the runtime stand-in go unused.
#![allow(dead_code)]

mod rocprofiler_common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rocprofiler::{ActivityConfig, ActivitySession, BufferKind, Configurator, FamilySet, Result, Tool};

#[derive(Default)]
struct Summary {
    /// Per kernel name: (launches, total ns, devices seen).
    kernels: BTreeMap<String, (u64, u64, Vec<u32>)>,
    copies: (u64, u64),
    api_calls: BTreeMap<String, u64>,
    ranges: Vec<String>,
}

struct BufferedTracer {
    session: ActivitySession,
    summary: Arc<Mutex<Summary>>,
}

impl Tool for BufferedTracer {
    const NAME: &'static str = "buffered-tracing";

    fn setup(cfg: &mut Configurator<'_>) -> Result<Self> {
        let kinds = [
            BufferKind::KERNEL_DISPATCH,
            BufferKind::MEMORY_COPY,
            BufferKind::HIP_RUNTIME_API,
            BufferKind::MARKER_CORE_API,
        ];
        let session = cfg
            .activity_session(ActivityConfig { kinds: kinds.into_iter().collect(), ..Default::default() })?;
        let summary: Arc<Mutex<Summary>> = Arc::default();
        let s = summary.clone();
        session.subscribe(FamilySet::all(), move |batch, names| {
            let mut s = s.lock().unwrap();
            for k in batch.kernels.rows() {
                let e = s.kernels.entry(names.resolve(k.name).to_string()).or_default();
                e.0 += 1;
                e.1 += k.end - k.start;
                if !e.2.contains(&k.device) {
                    e.2.push(k.device);
                }
            }
            for c in batch.memcpys.rows() {
                s.copies.0 += 1;
                s.copies.1 += c.bytes;
            }
            for a in batch.api_calls.rows() {
                *s.api_calls.entry(names.resolve(a.name).to_string()).or_default() += 1;
            }
            for m in batch.markers.rows() {
                s.ranges.push(names.resolve(m.name).to_string());
            }
        });
        session.start()?;
        Ok(BufferedTracer { session, summary })
    }

    fn finalize(&mut self) {
        // The session's buffer was flushed before this runs: everything is in the summary.
        let s = self.summary.lock().unwrap();
        println!("{:<16} {:>8} {:>12}  devices", "kernel", "launches", "total ns");
        for (name, (n, ns, dev)) in &s.kernels {
            println!("{name:<16} {n:>8} {ns:>12}  {dev:?}");
        }
        println!("copies: {} ({} bytes)", s.copies.0, s.copies.1);
        println!("HIP calls: {:?}", s.api_calls);
        println!("roctx: {:?}", s.ranges);
        let c = self.session.counts();
        println!(
            "records: produced {}, delivered {}, dropped {}",
            c.records_produced(),
            c.records_delivered(),
            c.records_dropped()
        );
    }
}

rocprofiler::export_tool!(BufferedTracer);

fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    let runtime = rocprofiler_common::MockRuntime::open()?;
    runtime.start_tool::<BufferedTracer>()?;
    runtime.workload(&[0, 1]);
    runtime.shutdown();
    Ok(())
}
