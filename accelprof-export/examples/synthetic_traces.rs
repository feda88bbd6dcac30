//! Writes synthetic traces of a training job, one rank per file in each format:
//! `DIR/rank<N>.parquet`, `DIR/rank<N>.pftrace` and `DIR/rank<N>.json` (Chrome JSON, Kineto's conventions),
//! all from the same batches.
//!
//! ```text
//! cargo run -p accelprof-export --example synthetic_traces -- DIR [--ranks 4] [--steps 10] [--kernels 50]
//!     [--quantum-ns 1] [--batch-rows 8192] [--slow RANK:FACTOR] [--no-json] [--no-driver-calls]
//! ```

use std::path::PathBuf;

use accelprof_export::parquet::{ParquetOptions, ParquetWriter};
use accelprof_export::perfetto::{PerfettoOptions, PerfettoWriter};
use accelprof_export::synthetic::{SyntheticRank, API_DOMAIN_DRIVER};
use accelprof_export::trace::{Categories, ChromeTrace, TraceMeta};
use accelprof_export::RunMeta;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: synthetic_traces DIR [options]")?);
    let (mut ranks, mut steps, mut kernels, mut quantum, mut batch_rows) =
        (4u32, 10u32, 50u32, 1u64, 8192usize);
    let mut nested_driver_calls = true;
    let mut slow: Vec<(u32, f64)> = Vec::new();
    let mut json = true;
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--ranks" => ranks = value()?.parse()?,
            "--steps" => steps = value()?.parse()?,
            "--kernels" => kernels = value()?.parse()?,
            "--quantum-ns" => quantum = value()?.parse()?,
            "--batch-rows" => batch_rows = value()?.parse()?,
            "--slow" => {
                let v = value()?;
                let (r, f) = v.split_once(':').ok_or("--slow RANK:FACTOR")?;
                slow.push((r.parse()?, f.parse()?));
            }
            "--no-json" => json = false,
            "--no-driver-calls" => nested_driver_calls = false,
            other => return Err(format!("unknown option {other}").into()),
        }
    }
    std::fs::create_dir_all(&dir)?;
    for rank in 0..ranks {
        let mut spec = SyntheticRank::new(rank, ranks, steps, kernels);
        spec.time_quantum_ns = quantum;
        spec.batch_rows = batch_rows;
        spec.nested_driver_calls = nested_driver_calls;
        if let Some((_, f)) = slow.iter().find(|(r, _)| *r == rank) {
            spec.slowdown = *f;
        }
        let meta = spec.meta();
        let mut parquet =
            ParquetWriter::create(dir.join(format!("rank{rank}.parquet")), &meta, ParquetOptions::default())?;
        let mut perfetto =
            PerfettoWriter::create(dir.join(format!("rank{rank}.pftrace")), &meta, perfetto_options())?;
        let mut chrome = json.then(|| ChromeTrace::new(trace_meta(&meta)));
        let time = meta.clock.time_map();
        let mut failed = None;
        let rows = spec.run(|batch, names| {
            if failed.is_some() {
                return;
            }
            if let Err(e) =
                parquet.write_batch(batch, names).and_then(|()| perfetto.write_batch(batch, names))
            {
                failed = Some(e);
            }
            if let Some(c) = chrome.as_mut() {
                c.add_batch(batch, names, &time);
            }
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
        let p = parquet.finish()?;
        let f = perfetto.finish()?;
        if let Some(c) = chrome {
            c.write_to(dir.join(format!("rank{rank}.json")))?;
        }
        println!(
            "rank {rank}: {} rows, {} kernels; parquet {} bytes, perfetto {} bytes",
            rows.iter().sum::<u64>(),
            rows[0],
            p.bytes,
            f.bytes
        );
    }
    Ok(())
}

/// CUPTI's categories (driver calls are `cuda_driver`), as the tracer writes them.
fn categories() -> Categories {
    Categories::default().with_api_domain(API_DOMAIN_DRIVER, "cuda_driver")
}

fn perfetto_options() -> PerfettoOptions {
    PerfettoOptions { categories: categories(), ..PerfettoOptions::default() }
}

/// The JSON trace's metadata from the run's (zero at the clock anchor's Unix time).
fn trace_meta(meta: &RunMeta) -> TraceMeta {
    TraceMeta {
        base_time_unix_ns: meta.clock.unix_ns,
        rank: meta.rank,
        world_size: meta.world_size,
        backend: meta.backend.clone(),
        device_properties: meta.device_properties.clone(),
        trace_name: meta.trace_name.clone(),
        categories: categories(),
        ..TraceMeta::default()
    }
}
