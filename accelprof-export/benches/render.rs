//! Rendering Chrome trace JSON: events per second of the renderer next to a plain write of the same
//! bytes to a file, and next to gzip level 1 of them (what the writer's thread does for `.json.gz`), in
//! one run.
//!
//! The batch is shaped like a PyTorch trace: each launch is a runtime call (`cudaLaunchKernel`), its
//! kernel (24 long templated names) and the flow arrow between them; every 8th launch is a copy. The
//! ratio printed at the end is `render events/s / write events/s` (medians of 21 alternating rounds; goal:
//! at least 0.5, i.e. rendering costs at most twice writing the bytes it produces).
//!
//! `cargo bench -p accelprof-export --bench render` (add `-- --quick` for a short run).

use std::fs::File;
use std::hint::black_box;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

use accelprof_core::columns::{ApiRow, Batch, CopyKind, KernelRow, MemcpyRow, MemoryKind};
use accelprof_core::intern::{Interner, NameId};
use accelprof_export::trace::{Categories, ChromeTrace, RunMeta, Style, TimeMap};
use criterion::{Criterion, Throughput};

/// Launches per batch (the tracer's default batch is 65,536 rows: a launch and its kernel are 2).
const LAUNCHES: u64 = 32_768;
const BASE: u64 = 1_700_000_000_000_000_000;

/// The names of the batches: 24 kernels, and the launch and copy calls.
struct Ids {
    kernels: Vec<NameId>,
    launch: NameId,
    copy: NameId,
}

fn ids(names: &mut Interner) -> Ids {
    let bases = [
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)",
        "ampere_sgemm_128x64_tn",
        "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
        "triton_poi_fused_add_mul_0",
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
    ];
    let kernels: Vec<_> = (0..24).map(|i| names.intern(&format!("{}_{i}", bases[i % bases.len()]))).collect();
    let (launch, copy) = (names.intern("cudaLaunchKernel"), names.intern("cudaMemcpyAsync"));
    Ids { kernels, launch, copy }
}

/// One batch; `round` shifts its correlation ids past every earlier batch's (each launch gets its arrow).
fn batch(ids: &Ids, round: u64) -> Batch {
    let Ids { kernels, launch, copy } = ids;
    let (launch, copy) = (*launch, *copy);
    let mut b = Batch::new();
    for i in 0..LAUNCHES {
        let (t, c) = (BASE + i * 3_000, 1_000_000 + round * LAUNCHES + i);
        let is_copy = i % 8 == 7;
        b.api_calls.push(ApiRow {
            start: t,
            end: t + 2_100,
            process: 4242,
            thread: 4243,
            correlation: c,
            domain: 1,
            cbid: if is_copy { 41 } else { 211 },
            name: if is_copy { copy } else { launch },
        });
        if is_copy {
            b.memcpys.push(MemcpyRow {
                start: t + 2_500,
                end: t + 4_000,
                device: 0,
                context: 1,
                stream: 7,
                correlation: c,
                bytes: 1 << 20,
                copy_kind: CopyKind::HTOD,
                src_kind: MemoryKind::PINNED,
                dst_kind: MemoryKind::DEVICE,
                is_async: true,
            });
        } else {
            b.kernels.push(KernelRow {
                start: t + 2_500,
                end: t + 9_700,
                device: 0,
                context: 1,
                stream: 7 + i % 2,
                correlation: c,
                grid_x: 1024,
                grid_y: 1,
                grid_z: 1,
                block_x: 256,
                block_y: 1,
                block_z: 1,
                shared_memory: 0,
                registers: 32,
                name: kernels[(i as usize * 7) % kernels.len()],
            });
        }
    }
    b
}

/// A trace that renders and hands its bytes out (the renderer's state, names and flows, carries over).
fn trace() -> ChromeTrace {
    let style =
        Style { categories: Categories::default().with_api_domain(2, "cuda_driver"), ..Style::default() };
    ChromeTrace::with_style(RunMeta { start_unix_ns: BASE, ..RunMeta::default() }, style)
}

fn render(trace: &mut ChromeTrace, batch: &Batch, names: &Interner, out: &mut Vec<u8>) {
    trace.add_batch(batch, &names.names(), &TimeMap::IDENTITY);
    trace.take_event_bytes(out);
}

