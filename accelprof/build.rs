//! In release builds (`cargo install`), builds the shared libraries the command puts into traced
//! programs (the injection library and the CUPTI sharing shim) and has `src/embedded.rs` carry them
//! inside the executable (`include_bytes!`); the command writes them out on first use (see
//! `src/embedded.rs`). In other builds (tests, `cargo run`) nothing is embedded: the command finds
//! the libraries next to its executable, as `cargo build` leaves them.
//!
//! Each library's package is found through its `links` metadata (`DEP_<LINKS>_ROOT`, printed by its
//! build script), so this works from a crates.io download as from the workspace. Each is built with
//! `cargo build --release --lib` into a target directory of its own under OUT_DIR: the outer build
//! holds the lock of its own target directory, and this never waits on it.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A library to carry: the `links` names to look for (the first found is used), the file each builds.
struct Wanted {
    what: &'static str,
    candidates: &'static [(&'static str, &'static str)],
}

const WANTED: [Wanted; 2] = [
    // accelprof-inject: every vendor's door, one cdylib.
    Wanted { what: "INJECT", candidates: &[("ACCELPROF_INJECT", "libaccelprof_inject.so")] },
    Wanted { what: "SHIM", candidates: &[("CUPTI_SHIM", "libcupti_shim.so")] },
];

// The names and paths reach the code as `CARRIED_*` (`cargo:rustc-env`): cargo also sets them in the
// environment of `cargo run` and `cargo test`, where an `ACCELPROF_*` name would be taken for a
// misspelled setting.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-check-cfg=cfg(accelprof_embedded)");
    println!("cargo:rerun-if-env-changed=ACCELPROF_EMBED");
    let profile = env::var("PROFILE").unwrap_or_default();
    // ACCELPROF_EMBED=0 / 1 overrides the profile's choice (a release build without the nested builds;
    // a debug build that embeds, to test the embedding without a release build of everything).
    let embed = match env::var("ACCELPROF_EMBED").as_deref() {
        Ok("0") => false,
        Ok("1") => true,
        // Not in a fuzzing build (cargo-fuzz's `--cfg fuzzing`, release): the fuzz target of the command
        // line needs the parser, not the libraries.
        _ => profile == "release" && env::var_os("CARGO_CFG_FUZZING").is_none(),
    };
    let given =
        WANTED.iter().filter(|w| env::var_os(format!("ACCELPROF_EMBED_{}", w.what)).is_some()).count();
    assert!(
        given == 0 || given == WANTED.len(),
        "give every library to carry (ACCELPROF_EMBED_INJECT and ACCELPROF_EMBED_SHIM), or none"
    );
    for w in &WANTED {
        // A file given (a packager's own build of the library, or a test of the embedding without a
        // release build of everything): carried as it is.
        let var = format!("ACCELPROF_EMBED_{}", w.what);
        println!("cargo:rerun-if-env-changed={var}");
        if let Some(file) = env::var_os(&var).map(PathBuf::from) {
            assert!(file.is_file(), "{var}={} is not a file", file.display());
            let name = file.file_name().and_then(|n| n.to_str()).expect("a file name").to_owned();
            println!("cargo:rerun-if-changed={}", file.display());
            println!("cargo:rustc-env=CARRIED_{}_NAME={name}", w.what);
            println!("cargo:rustc-env=CARRIED_{}_PATH={}", w.what, file.display());
            continue;
        }
        let found = w.candidates.iter().find_map(|(links, file)| {
            env::var_os(format!("DEP_{links}_ROOT")).map(|root| (PathBuf::from(root), *file))
        });
        let Some((root, file)) = found else {
            panic!("no package of {:?} among the dependencies (DEP_<LINKS>_ROOT unset)", w.candidates);
        };
        println!("cargo:rustc-env=CARRIED_{}_NAME={file}", w.what);
        if !embed {
            continue;
        }
        println!("cargo:rerun-if-changed={}", root.join("src").display());
        println!("cargo:rerun-if-changed={}", root.join("Cargo.toml").display());
        let built = build(&root, file);
        println!("cargo:rustc-env=CARRIED_{}_PATH={}", w.what, built.display());
    }
    if embed || given > 0 {
        println!("cargo:rustc-cfg=accelprof_embedded");
    }
}

/// `cargo build --release --lib` of the package at `root`, in a target directory of its own; the path
/// of the shared library `file` it made.
fn build(root: &Path, file: &str) -> PathBuf {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let target_dir = out.join("libs");
    let target = env::var("TARGET").expect("cargo sets TARGET");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--release", "--lib", "--target", &target])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        // The outer build's settings that would send this one elsewhere or through clippy.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("RUSTC_WORKSPACE_WRAPPER");
    if env::var_os("CARGO_NET_OFFLINE").is_some() {
        cmd.arg("--offline");
    }
    let status = cmd.status().unwrap_or_else(|e| panic!("cannot run cargo to build {file}: {e}"));
    assert!(status.success(), "building {file} from {} failed ({status})", root.display());
    let path = target_dir.join(&target).join("release").join(file);
    assert!(path.is_file(), "{} was not made", path.display());
    path
}
