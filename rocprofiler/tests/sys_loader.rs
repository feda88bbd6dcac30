//! The `rocprofiler-sys` loader: search order, reuse of a copy already loaded in the process,
//! typed errors, and lazily resolved symbols. Each test that depends on what is loaded runs in
//! a fresh process.

mod support;

use std::path::Path;

use accelprof_mocks::rocprofiler::LIBRARY as MOCK_ROCPROFILER;
use rocprofiler_sys::{rocprofiler_status_t, Library, LoadError, SPEC};
use support::in_fresh_process;

fn version(lib: &Library) -> (u32, u32, u32) {
    let (mut a, mut b, mut c) = (0, 0, 0);
    // SAFETY: three valid out-pointers.
    let st = unsafe { lib.rocprofiler_get_version(&mut a, &mut b, &mut c) }.expect("exported");
    assert_eq!(st, rocprofiler_status_t::ROCPROFILER_STATUS_SUCCESS);
    (a, b, c)
}

fn origins(err: &LoadError) -> Vec<String> {
    err.tried().iter().map(|a| a.origin.clone()).collect()
}

#[test]
fn search_order_when_nothing_is_found_lists_every_place() {
    let empty = std::env::temp_dir().join(format!("rocm-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let empty_s = empty.to_string_lossy().into_owned();
    if !in_fresh_process(
        "search_order_when_nothing_is_found_lists_every_place",
        &[("ROCPROFILER_LIBRARY_PATH", None), ("ROCM_PATH", Some(&empty_s)), ("LD_LIBRARY_PATH", None)],
    ) {
        return;
    }
    let err = Library::open(None).expect_err("nothing to find");
    assert!(matches!(err, LoadError::NotFound { .. }));
    let o = origins(&err);
    assert_eq!(
        o,
        vec![
            "already loaded in this process",
            "already loaded in this process",
            "$ROCPROFILER_LIBRARY_PATH",
            "$ROCM_PATH/lib",
            "/opt/rocm/lib",
            "system loader",
            "system loader",
        ],
        "{err}"
    );
    let msg = err.to_string();
    let rocm_path = std::env::var("ROCM_PATH").unwrap();
    assert!(msg.contains("librocprofiler-sdk.so.1") && msg.contains(&rocm_path), "{msg}");
    assert_eq!(err.tried()[2].reason, "not set");
}

#[test]
fn explicit_path_is_opened_when_nothing_is_loaded() {
    if !in_fresh_process("explicit_path_is_opened_when_nothing_is_loaded", &[]) {
        return;
    }
    let lib = Library::open(Some(Path::new(MOCK_ROCPROFILER))).expect("open the mock");
    assert_eq!(lib.loaded().origin(), "explicit path");
    assert_eq!(version(&lib), (1, 0, 0));
    // SAFETY: a plain enum argument.
    let s = unsafe { lib.rocprofiler_get_status_string(rocprofiler_status_t::ROCPROFILER_STATUS_SUCCESS) }
        .unwrap();
    assert!(!s.is_null());
}

#[test]
fn missing_explicit_path_is_an_error_naming_it() {
    if !in_fresh_process("missing_explicit_path_is_an_error_naming_it", &[]) {
        return;
    }
    let err = Library::open(Some(Path::new("/nonexistent/librocprofiler-sdk.so"))).expect_err("no file");
    let o = origins(&err);
    // The loaded-copy check comes first (nothing loaded), then only the explicit path.
    assert_eq!(o.last().map(String::as_str), Some("explicit path"));
    assert!(o[..o.len() - 1].iter().all(|x| x == "already loaded in this process"));
    assert!(err.to_string().contains("/nonexistent/librocprofiler-sdk.so"));
}

#[test]
fn environment_variable_names_the_file() {
    if !in_fresh_process(
        "environment_variable_names_the_file",
        &[("ROCPROFILER_LIBRARY_PATH", Some(MOCK_ROCPROFILER))],
    ) {
        return;
    }
    let lib = Library::open(None).expect("found through the variable");
    assert_eq!(lib.loaded().origin(), "$ROCPROFILER_LIBRARY_PATH");
    assert_eq!(version(&lib), (1, 0, 0));
}

#[test]
fn rocm_path_lib_is_searched() {
    let root = std::env::temp_dir().join(format!("rocm-root-{}", std::process::id()));
    std::fs::create_dir_all(root.join("lib")).unwrap();
    let link = root.join("lib/librocprofiler-sdk.so");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(MOCK_ROCPROFILER, &link).unwrap();
    let root_s = root.to_string_lossy().into_owned();
    if !in_fresh_process(
        "rocm_path_lib_is_searched",
        &[("ROCPROFILER_LIBRARY_PATH", None), ("ROCM_PATH", Some(&root_s))],
    ) {
        return;
    }
    let lib = Library::open(None).expect("found under ROCM_PATH");
    assert_eq!(lib.loaded().origin(), "$ROCM_PATH/lib");
    assert_eq!(version(&lib), (1, 0, 0));
}

#[test]
fn a_copy_already_loaded_is_reused_even_over_an_explicit_path() {
    if !in_fresh_process(
        "a_copy_already_loaded_is_reused_even_over_an_explicit_path",
        &[("ROCPROFILER_LIBRARY_PATH", None)],
    ) {
        return;
    }
    // Play the ROCm runtime: it loads the SDK before any tool runs.
    // SAFETY: loading the mock runs no initialiser with preconditions.
    let runtime = unsafe {
        libloading::os::unix::Library::open(
            Some(MOCK_ROCPROFILER),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_GLOBAL,
        )
    }
    .expect("the runtime loads the SDK");

    // A tool that names some other file still gets the runtime's copy.
    let lib = Library::open(Some(Path::new("/elsewhere/librocprofiler-sdk.so"))).expect("reuses");
    assert_eq!(lib.loaded().origin(), "already loaded in this process");
    assert_eq!(lib.loaded().path(), Path::new("librocprofiler-sdk.so"));

    // Same copy, same state: a change made through the runtime's handle is seen through ours.
    // SAFETY: the control takes a plain integer.
    let set_last: libloading::os::unix::Symbol<unsafe extern "C" fn(u32)> =
        unsafe { runtime.get(b"mock_rocprofiler_set_status_last\0") }.unwrap();
    let status_12 = rocprofiler_status_t(12);
    // SAFETY: plain enum argument.
    assert!(!unsafe { lib.rocprofiler_get_status_string(status_12) }.unwrap().is_null());
    // SAFETY: plain integer argument.
    unsafe { set_last(5) };
    // SAFETY: plain enum argument.
    assert!(unsafe { lib.rocprofiler_get_status_string(status_12) }.unwrap().is_null());
    let again = Library::open(None).expect("reuses again");
    assert_eq!(again.loaded().origin(), "already loaded in this process");
}

#[test]
fn a_symbol_the_library_lacks_is_a_per_call_error() {
    let (lib, _) = support::mock();
    // The mock, like an SDK older than these headers, lacks device counting.
    assert!(!lib.has("rocprofiler_configure_device_counting_service"));
    let ctx = rocprofiler_sys::rocprofiler_context_id_t { handle: 0 };
    let agent = rocprofiler_sys::rocprofiler_agent_id_t { handle: 0 };
    let buffer = rocprofiler_sys::rocprofiler_buffer_id_t { handle: 0 };
    // SAFETY: never called: the symbol is missing.
    let err = unsafe {
        lib.rocprofiler_configure_device_counting_service(ctx, buffer, agent, None, std::ptr::null_mut())
    }
    .expect_err("missing");
    assert_eq!(err.symbol, "rocprofiler_configure_device_counting_service");
    assert!(err.to_string().contains("rocprofiler-sdk"));
    // Everything the mock exports still works.
    assert!(lib.has("rocprofiler_dispatch_counting_service_set_agents"));
    assert_eq!(version(lib), (1, 0, 0));
    let missing = lib.missing();
    assert!(missing.contains(&"rocprofiler_configure_device_counting_service"));
    assert!(!missing.contains(&"rocprofiler_create_context"));
}

#[test]
fn spec_prefers_the_loaded_copy_and_names_both_sonames() {
    assert!(SPEC.reuse_loaded);
    assert_eq!(SPEC.env_var, "ROCPROFILER_LIBRARY_PATH");
    assert_eq!(SPEC.sonames, &["librocprofiler-sdk.so", "librocprofiler-sdk.so.1"]);
    // The tool's own entry point is not part of the SDK's function table.
    assert!(!rocprofiler_sys::RocprofilerFunctions::SYMBOLS.contains(&"rocprofiler_configure"));
    assert!(rocprofiler_sys::RocprofilerFunctions::SYMBOLS.contains(&"rocprofiler_force_configure"));
}

/// A copy of `library` cut to its first `len` bytes (a copy interrupted, a full disk).
fn truncated_copy(library: &str, len: usize) -> std::path::PathBuf {
    let bytes = std::fs::read(library).expect("read the library");
    let dir = std::env::temp_dir().join(format!("rocprofiler-truncated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("librocprofiler-sdk.so");
    std::fs::write(&cut, &bytes[..len]).expect("write the truncated copy");
    cut
}

#[test]
fn a_file_that_is_not_the_sdk_is_refused_and_never_cached() {
    if !in_fresh_process(
        "a_file_that_is_not_the_sdk_is_refused_and_never_cached",
        &[("ROCPROFILER_LIBRARY_PATH", None), ("LD_PRELOAD", None)],
    ) {
        return;
    }
    use rocprofiler::{Error, Rocprofiler};
    let e = Rocprofiler::open_path("").unwrap_err();
    assert!(matches!(e, Error::Load(LoadError::EmptyPath { .. })), "{e}");
    // Cut short: the system loader would die of SIGBUS mapping it.
    let cut = truncated_copy(MOCK_ROCPROFILER, 4096);
    let e = Rocprofiler::open_path(&cut).unwrap_err();
    let Error::Load(LoadError::NotALibrary { reason, .. }) = &e else { panic!("{e}") };
    assert!(reason.contains("cut short: 4096 bytes"), "{reason}");
    // Other vendors' libraries and system libraries: named by the symbols looked for.
    for other in [accelprof_mocks::mspti::LIBRARY, accelprof_mocks::cupti::LIBRARY, "libm.so.6", "libc.so.6"]
    {
        let e = Rocprofiler::open_path(other).unwrap_err();
        let Error::Load(LoadError::WrongLibrary { missing, .. }) = &e else { panic!("{other}: {e}") };
        assert_eq!(
            missing,
            &["rocprofiler_get_version", "rocprofiler_create_context", "rocprofiler_create_buffer"]
        );
    }
    // Nothing wrong was cached for the process: the SDK opens afterwards.
    let sdk = Rocprofiler::open_path(MOCK_ROCPROFILER).expect("the mock SDK opens");
    assert_eq!(sdk.path(), Path::new(MOCK_ROCPROFILER));
    let _ = std::fs::remove_dir_all(cut.parent().unwrap());
}
