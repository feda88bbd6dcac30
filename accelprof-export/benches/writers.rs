//! Bytes per event and write throughput of Parquet and Perfetto next to our JSON trace (`ChromeTrace`), in one
//! run: the same synthetic batches (generated before timing) written by each, in alternating rounds; medians
//! and ratios to JSON from the same run.
//!
//! ```text
//! cargo bench -p accelprof-export --bench writers -- [--rows 2000000] [--rounds 7]
//! ```

use std::path::Path;
use std::time::Instant;

use accelprof_core::{Batch, Names};
use accelprof_export::parquet::{ParquetOptions, ParquetWriter};
use accelprof_export::perfetto::{PerfettoOptions, PerfettoWriter};
use accelprof_export::synthetic::{SyntheticRank, API_DOMAIN_DRIVER};
use accelprof_export::trace::{Categories, ChromeTrace, Style};
use accelprof_export::RunMeta;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Format {
    Json,
    Parquet,
    Perfetto,
    PerfettoNoArgs,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Json => "JSON (ChromeTrace)",
            Format::Parquet => "Parquet (snappy)",
            Format::Perfetto => "Perfetto",
            Format::PerfettoNoArgs => "Perfetto, no args",
        }
    }
}

fn categories() -> Categories {
    Categories::default().with_api_domain(API_DOMAIN_DRIVER, "cuda_driver")
}

/// Writes every batch in `format` to `path`; returns seconds and bytes.
fn write(format: Format, batches: &[Batch], names: &Names, meta: &RunMeta, path: &Path) -> (f64, u64) {
    let t = Instant::now();
    match format {
        Format::Json => {
            let style = Style { categories: categories(), ..Style::default() };
            let mut trace = ChromeTrace::with_style(
                RunMeta { start_unix_ns: meta.clock.unix_ns, ..RunMeta::default() },
                style,
            );
            let time = meta.clock.time_map();
            for b in batches {
                trace.add_batch(b, names, &time);
            }
            trace.write_to(path).unwrap();
        }
        Format::Parquet => {
            let mut w = ParquetWriter::create(path, meta, ParquetOptions::default()).unwrap();
            for b in batches {
                w.write_batch(b, names).unwrap();
            }
            w.finish().unwrap();
        }
        Format::Perfetto | Format::PerfettoNoArgs => {
            let options = PerfettoOptions {
                categories: categories(),
                args: format == Format::Perfetto,
                ..PerfettoOptions::default()
            };
            let mut w = PerfettoWriter::create(path, meta, options).unwrap();
            for b in batches {
                w.write_batch(b, names).unwrap();
            }
            w.finish().unwrap();
        }
    }
    let secs = t.elapsed().as_secs_f64();
    (secs, std::fs::metadata(path).unwrap().len())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut rows = 2_000_000u64;
    let mut rounds = 7usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rows" => rows = args.next().unwrap().parse().unwrap(),
            "--rounds" => rounds = args.next().unwrap().parse().unwrap(),
            _ => {} // cargo bench passes --bench
        }
    }
    let kernels = 200;
    let spec = SyntheticRank::new(0, 1, SyntheticRank::steps_for_rows(rows, kernels), kernels);
    let meta = spec.meta();
    let mut batches = Vec::new();
    let mut names = None;
    spec.run(|b, n| {
        batches.push(b.clone());
        names = Some(n.clone());
    });
    let names = names.unwrap();
    let events: u64 = batches.iter().map(|b| b.len() as u64).sum();
    let kernel_rows: u64 = batches.iter().map(|b| b.kernels.len() as u64).sum();
    let dir = std::env::temp_dir().join(format!("accelprof-bench-writers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    let formats = [Format::Json, Format::Parquet, Format::Perfetto, Format::PerfettoNoArgs];
    let mut secs: Vec<Vec<f64>> = vec![Vec::new(); formats.len()];
    let mut bytes = vec![0u64; formats.len()];
    for round in 0..rounds {
        // Alternate the order each round.
        let order: Vec<usize> =
            if round % 2 == 0 { (0..formats.len()).collect() } else { (0..formats.len()).rev().collect() };
        for i in order {
            let path = dir.join(format!("trace.{i}"));
            let (s, b) = write(formats[i], &batches, &names, &meta, &path);
            secs[i].push(s);
            bytes[i] = b;
            std::fs::remove_file(&path).unwrap();
        }
    }
    let _ = std::fs::remove_dir_all(&dir);

    println!(
        "{events} events ({kernel_rows} kernels, the rest API calls, copies, sets, steps) in {} batches; \
         {rounds} alternating rounds, medians",
        batches.len()
    );
    println!(
        "{:<20} {:>14} {:>10} {:>12} {:>14} {:>12}",
        "format", "bytes", "B/event", "vs JSON", "Mevents/s", "vs JSON"
    );
    let json_secs = median(secs[0].clone());
    for (i, f) in formats.iter().enumerate() {
        let s = median(secs[i].clone());
        println!(
            "{:<20} {:>14} {:>10.1} {:>11.1}x {:>14.2} {:>11.2}x",
            f.name(),
            bytes[i],
            bytes[i] as f64 / events as f64,
            bytes[0] as f64 / bytes[i] as f64,
            events as f64 / s / 1e6,
            json_secs / s
        );
    }
    println!("(\"vs JSON\": how many times smaller, how many times faster)");
}
