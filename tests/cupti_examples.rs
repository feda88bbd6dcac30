//! Runs the `cupti_callback_*` examples (built by `cargo test` alongside the tests) as a user
//! would start them. Without a GPU they run on the mock `libcupti`, which plays runtime calls
//! with the driver calls a real CUDA runtime makes inside them (same correlation id, nested on
//! the calling thread); on a GPU they run the real workload and must succeed too.

use std::path::PathBuf;
use std::process::Command;

/// The example's stdout, and whether it ran on the mock.
fn run_example(name: &str) -> (String, bool) {
    run_example_with(name, &[])
}

/// The same with arguments.
fn run_example_with(name: &str, args: &[&str]) -> (String, bool) {
    let deps = std::env::current_exe().expect("test binary");
    let dir: PathBuf = deps.parent().and_then(|d| d.parent()).expect("target/<profile>").join("examples");
    let exe = dir.join(name);
    assert!(exe.exists(), "{} is built by `cargo test`", exe.display());
    let out = Command::new(&exe).args(args).output().expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name} failed:\n{stdout}\n{stderr}");
    let on_mock = stdout.contains("Running the same workload on the mock libcupti");
    (stdout, on_mock)
}

/// The `(line index, text)` of lines starting with `prefix`.
fn lines_starting<'a>(out: &'a str, prefix: &str) -> Vec<(usize, &'a str)> {
    out.lines().enumerate().filter(|(_, l)| l.starts_with(prefix)).collect()
}

#[test]
fn callback_domain_pairs_nested_calls_that_share_a_correlation_id() {
    let (out, on_mock) = run_example("cupti_callback_domain");
    assert!(out.contains("0 ENTER without EXIT, 0 EXIT without ENTER"), "{out}");
    if !on_mock {
        return;
    }
    // Two rounds of: cudaMalloc, 2 cudaMemcpy, cudaLaunchKernel, cudaMemset, cudaDeviceSynchronize,
    // cudaFree (7 runtime calls, with 8 driver calls inside), and one direct cuLaunchKernel.
    assert!(out.contains("\n14 runtime and 18 driver calls, each ENTER with its EXIT"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let copies = lines_starting(&out, "[ENTER] runtime cudaMemcpy #");
    assert_eq!(copies.len(), 4, "{out}");
    for (i, line) in copies {
        let id = line.split('#').nth(1).and_then(|rest| rest.split(' ').next()).expect("an id");
        let inner = lines[i + 1];
        assert!(
            inner.starts_with("[ENTER] driver  cuMemcpyHtoD_v2 #")
                || inner.starts_with("[ENTER] driver  cuMemcpyDtoH_v2 #"),
            "{inner}"
        );
        assert!(inner.contains(&format!("#{id} ")), "the driver copy has the runtime call's id: {inner}");
        assert!(lines[i + 2].starts_with("[EXIT]  driver"), "{}", lines[i + 2]);
        assert_eq!(lines[i + 3], format!("[EXIT]  runtime cudaMemcpy #{id} -> 0"));
    }
}

#[test]
fn callback_timestamp_times_runtime_calls_and_their_driver_calls_apart() {
    let (out, on_mock) = run_example("cupti_callback_timestamp");
    if !on_mock {
        assert!(out.contains("domain   function"), "{out}");
        return;
    }
    // Four rounds of the mock workload: each function's row counts its calls.
    let calls = |domain: &str, name: &str| -> u64 {
        let row = out
            .lines()
            .find(|l| l.split_whitespace().take(2).eq([domain, name]))
            .unwrap_or_else(|| panic!("no row for {domain} {name}:\n{out}"));
        row.split_whitespace().nth(2).and_then(|n| n.parse().ok()).expect("a call count")
    };
    assert_eq!(calls("runtime", "cudaMemcpy"), 8);
    assert_eq!(calls("driver", "cuMemcpyHtoD_v2"), 4);
    assert_eq!(calls("driver", "cuMemcpyDtoH_v2"), 4);
    assert_eq!(calls("runtime", "cudaLaunchKernel"), 4);
    assert_eq!(calls("driver", "cuLaunchKernel"), 8, "4 inside cudaLaunchKernel, 4 direct");
    assert_eq!(calls("driver", "cuCtxSynchronize_v2"), 4);
}

#[test]
fn callback_overhead_measures_every_kind_and_pairs_it_with_its_round() {
    let (out, on_mock) = run_example_with("cupti_callback_overhead", &["--reps", "3", "--calls", "2000"]);
    if !on_mock {
        return; // on a GPU the figures are the machine's; the run succeeding is the check
    }
    // Every kind has a row: its time per call (a positive number) and an added cost measured
    // against its own round (a number; its sign is the machine's business, not a test's).
    for label in [
        "no-op Rust closure (cupti::Subscriber)",
        "  the same, owning an Arc",
        "  the same, as a second subscriber",
        "(reference: no-op extern \"C\" Rust fn, cuptiSubscribe_v2)",
    ] {
        let rows = lines_starting(&out, label);
        assert_eq!(rows.len(), 1, "{label}:\n{out}");
        let columns: Vec<f64> =
            rows[0].1[label.len()..].split_whitespace().filter_map(|v| v.parse().ok()).collect();
        assert_eq!(columns.len(), 5, "median, min, added, q1, q3 of {label}:\n{out}");
        assert!(columns[0] > 0.0 && columns[1] > 0.0, "{label}: {columns:?}\n{out}");
        assert!(columns.iter().all(|c| c.is_finite()), "{label}: {columns:?}\n{out}");
    }
    assert_eq!(lines_starting(&out, "no subscriber").len(), 1);
    assert!(out.contains("no-op C callback: not measured"), "{out}");
}
