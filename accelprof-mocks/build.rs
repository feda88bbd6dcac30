//! Builds the mock vendor libraries that tests and examples open with `dlopen`.
//!
//! Each mock is one Rust `cdylib` of its own under `libs/<vendor>/` with no dependencies (std
//! only), compiled here with the same `rustc` that builds the crate. It exports the real C symbols
//! of the vendor library with the behaviour the vendor notes record, plus a `mock_*` control
//! interface. The built files' paths reach the crate as compile-time variables, read by the
//! `LIBRARY` constants of `src/`.
//!
//! The CUPTI and rocprofiler mocks take their declarations from the `-sys` crates' generated
//! bindings, so that they write the bytes the real library writes: the directories come from
//! `cupti_sys::GENERATED_DIR` and `rocprofiler_sys::GENERATED_DIR` (build-dependencies, so the
//! packaged crate finds them wherever cargo unpacked them) and reach the mock's sources as the
//! variables `ACCELPROF_CUPTI_GENERATED` and `ACCELPROF_ROCPROFILER_GENERATED` (`include!`).
//!
//! With `ACCELPROF_MOCKS_CLIPPY` set (CI sets it), the mocks are compiled through `clippy-driver`
//! with `-D warnings`: a lint in a mock fails the build like one in the workspace's own crates.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Mock {
    /// Directory under `libs/`.
    dir: &'static str,
    /// Output file name (the vendor's soname, so the loader sees what it would see in the field).
    file: &'static str,
    /// Compile-time variable that receives the absolute path.
    var: &'static str,
    /// Libraries built before it that it links (`-l`), found in the CANN stand-ins' directory.
    links: &'static [&'static str],
}

const MOCKS: &[Mock] = &[
    Mock { dir: "cupti", file: "libcupti.so", var: "ACCELPROF_MOCK_CUPTI", links: &[] },
    // The CUDA driver's device queries, under the driver's soname (tools find it with RTLD_NOLOAD).
    Mock { dir: "cuda", file: "cuda/libcuda.so.1", var: "ACCELPROF_MOCK_CUDA", links: &[] },
    Mock { dir: "rocprofiler", file: "librocprofiler-sdk.so", var: "ACCELPROF_MOCK_ROCPROFILER", links: &[] },
    // The same mock without set_agents, as every released rocprofiler-sdk is.
    Mock {
        dir: "rocprofiler-mainline",
        file: "rocprofiler-mainline/librocprofiler-sdk.so",
        var: "ACCELPROF_MOCK_ROCPROFILER_MAINLINE",
        links: &[],
    },
    // Stand-ins for the CANN libraries and the NPU driver, laid out like `$ASCEND_HOME_PATH/lib64`:
    // what the real libmspti.so loads, and the runtime whose calls it interposes.
    Mock { dir: "cann/c_sec", file: "ascend/lib64/libc_sec.so", var: "", links: &[] },
    Mock { dir: "cann/ascendalog", file: "ascend/lib64/libascendalog.so", var: "", links: &[] },
    Mock { dir: "cann/profapi", file: "ascend/lib64/libprofapi.so", var: "", links: &[] },
    Mock { dir: "cann/ascend_hal", file: "ascend/lib64/libascend_hal.so", var: "", links: &[] },
    Mock { dir: "cann/ascendcl", file: "ascend/lib64/libascendcl.so", var: "", links: &[] },
    Mock { dir: "cann/hccl", file: "ascend/lib64/libhccl.so", var: "", links: &[] },
    Mock { dir: "cann/ms_tools_ext", file: "ascend/lib64/libms_tools_ext.so", var: "", links: &[] },
    // A log library with only what libmspti.so needs of it (no DlogInnerForC).
    Mock { dir: "cann/ascendalog_min", file: "ascend-min-log/libascendalog.so", var: "", links: &[] },
    Mock { dir: "mspti", file: "libmspti.so", var: "ACCELPROF_MOCK_MSPTI", links: &["c_sec"] },
];

