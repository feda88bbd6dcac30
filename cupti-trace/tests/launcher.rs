//! The launcher, `cupti-trace [options] [--] program`, against the mock libcupti: its help, its
//! warnings, the lines saying where the traces went, signals forwarded, exit status passed on, and the
//! trace of a program that died closed for it.

mod support;

use std::os::unix::process::ExitStatusExt;
use std::process::Command;

use cupti_trace::settings::SETTINGS;
use support::*;

const CHILD: &str = "traced_child";

/// The traced program of every test here (run in a child process; ignored in a normal run).
#[test]
#[ignore = "the child process of the tests in this file"]
fn traced_child() {
    support::child::run();
}

/// `cupti-trace [options] -- <this test binary as the traced child of scenario>`.
fn under_launcher(scenario: &str, options: &[&str]) -> Command {
    let child = child_command(CHILD, scenario);
    let mut cmd = Command::new(launcher());
    cmd.args(options).arg("--").arg(child.get_program()).args(child.get_args());
    for (k, v) in child.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd.env("CUPTI_TRACE_FLUSH_PERIOD_MS", "200").env("CUPTI_TRACE_LIBRARY", tracer_library());
    cmd
}

#[test]
fn help_lists_every_setting_with_its_variable_and_default() {
    let out = Command::new(launcher()).arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    // Help text wraps: compare with whitespace collapsed.
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for s in SETTINGS {
        assert!(help.contains(s.option), "{} missing from --help", s.option);
        assert!(help.contains(s.var), "{} missing from --help", s.var);
        assert!(help.contains(&format!("[default: {}]", s.default)), "{}'s default missing", s.option);
    }
    assert!(help.contains("usage: cupti-trace [options] [--] program [args...]"), "{help}");
}

