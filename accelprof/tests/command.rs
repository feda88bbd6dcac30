//! The `accelprof` command: its subcommands and usage errors, exit statuses, `info` on this machine,
//! and `accelprof trace` of a CUDA program on the mock libcupti, with the security and exit-status
//! checks of cupti-trace's retired launcher ported to it.

mod support;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;

use accel_profiling::settings::{by_option, SETTINGS};
use support::*;

const CHILD: &str = "traced_child";

/// The traced program of the tests here (run in a child process; ignored in a normal run).
#[test]
#[ignore = "the child process of the tests in this file"]
fn traced_child() {
    support::child::run();
}

/// The variables that point the vendors' loaders somewhere: removed, so that `info` and `auto` see
/// this machine as it is.
const VENDOR_VARS: [&str; 9] = [
    "CUPTI_LIBRARY_PATH",
    "CUDA_HOME",
    "CUDA_PATH",
    "ROCPROFILER_LIBRARY_PATH",
    "ROCM_PATH",
    "MSPTI_LIBRARY_PATH",
    "ASCEND_HOME_PATH",
    "ASCEND_TOOLKIT_HOME",
    "LD_LIBRARY_PATH",
];

fn bare() -> Command {
    let mut cmd = accelprof();
    for var in VENDOR_VARS {
        cmd.env_remove(var);
    }
    cmd
}

/// `accelprof trace --vendor cuda [options] -- <this test binary as the traced child of scenario>`.
fn under_launcher(scenario: &str, options: &[&str]) -> Command {
    let child = child_command(CHILD, scenario);
    let mut cmd = accelprof();
    cmd.args(["trace", "--vendor", "cuda", "--flush-period-ms", "200"]).args(options);
    cmd.arg("--").arg(child.get_program()).args(child.get_args());
    for (k, v) in child.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn help_and_version_exit_0_and_trace_help_lists_every_setting() {
    for help in [&["--help"][..], &["help"], &["-h"]] {
        let out = accelprof().args(help).output().unwrap();
        assert!(out.status.success(), "{help:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        for sub in ["trace", "analyze", "recover", "info"] {
            assert!(text.contains(&format!("accelprof {sub}")), "{sub} missing from {help:?}: {text}");
        }
    }
    let out = accelprof().args(["trace", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
    for s in SETTINGS {
        assert!(help.contains(s.option) && help.contains(s.var), "{} / {} missing", s.option, s.var);
        assert!(help.contains(&format!("[default: {}]", s.default)), "{}'s default missing", s.option);
    }
    assert!(help.contains("--vendor cuda|rocm|ascend"), "{help}");
    for sub in ["analyze", "recover", "info"] {
        let out = accelprof().args([sub, "--help"]).output().unwrap();
        assert!(out.status.success(), "{sub} --help");
        assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("usage: accelprof {sub}")));
    }
    let out = accelprof().arg("--version").output().unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with(&format!("accelprof {}", env!("CARGO_PKG_VERSION")))
    );
}

#[test]
fn misspelled_subcommands_and_options_are_refused_with_the_closest_one() {
    let cases: [(&[&str], &str); 6] = [
        (&["trcae", "--", "true"], "unknown subcommand `trcae`: did you mean `trace`?"),
        (&["anlyze", "d"], "did you mean `analyze`?"),
        (&["recovr", "f"], "did you mean `recover`?"),
        (&["trace", "--ouptut", "t.json", "--", "true"], "unknown option --ouptut (did you mean --output?)"),
        (&["trace", "--vendr", "cuda", "--", "true"], "unknown option --vendr (did you mean --vendor?)"),
        (&["--verison"], "unknown option --verison (did you mean --version?)"),
    ];
    for (args, says) in cases {
        let out = accelprof().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr_of(&out).contains(says), "{args:?}: {}", stderr_of(&out));
    }
    let out = accelprof().output().unwrap();
    assert_eq!(out.status.code(), Some(2), "no subcommand");
}

