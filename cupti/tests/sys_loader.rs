//! The `libcupti` loader of `cupti-sys`: search order, the errors a user sees, lazily resolved
//! symbols, and the mock library opened through `dlopen` as a user's program opens the real one.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use accelprof_loader::{Attempt, LoadError, MissingSymbol};
use cupti_sys::{CUptiResult, CuptiFunctions, Library};

/// Tests that change the environment run one at a time.
static ENV: Mutex<()> = Mutex::new(());

fn env_lock() -> MutexGuard<'static, ()> {
    ENV.lock().unwrap_or_else(|e| e.into_inner())
}

/// Every variable the CUPTI search reads, saved and cleared; restored on drop.
struct CleanEnv(Vec<(&'static str, Option<std::ffi::OsString>)>);

impl CleanEnv {
    fn new() -> Self {
        let vars =
            ["CUPTI_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH"];
        let saved = vars.iter().map(|v| (*v, std::env::var_os(v))).collect();
        for v in vars {
            std::env::remove_var(v);
        }
        CleanEnv(saved)
    }
}

impl Drop for CleanEnv {
    fn drop(&mut self) {
        for (var, value) in &self.0 {
            match value {
                Some(v) => std::env::set_var(var, v),
                None => std::env::remove_var(var),
            }
        }
    }
}

/// A fresh directory under the system's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("cupti-sys-loader-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[cfg(target_arch = "aarch64")]
const TARGET_LIB: &str = "targets/sbsa-linux/lib";
#[cfg(not(target_arch = "aarch64"))]
const TARGET_LIB: &str = "targets/x86_64-linux/lib";

fn origin_and_path(a: &Attempt) -> (String, PathBuf) {
    (a.origin.clone(), a.path.clone())
}

/// Whether some file of `/usr/local/cuda` could satisfy the search (a machine with CUDA installed).
fn system_cuda_has_cupti() -> bool {
    ["extras/CUPTI/lib64", "lib64", TARGET_LIB].iter().any(|sub| {
        ["libcupti.so", "libcupti.so.13", "libcupti.so.12"]
            .iter()
            .any(|f| Path::new("/usr/local/cuda").join(sub).join(f).exists())
    })
}

/// Whether to run the calling test's body here. The loader reuses a `libcupti` the process has
/// already mapped, so a test of the search order must run where none is: the first call spawns
/// this test binary again for just `test`, checks that it passed, and returns `false`; inside
/// that fresh process it returns `true`.
fn in_fresh_process(test: &str) -> bool {
    const CHILD: &str = "CUPTI_SYS_LOADER_TEST_CHILD";
    if std::env::var(CHILD).as_deref() == Ok(test) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, test)
        .output()
        .expect("spawn the test binary");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{test} failed in a fresh process:\n{text}");
    assert!(text.contains("1 passed"), "{test} did not run in the fresh process:\n{text}");
    print!("{text}");
    false
}

/// What the loader records for the copies a process could already have mapped.
fn not_loaded_attempts() -> Vec<(String, PathBuf)> {
    ["libcupti.so", "libcupti.so.13", "libcupti.so.12"]
        .iter()
        .map(|s| ("already loaded in this process".to_owned(), PathBuf::from(s)))
        .collect()
}

#[test]
fn missing_library_lists_every_place_tried_in_order() {
    if !in_fresh_process("missing_library_lists_every_place_tried_in_order") {
        return;
    }
    let _lock = env_lock();
    let _env = CleanEnv::new();
    let tmp = TempDir::new("missing");
    let cuda_home = tmp.0.join("cuda-home");
    let cuda_path = tmp.0.join("cuda-path");
    // `$CUDA_HOME/extras/CUPTI/lib64` exists but is empty; `$CUDA_HOME/lib64` holds a file that is
    // not a library (dlopen must fail and say why); `$CUDA_PATH` does not exist at all.
    fs::create_dir_all(cuda_home.join("extras/CUPTI/lib64")).unwrap();
    fs::create_dir_all(cuda_home.join("lib64")).unwrap();
    fs::write(cuda_home.join("lib64/libcupti.so"), b"not a shared object").unwrap();
    let named = tmp.0.join("nowhere/libcupti.so.13");
    std::env::set_var("CUPTI_LIBRARY_PATH", &named);
    std::env::set_var("CUDA_HOME", &cuda_home);
    std::env::set_var("CUDA_PATH", &cuda_path);

    let mut expected = not_loaded_attempts();
    expected.extend([
        ("$CUPTI_LIBRARY_PATH".into(), named.clone()),
        ("$CUDA_HOME/extras/CUPTI/lib64".into(), cuda_home.join("extras/CUPTI/lib64")),
        ("$CUDA_HOME/lib64".into(), cuda_home.join("lib64/libcupti.so")),
        (format!("$CUDA_HOME/{TARGET_LIB}"), cuda_home.join(TARGET_LIB)),
        ("$CUDA_PATH/extras/CUPTI/lib64".into(), cuda_path.join("extras/CUPTI/lib64")),
        ("$CUDA_PATH/lib64".into(), cuda_path.join("lib64")),
        (format!("$CUDA_PATH/{TARGET_LIB}"), cuda_path.join(TARGET_LIB)),
    ]);

    // The documented order of the usual places starts with the CUDA roots, then /usr/local/cuda.
    let places: Vec<String> = cupti_sys::search_places().into_iter().map(|p| p.origin).collect();
    assert_eq!(
        places[..9],
        [
            "$CUDA_HOME/extras/CUPTI/lib64".to_owned(),
            "$CUDA_HOME/lib64".into(),
            format!("$CUDA_HOME/{TARGET_LIB}"),
            "$CUDA_PATH/extras/CUPTI/lib64".into(),
            "$CUDA_PATH/lib64".into(),
            format!("$CUDA_PATH/{TARGET_LIB}"),
            "/usr/local/cuda/extras/CUPTI/lib64".into(),
            "/usr/local/cuda/lib64".into(),
            format!("/usr/local/cuda/{TARGET_LIB}"),
        ]
    );
    assert!(places[9..].iter().all(|o| o.starts_with("Python wheel (")), "{places:?}");

    match Library::open(None) {
        Err(err) => {
            let LoadError::NotFound { library, tried, .. } = &err else { panic!("{err:?}") };
            assert_eq!(*library, "CUPTI (libcupti)");
            let got: Vec<_> = tried.iter().map(origin_and_path).collect();
            assert_eq!(got[..expected.len()], expected[..], "{err}");
            assert!(tried[..3].iter().all(|a| a.reason == "not loaded"), "{err}");
            let tried = &tried[3..];
            assert_eq!(tried[0].reason, "no such file");
            assert!(tried[1].reason.contains("none of libcupti.so"), "{}", tried[1].reason);
            // The bogus file was handed to dlopen, and its refusal is reported.
            assert_ne!(tried[2].reason, "no such file");
            assert!(!tried[2].reason.is_empty());
            // /usr/local/cuda, then every wheel directory, then the sonames through the system loader.
            let rest: Vec<_> = got[expected.len()..].iter().map(|(o, _)| o.as_str()).collect();
            assert_eq!(
                rest[..3],
                [
                    "/usr/local/cuda/extras/CUPTI/lib64",
                    "/usr/local/cuda/lib64",
                    &format!("/usr/local/cuda/{TARGET_LIB}")
                ]
            );
            let sonames: Vec<_> = got[got.len() - 3..].iter().map(|(o, p)| (o.as_str(), p.clone())).collect();
            assert_eq!(
                sonames,
                ["libcupti.so", "libcupti.so.13", "libcupti.so.12"]
                    .map(|s| ("system loader", PathBuf::from(s)))
            );
            assert!(rest[3..rest.len() - 3].iter().all(|o| o.starts_with("Python wheel (")), "{rest:?}");
            // The message a user sees names every place and what to do.
            let message = err.to_string();
            for (_, path) in &got {
                assert!(message.contains(&path.display().to_string()), "{message}");
            }
            assert!(message.contains("CUPTI_LIBRARY_PATH"), "{message}");
        }
        Ok(lib) => {
            // A real CUPTI is installed on this machine: it must have been found after every
            // place that this test made unusable.
            println!("found an installed CUPTI at {} ({})", lib.path().display(), lib.origin());
            assert!(
                !lib.origin().starts_with("$CUPTI_LIBRARY_PATH")
                    && !lib.origin().starts_with("$CUDA_HOME")
                    && !lib.origin().starts_with("$CUDA_PATH"),
                "{}",
                lib.origin()
            );
        }
    }
}

#[test]
fn explicit_path_is_the_only_place_tried() {
    let _lock = env_lock();
    let _env = CleanEnv::new();
    let tmp = TempDir::new("explicit");
    let missing = tmp.0.join("libcupti.so.13");
    // Even with a variable set, an explicit path is tried alone.
    std::env::set_var("CUPTI_LIBRARY_PATH", tmp.0.join("other.so"));
    let err = Library::open(Some(&missing)).unwrap_err();
    assert_eq!(
        err.tried(),
        [Attempt { origin: "explicit path".into(), path: missing.clone(), reason: "no such file".into() }]
    );
    assert!(err.to_string().contains(&missing.display().to_string()), "{err}");
}

#[test]
fn a_library_without_the_symbols_gives_per_call_errors() {
    // libm is a real shared library that exports none of CUPTI's functions: `Library::open` refuses
    // it (see below), so it is opened through a spec that asks for no identifying symbol.
    let spec = accelprof_loader::LibrarySpec { identity: &[], ..cupti_sys::SPEC };
    let loaded = accelprof_loader::open(&spec, Some(Path::new("libm.so.6"))).expect("libm.so.6 opens");
    assert_eq!(loaded.origin(), "explicit path");
    let fns = <CuptiFunctions as accelprof_loader::FunctionTable>::from_resolver(loaded.resolver());
    let fns = &fns;
    let mut version = 0;
    for _ in 0..2 {
        // SAFETY: `version` is a valid out-pointer (never reached: the symbol is missing).
        let err = unsafe { fns.cuptiGetVersion(&mut version) }.unwrap_err();
        assert_eq!(err, MissingSymbol::new("CUPTI (libcupti)", "cuptiGetVersion"));
        assert!(err.to_string().contains("cuptiGetVersion"), "{err}");
    }
    assert_eq!(version, 0);
    let mut subscriber = std::ptr::null_mut();
    // SAFETY: valid out-pointer; never reached.
    let err = unsafe { fns.cuptiSubscribe(&mut subscriber, None, std::ptr::null_mut()) }.unwrap_err();
    assert_eq!(err.symbol, "cuptiSubscribe");
    assert_eq!(fns.missing(), CuptiFunctions::SYMBOLS);
    assert!(CuptiFunctions::SYMBOLS.len() >= 100);
}

/// Whether the CUPTI mock was built (by `accelprof-mocks`'s build script).
fn mock_exists() -> bool {
    let library = Path::new(accelprof_mocks::cupti::LIBRARY);
    if !library.exists() {
        println!("skipped: {} was not built", library.display());
    }
    library.exists()
}

fn version_of(lib: &Library) -> u32 {
    let mut version = 0;
    // SAFETY: `version` is a valid out-pointer.
    let r =
        unsafe { lib.functions().cuptiGetVersion(&mut version) }.expect("the mock exports cuptiGetVersion");
    assert_eq!(r, CUptiResult::CUPTI_SUCCESS);
    version
}

#[test]
fn the_mock_opens_by_explicit_path() {
    if !mock_exists() {
        return;
    }
    let mock = Path::new(accelprof_mocks::cupti::LIBRARY);
    let lib = Library::open(Some(mock)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(lib.path(), mock);
    assert_eq!(lib.origin(), "explicit path");
    let version = version_of(&lib);
    assert!(
        version == cupti_sys::CUPTI_API_VERSION || version == cupti_sys::v12::CUPTI_API_VERSION,
        "the mock reports {version}"
    );
    // The functions every layer above relies on are exported with their real names.
    for name in [
        "cuptiGetResultString",
        "cuptiGetVersion",
        "cuptiSubscribe",
        "cuptiUnsubscribe",
        "cuptiEnableCallback",
        "cuptiEnableDomain",
        "cuptiActivityEnable",
        "cuptiActivityDisable",
        "cuptiActivityRegisterCallbacks",
        "cuptiActivityGetNextRecord",
        "cuptiActivityFlushAll",
        "cuptiActivityGetNumDroppedRecords",
    ] {
        assert!(lib.functions().has(name), "the mock lacks {name}");
    }
    println!("the mock lacks {:?}", lib.functions().missing());

    // Calls go through to the library: CUPTI's one-subscriber rule holds across the table.
    let fns = lib.functions();
    let mut first = std::ptr::null_mut();
    let mut second = std::ptr::null_mut();
    // SAFETY: valid out-pointers; no callback is registered.
    let r = unsafe { fns.cuptiSubscribe(&mut first, None, std::ptr::null_mut()) }.unwrap();
    assert_eq!(r, CUptiResult::CUPTI_SUCCESS);
    assert!(!first.is_null());
    // SAFETY: as above.
    let r = unsafe { fns.cuptiSubscribe(&mut second, None, std::ptr::null_mut()) }.unwrap();
    assert_eq!(r, CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    // SAFETY: `first` came from a successful cuptiSubscribe.
    let r = unsafe { fns.cuptiUnsubscribe(first) }.unwrap();
    assert_eq!(r, CUptiResult::CUPTI_SUCCESS);
}

#[test]
fn a_loaded_copy_is_reused_before_any_search() {
    if !mock_exists() || !in_fresh_process("a_loaded_copy_is_reused_before_any_search") {
        return;
    }
    let _lock = env_lock();
    let _env = CleanEnv::new();
    let first =
        Library::open(Some(Path::new(accelprof_mocks::cupti::LIBRARY))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.origin(), "explicit path");
    // Nothing in the environment points at a libcupti now, but the process has one mapped.
    std::env::set_var("CUPTI_LIBRARY_PATH", "/nonexistent/libcupti.so");
    let again = Library::open(None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.origin(), "already loaded in this process");
    assert_eq!(again.path(), Path::new("libcupti.so"));
    version_of(&again);
}

#[test]
fn the_mock_opens_from_the_variable_naming_it() {
    if !mock_exists() || !in_fresh_process("the_mock_opens_from_the_variable_naming_it") {
        return;
    }
    let _lock = env_lock();
    let _env = CleanEnv::new();
    let mock = Path::new(accelprof_mocks::cupti::LIBRARY);
    std::env::set_var("CUPTI_LIBRARY_PATH", mock);
    let lib = Library::open(None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((lib.origin(), lib.path()), ("$CUPTI_LIBRARY_PATH", mock));
    version_of(&lib);
}

#[test]
fn the_mock_opens_from_a_cuda_toolkit_layout() {
    if !mock_exists() || !in_fresh_process("the_mock_opens_from_a_cuda_toolkit_layout") {
        return;
    }
    let _lock = env_lock();
    let _env = CleanEnv::new();
    let mock = Path::new(accelprof_mocks::cupti::LIBRARY);
    // `$CUDA_HOME/extras/CUPTI/lib64`.
    let tmp = TempDir::new("usual");
    let cupti_dir = tmp.0.join("cuda/extras/CUPTI/lib64");
    fs::create_dir_all(&cupti_dir).unwrap();
    fs::copy(mock, cupti_dir.join("libcupti.so")).unwrap();
    std::env::set_var("CUDA_HOME", tmp.0.join("cuda"));
    let lib = Library::open(None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (lib.origin(), lib.path()),
        ("$CUDA_HOME/extras/CUPTI/lib64", cupti_dir.join("libcupti.so").as_path())
    );
    version_of(&lib);
}

#[test]
fn the_mock_opens_from_a_python_wheel() {
    if !mock_exists() || !in_fresh_process("the_mock_opens_from_a_python_wheel") {
        return;
    }
    let _lock = env_lock();
    let _env = CleanEnv::new();
    let mock = Path::new(accelprof_mocks::cupti::LIBRARY);
    // A virtual environment holding the CUPTI 13 wheel.
    let tmp = TempDir::new("wheel");
    let wheel_dir = tmp.0.join("venv/lib/python3.12/site-packages/nvidia/cu13/lib");
    fs::create_dir_all(&wheel_dir).unwrap();
    fs::copy(mock, wheel_dir.join("libcupti.so.13")).unwrap();
    std::env::set_var("VIRTUAL_ENV", tmp.0.join("venv"));
    let lib = Library::open(None).unwrap_or_else(|e| panic!("{e}"));
    if system_cuda_has_cupti() {
        println!("/usr/local/cuda has CUPTI and comes first: found {}", lib.path().display());
    } else {
        assert_eq!(lib.origin(), "Python wheel ($VIRTUAL_ENV): nvidia/cu13/lib");
        assert_eq!(lib.path(), wheel_dir.join("libcupti.so.13"));
        version_of(&lib);
    }
}

/// A copy of `library` cut to its first `len` bytes, as a copy interrupted or a full disk leaves it.
fn truncated_copy(library: &Path, len: usize, tmp: &TempDir) -> PathBuf {
    let bytes = fs::read(library).expect("read the library");
    let cut = tmp.0.join("libcupti.so");
    fs::write(&cut, &bytes[..len]).expect("write the truncated copy");
    cut
}

#[test]
fn a_file_that_is_not_cupti_is_refused_before_it_is_opened() {
    if !mock_exists() {
        return;
    }
    // An empty path: dlopen("") is the program itself.
    let e = cupti::Cupti::open_path("").unwrap_err();
    assert!(matches!(e, cupti::Error::Load(LoadError::EmptyPath { .. })), "{e}");
    let e = Library::open(Some(Path::new(""))).unwrap_err();
    assert!(matches!(e, LoadError::EmptyPath { library: "CUPTI (libcupti)" }), "{e}");
    // Cut short: the system loader would map it as its header claims and die of SIGBUS.
    let tmp = TempDir::new("truncated");
    let cut = truncated_copy(Path::new(accelprof_mocks::cupti::LIBRARY), 4096, &tmp);
    let e = Library::open(Some(&cut)).unwrap_err();
    let LoadError::NotALibrary { path, reason, .. } = &e else { panic!("{e}") };
    assert_eq!(path, &cut);
    assert!(reason.contains("cut short: 4096 bytes"), "{reason}");
    // Another vendor's library (the MSPTI mock aborts in a constructor without CANN), and a system
    // library: named by the symbols looked for, and never opened.
    for other in [accelprof_mocks::mspti::LIBRARY, accelprof_mocks::rocprofiler::LIBRARY] {
        let e = cupti::Cupti::open_path(other).unwrap_err();
        let cupti::Error::Load(LoadError::WrongLibrary { missing, .. }) = &e else { panic!("{other}: {e}") };
        assert_eq!(missing, &["cuptiGetVersion", "cuptiSubscribe", "cuptiActivityRegisterCallbacks"]);
        assert!(e.to_string().contains("does not export cuptiGetVersion"), "{e}");
    }
    let e = Library::open(Some(Path::new("libm.so.6"))).unwrap_err();
    assert!(matches!(&e, LoadError::WrongLibrary { missing, .. } if missing.len() == 3), "{e}");
    // The real one still opens afterwards.
    Library::open(Some(Path::new(accelprof_mocks::cupti::LIBRARY))).expect("the mock opens");
}
