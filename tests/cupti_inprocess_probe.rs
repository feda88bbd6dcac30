//! The crate as a library inside another program's process (the `cupti_inprocess_session` example,
//! a cdylib that `gpu/coexist_inprocess.py` loads into PyTorch with ctypes), on the mock `libcupti`
//! loaded in the global scope as `libtorch_cuda` loads the real one, next to the test kit's
//! Kineto-like client (`accelprof_mocks::cupti::KinetoClient`), which calls the `cupti*` symbols
//! through the global scope in Kineto's order. Each case runs in a child process of
//! this test binary, with the CUPTI sharing shim preloaded or without it; the probe is started
//! before the Kineto-like client registers its callbacks, or after.

use std::path::PathBuf;
use std::process::Command;

use accelprof_mocks::cupti::{KinetoClient, KinetoConfig, MockCupti, LIBRARY};

/// Kernels launched in each phase: before the Kineto-like client starts, inside its window, after it.
const PHASE: [u64; 3] = [5, 7, 3];

/// `ProbeCounts` of the example (`#[repr(C)]`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct ProbeCounts {
    kernels: u64,
    kernels_before_start: u64,
    api_rows: u64,
    records_produced: u64,
    records_delivered: u64,
    records_dropped: u64,
    dropped_by_vendor: u64,
    dropped_skipped: u64,
    dropped_unconsumed: u64,
    other_buffers_taken: u64,
    other_foreign_buffers: u64,
    other_missing_since_unix_ns: u64,
    balanced: u32,
    fenced: u32,
    shared: u32,
    cupti_version: u32,
}

fn examples_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().join("examples")
}

fn deps_dir() -> PathBuf {
    std::env::current_exe().unwrap().parent().unwrap().to_path_buf()
}

/// Builds the probe (a no-op when `cargo test` built the examples), with this test's profile.
fn build() {
    let release = examples_dir().parent().and_then(|p| p.file_name()).is_some_and(|n| n == "release");
    // `--workspace`: the feature sets `cargo test --workspace` built, so that this is a no-op there
    // (one package alone unifies other features and compiles the mocks and this crate again).
    let status = Command::new(env!("CARGO"))
        .arg("build")
        .args(release.then_some("--release"))
        .args(["--quiet", "--workspace", "--example", "cupti_inprocess_session"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo");
    assert!(status.success());
}

/// What a child printed: the probe's counts, the Kineto-like client's kernels and unknown buffers,
/// the library the probe opened.
#[derive(Debug)]
struct Outcome {
    probe: ProbeCounts,
    kineto_kernels: u64,
    kineto_unknown: u64,
    library: String,
}

fn run_case(order: &str, with_shim: bool) -> Outcome {
    build();
    let shim = deps_dir().join("libcupti_shim.so");
    assert!(shim.is_file(), "{} is built as a dev-dependency", shim.display());
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "child", "--ignored", "--nocapture", "--test-threads=1"])
        .env("PROBE_TEST_ORDER", order)
        .env_remove("CUPTI_LIBRARY_PATH");
    if with_shim {
        cmd.env("LD_PRELOAD", &shim);
    } else {
        cmd.env_remove("LD_PRELOAD");
    }
    let out = cmd.output().expect("run the child");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child ({order}, shim {with_shim}) failed:\n{text}");
    let line = text
        .lines()
        .find_map(|l| l.find("OUTCOME ").map(|at| &l[at + "OUTCOME ".len()..]))
        .unwrap_or_else(|| panic!("no outcome:\n{text}"));
    let field = |name: &str| -> String {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("{name} in {line}"))
            .to_owned()
    };
    let n = |name: &str| -> u64 { field(name).parse().unwrap() };
    Outcome {
        probe: ProbeCounts {
            kernels: n("kernels"),
            kernels_before_start: n("before"),
            records_dropped: n("dropped"),
            other_buffers_taken: n("taken"),
            other_foreign_buffers: n("foreign"),
            balanced: n("balanced") as u32,
            shared: n("shared") as u32,
            ..ProbeCounts::default()
        },
        kineto_kernels: n("kineto_kernels"),
        kineto_unknown: n("kineto_unknown"),
        library: field("library"),
    }
}

/// The kernels each client launched in its span, for a probe started `order` the Kineto-like client.
fn expected(order: &str) -> (u64, u64) {
    let probe = if order == "before" { PHASE.iter().sum() } else { PHASE[1] + PHASE[2] };
    let kineto = if order == "before" { PHASE[1] } else { PHASE[0] + PHASE[1] };
    (probe, kineto)
}

