//! Builds the mock vendor libraries that the tests and examples open with `dlopen`.
//!
//! Each mock is one Rust `cdylib` crate of its own under `mocks/<vendor>/` with no dependencies
//! (std only), compiled here with the same `rustc` that builds the workspace. It exports the real
//! C symbols of the vendor library with the behaviour the vendor notes record, plus a `mock_*`
//! control interface. Paths reach the code as `ACCEL_MOCK_*` compile-time variables.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Mock {
    /// Directory under `mocks/`.
    dir: &'static str,
    /// Output file name (the vendor's soname, so the loader sees what it would see in the field).
    file: &'static str,
    /// Compile-time variable that receives the absolute path.
    var: &'static str,
    /// Libraries built before it that it links (`-l`), found in the CANN stand-ins' directory.
    links: &'static [&'static str],
}

const MOCKS: &[Mock] = &[
    Mock { dir: "cupti", file: "libcupti.so", var: "ACCEL_MOCK_CUPTI", links: &[] },
    Mock { dir: "rocprofiler", file: "librocprofiler-sdk.so", var: "ACCEL_MOCK_ROCPROFILER", links: &[] },
    // The same mock without set_agents, as every released rocprofiler-sdk is.
    Mock {
        dir: "rocprofiler-mainline",
        file: "rocprofiler-mainline/librocprofiler-sdk.so",
        var: "ACCEL_MOCK_ROCPROFILER_MAINLINE",
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
    Mock { dir: "mspti", file: "libmspti.so", var: "ACCEL_MOCK_MSPTI", links: &["c_sec"] },
];

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("mocks");
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    println!("cargo:rerun-if-changed=mocks");
    println!("cargo:rerun-if-changed=build.rs");
    // The CUPTI mock includes cupti-sys's generated types by path.
    println!("cargo:rerun-if-changed=cupti-sys/src/generated");
    println!("cargo:rerun-if-changed=rocprofiler-sys/src/generated/types.rs");
    for mock in MOCKS {
        let src = Path::new("mocks").join(mock.dir).join("lib.rs");
        let dst = out.join(mock.file);
        std::fs::create_dir_all(dst.parent().expect("has a parent")).expect("create mock output dir");
        if src.exists() {
            let status = Command::new(&rustc)
                .args([
                    "--edition",
                    "2021",
                    "--crate-type",
                    "cdylib",
                    "-C",
                    "opt-level=1",
                    "-C",
                    "panic=abort",
                ])
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
                .status()
                .expect("run rustc for a mock library");
            assert!(status.success(), "building the mock {} failed", mock.dir);
        }
        if !mock.var.is_empty() {
            println!("cargo:rustc-env={}={}", mock.var, dst.display());
        }
    }
    println!("cargo:rustc-env=ACCEL_MOCK_ASCEND_HOME={}", out.join("ascend").display());
    println!("cargo:rustc-env=ACCEL_MOCK_ASCEND_MIN_LOG={}", out.join("ascend-min-log").display());
}
