//! The mock `libmspti.so` does what the vendor notes say the real one does, traps included.
//! These tests drive it through the raw `mspti-sys` table (no safe wrapper) and the CANN
//! stand-ins (the runtime called through the global symbol scope, as a program calls it), so that
//! what they prove is the library's behaviour, which the `mspti` crate's tests then rely on.
//! Each runs in a child process with the library preloaded (`support`); most also run
//! against the real `libmspti.so` (`MSPTI_TEST_LIBRARY`), which is how the notes were checked.
//! Tests named `notes_*` follow the sentences of the notes' "More seen with the real
//! libmspti.so" section.

#[macro_use]
mod support;

use std::ffi::{c_void, CString};
use std::path::Path;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use accelprof_mocks::ascend::MemcpyKind;
use accelprof_mocks::mspti::{
    ASCEND_HOME as MOCK_ASCEND_HOME, ASCEND_MIN_LOG as MOCK_ASCEND_MIN_LOG, LIBRARY as MOCK_MSPTI,
};
use mspti_sys::records::{self as rec, read_record};
use mspti_sys::{
    msptiActivityKind as K, msptiCallbackData, msptiCallbackDomain, msptiExternalCorrelationKind,
    msptiResult as R, msptiSubscriberHandle, MsptiFunctions,
};
use support::{
    acl, assert_child_passed, in_child, mock, mspti, run_child, serial, wait_for, ENTER, EXIT, HCCL, RUNTIME,
};

fn lib() -> &'static MsptiFunctions {
    mspti().sys().functions()
}

// ---------------------------------------------------------------- raw callback plumbing

/// What the raw callback saw: (site, cbid, correlationData pointer, correlationId, functionParams,
/// userdata, function name).
type Seen = (u32, u32, usize, u64, usize, usize, String);
static SEEN: Mutex<Vec<Seen>> = Mutex::new(Vec::new());
static CALLS: AtomicU64 = AtomicU64::new(0);

unsafe extern "C" fn record_callback(
    userdata: *mut c_void,
    _domain: msptiCallbackDomain,
    cbid: u32,
    data: *const msptiCallbackData,
) {
    CALLS.fetch_add(1, SeqCst);
    // SAFETY: reads the two fields MSPTI fills and the raw values (not targets) of the others.
    let d = unsafe { &*data };
    // SAFETY: MSPTI passes the function's static name.
    let name = unsafe { std::ffi::CStr::from_ptr(d.functionName) }.to_string_lossy().into_owned();
    SEEN.lock().unwrap().push((
        d.callbackSite.0,
        cbid,
        d.correlationData as usize,
        d.correlationId,
        d.functionParams as usize,
        userdata as usize,
        name,
    ));
    if d.callbackSite.0 == ENTER && support::mock_if_any().is_some() {
        // What the seed guide tells users to do. In the real library this writes into stack
        // garbage; the mock detects it.
        // SAFETY: the mock points it at memory it owns, to detect exactly this write.
        unsafe { *d.correlationData = 0x1234 };
    }
}

fn subscribe(callback: mspti_sys::msptiCallbackFunc, userdata: usize) -> (R, msptiSubscriberHandle) {
    let mut h: msptiSubscriberHandle = null_mut();
    // SAFETY: a valid out-pointer; the callback (if any) has the C signature.
    let r = unsafe { lib().msptiSubscribe(&mut h, callback, userdata as *mut c_void) }.expect("exported");
    (r, h)
}

fn enable_domain(h: msptiSubscriberHandle, domain: u32) -> R {
    // SAFETY: plain values.
    unsafe { lib().msptiEnableDomain(1, h, msptiCallbackDomain(domain)) }.expect("exported")
}

fn enable_callback(h: msptiSubscriberHandle, domain: u32, cbid: u32) -> R {
    // SAFETY: plain values.
    unsafe { lib().msptiEnableCallback(1, h, msptiCallbackDomain(domain), cbid) }.expect("exported")
}

fn unsubscribe(h: msptiSubscriberHandle) -> R {
    // SAFETY: plain value.
    unsafe { lib().msptiUnsubscribe(h) }.expect("exported")
}

fn seen_names() -> Vec<(u32, String)> {
    SEEN.lock().unwrap().iter().map(|s| (s.0, s.6.clone())).collect()
}

// ---------------------------------------------------------------- raw buffer plumbing

static BUFFER_SIZE: AtomicUsize = AtomicUsize::new(4096);
static DECLINE_NEXT: AtomicUsize = AtomicUsize::new(0);
/// The size a declining request writes into `*size`.
static DECLINED_SIZE: AtomicUsize = AtomicUsize::new(0);
static REQUEST_THREADS: Mutex<Vec<std::thread::ThreadId>> = Mutex::new(Vec::new());
static REENTER_FROM_REQUEST: AtomicUsize = AtomicUsize::new(0);
static REENTRY_RESULT: AtomicU64 = AtomicU64::new(0);

/// One completed buffer: its bytes, whether NULL, the size passed back and the completing thread.
struct Completed {
    bytes: Vec<u8>,
    null: bool,
    size: usize,
    thread: std::thread::ThreadId,
}
static COMPLETED: Mutex<Vec<Completed>> = Mutex::new(Vec::new());
static IN_COMPLETION: AtomicUsize = AtomicUsize::new(0);
static WAIT_FOR_CONCURRENT: AtomicUsize = AtomicUsize::new(0);
static SAW_CONCURRENT: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn request(buffer: *mut *mut u8, size: *mut usize, _max: *mut usize) {
    REQUEST_THREADS.lock().unwrap().push(std::thread::current().id());
    if REENTER_FROM_REQUEST.swap(0, SeqCst) == 1 {
        // SAFETY: plain value; the mock refuses the call instead of deadlocking.
        let r = unsafe { lib().msptiActivityFlushAll(1) }.expect("exported");
        REENTRY_RESULT.store(r.0.into(), SeqCst);
    }
    let decline = DECLINE_NEXT.load(SeqCst);
    if decline > 0 {
        DECLINE_NEXT.store(decline - 1, SeqCst);
        // SAFETY: MSPTI's out-pointers.
        unsafe {
            *buffer = null_mut();
            *size = DECLINED_SIZE.load(SeqCst);
        }
        return;
    }
    let len = BUFFER_SIZE.load(SeqCst);
    let words = vec![0u64; len / 8].into_boxed_slice();
    // SAFETY: MSPTI's out-pointers; the buffer is leaked to MSPTI and reclaimed in `complete`.
    unsafe {
        *buffer = Box::into_raw(words).cast::<u8>();
        *size = len;
    }
}

unsafe extern "C" fn complete(buffer: *mut u8, size: usize, valid: usize) {
    let now = IN_COMPLETION.fetch_add(1, SeqCst) + 1;
    if WAIT_FOR_CONCURRENT.load(SeqCst) == 1 {
        // Wait (bounded) for another completion to be inside this callback at the same time.
        let deadline = Instant::now() + Duration::from_secs(5);
        while IN_COMPLETION.load(SeqCst) < 2 && SAW_CONCURRENT.load(SeqCst) == 0 && Instant::now() < deadline
        {
            std::thread::yield_now();
        }
        if IN_COMPLETION.load(SeqCst) >= 2 || now >= 2 {
            SAW_CONCURRENT.store(1, SeqCst);
        }
    }
    let bytes = if buffer.is_null() {
        Vec::new()
    } else {
        // SAFETY: MSPTI returns a buffer from `request` with `valid <= size` bytes written.
        let b = unsafe { std::slice::from_raw_parts(buffer, valid) }.to_vec();
        // SAFETY: allocated in `request` as a boxed `[u64]` of `size / 8` words.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(buffer.cast::<u64>(), size / 8)) });
        b
    };
    COMPLETED.lock().unwrap().push(Completed {
        bytes,
        null: buffer.is_null(),
        size,
        thread: std::thread::current().id(),
    });
    IN_COMPLETION.fetch_sub(1, SeqCst);
}

fn register_buffers(size: usize) {
    BUFFER_SIZE.store(size, SeqCst);
    DECLINE_NEXT.store(0, SeqCst);
    WAIT_FOR_CONCURRENT.store(0, SeqCst);
    SAW_CONCURRENT.store(0, SeqCst);
    COMPLETED.lock().unwrap().clear();
    REQUEST_THREADS.lock().unwrap().clear();
    // SAFETY: both functions have the C signatures.
    let r = unsafe { lib().msptiActivityRegisterCallbacks(Some(request), Some(complete)) };
    assert_eq!(r, Ok(R::MSPTI_SUCCESS));
}