#[test]
fn with_the_shim_the_probe_and_kineto_each_count_every_kernel_of_their_span() {
    for order in ["before", "after"] {
        let o = run_case(order, true);
        let (probe, kineto) = expected(order);
        assert_eq!(o.probe.shared, 1, "{order}: the probe saw the shim: {o:?}");
        assert_eq!(o.library, "libcupti.so", "{order}: the probe reused the loaded copy: {o:?}");
        // Every kernel of the probe's span. The shim delivers what is in CUPTI's buffers by the kinds a
        // client has on when a buffer completes: kernels written for the other client before the probe
        // started, still in CUPTI's buffers then, reach the probe too (counted apart, by start time);
        // likewise the Kineto-like client gets the probe's kernels of before its start.
        assert_eq!(o.probe.kernels - o.probe.kernels_before_start, probe, "{order}: {o:?}");
        assert!(o.probe.kernels_before_start <= PHASE[0], "{order}: {o:?}");
        assert_eq!(o.probe.records_dropped, 0, "{order}: {o:?}");
        assert_eq!(o.probe.balanced, 1, "{order}: {o:?}");
        assert!((kineto..=kineto + PHASE[0]).contains(&o.kineto_kernels), "{order}: {o:?}");
        assert_eq!(o.kineto_unknown, 0, "{order}: {o:?}");
    }
}

/// Without the shim the two share CUPTI's one pair of buffer callbacks: the probe's counts fall
/// short, and the ledger names the loss (another client took our buffers or handed us its own,
/// and `is_balanced` is false).
#[test]
fn without_the_shim_the_probe_names_its_loss() {
    for order in ["before", "after"] {
        let o = run_case(order, false);
        let (probe, _) = expected(order);
        assert_eq!(o.probe.shared, 0, "{order}: {o:?}");
        assert!(o.probe.kernels < probe, "{order}: the probe lost kernels: {o:?}");
        assert!(
            o.probe.other_buffers_taken + o.probe.other_foreign_buffers > 0,
            "{order}: other_client names the loss: {o:?}"
        );
        assert_eq!(o.probe.balanced, 0, "{order}: {o:?}");
    }
}

// ---- The child ----

#[test]
#[ignore = "a case run by the tests above in a child process"]
fn child() {
    let order = std::env::var("PROBE_TEST_ORDER").expect("run by the parent tests");
    // The mock in the global scope, as a DT_NEEDED libcupti is.
    // SAFETY: the mock's initialisers are plain Rust statics.
    let lib = unsafe {
        libloading::os::unix::Library::open(
            Some(LIBRARY),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_GLOBAL,
        )
    }
    .unwrap();
    std::mem::forget(lib);
    let m = MockCupti::open(LIBRARY).expect("the mock libcupti's controls");
    let probe_path = examples_dir().join("libcupti_inprocess_session.so");
    // SAFETY: the example's initialisers are Rust statics only.
    let probe = unsafe { libloading::Library::new(&probe_path) }.unwrap();
    // SAFETY: the example's exported C signatures.
    let (start, stop, library) = unsafe {
        (
            *probe.get::<unsafe extern "C" fn(u32) -> i32>(b"accelprof_probe_start\0").unwrap(),
            *probe.get::<unsafe extern "C" fn(*mut ProbeCounts) -> i32>(b"accelprof_probe_stop\0").unwrap(),
            *probe
                .get::<unsafe extern "C" fn(*mut std::ffi::c_char, usize) -> usize>(
                    b"accelprof_probe_library\0",
                )
                .unwrap(),
        )
    };
    let launch = |n: u64| {
        for _ in 0..n {
            m.launch(c"gemm", [4, 1, 1], [128, 1, 1], 0, 7);
        }
        m.device_synchronize();
    };
    // SAFETY: the example's functions take plain values.
    let start_probe = || assert_eq!(unsafe { start(1) }, 0, "accelprof_probe_start");
    // The test kit's Kineto-like client, in Kineto's order of calls through the global scope.
    let kineto_start =
        || KinetoClient::start(KinetoConfig::default()).expect("the Kineto-like client starts");
    let kineto = if order == "before" {
        start_probe();
        launch(PHASE[0]);
        kineto_start()
    } else {
        let kineto = kineto_start();
        launch(PHASE[0]);
        start_probe();
        kineto
    };
    launch(PHASE[1]);
    let k = kineto.stop().expect("the Kineto-like client stops");
    launch(PHASE[2]);
    let mut counts = ProbeCounts::default();
    // SAFETY: a valid out-pointer.
    let r = unsafe { stop(&mut counts) };
    assert!(r >= 0, "accelprof_probe_stop = {r}");
    let mut path = [0u8; 512];
    // SAFETY: a buffer of that many bytes.
    let n = unsafe { library(path.as_mut_ptr().cast(), path.len()) };
    let path = String::from_utf8_lossy(&path[..n.min(path.len() - 1)]).into_owned();
    m.wait_idle();
    println!("{counts:?}");
    println!(
        "OUTCOME kernels={} before={} dropped={} taken={} foreign={} balanced={} shared={} kineto_kernels={} kineto_unknown={} library={path}",
        counts.kernels,
        counts.kernels_before_start,
        counts.records_dropped,
        counts.other_buffers_taken,
        counts.other_foreign_buffers,
        counts.balanced,
        counts.shared,
        k.kernels,
        k.unknown_buffers,
    );
}
