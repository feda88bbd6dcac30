//! Tells the packages that depend on this one (`links = "cupti_trace"`) where its sources are
//! (`DEP_CUPTI_TRACE_ROOT`): the `accelprof` command's build script builds the injection library
//! (`libcupti_trace.so`) from them, in release, and carries it inside its executable.

fn main() {
    println!("cargo:root={}", std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-changed=build.rs");
}