fn activity_enable(k: K) -> R {
    // SAFETY: plain value.
    unsafe { lib().msptiActivityEnable(k) }.expect("exported")
}

fn flush_all() -> R {
    // SAFETY: plain value.
    unsafe { lib().msptiActivityFlushAll(1) }.expect("exported")
}

/// The kinds of the records in `bytes`, walked with the gcc sizes.
fn kinds_in(bytes: &[u8]) -> Vec<u32> {
    records_in(bytes).into_iter().map(|(k, _)| k).collect()
}

/// (kind, offset) of each record in `bytes`.
fn records_in(bytes: &[u8]) -> Vec<(u32, usize)> {
    let mut at = 0;
    let mut out = Vec::new();
    while let Some(k) = rec::record_kind(&bytes[at..]) {
        out.push((k.0, at));
        let Some(size) = rec::record_size(k) else { break };
        at += size;
    }
    out
}

fn all_completed_bytes() -> Vec<u8> {
    COMPLETED.lock().unwrap().iter().flat_map(|c| c.bytes.clone()).collect()
}

/// Every API-layout record completed so far: (kind, name, correlation id, start, end).
fn api_records() -> Vec<(u32, String, u64, u64, u64)> {
    let b = all_completed_bytes();
    records_in(&b)
        .into_iter()
        .filter(|(k, _)| matches!(k, 3 | 10 | 11 | 12))
        .map(|(k, at)| {
            let r: rec::msptiActivityApi = read_record(&b[at..]).expect("an API record");
            // SAFETY: MSPTI's record names are NUL-terminated strings it keeps.
            let name = unsafe { std::ffi::CStr::from_ptr(r.name) }.to_string_lossy().into_owned();
            (k, name, { r.correlationId }, { r.start }, { r.end })
        })
        .collect()
}

/// Every MARKER record completed so far: (name, domain).
fn marker_records() -> Vec<(String, String)> {
    let b = all_completed_bytes();
    let s = |p: *const std::ffi::c_char| {
        // SAFETY: MSPTI's record strings are NUL-terminated (or NULL).
        (!p.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned())
    };
    records_in(&b)
        .into_iter()
        .filter(|(k, _)| *k == 1)
        .map(|(_, at)| {
            let m: rec::msptiActivityMarker = read_record(&b[at..]).expect("a marker");
            (s(m.name).unwrap_or_default(), s(m.domain).unwrap_or_default())
        })
        .collect()
}

// ---------------------------------------------------------------- the functions and results

preloaded_test! {
    fn exports_the_fifteen_functions_and_the_interposed_ones() {
        let _g = serial();
        assert!(lib().missing().is_empty(), "{:?}", lib().missing());
        assert_eq!(mspti_sys::MsptiFunctions::SYMBOLS.len(), 15);
        for f in ["aclrtMalloc", "aclrtLaunchKernel", "aclrtSetDevice", "HcclAllReduce", "HcclBarrier"] {
            let name = CString::new(f).unwrap();
            assert!(mspti().sys().raw_symbol(&name).is_some(), "{f} is interposed");
        }
    }
}

preloaded_test! {
    fn one_subscriber_null_handle_null_callback() {
        let _g = serial();
        // SAFETY: NULL out-pointer on purpose.
        let r = unsafe { lib().msptiSubscribe(null_mut(), None, null_mut()) };
        assert_eq!(r, Ok(R::MSPTI_ERROR_INVALID_PARAMETER));
        let (r, h) = subscribe(None, 0);
        assert_eq!(r, R::MSPTI_SUCCESS, "a NULL callback is accepted");
        assert!(!h.is_null());
        assert_eq!(subscribe(Some(record_callback), 0).0, R::MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
        assert_eq!(unsubscribe(0x10 as msptiSubscriberHandle), R::MSPTI_ERROR_INVALID_PARAMETER);
        assert_eq!(unsubscribe(h), R::MSPTI_SUCCESS);
        assert_eq!(unsubscribe(h), R::MSPTI_SUCCESS, "nothing subscribed: success");
        let (r, h) = subscribe(Some(record_callback), 0);
        assert_eq!(r, R::MSPTI_SUCCESS, "free again after unsubscribe");
        assert_eq!(unsubscribe(h), R::MSPTI_SUCCESS);
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn enable_accepts_any_cbid_below_64_and_succeeds_with_nothing_subscribed() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        assert_eq!(enable_callback(0x10 as msptiSubscriberHandle, RUNTIME, 5), R::MSPTI_SUCCESS, "not subscribed");
        assert_eq!(enable_domain(null_mut(), 7), R::MSPTI_SUCCESS, "not subscribed: not even checked");
        CALLS.store(0, SeqCst);
        let (_, h) = subscribe(Some(record_callback), 0);
        assert_eq!(enable_callback(h, RUNTIME, 50), R::MSPTI_SUCCESS, "50 is no runtime id, still accepted");
        assert_eq!(enable_callback(h, HCCL, 63), R::MSPTI_SUCCESS);
        assert_eq!(enable_callback(h, RUNTIME, 64), R::MSPTI_ERROR_INVALID_PARAMETER);
        assert_eq!(enable_callback(h, 3, 1), R::MSPTI_ERROR_INVALID_PARAMETER);
        assert_eq!(enable_callback(h, 0, 1), R::MSPTI_ERROR_INVALID_PARAMETER);
        assert_eq!(enable_callback(0x10 as msptiSubscriberHandle, RUNTIME, 1), R::MSPTI_ERROR_INVALID_PARAMETER);
        mock().api_call(RUNTIME, 50, "aclrtFuture", None);
        assert_eq!(CALLS.load(SeqCst), 2, "the odd id fires ENTER and EXIT");
        mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", None);
        assert_eq!(CALLS.load(SeqCst), 2, "not enabled");
        unsubscribe(h);
    }
}

#[test]
fn without_ld_preload_enabling_returns_6() {
    let (home, lib) = (support::ascend_home(), support::library());
    let out = run_child(
        "child_without_ld_preload",
        &[
            ("ASCEND_HOME_PATH", Some(&home)),
            ("MSPTI_LIBRARY_PATH", Some(&lib)),
            ("LD_LIBRARY_PATH", Some(&format!("{home}/lib64"))),
        ],
    );
    assert_child_passed(&out);
}

#[test]
#[ignore = "run by without_ld_preload_enabling_returns_6"]
fn child_without_ld_preload() {
    if !in_child() {
        return;
    }
    let (_, h) = subscribe(Some(record_callback), 0);
    assert_eq!(enable_domain(h, RUNTIME).0, 6);
    assert_eq!(enable_callback(h, HCCL, 1).0, 6);
    for k in [
        K::MSPTI_ACTIVITY_KIND_HCCL,
        K::MSPTI_ACTIVITY_KIND_MEMORY,
        K::MSPTI_ACTIVITY_KIND_MEMSET,
        K::MSPTI_ACTIVITY_KIND_MEMCPY,
    ] {
        assert_eq!(activity_enable(k).0, 6, "{k:?}");
    }
    assert_eq!(activity_enable(K::MSPTI_ACTIVITY_KIND_KERNEL), R::MSPTI_SUCCESS);
    // Read once: setting it now changes nothing, as in the real library.
    std::env::set_var("LD_PRELOAD", support::library());
    assert_eq!(enable_domain(h, RUNTIME).0, 6);
}

preloaded_test! {
    fn with_ld_preload_set_at_start_it_is_read_once() {
        let (_, h) = subscribe(Some(record_callback), 0);
        assert_eq!(enable_domain(h, RUNTIME), R::MSPTI_SUCCESS);
        std::env::remove_var("LD_PRELOAD");
        assert_eq!(enable_domain(h, HCCL), R::MSPTI_SUCCESS, "the first answer is kept");
        assert_eq!(
            activity_enable(K::MSPTI_ACTIVITY_KIND_MEMCPY).0,
            6,
            "the activity check reads it on its own first use"
        );
    }
}

// ---------------------------------------------------------------- what it loads

#[test]
fn loading_without_cann_aborts_the_process() {
    let home = support::ascend_home();
    let out = run_child(
        "child_load_without_cann",
        &[("ASCEND_HOME_PATH", None), ("LD_LIBRARY_PATH", None), ("MSPTI_CHILD_SECUREC", Some(&home))],
    );
    assert!(!out.status.success());
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(out.status.signal(), Some(6), "SIGABRT: {out:?}");
    }
    if !support::testing_another_library() {
        assert!(String::from_utf8_lossy(&out.stderr).contains("process aborts"));
    }
}

