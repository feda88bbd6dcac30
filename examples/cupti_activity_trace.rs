//! Collects activity records of a small CUDA workload and prints, from the decoded columns, the record
//! counts per kind and the kernels that took the most time.
//!
//! ```text
//! cargo run --example cupti_activity_trace
//! ```
//!
//! On a machine with an NVIDIA GPU it runs real CUDA work through cudarc under the real `libcupti`
//! (found as `cupti::Cupti::load` describes; `CUPTI_LIBRARY_PATH` picks one). Elsewhere the mock
//! `libcupti` plays a training-step-like loop. Exits with status 1 if a record was lost or nothing was
//! recorded.

#[path = "cupti_callback_common/mod.rs"]
mod common;

#[path = "cupti_activity_common/mod.rs"]
mod activity_common;

use std::collections::HashMap;

use accelprof_core::{FamilySet, NameId};
use cupti::activity::{ActivityConfig, ActivityKind, ActivitySession};
use cupti::decode::{API_DOMAIN_DRIVER, API_DOMAIN_RUNTIME};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let setup = common::setup();
    let config = ActivityConfig {
        kinds: [
            ActivityKind::CONCURRENT_KERNEL,
            ActivityKind::MEMCPY,
            ActivityKind::MEMSET,
            ActivityKind::RUNTIME,
            ActivityKind::DRIVER,
            ActivityKind::SYNCHRONIZATION,
            ActivityKind::MEMORY,
        ]
        .into_iter()
        .collect(),
        device_sync: activity_common::device_sync(&setup),
        ..ActivityConfig::default()
    };
    let session = ActivitySession::new(setup.cupti, config)?;
    let rows = session.collect(FamilySet::all());
    session.start()?;

    activity_common::run(&setup, 16)?;

    let fence = session.fence()?;
    let batch = rows.take();
    let names = session.names();
    let clock = session.clock();

    println!("records per kind (fence: {fence:?})");
    let runtime = batch.api_calls.domain().iter().filter(|d| **d == API_DOMAIN_RUNTIME).count();
    let driver = batch.api_calls.domain().iter().filter(|d| **d == API_DOMAIN_DRIVER).count();
    for (kind, n) in [
        ("kernel", batch.kernels.len()),
        ("memcpy", batch.memcpys.len()),
        ("memset", batch.memsets.len()),
        ("runtime", runtime),
        ("driver", driver),
        ("synchronization", batch.syncs.len()),
        ("memory", batch.memory.len()),
    ] {
        println!("  {kind:<16} {n:>8}");
    }

    // Time per kernel name, straight from the columns.
    let mut per_kernel: HashMap<NameId, (u64, u64)> = HashMap::new();
    let k = &batch.kernels;
    for ((start, end), name) in k.start().iter().zip(k.end()).zip(k.name()) {
        let e = per_kernel.entry(*name).or_default();
        e.0 += 1;
        e.1 += end.saturating_sub(*start);
    }
    let mut ranked: Vec<_> = per_kernel.into_iter().collect();
    ranked.sort_by_key(|(_, (_, total))| std::cmp::Reverse(*total));
    println!("\ntop kernels by total time");
    println!("  {:>12}  {:>6}  {:>10}  kernel", "total (us)", "calls", "avg (us)");
    for (name, (calls, total)) in ranked.iter().take(10) {
        println!(
            "  {:>12.3}  {calls:>6}  {:>10.3}  {}",
            *total as f64 / 1e3,
            *total as f64 / *calls as f64 / 1e3,
            names.resolve(*name)
        );
    }
    if let (Some(first), Some(last)) = (k.start().iter().min(), k.end().iter().max()) {
        println!(
            "\nkernels ran from {} to {} (Unix ns; CUPTI clock is CLOCK_REALTIME: {})",
            clock.to_unix_ns(*first),
            clock.to_unix_ns(*last),
            clock.is_realtime
        );
    }

    let counts = session.stop()?;
    let p = counts.pipeline;
    println!(
        "\n{} records delivered, {} dropped ({} by CUPTI, {} buffers declined, {} skipped), {} buffers completed",
        p.records_delivered,
        p.records_dropped(),
        p.vendor_dropped,
        p.buffers_declined,
        p.skipped_unknown,
        p.buffers_completed
    );
    if batch.kernels.is_empty() || p.records_dropped() > 0 {
        std::process::exit(1);
    }
    Ok(())
}
