//! The name interner with many similar names next to a few names, in one run.
//!
//! Triton generates kernels named `triton_poi_fused_add_0`, `triton_poi_fused_add_1`, ...: names that differ
//! only in their last bytes. A weak hash puts them all in the same few buckets, and every lookup then walks
//! a long probe sequence. This benchmark interns 65,536 such names and then looks them all up, next to the
//! same number of lookups spread over 8 names, and prints the ratio of lookups per second (many / few,
//! medians of 21 alternating rounds; goal: at least 0.2: a lookup among 65,536 names costs the cache misses of one table slot and one key, no probe sequence).
//!
//! `cargo bench -p accelprof-core --bench intern` (add `-- --quick` for a short run).

use std::hint::black_box;
use std::time::{Duration, Instant};

use accelprof_core::intern::Interner;
use criterion::{Criterion, Throughput};

const MANY: usize = 65_536;

fn similar_names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("triton_poi_fused_add_{i}")).collect()
}

fn few_names(n: usize) -> Vec<String> {
    let few = [
        "cudaLaunchKernel",
        "cudaMemcpyAsync",
        "cudaStreamSynchronize",
        "cuLaunchKernel",
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
        "ampere_sgemm_128x64_tn",
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "triton_poi_fused_add_0",
    ];
    (0..n).map(|i| few[i % few.len()].to_owned()).collect()
}

/// Interns every name once (all new when the interner is fresh).
fn intern_all(names: &[String]) -> Interner {
    let mut interner = Interner::new();
    for name in names {
        black_box(interner.intern(name));
    }
    interner
}

/// Looks every name up again (all known).
fn lookup_all(interner: &mut Interner, names: &[String]) -> u64 {
    let mut sum = 0u64;
    for name in names {
        sum = sum.wrapping_add(u64::from(interner.intern(black_box(name)).0));
    }
    sum
}

fn bench(c: &mut Criterion, many: &[String], few: &[String]) {
    let mut group = c.benchmark_group("intern");
    group.throughput(Throughput::Elements(many.len() as u64));
    group.bench_function("insert 65536 similar names", |b| b.iter(|| intern_all(black_box(many))));
    let mut many_interner = intern_all(many);
    let mut few_interner = intern_all(few);
    group.bench_function("lookup 65536 similar names", |b| {
        b.iter(|| lookup_all(&mut many_interner, black_box(many)))
    });
    group.bench_function("lookup 8 names", |b| b.iter(|| lookup_all(&mut few_interner, black_box(few))));
    group.finish();
}

fn timed(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Alternating rounds in one run: inserting and looking up the similar names, and looking up the few.
fn ratios(many: &[String], few: &[String]) {
    let (mut insert, mut look_many, mut look_few) = (Vec::new(), Vec::new(), Vec::new());
    let mut many_interner = intern_all(many);
    let mut few_interner = intern_all(few);
    for _ in 0..21 {
        insert.push(timed(|| drop(black_box(intern_all(many)))));
        look_many.push(timed(|| {
            black_box(lookup_all(&mut many_interner, many));
        }));
        look_few.push(timed(|| {
            black_box(lookup_all(&mut few_interner, few));
        }));
    }
    let per_s = |d: Duration| many.len() as f64 / d.as_secs_f64() / 1e6;
    let (i, m, f) = (median(insert), median(look_many), median(look_few));
    println!("\ninterner, {MANY} names like triton_poi_fused_add_N next to 8 names (medians of 21 alternating rounds):");
    println!("  insert 65536 similar  {:>8.2} M names/s", per_s(i));
    println!("  lookup 65536 similar  {:>8.2} M lookups/s", per_s(m));
    println!("  lookup 8 names        {:>8.2} M lookups/s", per_s(f));
    println!("  ratio similar / few   {:>8.2} (goal >= 0.2)", f.as_secs_f64() / m.as_secs_f64());
}

fn main() {
    let many = similar_names(MANY);
    let few = few_names(MANY);
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &many, &few);
    c.final_summary();
    ratios(&many, &few);
}
