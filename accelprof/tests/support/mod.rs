//! Shared by the command's tests (once cupti-trace's, whose tracer is retired):
//! the mock libcupti, a traced child process that plays a CUDA program (this test binary run again),
//! reading traces.
//!
//! The child does what the CUDA driver does inside `cuInit` when `CUDA_INJECTION64_PATH` is set: it opens
//! that library and calls its `InitializeInjection`. Then it plays the program's CUDA calls on the mock
//! (which the injected tracer found through `CUPTI_LIBRARY_PATH`), printing `ready` once the work of its
//! scenario is done, and then what the scenario says (wait to be signalled, crash, exit).

#![allow(dead_code)]

pub mod child;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use accelprof_mocks::cupti::MockCupti;
use serde_json::Value;

/// The variable that makes this test binary a traced child: the scenario's name.
pub const SCENARIO: &str = "TRACER_TEST_SCENARIO";

pub fn mock_path() -> &'static Path {
    Path::new(accelprof_mocks::cupti::LIBRARY)
}

/// The injection library built for this test run, next to the test executable (`target/<profile>/deps`;
/// the copy `cargo build` puts next to the command is not refreshed by `cargo test`).
pub fn tracer_library() -> PathBuf {
    std::env::current_exe().unwrap().with_file_name("libaccelprof_inject.so")
}

/// The CUPTI sharing shim built for this test run.
pub fn shim_library() -> PathBuf {
    std::env::current_exe().unwrap().with_file_name("libcupti_shim.so")
}

pub fn launcher() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_accelprof"))
}

/// `accelprof` with the libraries of this test run, and no vendor library found but the mock's.
pub fn accelprof() -> Command {
    let mut cmd = Command::new(launcher());
    cmd.env("ACCELPROF_INJECT_LIBRARY", tracer_library()).env("ACCELPROF_SHIM_LIBRARY", shim_library());
    cmd
}

pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accelprof-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The child's command line: this test binary running only `child_test` (an ignored test).
pub fn child_command(child_test: &str, scenario: &str) -> Command {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", child_test, "--ignored", "--nocapture", "--test-threads=1"])
        .env(SCENARIO, scenario)
        .env("CUPTI_LIBRARY_PATH", mock_path())
        .env_remove("CUDA_INJECTION64_PATH");
    // The signals a program started from a terminal has at their default: a test run started in the
    // background by a non-interactive shell ignores SIGINT, the child would inherit that, and the
    // tracer (rightly) leaves an ignored signal ignored.
    // SAFETY: between fork and exec only signal(2), which is async-signal-safe, is called.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    cmd
}

/// A running child whose stdout is read line by line.
pub struct Running {
    pub child: Child,
    lines: std::sync::mpsc::Receiver<String>,
    pub stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Running {
    pub fn spawn(mut cmd: Command) -> Running {
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the child starts");
        let (tx, lines) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = std::sync::Arc::clone(&stderr);
        let mut err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Running { child, lines, stderr }
    }

    /// Waits for a stdout line containing `what` (panics with the child's stderr after 60 s).
    pub fn wait_for(&self, what: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(line) = self.lines.recv_timeout(Duration::from_millis(100)) {
                if line.contains(what) {
                    return line;
                }
            }
        }
        panic!("the child never printed {what:?}; stderr:\n{}", self.stderr.lock().unwrap());
    }

    /// Sends `signal` to the child.
    pub fn signal(&self, signal: i32) {
        // SAFETY: kill(2) on our own child.
        assert_eq!(unsafe { libc::kill(self.child.id() as i32, signal) }, 0);
    }

    /// Waits for the child to end (60 s at most); its status and stderr.
    pub fn finish(mut self) -> (std::process::ExitStatus, String) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the child did not end; stderr:\n{}", self.stderr.lock().unwrap());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // Let the readers drain.
        std::thread::sleep(Duration::from_millis(100));
        let stderr = self.stderr.lock().unwrap().clone();
        (status, stderr)
    }
}

