//! The engine's capture window on a real NVIDIA GPU (CUPTI): `Tracer::pause`/`resume` and the
//! profiler-API capture range (`cuProfilerStart`/`cuProfilerStop`) collect exactly the kernels of
//! the work done while collection was on. Real CUDA work through cudarc; the mock's tests
//! (`tests/tracer_cupti.rs`) cover the same on every machine.
//!
//! ```text
//! cargo run --example engine_window      # exits 0 when every check passes, 1 (with the reason) else
//! ```

#[path = "cupti_callback_common/gpu.rs"]
mod gpu;

use std::process::ExitCode;
use std::sync::Arc;

use accel_profiling::{CaptureRange, Distributed, Family, FamilySet, Tracer, TracerConfig, Vendor};
use cudarc::driver::CudaContext;

fn tracer(capture_range: CaptureRange) -> Result<Tracer, String> {
    Tracer::new(TracerConfig {
        vendor: Vendor::Cupti,
        families: FamilySet::KERNEL,
        capture_range,
        distributed: Some(Distributed::default()),
        ..TracerConfig::default()
    })
    .map_err(|e| e.to_string())
}

/// `n` kernels, waited for (a kernel's record is written when it completes: collection must still
/// be on then).
fn kernels(ctx: &Arc<CudaContext>, n: usize) -> Result<(), String> {
    gpu::driver_workload(ctx, n)?;
    ctx.synchronize().map_err(|e| format!("cuCtxSynchronize: {e:?}"))
}

fn check(what: &str, ok: bool, detail: String) -> Result<(), String> {
    println!("{} {what}: {detail}", if ok { "ok  " } else { "FAIL" });
    if ok {
        Ok(())
    } else {
        Err(format!("{what}: {detail}"))
    }
}

fn run() -> Result<(), String> {
    gpu::available().map_err(|e| format!("no usable NVIDIA GPU: {e}"))?;
    let ctx = gpu::context()?;

    let t = tracer(CaptureRange::None)?;
    t.start().map_err(|e| e.to_string())?;
    kernels(&ctx, 3)?;
    let paused = t.pause();
    kernels(&ctx, 5)?;
    let resumed = t.resume();
    kernels(&ctx, 2)?;
    let r = t.stop();
    check(
        "pause/resume",
        paused && resumed && r.rows_of(Family::KERNEL) == 5 && r.windows == 2 && r.counts.adds_up(),
        format!(
            "{} kernels (want 5), {} windows (want 2), {}",
            r.rows_of(Family::KERNEL),
            r.windows,
            r.counts
        ),
    )?;

    let t = tracer(CaptureRange::ProfilerApi)?;
    t.start().map_err(|e| e.to_string())?;
    let waiting = !t.is_collecting();
    kernels(&ctx, 4)?;
    // SAFETY: cuProfilerStart/Stop take no arguments; the context is current on this thread.
    let started = unsafe { cudarc::driver::sys::cuProfilerStart() };
    let collecting = t.is_collecting();
    kernels(&ctx, 7)?;
    // SAFETY: as above.
    let stopped = unsafe { cudarc::driver::sys::cuProfilerStop() };
    let after = t.is_collecting();
    kernels(&ctx, 4)?;
    let r = t.stop();
    check(
        "capture range cuProfilerStart..cuProfilerStop",
        waiting && collecting && !after && r.rows_of(Family::KERNEL) == 7 && r.windows == 1,
        format!(
            "{} kernels (want 7), {} windows (want 1), waiting before {waiting}, collecting inside {collecting}, \
             after {after}; cuProfilerStart {started:?}, cuProfilerStop {stopped:?}; {}",
            r.rows_of(Family::KERNEL),
            r.windows,
            r.counts
        ),
    )
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("engine_window FAILED: {e}");
            ExitCode::FAILURE
        }
    }
}
