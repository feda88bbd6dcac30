//! Shared by the tracer's tests: child processes (a test that needs a process of its own, with
//! `libmspti.so` preloaded or with its own environment, runs its body in a child started from this
//! test binary), temporary directories, and the check of a trace file against Kineto's conventions.
#![allow(dead_code)]

pub mod trace;
pub mod window;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use accelprof_mocks::mspti::{ASCEND_HOME as MOCK_ASCEND_HOME, LIBRARY as MOCK_MSPTI};

/// Set in the environment of a child started by [`in_child`].
pub const CHILD: &str = "ACCEL_TRACER_TEST_CHILD";

/// What a child's environment gets on top of this process's.
#[derive(Clone, Debug, Default)]
pub struct ChildEnv {
    /// Variables set.
    pub set: Vec<(String, String)>,
    /// Variables removed.
    pub removed: Vec<String>,
}

impl ChildEnv {
    /// Nothing changed.
    pub fn new() -> ChildEnv {
        ChildEnv::default()
    }

    /// Sets `name`.
    pub fn set(mut self, name: &str, value: impl Into<String>) -> ChildEnv {
        self.set.push((name.to_owned(), value.into()));
        self
    }

    /// Removes `name`.
    pub fn remove(mut self, name: &str) -> ChildEnv {
        self.removed.push(name.to_owned());
        self
    }

    /// The mock `libmspti.so` preloaded, its CANN stand-ins at `ASCEND_HOME_PATH`: a program started
    /// the way MSPTI needs.
    pub fn mspti_preloaded() -> ChildEnv {
        ChildEnv::mspti_found().set("LD_PRELOAD", MOCK_MSPTI)
    }

    /// The mock `libmspti.so` found by its search (`MSPTI_LIBRARY_PATH`), nothing preloaded.
    pub fn mspti_found() -> ChildEnv {
        let lib64 = format!("{MOCK_ASCEND_HOME}/lib64");
        let ld_path = match std::env::var("LD_LIBRARY_PATH") {
            Ok(old) if !old.is_empty() => format!("{lib64}:{old}"),
            _ => lib64,
        };
        ChildEnv::new()
            .set("MSPTI_LIBRARY_PATH", MOCK_MSPTI)
            .set("ASCEND_HOME_PATH", MOCK_ASCEND_HOME)
            .set("LD_LIBRARY_PATH", ld_path)
            // `mspti::preload::REEXEC_MARKER`: a restart of this child must not look like a failed one.
            .remove("MSPTI_RS_REEXECED")
    }
}

/// True inside a child started by [`in_child`].
pub fn is_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

/// Runs the test `name` (the calling test) in a child process with `env`, and asserts that it
/// passed. Returns `true` inside that child (run the test's body), `false` in the parent (done):
///
/// ```ignore
/// #[test]
/// fn some_test() {
///     if !in_child("some_test", ChildEnv::new()) {
///         return;
///     }
///     // ... the body, in a process of its own
/// }
/// ```
pub fn in_child(name: &str, env: ChildEnv) -> bool {
    if is_child() {
        // The body runs as a program started from a terminal would: the end signals at their default
        // disposition. A test run started in the background of a shell without job control inherits
        // SIGINT ignored, and the tracer rightly leaves an ignored signal alone, which made the tests
        // that count the handled signals fail there.
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: setting a signal's disposition to its default, before this process starts any
            // tracer (the body below does that).
            unsafe { libc::signal(signal, libc::SIG_DFL) };
        }
        return true;
    }
    let out = child_output(name, &env);
    let text = output_text(&out);
    assert!(out.status.success() && text.contains("1 passed"), "child {name} failed:\n{text}");
    false
}

/// The child's output (for a test that checks what the child printed).
pub fn child_output(name: &str, env: &ChildEnv) -> Output {
    let exe = std::env::current_exe().expect("test binary path");
    let mut cmd = Command::new(exe);
    cmd.args([name, "--exact", "--nocapture", "--test-threads=1"]).env(CHILD, "1");
    for var in [
        "LD_PRELOAD",
        "RANK",
        "WORLD_SIZE",
        "LOCAL_RANK",
        "CUPTI_LIBRARY_PATH",
        "MSPTI_LIBRARY_PATH",
        "ROCPROFILER_LIBRARY_PATH",
    ] {
        cmd.env_remove(var);
    }
    for var in &env.removed {
        cmd.env_remove(var);
    }
    for (k, v) in &env.set {
        cmd.env(k, v);
    }
    cmd.output().expect("run the child test")
}

/// stdout and stderr together.
pub fn output_text(out: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A fresh directory for one test's files, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `name`'s file in it.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh directory for one test's files (removed first if a previous run left it).
pub fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("accel-tracer-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    TempDir(dir)
}

/// Copies the rows of `batch` of the families in `families` into `into` (a subscriber's copy).
pub fn keep(into: &std::sync::Mutex<accel_profiling::Batch>, batch: &accel_profiling::Batch) {
    into.lock().unwrap().extend_from(batch);
}