/// The mocks' optimization: 1 (they build fast), but 3 for the CUPTI mock, the producer of the engine's
/// record-rate benchmark (BENCHMARKS.md): about 10 % fewer instructions per record, for no longer a build.
fn opt_level(mock: &Mock) -> &'static str {
    if mock.dir == "cupti" {
        "opt-level=3"
    } else {
        "opt-level=1"
    }
}

/// The compiler for the mocks, and the arguments that come before rustc's own: `clippy-driver`
/// with `-D warnings` when `ACCELPROF_MOCKS_CLIPPY` asks for it, else `$RUSTC`.
fn compiler() -> Command {
    if env::var_os("ACCELPROF_MOCKS_CLIPPY").is_some_and(|v| !v.is_empty() && v != "0") {
        // Under `cargo clippy` the wrapper is the toolchain's own clippy-driver; else the rustup proxy.
        let driver = env::var_os("RUSTC_WORKSPACE_WRAPPER")
            .filter(|w| {
                Path::new(w).file_name().is_some_and(|n| n.to_string_lossy().starts_with("clippy-driver"))
            })
            .unwrap_or_else(|| "clippy-driver".into());
        let mut cmd = Command::new(driver);
        cmd.args(["-D", "warnings"]);
        cmd
    } else {
        Command::new(env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
    }
}

/// Arguments that build the mocks instrumented for a sanitizer, when `ACCELPROF_MOCKS_SANITIZER` asks
/// for one (`address` or `thread`; the `.ci/sanitizers` script sets it with the same `-Zsanitizer` in
/// `RUSTFLAGS`), so that a report sees the mocks' own accesses too. They come after the other
/// arguments (a later `-C` wins). A nightly option: the compiler is told it may use it
/// (`RUSTC_BOOTSTRAP`) when it is a stable one. The test executable carries the sanitizer's runtime,
/// which the mocks' calls resolve to.
///
/// With `ACCELPROF_MOCKS_SYSROOT` (a sysroot whose std was built instrumented by `-Zbuild-std`, as the
/// script assembles it), the mocks link that std, so that ThreadSanitizer sees their locks too; that
/// std unwinds, so the mocks do (a panic still aborts at their C boundary). Without it they link the
/// toolchain's prebuilt std (hence the ABI-mismatch permission) and their std's locks are invisible.
fn sanitizer() -> Vec<String> {
    let sanitizer = match env::var("ACCELPROF_MOCKS_SANITIZER").as_deref() {
        Ok(s @ ("address" | "thread")) => s.to_string(),
        Ok("") | Err(_) => return Vec::new(),
        Ok(other) => panic!("ACCELPROF_MOCKS_SANITIZER={other:?}: expected address or thread"),
    };
    let mut args = vec![format!("-Zsanitizer={sanitizer}"), "-Cforce-frame-pointers=yes".into()];
    match env::var_os("ACCELPROF_MOCKS_SYSROOT").filter(|s| !s.is_empty()) {
        Some(sysroot) => {
            args.extend(["-Cpanic=unwind".into(), "--sysroot".into()]);
            args.push(sysroot.to_string_lossy().into_owned());
        }
        None => args.push("-Cunsafe-allow-abi-mismatch=sanitizer".into()),
    }
    args
}

/// `cmd` allowed the nightly options of [`sanitizer`] when there are any.
fn instrumented(mut cmd: Command, sanitizer: &[String]) -> Command {
    if !sanitizer.is_empty() {
        cmd.env("RUSTC_BOOTSTRAP", "1");
    }
    cmd
}

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("mocks");
    println!("cargo:rerun-if-changed=libs");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=ACCELPROF_MOCKS_CLIPPY");
    println!("cargo:rerun-if-env-changed=ACCELPROF_MOCKS_SANITIZER");
    println!("cargo:rerun-if-env-changed=ACCELPROF_MOCKS_SYSROOT");
    let sanitizer = sanitizer();
    // The CUPTI and rocprofiler mocks include the -sys crates' generated declarations.
    println!("cargo:rerun-if-changed={}", cupti_sys::GENERATED_DIR);
    println!("cargo:rerun-if-changed={}", rocprofiler_sys::GENERATED_DIR);
    // The mocks compile in parallel, as many at a time as cargo's jobs (NUM_JOBS), each once the
    // libraries it links are built: on 2 cores about half the wall time of one after the other.
    let jobs = env::var("NUM_JOBS").ok().and_then(|n| n.parse::<usize>().ok()).unwrap_or(1).max(1);
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let mut pending: Vec<&'static Mock> = MOCKS.iter().collect();
    let mut built: Vec<&'static Mock> = Vec::new();
    let mut failed = Vec::new();
    let mut running = 0;
    loop {
        while running < jobs && failed.is_empty() {
            let ready = pending.iter().position(|m| m.links.iter().all(|l| provided(&built, l)));
            let Some(mock) = ready.map(|i| pending.remove(i)) else { break };
            let mut cmd = mock_command(mock, &out, &sanitizer);
            let done = done_tx.clone();
            running += 1;
            std::thread::spawn(move || {
                let status = cmd.status().expect(
                    "run the compiler for a mock library (clippy-driver with ACCELPROF_MOCKS_CLIPPY)",
                );
                done.send((mock, status.success())).expect("the build script waits");
            });
        }
        if running == 0 {
            break;
        }
        let (mock, ok) = done_rx.recv().expect("a compiler thread reports");
        running -= 1;
        if ok {
            built.push(mock);
        } else {
            failed.push(mock.dir);
        }
    }
    assert!(failed.is_empty(), "building the mock(s) {failed:?} failed");
    assert!(
        pending.is_empty(),
        "mocks whose libraries no mock builds: {:?}",
        pending.iter().map(|m| m.dir).collect::<Vec<_>>()
    );
    for mock in MOCKS.iter().filter(|m| !m.var.is_empty()) {
        println!("cargo:rustc-env={}={}", mock.var, out.join(mock.file).display());
    }
    println!("cargo:rustc-env=ACCELPROF_MOCK_ASCEND_HOME={}", out.join("ascend").display());
    println!("cargo:rustc-env=ACCELPROF_MOCK_ASCEND_MIN_LOG={}", out.join("ascend-min-log").display());
}