/// Usage errors exit 2 and nothing runs: bad outputs and values, an unknown vendor, no vendor library
/// found, no injection library.
#[test]
fn usage_errors_exit_2_before_the_program_runs() {
    let dir = temp_dir("usage");
    let ran = dir.join("ran");
    let summary_dir = dir.to_str().unwrap();
    let same = dir.join("same.json");
    let same = same.to_str().unwrap();
    let cases: [&[&str]; 15] = [
        &["--vendor", "cuda", "-o", "/no/such/dir/t.json"],
        // The summary named as the trace replaced the trace when the program ended, exit 0.
        &["--vendor", "cuda", "-o", same, "--summary-json", same],
        // The summary JSON's name was checked only when the program ended (said, exit 0).
        &["--vendor", "cuda", "-o", "none", "--summary-json", "/no/such/dir/s.json"],
        &["--vendor", "cuda", "-o", "none", "--summary-json", summary_dir],
        &["--vendor", "cuda", "-o", "none", "--summary-json", ""],
        // `none` first made the list write nothing, exit 0; an empty name: no trace, exit 0.
        &["--vendor", "cuda", "-o", "none", "-o", "keep.json"],
        &["--vendor", "cuda", "-o", ""],
        &["--vendor", "cuda", "-o", "t.xyz"],
        &["--vendor", "cuda", "-o", "a\tb.json"],
        &["--vendor", "cuda", "-o", "/etc/passwd/t.json"],
        &["--vendor", "cuda", "--buffer-size", "1T"],
        &["--vendor", "cuda", "--delay", "10x"],
        &["--vendor", "intel"],
        // Nothing found on this machine (no vendor library; the variables that point at one removed).
        &[],
        &["--vendor", "cuda", "--lib", "/no/such/libaccelprof_inject.so"],
    ];
    for options in cases {
        let out =
            bare().arg("trace").args(options).args(["--", "touch", ran.to_str().unwrap()]).output().unwrap();
        let stderr = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{options:?}: {stderr}");
        assert!(!ran.exists(), "{options:?}: the program ran");
        assert!(!stderr.contains("tracing `"), "{options:?}: {stderr}");
    }
    let said = |options: &[&str]| {
        let out = accelprof().arg("trace").args(options).args(["--", "touch"]).arg(&ran).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{options:?}");
        stderr_of(&out)
    };
    let stderr = said(&["--vendor", "cuda", "--summary-json", "/no/such/dir/s.json"]);
    assert!(stderr.contains("summary JSON \"/no/such/dir/s.json\": the directory /no/such/dir"), "{stderr}");
    let stderr = said(&["--vendor", "cuda", "-o", same, "--summary-json", same]);
    assert!(stderr.contains("also named as a trace output"), "{stderr}");
    assert!(!Path::new(same).exists(), "nothing written");
    let stderr = said(&["--vendor", "cuda", "--summary-json", summary_dir]);
    assert!(stderr.contains(&format!("{summary_dir} is a directory")), "{stderr}");
    let stderr = said(&["--vendor", "cuda", "-o", "none", "-o", "keep.json"]);
    assert!(stderr.contains("\"none\" (no trace) with other outputs"), "{stderr}");
    let stderr = said(&["--vendor", "cuda", "-o", ""]);
    assert!(stderr.contains("output \"\": no file named"), "{stderr}");
    assert!(!ran.exists());
    let out = bare().args(["trace", "--", "touch", ran.to_str().unwrap()]).output().unwrap();
    let stderr = stderr_of(&out);
    assert!(stderr.contains("no vendor profiling library found") && stderr.contains("not found"), "{stderr}");
    let out = accelprof()
        .env("ACCELPROF_INJECT_LIBRARY", dir.join("missing.so"))
        .args(["trace", "--vendor", "cuda", "--", "touch", ran.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("missing.so does not exist"), "{}", stderr_of(&out));
    assert!(!ran.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ACCELPROF_VENDOR=bogus` was ignored (the vendor picked as if unset: the program traced on the one
/// found, or "no vendor profiling library found" said without a word of the variable).
#[test]
fn a_bad_vendor_variable_is_a_usage_error_naming_it() {
    let dir = temp_dir("bad-vendor-var");
    let ran = dir.join("ran");
    for value in ["bogus", "cuda\u{1}"] {
        let out = bare()
            .env("ACCELPROF_VENDOR", value)
            .env("CUPTI_LIBRARY_PATH", accelprof_mocks::cupti::LIBRARY)
            .args(["trace", "-o", "none", "--", "touch", ran.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{value:?}: {stderr}");
        assert!(!ran.exists(), "{value:?}: the program ran");
        assert!(
            stderr.contains("ACCELPROF_VENDOR=\"bogus\"")
                || stderr.contains("ACCELPROF_VENDOR=\"cuda\\u{1}\""),
            "{stderr}"
        );
        assert!(stderr.contains("cuda, rocm, ascend, auto"), "the accepted values: {stderr}");
    }
    // Set empty, it is unset; a good value is taken; --vendor wins over it (the launcher sets it).
    let seen = dir.join("seen");
    let script = format!("printf '%s\\n' \"$ACCELPROF_VENDOR\" > {}", seen.display());
    for (value, options, expected) in
        [("", &[][..], "cupti"), ("AMD", &[], "rocprofiler"), ("bogus", &["--vendor", "cuda"], "cupti")]
    {
        let out = bare()
            .env("ACCELPROF_VENDOR", value)
            .env("CUPTI_LIBRARY_PATH", accelprof_mocks::cupti::LIBRARY)
            .arg("trace")
            .args(options)
            .args(["-o", "none", "--", "sh", "-c", &script])
            .output()
            .unwrap();
        assert!(out.status.success(), "{value:?}: {}", stderr_of(&out));
        assert_eq!(std::fs::read_to_string(&seen).unwrap().trim(), expected, "{value:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `CUPTI_LIBRARY_PATH=/etc/passwd` made `trace` pick CUDA (any file counted as the library) while
/// `info` said CUPTI was not found: the automatic choice takes a file only as the search `info` runs
/// would.
#[test]
fn the_automatic_choice_agrees_with_info_on_a_file_that_is_no_library() {
    let dir = temp_dir("not-a-library");
    let ran = dir.join("ran");
    let text = dir.join("libcupti.so");
    std::fs::write(&text, "root:x:0:0:root:/root:/bin/sh\n").unwrap();
    // An ELF shared object, not CUPTI: the mock of another vendor.
    for file in [text.as_path(), Path::new(accelprof_mocks::mspti::LIBRARY)] {
        let info = bare().env("CUPTI_LIBRARY_PATH", file).arg("info").output().unwrap();
        let info = String::from_utf8_lossy(&info.stdout).into_owned();
        let cuda = info.lines().find(|l| l.starts_with("cuda")).unwrap_or_default().to_owned();
        assert!(!cuda.contains("found at"), "{file:?}: {info}");
        let out = bare()
            .env("CUPTI_LIBRARY_PATH", file)
            .args(["trace", "-o", "none", "--", "touch", ran.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{file:?}: {stderr}");
        assert!(stderr.contains("no vendor profiling library found"), "{file:?}: {stderr}");
        assert!(!ran.exists(), "{file:?}: traced on what info does not find");
    }
    // The library itself is still picked.
    let out = bare()
        .env("CUPTI_LIBRARY_PATH", accelprof_mocks::cupti::LIBRARY)
        .args(["trace", "-o", "none", "--", "touch", ran.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success() && stderr_of(&out).contains(" on cuda "), "{}", stderr_of(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--vendor rocm --vendor-lib /nonexistent.so` was not checked, and ROCm's and Ascend's ways into the
/// program preloaded the library found instead: a vendor library that is no file is a usage error for
/// every vendor, and the one named is the one preloaded.
#[test]
fn a_vendor_library_that_is_no_library_of_the_vendor_is_a_usage_error_for_every_vendor() {
    let dir = temp_dir("vendor-lib");
    let ran = dir.join("ran");
    let missing = dir.join("missing.so");
    // A file that is no shared object: it was preloaded, the loader refusing it only in the program.
    let text = dir.join("text.so");
    std::fs::write(&text, "not a library\n").unwrap();
    let mocks = |cmd: &mut Command| {
        cmd.env("CUPTI_LIBRARY_PATH", accelprof_mocks::cupti::LIBRARY)
            .env("ROCPROFILER_LIBRARY_PATH", accelprof_mocks::rocprofiler::LIBRARY)
            .env("MSPTI_LIBRARY_PATH", accelprof_mocks::mspti::LIBRARY)
            .env("ASCEND_HOME_PATH", accelprof_mocks::mspti::ASCEND_HOME)
            .env_remove("LD_PRELOAD");
    };
    for vendor in ["cuda", "rocm", "ascend"] {
        for (lib, says) in [
            (
                missing.to_str().unwrap(),
                format!("--vendor-lib {:?}: No such file", missing.display().to_string()),
            ),
            (dir.to_str().unwrap(), "not a file".to_owned()),
            (text.to_str().unwrap(), format!("not {vendor}'s library: ")),
            // Another vendor's library: a shared object without this vendor's symbols.
            (
                if vendor == "cuda" {
                    accelprof_mocks::mspti::LIBRARY
                } else {
                    accelprof_mocks::cupti::LIBRARY
                },
                format!("not {vendor}'s library: not this library: it does not export"),
            ),
        ] {
            let mut cmd = bare();
            mocks(&mut cmd);
            let out = cmd
                .args(["trace", "--vendor", vendor, "--vendor-lib", lib, "-o", "none"])
                .args(["--", "touch", ran.to_str().unwrap()])
                .output()
                .unwrap();
            let stderr = stderr_of(&out);
            assert_eq!(out.status.code(), Some(2), "{vendor} {lib}: {stderr}");
            assert!(stderr.contains(&says), "{vendor} {lib}: {stderr}");
            assert!(!ran.exists(), "{vendor} {lib}: the program ran");
        }
        let mut cmd = bare();
        mocks(&mut cmd);
        let out = cmd
            .env("ACCELPROF_LIBRARY", &missing)
            .args(["trace", "--vendor", vendor, "-o", "none", "--", "touch", ran.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{vendor} ACCELPROF_LIBRARY: {stderr}");
        assert!(stderr.contains("ACCELPROF_LIBRARY=\""), "{stderr}");
        assert!(!ran.exists());
    }
    // The one named is the one preloaded (a copy of the mock: not the one the search finds).
    let seen = dir.join("seen");
    let script = format!("printf '%s\\n' \"$LD_PRELOAD\" > {}", seen.display());
    for (vendor, mock) in
        [("rocm", accelprof_mocks::rocprofiler::LIBRARY), ("ascend", accelprof_mocks::mspti::LIBRARY)]
    {
        let named = dir.join(format!("{vendor}-copy.so"));
        std::fs::copy(mock, &named).unwrap();
        let mut cmd = bare();
        mocks(&mut cmd);
        let out = cmd
            .args(["trace", "--vendor", vendor, "--vendor-lib", named.to_str().unwrap(), "-o", "none"])
            .args(["--", "sh", "-c", &script])
            .output()
            .unwrap();
        assert!(out.status.success(), "{vendor}: {}", stderr_of(&out));
        let preload = std::fs::read_to_string(&seen).unwrap();
        assert!(preload.contains(&*named.to_string_lossy()), "{vendor}: {preload}");
        assert!(!preload.contains(mock), "{vendor}: {preload}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// As shells say it: 127 for a program not found, 126 for one found but not runnable; the program's
/// status passed through, and its signal (128+n to a shell).
#[test]
fn exit_statuses_are_the_programs_and_126_127_as_shells_use_them() {
    let dir = temp_dir("status");
    let trace = |program: &[&str]| {
        let mut cmd = accelprof();
        cmd.args(["trace", "--vendor", "cuda", "-o", "none", "--"]).args(program).current_dir(&dir);
        cmd.output().unwrap()
    };
    assert_eq!(trace(&["/no/such/program"]).status.code(), Some(127));
    assert_eq!(trace(&["no-such-program-on-the-path-xyz"]).status.code(), Some(127));
    let text = dir.join("not-executable");
    std::fs::write(&text, "#!/bin/sh\nexit 0\n").unwrap();
    let out = trace(&[text.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(126), "{}", stderr_of(&out));
    assert_eq!(trace(&[dir.to_str().unwrap()]).status.code(), Some(126), "a directory");
    assert_eq!(trace(&["sh", "-c", "exit 7"]).status.code(), Some(7));
    assert_eq!(trace(&["true"]).status.code(), Some(0));
    let out = trace(&["sh", "-c", "kill -TERM $$"]);
    assert_eq!(out.status.signal(), Some(libc::SIGTERM), "dies of the program's signal: {}", stderr_of(&out));
    // Seen from a shell: 128 + 15.
    let out = Command::new("sh")
        .args(["-c", "\"$0\" trace --vendor cuda -o none -- sh -c 'kill -TERM $$'; echo status=$?"])
        .arg(launcher())
        .env("ACCELPROF_INJECT_LIBRARY", tracer_library())
        .env("ACCELPROF_SHIM_LIBRARY", shim_library())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("status=143"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// This machine has no vendor library: `info` says so for each vendor, one line each, exit 0; with the
/// mock libcupti named, CUDA is found with its version.
#[test]
fn info_names_every_vendor_and_what_was_found() {
    let out = bare().arg("info").output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    for (line, vendor) in lines.iter().zip(["cuda", "rocm", "ascend"]) {
        assert!(line.starts_with(vendor), "{line}");
        assert!(
            line.contains(": not found (looked in "),
            "this machine has no vendor library (a machine that has one fails here): {line}"
        );
    }
    let out = bare().args(["info", "-v"]).output().unwrap();
    let verbose = String::from_utf8(out.stdout).unwrap();
    assert!(verbose.lines().count() > 3 && verbose.contains("$CUPTI_LIBRARY_PATH: not set"), "{verbose}");
    let out = bare().arg("info").env("CUPTI_LIBRARY_PATH", mock_path()).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let cuda = stdout.lines().next().unwrap();
    assert!(cuda.contains(&format!("found at {}", mock_path().display())), "{cuda}");
    assert!(cuda.contains("version"), "{cuda}");
    let out = bare()
        .arg("info")
        .env("ROCPROFILER_LIBRARY_PATH", accelprof_mocks::rocprofiler::LIBRARY)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rocm = stdout.lines().nth(1).unwrap();
    assert!(
        rocm.contains(&format!("found at {}, version ", accelprof_mocks::rocprofiler::LIBRARY)),
        "{rocm}"
    );
}

/// `--vendor` left out: the one vendor whose library is found (here the mock libcupti, named by
/// CUPTI_LIBRARY_PATH as the child's environment does) is traced.
#[test]
fn the_cuda_trace_through_the_command_with_the_vendor_found() {
    let dir = temp_dir("auto");
    let output = dir.join("trace_%p.json.gz");
    let child = child_command(CHILD, "exit");
    let mut cmd = bare();
    cmd.args(["trace", "--flush-period-ms", "200", "--output", output.to_str().unwrap(), "--"]);
    cmd.arg(child.get_program()).args(child.get_args());
    for (k, v) in child.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().unwrap();
    let stderr = stderr_of(&out);
    // The program ends with _exit(3): no atexit, so its trace was not finished; the command closes it.
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("[accelprof] tracing `") && stderr.contains("on cuda"), "{stderr}");
    assert!(stderr.contains("died before finishing its trace"), "{stderr}");
    let traces = files_with(&dir, "trace_");
    assert_eq!(traces.len(), 1, "{traces:?}");
    assert!(!traces[0].to_string_lossy().contains(".partial-"), "closed under its final name: {traces:?}");
    assert!(stderr.contains(&traces[0].display().to_string()), "{stderr}");
    assert_eq!(kernels_named(&read_trace(&traces[0]), "demo::kernel()").len(), 50);
    assert!(stderr.contains("exited with status 3"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_misspelled_variable_is_reported_and_the_program_traced_all_the_same() {
    let dir = temp_dir("misspelled");
    let output = dir.join("t_%p.json");
    let buffer_size = by_option("--buffer-size").unwrap().var;
    let max_buffers = by_option("--max-buffers").unwrap().var;
    let typo = buffer_size.replace("BUFFER", "BUFER");
    let out = under_launcher("ranges", &["-o", output.to_str().unwrap()])
        .env(&typo, "8M")
        .env(max_buffers, "1099511627776")
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("unknown variable {typo} ignored: did you mean {buffer_size}?")),
        "{stderr}"
    );
    assert_eq!(stderr.matches("bounded to 65536").count(), 1, "said once, by the command: {stderr}");
    assert_eq!(files_with(&dir, "t_").len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn records_lost_to_another_cupti_client_make_the_status_4() {
    let dir = temp_dir("another_client");
    let output = dir.join("trace.json");
    let out = under_launcher("another_client", &["--cuda-share", "off", "-o", output.to_str().unwrap()])
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), stderr_of(&out));
    assert!(stdout.contains("it got 1 of our buffers"), "{stdout}");
    assert_eq!(out.status.code(), Some(4), "the program succeeded, records were lost: {stderr}");
    assert!(stderr.contains("records were lost to another CUPTI client in pid"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_to_the_command_reaches_the_program_whose_trace_is_finished() {
    let dir = temp_dir("forward");
    let output = dir.join("trace.json");
    let launched = Running::spawn(under_launcher("wait", &["-o", output.to_str().unwrap()]));
    launched.wait_for("ready");
    launched.signal(libc::SIGTERM);
    let (status, stderr) = launched.finish();
    assert_eq!(status.signal(), Some(libc::SIGTERM), "the command dies as the program did: {stderr}");
    assert!(stderr.contains("was killed by signal 15 (SIGTERM)"), "{stderr}");
    assert_eq!(kernels_named(&read_trace(&output), "demo::kernel()").len(), 50);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18 (security), ported: a line at the old predictable report name, and a link there, have no
/// effect; the private channel is gone at the end.
#[test]
fn a_line_at_the_old_predictable_report_name_has_no_effect() {
    let dir = temp_dir("attacker");
    let output = dir.join("trace.json");
    let victim = dir.join("victim.json");
    std::fs::write(&victim, "precious").unwrap();
    let evil = dir.join("evil.partial-1.json");
    std::fs::write(&evil, "{\n  \"traceEvents\": [\n").unwrap();
    let linked = dir.join("linked");
    std::fs::write(&linked, "keep me").unwrap();
    let mut cmd = under_launcher("wait", &["-o", output.to_str().unwrap()]);
    cmd.env("TMPDIR", &dir);
    let launched = Running::spawn(cmd);
    let pid = launched.child.id();
    for name in [format!("cupti-trace-{pid}.report"), format!("accelprof-{pid}.report")] {
        let line = format!("start\t999999\t{}\t{}\n", evil.display(), victim.display());
        std::fs::write(dir.join(name), line).unwrap();
    }
    launched.wait_for("ready");
    launched.signal(libc::SIGTERM);
    let (status, stderr) = launched.finish();
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{stderr}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious", "{stderr}");
    assert!(evil.exists(), "the attacker's file is left where it is: {stderr}");
    assert_eq!(kernels_named(&read_trace(&output), "demo::kernel()").len(), 50, "{stderr}");
    // Links at the old names: followed by nothing.
    let mut child =
        under_launcher("ranges", &["-o", output.to_str().unwrap()]).env("TMPDIR", &dir).spawn().unwrap();
    for name in [format!("cupti-trace-{}.report", child.id()), format!("accelprof-{}.report", child.id())] {
        let _ = std::fs::remove_file(dir.join(&name));
        let _ = std::os::unix::fs::symlink(&linked, dir.join(name));
    }
    assert!(child.wait().unwrap().success());
    assert_eq!(std::fs::read_to_string(&linked).unwrap(), "keep me");
    // The private channels are gone: no directory is left in TMPDIR.
    let dirs: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.path().is_dir()).collect();
    assert!(dirs.is_empty(), "{dirs:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ported: two CUDA processes with one output name write two files.
#[test]
fn two_processes_with_one_output_name_write_two_files() {
    let dir = temp_dir("same");
    let output = dir.join("same.json");
    let child = child_command(CHILD, "ranges");
    let mut cmd = accelprof();
    cmd.args(["trace", "--vendor", "cuda", "-o", output.to_str().unwrap(), "--"]);
    cmd.args(["sh", "-c", "\"$0\" \"$@\" && \"$0\" \"$@\""]);
    cmd.arg(child.get_program()).args(child.get_args());
    for (k, v) in child.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().unwrap();
    let stderr = stderr_of(&out);
    assert!(out.status.success(), "{stderr}");
    let traces = files_with(&dir, "same");
    assert_eq!(traces.len(), 2, "one file per process: {traces:?}\n{stderr}");
    for trace in &traces {
        assert_eq!(kernels_named(&read_trace(trace), "demo::outside()").len(), 15, "{}", trace.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ported: `ulimit -f` never kills the program, and the loss is said (status 1).
#[test]
fn a_file_size_limit_never_kills_the_program_and_the_loss_is_said() {
    let dir = temp_dir("fsize");
    let output = dir.join("t.json");
    let mut cmd = under_launcher("many", &["-o", output.to_str().unwrap()]);
    // SAFETY: between fork and exec only setrlimit(2), which is async-signal-safe.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
            let limit = libc::rlimit { rlim_cur: 64 << 10, rlim_max: libc::RLIM_INFINITY };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.signal(), None, "killed: {stderr}");
    assert_eq!(out.status.code(), Some(1), "the program exited 0, its trace was lost: {stderr}");
    assert!(stderr.contains("is NOT complete") && stderr.contains("File too large"), "{stderr}");
    assert!(stderr.contains("1 trace file(s) NOT complete or not written"), "counted once: {stderr}");
    let trace = read_trace(&output);
    assert!(trace["traceRecovered"]["events"].as_u64().unwrap() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `accelprof recover` closes a trace left by a process that died; `analyze` of a directory without
/// Parquet files fails with the reason (exit 1), of nothing is a usage error.
#[test]
fn recover_and_analyze() {
    let dir = temp_dir("recover");
    let partial = dir.join("t.partial-7.json");
    let head = "{\n  \"traceEvents\": [\n    {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \
                \"ts\": 1.0, \"dur\": 1.0},\n    {\"ph\": \"X\", \"cat\": \"ker";
    std::fs::write(&partial, head).unwrap();
    let out = accelprof().arg("recover").arg(&partial).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let trace = read_trace(&dir.join("t.json"));
    assert_eq!(trace["traceEvents"][0]["name"], "k");
    assert!(!partial.exists());
    let out = accelprof().arg("recover").arg(dir.join("missing.partial-1.json")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = accelprof().arg("analyze").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr_of(&out).contains("no *.parquet file in"), "{}", stderr_of(&out));
    let out = accelprof().args(["analyze", "--jsn"]).arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("did you mean --json?"), "{}", stderr_of(&out));
    assert!(Path::new(&dir).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Parquet trace written through the command, then analysed by it (accelprof-analyze's library).
#[test]
fn a_parquet_trace_of_the_command_is_analyzed_by_it() {
    let dir = temp_dir("parquet");
    let output = dir.join("rank0.parquet");
    let out = under_launcher("ranges", &["-o", output.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let out = accelprof().args(["analyze", "--json"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = report.to_string();
    assert!(text.contains("demo::outside()") && text.contains("demo::inside()"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--vendor rocm`: the injection library added to ROCP_TOOL_LIBRARIES after the user's tools and to
/// LD_PRELOAD, the SDK told to configure from its constructor (as rocprofv3 does). `--vendor ascend`
/// without libmspti.so on this machine: a usage error naming what was looked for, nothing runs.
#[test]
fn rocm_and_ascend_ways_into_the_program() {
    let dir = temp_dir("ways");
    let seen = dir.join("seen");
    let script = format!(
        "printf '%s\\n%s\\n%s\\n%s\\n' \"$ROCP_TOOL_LIBRARIES\" \"$LD_PRELOAD\" \"$ROCPROFILER_LIBRARY_CTOR\" \
         \"$ACCELPROF_VENDOR\" > {}",
        seen.display()
    );
    let out = bare()
        .args(["trace", "--vendor", "amd", "-o", "none", "--", "sh", "-c", &script])
        .env("ROCP_TOOL_LIBRARIES", "/opt/user/libtool.so")
        .env_remove("LD_PRELOAD")
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert!(out.status.success(), "{stderr}");
    let library = std::fs::canonicalize(tracer_library()).unwrap();
    let lines: Vec<String> = std::fs::read_to_string(&seen).unwrap().lines().map(str::to_owned).collect();
    assert_eq!(lines[0], format!("/opt/user/libtool.so:{}", library.display()), "{stderr}");
    assert_eq!(lines[1], library.display().to_string(), "no SDK found here: the tool alone");
    assert_eq!(lines[2], "1");
    assert_eq!(lines[3], "rocprofiler", "the tracer in the program is told its vendor");
    assert!(!stderr.contains("warning"), "one library for every vendor: nothing to warn about: {stderr}");

    let ran = dir.join("ran");
    let out = bare()
        .args(["trace", "--vendor", "huawei", "-o", "none", "--", "touch", ran.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("ascend") && stderr.contains("not found (looked in"), "{stderr}");
    assert!(!ran.exists());

    // With MSPTI (the mock, its CANN stand-ins at ASCEND_HOME_PATH): libmspti.so, then ours, preloaded,
    // and the program starts (the CANN libraries libmspti.so needs are on its loader path: without them
    // the preload stopped it with status 127).
    let script = format!("printf '%s\\n%s\\n' \"$LD_PRELOAD\" \"$ACCELPROF_VENDOR\" > {}", seen.display());
    let out = bare()
        .args(["trace", "--vendor", "ascend", "-o", "none", "--", "sh", "-c", &script])
        .env("MSPTI_LIBRARY_PATH", accelprof_mocks::mspti::LIBRARY)
        .env("ASCEND_HOME_PATH", accelprof_mocks::mspti::ASCEND_HOME)
        .env_remove("LD_PRELOAD")
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<String> = std::fs::read_to_string(&seen).unwrap().lines().map(str::to_owned).collect();
    let mspti = lines[0].split(':').next().unwrap().to_owned();
    assert!(mspti.ends_with("libmspti.so"), "{lines:?}");
    assert_eq!(lines[0], format!("{mspti}:{}", library.display()), "{stderr}");
    assert_eq!(lines[1], "mspti");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18: `cargo install cupti-trace` gave a launcher that could not find its library (exit 2).
/// `cargo install` of this command (the README's line, into a scratch root), then the installed
/// executable alone, run from another directory with an empty LD_LIBRARY_PATH and a fresh HOME, traces
/// the mock CUDA program: the libraries it carries are written out to a private cache and used.
/// `ACCELPROF_INSTALLED=<bin>` checks an executable installed beforehand instead of installing.
#[test]
#[ignore = "a release build of the command and of the libraries it carries: many minutes"]
fn the_installed_command_alone_traces_the_mock_cuda_program() {
    let scratch = temp_dir("install");
    let installed = match std::env::var_os("ACCELPROF_INSTALLED") {
        Some(bin) => std::path::PathBuf::from(bin),
        None => {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let status = Command::new(cargo)
                .args(["install", "--locked", "--path", env!("CARGO_MANIFEST_DIR"), "--root"])
                .arg(scratch.join("root"))
                .env_remove("CARGO_TARGET_DIR")
                .status()
                .unwrap();
            assert!(status.success());
            scratch.join("root/bin/accelprof")
        }
    };
    let (home, elsewhere) = (scratch.join("home"), scratch.join("elsewhere"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let child = child_command(CHILD, "ranges");
    let out = Command::new(&installed)
        .args(["trace", "-o", "t_%p.json", "--"])
        .arg(child.get_program())
        .args(child.get_args())
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", &home)
        .env("LD_LIBRARY_PATH", "")
        .env(SCENARIO, "ranges")
        .env("CUPTI_LIBRARY_PATH", mock_path())
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert!(out.status.success(), "{stderr}");
    let traces = files_with(&elsewhere, "t_");
    assert_eq!(traces.len(), 1, "{stderr}");
    assert_eq!(kernels_named(&read_trace(&traces[0]), "demo::outside()").len(), 15);
    let cache = home.join(".cache/accelprof");
    let versions: Vec<_> = std::fs::read_dir(&cache).unwrap().flatten().map(|e| e.path()).collect();
    assert_eq!(versions.len(), 1);
    for dir in [home.join(".cache"), cache.clone(), versions[0].clone()] {
        use std::os::unix::fs::MetadataExt;
        assert_eq!(std::fs::metadata(&dir).unwrap().mode() & 0o777, 0o700, "{}", dir.display());
    }
    assert!(stderr.contains(&versions[0].display().to_string()), "the carried library was used: {stderr}");
    let _ = std::fs::remove_dir_all(&scratch);
}

/// `--vendor` left out with two vendors' libraries found: the one whose driver or runtime is present
/// (here a file named like HIP's runtime on LD_LIBRARY_PATH), else the first in order (CUDA).
#[test]
fn of_several_vendors_found_the_one_whose_driver_is_present_is_traced() {
    let dir = temp_dir("several");
    let run = |ld_library_path: Option<&Path>| {
        let mut cmd = bare();
        cmd.args(["trace", "-o", "none", "--", "true"])
            .env("CUPTI_LIBRARY_PATH", mock_path())
            .env("ROCPROFILER_LIBRARY_PATH", accelprof_mocks::rocprofiler::LIBRARY);
        if let Some(dir) = ld_library_path {
            cmd.env("LD_LIBRARY_PATH", dir);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        stderr_of(&out)
    };
    assert!(run(None).contains("` on cuda ("), "CUDA first when no driver is found");
    std::fs::write(dir.join("libamdhip64.so"), b"").unwrap();
    let stderr = run(Some(&dir));
    assert!(stderr.contains("` on rocm ("), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `accelprof info | head -1`, `accelprof --help | head`: a reader that went away ends the output
/// quietly with success (`print!` panicked with a backtrace, exit 101). The pipe's read end is closed
/// before the command starts, so its first write fails, whatever the timing.
#[test]
fn a_closed_standard_output_ends_the_output_quietly() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe() writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: pipe() returned two open descriptors that nothing else owns.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    for args in [&["info"][..], &["--help"][..], &["--version"][..]] {
        let out = accelprof()
            .args(args)
            .stdout(std::process::Stdio::from(write.try_clone().unwrap()))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

/// `accelprof trace ... 2>&1 | head -1`: a closed stderr panicked the command (exit 101) and, in the
/// traced program, the tracer (its trace lost); `recover` and `analyze` panicked too. Nothing said to a
/// closed stderr may change an exit status or lose a trace, and a program whose SIGPIPE is at its default
/// (a C program) is not killed by what the tracer says in it. The pipe's read end is closed before the
/// command starts, so every write to stderr fails, whatever the timing.
#[test]
fn a_closed_standard_error_changes_nothing_but_what_is_said() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe() writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: pipe() returned two open descriptors that nothing else owns.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    let closed = || std::process::Stdio::from(write.try_clone().unwrap());
    let dir = temp_dir("closed_stderr");
    let output = dir.join("t.json");
    let summary = dir.join("s.json");
    let options = ["-o", output.to_str().unwrap(), "--summary-json", summary.to_str().unwrap()];
    let out = under_launcher("sigpipe_default", &options).stderr(closed()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    assert_eq!(kernels_named(&read_trace(&output), "demo::kernel()").len(), 10, "the trace is whole");
    assert!(summary.is_file(), "the summary JSON is written");
    let out = under_launcher("sigpipe_default", &["-o", "none"]).stderr(closed()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    // Failures said to nobody: their statuses all the same.
    let missing = dir.join("missing.partial-1.json");
    let out = accelprof().arg("recover").arg(&missing).stderr(closed()).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
    let out = accelprof()
        .args(["trace", "--vendor", "cuda", "-o", "t.xyz", "--", "true"])
        .stderr(closed())
        .output();
    assert_eq!(out.unwrap().status.code(), Some(2));
    let out =
        accelprof().args(["trace", "--vendor", "cuda", "--", "/no/such/program"]).stderr(closed()).output();
    assert_eq!(out.unwrap().status.code(), Some(127));
    let out = accelprof().args(["bogus"]).stderr(closed()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = accelprof().arg("analyze").arg(dir.join("nonexistent")).stderr(closed()).output().unwrap();
    let analyze_failed = if cfg!(feature = "analyze") { 1 } else { 2 };
    assert_eq!(out.status.code(), Some(analyze_failed), "{:?}", out.status);
    let _ = std::fs::remove_dir_all(&dir);
}

/// With output `none` no trace is expected: the command ended saying, falsely, that no process started
/// the vendor's runtime with the tracer (after the program's summary had said what it traced).
#[test]
fn output_none_ends_with_a_true_message() {
    let out = under_launcher("sigpipe_default", &["-o", "none"]).output().unwrap();
    let stderr = stderr_of(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("no trace file (summary only)"), "the program's tracer ran: {stderr}");
    assert!(!stderr.contains("no process started"), "{stderr}");
    assert!(stderr.contains("exited with status 0; no trace file was asked for (output `none`)"), "{stderr}");
}

/// Trace names' extensions in any case: `T.JSON.GZ` was accepted, and written as plain JSON.
#[test]
fn an_upper_case_extension_picks_the_same_format() {
    let dir = temp_dir("upper_case");
    let output = dir.join("T.JSON.GZ");
    let out = under_launcher("sigpipe_default", &["-o", output.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let bytes = std::fs::read(&output).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b], "gzip");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A summary JSON the tracer cannot write (`/dev/full`: every write fails with ENOSPC) was only a line
/// among the program's output, and the command exited 0 as if everything asked for was written. The
/// program still runs to its end and its trace is whole; the command says the summary was not written,
/// and exits 1 since the program succeeded.
#[test]
fn a_summary_json_that_cannot_be_written_is_said_and_fails_the_run() {
    let dir = temp_dir("summary_full");
    let output = dir.join("t.json");
    let options = ["-o", output.to_str().unwrap(), "--summary-json", "/dev/full"];
    let out = under_launcher("sigpipe_default", &options).output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.signal(), None, "killed: {stderr}");
    assert_eq!(out.status.code(), Some(1), "the program exited 0, its summary was lost: {stderr}");
    assert!(
        stderr.contains("the summary JSON /dev/full was NOT written: No space left on device"),
        "{stderr}"
    );
    assert!(stderr.contains("1 summary JSON file(s) NOT written"), "{stderr}");
    // Said once (it was said by the program, then again by the launcher).
    assert_eq!(stderr.matches("the summary JSON /dev/full was NOT written").count(), 1, "{stderr}");
    assert!(stderr.contains("exited with status 0"), "the program ran to its end: {stderr}");
    assert_eq!(kernels_named(&read_trace(&output), "demo::kernel()").len(), 10, "the trace is whole");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The summary JSON is created private (0600), as the traces are: it was 0644 (readable by every user of
/// a shared directory the launcher, often root, writes in).
#[test]
fn the_summary_json_is_created_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("summary_private");
    let summary = dir.join("s.json");
    let options = ["-o", "none", "--summary-json", summary.to_str().unwrap()];
    let out = under_launcher("sigpipe_default", &options).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let mode = std::fs::metadata(&summary).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file already at the summary JSON's name is never written into: it was opened and truncated, so a file
/// another user had put at the name (`%p` predicted) received the summary, and a second name (hard link)
/// of a file was overwritten. This user's file is replaced by a new one; another user's is refused.
#[test]
fn a_file_at_the_summary_jsons_name_is_never_written_into() {
    let dir = temp_dir("summary_there");
    let summary = dir.join("s.json");
    let other = dir.join("other");
    std::fs::write(&other, b"not a summary").unwrap();
    std::fs::hard_link(&other, &summary).unwrap();
    let options = ["-o", "none", "--summary-json", summary.to_str().unwrap()];
    let out = under_launcher("sigpipe_default", &options).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(std::fs::read(&other).unwrap(), b"not a summary", "the other name's file was written");
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert!(written.is_object(), "{written}");
    // Another user's file at the name (only root can make one): refused, left as it was.
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        std::fs::remove_file(&summary).unwrap();
        std::fs::write(&summary, b"theirs").unwrap();
        std::os::unix::fs::chown(&summary, Some(65534), None).unwrap();
        let out = under_launcher("sigpipe_default", &options).output().unwrap();
        let stderr = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("is a file of user 65534"), "{stderr}");
        assert_eq!(std::fs::read(&summary).unwrap(), b"theirs");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A summary JSON sent to `/dev/null` (or a FIFO) is written: it was said NOT written ("Invalid
/// argument", the sync such a file refuses) and the run exited 1.
#[test]
fn a_summary_json_to_dev_null_is_written() {
    let dir = temp_dir("summary_null");
    let output = dir.join("t.json");
    let options = ["-o", output.to_str().unwrap(), "--summary-json", "/dev/null"];
    let out = under_launcher("sigpipe_default", &options).output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("NOT written"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An output name of 255 bytes, the longest a file name may have, failed only inside the traced program
/// (its `.partial-<pid>` name was longer than that: "File name too long", exit 1): the trace is written
/// under the name asked for now. A longer name is a usage error naming the limit, before anything runs.
#[test]
fn an_output_name_of_the_longest_length_is_written_under_that_name() {
    let dir = temp_dir("long_name");
    for ext in [".json", ".parquet"] {
        let output = dir.join("t".repeat(255 - ext.len()) + ext);
        let out = under_launcher("sigpipe_default", &["-o", output.to_str().unwrap()]).output().unwrap();
        let stderr = stderr_of(&out);
        assert!(out.status.success(), "{stderr}");
        assert!(output.is_file(), "{stderr}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left.len(), 1, "no .partial file left: {left:?}");
        if ext == ".json" {
            assert_eq!(kernels_named(&read_trace(&output), "demo::kernel()").len(), 10, "the trace is whole");
        }
        std::fs::remove_file(&output).unwrap();
    }
    let too_long = dir.join("t".repeat(251) + ".json");
    let out = under_launcher("sigpipe_default", &["-o", too_long.to_str().unwrap()]).output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("256 bytes, longer than the 255 a file name may have"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An output name whose expansion (`%p`) passes 255 bytes failed only inside the traced program, and the
/// end line counted two incomplete files for it: the launcher bounds the process id's width (the widest
/// this system gives) and refuses the name before anything runs.
#[test]
fn an_output_name_too_long_once_expanded_is_a_usage_error() {
    let dir = temp_dir("long_expanded");
    let output = dir.join("t".repeat(246) + "%p.json");
    let out = under_launcher("sigpipe_default", &["-o", output.to_str().unwrap()]).output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("with %p a process id of"), "{stderr}");
    assert!(stderr.contains("longer than the 255 a file name may have"), "{stderr}");
    assert!(!stderr.contains("tracing `"), "nothing ran: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What only the program can know (here the rank a wrapper gives it, which the launcher did not see) makes
/// a name too long there: reported once by the launcher, naming the file, and counted once (it was two
/// "trace file(s) NOT complete" for one output, and a `.partial` file was left).
#[test]
fn an_output_name_too_long_only_in_the_program_is_reported_and_counted_once() {
    let dir = temp_dir("long_in_program");
    let output = dir.join("t".repeat(240) + "_%r.json");
    let child = child_command(CHILD, "sigpipe_default");
    let mut cmd = accelprof();
    cmd.args(["trace", "--vendor", "cuda", "-o", output.to_str().unwrap(), "--", "env"]);
    cmd.args(["RANK=1000000000", "WORLD_SIZE=2000000000"]).arg(child.get_program()).args(child.get_args());
    for (k, v) in child.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd.env_remove("RANK").env_remove("WORLD_SIZE").env_remove("LOCAL_RANK");
    let out = cmd.output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "the program exited 0, no trace: {stderr}");
    let expanded = "t".repeat(240) + "_1000000000.json";
    // Said once (by the launcher; the program says only that tracing did not start), naming the file.
    let said: Vec<&str> = stderr.lines().filter(|l| l.contains("256 bytes, longer than the 255")).collect();
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(said[0].contains("tracing did not start") && said[0].contains(&expanded), "{stderr}");
    assert!(stderr.contains("tracing did not start in 1 process(es)"), "{stderr}");
    assert!(!stderr.contains("trace file(s)"), "no file counted twice: {stderr}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "no .partial file left: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An invalid `RANK` with `-o none`: the end said "1 trace file(s) NOT complete or not written", of a
/// run that asked for no file. It says that tracing did not start.
#[test]
fn a_tracer_that_did_not_start_is_not_counted_as_a_trace_file() {
    for output in ["none", "t.json"] {
        let dir = temp_dir("rank_invalid");
        let mut cmd = under_launcher("sigpipe_default", &["-o", output]);
        cmd.current_dir(&dir).env("RANK", "x").env("WORLD_SIZE", "2");
        let out = cmd.output().unwrap();
        let stderr = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("tracing did not start: RANK=x is not a rank number"), "{stderr}");
        assert!(stderr.contains("tracing did not start in 1 process(es)"), "{stderr}");
        assert!(!stderr.contains("trace file(s)"), "{output}: {stderr}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `--buffer-size` refused less than 4096 where the library takes 512 (`BufferPool::MIN_BUFFER_SIZE`):
/// the command line takes what the library takes, and traces with it. `ACCELPROF_BUFFER_SIZE` set in the
/// environment to less than that is what every invalid `ACCELPROF_*` value is: a warning naming it before
/// the program runs, the vendor crate's size kept, the program run as it is.
#[test]
fn the_smallest_buffer_size_is_the_librarys() {
    let dir = temp_dir("buffer_size");
    let output = dir.join("t.json");
    let out = under_launcher("sigpipe_default", &["--buffer-size", "512", "-o", output.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(kernels_named(&read_trace(&output), "demo::kernel()").len(), 10, "{stderr}");
    std::fs::remove_file(&output).unwrap();
    let mut cmd = under_launcher("sigpipe_default", &["-o", output.to_str().unwrap()]);
    let out = cmd.env("ACCELPROF_BUFFER_SIZE", "100").output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("warning: ignoring ACCELPROF_BUFFER_SIZE=\"100\": expected bytes >= 512"),
        "{stderr}"
    );
    assert_eq!(kernels_named(&read_trace(&output), "demo::kernel()").len(), 10, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--summary-json` naming a file that is there and writable, in a directory this user cannot write in
/// (`/dev/full` for a user other than root), was refused before anything ran ("cannot write in /dev"):
/// the summary is written in place, so the file itself is what must be writable. Run as `nobody` when
/// the tests run as root (root may write anywhere).
#[test]
fn a_summary_json_file_that_is_there_needs_no_writable_directory() {
    let mut cmd = accelprof();
    cmd.args(["trace", "--vendor", "cuda", "-o", "none", "--summary-json", "/dev/full", "--", "true"]);
    cmd.current_dir("/");
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::process::CommandExt::uid(&mut cmd, 65534);
        std::os::unix::process::CommandExt::gid(&mut cmd, 65534);
    }
    let out = cmd.output().unwrap();
    let stderr = stderr_of(&out);
    assert!(!stderr.contains("cannot write in /dev"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "`true` ran, no runtime, no summary: {stderr}");
    // A file that is there and not writable is refused, naming it.
    let dir = temp_dir("summary_readonly");
    let readonly = dir.join("s.json");
    std::fs::write(&readonly, "{}").unwrap();
    std::fs::set_permissions(&readonly, std::os::unix::fs::PermissionsExt::from_mode(0o444)).unwrap();
    let mut cmd = accelprof();
    cmd.args(["trace", "--vendor", "cuda", "-o", "none", "--summary-json"])
        .arg(&readonly)
        .args(["--", "true"]);
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::process::CommandExt::uid(&mut cmd, 65534);
        std::os::unix::process::CommandExt::gid(&mut cmd, 65534);
    }
    let out = cmd.output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("cannot write {}", readonly.display())), "{stderr}");
    // A link, which the tracer never writes through (it failed only at the end): refused before.
    let out = accelprof()
        .args(["trace", "--vendor", "cuda", "-o", "none", "--summary-json", "/dev/stdout", "--", "true"])
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("/dev/stdout is a symbolic link"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program that replaces itself with `exec` keeps its pid, and each image's tracer takes the output
/// name again: the second image wrote `t_<pid>.<pid>.json` (the name was claimed), and the third image
/// took that same name and replaced the second's trace. Each image now numbers the name once more until
/// it has one of its own, and every image's kernels are in a trace.
#[test]
fn a_program_that_execs_itself_keeps_each_images_trace() {
    let dir = temp_dir("reexec");
    let output = dir.join("t_%p.json");
    let out = under_launcher("reexec", &["-o", output.to_str().unwrap()]).output().unwrap();
    let said = stderr_of(&out);
    let mut found = std::collections::BTreeMap::new();
    for file in files_with(&dir, ".json") {
        let trace = read_trace(&file);
        for image in ["image2", "image1", "image0"] {
            let n = kernels_named(&trace, &format!("demo::{image}()")).len();
            *found.entry(image).or_insert(0) += n;
        }
    }
    for image in ["image2", "image1", "image0"] {
        assert_eq!(
            found.get(image),
            Some(&5),
            "{image}'s kernels in {:?}: {found:?}\n{said}",
            files_with(&dir, "")
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
