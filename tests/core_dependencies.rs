//! A program that uses only a vendor crate (`cupti`, `mspti`, `rocprofiler`) builds no trace writer,
//! no compression, no JSON, no demangler and no query engine: those are `accelprof-export`'s and
//! `accelprof-analyze`'s, and the shared core holds only what the vendor crates share
//! (docs/ARCHITECTURE.md).
//!
//! `cargo tree` lists what each crate's build compiles (normal dependencies, as a user of the crate
//! gets them); it reads the lock file and the local registry cache only (`--offline`).

use std::process::Command;

/// Crates (or name prefixes, ending in `*`) that none of these builds may contain.
const FORBIDDEN: &[&str] = &[
    // compression
    "flate2",
    "zlib-rs",
    "libz-sys",
    "libz-rs-sys",
    "miniz_oxide",
    "zstd*",
    "snap",
    "lz4*",
    "brotli*",
    // JSON and other serialization
    "serde_json",
    "serde",
    "prost*",
    // demangling
    "cpp_demangle",
    "rustc-demangle",
    "symbolic-demangle",
    // columnar formats and the query engine
    "arrow*",
    "parquet",
    "datafusion*",
];

fn forbidden(name: &str) -> bool {
    FORBIDDEN.iter().any(|f| match f.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == *f,
    })
}

/// The names of the crates `cargo tree -p <package> -e normal` lists.
fn normal_dependencies(package: &str) -> Vec<String> {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--manifest-path", manifest, "-p", package])
        .args(["-e", "normal", "--prefix", "none", "--format", "{p}"])
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree -p {package}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("cargo tree prints UTF-8");
    let mut names: Vec<String> =
        text.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_owned).collect();
    names.sort();
    names.dedup();
    names
}

fn assert_slim(package: &str) {
    let names = normal_dependencies(package);
    assert!(names.iter().any(|n| n == package), "cargo tree -p {package} lists the crate itself: {names:?}");
    assert!(names.iter().any(|n| n == "accelprof-core"), "{package} builds on accelprof-core: {names:?}");
    let heavy: Vec<&String> = names.iter().filter(|n| forbidden(n)).collect();
    assert!(
        heavy.is_empty(),
        "{package} builds {heavy:?} (a writer's, demangler's or query engine's dependencies)"
    );
}

#[test]
fn the_core_builds_no_writer_compression_json_or_demangler() {
    assert_slim("accelprof-core");
}

#[test]
fn cupti_alone_builds_no_writer_compression_json_or_demangler() {
    assert_slim("cupti");
}

#[test]
fn mspti_alone_builds_no_writer_compression_json_or_demangler() {
    assert_slim("mspti");
}

#[test]
fn rocprofiler_alone_builds_no_writer_compression_json_or_demangler() {
    assert_slim("rocprofiler");
}

/// The list itself: the export crate, which holds the writers, is caught by it (a check that could
/// not fail would pass whatever the core depended on).
#[test]
fn the_export_crate_is_caught_by_the_list() {
    let names = normal_dependencies("accelprof-export");
    for expected in ["flate2", "serde_json", "cpp_demangle", "parquet", "arrow-array"] {
        assert!(names.iter().any(|n| n == expected), "accelprof-export builds {expected}: {names:?}");
        assert!(forbidden(expected), "{expected} is on the list");
    }
}
