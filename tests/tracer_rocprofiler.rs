//! The tracer on the mock rocprofiler-sdk, in a program that traces itself: the tracer registers
//! through `rocprofiler_force_configure` (the SDK's tool window, once per process), the mock's
//! controls play the HIP program. Each test runs in a process of its own.

mod support;

use std::collections::HashMap;
use std::ffi::CString;

use accel_profiling::{Distributed, Family, FamilySet, Tracer, TracerConfig, TracerError, Vendor};
use accelprof_mocks::rocprofiler::{MockRocprofiler, LIBRARY};
use rocprofiler::{CallbackDomain, Rocprofiler};
use support::{in_child, ChildEnv};

fn config(families: FamilySet, outputs: Vec<accel_profiling::Output>) -> TracerConfig {
    TracerConfig {
        vendor: Vendor::Rocprofiler,
        library: Some(LIBRARY.into()),
        families,
        outputs,
        distributed: Some(Distributed::default()),
        ..TracerConfig::default()
    }
}

/// The mock's controls and the SDK's HIP operation ids.
struct Program {
    mock: MockRocprofiler,
    hip: HashMap<String, i32>,
}

impl Program {
    fn new() -> Program {
        let sdk = Rocprofiler::open_path(LIBRARY).expect("the mock SDK");
        let hip = sdk
            .callback_operations(CallbackDomain::HIP_RUNTIME_API)
            .expect("HIP operations")
            .into_iter()
            .map(|(op, name)| (name, op.0))
            .collect();
        Program { mock: MockRocprofiler::open(LIBRARY).expect("the mock rocprofiler-sdk's controls"), hip }
    }

    fn hip(&self, name: &str, body: impl FnOnce()) {
        self.mock.api_begin(CallbackDomain::HIP_RUNTIME_API.0, self.hip[name]);
        body();
        self.mock.api_end();
    }

    /// `kernels` launches of `name` on GPU `gpu` (each a `hipLaunchKernel`).
    fn launches(&self, gpu: u32, name: &str, kernels: usize) {
        let c = CString::new(name).unwrap();
        let kernel = self.mock.kernel_symbol(&c);
        let agent = self.mock.gpu_agent(gpu);
        for _ in 0..kernels {
            self.hip("hipLaunchKernel", || {
                self.mock.dispatch(agent, 1, kernel, 1024, 1, 1, 64, 1, 1);
            });
        }
    }

    /// A roctx range around a copy in and three kernels on GPU `gpu`.
    fn run(&self, gpu: u32) {
        self.hip("hipMalloc", || {});
        self.mock.marker(1, Some(c"phase"));
        self.hip("hipMemcpy", || {
            self.mock.memory_copy(2, self.mock.cpu_agent(), self.mock.gpu_agent(gpu), 1 << 20);
        });
        self.launches(gpu, "vector_add", 2);
        self.launches(gpu, "reduce_sum", 1);
        self.mock.marker(2, None);
        self.hip("hipDeviceSynchronize", || {});
    }
}

#[test]
fn a_hip_programs_records_reach_the_trace() {
    if !in_child("a_hip_programs_records_reach_the_trace", ChildEnv::new()) {
        return;
    }
    let dir = support::temp_dir("rocprofiler-all");
    let path = dir.join("trace.json");
    let tracer = Tracer::new(config(TracerConfig::COMMON, vec![path.as_path().into()])).expect("a tracer");
    assert_eq!(tracer.vendor(), Vendor::Rocprofiler);
    assert_eq!(tracer.library().version, "1.0.0");
    let skipped: Vec<Family> = tracer.skipped().iter().map(|s| s.family).collect();
    assert_eq!(skipped, [Family::MEMSET, Family::COLLECTIVE], "{:?}", tracer.skipped());
    assert_eq!(tracer.families(), FamilySet::KERNEL | FamilySet::MEMCPY | FamilySet::API | FamilySet::MARKER);
    tracer.start().expect("start the context");
    let program = Program::new();
    program.run(1);
    let report = tracer.stop();

    assert!(report.is_complete(), "{}", report.render(10));
    assert_eq!(report.rows_of(Family::KERNEL), 3, "{}", report.render(10));
    assert_eq!(report.rows_of(Family::MEMCPY), 1);
    assert_eq!(
        report.rows_of(Family::API),
        6,
        "malloc, memcpy, 3 launches, synchronize: {}",
        report.render(10)
    );
    assert_eq!(report.rows_of(Family::MARKER), 2, "the push and the pop");
    assert!(report.counts.adds_up() && report.counts.dropped() == 0, "{}", report.counts);
    assert_eq!(report.counts.extra("sdk_drop_count"), Some(0));

    let trace = support::trace::check(&path);
    assert_eq!(trace.count("kernel"), 3, "{:?}", trace.by_cat);
    assert_eq!(trace.count("gpu_memcpy"), 1);
    assert_eq!(trace.count("cuda_runtime"), 6, "HIP calls under Kineto's category on AMD");
    assert_eq!(trace.flows, 4, "an arrow from each launch and the copy");
    assert_eq!(trace.kernel_devices, [1].into_iter().collect(), "GPU 1's kernels on device 1");
    let devices = trace.doc["deviceProperties"].as_array().expect("the SDK's GPU agents");
    assert!(!devices.is_empty() && devices[0]["gcnArchName"].is_string(), "{devices:?}");
    assert_eq!(tracer_api_domain(), "hip_runtime_api");
}

