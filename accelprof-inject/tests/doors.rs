//! The three doors, each the vendor's way, on the vendor's mock: a program with no profiling code
//! of its own, started with `libaccelprof_inject.so` where that vendor loads tools and
//! `ACCELPROF_OUTPUT=<dir>/t.json`, leaves a whole trace of its kernels (names, device, stream,
//! times) and API calls, checked by one helper ([`check_trace`]) for all three.
//!
//! Each program runs in a child process (the CUDA and Ascend ones: this test binary again, running
//! one `#[ignore]`d test; rocprofiler-sdk's: the root package's `rocprofiler_runtime_stand_in`
//! example), since each door acts once per process and finishes at its exit.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

/// Set in a child's environment: it is the traced program.
const CHILD: &str = "INJECT_TEST_CHILD";

/// The library built for this test run, next to the test executable (`target/<profile>/deps`).
fn library() -> PathBuf {
    std::env::current_exe().unwrap().with_file_name("libaccelprof_inject.so")
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accelprof-inject-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// This test binary running only the ignored test `child` as the traced program, with nothing of
/// the other doors' variables inherited.
fn child(child: &str) -> Command {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([child, "--exact", "--ignored", "--nocapture", "--test-threads=1"]).env(CHILD, "1");
    for var in [
        "LD_PRELOAD",
        "CUDA_INJECTION64_PATH",
        "ROCP_TOOL_LIBRARIES",
        "CUPTI_LIBRARY_PATH",
        "MSPTI_LIBRARY_PATH",
        "ROCPROFILER_LIBRARY_PATH",
        "ACCELPROF_VENDOR",
        "ACCELPROF_SUMMARY_JSON",
        "RANK",
        "WORLD_SIZE",
        "LOCAL_RANK",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// What [`check_trace`] expects.
struct Expected {
    /// `vendor` at the trace's top level.
    vendor: &'static str,
    /// Kernels per name.
    kernels: &'static [(&'static str, usize)],
    /// The devices the kernels ran on.
    devices: &'static [u64],
    /// At least this many API rows.
    api_rows: usize,
}

/// The one check of the three doors' traces: a whole Chrome trace of `expected.vendor`, each kernel
/// a complete event with its name, device (`pid` and `args.device`), stream (`tid` and
/// `args.stream`) and times, as many of each name as the program launched, on the devices it used;
/// the API calls as host rows (`cuda_runtime` / `cuda_driver`, Kineto's names for every vendor's
/// runtime calls) with names and times.
fn check_trace(path: &Path, expected: &Expected, program_output: &str) -> Value {
    let raw = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}; the program said:\n{program_output}", path.display()));
    let trace: Value =
        serde_json::from_str(&raw).unwrap_or_else(|e| panic!("{} is not whole: {e}", path.display()));
    assert_eq!(trace["vendor"], expected.vendor, "the trace's vendor");
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    let mut names = BTreeMap::new();
    let mut devices = std::collections::BTreeSet::new();
    for k in events.iter().filter(|e| e["cat"] == "kernel") {
        assert_eq!(k["ph"], "X", "{k}");
        let name = k["name"].as_str().filter(|n| !n.is_empty()).unwrap_or_else(|| panic!("a name: {k}"));
        *names.entry(name.to_owned()).or_insert(0usize) += 1;
        let device = k["args"]["device"].as_u64().unwrap_or_else(|| panic!("args.device: {k}"));
        assert!(k["args"]["stream"].is_u64(), "args.stream: {k}");
        assert_eq!(k["pid"].as_u64(), Some(device), "pid = device: {k}");
        assert_eq!(k["tid"], k["args"]["stream"], "tid = stream: {k}");
        assert!(k["ts"].as_f64().is_some_and(|t| t > 0.0), "ts: {k}");
        assert!(k["dur"].as_f64().is_some_and(|d| d > 0.0), "dur: {k}");
        devices.insert(device);
    }
    let want: BTreeMap<String, usize> = expected.kernels.iter().map(|(n, c)| (n.to_string(), *c)).collect();
    assert_eq!(names, want, "kernels by name in {}", path.display());
    assert_eq!(devices.into_iter().collect::<Vec<_>>(), expected.devices, "kernel devices");
    let api: Vec<&Value> = events
        .iter()
        .filter(|e| e["ph"] == "X" && (e["cat"] == "cuda_runtime" || e["cat"] == "cuda_driver"))
        .collect();
    assert!(
        api.len() >= expected.api_rows,
        "{} API rows, expected at least {}",
        api.len(),
        expected.api_rows
    );
    for a in &api {
        assert!(a["name"].as_str().is_some_and(|n| !n.is_empty()), "an API row's name: {a}");
        assert!(a["ts"].as_f64().is_some_and(|t| t > 0.0) && a["dur"].as_f64().is_some(), "times: {a}");
    }
    trace
}

