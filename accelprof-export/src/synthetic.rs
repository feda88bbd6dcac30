//! Deterministic synthetic traces of a training job, as a CUDA tracer delivers them: for tests and
//! benchmarks of trace consumers (ours and yours) on machines without a GPU.
//!
//! Each step of a rank is a `ProfilerStep#N` range on the host; inside it, a host-to-device copy, a set,
//! `kernels_per_step` compute kernels on stream 7 and an NCCL all-reduce kernel on stream 13, each launched
//! by a runtime call (`cudaLaunchKernel`, `cudaMemcpyAsync`, `cudaMemsetAsync`) enclosing a driver call with
//! the same correlation id, and a device-to-host copy at the end. Kernel durations are pseudo-random and
//! scaled by the rank's `slowdown` (a straggler has a larger one). Rows are delivered in batches of
//! `batch_rows`, with families interleaved as a decoder's buffers interleave them.

use crate::trace::DeviceProperties;
use accelprof_core::columns::{
    ApiRow, CopyKind, KernelRow, MarkerRow, MemcpyRow, MemoryKind, MemsetRow, HOST_DEVICE,
};
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, NameId, Names, PerFamily};

use crate::{ClockAnchor, RunMeta};

/// CUPTI's raw API domains, as `cupti::decode` maps them.
pub const API_DOMAIN_DRIVER: u32 = 1;
/// See [`API_DOMAIN_DRIVER`].
pub const API_DOMAIN_RUNTIME: u32 = 2;

/// Compute kernel names (as PyTorch's profiler shows them).
pub const COMPUTE_KERNELS: [&str; 8] = [
    "ampere_sgemm_128x64_tn",
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
    "triton_poi_fused_add_0",
    "triton_red_fused_native_layer_norm_1",
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
    "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8::Params)",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)",
];

/// The NCCL kernel of each step.
pub const NCCL_KERNEL: &str = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

/// The compute stream.
pub const COMPUTE_STREAM: u64 = 7;
/// The communication stream.
pub const NCCL_STREAM: u64 = 13;
/// The first correlation id (above 32,767, which keeps HTA 0.5 on pandas 3 from a crash; see the repository's
/// trace-format notes).
pub const FIRST_CORRELATION: u64 = 100_000;

/// One synthetic rank.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticRank {
    /// The rank (its device is `rank % 8`).
    pub rank: u32,
    /// Ranks in the job.
    pub world_size: u32,
    /// Training steps.
    pub steps: u32,
    /// Compute kernels per step.
    pub kernels_per_step: u32,
    /// Compute kernel durations are multiplied by this (1.0 for a normal rank).
    pub slowdown: f64,
    /// Rows per delivered batch.
    pub batch_rows: usize,
    /// Seed of the durations.
    pub seed: u64,
    /// Every timestamp is a multiple of this (1: nanoseconds; 1000 gives whole microseconds, which tools
    /// that round to microseconds, as HTA does, read without loss).
    pub time_quantum_ns: u64,
    /// Each runtime call encloses a driver call with the same correlation id, as CUPTI records them when
    /// both API kinds are on (default true). HTA 0.5 counts a kernel once per host event that carries its
    /// correlation id, so it counts such kernels twice: compare with HTA on traces without them.
    pub nested_driver_calls: bool,
}

impl SyntheticRank {
    /// A rank of a job of `world_size` ranks, `steps` steps of `kernels_per_step` kernels.
    pub fn new(rank: u32, world_size: u32, steps: u32, kernels_per_step: u32) -> Self {
        SyntheticRank {
            rank,
            world_size,
            steps,
            kernels_per_step,
            slowdown: 1.0,
            batch_rows: 8192,
            seed: splitmix(u64::from(rank)),
            time_quantum_ns: 1,
            nested_driver_calls: true,
        }
    }

    /// Rows a run delivers: per step, for each compute kernel, the NCCL kernel, the two copies and the set,
    /// the activity and its API calls (two, or one without nested driver calls), and the step marker.
    pub fn rows(&self) -> u64 {
        let per_activity = if self.nested_driver_calls { 3 } else { 2 };
        u64::from(self.steps) * (per_activity * (u64::from(self.kernels_per_step) + 4) + 1)
    }