#[test]
#[ignore = "run by loading_without_cann_aborts_the_process"]
fn child_load_without_cann() {
    if !in_child() {
        return;
    }
    // The securec library is found (opened by path, as the crate's loader does), the log and
    // profiling libraries are not. Straight dlopen, no preflight: what a careless loader does.
    let home = std::env::var("MSPTI_CHILD_SECUREC").expect("set by the parent");
    // SAFETY: the securec stand-in has no initialisers.
    std::mem::forget(
        unsafe { libloading::Library::new(Path::new(&home).join("lib64/libc_sec.so")) }.unwrap(),
    );
    // SAFETY: this is expected to abort the process.
    let _lib = unsafe { libloading::Library::new(support::library()) };
    unreachable!("the constructor aborts");
}

/// Notes: "It needs, besides libascendalog.so and libprofapi.so: libc_sec.so (from the toolkit; a
/// missing one is a plain dlopen error)".
#[test]
fn notes_libc_sec_missing_is_a_plain_dlopen_error() {
    let home = support::ascend_home();
    assert_child_passed(&run_child(
        "child_libc_sec_missing",
        &[("ASCEND_HOME_PATH", Some(&home)), ("LD_LIBRARY_PATH", None)],
    ));
}

#[test]
#[ignore = "run by notes_libc_sec_missing_is_a_plain_dlopen_error"]
fn child_libc_sec_missing() {
    if !in_child() {
        return;
    }
    // SAFETY: expected to fail before any initialiser runs.
    let err = unsafe { libloading::Library::new(support::library()) }
        .expect_err("libc_sec.so is not on the loader path");
    assert!(err.to_string().contains("libc_sec.so"), "{err}");
}

/// Notes: "at msptiSubscribe it opens libascend_hal.so (the NPU driver): a missing driver library
/// makes msptiSubscribe throw a C++ exception, which aborts a Rust process" (the mock aborts).
#[test]
fn notes_subscribe_without_the_npu_driver_aborts() {
    let home = support::cann_home_without("nohal", &["libascend_hal.so"], None);
    let h = home.to_str().unwrap().to_string();
    let out = run_child(
        "child_subscribe_without_driver",
        &[("ASCEND_HOME_PATH", Some(&h)), ("LD_LIBRARY_PATH", Some(&format!("{h}/lib64")))],
    );
    let _ = std::fs::remove_dir_all(&home);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("opened without the driver"), "the library opened: {text}");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(out.status.signal(), Some(6), "SIGABRT at msptiSubscribe: {text}");
    }
    if !support::testing_another_library() {
        assert!(text.contains("libascend_hal.so"), "{text}");
    }
}

#[test]
#[ignore = "run by notes_subscribe_without_the_npu_driver_aborts"]
fn child_subscribe_without_driver() {
    if !in_child() {
        return;
    }
    // SAFETY: the log and profiling stand-ins are there: the constructors pass.
    let lib = unsafe { libloading::Library::new(support::library()) }.expect("opens without the driver");
    eprintln!("opened without the driver");
    type Subscribe = unsafe extern "C" fn(*mut *mut c_void, *const c_void, *mut c_void) -> u32;
    // SAFETY: msptiSubscribe's signature.
    let sub = unsafe { lib.get::<Subscribe>(b"msptiSubscribe\0") }.unwrap();
    let mut h = null_mut();
    // SAFETY: a valid out-pointer; expected to abort.
    unsafe { sub(&mut h, std::ptr::null(), null_mut()) };
    unreachable!("msptiSubscribe aborts without libascend_hal.so");
}

/// Notes: "libascendalog.so needs only the log functions it exports (DlogInnerForC is not required)".
#[test]
fn notes_the_log_library_needs_no_dloginnerforc() {
    let log = Path::new(MOCK_ASCEND_MIN_LOG).join("libascendalog.so");
    let home = support::cann_home_without("minlog", &[], Some(&log));
    let h = home.to_str().unwrap().to_string();
    let out = run_child(
        "child_minimal_log_library",
        &[("ASCEND_HOME_PATH", Some(&h)), ("LD_LIBRARY_PATH", Some(&format!("{h}/lib64")))],
    );
    let _ = std::fs::remove_dir_all(&home);
    assert_child_passed(&out);
}

#[test]
#[ignore = "run by notes_the_log_library_needs_no_dloginnerforc"]
fn child_minimal_log_library() {
    if !in_child() {
        return;
    }
    // SAFETY: the stand-ins; this is what is being tested.
    let lib = unsafe { libloading::Library::new(support::library()) }
        .expect("opens with a log library without DlogInnerForC");
    // SAFETY: only the address is looked up.
    assert!(unsafe { lib.get::<*mut c_void>(b"msptiSubscribe\0") }.is_ok());
}

// ---------------------------------------------------------------- callbacks

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn callback_fields_are_garbage_that_differs_between_enter_and_exit() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        SEEN.lock().unwrap().clear();
        let (_, h) = subscribe(Some(record_callback), 0xAB);
        assert_eq!(enable_callback(h, RUNTIME, 10), R::MSPTI_SUCCESS);
        mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", None);
        let seen = std::mem::take(&mut *SEEN.lock().unwrap());
        assert_eq!(seen.len(), 2);
        let (enter, exit) = (&seen[0], &seen[1]);
        assert_eq!((enter.0, exit.0), (ENTER, EXIT));
        assert_eq!((enter.5, exit.5), (0xAB, 0xAB), "userdata passed through");
        assert_ne!(enter.2, exit.2, "correlationData differs between ENTER and EXIT");
        assert_ne!(enter.3, exit.3, "correlationId differs");
        assert_ne!(enter.4, exit.4, "functionParams differs");
        assert_eq!(mock().counter("garbage_writes"), 1, "the write at ENTER went into garbage");
        unsubscribe(h);
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn unsubscribe_does_not_wait_for_callbacks_in_flight() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        CALLS.store(0, SeqCst);
        SEEN.lock().unwrap().clear();
        let (_, h) = subscribe(Some(record_callback), 0x77);
        enable_domain(h, HCCL);
        let token = mock().stall_callback(HCCL, 1, ENTER, "HcclAllReduce");
        assert_ne!(token, 0);
        assert_eq!(unsubscribe(h), R::MSPTI_SUCCESS, "returns while a callback is in flight");
        assert_eq!(mock().release_stalled(token), 1);
        assert_eq!(CALLS.load(SeqCst), 1, "the callback ran after unsubscribe returned");
        assert_eq!(SEEN.lock().unwrap()[0].5, 0x77, "with the old userdata");
        mock().api_call(HCCL, 1, "HcclAllReduce", None);
        assert_eq!(CALLS.load(SeqCst), 1, "new calls do not fire");
    }
}

preloaded_test! {
    /// Notes: "Interposition: MSPTI's aclrt*/Hccl* wrappers are reached only through the global symbol
    /// scope (a normal call, or dlsym(RTLD_DEFAULT, ...)). A program that resolves aclrtMalloc from a
    /// handle of libascendcl.so bypasses MSPTI: no callbacks, no records."
    fn notes_interposition_only_through_the_global_scope() {
        let _g = serial();
        SEEN.lock().unwrap().clear();
        register_buffers(4096);
        let (_, h) = subscribe(Some(record_callback), 0);
        assert_eq!(enable_domain(h, RUNTIME), R::MSPTI_SUCCESS);
        assert_eq!(activity_enable(K::MSPTI_ACTIVITY_KIND_MEMORY), R::MSPTI_SUCCESS);
        acl().set_device(0).unwrap();
        let p = acl().malloc(256).unwrap();
        acl().free(p).unwrap();
        let bypassed = acl().bypass_malloc(256).unwrap();
        assert_ne!(bypassed.0, 0, "the runtime's own aclrtMalloc worked");
        flush_all();
        let names = seen_names();
        assert_eq!(
            names,
            [
                (ENTER, "aclrtSetDevice".into()),
                (EXIT, "aclrtSetDevice".into()),
                (ENTER, "aclrtMalloc".into()),
                (EXIT, "aclrtMalloc".into()),
                (ENTER, "aclrtFree".into()),
                (EXIT, "aclrtFree".into())
            ],
            "the handle-resolved aclrtMalloc fired nothing"
        );
        let b = all_completed_bytes();
        let memory: Vec<u64> = records_in(&b)
            .into_iter()
            .filter(|(k, _)| *k == 5)
            .map(|(_, at)| read_record::<rec::msptiActivityMemory>(&b[at..]).unwrap().address)
            .collect();
        assert_eq!(memory, [p.0 as u64, p.0 as u64], "the allocation and its release, not the bypassed one");
        unsubscribe(h);
    }
}