/// Set by this executable's own constructor, which the dynamic loader runs after the constructors
/// of the libraries it loaded (a preloaded one's included): false while those run, before `main`.
static MAIN_CAN_RUN: AtomicBool = AtomicBool::new(false);

extern "C" fn executable_initialized() {
    MAIN_CAN_RUN.store(true, Ordering::SeqCst);
}

#[used]
#[link_section = ".init_array"]
static EXECUTABLE_INITIALIZED: extern "C" fn() = executable_initialized;

/// CPython's `Py_AtExit` as the `python` executable exports it (build.rs exports it from this test
/// executable): the doors find it in the global scope. Called before `main` (before CPython's
/// runtime state exists, which `main` sets up and resets) it says so, as the failure a test looks
/// for; called later it says it registered (never calling `f`: the C `atexit` handler finishes).
#[no_mangle]
pub extern "C" fn Py_AtExit(f: extern "C" fn()) -> std::ffi::c_int {
    let _ = f;
    if MAIN_CAN_RUN.load(Ordering::SeqCst) {
        eprintln!("test Py_AtExit: registered");
    } else {
        eprintln!("test Py_AtExit: CALLED BEFORE MAIN");
    }
    0
}

/// Every door's program: 6 `vector_add` and 6 `reduce_sum`.
const KERNELS: &[(&str, usize)] = &[("reduce_sum", 6), ("vector_add", 6)];

// ---------------------------------------------------------------------------------------------
// CUDA: the driver calls `InitializeInjection` inside `cuInit`.

