//! The tracer as a library, against the mock libcupti: the trace streams to its `.partial` file as
//! batches are delivered (gzip for `.json.gz`), a checkpoint makes everything collected so far readable,
//! the file is renamed at the end with its summary; kernel names are the C++ runtime's.

mod support;

use std::sync::Mutex;

use accelprof_mocks::cupti::MockCupti;
use cupti::activity::{ActivityConfig, ActivityKind, DeviceSync};
use cupti::Cupti;
use cupti_trace::{TraceConfig, Tracer};
use support::*;

/// One mock per process, and CUPTI's activity callbacks are process-wide: one test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn cupti() -> &'static Cupti {
    Cupti::init_global(Some(mock_path())).expect("the mock opens")
}

fn mock() -> MockCupti {
    let m = MockCupti::open(mock_path()).expect("the mock libcupti's controls");
    m.reset();
    m
}

fn config(output: std::path::PathBuf) -> TraceConfig {
    let kinds =
        [ActivityKind::CONCURRENT_KERNEL, ActivityKind::MEMCPY, ActivityKind::RUNTIME, ActivityKind::DRIVER];
    TraceConfig {
        output: Some(output),
        activity: ActivityConfig {
            kinds: kinds.into_iter().collect(),
            device_sync: DeviceSync::custom(|| {
                MockCupti::open(mock_path()).expect("the mock libcupti's controls").device_synchronize();
                Ok(true)
            }),
            ..TraceConfig::default().activity
        },
        ..TraceConfig::default()
    }
}

#[test]
fn the_trace_streams_to_its_partial_file_and_is_renamed_with_its_summary() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let m = mock();
    let dir = temp_dir("streams");
    let output = dir.join("t.json.gz");
    let tracer = Tracer::start(cupti(), config(output.clone())).unwrap();
    let partial = tracer.partial_path().unwrap().to_path_buf();
    assert!(
        partial.to_string_lossy().ends_with(".json.gz") && partial.to_string_lossy().contains(".partial-")
    );
    for round in 1..=3 {
        for _ in 0..100 {
            launch(&m, c"_ZN4demo6kernelEv", 7);
        }
        m.memcpy(0x1, 0x2, 1 << 20, 1, 7, 1, 5_000);
        tracer.checkpoint().unwrap();
        // Everything so far is in the file, which is a whole (gzip) trace.
        let now = read_trace(&partial);
        assert_eq!(kernels_named(&now, "demo::kernel()").len(), 100 * round);
        let flows = events(&now).iter().filter(|e| e["cat"] == "ac2g").count();
        assert_eq!(flows, 2 * 101 * round, "an arrow per launch and copy, written with its batch");
        assert!(!output.exists());
    }
    let report = tracer.finish();
    assert!(report.write_result.is_ok(), "{:?}", report.write_result);
    assert!(!partial.exists());
    let file = report.trace.as_ref().unwrap();
    assert_eq!(file.path, output);
    assert!(file.file_bytes * 3 < file.json_bytes, "compressed: {file:?}");
    let trace = read_trace(&output);
    assert_eq!(kernels_named(&trace, "demo::kernel()").len(), 300);
    let summary = &trace["traceSummary"];
    assert_eq!(summary["kernel_records"], 300);
    assert_eq!(summary["records_dropped"], 0);
    assert_eq!(summary["kernels"][0]["name"], "demo::kernel()");
    assert_eq!(trace["traceFlows"]["arrows"], 303);
    assert_eq!(trace["traceFlows"]["gpu_work_whose_launch_was_pushed_out"], 0);
    assert_eq!(report.trace.as_ref().unwrap().flows.linked, 303);
    assert!(report.render(5, true).contains(&format!("trace: {}", output.display())));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kernel_names_are_the_cxx_runtimes_as_pytorchs_profiler_shows_them() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Every CUDA C++ process has libstdc++; this Rust test process gets it the way a Python extension
    // module brings it (a library loaded without global visibility).
    // SAFETY: libstdc++'s initialisers are the C++ runtime's own.
    let _cxx = unsafe { libloading::Library::new("libstdc++.so.6") }.expect("libstdc++.so.6 is installed");
    let m = mock();
    let dir = temp_dir("names");
    let output = dir.join("t.json");
    let tracer = Tracer::start(cupti(), config(output.clone())).unwrap();
    let mangled = [
        (
            c"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_",
            "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
        ),
        (
            c"_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastINS0_2OpEEEvRKT_EUliE_EEviT1_",
            "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::Op>(at::native::Op const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::Op>(at::native::Op const&)::{lambda(int)#1})",
        ),
        (c"triton_poi_fused_add_0", "triton_poi_fused_add_0"),
    ];
    for (raw, _) in &mangled {
        for _ in 0..3 {
            launch(&m, raw, 7);
        }
    }
    let report = tracer.finish();
    assert_eq!(report.demangler, Some("abi::__cxa_demangle"));
    let trace = read_trace(&output);
    assert_eq!(trace["kernel_name_demangler"], "abi::__cxa_demangle");
    for (raw, shown) in mangled {
        assert_eq!(kernels_named(&trace, shown).len(), 3, "{raw:?} is shown as {shown}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 14: a session asked for a buffer or a bound past the pool's limits gets a typed error back
/// (it used to overflow a multiplication or abort on allocation).
#[test]
fn sizes_past_the_pools_limits_are_an_error_from_the_session_not_an_abort() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let _m = mock();
    for (buffer_size, max_buffers) in [(1usize << 50, 16), (usize::MAX, 16), (4 << 20, 1 << 40)] {
        let config = cupti::activity::ActivityConfig { buffer_size, max_buffers, ..Default::default() };
        let err = cupti::activity::ActivitySession::new(cupti(), config).unwrap_err();
        assert!(err.to_string().contains("above the pool's limit"), "{err}");
    }
    // And the session can be made afterwards (nothing was left half set up).
    let session = cupti::activity::ActivitySession::new(cupti(), Default::default()).unwrap();
    drop(session);
}