/// The name of the HIP domain (a second tracer in the process, on the same setup).
fn tracer_api_domain() -> String {
    let tracer = Tracer::new(config(FamilySet::API, Vec::new())).expect("the same setup");
    tracer.api_domain_name(rocprofiler::BufferKind::HIP_RUNTIME_API.0).expect("named").into_owned()
}

#[test]
fn later_tracers_reuse_the_processs_setup_and_count_their_own_records() {
    if !in_child("later_tracers_reuse_the_processs_setup_and_count_their_own_records", ChildEnv::new()) {
        return;
    }
    let program = Program::new();
    let first =
        Tracer::new(config(FamilySet::KERNEL | FamilySet::API, Vec::new())).expect("the first tracer");
    first.start().expect("start");
    program.launches(0, "first", 2);
    let report = first.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 2, "{}", report.render(5));

    // Stopped: the context collects nothing until the next tracer starts it.
    program.launches(0, "between", 5);
    let second = Tracer::new(config(FamilySet::KERNEL, Vec::new())).expect("fewer families: the same setup");
    assert_eq!(second.counts().produced(), 0, "nothing of the first tracer's: {}", second.counts());
    second.start().expect("start again");
    program.launches(0, "second", 1);
    let report = second.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 1, "{}", report.render(5));
    assert_eq!(report.rows_of(Family::API), 1, "the setup traces API calls, so they reach the tracer too");
    assert!(report.counts.adds_up(), "{}", report.counts);
    assert_eq!(report.counts.produced(), 2, "{}", report.counts);

    let e = Tracer::new(config(FamilySet::MARKER, Vec::new())).expect_err("markers were not set up");
    assert!(matches!(&e, TracerError::Config(m) if m.contains("once per process")), "{e}");
}

/// `n` launches of one kernel on GPU 0.
fn kernels(n: usize) {
    Program::new().launches(0, "window_kernel", n);
}

#[test]
fn paused_work_is_not_collected_and_the_windows_are_counted() {
    if !in_child("paused_work_is_not_collected_and_the_windows_are_counted", ChildEnv::new()) {
        return;
    }
    support::window::pause_and_resume(config(TracerConfig::COMMON, Vec::new()), &kernels);
}

#[test]
fn collection_begins_after_the_delay_and_the_outputs_are_finished_after_the_duration() {
    let name = "collection_begins_after_the_delay_and_the_outputs_are_finished_after_the_duration";
    if !in_child(name, ChildEnv::new()) {
        return;
    }
    let dir = support::temp_dir("rocprofiler-window");
    support::window::delay_then_duration(config(TracerConfig::COMMON, Vec::new()), dir.path(), &kernels);
}

#[test]
fn the_file_follows_the_run_within_the_flush_period() {
    if !in_child("the_file_follows_the_run_within_the_flush_period", ChildEnv::new()) {
        return;
    }
    let dir = support::temp_dir("rocprofiler-periodic");
    support::window::the_file_follows_the_run(config(TracerConfig::COMMON, Vec::new()), dir.path(), &kernels);
}

#[test]
fn the_toggle_signal_pauses_and_resumes() {
    if !in_child("the_toggle_signal_pauses_and_resumes", ChildEnv::new()) {
        return;
    }
    support::window::toggle_signal(config(TracerConfig::COMMON, Vec::new()), &kernels);
}

#[test]
fn a_terminating_signal_finishes_the_outputs_then_kills() {
    if support::is_child() {
        return support::window::signal_child(config(TracerConfig::COMMON, Vec::new()), &kernels);
    }
    support::window::signal_finishes_the_outputs(
        "a_terminating_signal_finishes_the_outputs_then_kills",
        ChildEnv::new(),
        Vendor::Rocprofiler,
    );
}

/// With the profiler-API capture range, only the work between roctxProfilerResume and
/// roctxProfilerPause is collected, one window per range.
#[test]
fn the_profiler_api_capture_range_collects_between_roctx_resume_and_pause() {
    if !in_child("the_profiler_api_capture_range_collects_between_roctx_resume_and_pause", ChildEnv::new()) {
        return;
    }
    let sdk = Rocprofiler::open_path(LIBRARY).expect("the mock SDK");
    let ops: HashMap<String, i32> = sdk
        .callback_operations(CallbackDomain::MARKER_CONTROL_API)
        .expect("the marker control operations")
        .into_iter()
        .map(|(op, name)| (name, op.0))
        .collect();
    let mock = MockRocprofiler::open(LIBRARY).expect("the mock rocprofiler-sdk's controls");
    let call =
        |name: &str| assert_ne!(mock.api_call(CallbackDomain::MARKER_CONTROL_API.0, ops[name]), 0, "{name}");
    let config = TracerConfig {
        capture_range: accel_profiling::CaptureRange::ProfilerApi,
        ..config(TracerConfig::COMMON, Vec::new())
    };
    let tracer = Tracer::new(config).expect("a tracer following roctxProfilerPause/Resume");
    tracer.start().expect("start");
    assert!(!tracer.is_collecting(), "waiting for roctxProfilerResume");
    for round in [7, 3] {
        kernels(5);
        call("roctxProfilerResume");
        assert!(tracer.is_collecting());
        kernels(round);
        call("roctxProfilerPause");
        assert!(!tracer.is_collecting());
    }
    kernels(5);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 10, "{}", report.render(5));
    assert_eq!(report.windows, 2);
    // The roctx calls reach nobody once the tracer ended (the control context is stopped).
    call("roctxProfilerResume");
}
