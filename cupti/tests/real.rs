//! Checks `cupti-sys` against the real `libcupti` of NVIDIA's Python wheels.
//!
//! Enabled by `CUPTI_REAL_LIB_13`, `CUPTI_REAL_LIB_13_5` and `CUPTI_REAL_LIB_12`, each naming a
//! `libcupti.so.*` file
//! (`accelprof-bindgen/regen-cupti.sh` downloads and unpacks the wheels and says where they are);
//! a test whose variable is unset says so and passes. Needs no GPU: without a driver, 12.9 and
//! 13.0 still load, report their version and result strings, and refuse to subscribe; 13.5 loads
//! and exports every function of our table, each of which returns `CUPTI_ERROR_UNKNOWN`.

use std::ffi::CStr;
use std::path::PathBuf;
use std::ptr;

use cupti_sys::{CUptiResult, Library};

/// What one CUPTI release must show.
struct Expected<'a> {
    /// The variable naming the library file.
    var: &'static str,
    /// `CUPTI_API_VERSION` of the headers the bindings were generated from.
    api_version: u32,
    /// Functions of our table this release does not export.
    missing: &'a [&'static str],
    /// What `cuptiSubscribe` returns on a machine without a GPU driver.
    subscribe_without_driver: CUptiResult,
    /// Whether every function fails without a GPU driver, `cuptiGetVersion` and
    /// `cuptiGetResultString` included (13.3 and later load `libcuda.so.1` at the first call).
    needs_driver_for_everything: bool,
}

fn library_file(var: &str) -> Option<PathBuf> {
    match std::env::var_os(var) {
        Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
        _ => {
            // CI sets CUPTI_REAL_REQUIRED so that a missing wheel fails instead of skipping.
            assert!(
                std::env::var_os("CUPTI_REAL_REQUIRED").is_none(),
                "{var} is not set but CUPTI_REAL_REQUIRED is"
            );
            println!("skipped: {var} is not set (see accelprof-bindgen/regen-cupti.sh)");
            None
        }
    }
}

/// Whether a CUDA driver can be opened here (then `cuptiSubscribe` may well succeed).
fn driver_present() -> bool {
    // SAFETY: opening the CUDA driver runs no code that could break this process; it is
    // only probed and dropped.
    unsafe { libloading::Library::new("libcuda.so.1") }.is_ok()
}

fn result_string(lib: &Library, code: CUptiResult) -> String {
    let mut s = ptr::null();
    // SAFETY: `s` is a valid out-pointer.
    let r =
        unsafe { lib.functions().cuptiGetResultString(code, &mut s) }.expect("cuptiGetResultString exported");
    assert_eq!(r, CUptiResult::CUPTI_SUCCESS, "cuptiGetResultString({})", code.0);
    assert!(!s.is_null());
    // SAFETY: CUPTI returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
}

