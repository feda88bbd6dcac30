//! The tracer against the mock `libcupti` (`accelprof-mocks/libs/cupti/`), opened through
//! `cupti::Cupti` exactly as a program opens the real library and driven through its `mock_cupti_*`
//! controls (the test plays the CUDA program): the trace file it writes, and the injection library
//! as the CUDA driver uses it.
//!
//! The mock is one per process and the activity callbacks are process-wide: every test takes the
//! [`setup`] lock, which also resets the mock.

use std::collections::HashSet;
use std::ffi::CStr;
use std::ops::Deref;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use accelprof_mocks::cupti::MockCupti;
use cupti::activity::{ActivityConfig, ActivityKind, DeviceSync};
use cupti::Cupti;

// ---------------------------------------------------------------------------------------------
// The mock and its controls (as in cupti's tests/activity.rs).

/// The mock's controls ([`MockCupti`], reached through `Deref`) and this file's helpers.
struct Mock(MockCupti);

impl Deref for Mock {
    type Target = MockCupti;

    fn deref(&self) -> &MockCupti {
        &self.0
    }
}

static MOCK: OnceLock<Mock> = OnceLock::new();
static CUPTI: OnceLock<Cupti> = OnceLock::new();
static SERIAL: Mutex<()> = Mutex::new(());

fn path() -> &'static Path {
    Path::new(accelprof_mocks::cupti::LIBRARY)
}

fn mock() -> &'static Mock {
    MOCK.get_or_init(|| Mock(MockCupti::open(path()).expect("the mock libcupti's controls")))
}

/// The test lock, a freshly reset mock (13.0), and the process-wide `Cupti` opened on it.
fn setup() -> (MutexGuard<'static, ()>, &'static Cupti, &'static Mock) {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let m = mock();
    m.reset();
    let cupti = CUPTI.get_or_init(|| Cupti::open_path(path()).expect("the mock opens through cupti"));
    (guard, cupti, m)
}

impl Mock {
    /// `name<<<(4,2,1), (128,1,1), 0, stream>>>` lasting 1 us; its correlation id.
    fn launch(&self, name: &CStr, stream: u64) -> u32 {
        self.launch_kernel(name, 4, 2, 1, 128, 1, 1, 0, stream, 1_000)
    }
}

/// A session config whose `flush(true)` synchronizes the mock's device.
fn config(kinds: &[ActivityKind]) -> ActivityConfig {
    ActivityConfig {
        kinds: kinds.iter().copied().collect(),
        device_sync: DeviceSync::custom(|| {
            mock().device_synchronize();
            Ok(true)
        }),
        fence_timeout: Duration::from_secs(20),
        ..ActivityConfig::default()
    }
}

const TIMELINE: [ActivityKind; 5] = [
    ActivityKind::CONCURRENT_KERNEL,
    ActivityKind::MEMCPY,
    ActivityKind::MEMSET,
    ActivityKind::RUNTIME,
    ActivityKind::DRIVER,
];

// ---------------------------------------------------------------------------------------------
// The tracer: trace file with PyTorch profiler's conventions.

