//! Tells the packages that depend on this one (`links = "cupti_shim"`) where its sources are
//! (`DEP_CUPTI_SHIM_ROOT`): the `accelprof` command's build script builds the shared library from
//! them, in release, and carries it inside its executable.

fn main() {
    println!("cargo:root={}", std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-changed=build.rs");
}
