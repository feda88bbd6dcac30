//! Ascend: an ACL program's calls, made through the global symbol scope as a real program makes
//! them, so that MSPTI's interposed functions see them: on the real CANN, or on the CANN stand-ins
//! with the mock libmspti.so.
//!
//! On an Ascend machine, give the program kernels to launch: `MSPTI_EXAMPLE_KERNEL_BINARY=<an Ascend
//! C kernel .o>` and `MSPTI_EXAMPLE_KERNELS=<its kernel names, comma-separated>`.

use accel_profiling::Distributed;
use accelprof_mocks::ascend::{Acl, CallError, Handle, MemcpyKind};
use accelprof_mocks::mspti::{ASCEND_HOME, LIBRARY};

/// Makes the tracer find the mock libmspti.so and the CANN stand-ins (and keeps that choice across
/// the restart with the mock preloaded).
pub fn use_mock() {
    // Called first thing in `main`, before any thread starts.
    std::env::set_var(super::MOCK_VAR, "mspti");
    std::env::set_var("MSPTI_LIBRARY_PATH", LIBRARY);
    std::env::set_var("ASCEND_HOME_PATH", ASCEND_HOME);
}

/// The runtime, initialized.
pub struct Program {
    acl: Acl,
    /// On the CANN stand-ins: their driver has one NPU, which every rank uses.
    mock: bool,
}

fn check<T>(r: Result<T, CallError>) -> Option<T> {
    r.map_err(|e| eprintln!("{e}")).ok()
}

impl Program {
    /// Loads the runtime (and MSTX, HCCL) and calls `aclInit`.
    pub fn load(mock: bool) -> Result<Program, String> {
        let acl = Acl::load().map_err(|e| format!("the ACL runtime: {e}"))?;
        acl.init().map_err(|e| e.to_string())?;
        Ok(Program { acl, mock })
    }

    /// The kernels to launch: from `MSPTI_EXAMPLE_KERNEL_BINARY` / `MSPTI_EXAMPLE_KERNELS`, else two
    /// kernels of a binary the CANN stand-ins accept.
    fn kernels(&self) -> Vec<(Handle, u32)> {
        let binary = std::env::var("MSPTI_EXAMPLE_KERNEL_BINARY").unwrap_or_else(|_| "kernels.o".into());
        let names =
            std::env::var("MSPTI_EXAMPLE_KERNELS").unwrap_or_else(|_| "add_custom,matmul_custom".into());
        let mut out = Vec::new();
        for (i, name) in names.split(',').map(str::trim).filter(|n| !n.is_empty()).enumerate() {
            match self.acl.kernel(&binary, name) {
                Ok(k) => out.push((k, 8 << (i % 2))),
                Err(e) => {
                    eprintln!("kernel {name} of {binary}: {e}; set MSPTI_EXAMPLE_KERNEL_BINARY and MSPTI_EXAMPLE_KERNELS");
                    return Vec::new();
                }
            }
        }
        out
    }

    /// On device `local_rank` (0 on the stand-ins' one NPU): a stream and buffers, then per step a copy in, the kernels, a set and
    /// an MSTX mark; a synchronize, a one-rank communicator's collectives, and back.
    pub fn steps(&self, steps: usize, d: Distributed) {
        const SIZE: usize = 1 << 20;
        let acl = &self.acl;
        let device = if self.mock { 0 } else { d.local_rank.unwrap_or(d.rank) as i32 };
        check(acl.set_device(device));
        let Some(stream) = check(acl.create_stream()) else { return };
        let kernels = self.kernels();
        let dev = check(acl.malloc(SIZE));
        let host = check(acl.malloc_host(SIZE));
        for step in 0..steps {
            acl.mark(&format!("step {step}"));
            if let (Some(dev), Some(host)) = (dev, host) {
                check(acl.memcpy(dev, host, SIZE, MemcpyKind::HostToDevice));
            }
            for (kernel, blocks) in &kernels {
                check(acl.launch(*kernel, *blocks, stream));
            }
            if let Some(dev) = dev {
                check(acl.memset(dev, 0, SIZE));
            }
        }
        check(acl.synchronize_stream(stream));
        if acl.has_hccl() {
            check(acl.one_rank_collectives(stream, 1024));
            check(acl.synchronize_stream(stream));
        }
        if let Some(dev) = dev {
            check(acl.free(dev));
        }
        if let Some(host) = host {
            check(acl.free_host(host));
        }
        check(acl.destroy_stream(stream));
        check(acl.reset_device(device));
    }
}
