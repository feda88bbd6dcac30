//! The `mspti-sys` loader: search order, the list of places tried, the CANN preflight that
//! refuses a `libmspti.so` which would abort the process, and per-call missing-symbol errors.
//!
//! Each scenario needs its own environment and a process where nothing is loaded yet, so each
//! runs in a child process (an `#[ignore]`d `child_*` test run by its parent).

mod support;

use std::path::{Path, PathBuf};

use accelprof_mocks::mspti::{
    ASCEND_HOME as MOCK_ASCEND_HOME, ASCEND_MIN_LOG as MOCK_ASCEND_MIN_LOG, LIBRARY as MOCK_MSPTI,
};
use mspti_sys::{msptiActivityKind, msptiResult, Library, LoadError};
use support::{assert_child_passed, cann_home_without, in_child, run_child};

/// Every variable the search reads, cleared.
const CLEAN: &[(&str, Option<&str>)] = &[
    ("ASCEND_HOME_PATH", None),
    ("ASCEND_TOOLKIT_HOME", None),
    ("MSPTI_LIBRARY_PATH", None),
    ("LD_LIBRARY_PATH", None),
    ("LD_PRELOAD", None),
];

fn env<'a>(extra: &[(&'a str, Option<&'a str>)]) -> Vec<(&'a str, Option<&'a str>)> {
    let mut v: Vec<_> = CLEAN.iter().copied().filter(|(k, _)| !extra.iter().any(|(e, _)| e == k)).collect();
    v.extend_from_slice(extra);
    v
}

#[test]
fn refused_when_the_cann_libraries_are_absent() {
    assert_child_passed(&run_child(
        "child_refused_without_cann",
        &env(&[("MSPTI_LIBRARY_PATH", Some(MOCK_MSPTI))]),
    ));
}

#[test]
#[ignore = "run by refused_when_the_cann_libraries_are_absent"]
fn child_refused_without_cann() {
    if !in_child() {
        return;
    }
    // The mock aborts the process when loaded without CANN, like the real library: being alive
    // after this call proves it was not opened.
    let err = Library::open(None).expect_err("no CANN: must refuse");
    let LoadError::Refused { path, reason, tried, .. } = &err else { panic!("expected Refused, got {err}") };
    assert_eq!(path, Path::new(MOCK_MSPTI));
    assert!(reason.contains("libascendalog.so") && reason.contains("ASCEND_HOME_PATH"), "{reason}");
    assert!(reason.contains("aborts the process"), "{reason}");
    assert!(tried.iter().any(|a| a.origin == "already loaded in this process"), "{tried:?}");
    let text = err.to_string();
    assert!(text.contains("CANN"), "{text}");
}

#[test]
fn opens_when_ascend_home_path_points_at_cann() {
    assert_child_passed(&run_child(
        "child_opens_with_cann",
        &env(&[("ASCEND_HOME_PATH", Some(MOCK_ASCEND_HOME))]),
    ));
}

#[test]
#[ignore = "run by opens_when_ascend_home_path_points_at_cann"]
fn child_opens_with_cann() {
    if !in_child() {
        return;
    }
    let lib = Library::open(Some(Path::new(MOCK_MSPTI))).expect("opens with CANN present");
    assert_eq!(lib.loaded().origin(), "explicit path");
    assert!(lib.missing().is_empty(), "all 15 functions: {:?}", lib.missing());
    // Calls go through to the library.
    // SAFETY: a NULL out-pointer is what is being tested; MSPTI checks it.
    let r = unsafe { lib.msptiSubscribe(std::ptr::null_mut(), None, std::ptr::null_mut()) };
    assert_eq!(r, Ok(msptiResult::MSPTI_ERROR_INVALID_PARAMETER));
    // SAFETY: plain values.
    assert_eq!(unsafe { lib.msptiActivityFlushPeriod(0) }, Ok(msptiResult::MSPTI_SUCCESS));
    // SAFETY: plain value.
    let on = unsafe { lib.msptiActivityIsEnabled(msptiActivityKind::MSPTI_ACTIVITY_KIND_KERNEL) };
    assert_eq!(on, Ok(false));
}

