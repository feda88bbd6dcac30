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
    let out = under_launcher("another_client", &["-o", output.to_str().unwrap()]).output().unwrap();
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
