//! One command, three vendors: `accelprof trace --vendor <v> -o t.json -- <program>` traces a program
//! with no profiling code of its own on each vendor's mock, the way that vendor loads tools, and the
//! three traces have one schema (checked by one helper, [`check_trace`]):
//!
//! - CUDA: the mock CUDA program (this test binary again, running the ignored `cuda_program`: it does
//!   what the driver does in `cuInit` with `CUDA_INJECTION64_PATH`, then launches kernels on the mock
//!   libcupti);
//! - ROCm: the root package's `rocprofiler_runtime_stand_in` example, whose mock rocprofiler-sdk finds
//!   our library through `ROCP_TOOL_LIBRARIES`, as the SDK does;
//! - Ascend: an ACL program (the ignored `acl_program`) on the mock libmspti and its CANN stand-ins, and,
//!   ignored unless `ACCELPROF_REAL_MSPTI` names one, on the real libmspti built from source.
//!
//! Also: the command itself holds no door (its build only learns where accelprof-inject's sources
//! are; the library is never linked into it).

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use support::{accelprof, temp_dir, tracer_library};

/// Set in a child's environment: it is the traced program.
const CHILD: &str = "VENDORS_TEST_CHILD";

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// `accelprof trace --vendor <vendor> -o <output> --` with nothing of the vendors' variables inherited.
fn trace(vendor: &str, output: &Path) -> Command {
    let mut cmd = accelprof();
    for var in [
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "CUDA_INJECTION64_PATH",
        "ROCP_TOOL_LIBRARIES",
        "CUPTI_LIBRARY_PATH",
        "MSPTI_LIBRARY_PATH",
        "ROCPROFILER_LIBRARY_PATH",
        "ASCEND_HOME_PATH",
        "ACCELPROF_VENDOR",
        "ACCELPROF_SUMMARY_JSON",
        "ACCELPROF_REAL_MSPTI",
        "RANK",
        "WORLD_SIZE",
        "LOCAL_RANK",
    ] {
        cmd.env_remove(var);
    }
    cmd.args(["trace", "--vendor", vendor, "-o"]).arg(output).arg("--");
    cmd
}

/// This test binary as the program: only the ignored test `child`.
fn this_test(cmd: &mut Command, child: &str) {
    cmd.arg(std::env::current_exe().unwrap())
        .args([child, "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1");
}

/// What [`check_trace`] expects.
struct Expected {
    /// `vendor` at the trace's top level.
    vendor: &'static str,
    /// The devices the kernels ran on.
    devices: &'static [u64],
}

/// The top-level keys of every vendor's trace (each vendor adds metadata of its own: `cupti_version`,
/// `rocprofiler_sdk_version`, ...).
const SCHEMA: &[&str] = &[
    "schemaVersion",
    "vendor",
    "library",
    "library_versions",
    "host",
    "pid",
    "baseTimeNanoseconds",
    "clock_anchor",
    "displayTimeUnit",
    "deviceProperties",
    "distributedInfo",
    "traceName",
    "traceEvents",
    "traceFlows",
    "traceSummary",
];

/// The `args` of every vendor's kernel events.
const KERNEL_ARGS: &[&str] = &["device", "stream", "correlation"];

/// Every program here: 6 `vector_add` and 6 `reduce_sum`.
const KERNELS: &[(&str, usize)] = &[("reduce_sum", 6), ("vector_add", 6)];

/// The one check of the three vendors' traces: a whole Chrome trace of `expected.vendor`, each kernel
/// a complete event with its name, device (`pid`, `args.device`), stream (`tid`, `args.stream`) and
/// times, as many of each name as the program launched; at least one API row per kernel, as host rows
/// under Kineto's names (`cuda_runtime` / `cuda_driver`) with names and times. Returns the trace's
/// schema: its top-level keys, and the `args` keys every kernel has.
fn check_trace(path: &Path, expected: &Expected, said: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let raw = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}; the command said:\n{said}", path.display()));
    let trace: Value =
        serde_json::from_str(&raw).unwrap_or_else(|e| panic!("{} is not whole: {e}", path.display()));
    assert_eq!(trace["vendor"], expected.vendor, "the trace's vendor: {said}");
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    let mut names = BTreeMap::new();
    let mut devices = BTreeSet::new();
    let mut kernel_args: Option<BTreeSet<String>> = None;
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
        let keys: BTreeSet<String> = k["args"].as_object().expect("args").keys().cloned().collect();
        kernel_args = Some(match kernel_args {
            Some(common) => common.intersection(&keys).cloned().collect(),
            None => keys,
        });
    }
    let want: BTreeMap<String, usize> = KERNELS.iter().map(|(n, c)| (n.to_string(), *c)).collect();
    assert_eq!(names, want, "kernels by name in {}: {said}", path.display());
    assert_eq!(devices.into_iter().collect::<Vec<_>>(), expected.devices, "kernel devices");
    let api: Vec<&Value> = events
        .iter()
        .filter(|e| e["ph"] == "X" && (e["cat"] == "cuda_runtime" || e["cat"] == "cuda_driver"))
        .collect();
    assert!(api.len() >= 12, "{} API rows, expected one per kernel at least", api.len());
    for a in &api {
        assert!(a["name"].as_str().is_some_and(|n| !n.is_empty()), "an API row's name: {a}");
        assert!(a["ts"].as_f64().is_some_and(|t| t > 0.0) && a["dur"].as_f64().is_some(), "times: {a}");
    }
    let top = trace.as_object().expect("an object").keys().cloned().collect();
    (top, kernel_args.unwrap_or_default())
}