fn check(expected: &Expected<'_>) {
    let Some(file) = library_file(expected.var) else { return };
    let lib = Library::open(Some(&file)).unwrap_or_else(|e| panic!("{}: {e}", expected.var));
    assert_eq!(lib.origin(), "explicit path");
    let fns = lib.functions();

    let missing = fns.missing();
    println!(
        "{}: {} of {} functions resolve; missing: {missing:?}",
        expected.var,
        cupti_sys::CuptiFunctions::SYMBOLS.len() - missing.len(),
        cupti_sys::CuptiFunctions::SYMBOLS.len()
    );
    assert_eq!(missing, expected.missing);
    for name in expected.missing {
        // Calling one is a typed error naming it, not a crash.
        assert!(!fns.has(name));
    }

    if expected.needs_driver_for_everything && !driver_present() {
        let mut version = 77;
        // SAFETY: `version` is a valid out-pointer.
        let r = unsafe { fns.cuptiGetVersion(&mut version) }.expect("cuptiGetVersion exported");
        println!("{}: without a driver cuptiGetVersion = {} (version left at {version})", expected.var, r.0);
        assert_eq!((r, version), (CUptiResult::CUPTI_ERROR_UNKNOWN, 77));
        let mut s = ptr::null();
        // SAFETY: `s` is a valid out-pointer.
        let r = unsafe { fns.cuptiGetResultString(CUptiResult::CUPTI_ERROR_UNKNOWN, &mut s) }
            .expect("cuptiGetResultString exported");
        assert_eq!((r, s), (CUptiResult::CUPTI_ERROR_UNKNOWN, ptr::null()));
        let mut subscriber = ptr::null_mut();
        // SAFETY: `subscriber` is a valid out-pointer; no callback is registered.
        let r = unsafe { fns.cuptiSubscribe(&mut subscriber, None, ptr::null_mut()) }
            .expect("cuptiSubscribe exported");
        assert_eq!(r, expected.subscribe_without_driver);
        // SAFETY: plain values.
        let r = unsafe { fns.cuptiActivityEnableRuntimeApi(211, 0) }.expect("exported");
        assert_eq!(r, CUptiResult::CUPTI_ERROR_UNKNOWN);
        return;
    }

    let mut version = 0;
    // SAFETY: `version` is a valid out-pointer.
    let r = unsafe { fns.cuptiGetVersion(&mut version) }.expect("cuptiGetVersion exported");
    assert_eq!(r, CUptiResult::CUPTI_SUCCESS);
    println!("{}: {} cuptiGetVersion = {version}", expected.var, file.display());
    assert_eq!(version, expected.api_version, "cuptiGetVersion against the headers' CUPTI_API_VERSION");

    for code in [
        CUptiResult::CUPTI_SUCCESS,
        CUptiResult::CUPTI_ERROR_NOT_INITIALIZED,
        CUptiResult::CUPTI_ERROR_UNKNOWN,
        CUptiResult::CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
    ] {
        let s = result_string(&lib, code);
        println!("{}: cuptiGetResultString({}) = {s:?}", expected.var, code.0);
        assert!(s.starts_with("CUPTI_"), "{s}");
    }
    assert_eq!(result_string(&lib, CUptiResult::CUPTI_ERROR_NOT_INITIALIZED), "CUPTI_ERROR_NOT_INITIALIZED");

    let mut subscriber = ptr::null_mut();
    // SAFETY: `subscriber` is a valid out-pointer; no callback is registered.
    let r = unsafe { fns.cuptiSubscribe(&mut subscriber, None, ptr::null_mut()) }
        .expect("cuptiSubscribe exported");
    println!("{}: cuptiSubscribe = {} ({})", expected.var, r.0, result_string(&lib, r));
    if r == CUptiResult::CUPTI_SUCCESS {
        assert!(driver_present(), "cuptiSubscribe succeeded without a GPU driver");
        // SAFETY: `subscriber` was just returned by a successful cuptiSubscribe.
        let r = unsafe { fns.cuptiUnsubscribe(subscriber) }.expect("cuptiUnsubscribe exported");
        assert_eq!(r, CUptiResult::CUPTI_SUCCESS);
    } else if !driver_present() {
        assert_eq!(r, expected.subscribe_without_driver);
    }
}

/// The functions of our table that the 13.0 headers do not declare (the 13.5 headers do), in the
/// table's order.
const NEWER_THAN_13_0: [&str; 18] = [
    "cuptiGetEnabledCallbacks",
    "cuptiGetTimestamp_v2",
    "cuptiGetCudaEventId",
    "cuptiActivityEnable_v2",
    "cuptiActivityDisable_v2",
    "cuptiActivityEnableAndDump_v2",
    "cuptiActivityGetEnabledKinds",
    "cuptiActivityGetStructSize",
    "cuptiIsTracingSessionRunning",
    "cuptiActivityGetNumDroppedRecords_v2",
    "cuptiActivityGetNextRecord_v2",
    "cuptiActivityRegisterCallbacks_v2",
    "cuptiActivityGetAttribute_v2",
    "cuptiActivitySetAttribute_v2",
    "cuptiActivityPushExternalCorrelationId_v2",
    "cuptiActivityPopExternalCorrelationId_v2",
    "cuptiActivityEnableDriverApi_v2",
    "cuptiActivityEnableRuntimeApi_v2",
];

#[test]
fn real_cupti_13() {
    check(&Expected {
        var: "CUPTI_REAL_LIB_13",
        api_version: cupti_sys::CUPTI_API_VERSION,
        missing: &NEWER_THAN_13_0,
        subscribe_without_driver: CUptiResult::CUPTI_ERROR_UNKNOWN,
        needs_driver_for_everything: false,
    });
}

#[test]
fn real_cupti_13_5() {
    check(&Expected {
        var: "CUPTI_REAL_LIB_13_5",
        api_version: cupti_sys::v13_5::CUPTI_API_VERSION,
        missing: &[],
        subscribe_without_driver: CUptiResult::CUPTI_ERROR_UNKNOWN,
        needs_driver_for_everything: true,
    });
}

#[test]
fn real_cupti_12() {
    let mut missing = vec!["cuptiSubscribe_v2", "cuptiActivityEnableCudaEventDeviceTimestamps"];
    missing.extend(NEWER_THAN_13_0);
    missing.sort_by_key(|name| cupti_sys::CuptiFunctions::SYMBOLS.iter().position(|s| s == name));
    check(&Expected {
        var: "CUPTI_REAL_LIB_12",
        api_version: cupti_sys::v12::CUPTI_API_VERSION,
        // Added by CUPTI 13.0 and later (12.9 does not export them).
        missing: &missing,
        subscribe_without_driver: CUptiResult::CUPTI_ERROR_NOT_INITIALIZED,
        needs_driver_for_everything: false,
    });
}