#[test]
fn the_tracer_writes_a_trace_with_pytorch_profiler_conventions() {
    let (_g, cupti, m) = setup();
    let dir = std::env::temp_dir().join(format!("cupti_activity_trace_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("trace.json");
    let trace_config = cupti_trace::TraceConfig {
        output: Some(out.clone()),
        activity: config(&TIMELINE),
        ..cupti_trace::TraceConfig::default()
    };
    let tracer = cupti_trace::Tracer::start(cupti, trace_config).unwrap();
    let mut launches = Vec::new();
    for _ in 0..5 {
        launches.push(m.launch(c"_Z9vectorAddPKfS0_Pfi", 7));
    }
    launches.push(m.launch_kernel_driver(c"ampere_sgemm_128x64_tn", 4, 1, 1, 128, 1, 1, 0, 8, 4_000));
    let copy = m.memcpy(0x1, 0x2, 1 << 20, 1, 7, 1, 10_000);
    let set = m.memset(0x3, 0, 4096, 7, 1, 1_000);
    let report = tracer.finish();
    assert!(report.write_result.is_ok(), "{:?}", report.write_result);
    let text = report.render(10, true);
    assert!(text.contains("vectorAdd(float const*, float const*, float*, int)"), "{text}");
    assert_eq!(report.summary.kernels(), 6);

    let raw = std::fs::read_to_string(&out).unwrap();
    // Metadata first (`distributedInfo` too), `traceEvents` after `baseTimeNanoseconds`, HTA's rank
    // regex matches.
    let key = |k: &str| raw.find(&format!("\"{k}\"")).unwrap_or_else(|| panic!("no {k}"));
    assert!(key("schemaVersion") < key("baseTimeNanoseconds"));
    assert!(key("baseTimeNanoseconds") < key("traceEvents"));
    assert!(key("distributedInfo") < key("traceEvents"));
    assert!(raw.contains("\"rank\": 0"), "HTA finds the rank with \"rank\":\\s+(\\d+)");
    let json: serde_json::Value = serde_json::from_str(&raw).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    let of_cat = |cat: &str| events.iter().filter(move |e| e["cat"] == cat).collect::<Vec<_>>();

    let kernels = of_cat("kernel");
    assert_eq!(kernels.len(), 6);
    for k in &kernels {
        assert_eq!(k["ph"], "X");
        for field in ["ts", "dur", "pid", "tid", "name"] {
            assert!(!k[field].is_null(), "{field} in {k}");
        }
        let args = &k["args"];
        for field in ["device", "context", "stream", "correlation", "grid", "block", "registers per thread"] {
            assert!(!args[field].is_null(), "{field} in {k}");
        }
        assert_eq!(k["tid"], args["stream"], "tid = stream");
        assert_eq!(k["pid"], args["device"], "pid = device");
        assert!(k["ts"].as_f64().unwrap() >= 0.0);
    }
    assert_eq!(
        kernels.iter().filter(|k| k["name"] == "vectorAdd(float const*, float const*, float*, int)").count(),
        5
    );
    let copies = of_cat("gpu_memcpy");
    assert_eq!(copies.len(), 1);
    assert!(copies[0]["name"].as_str().unwrap().starts_with("Memcpy HtoD"), "{}", copies[0]);
    assert_eq!(copies[0]["args"]["correlation"], u64::from(copy));
    assert_eq!(copies[0]["args"]["bytes"], 1 << 20);
    assert_eq!(of_cat("gpu_memset")[0]["args"]["correlation"], u64::from(set));

    let runtime = of_cat("cuda_runtime");
    let driver = of_cat("cuda_driver");
    assert_eq!(runtime.iter().filter(|e| e["name"] == "cudaLaunchKernel").count(), 5);
    // Each cudaLaunchKernel launched through a cuLaunchKernel with its correlation id; one more
    // cuLaunchKernel was called directly.
    let driver_launches: Vec<_> = driver.iter().filter(|e| e["name"] == "cuLaunchKernel").collect();
    assert_eq!(driver_launches.len(), 6);
    for corr in &launches {
        let with_id = |events: &[&serde_json::Value]| {
            events.iter().filter(|e| e["args"]["correlation"] == u64::from(*corr)).count()
        };
        assert_eq!((with_id(&runtime), with_id(&driver)), if corr == &launches[5] { (0, 1) } else { (1, 1) });
    }
    for e in runtime.iter().chain(&driver) {
        assert!(e["args"]["stream"].is_null(), "no integer stream on a CPU event: {e}");
        assert!(!e["args"]["correlation"].is_null() && !e["args"]["cbid"].is_null());
    }
    // A flow arrow from each launch (and copy, set) to its GPU work: one per correlation id, from
    // the runtime call where the runtime and its driver call share the id (as PyTorch draws it).
    let flows: Vec<_> = events.iter().filter(|e| e["cat"] == "ac2g").collect();
    let starts: Vec<_> = flows.iter().filter(|e| e["ph"] == "s").collect();
    let start_ids: HashSet<u64> = starts.iter().map(|e| e["id"].as_u64().unwrap()).collect();
    let ends: Vec<_> = flows.iter().filter(|e| e["ph"] == "f").collect();
    assert!(ends.iter().all(|e| e["bp"] == "e"));
    assert_eq!(start_ids.len(), starts.len(), "one flow start per correlation id");
    assert_eq!(starts.len(), ends.len());
    assert_eq!(starts.len(), launches.len() + 2);
    for corr in launches.iter().chain([&copy, &set]) {
        let corr = u64::from(*corr);
        let start = starts.iter().find(|e| e["id"] == corr).unwrap_or_else(|| panic!("flow for {corr}"));
        let api_calls: Vec<&serde_json::Value> =
            runtime.iter().chain(&driver).copied().filter(|e| e["args"]["correlation"] == corr).collect();
        let outer = if api_calls.len() == 1 {
            api_calls[0]
        } else {
            assert_eq!(api_calls.len(), 2, "a runtime call and its driver call: {api_calls:?}");
            let of = |cat: &str| *api_calls.iter().find(|e| e["cat"] == cat).expect(cat);
            let (outer, inner) = (of("cuda_runtime"), of("cuda_driver"));
            let ts = |e: &serde_json::Value| e["ts"].as_f64().unwrap();
            let dur = |e: &serde_json::Value| e["dur"].as_f64().unwrap();
            assert!(ts(outer) <= ts(inner) && ts(inner) + dur(inner) <= ts(outer) + dur(outer), "nested");
            outer
        };
        assert_eq!(
            (&start["ts"], &start["tid"], &start["pid"]),
            (&outer["ts"], &outer["tid"], &outer["pid"])
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// The injection library, as the CUDA driver uses it: loaded into a process, `InitializeInjection`
// called, the program runs, the exit handler writes the trace. Played in a child process (this test
// binary again) so that the process really exits.

const CHILD: &str = "CUPTI_ACTIVITY_TEST_INJECTION_CHILD";

/// The tracer's shared library, built next to this test's dependencies.
fn tracer_library() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().join("libcupti_trace.so")
}

/// The traced program of the next test (run in its child process; ignored in a normal run).
#[test]
#[ignore = "the child process of the_injection_library_traces_a_program_and_reports_at_exit"]
fn injection_child() {
    let out = std::env::var(CHILD).expect("run by the parent test, which sets the output path");
    let m = mock();
    m.reset();
    // What the driver does inside cuInit.
    // SAFETY: the tracer library's initialisers are Rust statics only.
    let lib = unsafe { libloading::Library::new(tracer_library()) }.expect("libcupti_trace.so loads");
    // SAFETY: `int InitializeInjection(void)`, as the CUDA driver calls it.
    let init = unsafe { lib.get::<unsafe extern "C" fn() -> i32>(b"InitializeInjection\0") }.unwrap();
    // SAFETY: as above.
    assert_eq!(unsafe { init() }, 1);
    for _ in 0..7 {
        m.launch(c"_ZN7example6kernelEv", 3);
    }
    m.memcpy(0x1, 0x2, 4096, 1, 3, 0, 1_000);
    std::mem::forget(lib); // the driver never unloads it either
    println!("child done, trace to {out}");
}

#[test]
fn the_injection_library_traces_a_program_and_reports_at_exit() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("cupti_injection_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("trace_%p.json");
    let summary = dir.join("summary.json");
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "injection_child", "--ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD, &trace)
        .env("CUPTI_LIBRARY_PATH", path())
        .env("CUPTI_TRACE_OUTPUT", &trace)
        .env("CUPTI_TRACE_SUMMARY_JSON", &summary)
        .env("CUPTI_TRACE_KINDS", "concurrent_kernel,memcpy,runtime,bogus_kind")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&child.stderr);
    assert!(child.status.success(), "{stderr}\n{}", String::from_utf8_lossy(&child.stdout));
    // A bad setting is reported and ignored, never fatal; the summary comes at exit.
    assert!(stderr.contains("[cupti-trace] ignoring CUPTI_TRACE_KINDS"), "{stderr}");
    assert!(stderr.contains("example::kernel()"), "demangled summary on stderr: {stderr}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["kernel_records"], 7, "{json}");
    assert_eq!(json["records_dropped"], 0, "{json}");
    assert_eq!(json["kernels"][0]["name"], "example::kernel()");
    let written = json["trace"].as_str().unwrap();
    let events: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(written).unwrap()).unwrap();
    let kernels = events["traceEvents"].as_array().unwrap().iter().filter(|e| e["cat"] == "kernel").count();
    assert_eq!(kernels, 7);
    let _ = std::fs::remove_dir_all(&dir);
}
