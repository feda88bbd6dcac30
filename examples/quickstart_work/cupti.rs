//! CUDA: real work through cudarc on a GPU, or a training-step-like program played on the mock
//! libcupti.

use std::sync::{Arc, OnceLock};

use accel_profiling::Distributed;
use accel_profiling::Synchronize;
use accelprof_mocks::cupti::MockCupti;

#[path = "../cupti_callback_common/gpu.rs"]
pub mod gpu;

/// Kernels one mock step launches: 4 GEMMs, 4 element-wise kernels, a softmax (through the driver
/// API), and in a job of several ranks one NCCL all-reduce.
pub const MOCK_KERNELS_PER_STEP: usize = 9;

/// The mock's controls (the same file, so the same mock, as the tracer opened).
pub fn mock() -> &'static MockCupti {
    static MOCK: OnceLock<MockCupti> = OnceLock::new();
    MOCK.get_or_init(|| {
        MockCupti::open(accelprof_mocks::cupti::LIBRARY).expect("the mock libcupti's controls")
    })
}

/// The mock's `cudaDeviceSynchronize`, for CUPTI's fence.
pub fn mock_synchronize() -> Synchronize {
    Synchronize::new(|| {
        mock().device_synchronize();
        Ok(true)
    })
}

/// Per step: copy in, GEMMs and element-wise kernels (runtime launches), a softmax (driver
/// launch), a set, an all-reduce when there are several ranks, copy out; each step in an NVTX range.
pub fn mock_steps(steps: usize, d: Distributed) {
    let m = mock();
    m.set_device(d.local_rank.unwrap_or(d.rank));
    let mut address = 0u64;
    m.malloc(1 << 20, &mut address);
    for step in 0..steps {
        let range = std::ffi::CString::new(format!("step {step}")).expect("no NUL");
        let id = m.marker_start(&range, None);
        m.memcpy(address, 0x7000_0000, 1 << 20, 1, 1, 1, 40_000);
        for _ in 0..4 {
            m.launch_kernel(c"sm90_xmma_gemm_f16f16_f32_tn", 132, 1, 1, 128, 1, 1, 49152, 1, 25_000);
            m.launch_kernel(
                c"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_",
                512,
                1,
                1,
                128,
                1,
                1,
                0,
                1,
                3_000,
            );
        }
        m.launch_kernel_driver(c"softmax_warp_forward", 64, 1, 1, 256, 1, 1, 4096, 1, 9_000);
        m.memset(address, 0, 1 << 16, 1, 1, 2_000);
        if d.is_distributed() {
            m.launch_kernel(c"ncclDevKernel_AllReduce_Sum_f32_RING_LL", 16, 1, 1, 512, 1, 1, 0, 2, 30_000);
        }
        m.memcpy(0x7000_0000, address, 4096, 2, 1, 1, 5_000);
        m.marker_end(id);
    }
    m.device_synchronize();
    m.free(address);
}

/// The context of the rank's GPU: device `LOCAL_RANK` where the machine has that many, else 0.
pub fn gpu_context(d: Distributed) -> Result<Arc<cudarc::driver::CudaContext>, String> {
    let wanted = d.local_rank.unwrap_or(0) as usize;
    let count =
        cudarc::driver::result::device::get_count().map_err(|e| format!("cuDeviceGetCount: {e:?}"))?;
    let device = if wanted < count as usize { wanted } else { 0 };
    cudarc::driver::CudaContext::new(device)
        .map_err(|e| format!("creating a context on device {device}: {e:?}"))
}

/// Real CUDA work: `steps` kernel launches between copies (driver API), then runtime API calls.
pub fn gpu_steps(ctx: &Arc<cudarc::driver::CudaContext>, steps: usize) -> Result<(), String> {
    gpu::driver_workload(ctx, steps)?;
    if gpu::runtime_available() {
        gpu::runtime_workload()?;
    } else {
        println!(
            "(libcudart cannot be loaded: runtime API calls skipped; add CUDA's library directory to \
             LD_LIBRARY_PATH)"
        );
    }
    Ok(())
}
