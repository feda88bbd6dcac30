//! Shared by the rocprofiler test files: the mock's `mock_rocprofiler_*` controls, one test at a
//! time against the mock's process-wide state, and running a test body in a fresh process.

#![allow(dead_code)]

use std::ffi::c_char;
use std::sync::{Mutex, MutexGuard, OnceLock};

use rocprofiler_sys::*;

/// The mock's test controls, resolved from the loaded mock.
pub struct Controls {
    pub reset: unsafe extern "C" fn(),
    pub register_configure: unsafe extern "C" fn(rocprofiler_configure_func_t),
    pub load_tools: unsafe extern "C" fn() -> rocprofiler_status_t,
    pub shutdown: unsafe extern "C" fn(),
    pub client_count: unsafe extern "C" fn() -> u32,
    pub set_status_last: unsafe extern "C" fn(u32),
    pub api_begin: unsafe extern "C" fn(u32, i32) -> u64,
    pub api_end: unsafe extern "C" fn() -> u64,
    pub api_call: unsafe extern "C" fn(u32, i32) -> u64,
    pub marker: unsafe extern "C" fn(i32, *const c_char) -> u64,
    pub memory_copy: unsafe extern "C" fn(i32, u64, u64, u64) -> u64,
    pub kernel_symbol: unsafe extern "C" fn(*const c_char) -> u64,
    pub dispatch_begin: unsafe extern "C" fn(u64, u64, u64, u32, u32, u32, u32, u32, u32) -> u64,
    pub dispatch_end: unsafe extern "C" fn(u64) -> i32,
    pub dispatch: unsafe extern "C" fn(u64, u64, u64, u32, u32, u32, u32, u32, u32) -> u64,
    pub dispatch_serialized: unsafe extern "C" fn(u64) -> i32,
    pub dispatch_instrumented: unsafe extern "C" fn(u64) -> i32,
    pub agent_serialization: unsafe extern "C" fn(u64) -> i64,
    pub gpu_agent: unsafe extern "C" fn(u32) -> u64,
    pub cpu_agent: unsafe extern "C" fn() -> u64,
    pub buffer_pending: unsafe extern "C" fn(u64) -> u64,
    pub quiesce: unsafe extern "C" fn(),
}

/// The mock, opened through `rocprofiler-sys` exactly as a program opens the real SDK, and its
/// controls.
pub fn mock() -> &'static (Library, Controls) {
    static MOCK: OnceLock<(Library, Controls)> = OnceLock::new();
    MOCK.get_or_init(|| {
        let lib = Library::open(Some(std::path::Path::new(accel_profiling::MOCK_ROCPROFILER)))
            .expect("open the mock librocprofiler-sdk");
        macro_rules! control {
            ($name:literal) => {
                symbol(&lib, $name)
            };
        }
        let controls = Controls {
            reset: control!(c"mock_rocprofiler_reset"),
            register_configure: control!(c"mock_rocprofiler_register_configure"),
            load_tools: control!(c"mock_rocprofiler_load_tools"),
            shutdown: control!(c"mock_rocprofiler_shutdown"),
            client_count: control!(c"mock_rocprofiler_client_count"),
            set_status_last: control!(c"mock_rocprofiler_set_status_last"),
            api_begin: control!(c"mock_rocprofiler_api_begin"),
            api_end: control!(c"mock_rocprofiler_api_end"),
            api_call: control!(c"mock_rocprofiler_api_call"),
            marker: control!(c"mock_rocprofiler_marker"),
            memory_copy: control!(c"mock_rocprofiler_memory_copy"),
            kernel_symbol: control!(c"mock_rocprofiler_kernel_symbol"),
            dispatch_begin: control!(c"mock_rocprofiler_dispatch_begin"),
            dispatch_end: control!(c"mock_rocprofiler_dispatch_end"),
            dispatch: control!(c"mock_rocprofiler_dispatch"),
            dispatch_serialized: control!(c"mock_rocprofiler_dispatch_serialized"),
            dispatch_instrumented: control!(c"mock_rocprofiler_dispatch_instrumented"),
            agent_serialization: control!(c"mock_rocprofiler_agent_serialization"),
            gpu_agent: control!(c"mock_rocprofiler_gpu_agent"),
            cpu_agent: control!(c"mock_rocprofiler_cpu_agent"),
            buffer_pending: control!(c"mock_rocprofiler_buffer_pending"),
            quiesce: control!(c"mock_rocprofiler_quiesce"),
        };
        (lib, controls)
    })
}

/// A control's address as the function pointer type `T` of its field.
fn symbol<T: Copy>(lib: &Library, name: &std::ffi::CStr) -> T {
    assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<*mut std::ffi::c_void>());
    let p = lib.raw_symbol(name).unwrap_or_else(|| panic!("mock lacks {name:?}"));
    // SAFETY: the mock exports this control as a C function of the field's type `T` (a function
    // pointer, checked to be pointer-sized above).
    unsafe { std::mem::transmute_copy::<*mut std::ffi::c_void, T>(&p.as_ptr()) }
}

/// The mock's state is process-wide: tests take this lock and reset the mock first.
pub fn exclusive() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: a control without arguments.
    unsafe { (mock().1.reset)() };
    guard
}

/// The mock's controls.
pub fn ctl() -> &'static Controls {
    &mock().1
}

/// Handle of GPU `i` of the mock.
pub fn gpu(i: u32) -> u64 {
    // SAFETY: a control with plain arguments.
    unsafe { (mock().1.gpu_agent)(i) }
}

/// Handle of the mock's CPU agent.
pub fn cpu() -> u64 {
    // SAFETY: a control without arguments.
    unsafe { (mock().1.cpu_agent)() }
}

const CHILD_VAR: &str = "ROCPROFILER_TEST_CHILD";

/// Runs the calling test again in a new process (so that nothing is loaded yet), with `env`.
/// Returns true in that child, where the test body should run; in the parent it waits for the
/// child and fails the test if the child failed.
pub fn in_fresh_process(test: &str, env: &[(&str, Option<&str>)]) -> bool {
    if std::env::var_os(CHILD_VAR).is_some() {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = std::process::Command::new(exe);
    cmd.args([test, "--exact", "--nocapture", "--test-threads=1"]).env(CHILD_VAR, "1");
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().expect("run the test binary");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "child process for {test} failed:\n{text}");
    assert!(text.contains("1 passed"), "child process did not run {test}:\n{text}");
    false
}

pub mod tool;
