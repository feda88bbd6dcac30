//! Runs the `mspti_*` examples (built by `cargo test` alongside the tests) against the mock, as
//! a user would start them: no `LD_PRELOAD`, no CANN; each finds no usable real library, falls
//! back to the mock and its CANN stand-ins and restarts itself with `libmspti.so` in
//! `LD_PRELOAD`. Their workload calls the runtime through the global symbol scope, as a real ACL
//! program does, so everything they print went through MSPTI's interposed functions and
//! reporters. Guide section 6 (samples) and the four scenarios of section 4, end to end.

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
        .env_remove("MSPTI_EXAMPLE_KERNEL_BINARY")
        .env_remove("MSPTI_EXAMPLE_KERNELS")
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
    assert_eq!(out.matches("[ENTER] aclrtLaunchKernel\n[EXIT]  aclrtLaunchKernel\n").count(), 3, "{out}");
    assert!(out.contains("14 runtime API calls seen"), "every interposed call of the workload: {out}");
}

#[test]
fn guide_4_2_example_callback_mstx() {
    let out = run_example("mspti_callback_mstx");
    // Marked on the launch's stream, as the guide passes it (not a NULL stream): one stream, not 0.
    let streams: std::collections::BTreeSet<&str> = out
        .lines()
        .filter_map(|l| l.split("(context 1, stream ").nth(1))
        .filter_map(|rest| rest.split(')').next())
        .collect();
    assert_eq!(streams.len(), 1, "{out}");
    assert!(streams.iter().all(|s| s.starts_with("0x") && *s != "0x0"), "{out}");
    assert_eq!(out.matches("marker  aclrtLaunchKernel enter (context 1, stream 0x").count(), 3, "{out}");
    assert_eq!(out.matches("marker  aclrtLaunchKernel exit (context 1, stream 0x").count(), 3, "{out}");
    // The stand-in device runs a kernel 20 us per block: add_custom 8 blocks, matmul_custom 16.
    assert_eq!(out.matches("kernel  add_custom (160000 ns on the device").count(), 2, "{out}");
    assert!(out.contains("kernel  matmul_custom (320000 ns on the device"), "{out}");
    // Each mark on a stream has its device side too (MSPTI reads it from the driver's step trace).
    assert_eq!(out.matches("device marker ").count(), 6, "{out}");
    assert!(out.contains("15 records delivered, 0 dropped"), "{out}");
}

#[test]
fn guide_4_3_example_callback_timing() {
    let out = run_example("mspti_callback_timing");
    let durations: Vec<(&str, u64)> = out
        .lines()
        .filter_map(|l| l.strip_prefix("[EXIT]  "))
        .map(|l| {
            let (name, d) = l.split_once(", duration=").unwrap_or_else(|| panic!("unpaired: {l}\n{out}"));
            (name, d.trim_end_matches(" ns").parse().expect("a number"))
        })
        .collect();
    assert_eq!(durations.len(), 14, "every call's EXIT read its ENTER's time: {out}");
    // Had the start come back as 0, the "duration" would be the time since 1970.
    assert!(durations.iter().all(|(_, d)| *d < 60_000_000_000), "{out}");
    let sync = durations.iter().find(|(n, _)| *n == "aclrtSynchronizeStream").expect("the synchronize");
    assert!(sync.1 > 0, "{out}");
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
    let line = |kind: &str, name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().take(2).eq([kind, name]))
            .unwrap_or_else(|| panic!("{kind} {name}: {out}"))
            .split_whitespace()
            .skip(2)
            .map(|f| f.parse::<u64>().expect("a number"))
            .collect::<Vec<u64>>()
    };
    assert_eq!(line("kernel", "add_custom")[..2], [2, 320_000], "{out}");
    assert_eq!(line("kernel", "matmul_custom")[..2], [1, 320_000], "{out}");
    assert_eq!(line("api", "add_custom")[0], 2, "the launches, named by the operator: {out}");
    assert_eq!(line("acl_api", "aclrtLaunchKernel")[0], 3, "{out}");
    assert_eq!(line("acl_api", "aclrtMalloc")[0], 1, "{out}");
    assert!(out.contains("records: 26 produced, 26 delivered, 0 dropped"), "{out}");
}
