//! Decoding speed: records per second for full buffers of kernel, memcpy and runtime records (and a mix
//! like a real trace: one runtime launch call per kernel), next to a plain `memcpy` of the same bytes in the
//! same run. The ratio printed at the end is `decode records/s / memcpy records/s` (goal: at least 0.5,
//! i.e. decoding a buffer costs at most twice copying it).
//!
//! `cargo bench -p cupti --bench decode` (add `-- --quick` for a short run; `-- --ratios` runs only the
//! alternating rounds and their ratios, without criterion's groups).
//!
//! Each ratio is given with a 95 % bootstrap interval: the per-round ratios (round `i`'s memcpy time
//! over round `i`'s decode time, the two measured back to back) resampled with replacement, the
//! geometric mean of each resample.

use std::ffi::CStr;
use std::hint::black_box;
use std::time::{Duration, Instant};

use std::mem::{offset_of, size_of};

use accelprof_core::columns::ApiRow;
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, NameId, RecordWalker};
use criterion::{Criterion, Throughput};
use cupti::activity::{ApiFilter, CbidFilter};
use cupti::decode::{RecordLayouts, Walker, VERSION_13_0};
use cupti::RuntimeCbid;

#[path = "support/records.rs"]
mod records;
use records::{Kernel, Records};

/// The library version that marks the `runtime-columns-floor` set's walker (no CUPTI reports it).
const FLOOR_VERSION: u32 = 1;

/// The buffer size the tracer hands CUPTI by default.
const BUFFER_BYTES: usize = 4 << 20;

/// Kernel names as PyTorch workloads produce them (long, templated), 24 distinct.
fn kernel_names() -> Vec<&'static CStr> {
    let bases = [
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)",
        "ampere_sgemm_128x64_tn",
        "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
        "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1})",
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
    ];
    (0..24)
        .map(|i| {
            let s = format!("{}_{i}\0", bases[i % bases.len()]);
            let leaked: &'static str = Box::leak(s.into_boxed_str());
            CStr::from_bytes_with_nul(leaked.as_bytes()).expect("one NUL at the end")
        })
        .collect()
}

/// Writes record `n` of a buffer.
type Fill = dyn FnMut(&mut Records, u32);

/// Full buffers of each kind: (label, bytes, records).
fn buffers() -> Vec<(&'static str, Records, u64)> {
    let names = kernel_names();
    let fill = |each: usize, mut put: Box<Fill>| {
        let mut recs = Records::new();
        let mut n = 0u32;
        while recs.len() + each <= BUFFER_BYTES {
            put(&mut recs, n);
            n += 1;
        }
        (recs, u64::from(n))
    };
    let kernel = move |recs: &mut Records, i: u32| {
        let k = Kernel {
            start: 1_000 + u64::from(i) * 10,
            end: 1_005 + u64::from(i) * 10,
            correlation: i + 1,
            stream: 7 + i % 4,
            name: names[(i as usize * 7) % names.len()],
            ..Kernel::default()
        };
        recs.kernel(216, 10, &k);
    };
    let runtime = |recs: &mut Records, i: u32| {
        let cbid = [211, 31, 41, 20, 440][i as usize % 5];
        recs.api(5, cbid, u64::from(i) * 10, u64::from(i) * 10 + 3, 4242, 17, i + 1);
    };
    let memcpy = |recs: &mut Records, i: u32| {
        recs.memcpy(1 + (i % 3) as u8, 1, 3, 4096, u64::from(i), u64::from(i) + 2, 7, i + 1);
    };
    let (k, kn) = fill(216, Box::new(kernel.clone()));
    let (m, mn) = fill(96, Box::new(memcpy));
    let (r, rn) = fill(40, Box::new(runtime));
    let mixed_kernel = kernel;
    let (x, xn) = fill(
        256,
        Box::new(move |recs, i| {
            runtime(recs, i);
            mixed_kernel(recs, i);
        }),
    );
    let (r2, _) = fill(40, Box::new(runtime));
    let (r3, _) = fill(40, Box::new(runtime));
    vec![
        ("kernel", k, kn),
        ("memcpy", m, mn),
        ("runtime", r, rn),
        ("launch+kernel", x, xn * 2),
        // The runtime buffer again, 3 of each 5 calls left out by an API filter applied while decoding
        // (`ApiFilterAt::Decode`): records/s counts every record walked, kept or left out.
        ("runtime-filtered", r2, rn),
        // The runtime buffer again, its rows written by `columns_floor` (no check, no name lookup): what
        // writing the API columns alone costs, against which the decoder's `runtime` line is measured.
        ("runtime-columns-floor", r3, rn),
    ]
}

/// The floor of decoding API records: each 40-byte record's fields written as a row of the API columns
/// with no check of its kind, no name looked up and no filter (`RowWriter::push_while`, as the walker
/// writes). Returns the rows written.
fn columns_floor(bytes: &[u8], batch: &mut Batch) -> u64 {
    type A = cupti_sys::CUpti_ActivityAPI;
    let at32 = |r: &[u8], off: usize| u32::from_ne_bytes(r[off..off + 4].try_into().expect("4 bytes"));
    let at64 = |r: &[u8], off: usize| u64::from_ne_bytes(r[off..off + 8].try_into().expect("8 bytes"));
    let mut records = bytes.chunks_exact(size_of::<A>());
    let mut writer = batch.api_calls.writer(records.len());
    let rows = writer.push_while(|| {
        let r = records.next()?;
        Some(ApiRow {
            start: at64(r, offset_of!(A, start)),
            end: at64(r, offset_of!(A, end)),
            process: at32(r, offset_of!(A, processId)),
            thread: u64::from(at32(r, offset_of!(A, threadId))),
            correlation: u64::from(at32(r, offset_of!(A, correlationId))),
            domain: 2,
            cbid: at32(r, offset_of!(A, cbid)),
            name: NameId(0),
        })
    });
    drop(writer);
    batch.clear();
    rows as u64
}

