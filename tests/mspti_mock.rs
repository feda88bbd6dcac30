//! The mock `libmspti.so` does what the vendor notes say the real one does, traps included.
//! These tests drive it through the raw `mspti-sys` table (no safe wrapper), so that what they
//! prove is the mock's behaviour, which the `mspti` crate's tests then rely on.

mod mspti_support;

use std::ffi::c_void;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use accel_profiling::{MOCK_ASCEND_HOME, MOCK_MSPTI};
use mspti_support::{
    assert_child_passed, in_child, mock, mspti, run_child, serial, ENTER, EXIT, HCCL, RUNTIME,
};
use mspti_sys::records::{self as rec, read_record};
use mspti_sys::{
    msptiActivityKind as K, msptiCallbackData, msptiCallbackDomain, msptiExternalCorrelationKind,
    msptiResult as R, msptiSubscriberHandle, MsptiFunctions,
};

fn lib() -> &'static MsptiFunctions {
    mspti().sys().functions()
}

// ---------------------------------------------------------------- raw callback plumbing

/// What the raw callback saw: (site, correlationData pointer, correlationId, functionParams,
/// userdata).
type Seen = (u32, usize, u64, usize, usize);
static SEEN: Mutex<Vec<Seen>> = Mutex::new(Vec::new());
static CALLS: AtomicU64 = AtomicU64::new(0);

