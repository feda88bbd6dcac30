//! Tells a dependent package's build script (`links = "accelprof_inject"`) where this package's
//! source is: `DEP_ACCELPROF_INJECT_ROOT`.

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!("cargo:root={root}");
    // tests/doors.rs plays CPython's `Py_AtExit` in its test executable: exported, as `python` does.
    println!("cargo:rustc-link-arg-tests=-Wl,--export-dynamic-symbol=Py_AtExit");
    println!("cargo:rerun-if-changed=build.rs");
}
