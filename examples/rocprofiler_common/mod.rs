//! What the rocprofiler examples share: a stand-in for the ROCm runtime built on the mock SDK.
//!
//! On a machine with ROCm, an example is a *tool*: build it as a shared library and let a HIP
//! program load it,
//!
//! ```text
//! cargo rustc --release --example rocprofiler_api_callback_tracing --crate-type cdylib
//! ROCP_TOOL_LIBRARIES=$PWD/target/release/examples/librocprofiler_api_callback_tracing.so ./my_hip_program
//! ```
//!
//! (the runtime loads the SDK, the SDK finds the tool's `rocprofiler_configure`). Run as a
//! program (`cargo run --example ...`), it plays that runtime itself against the mock SDK: it
//! registers its tool, opens the configure window, runs a small synthetic HIP workload, and
//! finalizes.

#![allow(dead_code)]

use std::error::Error;
use std::ffi::CStr;
use std::path::Path;

use accelprof_mocks::rocprofiler::MockRocprofiler;
use rocprofiler::{CallbackDomain, Rocprofiler, Tool};

/// The mock's runtime controls (`accelprof_mocks::rocprofiler::MockRocprofiler`).
pub struct MockRuntime {
    pub sdk: &'static Rocprofiler,
    mock: MockRocprofiler,
    kernels: std::cell::RefCell<std::collections::HashMap<String, u64>>,
}

impl MockRuntime {
    /// Loads the mock SDK, as the ROCm runtime loads the real one before any tool runs
    /// (`$ROCPROFILER_LIBRARY_PATH` names another build of the mock, e.g. the one without
    /// `set_agents` that plays a released SDK).
    pub fn open() -> Result<MockRuntime, Box<dyn Error>> {
        let chosen = std::env::var_os("ROCPROFILER_LIBRARY_PATH");
        let path = chosen.as_deref().map_or(Path::new(accelprof_mocks::rocprofiler::LIBRARY), Path::new);
        let sdk = Rocprofiler::open_path(path)?;
        let mock = MockRocprofiler::open(path)?;
        Ok(MockRuntime { sdk, mock, kernels: Default::default() })
    }

    /// Registers tool `T` as if its library had been found, and runs the configure window.
    pub fn start_tool<T: Tool>(&self) -> Result<(), Box<dyn Error>> {
        // SAFETY: the crate's configure function made for `T`.
        unsafe { self.mock.register_configure(rocprofiler::configure_function::<T>()) };
        self.load_tools()
    }

    /// The runtime's first call into the SDK: every tool found (including the libraries named
    /// by `ROCP_TOOL_LIBRARIES`) is configured.
    pub fn load_tools(&self) -> Result<(), Box<dyn Error>> {
        rocprofiler::ResultCode::from(self.mock.load_tools()).check("mock_rocprofiler_load_tools")?;
        Ok(())
    }

    /// GPU `i`'s agent handle.
    pub fn gpu(&self, i: u32) -> u64 {
        self.mock.gpu_agent(i)
    }

    /// The CPU agent's handle.
    pub fn cpu(&self) -> u64 {
        self.mock.cpu_agent()
    }

    fn hip_op(&self, name: &str) -> i32 {
        let ops = self.sdk.callback_operations(CallbackDomain::HIP_RUNTIME_API).unwrap_or_default();
        ops.iter().find(|(_, n)| n == name).map_or(0, |(op, _)| op.0)
    }

    fn begin(&self, name: &str) {
        self.mock.api_begin(CallbackDomain::HIP_RUNTIME_API.0, self.hip_op(name));
    }

    fn end(&self) {
        self.mock.api_end();
    }

    /// A HIP call with nothing asynchronous behind it (`hipMalloc`, `hipDeviceSynchronize`).
    pub fn hip(&self, name: &str) {
        self.begin(name);
        self.end();
    }

    /// `hipLaunchKernel` of `kernel` on GPU `gpu` with `grid` work-items in groups of `block`.
    pub fn launch(&self, gpu: u32, kernel: &str, grid: u32, block: u32) {
        let id = *self.kernels.borrow_mut().entry(kernel.to_string()).or_insert_with(|| {
            let name = std::ffi::CString::new(kernel).unwrap();
            self.mock.kernel_symbol(&name)
        });
        self.begin("hipLaunchKernel");
        self.mock.dispatch(self.gpu(gpu), 1, id, grid, 1, 1, block, 1, 1);
        self.end();
    }

    /// `hipMemcpy` host to GPU `gpu`.
    pub fn copy_to_gpu(&self, gpu: u32, bytes: u64) {
        self.begin("hipMemcpy");
        self.mock.memory_copy(2, self.cpu(), self.gpu(gpu), bytes); // 2: host to device
        self.end();
    }

    /// `roctxRangePushA(message)` .. `roctxRangePop()`.
    pub fn range(&self, message: &CStr, body: impl FnOnce()) {
        self.mock.marker(1, Some(message));
        body();
        self.mock.marker(2, None);
    }

    /// A small HIP program: allocate, copy in, a few kernels on `gpus`, synchronize, free.
    pub fn workload(&self, gpus: &[u32]) {
        self.hip("hipSetDevice");
        self.hip("hipMalloc");
        self.range(c"upload", || {
            for &g in gpus {
                self.copy_to_gpu(g, 1 << 20);
            }
        });
        self.range(c"compute", || {
            for step in 0..3u32 {
                for &g in gpus {
                    self.launch(g, "vector_add", 1 << 16, 256);
                    self.launch(g, "reduce_sum", 4096 << step, 64);
                }
            }
        });
        self.hip("hipDeviceSynchronize");
        self.hip("hipFree");
    }

    /// Process exit: the SDK finalizes every tool.
    pub fn shutdown(&self) {
        self.mock.shutdown();
    }
}