/// The walker of a buffer set: `runtime-filtered` keeps only `cudaLaunchKernel` (211) and 41 of the runtime
/// calls.
fn walker_for(label: &str) -> Walker {
    if label == "runtime-columns-floor" {
        // Marks the set whose "decode" is `columns_floor` (the walker is not used).
        return Walker::untrusted(RecordLayouts::for_version(FLOOR_VERSION));
    }
    // SAFETY: the benchmark's records point only at `'static` C strings.
    let walker = unsafe { Walker::new(RecordLayouts::for_version(VERSION_13_0)) };
    if label != "runtime-filtered" {
        return walker;
    }
    walker.with_api_filter(ApiFilter {
        runtime: CbidFilter::only([RuntimeCbid(211), RuntimeCbid(41)]),
        driver: CbidFilter::All,
    })
}

fn decode_once(walker: &mut Walker, bytes: &[u8], batch: &mut Batch, names: &mut Interner) -> u64 {
    if walker.layouts().api_version() == FLOOR_VERSION {
        return columns_floor(bytes, batch);
    }
    let stats = walker.walk(bytes, batch, names);
    batch.clear();
    stats.records + stats.filtered
}

fn bench(c: &mut Criterion, sets: &[(&'static str, Records, u64)]) {
    for (label, recs, count) in sets {
        let mut group = c.benchmark_group(format!("decode/{label}"));
        group.throughput(Throughput::Elements(*count));
        let mut walker = walker_for(label);
        let (mut batch, mut names) = (Batch::new(), Interner::new());
        group.bench_function("walk", |b| {
            b.iter(|| decode_once(&mut walker, black_box(recs.bytes()), &mut batch, &mut names))
        });
        let mut dst = vec![0u8; recs.len()];
        group.bench_function("memcpy", |b| {
            b.iter(|| {
                dst.copy_from_slice(black_box(recs.bytes()));
                black_box(&dst);
            })
        });
        group.finish();
    }
}

/// Median time of `f` over `rounds` runs.
fn median(rounds: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[rounds / 2]
}

/// The ratio, measured alternately in one run: decode records/s over memcpy records/s, from each side's
/// median of 41 alternating rounds (each round the median of 3 runs; the ratio of the fastest rounds is
/// printed next to it, the time least disturbed by other work on a shared machine).
fn ratios(sets: &[(&'static str, Records, u64)], rounds: usize) {
    println!(
        "\ndecode vs memcpy of the same bytes ({rounds} alternating rounds, each the median of 3 runs; {BUFFER_BYTES} B buffers):"
    );
    for (label, recs, count) in sets {
        let mut walker = walker_for(label);
        let (mut batch, mut names) = (Batch::new(), Interner::new());
        let mut dst = vec![0u8; recs.len()];
        // Warm: names interned, columns grown, pages touched.
        decode_once(&mut walker, recs.bytes(), &mut batch, &mut names);
        dst.copy_from_slice(recs.bytes());
        let (mut decode, mut copy) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            decode.push(median(3, || {
                black_box(decode_once(&mut walker, black_box(recs.bytes()), &mut batch, &mut names));
            }));
            copy.push(median(3, || {
                dst.copy_from_slice(black_box(recs.bytes()));
                black_box(&dst);
            }));
        }
        let fastest = |t: &[Duration]| t.iter().min().expect("rounds ran").as_secs_f64();
        let (best_d, best_m) = (fastest(&decode), fastest(&copy));
        // Paired: each round's memcpy over the same round's decode.
        let paired: Vec<f64> =
            copy.iter().zip(&decode).map(|(m, d)| m.as_secs_f64() / d.as_secs_f64()).collect();
        let (geo, lo, hi) = interval(&paired);
        decode.sort();
        copy.sort();
        let d = decode[decode.len() / 2].as_secs_f64();
        let m = copy[copy.len() / 2].as_secs_f64();
        let records = *count as f64;
        println!(
            "  {label:<14} decode {:>7.1} M records/s  memcpy {:>7.1} M records/s  ratio {:.2} (of medians; paired rounds {geo:.3} [{lo:.3}, {hi:.3}]; fastest rounds {:.2})",
            records / d / 1e6,
            records / m / 1e6,
            m / d,
            best_m / best_d
        );
    }
}

/// The geometric mean of `values` and its 95 % percentile-bootstrap interval (2,000 resamples with
/// replacement; a fixed seed, so the figures of a run can be recomputed).
fn interval(values: &[f64]) -> (f64, f64, f64) {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let n = values.len();
    let geo = |pick: &mut dyn FnMut() -> f64| ((0..n).map(|_| pick().ln()).sum::<f64>() / n as f64).exp();
    let mut means: Vec<f64> = (0..2000).map(|_| geo(&mut || values[(next() % n as u64) as usize])).collect();
    means.sort_by(f64::total_cmp);
    let mut i = 0;
    (
        geo(&mut || {
            i += 1;
            values[i - 1]
        }),
        means[50],
        means[1949],
    )
}

fn main() {
    let mut sets = buffers();
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1));
    // `--ratios [--rounds N] [--only LABEL]`: the alternating rounds alone (a short run under a
    // profiler: `--rounds 1 --only kernel`).
    if args.iter().any(|a| a == "--ratios") {
        if let Some(only) = value("--only") {
            sets.retain(|(label, _, _)| label == only);
        }
        let rounds = value("--rounds").map_or(41, |v| v.parse().expect("--rounds N"));
        ratios(&sets, rounds);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &sets);
    c.final_summary();
    ratios(&sets, 41);
}