#[test]
fn search_order_and_every_place_tried() {
    assert_child_passed(&run_child(
        "child_search_order",
        &env(&[
            ("ASCEND_HOME_PATH", Some("/nonexistent/home")),
            ("ASCEND_TOOLKIT_HOME", Some("/nonexistent/toolkit")),
        ]),
    ));
}

#[test]
#[ignore = "run by search_order_and_every_place_tried"]
fn child_search_order() {
    if !in_child() {
        return;
    }
    let err = Library::open(None).expect_err("nothing there");
    let origins: Vec<&str> = err.tried().iter().map(|a| a.origin.as_str()).collect();
    let expected = [
        "already loaded in this process",
        "$MSPTI_LIBRARY_PATH",
        "$ASCEND_HOME_PATH/lib64",
        "$ASCEND_HOME_PATH/tools/mspti/lib64",
        "$ASCEND_TOOLKIT_HOME/lib64",
        "$ASCEND_TOOLKIT_HOME/tools/mspti/lib64",
        "/usr/local/Ascend/ascend-toolkit/latest/lib64",
        "/usr/local/Ascend/ascend-toolkit/latest/tools/mspti/lib64",
        "system loader",
    ];
    assert_eq!(origins, expected, "{err}");
    assert_eq!(err.tried()[1].reason, "not set");
    assert_eq!(err.tried()[2].path, Path::new("/nonexistent/home/lib64"));
    // The last step, the plain soname, is not found by the loader: "not found", without the CANN
    // dependency check (which runs only once a file is found; it used to open the message with a
    // thousand characters about CANN's libraries).
    assert!(matches!(err, LoadError::NotFound { .. }), "expected NotFound, got {err}");
    let text = err.to_string();
    assert!(!text.contains("libprofapi.so") && !text.contains("aborts the process"), "{text}");
    for o in expected {
        assert!(text.contains(o), "the message lists {o}: {text}");
    }
}

/// A toolkit laid out like CANN's: `lib64/` with the CANN libraries and
/// `tools/mspti/lib64/libmspti.so`.
fn fake_toolkit(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("mspti-toolkit-{name}-{}", std::process::id()));
    let lib64 = root.join("lib64");
    let tools = root.join("tools/mspti/lib64");
    std::fs::create_dir_all(&lib64).expect("mkdir");
    std::fs::create_dir_all(&tools).expect("mkdir");
    for entry in std::fs::read_dir(Path::new(MOCK_ASCEND_HOME).join("lib64")).expect("the stand-ins") {
        let entry = entry.expect("an entry");
        std::fs::copy(entry.path(), lib64.join(entry.file_name())).expect("copy");
    }
    std::fs::copy(MOCK_MSPTI, tools.join("libmspti.so")).expect("copy");
    root
}

#[test]
fn finds_libmspti_under_ascend_home_path_tools() {
    let root = fake_toolkit("home");
    let out = run_child(
        "child_finds_under_tools",
        &env(&[("ASCEND_HOME_PATH", Some(root.to_str().expect("utf-8")))]),
    );
    let _ = std::fs::remove_dir_all(&root);
    assert_child_passed(&out);
}

#[test]
#[ignore = "run by finds_libmspti_under_ascend_home_path_tools"]
fn child_finds_under_tools() {
    if !in_child() {
        return;
    }
    let lib = Library::open(None).expect("found in the toolkit");
    assert_eq!(lib.loaded().origin(), "$ASCEND_HOME_PATH/tools/mspti/lib64");
    assert!(lib.loaded().path().ends_with("tools/mspti/lib64/libmspti.so"));
}

#[test]
fn env_var_comes_before_the_toolkit() {
    let root = fake_toolkit("env");
    let out = run_child(
        "child_env_var_first",
        &env(&[
            ("ASCEND_HOME_PATH", Some(root.to_str().expect("utf-8"))),
            ("MSPTI_LIBRARY_PATH", Some(MOCK_MSPTI)),
        ]),
    );
    let _ = std::fs::remove_dir_all(&root);
    assert_child_passed(&out);
}