    /// The steps and kernels per step that give about `rows` rows per rank.
    pub fn steps_for_rows(rows: u64, kernels_per_step: u32) -> u32 {
        let per_step = 3 * u64::from(kernels_per_step) + 13;
        (rows / per_step).max(1) as u32
    }

    /// The record clock: nanoseconds from an arbitrary origin (the rank's "boot").
    pub fn clock_origin(&self) -> u64 {
        1_000_000_000_000 + u64::from(self.rank) * 1_234_000
    }

    /// The run's metadata (host `node<rank / 8>`, the devices, CUPTI versions, the clock anchor).
    pub fn meta(&self) -> RunMeta {
        let device = self.rank % 8;
        RunMeta {
            rank: self.rank,
            world_size: self.world_size,
            host: format!("node{}", self.rank / 8),
            process_id: 4000 + self.rank,
            vendor: "cupti".into(),
            library_versions: vec![("cupti".into(), "13.0.0".into()), ("driver".into(), "580.65.06".into())],
            device_properties: vec![DeviceProperties {
                id: device,
                name: "NVIDIA H200".into(),
                total_global_mem: Some(150_121_709_568),
                compute_major: Some(9),
                compute_minor: Some(0),
                num_sms: Some(132),
                warp_size: Some(32),
                ..Default::default()
            }],
            // All ranks' clocks map to one Unix time line: origin = 2024-01-01T00:00:00Z + 1 s.
            clock: ClockAnchor::new("CLOCK_MONOTONIC_RAW", self.clock_origin(), 1_704_067_201_000_000_000),
            backend: Some("nccl".into()),
            trace_name: Some("synthetic".into()),
            start_unix_ns: 0,
            extra: vec![("job".into(), "synthetic".into())],
        }
    }

    /// Generates the run, calling `deliver` with each batch (and the names of its ids).
    pub fn run(&self, mut deliver: impl FnMut(&Batch, &Names)) -> PerFamily<u64> {
        let mut g = Generator::new(self);
        let mut rows = PerFamily::<u64>::default();
        let mut batch = Batch::new();
        let names = g.interner.names();
        for step in 0..self.steps {
            g.step(step, &mut batch);
            if batch.len() >= self.batch_rows {
                crate::writer::count_rows(&mut rows, &batch);
                deliver(&batch, &names);
                batch.clear();
            }
        }
        if !batch.is_empty() {
            crate::writer::count_rows(&mut rows, &batch);
            deliver(&batch, &names);
        }
        rows
    }
}

/// SplitMix64's finalizer: distinct seeds for consecutive ranks.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Xorshift64*: deterministic, fast.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `lo..hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo).max(1)
    }
}

struct Generator<'a> {
    spec: &'a SyntheticRank,
    rng: Rng,
    interner: Interner,
    kernel_names: Vec<NameId>,
    nccl: NameId,
    step_names: Vec<NameId>,
    launch: [NameId; 2],
    memcpy: [NameId; 2],
    memset: [NameId; 2],
    correlation: u64,
    /// Host clock (ns).
    cpu: u64,
    /// End of the last work on the compute stream.
    gpu: u64,
    device: u32,
    pid: u32,
    tid: u64,
}

impl<'a> Generator<'a> {
    /// `t` on the spec's time grid.
    fn q(&self, t: u64) -> u64 {
        let quantum = self.spec.time_quantum_ns.max(1);
        t - t % quantum
    }

