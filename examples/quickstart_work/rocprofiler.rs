//! ROCm: a HIP program played on the mock rocprofiler-sdk (its controls play the runtime: HIP calls,
//! kernel dispatches, copies, roctx ranges).

use std::collections::HashMap;
use std::ffi::CString;

use accel_profiling::Distributed;
use accelprof_mocks::rocprofiler::{MockRocprofiler, LIBRARY};
use rocprofiler::{CallbackDomain, Rocprofiler};

/// Dispatches one step makes: `vector_add` and `reduce_sum`, and in a job of several ranks one RCCL
/// all-reduce kernel.
pub const KERNELS_PER_STEP: usize = 2;

/// The mock's controls and the HIP operation ids of the SDK.
pub struct MockProgram {
    mock: MockRocprofiler,
    hip: HashMap<String, i32>,
    kernels: std::cell::RefCell<HashMap<String, u64>>,
}

impl MockProgram {
    /// The mock the tracer opens (the same file: one mock per process).
    pub fn open() -> Result<MockProgram, String> {
        let sdk = Rocprofiler::open_path(LIBRARY).map_err(|e| e.to_string())?;
        let hip = sdk
            .callback_operations(CallbackDomain::HIP_RUNTIME_API)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|(op, name)| (name, op.0))
            .collect();
        Ok(MockProgram {
            mock: MockRocprofiler::open(LIBRARY).map_err(|e| e.to_string())?,
            hip,
            kernels: Default::default(),
        })
    }

    fn hip_call(&self, name: &str, body: impl FnOnce()) {
        let op = self.hip.get(name).copied().unwrap_or(0);
        self.mock.api_begin(CallbackDomain::HIP_RUNTIME_API.0, op);
        body();
        self.mock.api_end();
    }

    /// A `hipLaunchKernel` of `kernel` running for about `micros` on GPU `gpu`.
    fn launch(&self, gpu: u32, kernel: &str, grid: u32, block: u32, micros: u64) {
        let id = *self.kernels.borrow_mut().entry(kernel.to_owned()).or_insert_with(|| {
            let name = CString::new(kernel).expect("no NUL");
            self.mock.kernel_symbol(&name)
        });
        let agent = self.mock.gpu_agent(gpu);
        let mut dispatch = 0;
        self.hip_call("hipLaunchKernel", || {
            dispatch = self.mock.dispatch_begin(agent, 1, id, grid, 1, 1, block, 1, 1);
        });
        // The mock times a dispatch from its begin to its end on the clock.
        std::thread::sleep(std::time::Duration::from_micros(micros));
        self.mock.dispatch_end(dispatch);
    }

    fn range(&self, message: &str, body: impl FnOnce()) {
        let m = CString::new(message).expect("no NUL");
        self.mock.marker(1, Some(&m));
        body();
        self.mock.marker(2, None);
    }

    /// On GPU `local_rank`: allocate, then per step (a roctx range) a copy in and two kernels (and an
    /// all-reduce kernel with several ranks); synchronize, free.
    pub fn steps(&self, steps: usize, d: Distributed) {
        let gpu = d.local_rank.unwrap_or(d.rank);
        self.hip_call("hipSetDevice", || {});
        self.hip_call("hipMalloc", || {});
        let (cpu, agent) = (self.mock.cpu_agent(), self.mock.gpu_agent(gpu));
        for step in 0..steps {
            self.range(&format!("step {step}"), || {
                self.hip_call("hipMemcpy", || {
                    self.mock.memory_copy(2, cpu, agent, 1 << 20);
                });
                self.launch(gpu, "vector_add", 1 << 16, 256, 40);
                self.launch(gpu, "reduce_sum", 4096, 64, 20);
                if d.is_distributed() {
                    self.launch(gpu, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 16 * 512, 512, 30);
                }
            });
        }
        self.hip_call("hipDeviceSynchronize", || {});
        self.hip_call("hipFree", || {});
    }
}
