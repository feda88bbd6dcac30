//! What the activity examples share: a workload with several kernels for the mock `libcupti`, and how
//! `flush(sync)` synchronizes the device on each backend.

#![allow(dead_code)]

use std::sync::OnceLock;

use cupti::activity::DeviceSync;

use crate::common::{Backend, Setup};
use accelprof_mocks::cupti::MockCupti;

/// The mock's controls, for closures that must be `'static` (same `dlopen` handle as the setup's).
pub fn mock() -> &'static MockCupti {
    static MOCK: OnceLock<MockCupti> = OnceLock::new();
    MOCK.get_or_init(|| {
        MockCupti::open(accelprof_mocks::cupti::LIBRARY).expect("the mock libcupti's controls")
    })
}

/// How `fence()` waits for the device: the process's CUDA driver on a GPU, the mock's
/// `cudaDeviceSynchronize` otherwise.
pub fn device_sync(setup: &Setup) -> DeviceSync {
    if setup.on_gpu() {
        DeviceSync::Driver
    } else {
        DeviceSync::custom(|| {
            mock().device_synchronize();
            Ok(true)
        })
    }
}

/// A training-step-like loop played on the mock: copy in, a few kernels of different lengths (runtime
/// and driver launches), a set, copy out, per step.
pub fn mock_steps(steps: usize) {
    let m = mock();
    let mut address = 0u64;
    m.malloc(1 << 20, &mut address);
    for _ in 0..steps {
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
        m.memcpy(0x7000_0000, address, 4096, 2, 1, 1, 5_000);
    }
    m.device_synchronize();
    m.free(address);
}

/// Runs the workload of the backend: real CUDA work on a GPU, the played steps on the mock.
pub fn run(setup: &Setup, steps: usize) -> Result<(), String> {
    match &setup.backend {
        Backend::Gpu(_) => setup.run_workload(steps),
        Backend::Mock(_) => {
            mock_steps(steps);
            Ok(())
        }
    }
}
