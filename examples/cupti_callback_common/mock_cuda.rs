//! The CUDA runtime played by the mock `libcupti` (its `mock_cupti_*` controls), for the cupti
//! callback examples on machines without a GPU and for the tests. The mock is one per process:
//! the same file that `cupti::Cupti::open` opened, opened again with `dlopen` (same handle).

#![allow(dead_code)]

use std::ffi::CStr;
use std::ops::Deref;

use accel_profiling::mock::cupti::MockCupti;

/// The mock's controls ([`MockCupti`]) and the workload helpers of the examples.
pub struct MockCuda(MockCupti);

impl Deref for MockCuda {
    type Target = MockCupti;

    fn deref(&self) -> &MockCupti {
        &self.0
    }
}

impl MockCuda {
    /// The mock at `path` (`accel_profiling::MOCK_CUPTI`).
    pub fn open(path: &str) -> MockCuda {
        MockCuda(MockCupti::open(path))
    }

    /// `name<<<grid, block, shared, stream>>>` through `cudaLaunchKernel`.
    pub fn launch(&self, name: &CStr, grid: [u32; 3], block: [u32; 3], shared: u32, stream: u64) -> u32 {
        let ([gx, gy, gz], [bx, by, bz]) = (grid, block);
        self.launch_kernel(name.as_ptr(), gx, gy, gz, bx, by, bz, shared, stream, 2_000)
    }

    /// The same through `cuLaunchKernel`.
    pub fn launch_driver(
        &self,
        name: &CStr,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        stream: u64,
    ) -> u32 {
        let ([gx, gy, gz], [bx, by, bz]) = (grid, block);
        self.launch_kernel_driver(name.as_ptr(), gx, gy, gz, bx, by, bz, shared, stream, 2_000)
    }

    /// A small workload, as the GPU examples run it: allocate, copy in, launch twice (runtime
    /// and driver), copy out, synchronize, free.
    pub fn workload(&self) {
        let mut address = 0u64;
        self.malloc(4096, &mut address);
        self.memcpy(address, 0x7000_0000, 4096, 1, 0, 0, 1_000);
        self.launch(c"add_one", [4, 1, 1], [256, 1, 1], 0, 0);
        self.launch_driver(c"add_one", [4, 1, 1], [256, 1, 1], 0, 0);
        self.memset(address, 0, 4096, 0, 0, 500);
        self.memcpy(0x7000_0000, address, 4096, 2, 0, 0, 1_000);
        self.device_synchronize();
        self.free(address);
    }
}