#[test]
fn a_misspelled_option_is_refused_with_the_closest_one() {
    let out = Command::new(launcher()).args(["--ouptut", "t.json", "--", "true"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown option --ouptut (did you mean --output?)"), "{stderr}");
    let out = Command::new(launcher()).args(["--kinds"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--kinds needs a value"));
}

#[test]
fn a_misspelled_variable_is_reported_and_the_program_traced_all_the_same() {
    let dir = temp_dir("misspelled");
    let output = dir.join("t_%p.json");
    let out = under_launcher("ranges", &["-o", output.to_str().unwrap()])
        .env("CUPTI_TRACE_BUFER_SIZE", "8M")
        .env("CUPTI_TRACE_MAX_BUFFERS", "1099511627776")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "unknown variable CUPTI_TRACE_BUFER_SIZE ignored: did you mean CUPTI_TRACE_BUFFER_SIZE?"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("CUPTI_TRACE_MAX_BUFFERS=\"1099511627776\" is above the limit: bounded to 65536"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("bounded to 65536").count(), 1, "said once, by the launcher: {stderr}");
    assert_eq!(files_with(&dir, "t_").len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn start_and_end_lines_say_where_the_trace_went_and_the_status_is_passed_on() {
    let dir = temp_dir("lines");
    let output = dir.join("trace_%p.json.gz");
    let out = under_launcher("exit", &["--output", output.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The program ends with _exit(3): no atexit, so its trace was not finished; the launcher closes it.
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("[cupti-trace] tracing `"), "the launcher's start line: {stderr}");
    assert!(stderr.contains("the trace streams to"), "the tracer's start line: {stderr}");
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
fn records_lost_to_another_cupti_client_are_named_in_one_line_and_the_status_is_not_zero() {
    let dir = temp_dir("another_client");
    let output = dir.join("trace.json");
    // Without the sharing shim: the mock's other client calls CUPTI inside the library, where the shim
    // cannot see it (a client behind the shim's back; docs/CUPTI-SHARING.md, "Limits").
    let out = under_launcher("another_client", &["--share", "off", "-o", output.to_str().unwrap()])
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("it got 1 of our buffers"), "{stdout}");
    assert_eq!(out.status.code(), Some(4), "the program succeeded, records were lost: {stderr}");
    let line: Vec<&str> = stderr.lines().filter(|l| l.contains("LOST to another client of CUPTI")).collect();
    assert_eq!(line.len(), 1, "one summary line: {stderr}");
    assert!(
        line[0].contains("1 buffers of ours taken") && line[0].contains("records missing from Unix time")
    );
    assert!(stderr.contains("records were lost to another CUPTI client in pid"), "{stderr}");
    let trace = read_trace(&output);
    assert_eq!(trace["traceSummary"]["other_client"]["buffers_taken"], 1, "{}", trace["traceSummary"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_to_the_launcher_reaches_the_program_whose_trace_is_finished() {
    let dir = temp_dir("forward");
    let output = dir.join("trace.json");
    let launched = Running::spawn(under_launcher("wait", &["-o", output.to_str().unwrap()]));
    launched.wait_for("ready");
    // As a scheduler ends a job: SIGTERM to the launcher only.
    launched.signal(libc::SIGTERM);
    let (status, stderr) = launched.finish();
    assert_eq!(status.signal(), Some(libc::SIGTERM), "the launcher dies as the program did: {stderr}");
    assert!(stderr.contains("SIGTERM: finishing the trace"), "{stderr}");
    assert!(stderr.contains("trace of pid") && stderr.contains(&output.display().to_string()), "{stderr}");
    assert!(stderr.contains("was killed by signal 15 (SIGTERM)"), "{stderr}");
    let trace = read_trace(&output);
    assert_eq!(kernels_named(&trace, "demo::kernel()").len(), 50);
    assert!(trace["traceSummary"]["kernel_records"].as_u64().unwrap() >= 50);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_tracer_library_is_explained() {
    let out = Command::new(launcher())
        .args(["--lib", "/no/such/libcupti_trace.so", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/libcupti_trace.so does not exist"));
}

/// Issue 18 (security): the launcher read and acted on `$TMPDIR/cupti-trace-<pid>.report`, a name any
/// local user could predict: a line appended there had it "recover" an attacker's file over a victim's
/// and delete the source. Playing the attacker, the line and a link there have no effect now.
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
    let launcher_pid = launched.child.id();
    let predictable = dir.join(format!("cupti-trace-{launcher_pid}.report"));
    // As the old launcher wrote it: created at start. The attacker appends a line of their own.
    let line = format!("start\t999999\t{}\t{}\n", evil.display(), victim.display());
    let mut f = std::fs::OpenOptions::new().append(true).create(true).open(&predictable).unwrap();
    std::io::Write::write_all(&mut f, line.as_bytes()).unwrap();
    drop(f);
    launched.wait_for("ready");
    launched.signal(libc::SIGTERM);
    let (status, stderr) = launched.finish();
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{stderr}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious", "{stderr}");
    assert!(evil.exists(), "the attacker's file is left where it is: {stderr}");
    assert_eq!(kernels_named(&read_trace(&output), "demo::kernel()").len(), 50, "{stderr}");
    // A link at the old name: followed by nothing.
    std::fs::remove_file(&predictable).unwrap();
    let launched = under_launcher("ranges", &["-o", output.to_str().unwrap()]).env("TMPDIR", &dir).spawn();
    let mut child = launched.unwrap();
    let _ = std::os::unix::fs::symlink(&linked, dir.join(format!("cupti-trace-{}.report", child.id())));
    assert!(child.wait().unwrap().success());
    assert_eq!(std::fs::read_to_string(&linked).unwrap(), "keep me");
    // The private channels are gone.
    assert!(files_with(&dir, "cupti-trace.").is_empty(), "{:?}", files_with(&dir, "cupti-trace."));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18: two CUDA processes with one output name: the last writer won and the first one's records
/// vanished. The second process now writes a numbered name, and says so.
#[test]
fn two_processes_with_one_output_name_write_two_files() {
    let dir = temp_dir("same");
    let output = dir.join("same.json");
    let child = child_command(CHILD, "ranges");
    let mut cmd = Command::new(launcher());
    cmd.args(["-o", output.to_str().unwrap(), "--", "sh", "-c", "\"$0\" \"$@\" && \"$0\" \"$@\""]);
    cmd.arg(child.get_program()).args(child.get_args());
    for (k, v) in child.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.env("CUPTI_TRACE_LIBRARY", tracer_library()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let traces = files_with(&dir, "same");
    assert_eq!(traces.len(), 2, "one file per process: {traces:?}\n{stderr}");
    for trace in &traces {
        assert_eq!(kernels_named(&read_trace(trace), "demo::outside()").len(), 15, "{}", trace.display());
        assert!(stderr.contains(&trace.display().to_string()), "{stderr}");
    }
    assert!(stderr.contains("another process of this run writes"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18: a bad `-o` was reported after the whole run, with exit status 0; a bad option value was a
/// warning. Both are usage errors now (exit 2), and nothing runs.
#[test]
fn bad_outputs_and_values_are_refused_before_anything_runs() {
    let dir = temp_dir("bad-outputs");
    let ran = dir.join("ran");
    let cases: [&[&str]; 6] = [
        &["-o", "/no/such/dir/t.json"],
        &["-o", "t.xyz"],
        &["-o", "a\tb.json"],
        &["-o", "/etc/passwd/t.json"],
        &["--buffer-size", "1T"],
        &["--delay", "10x"],
    ];
    for options in cases {
        let out = Command::new(launcher())
            .args(options)
            .args(["--", "touch", ran.to_str().unwrap()])
            .env("CUPTI_TRACE_LIBRARY", tracer_library())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{options:?}: {stderr}");
        assert!(!ran.exists(), "{options:?}: the program ran");
        assert!(!stderr.contains("no process started CUDA"), "{stderr}");
        if options[0] != "-o" {
            assert!(stderr.contains(options[0]), "names the option: {stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18: `ulimit -f` made the tracer's write raise SIGXFSZ, which killed the traced program (exit
/// 153), and the launcher said the process "died before finishing its trace". The program now runs to
/// its end, the loss is said as it is, and the launcher's exit status is not 0.
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
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.signal(), None, "killed: {stderr}");
    assert_eq!(out.status.code(), Some(1), "the program exited 0, its trace was lost: {stderr}");
    assert!(stderr.contains("its trace could not be written"), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    assert!(stderr.contains("exited with status 0"), "{stderr}");
    assert!(!stderr.contains("died before finishing"), "{stderr}");
    // What was written before the limit is closed where it is (no room for a second copy is needed).
    assert!(
        stderr.contains(&format!("could not finish its trace: {} holds its", output.display())),
        "{stderr}"
    );
    let trace = read_trace(&output);
    let kept = trace["traceRecovered"]["events"].as_u64().unwrap();
    assert!(kept > 0 && kept == events(&trace).len() as u64, "{kept}");
    assert!(std::fs::metadata(&output).unwrap().len() <= 64 << 10, "within the limit");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18: a program found but not runnable (no execute permission, a directory) made the launcher
/// exit 127, which shells keep for "not found"; it is 126 now, as shells say it.
#[test]
fn a_program_that_cannot_be_run_is_126_and_one_not_found_127() {
    let dir = temp_dir("126");
    let text = dir.join("not-executable");
    std::fs::write(&text, "#!/bin/sh\nexit 0\n").unwrap();
    let status = |program: &std::path::Path| {
        Command::new(launcher())
            .args(["-o", "none", "--"])
            .arg(program)
            .env("CUPTI_TRACE_LIBRARY", tracer_library())
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(status(&text), Some(126));
    assert_eq!(status(&dir), Some(126));
    assert_eq!(status(&dir.join("missing")), Some(127));
    let _ = std::fs::remove_dir_all(&dir);
}
