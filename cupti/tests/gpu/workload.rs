//! A small real CUDA workload through cudarc (loaded at run time): driver calls (context, module
//! from hand-written PTX, allocation, copies, kernel launches, synchronization) and, where
//! `libcudart` can be loaded, runtime calls (`cudaMalloc`, `cudaMemcpy`, `cudaMemset`,
//! `cudaDeviceSynchronize`, `cudaFree`).

#![allow(dead_code)]

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;

/// `add_one(float* data, unsigned n)`: `data[i] += 1` for `i < n`. Hand-written PTX, so no NVRTC
/// is needed; the driver JIT-compiles it for the GPU.
pub const ADD_ONE_PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry add_one(
    .param .u64 data,
    .param .u32 n
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<5>;

    ld.param.u64 %rd1, [data];
    ld.param.u32 %r2, [n];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r1, %r3, %r4, %r5;
    setp.ge.u32 %p1, %r1, %r2;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f1, [%rd4];
    add.f32 %f2, %f1, 0f3F800000;
    st.global.f32 [%rd4], %f2;
DONE:
    ret;
}
"#;

/// Elements the workload processes.
pub const N: usize = 1 << 16;

/// Why there is no usable GPU, or `Ok(())`: libcuda loads, `cuInit` succeeds, a device exists.
pub fn available() -> Result<(), String> {
    // SAFETY: only tries to dlopen libcuda.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("libcuda.so (the NVIDIA driver) cannot be loaded".into());
    }
    cudarc::driver::result::init().map_err(|e| format!("cuInit failed: {e:?}"))?;
    match cudarc::driver::result::device::get_count() {
        Ok(n) if n > 0 => Ok(()),
        Ok(_) => Err("the driver reports no CUDA device".into()),
        Err(e) => Err(format!("cuDeviceGetCount failed: {e:?}")),
    }
}

/// Whether `libcudart` can be loaded (for the runtime half of the workload).
pub fn runtime_available() -> bool {
    // SAFETY: only tries to dlopen libcudart.
    unsafe { cudarc::runtime::sys::is_culib_present() }
}

/// The device context the workload runs in (created on first use, device 0).
pub fn context() -> Result<Arc<CudaContext>, String> {
    CudaContext::new(0).map_err(|e| format!("creating a context on device 0: {e:?}"))
}

/// Copies `N` floats in, launches `add_one` `launches` times, copies them back, synchronizes,
/// and checks the result. Driver API calls only.
pub fn driver_workload(ctx: &Arc<CudaContext>, launches: usize) -> Result<(), String> {
    let err = |what: &'static str| move |e: cudarc::driver::DriverError| format!("{what}: {e:?}");
    let stream = ctx.default_stream();
    let module = ctx.load_module(Ptx::from_src(ADD_ONE_PTX)).map_err(err("loading the PTX module"))?;
    let add_one = module.load_function("add_one").map_err(err("finding add_one"))?;
    let host = vec![1.0f32; N];
    let mut data = stream.clone_htod(&host).map_err(err("copying in"))?;
    let n = N as u32;
    for _ in 0..launches {
        let mut launch = stream.launch_builder(&add_one);
        launch.arg(&mut data).arg(&n);
        // SAFETY: `add_one(float*, unsigned)` gets a buffer of `n` floats and `n`.
        unsafe { launch.launch(LaunchConfig::for_num_elems(n)) }.map_err(err("launching add_one"))?;
    }
    let back = stream.clone_dtoh(&data).map_err(err("copying out"))?;
    stream.synchronize().map_err(err("synchronizing"))?;
    let want = 1.0 + launches as f32;
    if back.iter().any(|&x| x != want) {
        return Err(format!("add_one computed {} instead of {want}", back[0]));
    }
    Ok(())
}

/// `cudaMalloc`, `cudaMemcpy` in, `cudaMemset`, `cudaMemcpy` out, `cudaDeviceSynchronize`,
/// `cudaFree`: runtime API calls (each runs driver calls underneath).
pub fn runtime_workload() -> Result<(), String> {
    let err = |what: &'static str| move |e: cudarc::runtime::result::RuntimeError| format!("{what}: {e:?}");
    let host = vec![7u8; 1 << 20];
    let mut back = vec![0u8; 1 << 20];
    // SAFETY: plain runtime calls on a buffer of `host.len()` bytes that is freed at the end;
    // the host slices outlive the synchronous copies.
    unsafe {
        let device: *mut c_void =
            cudarc::runtime::result::malloc_sync(host.len()).map_err(err("cudaMalloc"))?;
        cudarc::runtime::result::memcpy_htod_sync(device, &host).map_err(err("cudaMemcpy in"))?;
        cudarc::runtime::result::memset_d8_sync(device, 3, host.len() / 2).map_err(err("cudaMemset"))?;
        cudarc::runtime::result::memcpy_dtoh_sync(&mut back, device).map_err(err("cudaMemcpy out"))?;
        cudarc::runtime::sys::cudaDeviceSynchronize().result().map_err(err("cudaDeviceSynchronize"))?;
        cudarc::runtime::result::free_sync(device).map_err(err("cudaFree"))?;
    }
    if back[0] != 3 || back[back.len() - 1] != 7 {
        return Err("the runtime copies read back wrong bytes".into());
    }
    Ok(())
}