/// Notes: "Setting LD_PRELOAD with setenv inside the process before the first enable makes the
/// check pass (0 returned) while nothing is interposed."
#[test]
fn notes_ld_preload_set_inside_the_process_passes_the_check_and_interposes_nothing() {
    let (home, lib) = (support::ascend_home(), support::library());
    assert_child_passed(&run_child(
        "child_ld_preload_set_inside",
        &[
            ("ASCEND_HOME_PATH", Some(&home)),
            ("LD_LIBRARY_PATH", Some(&format!("{home}/lib64"))),
            ("MSPTI_LIBRARY_PATH", Some(&lib)),
        ],
    ));
}

#[test]
#[ignore = "run by notes_ld_preload_set_inside_the_process_passes_the_check_and_interposes_nothing"]
fn child_ld_preload_set_inside() {
    if !in_child() {
        return;
    }
    std::env::set_var("LD_PRELOAD", support::library());
    let (_, h) = subscribe(Some(record_callback), 0);
    assert_eq!(enable_domain(h, RUNTIME), R::MSPTI_SUCCESS, "the variable passes the check");
    acl().set_device(0).unwrap();
    acl().malloc(64).unwrap();
    assert_eq!(CALLS.load(SeqCst), 0, "nothing is interposed");
}

preloaded_test! {
    /// Notes: "A second libmspti.so opened by path while another copy is preloaded also 'works'
    /// (every call returns 0) and sees nothing."
    fn notes_a_second_copy_opened_by_path_works_and_sees_nothing() {
        let copy = std::env::temp_dir().join(format!("mspti-second-{}", std::process::id()));
        std::fs::create_dir_all(&copy).unwrap();
        let copy = copy.join("libmspti.so");
        std::fs::copy(support::library(), &copy).unwrap();
        let second = mspti_sys::Library::open(Some(&copy)).expect("the second copy opens");
        std::fs::remove_file(&copy).ok();
        let mut h = null_mut();
        // SAFETY: valid out-pointer, the C callback.
        let r = unsafe { second.msptiSubscribe(&mut h, Some(record_callback), null_mut()) };
        assert_eq!(r, Ok(R::MSPTI_SUCCESS));
        // SAFETY: plain values.
        let r = unsafe { second.msptiEnableDomain(1, h, msptiCallbackDomain(RUNTIME)) };
        assert_eq!(r, Ok(R::MSPTI_SUCCESS), "the preloaded variable passes the check");
        acl().set_device(0).unwrap();
        acl().malloc(64).unwrap();
        assert_eq!(CALLS.load(SeqCst), 0, "the calls reached the preloaded copy, which has no subscriber");
    }
}

preloaded_test! {
    /// Notes: "msptiUnsubscribe while other threads are in interposed calls: ... in-flight callbacks
    /// continue, and their EXIT is dropped."
    fn notes_unsubscribe_mid_call_drops_the_exit() {
        let _g = serial();
        SEEN.lock().unwrap().clear();
        let (_, h) = subscribe(Some(record_callback), 0);
        assert_eq!(enable_domain(h, RUNTIME), R::MSPTI_SUCCESS);
        acl().set_device(0).unwrap();
        let stream = acl().create_stream().unwrap();
        let kernel = acl().kernel("kernels.o", "long_kernel").unwrap();
        acl().launch(kernel, 10_000, stream).unwrap(); // 200 ms of device time
        SEEN.lock().unwrap().clear();
        let syncing = std::thread::spawn(move || acl().synchronize_stream(stream).unwrap());
        assert!(wait_for(10, || SEEN.lock().unwrap().iter().any(|s| s.6 == "aclrtSynchronizeStream")));
        assert_eq!(unsubscribe(h), R::MSPTI_SUCCESS);
        syncing.join().unwrap();
        assert_eq!(seen_names(), [(ENTER, "aclrtSynchronizeStream".to_string())], "its EXIT was dropped");
    }
}

preloaded_test! {
    /// Notes: "Enabling an id while a call is in flight gives an EXIT without ENTER; disabling
    /// mid-call gives an ENTER without EXIT."
    fn notes_enables_mid_call_give_unpaired_sites() {
        let _g = serial();
        SEEN.lock().unwrap().clear();
        let (_, h) = subscribe(Some(record_callback), 0);
        assert_eq!(enable_callback(h, RUNTIME, 9), R::MSPTI_SUCCESS);
        acl().set_device(0).unwrap();
        let stream = acl().create_stream().unwrap();
        let kernel = acl().kernel("kernels.o", "long_kernel").unwrap();
        for on in [false, true] {
            acl().launch(kernel, 25_000, stream).unwrap(); // 500 ms of device time
            let before = SEEN.lock().unwrap().len();
            let started = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let s = std::sync::Arc::clone(&started);
            let syncing = std::thread::spawn(move || {
                s.store(true, SeqCst);
                acl().synchronize_stream(stream).unwrap()
            });
            assert!(wait_for(10, || started.load(SeqCst)));
            std::thread::sleep(Duration::from_millis(100));
            // SAFETY: plain values.
            unsafe { lib().msptiEnableCallback(u32::from(on), h, msptiCallbackDomain(RUNTIME), 9) }.unwrap();
            syncing.join().unwrap();
            let sites: Vec<u32> = SEEN.lock().unwrap()[before..].iter().map(|s| s.0).collect();
            if on {
                assert_eq!(sites, [EXIT], "switched on mid-call: EXIT without ENTER");
            } else {
                assert_eq!(sites, [ENTER], "switched off mid-call: ENTER without EXIT");
            }
        }
        unsubscribe(h);
    }
}

// ---------------------------------------------------------------- records and their production

preloaded_test! {
    /// Notes: "API-family records (kinds API 3, ACL_API 10, NODE_API 11, RUNTIME_API 12) and MARKER
    /// records are produced only while a subscriber exists ...; after msptiUnsubscribe they stop,
    /// while memory/memcpy/memset records continue." (KERNEL records too, seen since.)
    fn notes_api_marker_and_kernel_records_only_while_subscribed() {
        let _g = serial();
        register_buffers(1 << 16);
        for k in [1, 2, 3, 5, 6, 7, 10, 11, 12] {
            assert_eq!(activity_enable(K(k)), R::MSPTI_SUCCESS, "kind {k}");
        }
        let stream = acl().create_stream().unwrap();
        let kernel = acl().kernel("kernels.o", "add_custom").unwrap();
        let round = |tag: &str| {
            // The runtime tells the profiling library about the device at aclrtSetDevice; MSPTI
            // listens only while subscribed, so a round sets it again.
            acl().set_device(0).unwrap();
            let p = acl().malloc(64).unwrap();
            acl().memset(p, 0, 64).unwrap();
            let h = acl().malloc_host(64).unwrap();
            acl().memcpy(h, p, 64, MemcpyKind::DeviceToHost).unwrap();
            acl().launch(kernel, 1, stream).unwrap();
            acl().synchronize_stream(stream).unwrap();
            assert!(acl().mark(tag));
            acl().free(p).unwrap();
        };
        let kinds_of_round = |round_fn: &dyn Fn()| {
            COMPLETED.lock().unwrap().clear();
            round_fn();
            std::thread::sleep(Duration::from_millis(100)); // the device channel's reader
            flush_all();
            let mut k = kinds_in(&all_completed_bytes());
            k.sort_unstable();
            k.dedup();
            k
        };
        assert_eq!(kinds_of_round(&|| round("before")), [5, 6, 7], "no subscriber: memory records only");
        let (_, h) = subscribe(None, 0);
        assert_eq!(kinds_of_round(&|| round("during")), [1, 2, 3, 5, 6, 7, 10, 11, 12], "subscribed: all");
        assert_eq!(unsubscribe(h), R::MSPTI_SUCCESS);
        assert_eq!(kinds_of_round(&|| round("after")), [5, 6, 7], "after unsubscribe: memory records only");
    }
}

