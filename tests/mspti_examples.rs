//! Runs the `mspti_*` examples (built by `cargo test` alongside the tests) against the mock, as
//! a user would start them: no `LD_PRELOAD`, no CANN; each finds no usable real library, falls
//! back to the mock and restarts itself with `libmspti.so` in `LD_PRELOAD`. Guide section 6
//! (samples) and the four scenarios of section 4, end to end.

use std::path::PathBuf;
use std::process::Command;

fn run_example(name: &str) -> String {
    let deps = std::env::current_exe().expect("test binary");
    let dir: PathBuf = deps.parent().and_then(|d| d.parent()).expect("target/<profile>").join("examples");
    let exe = dir.join(name);
    assert!(exe.exists(), "{} is built by `cargo test`", exe.display());
    let out = Command::new(&exe)
        .env_remove("LD_PRELOAD")
        .env_remove("ASCEND_HOME_PATH")
        .env_remove("ASCEND_TOOLKIT_HOME")
        .env_remove("MSPTI_LIBRARY_PATH")
        .env_remove(mspti::preload::REEXEC_MARKER)
        .output()
        .expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name} failed:\n{stdout}\n{stderr}");
    assert!(stderr.contains("restarting with LD_PRELOAD="), "{stderr}");
    assert!(stderr.contains("found: already loaded in this process"), "reuses the preloaded copy: {stderr}");
    stdout
}

#[test]
fn guide_4_1_example_callback_domain() {
    let out = run_example("mspti_callback_domain");
    assert!(out.contains("[ENTER] aclrtSetDevice\n[EXIT]  aclrtSetDevice\n"), "{out}");
    assert!(out.contains("12 runtime API calls seen"), "{out}");
}

#[test]
fn guide_4_2_example_callback_mstx() {
    let out = run_example("mspti_callback_mstx");
    assert_eq!(out.matches("aclrtLaunchKernel enter (context 1, stream 1)").count(), 3, "{out}");
    assert_eq!(out.matches("aclrtLaunchKernel exit").count(), 3, "{out}");
    assert!(out.contains("matmul_custom (500000 ns"), "{out}");
    assert!(out.contains("9 records delivered, 0 dropped"), "{out}");
}

#[test]
fn guide_4_3_example_callback_timing() {
    let out = run_example("mspti_callback_timing");
    let durations: Vec<u64> = out
        .lines()
        .filter_map(|l| l.strip_prefix("[EXIT]  aclrtSynchronizeStream, duration="))
        .map(|d| d.trim_end_matches(" ns").parse().expect("a number"))
        .collect();
    // The mock's aclrtSynchronizeStream sleeps 500 us between ENTER and EXIT. The start time
    // comes back through the slot: had it come back as 0, the "duration" would be the time
    // since 1970.
    assert_eq!(durations.len(), 1, "{out}");
    assert!(durations[0] >= 500_000, "{out}");
    assert!(durations[0] < 60_000_000_000, "the ENTER's timestamp reached the EXIT: {out}");
}

#[test]
fn guide_4_4_example_callback_hccl() {
    let out = run_example("mspti_callback_hccl");
    for op in ["AllReduce", "Broadcast", "AllGather", "Reduce", "Barrier"] {
        assert!(out.contains(&format!("[HCCL] ENTER {op}\n[HCCL] EXIT {op}\n")), "{op}: {out}");
    }
}

#[test]
fn activity_example_summarises_kernels_and_api_calls() {
    let out = run_example("mspti_activity");
    let line = |name: &str| {
        out.lines().find(|l| l.contains(name)).unwrap_or_else(|| panic!("{name}: {out}")).to_string()
    };
    let add = line("add_custom");
    assert!(add.starts_with("kernel") && add.split_whitespace().nth(2) == Some("2"), "{add}");
    assert!(line("aclrtLaunchKernel").split_whitespace().nth(2) == Some("3"));
    assert!(out.contains("records: 15 produced, 15 delivered, 0 dropped"), "{out}");
}