fn gzip(bytes: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut encoder = flate2::write::GzEncoder::new(std::mem::take(out), flate2::Compression::new(1));
    encoder.write_all(bytes).unwrap();
    *out = encoder.finish().unwrap();
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn timed(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

fn main() {
    let mut names = Interner::new();
    let ids = ids(&mut names);
    let round = std::cell::Cell::new(0u64);
    let next = || {
        round.set(round.get() + 1);
        batch(&ids, round.get())
    };
    let first = next();
    let mut trace = trace();
    let mut bytes = Vec::new();
    render(&mut trace, &first, &names, &mut bytes);
    // Events per batch: 2 rows and 2 flow ends per launch (every batch has new ids: every arrow is drawn).
    let events = LAUNCHES * 4;
    let dir = std::env::temp_dir().join(format!("accelprof-export-render-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = File::create(dir.join("events.json")).unwrap();
    let mut compressed = Vec::new();

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("render");
    group.throughput(Throughput::Elements(events));
    group.bench_function("render batch", |b| {
        b.iter_batched(
            &next,
            |batch| render(&mut trace, black_box(&batch), &names, &mut bytes),
            criterion::BatchSize::LargeInput,
        )
    });
    group.bench_function("write the same bytes", |b| {
        b.iter(|| file.write_all_at(black_box(&bytes), 0).unwrap())
    });
    group.bench_function("gzip -1 the same bytes", |b| b.iter(|| gzip(black_box(&bytes), &mut compressed)));
    group.finish();
    c.final_summary();

    let (mut r, mut w, mut z) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..21 {
        let batch = next();
        r.push(timed(|| render(&mut trace, &batch, &names, &mut bytes)));
        w.push(timed(|| file.write_all_at(&bytes, 0).unwrap()));
        z.push(timed(|| gzip(&bytes, &mut compressed)));
    }
    let (r, w, z) = (median(r), median(w), median(z));
    let rate = |d: Duration| events as f64 / d.as_secs_f64() / 1e6;
    println!(
        "\nrender vs write of the same bytes ({events} events, {:.1} MB of JSON per batch, {:.0} bytes/event; medians of 21 alternating rounds):",
        bytes.len() as f64 / 1e6,
        bytes.len() as f64 / events as f64
    );
    println!(
        "  render          {:>8.2} M events/s  ({:.0} ns/event)",
        rate(r),
        r.as_nanos() as f64 / events as f64
    );
    println!("  write           {:>8.2} M events/s", rate(w));
    println!(
        "  gzip level 1    {:>8.2} M events/s  ({:.1}x smaller)",
        rate(z),
        bytes.len() as f64 / compressed.len() as f64
    );
    println!("  ratio render / write {:.2} (goal >= 0.5)", w.as_secs_f64() / r.as_secs_f64());

    // End to end: the streaming writer (render on this thread; gzip members on the writer's threads, in
    // parallel; the file written behind a bounded queue), 8 batches then finish, medians of 5 runs.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("\nstreaming writer, 8 batches of {events} events then finish ({cores} cores; medians of 5):");
    for name in ["stream.json", "stream.json.gz"] {
        let mut runs = Vec::new();
        let mut on_caller = Vec::new();
        for _ in 0..5 {
            let path = dir.join(name);
            let mut writer = accelprof_export::trace::ChromeTraceWriter::create(
                &path,
                RunMeta { start_unix_ns: BASE, ..RunMeta::default() },
            )
            .unwrap();
            let batches: Vec<Batch> = (0..8).map(|_| next()).collect();
            let begun = Instant::now();
            let mut caller = Duration::ZERO;
            for b in &batches {
                let t = Instant::now();
                writer.add_batch(b, &names.names(), &TimeMap::IDENTITY).unwrap();
                caller += t.elapsed();
            }
            writer.finish(None).unwrap();
            runs.push(begun.elapsed());
            on_caller.push(caller);
        }
        let (total, caller) = (median(runs), median(on_caller));
        println!(
            "  {name:<15} {:>7.2} M events/s to disk; the caller's share {:.0} ns/event",
            8.0 * events as f64 / total.as_secs_f64() / 1e6,
            caller.as_nanos() as f64 / (8 * events) as f64
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
