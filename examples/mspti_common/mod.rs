//! Shared by the `mspti_*` examples: opens MSPTI with `libmspti.so` preloaded, and runs a short
//! ACL workload whose calls MSPTI sees.
//!
//! - On an Ascend machine (CANN installed, `source set_env.sh` done) the real `libmspti.so` is
//!   found by the search order and the workload runs on the NPU. Its kernel launches need a kernel
//!   binary: set `MSPTI_EXAMPLE_KERNEL_BINARY=<an Ascend C kernel .o>` and
//!   `MSPTI_EXAMPLE_KERNELS=<its kernel names, comma-separated>` (without them the workload makes
//!   every other call and says it launched nothing).
//! - Anywhere else the mock `libmspti.so` built for this checkout is used, with its CANN
//!   stand-ins (a runtime with one simulated device, HCCL, MSTX, the driver).
//!
//! Either way the workload is what a real ACL program does: `libascendcl.so` (and
//! `libms_tools_ext.so`, `libhccl.so`) in the global symbol scope, every call a global-scope call
//! (`accelprof_mocks::ascend::Acl`), so that MSPTI's interposed `aclrt*`/`Hccl*` functions are
//! what the calls reach. MSPTI delivers callbacks only when `libmspti.so` is preloaded: [`setup`]
//! restarts the example with it in `LD_PRELOAD`, as `mspti::preload::reexec_with_preload` does
//! for any program.
#![allow(dead_code)]

use std::path::PathBuf;

use accelprof_mocks::ascend::{Acl, Handle, MemcpyKind};
use accelprof_mocks::mspti::{ASCEND_HOME as MOCK_ASCEND_HOME, LIBRARY as MOCK_MSPTI};
use mspti::Mspti;

/// The opened library and the runtime.
pub struct Setup {
    pub mspti: &'static Mspti,
    pub acl: &'static Acl,
}

/// Opens MSPTI (restarting the program once with `libmspti.so` preloaded when needed), loads the
/// runtime and calls `aclInit`.
pub fn setup() -> Setup {
    if !mspti::preload::is_preloaded() {
        let (library, env): (PathBuf, Vec<(&str, &std::ffi::OsStr)>) = match Mspti::open() {
            Ok(m) => (m.sys().loaded().path().to_path_buf(), Vec::new()),
            Err(e) => {
                eprintln!(
                    "no usable libmspti.so here ({e})\n-> using the mock MSPTI built for this checkout"
                );
                (
                    PathBuf::from(MOCK_MSPTI),
                    vec![
                        ("ASCEND_HOME_PATH", MOCK_ASCEND_HOME.as_ref()),
                        ("MSPTI_LIBRARY_PATH", MOCK_MSPTI.as_ref()),
                    ],
                )
            }
        };
        eprintln!("restarting with LD_PRELOAD={}", library.display());
        if let Err(e) = mspti::preload::reexec_with_preload(&library, &env) {
            eprintln!("could not restart with libmspti.so preloaded ({e}); callbacks will be refused");
        }
    }
    let mspti = match Mspti::open() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let loaded = mspti.sys().loaded();
    eprintln!("MSPTI: {} (found: {})", loaded.path().display(), loaded.origin());
    let acl = match Acl::load() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("the ACL runtime: {e}");
            std::process::exit(1);
        }
    };
    eprintln!("runtime: {}", acl.runtime.display());
    if let Err(e) = acl.init() {
        eprintln!("{e}");
        std::process::exit(1);
    }
    Setup { mspti: Box::leak(Box::new(mspti)), acl: Box::leak(Box::new(acl)) }
}

/// The kernels the workload launches: from `MSPTI_EXAMPLE_KERNEL_BINARY` / `MSPTI_EXAMPLE_KERNELS`,
/// else three launches of two kernels of a binary the CANN stand-ins accept.
fn kernels(acl: &Acl) -> Vec<(String, Handle, u32)> {
    let binary = std::env::var("MSPTI_EXAMPLE_KERNEL_BINARY").unwrap_or_else(|_| "kernels.o".into());
    let names = std::env::var("MSPTI_EXAMPLE_KERNELS")
        .unwrap_or_else(|_| "add_custom,matmul_custom,add_custom".into());
    let mut out = Vec::new();
    for (i, name) in names.split(',').map(str::trim).filter(|n| !n.is_empty()).enumerate() {
        match acl.kernel(&binary, name) {
            Ok(k) => out.push((name.to_string(), k, 8 << (i % 2))),
            Err(e) => {
                eprintln!(
                    "kernel {name} of {binary}: {e}; set MSPTI_EXAMPLE_KERNEL_BINARY and MSPTI_EXAMPLE_KERNELS \
                     to launch kernels"
                );
                return Vec::new();
            }
        }
    }
    out
}

fn check<T>(r: Result<T, accelprof_mocks::ascend::CallError>) -> Option<T> {
    r.map_err(|e| eprintln!("{e}")).ok()
}

/// A short runtime sequence on device 0: device, stream, allocations, a copy, the kernel
/// launches, a memset, a synchronize, frees, and back.
pub fn runtime_calls(acl: &Acl) {
    runtime_calls_with(acl, |_| {});
}

/// [`runtime_calls`], telling `created` the stream once it exists (before the first launch), as
/// the guide's samples hand their stream to the callback through `userdata`.
pub fn runtime_calls_with(acl: &Acl, created: impl FnOnce(Handle)) {
    const SIZE: usize = 1 << 20;
    check(acl.set_device(0));
    let Some(stream) = check(acl.create_stream()) else { return };
    created(stream);
    let kernels = kernels(acl);
    let dev = check(acl.malloc(SIZE));
    let host = check(acl.malloc_host(SIZE));
    if let (Some(dev), Some(host)) = (dev, host) {
        check(acl.memcpy(dev, host, SIZE, MemcpyKind::HostToDevice));
    }
    for (_, kernel, blocks) in &kernels {
        check(acl.launch(*kernel, *blocks, stream));
    }
    if let Some(dev) = dev {
        check(acl.memset(dev, 0, SIZE));
    }
    check(acl.synchronize_stream(stream));
    if let Some(dev) = dev {
        check(acl.free(dev));
    }
    if let Some(host) = host {
        check(acl.free_host(host));
    }
    check(acl.destroy_stream(stream));
    check(acl.reset_device(0));
}

/// A one-rank communicator and five collectives on device 0 (needs `libhccl.so`).
pub fn hccl_calls(acl: &Acl) {
    if !acl.has_hccl() {
        eprintln!("libhccl.so is not installed: no collectives");
        return;
    }
    check(acl.set_device(0));
    let Some(stream) = check(acl.create_stream()) else { return };
    check(acl.one_rank_collectives(stream, 1024));
    check(acl.synchronize_stream(stream));
    check(acl.destroy_stream(stream));
}

/// At the end: `aclFinalize`.
pub fn finish(acl: &Acl) {
    check(acl.finalize());
}

/// Nanoseconds since the Unix epoch (what the guide's `GetCurrentTimestamp` returns, and the clock
/// of MSPTI's records).
pub fn now_ns() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