#[test]
#[ignore = "run by env_var_comes_before_the_toolkit"]
fn child_env_var_first() {
    if !in_child() {
        return;
    }
    let lib = Library::open(None).expect("found through the variable");
    assert_eq!(lib.loaded().origin(), "$MSPTI_LIBRARY_PATH");
    assert_eq!(lib.loaded().path(), Path::new(MOCK_MSPTI));
}

#[test]
fn the_hint_names_the_toolkit_beside_the_file() {
    let root = fake_toolkit("hint");
    let lib = root.join("tools/mspti/lib64/libmspti.so");
    let out = run_child("child_hint", &env(&[("MSPTI_LIBRARY_PATH", Some(lib.to_str().expect("utf-8")))]));
    let _ = std::fs::remove_dir_all(&root);
    assert_child_passed(&out);
}

#[test]
#[ignore = "run by the_hint_names_the_toolkit_beside_the_file"]
fn child_hint() {
    if !in_child() {
        return;
    }
    let err = Library::open(None).expect_err("ASCEND_HOME_PATH unset");
    let LoadError::Refused { reason, .. } = &err else { panic!("expected Refused, got {err}") };
    assert!(reason.contains("set ASCEND_HOME_PATH=") && reason.contains("mspti-toolkit-hint"), "{reason}");
}

#[test]
fn a_missing_symbol_is_a_per_call_error() {
    assert_child_passed(&run_child(
        "child_missing_symbol",
        &env(&[("ASCEND_HOME_PATH", Some(MOCK_ASCEND_HOME))]),
    ));
}

#[test]
#[ignore = "run by a_missing_symbol_is_a_per_call_error"]
fn child_missing_symbol() {
    if !in_child() {
        return;
    }
    // A library that opens but has none of MSPTI's functions (CANN's libprofapi stand-in).
    // `Library::open` refuses it, naming what it looked for; through a spec that asks for no
    // identifying symbol it opens, and each function is a per-call error.
    let path = Path::new(MOCK_ASCEND_HOME).join("lib64/libprofapi.so");
    let err = Library::open(Some(&path)).unwrap_err();
    assert!(matches!(&err, LoadError::WrongLibrary { missing, .. } if missing.len() == 2), "{err}");
    let spec = accelprof_loader::LibrarySpec { identity: &[], preflight: None, ..mspti_sys::SPEC.clone() };
    let loaded = accelprof_loader::open(&spec, Some(&path)).expect("opens");
    let lib =
        <mspti_sys::MsptiFunctions as accelprof_loader::FunctionTable>::from_resolver(loaded.resolver());
    // SAFETY: plain value; the call does not reach C (the symbol is missing).
    let err =
        unsafe { lib.msptiActivityIsEnabled(msptiActivityKind::MSPTI_ACTIVITY_KIND_KERNEL) }.unwrap_err();
    assert_eq!(err.symbol, "msptiActivityIsEnabled");
    assert!(err.to_string().contains("msptiActivityIsEnabled"));
    assert_eq!(lib.missing().len(), 15);
}

fn home_env(home: &Path) -> Vec<(&'static str, Option<String>)> {
    vec![("ASCEND_HOME_PATH", Some(home.to_str().expect("utf-8").to_string()))]
}

fn run_with(name: &str, home: &Path, extra: &[(&str, Option<&str>)]) {
    let h = home_env(home);
    let mut v: Vec<(&str, Option<&str>)> = h.iter().map(|(k, v)| (*k, v.as_deref())).collect();
    v.extend_from_slice(extra);
    let out = run_child(name, &env(&v));
    let _ = std::fs::remove_dir_all(home);
    assert_child_passed(&out);
}

/// Defect: a toolkit without the NPU driver opened fine, and the first `msptiSubscribe` threw a
/// C++ exception that aborted the process. The preflight checks `libascend_hal.so` too, and says
/// what to install.
#[test]
fn refused_when_the_npu_driver_is_absent() {
    run_with(
        "child_refused_without_driver",
        &cann_home_without("loader-nohal", &["libascend_hal.so"], None),
        &[],
    );
}