preloaded_test! {
    /// Notes: "aclrt* calls report ACL_API; launches report RUNTIME_API, NODE_API and API, the last two
    /// named by the operator."
    fn notes_which_kinds_each_call_reports() {
        let _g = serial();
        register_buffers(1 << 16);
        let (_, h) = subscribe(None, 0);
        for k in [3, 10, 11, 12] {
            activity_enable(K(k));
        }
        acl().set_device(0).unwrap();
        let stream = acl().create_stream().unwrap();
        let kernel = acl().kernel("kernels.o", "matmul_custom").unwrap();
        flush_all();
        COMPLETED.lock().unwrap().clear();
        let p = acl().malloc(64).unwrap();
        acl().launch(kernel, 1, stream).unwrap();
        flush_all();
        let got: Vec<(u32, String)> = api_records().into_iter().map(|r| (r.0, r.1)).collect();
        assert_eq!(
            got,
            [
                (10, "aclrtMalloc".to_string()),
                (12, "KernelLaunch".into()),
                (11, "matmul_custom".into()),
                (3, "matmul_custom".into()),
                (10, "aclrtLaunchKernel".into())
            ]
        );
        acl().free(p).unwrap();
        unsubscribe(h);
    }
}

preloaded_test! {
    /// Notes: "Correlation ids advance only for launch and memory calls; aclrtSetDevice, stream
    /// creation and destroy calls carry 0 or the previous id."
    fn notes_correlation_ids_advance_only_for_launches_and_memory_calls() {
        let _g = serial();
        register_buffers(1 << 16);
        let (_, h) = subscribe(None, 0);
        activity_enable(K::MSPTI_ACTIVITY_KIND_ACL_API);
        activity_enable(K::MSPTI_ACTIVITY_KIND_KERNEL);
        // A thread of its own: its first calls carry 0.
        let ids = std::thread::spawn(|| {
            acl().set_device(0).unwrap();
            let s = acl().create_stream().unwrap();
            let k = acl().kernel("kernels.o", "add_custom").unwrap();
            let p = acl().malloc(64).unwrap();
            acl().launch(k, 1, s).unwrap();
            acl().destroy_stream(s).unwrap();
            acl().free(p).unwrap();
        });
        ids.join().unwrap();
        flush_all();
        let recs = api_records();
        let corr = |name: &str| recs.iter().find(|r| r.1 == name).unwrap_or_else(|| panic!("{name}: {recs:?}")).2;
        assert_eq!(corr("aclrtSetDevice"), 0, "no id before the thread's first launch or memory call");
        assert_eq!(corr("aclrtCreateStream"), 0);
        let malloc = corr("aclrtMalloc");
        assert_ne!(malloc, 0, "a memory call advances");
        let launch = corr("aclrtLaunchKernel");
        assert!(launch > malloc, "a launch advances ({launch} > {malloc})");
        assert_eq!(corr("aclrtDestroyStream"), launch, "a destroy carries the previous id");
        assert!(corr("aclrtFree") > launch, "a free advances");
        unsubscribe(h);
    }
}

preloaded_test! {
    /// Notes: "Timestamps are CLOCK_REALTIME nanoseconds (Unix epoch)."
    fn notes_timestamps_are_unix_epoch_nanoseconds() {
        let _g = serial();
        register_buffers(1 << 16);
        let (_, h) = subscribe(None, 0);
        for k in [1, 2, 5, 10] {
            activity_enable(K(k));
        }
        let now = || SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos() as u64;
        let before = now();
        acl().set_device(0).unwrap();
        let stream = acl().create_stream().unwrap();
        let kernel = acl().kernel("kernels.o", "add_custom").unwrap();
        let p = acl().malloc(64).unwrap();
        acl().launch(kernel, 1, stream).unwrap();
        acl().synchronize_stream(stream).unwrap();
        acl().mark("now");
        std::thread::sleep(Duration::from_millis(100));
        flush_all();
        let after = now();
        let b = all_completed_bytes();
        let mut stamps = Vec::new();
        for (k, at) in records_in(&b) {
            match k {
                1 => stamps.push(read_record::<rec::msptiActivityMarker>(&b[at..]).unwrap().timestamp),
                2 => {
                    let r: rec::msptiActivityKernel = read_record(&b[at..]).unwrap();
                    stamps.extend([r.start, r.end]);
                }
                5 => {
                    let r: rec::msptiActivityMemory = read_record(&b[at..]).unwrap();
                    stamps.extend([r.start, r.end]);
                }
                10 => {
                    let r: rec::msptiActivityApi = read_record(&b[at..]).unwrap();
                    stamps.extend([r.start, r.end]);
                }
                _ => {}
            }
        }
        assert!(stamps.len() >= 8, "{stamps:?}");
        for t in stamps {
            assert!((before..=after).contains(&t), "{t} is not between {before} and {after} (Unix-epoch ns)");
        }
        acl().free(p).unwrap();
        unsubscribe(h);
    }
}