/// Reads a trace (plain or gzip) as JSON; panics with the reason when it is not whole.
pub fn read_trace(path: &Path) -> Value {
    try_read_trace(path).unwrap_or_else(|e| panic!("{e}"))
}

/// Reads a trace (plain or gzip) as JSON; the reason when it is not whole.
pub fn try_read_trace(path: &Path) -> Result<Value, String> {
    let raw = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut text = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut text)
            .map_err(|e| format!("{} is not whole gzip: {e}", path.display()))?;
        text
    } else {
        raw
    };
    serde_json::from_slice(&text).map_err(|e| format!("{} is not a whole trace: {e}", path.display()))
}

pub fn events(trace: &Value) -> &Vec<Value> {
    trace["traceEvents"].as_array().unwrap()
}

pub fn kernels_named<'a>(trace: &'a Value, name: &str) -> Vec<&'a Value> {
    events(trace).iter().filter(|e| e["cat"] == "kernel" && e["name"] == name).collect()
}

/// Waits (10 s at most) until `check` accepts the whole trace at `path`; the trace. The file is whole
/// between two of the writer's chunks, not while one is being written (a `pwrite` over the old tail):
/// a read that overlapped one is read again, and only a file still not whole at the deadline fails.
pub fn wait_for_trace(path: &Path, check: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match try_read_trace(path) {
            Ok(trace) if check(&trace) || Instant::now() > deadline => return trace,
            Err(e) if Instant::now() > deadline => panic!("{e}"),
            _ => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// The files of `dir` whose name contains `part`.
pub fn files_with(dir: &Path, part: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().contains(part)))
        .collect();
    found.sort();
    found
}

/// In the child: what the driver does at `cuInit` (open the injection library, call
/// `InitializeInjection`), on a freshly reset mock. Returns the mock.
pub fn child_init() -> MockCupti {
    let m = MockCupti::open(mock_path()).expect("the mock libcupti's controls");
    m.reset();
    let lib = std::env::var_os("CUDA_INJECTION64_PATH")
        .expect("the launcher (or the test) sets CUDA_INJECTION64_PATH");
    // SAFETY: the tracer library's initialisers are Rust statics only.
    let lib = unsafe { libloading::Library::new(lib) }.expect("the tracer library loads");
    // SAFETY: `int InitializeInjection(void)`, as the CUDA driver calls it.
    let init = unsafe { lib.get::<unsafe extern "C" fn() -> i32>(b"InitializeInjection\0") }.unwrap();
    // SAFETY: as above.
    assert_eq!(unsafe { init() }, 1);
    std::mem::forget(lib); // the driver never unloads it either
    m
}

/// `name<<<(4,2,1), (128,1,1)>>>` on `stream`, lasting 10 us.
pub fn launch(m: &MockCupti, name: &std::ffi::CStr, stream: u64) -> u32 {
    m.launch_kernel(name, 4, 2, 1, 128, 1, 1, 0, stream, 10_000)
}

/// Whether python with HTA is available (`HTA_PYTHON`, default `python3`); panics when `HTA_REQUIRED`
/// is set and it is not.
pub fn hta_python() -> Option<String> {
    let python = std::env::var("HTA_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = Command::new(&python)
        .args(["-c", "import hta.trace_analysis"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok && std::env::var_os("HTA_REQUIRED").is_some() {
        panic!("HTA_REQUIRED is set but {python} cannot import hta");
    }
    ok.then_some(python)
}

/// Runs the HTA check on the trace alone in `dir` (see `accelprof_mocks::hta`).
pub fn check_with_hta(python: &str, dir: &Path, kernels: usize) {
    let script = accelprof_mocks::hta::CHECK_TRACES_SCRIPT;
    let out = Command::new(python).arg(script).arg(dir).arg(kernels.to_string()).arg("-1").output().unwrap();
    assert!(
        out.status.success(),
        "HTA on {}:\n{}{}",
        dir.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