#[test]
#[ignore = "run by refused_when_the_npu_driver_is_absent"]
fn child_refused_without_driver() {
    if !in_child() {
        return;
    }
    let err = Library::open(Some(Path::new(MOCK_MSPTI))).expect_err("no driver: must refuse");
    let LoadError::Refused { reason, .. } = &err else { panic!("expected Refused, got {err}") };
    assert!(reason.contains("libascend_hal.so") && reason.contains("msptiSubscribe"), "{reason}");
    assert!(reason.contains("the Ascend NPU driver"), "says what to install: {reason}");
    assert!(!reason.contains("libascendalog.so"), "the toolkit's libraries are there: {reason}");
}

/// Defect: a preloaded `libmspti.so` whose `libascend_hal.so` is missing: `open()` reused the
/// loaded copy without the preflight, and the first `subscribe()` aborted the process (MSPTI
/// throws a C++ exception when it cannot open the driver). The preflight runs for an
/// already-loaded copy too (the driver it opens at subscribe). Against the library under test
/// (`MSPTI_TEST_LIBRARY`, the real one too).
#[test]
fn a_preloaded_copy_without_the_npu_driver_is_refused_at_open() {
    let home = cann_home_without("loader-preload-nohal", &["libascend_hal.so"], None);
    let lib64 = home.join("lib64");
    let library = support::library();
    let out = run_child(
        "child_preloaded_without_driver",
        &env(&[
            ("ASCEND_HOME_PATH", home.to_str()),
            ("LD_LIBRARY_PATH", lib64.to_str()),
            ("LD_PRELOAD", Some(&library)),
        ]),
    );
    let _ = std::fs::remove_dir_all(&home);
    assert_child_passed(&out);
}

#[test]
#[ignore = "run by a_preloaded_copy_without_the_npu_driver_is_refused_at_open"]
fn child_preloaded_without_driver() {
    if !in_child() {
        return;
    }
    assert!(mspti::preload::is_preloaded(), "the library under test is preloaded");
    match mspti::Mspti::open() {
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains("libascend_hal.so") && text.contains("msptiSubscribe"), "{text}");
            assert!(text.contains("preloaded"), "{text}");
        }
        Ok(m) => {
            // Before the fix: opened, and this aborts the process.
            let s = m.subscribe(|_| {});
            panic!("opened a preloaded copy without the driver; subscribe gave {s:?}");
        }
    }
}

/// The securec library `libmspti.so` is linked against: refused with advice when it is nowhere.
#[test]
fn refused_when_libc_sec_is_nowhere() {
    run_with(
        "child_refused_without_securec",
        &cann_home_without("loader-nosec", &["libc_sec.so"], None),
        &[],
    );
}

#[test]
#[ignore = "run by refused_when_libc_sec_is_nowhere"]
fn child_refused_without_securec() {
    if !in_child() {
        return;
    }
    let err = Library::open(Some(Path::new(MOCK_MSPTI))).expect_err("no libc_sec.so: must refuse");
    let LoadError::Refused { reason, .. } = &err else { panic!("expected Refused, got {err}") };
    assert!(reason.contains("libc_sec.so") && reason.contains("the CANN toolkit"), "{reason}");
}

/// The toolkit's `libc_sec.so` is found in `$ASCEND_HOME_PATH/lib64` without `LD_LIBRARY_PATH`.
#[test]
fn libc_sec_of_the_toolkit_is_found_without_ld_library_path() {
    run_with("child_securec_from_the_toolkit", &cann_home_without("loader-sec", &[], None), &[]);
}

#[test]
#[ignore = "run by libc_sec_of_the_toolkit_is_found_without_ld_library_path"]
fn child_securec_from_the_toolkit() {
    if !in_child() {
        return;
    }
    let home = std::env::var("ASCEND_HOME_PATH").unwrap();
    let candidate = Path::new(MOCK_MSPTI);
    assert_eq!(
        mspti_sys::securec_dir(candidate),
        Some(Path::new(&home).join("lib64")),
        "to add to LD_LIBRARY_PATH"
    );
    Library::open(Some(candidate)).expect("opens: libc_sec.so was opened from the toolkit first");
}

/// Defect: the preflight demanded `DlogInnerForC`, which the real library does not need.
#[test]
fn a_log_library_without_dloginnerforc_is_accepted() {
    let log = Path::new(MOCK_ASCEND_MIN_LOG).join("libascendalog.so");
    run_with("child_minimal_log", &cann_home_without("loader-minlog", &[], Some(&log)), &[]);
}