preloaded_test! {
    /// Notes: "Markers: mstxMarkA goes to domain 'default'; disabling 'default' drops those marks; a
    /// marker name of 255 bytes or more is refused (1)."
    fn notes_marks_go_to_the_default_domain_and_names_are_limited_to_254_bytes() {
        let _g = serial();
        register_buffers(1 << 16);
        let (_, h) = subscribe(None, 0);
        activity_enable(K::MSPTI_ACTIVITY_KIND_MARKER);
        assert!(acl().mark("first"));
        acl().mark(&"x".repeat(254));
        acl().mark(&"y".repeat(255));
        let name = |s: &str| CString::new(s).unwrap();
        let long = name(&"d".repeat(255));
        let fits = name(&"d".repeat(254));
        // SAFETY: NUL-terminated names.
        unsafe {
            assert_eq!(lib().msptiActivityDisableMarkerDomain(long.as_ptr()), Ok(R::MSPTI_ERROR_INVALID_PARAMETER));
            assert_eq!(lib().msptiActivityEnableMarkerDomain(long.as_ptr()), Ok(R::MSPTI_ERROR_INVALID_PARAMETER));
            assert_eq!(lib().msptiActivityDisableMarkerDomain(fits.as_ptr()), Ok(R::MSPTI_SUCCESS));
            assert_eq!(lib().msptiActivityDisableMarkerDomain(c"default".as_ptr()), Ok(R::MSPTI_SUCCESS));
        }
        acl().mark("dropped");
        // SAFETY: a NUL-terminated name.
        unsafe { lib().msptiActivityEnableMarkerDomain(c"default".as_ptr()) }.unwrap();
        acl().mark("last");
        flush_all();
        let marks = marker_records();
        let names: Vec<usize> = marks.iter().map(|m| m.0.len()).collect();
        assert_eq!(names, [5, 254, 4], "the 255-byte message and the mark of the disabled domain are dropped");
        assert!(marks.iter().all(|m| m.1 == "default"), "{marks:?}");
        unsubscribe(h);
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn unsubscribe_neither_disables_kinds_nor_flushes() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        register_buffers(4096);
        let (_, h) = subscribe(None, 0);
        assert_eq!(activity_enable(K::MSPTI_ACTIVITY_KIND_KERNEL), R::MSPTI_SUCCESS);
        mock().kernel(1, 2, 0, 0, 1, "AI_CORE", "k1");
        assert_eq!(unsubscribe(h), R::MSPTI_SUCCESS);
        // SAFETY: plain value.
        assert_eq!(unsafe { lib().msptiActivityIsEnabled(K::MSPTI_ACTIVITY_KIND_KERNEL) }, Ok(true));
        std::thread::sleep(Duration::from_millis(50));
        assert!(COMPLETED.lock().unwrap().is_empty(), "nothing flushed");
        mock().kernel(3, 4, 0, 0, 2, "AI_CORE", "k2");
        assert_eq!(flush_all(), R::MSPTI_SUCCESS);
        assert_eq!(kinds_in(&all_completed_bytes()), vec![2, 2], "both written records come back");
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn records_are_written_packed_at_the_gcc_offsets() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        register_buffers(4096);
        for k in 1..=12 {
            assert_eq!(activity_enable(K(k)), R::MSPTI_SUCCESS, "kind {k}");
        }
        let m = mock();
        m.api_record(10, 100, 200, 7, 8, 9, "aclopCompile");
        m.kernel(300, 400, 1, 2, 3, "AI_CORE", "matmul");
        m.marker(1, 0, 500, 11, 12, 13, "mark", Some("dom"));
        m.hccl(600, 700, 3, 4, 12.5, "hcclAllReduce", "comm0");
        m.memory(0, 1, 5, 800, 900, 0xdead_beef, 4096, 14, 5, 6);
        m.memset(0xAB, 256, 1000, 1100, 6, 7, 15, 1);
        m.memcpy(2, 512, 1200, 1300, 7, 8, 16, 0);
        m.communication(4, 1000, 8, 9, 1400, 1500, "ring", "allreduce", "comm1", 17);
        m.raw_record(&[8u8, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0, 0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(flush_all(), R::MSPTI_SUCCESS);
        let b = all_completed_bytes();
        assert_eq!(kinds_in(&b), vec![10, 2, 1, 4, 5, 6, 7, 9, 8]);
        assert_eq!(b.len(), 48 + 56 + 56 + 56 + 64 + 56 + 56 + 72 + 24, "gcc sizes");
        let u32_at = |o: usize| u32::from_ne_bytes(b[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_ne_bytes(b[o..o + 8].try_into().unwrap());
        // Api at 0: start 4, end 12, pid 20, tid 24, corr 28.
        assert_eq!((u64_at(4), u64_at(12), u32_at(20), u32_at(24), u64_at(28)), (100, 200, 7, 8, 9));
        let api: rec::msptiActivityApi = read_record(&b[0..]).unwrap();
        assert_eq!(({ api.start }, { api.end }, { api.pt.threadId }, { api.correlationId }), (100, 200, 8, 9));
        // Kernel at 48: ds 20/24, corr 28.
        let k: rec::msptiActivityKernel = read_record(&b[48..]).unwrap();
        assert_eq!(
            ({ k.start }, { k.end }, { k.ds.deviceId }, { k.ds.streamId }, { k.correlationId }),
            (300, 400, 1, 2, 3)
        );
        assert_eq!((u32_at(48 + 20), u64_at(48 + 28)), (1, 3));
        // Marker at 104: flag 4, sourceKind 8, timestamp 12, id 20, objectId 28.
        let mk: rec::msptiActivityMarker = read_record(&b[104..]).unwrap();
        assert_eq!(({ mk.flag.0 }, { mk.sourceKind.0 }, { mk.timestamp }, { mk.id }), (1, 0, 500, 11));
        assert_eq!((u32_at(104 + 28), u32_at(104 + 32)), (12, 13));
        // Hccl at 160: bandWidth (f64) at 28.
        let h: rec::msptiActivityHccl = read_record(&b[160..]).unwrap();
        assert_eq!(({ h.bandWidth }, { h.ds.deviceId }), (12.5, 3));
        assert_eq!(f64::from_ne_bytes(b[160 + 28..160 + 36].try_into().unwrap()), 12.5);
        // Memory at 216.
        let mem: rec::msptiActivityMemory = read_record(&b[216..]).unwrap();
        assert_eq!(
            ({ mem.correlationId }, { mem.address }, { mem.bytes }, { mem.processId }, { mem.streamId }),
            (5, 0xdead_beef, 4096, 14, 6)
        );
        assert_eq!(u64_at(216 + 36), 0xdead_beef);
        // Memset at 280, memcpy at 336.
        let ms: rec::msptiActivityMemset = read_record(&b[280..]).unwrap();
        assert_eq!(({ ms.value }, { ms.bytes }, { ms.correlationId }, { ms.isAsync }), (0xAB, 256, 15, 1));
        let mc: rec::msptiActivityMemcpy = read_record(&b[336..]).unwrap();
        assert_eq!(
            ({ mc.copyKind.0 }, { mc.bytes }, { mc.deviceId }, { mc.correlationId }, { mc.isAsync }),
            (2, 512, 7, 16, 0)
        );
        assert_eq!(b[336 + 48], 0);
        // Communication at 392.
        let c: rec::msptiActivityCommunication = read_record(&b[392..]).unwrap();
        assert_eq!(
            ({ c.dataType.0 }, { c.count }, { c.ds.streamId }, { c.start }, { c.correlationId }),
            (4, 1000, 9, 1400, 17)
        );
        assert_eq!(u64_at(392 + 64), 17);
        // External correlation at 464.
        let e: rec::msptiActivityExternalCorrelation = read_record(&b[464..]).unwrap();
        assert_eq!(({ e.externalKind.0 }, { e.externalId }, { e.correlationId }), (2, 42, 17));
    }
}

fn bytes_of(words: &mut [u64]) -> &mut [u8] {
    // SAFETY: u64s reinterpreted as their bytes; same allocation, u8 has no alignment needs.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), words.len() * 8) }
}

preloaded_test! {
    /// Also the notes: "msptiActivityGetNextRecord stops at an unknown kind with 999 and its cursor
    /// stays stuck there for the next buffer."
    fn get_next_record_cursor_is_per_thread_ignores_the_buffer_and_sticks_at_unknown_kinds() {
        let _g = serial();
        let counted = support::mock_if_any().map(|m| m.counter("next_record_calls"));
        // Two buffers of two API records each (48 bytes apiece).
        let mut a = vec![0u64; 12];
        let mut b = vec![0u64; 12];
        for buf in [&mut a, &mut b] {
            let bytes = bytes_of(buf);
            bytes[0] = 3;
            bytes[48] = 3;
        }
        let (pa, pb) = (a.as_mut_ptr().cast::<u8>(), b.as_mut_ptr().cast::<u8>());
        let next = |buf: *mut u8| {
            let mut rec: *mut mspti_sys::msptiActivity = null_mut();
            // SAFETY: both buffers hold 96 valid bytes.
            let r = unsafe { lib().msptiActivityGetNextRecord(buf, 96, &mut rec) }.expect("exported");
            (r, rec as usize)
        };
        assert_eq!(next(pa), (R::MSPTI_SUCCESS, pa as usize));
        assert_eq!(next(pb), (R::MSPTI_SUCCESS, pb as usize + 48), "B's walk starts where A's stopped");
        assert_eq!(next(pa).0, R::MSPTI_ERROR_MAX_LIMIT_REACHED, "and A's walk is over");
        // On another thread the cursor is its own.
        let pa2 = pa as usize;
        std::thread::spawn(move || {
            let mut rec: *mut mspti_sys::msptiActivity = null_mut();
            // SAFETY: as above; the buffer outlives the thread (joined).
            let r = unsafe { lib().msptiActivityGetNextRecord(pa2 as *mut u8, 96, &mut rec) };
            assert_eq!((r, rec as usize), (Ok(R::MSPTI_SUCCESS), pa2));
        })
        .join()
        .unwrap();
        // An unknown kind in the second record stops the walk with INNER, and the cursor stays.
        bytes_of(&mut a)[48] = 99;
        assert_eq!(next(pa), (R::MSPTI_SUCCESS, pa as usize));
        assert_eq!(next(pa).0, R::MSPTI_ERROR_INNER);
        assert_eq!(next(pb).0, R::MSPTI_SUCCESS, "B's record at 48 is read, as the cursor is stuck at 48");
        bytes_of(&mut b)[48] = 99;
        assert_eq!(next(pb).0, R::MSPTI_ERROR_MAX_LIMIT_REACHED);
        assert_eq!(next(pb).0, R::MSPTI_SUCCESS, "from 0 again");
        assert_eq!(next(pb).0, R::MSPTI_ERROR_INNER, "stuck at B's unknown kind");
        assert_eq!(next(pb).0, R::MSPTI_ERROR_INNER, "and it stays stuck");
        if let (Some(before), Some(m)) = (counted, support::mock_if_any()) {
            assert_eq!(m.counter("next_record_calls") - before, 11);
        }
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn request_runs_on_the_producing_thread_and_calling_mspti_from_it_is_caught() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        register_buffers(4096);
        activity_enable(K::MSPTI_ACTIVITY_KIND_KERNEL);
        REENTER_FROM_REQUEST.store(1, SeqCst);
        let producer = std::thread::spawn(|| {
            mock().kernel(1, 2, 0, 0, 1, "AI_CORE", "k");
            std::thread::current().id()
        })
        .join()
        .unwrap();
        assert_eq!(REQUEST_THREADS.lock().unwrap().as_slice(), &[producer], "requested on the producing thread");
        assert_eq!(REENTRY_RESULT.load(SeqCst), 999, "refused instead of deadlocking");
        assert_eq!(mock().counter("reentrant_calls"), 1);
        flush_all();
    }
}

preloaded_test! {
    /// Notes: "A declined buffer is completed as NULL with whatever size the client wrote into
    /// *size; with size 0, every lost record gets its own request, NULL completion and thread."
    fn notes_declined_buffers_come_back_with_the_size_the_client_wrote() {
        let _g = serial();
        register_buffers(4096);
        activity_enable(K::MSPTI_ACTIVITY_KIND_MEMORY);
        // Declined with size 0: each record asks again, and each lost one comes back as NULL on a
        // thread of its own.
        DECLINE_NEXT.store(3, SeqCst);
        DECLINED_SIZE.store(0, SeqCst);
        for _ in 0..4 {
            acl().malloc(16).unwrap();
        }
        assert!(wait_for(10, || COMPLETED.lock().unwrap().iter().filter(|c| c.null).count() == 3));
        flush_all();
        {
            let done = COMPLETED.lock().unwrap();
            let nulls: Vec<&Completed> = done.iter().filter(|c| c.null).collect();
            assert!(nulls.iter().all(|c| c.size == 0 && c.bytes.is_empty()), "NULL/0/0");
            let mut threads: Vec<_> = nulls.iter().map(|c| c.thread).collect();
            threads.sort_by_key(|t| format!("{t:?}"));
            threads.dedup();
            assert_eq!(threads.len(), 3, "a thread per lost record");
            assert!(!threads.contains(&std::thread::current().id()));
            assert_eq!(REQUEST_THREADS.lock().unwrap().len(), 4, "a request per record, then a buffer");
            assert_eq!(done.iter().map(|c| kinds_in(&c.bytes).len()).sum::<usize>(), 1, "the fourth is kept");
        }
        // Declined with a size written: the records after it are lost without asking again, and
        // the buffer comes back as NULL with that size.
        register_buffers(4096);
        DECLINE_NEXT.store(1, SeqCst);
        DECLINED_SIZE.store(4096, SeqCst);
        for _ in 0..3 {
            acl().malloc(16).unwrap();
        }
        assert_eq!(flush_all(), R::MSPTI_SUCCESS);
        let done = COMPLETED.lock().unwrap();
        assert_eq!(REQUEST_THREADS.lock().unwrap().len(), 1, "asked once");
        assert_eq!(done.len(), 1);
        assert!(done[0].null && done[0].bytes.is_empty());
        assert_eq!(done[0].size, 4096, "with the size the client wrote");
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn full_buffers_complete_on_a_new_thread_each_concurrently() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        register_buffers(256); // 80% of 256: the fifth 56-byte kernel starts a new buffer
        activity_enable(K::MSPTI_ACTIVITY_KIND_KERNEL);
        WAIT_FOR_CONCURRENT.store(1, SeqCst);
        for i in 0..20 {
            mock().kernel(i, i + 1, 0, 0, i, "AI_CORE", "k");
        }
        // Wait for the full buffers' completion threads (not a flush).
        assert!(wait_for(10, || COMPLETED.lock().unwrap().len() >= 4));
        WAIT_FOR_CONCURRENT.store(0, SeqCst);
        assert_eq!(flush_all(), R::MSPTI_SUCCESS);
        let done = COMPLETED.lock().unwrap();
        let me = std::thread::current().id();
        let full: Vec<&Completed> = done.iter().filter(|c| c.thread != me).collect();
        assert!(full.len() >= 4, "full buffers completed off the producing thread: {}", full.len());
        let mut threads: Vec<_> = full.iter().map(|c| c.thread).collect();
        threads.sort_by_key(|t| format!("{t:?}"));
        threads.dedup();
        assert_eq!(threads.len(), full.len(), "one new thread per buffer");
        assert_eq!(SAW_CONCURRENT.load(SeqCst), 1, "two completions were inside the callback at once");
        let kernels: usize = done.iter().map(|c| kinds_in(&c.bytes).len()).sum();
        assert_eq!(kernels, 20);
    }
}

preloaded_test! {
    /// Notes: "msptiActivityFlushAll completes the partial buffer on the calling thread;
    /// FlushPeriod hands back only buffers at least 80% full."
    fn notes_flush_all_completes_the_partial_buffer_and_flush_period_only_full_ones() {
        let _g = serial();
        register_buffers(4096);
        activity_enable(K::MSPTI_ACTIVITY_KIND_MEMORY);
        acl().malloc(16).unwrap();
        assert!(COMPLETED.lock().unwrap().is_empty());
        assert_eq!(flush_all(), R::MSPTI_SUCCESS);
        {
            let done = COMPLETED.lock().unwrap();
            assert_eq!(done.len(), 1, "completed before FlushAll returned");
            assert_eq!(done[0].thread, std::thread::current().id(), "on the flushing thread");
            assert_eq!(kinds_in(&done[0].bytes), vec![5]);
            assert_eq!(done[0].size, 4096);
        }
        // Periodic flushing: a partial buffer never comes back by it, a full one does.
        register_buffers(640); // 80% of 640 is 512: the ninth 64-byte record fills it
        // SAFETY: plain value.
        assert_eq!(unsafe { lib().msptiActivityFlushPeriod(10) }, Ok(R::MSPTI_SUCCESS));
        for _ in 0..3 {
            acl().malloc(16).unwrap();
        }
        std::thread::sleep(Duration::from_millis(300));
        assert!(COMPLETED.lock().unwrap().is_empty(), "30 periods, the partial buffer stays");
        for _ in 0..5 {
            acl().malloc(16).unwrap();
        }
        std::thread::sleep(Duration::from_millis(300));
        assert!(COMPLETED.lock().unwrap().is_empty(), "512 of 640 bytes: not yet handed back");
        acl().malloc(16).unwrap(); // finds it 80% full: it goes, and a new one is asked for
        assert!(wait_for(10, || COMPLETED.lock().unwrap().len() == 1), "the full buffer, by the period");
        assert_eq!(kinds_in(&COMPLETED.lock().unwrap()[0].bytes).len(), 8);
        // SAFETY: plain value.
        unsafe { lib().msptiActivityFlushPeriod(0) }.unwrap();
        flush_all();
        assert_eq!(kinds_in(&COMPLETED.lock().unwrap()[1].bytes).len(), 1, "the rest, by FlushAll");
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn flush_period_zero_disables() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        // SAFETY: plain values.
        unsafe {
            assert_eq!(lib().msptiActivityFlushPeriod(50), Ok(R::MSPTI_SUCCESS));
            assert_eq!(mock().counter("flush_period_ms"), 50);
            assert_eq!(lib().msptiActivityFlushPeriod(0), Ok(R::MSPTI_SUCCESS));
        }
        assert_eq!(mock().counter("flush_period_ms"), 0);
    }
}

preloaded_test! {
    fn external_correlation_is_one_stack_per_kind_for_the_whole_process() {
        let _g = serial();
        let k0 = msptiExternalCorrelationKind::MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
        let pop = |k| {
            let mut id = 0;
            // SAFETY: a valid out-pointer.
            let r = unsafe { lib().msptiActivityPopExternalCorrelationId(k, &mut id) }.expect("exported");
            (r, id)
        };
        assert_eq!(pop(k0).0, R::MSPTI_ERROR_QUEUE_EMPTY);
        // SAFETY: NULL on purpose.
        let r = unsafe { lib().msptiActivityPopExternalCorrelationId(k0, null_mut()) };
        assert_eq!(r, Ok(R::MSPTI_ERROR_INVALID_PARAMETER));
        std::thread::spawn(move || {
            // SAFETY: plain values.
            unsafe { lib().msptiActivityPushExternalCorrelationId(k0, 7) }.unwrap();
        })
        .join()
        .unwrap();
        // SAFETY: plain values.
        unsafe { lib().msptiActivityPushExternalCorrelationId(k0, 8) }.unwrap();
        register_buffers(4096);
        let (_, h) = subscribe(None, 0);
        activity_enable(K::MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
        activity_enable(K::MSPTI_ACTIVITY_KIND_ACL_API);
        acl().set_device(0).unwrap(); // no new correlation id: no external record
        let p = acl().malloc(16).unwrap(); // a new one: an external record for it
        flush_all();
        let b = all_completed_bytes();
        assert_eq!(kinds_in(&b), vec![10, 8, 10], "ACL record, then the new id's external record, then its ACL record");
        let e: rec::msptiActivityExternalCorrelation = read_record(&b[48..]).unwrap();
        let malloc: rec::msptiActivityApi = read_record(&b[48 + 24..]).unwrap();
        assert_eq!(({ e.externalId }, { e.correlationId }), (8, { malloc.correlationId }));
        assert_eq!(pop(k0), (R::MSPTI_SUCCESS, 8), "popped here, pushed there");
        assert_eq!(pop(k0), (R::MSPTI_SUCCESS, 7));
        assert_eq!(pop(k0).0, R::MSPTI_ERROR_QUEUE_EMPTY);
        acl().free(p).unwrap();
        unsubscribe(h);
    }
}

preloaded_test! {
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn disabled_kinds_and_marker_domains_are_not_recorded() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        register_buffers(4096);
        activity_enable(K::MSPTI_ACTIVITY_KIND_MARKER);
        let name = std::ffi::CString::new("quiet").unwrap();
        // SAFETY: a NUL-terminated name.
        unsafe { lib().msptiActivityDisableMarkerDomain(name.as_ptr()) }.unwrap();
        // SAFETY: NULL on purpose.
        let r = unsafe { lib().msptiActivityEnableMarkerDomain(std::ptr::null()) };
        assert_eq!(r, Ok(R::MSPTI_ERROR_INVALID_PARAMETER));
        mock().marker(1, 0, 1, 1, 1, 1, "a", Some("quiet"));
        mock().marker(1, 0, 2, 2, 1, 1, "b", Some("loud"));
        mock().kernel(1, 2, 0, 0, 1, "AI_CORE", "not enabled");
        // SAFETY: plain values.
        unsafe {
            assert_eq!(lib().msptiActivityEnable(K(0)), Ok(R::MSPTI_ERROR_INVALID_PARAMETER));
            assert_eq!(lib().msptiActivityEnable(K(13)), Ok(R::MSPTI_ERROR_INVALID_PARAMETER));
            assert_eq!(lib().msptiActivityDisable(K(99)), Ok(R::MSPTI_ERROR_INVALID_PARAMETER));
        }
        flush_all();
        assert_eq!(kinds_in(&all_completed_bytes()), vec![1], "only the loud marker");
    }
}

/// Notes: "msptiActivityIsEnabled(kind) indexes an array without a bound check: a kind >= 13 reads
/// out of bounds (garbage or SIGSEGV)." The mock aborts, loudly.
#[test]
fn notes_is_enabled_out_of_range_reads_out_of_bounds() {
    if support::testing_another_library() {
        eprintln!("skipped: what a real library reads out of bounds is not predictable");
        return;
    }
    let out = run_child(
        "child_is_enabled_out_of_range",
        &[
            ("ASCEND_HOME_PATH", Some(MOCK_ASCEND_HOME)),
            ("LD_LIBRARY_PATH", Some(&format!("{MOCK_ASCEND_HOME}/lib64"))),
            ("MSPTI_LIBRARY_PATH", Some(MOCK_MSPTI)),
        ],
    );
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(out.status.signal(), Some(6), "{out:?}");
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("out of bounds"), "{out:?}");
}

#[test]
#[ignore = "run by notes_is_enabled_out_of_range_reads_out_of_bounds"]
fn child_is_enabled_out_of_range() {
    if !in_child() {
        return;
    }
    // SAFETY: in range.
    assert_eq!(unsafe { lib().msptiActivityIsEnabled(K(12)) }, Ok(false));
    // SAFETY: not: this is the undefined behaviour being played.
    let _ = unsafe { lib().msptiActivityIsEnabled(K(13)) };
    unreachable!("the mock aborts");
}

preloaded_test! {
    /// Notes: "Subscribing before aclInit works when MSPTI can open libprofapi itself."
    fn notes_subscribing_before_acl_init_works() {
        let _g = serial();
        register_buffers(4096);
        let acl = accelprof_mocks::ascend::Acl::load().unwrap();
        let (r, h) = subscribe(None, 0);
        assert_eq!(r, R::MSPTI_SUCCESS, "before aclInit");
        activity_enable(K::MSPTI_ACTIVITY_KIND_ACL_API);
        acl.init().unwrap();
        acl.set_device(0).unwrap();
        flush_all();
        let names: Vec<String> = api_records().into_iter().map(|r| r.1).collect();
        assert_eq!(names, ["aclrtSetDevice"], "the runtime's names, registered at aclInit, reached MSPTI");
        unsubscribe(h);
    }
}

preloaded_test! {
    /// Seen with the real library: the activity manager thread, started before its run flag is
    /// set, can exit at once; full buffers then come back only through FlushAll (the mock plays it
    /// on request).
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn a_lost_activity_manager_hands_back_full_buffers_only_at_flush_all() {
        let _g = serial();
        mock().lose_activity_manager(true);
        register_buffers(256);
        activity_enable(K::MSPTI_ACTIVITY_KIND_KERNEL);
        // SAFETY: plain value.
        unsafe { lib().msptiActivityFlushPeriod(10) }.unwrap();
        for i in 0..20 {
            mock().kernel(i, i + 1, 0, 0, i, "AI_CORE", "k");
        }
        std::thread::sleep(Duration::from_millis(300));
        assert!(COMPLETED.lock().unwrap().is_empty(), "no full buffer came back, periodic flush or not");
        assert!(mock().counter("queued_full") >= 3);
        assert_eq!(flush_all(), R::MSPTI_SUCCESS);
        let done = COMPLETED.lock().unwrap();
        assert!(done.iter().all(|c| c.thread == std::thread::current().id()), "all on the flushing thread");
        assert_eq!(done.iter().map(|c| kinds_in(&c.bytes).len()).sum::<usize>(), 20);
    }
}

/// Defect: the CANN stand-ins did not drive the real `libmspti.so` as the README says: their
/// `libc_sec.so` lacked `memset_s` and `sprintf_s`, which the real library imports (besides
/// `memcpy_s`). Each is there and behaves as securec's; `sprintf_s` is called as the real library
/// calls it (variadic, its log prefix).
#[test]
fn the_libc_sec_stand_in_has_what_the_real_library_imports() {
    use std::ffi::{c_char, CStr};
    let path = Path::new(&support::ascend_home()).join("lib64/libc_sec.so");
    // SAFETY: the stand-in (or the toolkit's securec library): no initialiser of consequence.
    let lib = unsafe { libloading::Library::new(&path) }.expect("libc_sec.so");
    type MemsetS = unsafe extern "C" fn(*mut c_void, usize, i32, usize) -> i32;
    type SprintfS = unsafe extern "C" fn(*mut c_char, usize, *const c_char, ...) -> i32;
    // SAFETY: securec's functions, declared with their C signatures.
    let (memset_s, sprintf_s, _memcpy_s) = unsafe {
        (
            *lib.get::<MemsetS>(b"memset_s\0").expect("memset_s"),
            *lib.get::<SprintfS>(b"sprintf_s\0").expect("sprintf_s"),
            *lib.get::<*mut c_void>(b"memcpy_s\0").expect("memcpy_s"),
        )
    };
    let mut buf = [7u8; 16];
    // SAFETY: a 16-byte buffer.
    assert_eq!(unsafe { memset_s(buf.as_mut_ptr().cast(), 16, 0, 8) }, 0);
    assert_eq!(buf[..8], [0; 8]);
    assert_eq!(buf[8..], [7; 8]);
    // SAFETY: as above; count > destMax is refused (nonzero) after setting destMax bytes.
    assert_ne!(unsafe { memset_s(buf.as_mut_ptr().cast(), 16, 1, 32) }, 0);
    assert_eq!(buf, [1; 16]);
    let mut out = [0 as c_char; 128];
    let (file, fmt) = (c"activity_manager.cpp", c"Flush all activity buffer.");
    // SAFETY: the real library's call: a 128-byte buffer, its format, a string, an int, an
    // unsigned and a string.
    let n = unsafe {
        sprintf_s(
            out.as_mut_ptr(),
            out.len(),
            c"(mspti)[%s:%d] >>> (tid:%u) %s\n".as_ptr(),
            file.as_ptr(),
            283i32,
            4242u32,
            fmt.as_ptr(),
        )
    };
    let expected = "(mspti)[activity_manager.cpp:283] >>> (tid:4242) Flush all activity buffer.\n";
    // SAFETY: NUL-terminated by sprintf_s.
    assert_eq!(unsafe { CStr::from_ptr(out.as_ptr()) }.to_str().unwrap(), expected);
    assert_eq!(n, expected.len() as i32);
    // Too small: -1 and an empty string.
    // SAFETY: a 10-byte prefix of the buffer.
    let n = unsafe { sprintf_s(out.as_mut_ptr(), 10, c"%s".as_ptr(), fmt.as_ptr()) };
    assert_eq!(n, -1);
    assert_eq!(out[0], 0);
}