/// What the command says when it ran the program: the library it used is ours, and where the
/// trace went.
fn check_said(out: &Output, vendor: &str, output: &Path) -> String {
    let said = text(out);
    assert!(out.status.success(), "{said}");
    let library = std::fs::canonicalize(tracer_library()).unwrap();
    assert!(said.contains(&format!("` on {vendor} ({})", library.display())), "{said}");
    assert!(said.contains("trace of pid ") && said.contains(&output.display().to_string()), "{said}");
    assert!(!said.contains("warning"), "{said}");
    said
}

fn cuda(dir: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let output = dir.join("cuda.json");
    let mut cmd = trace("cuda", &output);
    this_test(&mut cmd, "cuda_program");
    let out = cmd.env("CUPTI_LIBRARY_PATH", accelprof_mocks::cupti::LIBRARY).output().unwrap();
    let said = check_said(&out, "cuda", &output);
    assert!(said.contains("through the CUDA door"), "{said}");
    check_trace(&output, &Expected { vendor: "cupti", devices: &[0] }, &said)
}

/// The root package's examples folder (`target/<profile>/examples`), the stand-in built there.
fn rocprofiler_stand_in() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let examples = exe.parent().unwrap().parent().unwrap().join("examples");
    let release = examples.parent().and_then(|p| p.file_name()).is_some_and(|n| n == "release");
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
    examples.join("rocprofiler_runtime_stand_in")
}

fn rocm(dir: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let output = dir.join("rocm.json");
    let out = trace("rocm", &output).arg(rocprofiler_stand_in()).output().unwrap();
    let said = check_said(&out, "rocm", &output);
    assert!(said.contains("through the rocprofiler-sdk door"), "{said}");
    // The stand-in's workload: on each of two GPUs, 3 x (vector_add, reduce_sum).
    check_trace(&output, &Expected { vendor: "rocprofiler", devices: &[0, 1] }, &said)
}

/// How the traced ACL program ends.
#[derive(Clone, Copy, PartialEq)]
enum Ending {
    /// With `aclFinalize`, as an ACL program ends (the door finishes there).
    AclFinalize,
    /// Returning from `main` without `aclFinalize` (the door finishes at exit).
    NoAclFinalize,
}

/// `--vendor ascend` with `libmspti` (the mock or the real one) and the CANN stand-ins.
fn ascend(dir: &Path, libmspti: &Path, ending: Ending) -> (BTreeSet<String>, BTreeSet<String>) {
    let output = dir.join("ascend.json");
    let mut cmd = trace("ascend", &output);
    this_test(&mut cmd, "acl_program");
    if ending == Ending::NoAclFinalize {
        cmd.env("ACL_PROGRAM_EXITS_WITHOUT_FINALIZE", "1");
    }
    let out = cmd
        .env("MSPTI_LIBRARY_PATH", libmspti)
        .env("ASCEND_HOME_PATH", accelprof_mocks::mspti::ASCEND_HOME)
        .output()
        .unwrap();
    let said = check_said(&out, "ascend", &output);
    assert!(said.contains("through the Ascend door"), "{said}");
    assert!(!said.contains("did not finish"), "the door finished in time: {said}");
    // The program says whose libmspti.so its preload put in the global scope.
    let mock = libmspti == Path::new(accelprof_mocks::mspti::LIBRARY);
    let whose = if mock { "libmspti.so: the mock" } else { "libmspti.so: not the mock" };
    assert!(said.contains(whose), "{whose}: {said}");
    check_trace(&output, &Expected { vendor: "mspti", devices: &[0] }, &said)
}