#[test]
fn cuda_injection_traces_an_unmodified_program() {
    let dir = temp_dir("cuda");
    let out = child("cuda_program")
        .env("CUDA_INJECTION64_PATH", library())
        .env("CUPTI_LIBRARY_PATH", accelprof_mocks::cupti::LIBRARY)
        .env("ACCELPROF_OUTPUT", dir.join("t.json"))
        .env("ACCELPROF_SUMMARY_JSON", dir.join("summary.json"))
        .output()
        .unwrap();
    let said = text(&out);
    assert!(out.status.success() && said.contains("1 passed"), "{said}");
    assert_eq!(said.matches("through the CUDA door").count(), 1, "one engine per process: {said}");
    assert!(said.contains("the tracer runs already; the CUDA door stays out"), "{said}");
    assert_eq!(
        said.matches("test Py_AtExit: registered").count(),
        1,
        "inside cuInit the door registers with Python: {said}"
    );
    // The engine ends it all (summary on stderr, summary JSON, trace): once, the door adding nothing.
    assert_eq!(said.matches("[accelprof] records: ").count(), 1, "the summary, once: {said}");
    assert_eq!(said.matches("[accelprof] trace: ").count(), 1, "the trace's line, once: {said}");
    let expected = Expected { vendor: "cupti", kernels: KERNELS, devices: &[0], api_rows: 12 };
    check_trace(&dir.join("t.json"), &expected, &said);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(
        (summary["kernel_records"].as_u64(), summary["records_dropped"].as_u64()),
        (Some(12), Some(0)),
        "{summary}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tracer that cannot start (here: an output no format takes) is said on stderr with the reason,
/// `InitializeInjection` still returns success, and the program runs to its end untraced.
#[test]
fn a_door_that_cannot_start_says_why_and_the_program_runs_on() {
    let dir = temp_dir("cuda-fails");
    let out = child("cuda_program")
        .env("CUDA_INJECTION64_PATH", library())
        .env("CUPTI_LIBRARY_PATH", accelprof_mocks::cupti::LIBRARY)
        .env("ACCELPROF_OUTPUT", dir.join("t.unknown"))
        .output()
        .unwrap();
    let said = text(&out);
    assert!(out.status.success() && said.contains("1 passed"), "{said}");
    assert!(
        said.contains("[accelprof] pid ") && said.contains("cannot start tracing with CUPTI (CUDA)"),
        "{said}"
    );
    assert!(said.contains("no trace format for this name"), "the reason: {said}");
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "no file");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The traced CUDA program: what the driver does in `cuInit` (open the injection library, call
/// `InitializeInjection`), then 12 kernels through the runtime on two streams, and exit.
#[test]
#[ignore = "the traced program of cuda_injection_traces_an_unmodified_program (run by it)"]
fn cuda_program() {
    assert!(std::env::var_os(CHILD).is_some(), "run by cuda_injection_traces_an_unmodified_program");
    let m = accelprof_mocks::cupti::MockCupti::open(accelprof_mocks::cupti::LIBRARY)
        .expect("the mock libcupti's controls");
    m.reset();
    let path = std::env::var_os("CUDA_INJECTION64_PATH").expect("set by the test");
    // SAFETY: the library's initialisers are its constructor (which does nothing without
    // ACCELPROF_VENDOR=mspti) and Rust statics.
    let lib = unsafe { libloading::Library::new(path) }.expect("the library loads");
    // SAFETY: `int InitializeInjection(void)`, as the CUDA driver calls it.
    let init = unsafe { lib.get::<unsafe extern "C" fn() -> i32>(b"InitializeInjection\0") }.unwrap();
    // SAFETY: as above.
    assert_eq!(unsafe { init() }, 1);
    // A second call (a second door, or the driver again) finds the engine running and stays out.
    // SAFETY: as above.
    assert_eq!(unsafe { init() }, 1);
    std::mem::forget(lib); // the driver never unloads it either
    for step in 0..6u64 {
        m.launch_kernel(c"vector_add", 256, 1, 1, 256, 1, 1, 0, 7, 5_000);
        m.launch_kernel(c"reduce_sum", 64 << step, 1, 1, 64, 1, 1, 0, 8, 3_000);
    }
    // The tracer finishes in the exit handler, after this test returns.
}

// ---------------------------------------------------------------------------------------------
// rocprofiler-sdk: the SDK finds `rocprofiler_configure` through ROCP_TOOL_LIBRARIES.

/// The root package's examples folder (`target/<profile>/examples`).
fn examples_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().join("examples")
}

#[test]
fn rocprofiler_tool_library_traces_an_unmodified_program() {
    // The runtime stand-in (a no-op when built already), with this test's profile.
    let release = examples_dir().parent().and_then(|p| p.file_name()).is_some_and(|n| n == "release");
    // `--workspace`: the feature sets `cargo test --workspace` built, so that this is a no-op there
    // (one package alone unifies other features and compiles the mocks and this crate again).
    let status = Command::new(env!("CARGO"))
        .arg("build")
        .args(release.then_some("--release"))
        .args(["--quiet", "--workspace", "--example", "rocprofiler_runtime_stand_in"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo");
    assert!(status.success());
    let dir = temp_dir("rocprofiler");
    let out = Command::new(examples_dir().join("rocprofiler_runtime_stand_in"))
        .env_remove("ROCPROFILER_LIBRARY_PATH")
        .env_remove("ACCELPROF_VENDOR")
        .env("ROCP_TOOL_LIBRARIES", library())
        .env("ACCELPROF_OUTPUT", dir.join("t.json"))
        .output()
        .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("through the rocprofiler-sdk door"), "{said}");
    // The stand-in's workload: on each of two GPUs, 3 x (vector_add, reduce_sum).
    let expected = Expected { vendor: "rocprofiler", kernels: KERNELS, devices: &[0, 1], api_rows: 12 };
    check_trace(&dir.join("t.json"), &expected, &said);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Ascend: preloaded after libmspti.so, the constructor starts the tracer.

/// The ACL program as an Ascend user starts it: CANN's libraries found (`ASCEND_HOME_PATH`,
/// `LD_LIBRARY_PATH`), `LD_PRELOAD` as given.
fn acl_child(preload: &str) -> Command {
    let home = accelprof_mocks::mspti::ASCEND_HOME;
    let lib64 = format!("{home}/lib64");
    let ld_path = match std::env::var("LD_LIBRARY_PATH") {
        Ok(old) if !old.is_empty() => format!("{lib64}:{old}"),
        _ => lib64,
    };
    let mut cmd = child("acl_program");
    cmd.env("LD_PRELOAD", preload).env("ASCEND_HOME_PATH", home).env("LD_LIBRARY_PATH", ld_path);
    cmd
}

/// In either order of `LD_PRELOAD`: the launcher's (this library first, so that libmspti.so's
/// constructors have run before ours) and libmspti.so first (ours then runs first, and glibc runs
/// libmspti.so's constructors when our loader opens it).
#[test]
fn ascend_preload_traces_an_unmodified_acl_program() {
    let (mspti, ours) = (accelprof_mocks::mspti::LIBRARY, library().display().to_string());
    for (name, preload) in
        [("ours-first", format!("{ours}:{mspti}")), ("mspti-first", format!("{mspti}:{ours}"))]
    {
        let dir = temp_dir(&format!("ascend-{name}"));
        let out = acl_child(&preload)
            .env("ACCELPROF_VENDOR", "mspti")
            .env("ACCELPROF_OUTPUT", dir.join("t.json"))
            .output()
            .unwrap();
        let said = text(&out);
        assert!(out.status.success() && said.contains("1 passed"), "{name}: {said}");
        assert!(said.contains("through the Ascend door"), "{name}: {said}");
        assert!(
            !said.contains("CALLED BEFORE MAIN"),
            "before main there is no interpreter to register with: {said}"
        );
        // At aclInit, inside the program, the door registers its in-program exit handler (and with
        // the interpreter, when there is one).
        assert!(said.contains("test Py_AtExit: registered"), "{name}: {said}");
        let expected = Expected { vendor: "mspti", kernels: KERNELS, devices: &[0], api_rows: 12 };
        check_trace(&dir.join("t.json"), &expected, &said);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The constructor runs wherever the library is loaded: without `ACCELPROF_VENDOR=mspti` it does
/// nothing (a program that preloads it for another reason, the CUDA driver's and the SDK's loads),
/// and asked for MSPTI without `libmspti.so` preloaded it says what is missing and traces nothing.
#[test]
fn the_ascend_door_acts_only_when_asked_and_preloaded() {
    let dir = temp_dir("ascend-quiet");
    let (mspti, ours) = (accelprof_mocks::mspti::LIBRARY, library().display().to_string());
    let out =
        acl_child(&format!("{ours}:{mspti}")).env("ACCELPROF_OUTPUT", dir.join("t.json")).output().unwrap();
    let said = text(&out);
    assert!(out.status.success() && said.contains("1 passed"), "{said}");
    assert!(!said.contains("[accelprof]"), "not asked: nothing said\n{said}");
    assert!(!dir.join("t.json").exists(), "not asked: no trace");

    let out = acl_child(&ours)
        .env("ACCELPROF_VENDOR", "ascend")
        .env("ACCELPROF_OUTPUT", dir.join("t.json"))
        .output()
        .unwrap();
    let said = text(&out);
    assert!(out.status.success() && said.contains("1 passed"), "{said}");
    assert!(said.contains("[accelprof] ") && said.contains("no libmspti.so is preloaded"), "{said}");
    assert!(!dir.join("t.json").exists(), "no MSPTI: no trace");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The traced ACL program (no profiling code): device 0, a stream, 12 kernels, a synchronize.
#[test]
#[ignore = "the traced program of ascend_preload_traces_an_unmodified_acl_program (run by it)"]
fn acl_program() {
    assert!(std::env::var_os(CHILD).is_some(), "run by ascend_preload_traces_an_unmodified_acl_program");
    let acl = accelprof_mocks::ascend::Acl::load().expect("the ACL runtime (CANN stand-ins)");
    acl.init().expect("aclInit");
    acl.set_device(0).expect("aclrtSetDevice");
    let stream = acl.create_stream().expect("aclrtCreateStream");
    let add = acl.kernel("kernels.o", "vector_add").expect("a kernel");
    let sum = acl.kernel("kernels.o", "reduce_sum").expect("a kernel");
    for _ in 0..6 {
        acl.launch(add, 8, stream).expect("aclrtLaunchKernel");
        acl.launch(sum, 8, stream).expect("aclrtLaunchKernel");
    }
    acl.synchronize_stream(stream).expect("aclrtSynchronizeStream");
    acl.destroy_stream(stream).expect("aclrtDestroyStream");
    // The tracer finishes in the exit handler, after this test returns.
}
