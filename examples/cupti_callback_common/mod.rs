//! What the cupti callback examples share: the library, and a small CUDA workload that runs on
//! a GPU through cudarc or, where there is none, is played by the mock `libcupti`.

#![allow(dead_code)]

pub mod gpu;
pub mod pairing;

use std::path::Path;
use std::sync::Arc;

use cupti::Cupti;

/// Where the workload runs.
pub enum Backend {
    /// A real GPU: the real `libcupti` sees real CUDA calls.
    Gpu(Arc<cudarc::driver::CudaContext>),
    /// No GPU: the mock `libcupti` plays the calls (`mock_cupti_*`).
    Mock(accelprof_mocks::cupti::MockCupti),
}

/// The library and the workload.
pub struct Setup {
    pub cupti: &'static Cupti,
    pub backend: Backend,
}

/// The real library and device 0 when a GPU is usable, else the mock (with a message saying
/// so). Exits with a message when the real `libcupti` cannot be found.
pub fn setup() -> Setup {
    match gpu::available() {
        Ok(()) => {
            let cupti = Cupti::global().unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(1)
            });
            println!("CUPTI {} from {}", cupti.api_version(), cupti.path().display());
            let ctx = gpu::context().unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(1)
            });
            Setup { cupti, backend: Backend::Gpu(ctx) }
        }
        Err(why) => {
            println!("No CUDA GPU here ({why}).");
            println!("Running the same workload on the mock libcupti, which plays the CUDA calls.\n");
            let cupti = Cupti::init_global(Some(Path::new(accelprof_mocks::cupti::LIBRARY)))
                .expect("the mock libcupti built with this checkout opens");
            Setup {
                cupti,
                backend: Backend::Mock(
                    accelprof_mocks::cupti::MockCupti::open(accelprof_mocks::cupti::LIBRARY)
                        .expect("the mock libcupti's controls"),
                ),
            }
        }
    }
}

impl Setup {
    /// Runs the workload with `launches` kernel launches.
    pub fn run_workload(&self, launches: usize) -> Result<(), String> {
        match &self.backend {
            Backend::Gpu(ctx) => {
                gpu::driver_workload(ctx, launches)?;
                if gpu::runtime_available() {
                    gpu::runtime_workload()?;
                } else {
                    println!(
                        "(libcudart cannot be loaded: runtime API calls skipped; add CUDA's library \
                         directory to LD_LIBRARY_PATH)"
                    );
                }
                Ok(())
            }
            Backend::Mock(mock) => {
                for _ in 0..launches.max(1) / 2 {
                    mock.workload();
                }
                Ok(())
            }
        }
    }

    /// Whether the workload runs on a real GPU.
    pub fn on_gpu(&self) -> bool {
        matches!(self.backend, Backend::Gpu(_))
    }
}