/// Whether a built mock is the library `-l dylib=<name>` finds in the CANN stand-ins' directory.
fn provided(built: &[&Mock], name: &str) -> bool {
    built.iter().any(|m| m.file == format!("ascend/lib64/lib{name}.so"))
}

/// The compiler command that builds `mock` into `out` (its directory created).
fn mock_command(mock: &Mock, out: &Path, sanitizer: &[String]) -> Command {
    let src = Path::new("libs").join(mock.dir).join("lib.rs");
    let dst = out.join(mock.file);
    std::fs::create_dir_all(dst.parent().expect("has a parent")).expect("create mock output dir");
    let mut cmd = instrumented(compiler(), sanitizer);
    cmd.args(["--edition", "2021", "--crate-type", "cdylib", "-C", opt_level(mock), "-C", "panic=abort"])
        .args(["--crate-name", &format!("mock_{}", mock.dir.replace(['/', '-'], "_"))])
        // A DT_SONAME, as the vendor's library has, so that `dlopen(<soname>, RTLD_NOLOAD)`
        // finds a copy loaded from a path (the loaders' reuse of an already-loaded library).
        .arg("-C")
        .arg(format!(
            "link-arg=-Wl,-soname,{}",
            Path::new(mock.file).file_name().expect("a file name").to_string_lossy()
        ))
        .args(mock.links.iter().flat_map(|l| ["-l".to_string(), format!("dylib={l}")]))
        .arg("-L")
        .arg(format!("native={}", out.join("ascend/lib64").display()))
        .arg("-o")
        .arg(&dst)
        .arg(&src)
        .args(sanitizer)
        .env("ACCELPROF_CUPTI_GENERATED", cupti_sys::GENERATED_DIR)
        .env("ACCELPROF_ROCPROFILER_GENERATED", rocprofiler_sys::GENERATED_DIR);
    cmd
}