#[test]
fn one_command_traces_each_vendors_program_into_one_schema() {
    let dir = temp_dir("vendors");
    let schemas = [
        ("cuda", cuda(&dir)),
        ("rocm", rocm(&dir)),
        ("ascend", ascend(&dir, Path::new(accelprof_mocks::mspti::LIBRARY), Ending::AclFinalize)),
    ];
    for (vendor, (top, args)) in &schemas {
        let missing: Vec<&str> = SCHEMA.iter().copied().filter(|k| !top.contains(*k)).collect();
        assert!(missing.is_empty(), "{vendor}'s trace lacks {missing:?}: {top:?}");
        let missing: Vec<&str> = KERNEL_ARGS.iter().copied().filter(|k| !args.contains(*k)).collect();
        assert!(missing.is_empty(), "{vendor}'s kernels lack args {missing:?}: {args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs a real libmspti: ACCELPROF_REAL_MSPTI=<path>"]
fn the_acl_program_on_the_real_libmspti() {
    let real = std::env::var_os("ACCELPROF_REAL_MSPTI").expect("ACCELPROF_REAL_MSPTI=<libmspti.so>");
    let dir = temp_dir("real-mspti");
    let (top, args) = ascend(&dir, Path::new(&real), Ending::AclFinalize);
    let mock_dir = temp_dir("real-mspti-mock");
    let (mock_top, mock_args) =
        ascend(&mock_dir, Path::new(accelprof_mocks::mspti::LIBRARY), Ending::AclFinalize);
    assert_eq!(top, mock_top, "the real library's trace and the mock's: one schema");
    assert_eq!(args, mock_args, "kernel args of the real library's trace and the mock's");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&mock_dir);
    // A program that never calls aclFinalize: finished at exit, before libmspti's teardown.
    let dir = temp_dir("real-mspti-no-finalize");
    let (top, _) = ascend(&dir, Path::new(&real), Ending::NoAclFinalize);
    assert_eq!(top, mock_top, "a whole trace at exit");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The command is not a door: accelprof-inject is its dependency only for the place of its
/// sources, and never linked into it: it exports no `InitializeInjection` or `rocprofiler_configure`,
/// and `ACCELPROF_VENDOR=mspti` does not wake an Ascend constructor in it.
#[test]
fn the_command_holds_no_door() {
    let exe = std::fs::read(support::launcher()).unwrap();
    for symbol in [&b"InitializeInjection"[..], b"rocprofiler_configure"] {
        assert!(
            !exe.windows(symbol.len()).any(|w| w == symbol),
            "{} is in the command",
            String::from_utf8_lossy(symbol)
        );
    }
    let out = accelprof().arg("info").env("ACCELPROF_VENDOR", "mspti").output().unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(!said.contains("[accelprof]"), "the command says nothing of a door: {said}");
}

// ---------------------------------------------------------------------------------------------
// The traced programs (ignored in a normal run; started by the tests above through the command).

/// The traced CUDA program: what the driver does in `cuInit` (open the injection library, call
/// `InitializeInjection`), then 12 kernels on two streams, and exit.
#[test]
#[ignore = "the traced program of one_command_traces_each_vendors_program_into_one_schema"]
fn cuda_program() {
    assert!(std::env::var_os(CHILD).is_some(), "run by the command");
    let m = accelprof_mocks::cupti::MockCupti::open(accelprof_mocks::cupti::LIBRARY)
        .expect("the mock's controls");
    m.reset();
    let path = std::env::var_os("CUDA_INJECTION64_PATH").expect("set by the command");
    // SAFETY: the library's initialisers are its constructor (which does nothing without
    // ACCELPROF_VENDOR=mspti; the command set cupti) and Rust statics.
    let lib = unsafe { libloading::Library::new(path) }.expect("the library loads");
    // SAFETY: `int InitializeInjection(void)`, as the CUDA driver calls it.
    let init = unsafe { lib.get::<unsafe extern "C" fn() -> i32>(b"InitializeInjection\0") }.unwrap();
    // SAFETY: as above.
    assert_eq!(unsafe { init() }, 1);
    std::mem::forget(lib); // the driver never unloads it either
    for step in 0..6u64 {
        m.launch_kernel(c"vector_add", 256, 1, 1, 256, 1, 1, 0, 7, 5_000);
        m.launch_kernel(c"reduce_sum", 64 << step, 1, 1, 64, 1, 1, 0, 8, 3_000);
    }
    // The tracer finishes in the exit handler, after this test returns.
}

/// The traced ACL program (no profiling code): device 0, a stream, 12 kernels, a synchronize.
#[test]
#[ignore = "the traced program of one_command_traces_each_vendors_program_into_one_schema"]
fn acl_program() {
    assert!(std::env::var_os(CHILD).is_some(), "run by the command");
    let mock = accelprof_mocks::ascend::in_global_scope(c"mock_mspti_api_call");
    println!("libmspti.so: {}", if mock { "the mock" } else { "not the mock" });
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
    // As an ACL program ends (MSPTI's samples too): the door finishes the trace in aclFinalize,
    // while MSPTI is whole.
    if std::env::var_os("ACL_PROGRAM_EXITS_WITHOUT_FINALIZE").is_some() {
        return; // the door finishes at exit (an_acl_program_without_acl_finalize_is_finished_at_exit)
    }
    acl.reset_device(0).expect("aclrtResetDevice");
    acl.finalize().expect("aclFinalize");
}

/// An ACL program that exits without `aclFinalize`: the door finishes in the destructor of a
/// main-thread `thread_local` (armed by its constructor), which `exit` runs before every exit
/// handler, so before the destructors of the state libmspti makes at the first launch (registered
/// after `aclInit`: the real library aborted in the door's `aclInit` handler; the mock now does too;
/// docs/VENDOR-NOTES.md). Against the real library: `the_acl_program_on_the_real_libmspti`.
#[test]
fn an_acl_program_without_acl_finalize_is_finished_at_exit() {
    let dir = temp_dir("no-finalize");
    ascend(&dir, Path::new(accelprof_mocks::mspti::LIBRARY), Ending::NoAclFinalize);
    let _ = std::fs::remove_dir_all(&dir);
}