unsafe extern "C" fn record_callback(
    userdata: *mut c_void,
    _domain: msptiCallbackDomain,
    _cbid: u32,
    data: *const msptiCallbackData,
) {
    CALLS.fetch_add(1, SeqCst);
    // SAFETY: reads the two fields MSPTI fills and the raw values (not targets) of the others.
    let d = unsafe { &*data };
    SEEN.lock().unwrap().push((
        d.callbackSite.0,
        d.correlationData as usize,
        d.correlationId,
        d.functionParams as usize,
        userdata as usize,
    ));
    if d.callbackSite.0 == ENTER {
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

// ---------------------------------------------------------------- raw buffer plumbing

static BUFFER_SIZE: AtomicUsize = AtomicUsize::new(4096);
static DECLINE_NEXT: AtomicUsize = AtomicUsize::new(0);
static REQUEST_THREADS: Mutex<Vec<std::thread::ThreadId>> = Mutex::new(Vec::new());
static REENTER_FROM_REQUEST: AtomicUsize = AtomicUsize::new(0);
static REENTRY_RESULT: AtomicU64 = AtomicU64::new(0);

/// One completed buffer: its bytes, (ptr, size, valid) and the completing thread.
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
            *size = 0;
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
    let mut at = 0;
    let mut kinds = Vec::new();
    while let Some(k) = rec::record_kind(&bytes[at..]) {
        kinds.push(k.0);
        let Some(size) = rec::record_size(k) else { break };
        at += size;
    }
    kinds
}

fn all_completed_bytes() -> Vec<u8> {
    COMPLETED.lock().unwrap().iter().flat_map(|c| c.bytes.clone()).collect()
}

// ---------------------------------------------------------------- tests

#[test]
fn exports_the_fifteen_functions() {
    let _g = serial();
    assert!(lib().missing().is_empty(), "{:?}", lib().missing());
    assert_eq!(mspti_sys::MsptiFunctions::SYMBOLS.len(), 15);
}

#[test]
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

#[test]
fn enable_accepts_any_cbid_below_64_and_succeeds_with_nothing_subscribed() {
    let _g = serial();
    assert_eq!(
        enable_callback(0x10 as msptiSubscriberHandle, RUNTIME, 5),
        R::MSPTI_SUCCESS,
        "not subscribed"
    );
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

#[test]
fn without_ld_preload_enabling_returns_6() {
    let out = run_child(
        "child_without_ld_preload",
        &[("LD_PRELOAD", None), ("ASCEND_HOME_PATH", Some(MOCK_ASCEND_HOME))],
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
    std::env::set_var("LD_PRELOAD", MOCK_MSPTI);
    assert_eq!(enable_domain(h, RUNTIME).0, 6);
}

#[test]
fn with_ld_preload_set_at_start_it_is_read_once() {
    // The child really preloads the mock (and so needs CANN at start-up).
    let out = run_child(
        "child_with_ld_preload",
        &[("LD_PRELOAD", Some(MOCK_MSPTI)), ("ASCEND_HOME_PATH", Some(MOCK_ASCEND_HOME))],
    );
    assert_child_passed(&out);
}

#[test]
#[ignore = "run by with_ld_preload_set_at_start_it_is_read_once"]
fn child_with_ld_preload() {
    if !in_child() {
        return;
    }
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

#[test]
fn loading_without_cann_aborts_the_process() {
    let out = run_child("child_load_without_cann", &[("ASCEND_HOME_PATH", None), ("LD_PRELOAD", None)]);
    assert!(!out.status.success());
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(out.status.signal(), Some(6), "SIGABRT: {out:?}");
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("process aborts"));
}

#[test]
#[ignore = "run by loading_without_cann_aborts_the_process"]
fn child_load_without_cann() {
    if !in_child() {
        return;
    }
    // Straight dlopen, no preflight: what a careless loader does.
    // SAFETY: this is expected to abort the process.
    let _lib = unsafe { libloading::Library::new(MOCK_MSPTI) };
    unreachable!("the constructor aborts");
}

#[test]
fn callback_fields_are_garbage_that_differs_between_enter_and_exit() {
    let _g = serial();
    SEEN.lock().unwrap().clear();
    let (_, h) = subscribe(Some(record_callback), 0xAB);
    assert_eq!(enable_callback(h, RUNTIME, 10), R::MSPTI_SUCCESS);
    mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", None);
    let seen = std::mem::take(&mut *SEEN.lock().unwrap());
    assert_eq!(seen.len(), 2);
    let (enter, exit) = (seen[0], seen[1]);
    assert_eq!((enter.0, exit.0), (ENTER, EXIT));
    assert_eq!((enter.4, exit.4), (0xAB, 0xAB), "userdata passed through");
    assert_ne!(enter.1, exit.1, "correlationData differs between ENTER and EXIT");
    assert_ne!(enter.2, exit.2, "correlationId differs");
    assert_ne!(enter.3, exit.3, "functionParams differs");
    assert_eq!(mock().counter("garbage_writes"), 1, "the write at ENTER went into garbage");
    unsubscribe(h);
}

#[test]
fn unsubscribe_does_not_wait_for_callbacks_in_flight() {
    let _g = serial();
    CALLS.store(0, SeqCst);
    SEEN.lock().unwrap().clear();
    let (_, h) = subscribe(Some(record_callback), 0x77);
    enable_domain(h, HCCL);
    let token = mock().stall_callback(HCCL, 1, ENTER, "HcclAllReduce");
    assert_ne!(token, 0);
    assert_eq!(unsubscribe(h), R::MSPTI_SUCCESS, "returns while a callback is in flight");
    assert_eq!(mock().release_stalled(token), 1);
    assert_eq!(CALLS.load(SeqCst), 1, "the callback ran after unsubscribe returned");
    assert_eq!(SEEN.lock().unwrap()[0].4, 0x77, "with the old userdata");
    mock().api_call(HCCL, 1, "HcclAllReduce", None);
    assert_eq!(CALLS.load(SeqCst), 1, "new calls do not fire");
}

#[test]
fn unsubscribe_neither_disables_kinds_nor_flushes() {
    let _g = serial();
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
    assert_eq!(kinds_in(&all_completed_bytes()), vec![2, 2], "both kernels, the second after unsubscribe");
}

#[test]
fn records_are_written_packed_at_the_gcc_offsets() {
    let _g = serial();
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

#[test]
fn get_next_record_cursor_is_per_thread_and_ignores_the_buffer() {
    let _g = serial();
    let before = mock().counter("next_record_calls");
    // Two buffers of two API records each (48 bytes apiece).
    let mut a = vec![0u64; 12];
    let mut b = vec![0u64; 12];
    for buf in [&mut a, &mut b] {
        let bytes: &mut [u8] = bytemuck_bytes(buf);
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
    // An unknown kind stops it with INNER.
    bytemuck_bytes(&mut a)[0] = 99;
    assert_eq!(next(pa).0, R::MSPTI_ERROR_INNER);
    assert_eq!(mock().counter("next_record_calls") - before, 5);
}

fn bytemuck_bytes(words: &mut [u64]) -> &mut [u8] {
    // SAFETY: u64s reinterpreted as their bytes; same allocation, u8 has no alignment needs.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), words.len() * 8) }
}

#[test]
fn request_runs_on_the_producing_thread_and_calling_mspti_from_it_is_caught() {
    let _g = serial();
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

#[test]
fn a_declined_buffer_loses_its_record_and_comes_back_as_null() {
    let _g = serial();
    register_buffers(4096);
    activity_enable(K::MSPTI_ACTIVITY_KIND_KERNEL);
    DECLINE_NEXT.store(1, SeqCst);
    for i in 0..3 {
        mock().kernel(i, i + 1, 0, 0, i, "AI_CORE", "k");
    }
    assert_eq!(flush_all(), R::MSPTI_SUCCESS);
    let done = COMPLETED.lock().unwrap();
    let nulls: Vec<&Completed> = done.iter().filter(|c| c.null).collect();
    assert_eq!(nulls.len(), 1, "the declined buffer is completed");
    assert_eq!((nulls[0].size, nulls[0].bytes.len()), (0, 0), "as NULL/0/0");
    let kernels: usize = done.iter().map(|c| kinds_in(&c.bytes).len()).sum();
    assert_eq!(kernels, 2, "the record that asked for it is lost");
    assert_eq!(mock().counter("dropped"), 1);
    assert_eq!(mock().counter("completed_null"), 1);
}

#[test]
fn full_buffers_complete_on_a_new_thread_each_concurrently() {
    let _g = serial();
    register_buffers(256); // 80% of 256: the fifth 56-byte kernel starts a new buffer
    activity_enable(K::MSPTI_ACTIVITY_KIND_KERNEL);
    WAIT_FOR_CONCURRENT.store(1, SeqCst);
    for i in 0..20 {
        mock().kernel(i, i + 1, 0, 0, i, "AI_CORE", "k");
    }
    // Wait for the full buffers' completion threads (not a flush).
    let deadline = Instant::now() + Duration::from_secs(10);
    while COMPLETED.lock().unwrap().len() < 4 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
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

#[test]
fn flush_all_is_synchronous_and_completes_the_partial_buffer() {
    let _g = serial();
    register_buffers(4096);
    activity_enable(K::MSPTI_ACTIVITY_KIND_KERNEL);
    mock().kernel(1, 2, 0, 0, 1, "AI_CORE", "k");
    assert!(COMPLETED.lock().unwrap().is_empty());
    assert_eq!(flush_all(), R::MSPTI_SUCCESS);
    let done = COMPLETED.lock().unwrap();
    assert_eq!(done.len(), 1, "completed before FlushAll returned");
    assert_eq!(done[0].thread, std::thread::current().id(), "on the flushing thread");
    assert_eq!(kinds_in(&done[0].bytes), vec![2]);
    assert_eq!(done[0].size, 4096);
}

#[test]
fn flush_period_zero_disables() {
    let _g = serial();
    // SAFETY: plain values.
    unsafe {
        assert_eq!(lib().msptiActivityFlushPeriod(50), Ok(R::MSPTI_SUCCESS));
        assert_eq!(mock().counter("flush_period_ms"), 50);
        assert_eq!(lib().msptiActivityFlushPeriod(0), Ok(R::MSPTI_SUCCESS));
    }
    assert_eq!(mock().counter("flush_period_ms"), 0);
}

#[test]
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
    activity_enable(K::MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
    activity_enable(K::MSPTI_ACTIVITY_KIND_API);
    let corr = mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", None);
    flush_all();
    let b = all_completed_bytes();
    assert_eq!(kinds_in(&b), vec![8, 3], "the external record precedes the API record");
    let e: rec::msptiActivityExternalCorrelation = read_record(&b).unwrap();
    assert_eq!(({ e.externalId }, { e.correlationId }), (8, corr));
    assert_eq!(pop(k0), (R::MSPTI_SUCCESS, 8), "popped here, pushed there");
    assert_eq!(pop(k0), (R::MSPTI_SUCCESS, 7));
    assert_eq!(pop(k0).0, R::MSPTI_ERROR_QUEUE_EMPTY);
}

#[test]
fn disabled_kinds_and_marker_domains_are_not_recorded() {
    let _g = serial();
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
        assert_eq!(lib().msptiActivityIsEnabled(K(13)), Ok(false));
    }
    flush_all();
    assert_eq!(kinds_in(&all_completed_bytes()), vec![1], "only the loud marker");
}