#[test]
#[ignore = "run by a_log_library_without_dloginnerforc_is_accepted"]
fn child_minimal_log() {
    if !in_child() {
        return;
    }
    Library::open(Some(Path::new(MOCK_MSPTI))).expect("a log library with CheckLogLevelForC only is enough");
}

/// Defect: a file that exists but whose dependency is missing was reported as "not found". The
/// generic loader (no preflight) says which dependency is missing.
#[test]
fn a_missing_dependency_is_not_reported_as_not_found() {
    assert_child_passed(&run_child(
        "child_dependency_missing",
        &env(&[("ASCEND_HOME_PATH", Some(MOCK_ASCEND_HOME))]),
    ));
}

#[test]
#[ignore = "run by a_missing_dependency_is_not_reported_as_not_found"]
fn child_dependency_missing() {
    if !in_child() {
        return;
    }
    let spec = accelprof_loader::LibrarySpec { preflight: None, ..mspti_sys::SPEC.clone() };
    let err = accelprof_loader::open(&spec, Some(Path::new(MOCK_MSPTI)))
        .expect_err("libc_sec.so is not on the loader path");
    let LoadError::DependencyMissing { dependency, path, .. } = &err else {
        panic!("expected DependencyMissing, got {err}")
    };
    assert_eq!(dependency, "libc_sec.so");
    assert_eq!(path, Path::new(MOCK_MSPTI));
    let text = err.to_string();
    assert!(
        !text.contains("not found") && text.contains("was found at") && text.contains("needs libc_sec.so"),
        "{text}"
    );
}

#[test]
fn a_file_that_is_not_mspti_is_refused_before_it_is_opened() {
    assert_child_passed(&run_child("child_not_mspti", &env(&[("ASCEND_HOME_PATH", Some(MOCK_ASCEND_HOME))])));
}

#[test]
#[ignore = "run by a_file_that_is_not_mspti_is_refused_before_it_is_opened"]
fn child_not_mspti() {
    if !in_child() {
        return;
    }
    use mspti::{Error, Mspti};
    let e = Mspti::open_path("").unwrap_err();
    assert!(matches!(e, Error::Load(LoadError::EmptyPath { .. })), "{e}");
    // Cut short: the system loader would die of SIGBUS mapping it.
    let bytes = std::fs::read(MOCK_MSPTI).unwrap();
    let dir = std::env::temp_dir().join(format!("mspti-truncated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("libmspti.so");
    std::fs::write(&cut, &bytes[..4096]).unwrap();
    let e = Mspti::open_path(&cut).unwrap_err();
    let Error::Load(LoadError::NotALibrary { reason, .. }) = &e else { panic!("{e}") };
    assert!(reason.contains("cut short: 4096 bytes"), "{reason}");
    // Other vendors' libraries, and libraries this process has already mapped (the preflight
    // accepted any loaded copy): named by the symbols looked for.
    let libc = loaded_libc();
    for other in [accelprof_mocks::cupti::LIBRARY, accelprof_mocks::rocprofiler::LIBRARY, libc.as_str()] {
        let e = Mspti::open_path(other).unwrap_err();
        let Error::Load(LoadError::WrongLibrary { missing, .. }) = &e else { panic!("{other}: {e}") };
        assert_eq!(missing, &["msptiSubscribe", "msptiActivityRegisterCallbacks"]);
    }
    let reason = mspti_sys::preflight(Path::new(&libc)).unwrap_err();
    assert!(reason.contains("not libmspti.so") && reason.contains("msptiSubscribe"), "{reason}");
    assert!(mspti_sys::preflight(Path::new("")).is_err());
    // The real one still opens afterwards.
    Mspti::open_path(MOCK_MSPTI).expect("the mock opens");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The path of the libc this process has mapped.
fn loaded_libc() -> String {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    let libc = maps.lines().filter_map(|l| l.split_whitespace().nth(5)).find(|p| p.contains("/libc.so"));
    libc.expect("libc is mapped").to_owned()
}