    fn new(spec: &'a SyntheticRank) -> Self {
        let mut interner = Interner::new();
        let kernel_names = COMPUTE_KERNELS.iter().map(|n| interner.intern(n)).collect();
        let nccl = interner.intern(NCCL_KERNEL);
        let launch = [interner.intern("cudaLaunchKernel"), interner.intern("cuLaunchKernel")];
        let memcpy = [interner.intern("cudaMemcpyAsync"), interner.intern("cuMemcpyAsync")];
        let memset = [interner.intern("cudaMemsetAsync"), interner.intern("cuMemsetD32Async")];
        let origin = spec.clock_origin();
        Generator {
            spec,
            rng: Rng(spec.seed | 1),
            interner,
            kernel_names,
            nccl,
            step_names: Vec::new(),
            launch,
            memcpy,
            memset,
            correlation: FIRST_CORRELATION,
            cpu: origin + 1_000_000,
            gpu: origin,
            device: spec.rank % 8,
            pid: 4000 + spec.rank,
            tid: 4000 + u64::from(spec.rank),
        }
    }

    /// A runtime call enclosing a driver call, both with the next correlation id; returns the id and the
    /// runtime call's end.
    fn api(&mut self, names: [NameId; 2], cbids: [u32; 2], b: &mut Batch) -> (u64, u64) {
        self.correlation += 1;
        let c = self.correlation;
        let start = self.cpu;
        let inner_start = start + self.rng.range(300, 900);
        let inner_end = inner_start + self.rng.range(1_000, 3_000);
        let end = inner_end + self.rng.range(200, 700);
        let (pid, tid) = (self.pid, self.tid);
        // The driver call ends first, so its record comes first (as CUPTI's buffers have it).
        if self.spec.nested_driver_calls {
            b.api_calls.push(ApiRow {
                start: self.q(inner_start),
                end: self.q(inner_end),
                process: pid,
                thread: tid,
                correlation: c,
                domain: API_DOMAIN_DRIVER,
                cbid: cbids[1],
                name: names[1],
            });
        }
        b.api_calls.push(ApiRow {
            start: self.q(start),
            end: self.q(end),
            process: pid,
            thread: tid,
            correlation: c,
            domain: API_DOMAIN_RUNTIME,
            cbid: cbids[0],
            name: names[0],
        });
        self.cpu = end + self.rng.range(500, 4_000);
        (c, end)
    }

    /// GPU work on the compute stream launched at `launched`: starts after it and after the stream's last
    /// work, with a gap (idle time).
    fn gpu_slot(&mut self, launched: u64, dur: u64) -> (u64, u64) {
        let start = (launched + 4_000).max(self.gpu + self.rng.range(0, 6_000));
        self.gpu = start + dur;
        (start, start + dur)
    }

    fn step(&mut self, step: u32, b: &mut Batch) {
        let step_start = self.cpu;
        while self.step_names.len() <= step as usize {
            let n = self.step_names.len();
            let id = self.interner.intern(&format!("ProfilerStep#{n}"));
            self.step_names.push(id);
        }
        let device = self.device;
        let stream = COMPUTE_STREAM;

        let (c, launched) = self.api(self.memcpy, [41, 279], b);
        let bytes = 1 << 22;
        let dur = 10_000 + self.rng.range(0, 5_000);
        let (start, end) = self.gpu_slot(launched, dur);
        b.memcpys.push(MemcpyRow {
            start: self.q(start),
            end: self.q(end),
            device,
            context: 1,
            stream,
            correlation: c,
            bytes,
            copy_kind: CopyKind::HTOD,
            src_kind: MemoryKind::PINNED,
            dst_kind: MemoryKind::DEVICE,
            is_async: true,
        });
        let (c, launched) = self.api(self.memset, [51, 302], b);
        let dur = 1_500 + self.rng.range(0, 1_000);
        let (start, end) = self.gpu_slot(launched, dur);
        b.memsets.push(MemsetRow {
            start: self.q(start),
            end: self.q(end),
            device,
            context: 1,
            stream,
            correlation: c,
            bytes: 1 << 20,
            value: 0,
            memory_kind: MemoryKind::DEVICE,
        });
        let mut nccl_launch = None;
        for k in 0..self.spec.kernels_per_step {
            let (c, launched) = self.api(self.launch, [211, 307], b);
            let which = (self.rng.next() % self.kernel_names.len() as u64) as usize;
            let base = self.rng.range(2_000, 120_000);
            let dur = (base as f64 * self.spec.slowdown) as u64;
            let (start, end) = self.gpu_slot(launched, dur);
            let grid = 1 + (self.rng.next() % 4096) as u32;
            b.kernels.push(KernelRow {
                start: self.q(start),
                end: self.q(end),
                device,
                context: 1,
                stream,
                correlation: c,
                grid_x: grid,
                grid_y: 1,
                grid_z: 1,
                block_x: 256,
                block_y: 1,
                block_z: 1,
                shared_memory: 4096 * (which as u32 % 3),
                registers: 32 + 8 * (which as u16 % 4),
                name: self.kernel_names[which],
            });
            if k + 1 == self.spec.kernels_per_step / 2 {
                nccl_launch = Some(self.api(self.launch, [211, 307], b));
            }
        }
        // The all-reduce runs on its own stream, from mid-step until the last compute kernel is done, plus
        // the transfer itself: a fast rank waits longer in it.
        let (c, launched) = nccl_launch.unwrap_or_else(|| self.api(self.launch, [211, 307], b));
        let start = launched + 5_000;
        let end = self.gpu.max(start) + 30_000 + self.rng.range(0, 3_000);
        b.kernels.push(KernelRow {
            start: self.q(start),
            end: self.q(end),
            device,
            context: 1,
            stream: NCCL_STREAM,
            correlation: c,
            grid_x: 2,
            grid_y: 1,
            grid_z: 1,
            block_x: 640,
            block_y: 1,
            block_z: 1,
            shared_memory: 0,
            registers: 96,
            name: self.nccl,
        });
        self.gpu = self.gpu.max(end);
        let (c, launched) = self.api(self.memcpy, [41, 279], b);
        let dur = 3_000 + self.rng.range(0, 2_000);
        let (start, end) = self.gpu_slot(launched, dur);
        b.memcpys.push(MemcpyRow {
            start: self.q(start),
            end: self.q(end),
            device,
            context: 1,
            stream,
            correlation: c,
            bytes: 1 << 12,
            copy_kind: CopyKind::DTOH,
            src_kind: MemoryKind::DEVICE,
            dst_kind: MemoryKind::PAGEABLE,
            is_async: false,
        });
        // A synchronous copy: the host waits for the device.
        self.cpu = self.cpu.max(end) + 2_000;
        b.markers.push(MarkerRow {
            start: self.q(step_start),
            end: self.q(self.cpu),
            id: u64::from(step) + 1,
            process: self.pid,
            thread: self.tid,
            device: HOST_DEVICE,
            stream: 0,
            domain: NameId::NONE,
            name: self.step_names[step as usize],
            flags: 0,
        });
        self.cpu += 10_000;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_delivers_the_rows_it_announces_in_bounded_batches() {
        let mut spec = SyntheticRank::new(3, 8, 5, 20);
        spec.batch_rows = 50;
        let mut largest = 0;
        let mut kernels = 0;
        let rows = spec.run(|b, names| {
            largest = largest.max(b.len());
            kernels += b.kernels.len();
            for k in b.kernels.rows() {
                assert!(k.end > k.start);
                assert!(!names.resolve(k.name).is_empty());
            }
        });
        assert_eq!(rows.iter().sum::<u64>(), spec.rows());
        assert_eq!(kernels as u64, 5 * 21);
        assert!(largest < 50 + 3 * 21 + 13, "{largest}");
        // Deterministic.
        assert_eq!(spec.run(|_, _| {}), rows);
    }

    #[test]
    fn kernels_on_one_stream_never_overlap() {
        let spec = SyntheticRank::new(0, 1, 20, 50);
        let mut all = Batch::new();
        spec.run(|b, _| all.extend_from(b));
        let mut compute: Vec<(u64, u64)> =
            all.kernels.rows().filter(|k| k.stream == COMPUTE_STREAM).map(|k| (k.start, k.end)).collect();
        compute.extend(all.memcpys.rows().map(|m| (m.start, m.end)));
        compute.extend(all.memsets.rows().map(|m| (m.start, m.end)));
        compute.sort_unstable();
        assert!(compute.windows(2).all(|w| w[0].1 <= w[1].0));
    }
}
