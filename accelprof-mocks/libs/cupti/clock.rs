//! Time and identity as CUPTI reports them: `cuptiGetTimestamp` is CLOCK_REALTIME in ns (probed:
//! the real value lies between two `time.time_ns()` reads), API records carry the process id and
//! a thread id whose meaning `cuptiSetThreadIdType` selects (default: `pthread_self()` truncated
//! to 32 bits; SYSTEM: the kernel's tid).

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use crate::results::{INVALID_PARAMETER, SUCCESS};

extern "C" {
    fn pthread_self() -> usize;
    fn syscall(number: i64, ...) -> i64;
    fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    fn getpid() -> i32;
    fn pthread_atfork(
        prepare: Option<extern "C" fn()>,
        parent: Option<extern "C" fn()>,
        child: Option<extern "C" fn()>,
    ) -> i32;
}

/// `struct timespec` on 64-bit Linux.
#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

/// `CLOCK_REALTIME`.
const CLOCK_REALTIME: i32 = 0;

/// `SYS_gettid` on x86-64 and aarch64 Linux.
#[cfg(target_arch = "x86_64")]
const SYS_GETTID: i64 = 186;
#[cfg(target_arch = "aarch64")]
const SYS_GETTID: i64 = 178;

/// `CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT` (0) or `_SYSTEM` (1).
static THREAD_ID_TYPE: AtomicU32 = AtomicU32::new(0);

/// Nanoseconds since the Unix epoch (CLOCK_REALTIME); 0 before it. `clock_gettime` itself: std's
/// `SystemTime::now().duration_since(UNIX_EPOCH)` cost about 70 instructions more per reading, and a
/// launch reads the clock five times.
pub fn now() -> u64 {
    let mut t = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid clock id and a writable `struct timespec`.
    if unsafe { clock_gettime(CLOCK_REALTIME, &mut t) } != 0 || t.tv_sec < 0 {
        return 0;
    }
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Blocks until `now() >= t`: a blocking CUDA call returns only after the GPU work it waits for
/// has ended, so its API record (and `cuptiGetTimestamp` afterwards) is never earlier.
pub fn wait_until(t: u64) {
    loop {
        let n = now();
        if n >= t {
            return;
        }
        let left = t - n;
        if left > 200_000 {
            std::thread::sleep(Duration::from_nanos(left - 100_000));
        } else {
            std::hint::spin_loop();
        }
    }
}

/// The process id, read once per process: a launch stamps it on two API records, and `getpid` is a
/// system call each time (glibc keeps no copy), which made the mock's producer slower than the engine
/// it feeds. A fork's child reads its own (the fork handler below forgets the parent's; no test sees
/// it, as a fork's child gets no records: the worker thread that completes buffers is not in it, as
/// CUPTI's is not, and CUDA itself cannot be used in a fork's child).
static PROCESS_ID: AtomicU32 = AtomicU32::new(0);

std::thread_local! {
    /// The calling thread's kernel id, read once per thread (`gettid` is a system call); 0: not read.
    static SYSTEM_THREAD_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Registers, once, the fork handler that forgets the ids read in the parent.
fn forget_ids_in_a_fork_child() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        extern "C" fn child() {
            PROCESS_ID.store(0, Ordering::Relaxed);
            // The forking thread is the child's only thread: its copy of the parent thread's id goes.
            // (A `const` thread-local without a destructor: no allocation, safe in a fork's child.)
            SYSTEM_THREAD_ID.with(|id| id.set(0));
        }
        // SAFETY: a handler with no preconditions, registered once; it touches atomics and a
        // `const` thread-local only. Should registration fail, the ids are read on every call below.
        if unsafe { pthread_atfork(None, None, Some(child)) } != 0 {
            FORK_HANDLER_MISSING.store(true, Ordering::Relaxed);
        }
    });
}

/// Set when `pthread_atfork` failed: the ids are then never kept.
static FORK_HANDLER_MISSING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn process_id() -> u32 {
    let kept = PROCESS_ID.load(Ordering::Relaxed);
    if kept != 0 {
        return kept;
    }
    forget_ids_in_a_fork_child();
    // SAFETY: getpid takes no arguments and cannot fail.
    let pid = unsafe { getpid() } as u32;
    if !FORK_HANDLER_MISSING.load(Ordering::Relaxed) {
        PROCESS_ID.store(pid, Ordering::Relaxed);
    }
    pid
}

/// The kernel's id of the calling thread.
pub fn system_thread_id() -> u32 {
    let kept = SYSTEM_THREAD_ID.with(|id| id.get());
    if kept != 0 {
        return kept;
    }
    forget_ids_in_a_fork_child();
    // SAFETY: gettid takes no arguments and cannot fail.
    let tid = unsafe { syscall(SYS_GETTID) as u32 };
    if !FORK_HANDLER_MISSING.load(Ordering::Relaxed) {
        SYSTEM_THREAD_ID.with(|id| id.set(tid));
    }
    tid
}

/// The thread id API records carry, per `cuptiSetThreadIdType`.
pub fn record_thread_id() -> u32 {
    if THREAD_ID_TYPE.load(Ordering::Relaxed) == 1 {
        system_thread_id()
    } else {
        // SAFETY: pthread_self has no preconditions.
        unsafe { pthread_self() as u32 }
    }
}

pub fn reset() {
    THREAD_ID_TYPE.store(0, Ordering::Relaxed);
    TIMESTAMP_CALLBACK.store(0, Ordering::SeqCst);
    REGISTERED_AT.store(0, Ordering::SeqCst);
}

/// `CUpti_TimestampCallbackFunc`.
type TimestampFn = unsafe extern "C" fn() -> u64;

/// The clock `cuptiActivityRegisterTimestampCallback` set (0: CUPTI's own, CLOCK_REALTIME).
static TIMESTAMP_CALLBACK: AtomicUsize = AtomicUsize::new(0);
/// When it was registered, on CUPTI's own clock (0: never).
static REGISTERED_AT: AtomicU64 = AtomicU64::new(0);

/// When the timestamp callback was registered, on CUPTI's own clock (0: none is).
pub fn callback_registered_at() -> u64 {
    REGISTERED_AT.load(Ordering::SeqCst)
}

/// A host timestamp of a record (an API call's start and end), taken when the call happens: on the
/// registered callback's clock when one is registered, else CUPTI's own. CUPTI stamps host records at
/// the call (seen on the H200: API records of calls made before PyTorch's profiler registered its
/// clock kept CUPTI's own clock in buffers completed after it), and maps device times when a buffer
/// completes.
pub fn host_now() -> u64 {
    let cb = TIMESTAMP_CALLBACK.load(Ordering::SeqCst);
    if cb == 0 {
        return now();
    }
    // SAFETY: a non-zero value is the `TimestampFn` a client registered (it must stay callable).
    let cb = unsafe { std::mem::transmute::<usize, TimestampFn>(cb) };
    // SAFETY: as above.
    unsafe { cb() }
}

/// What to add to a record time written on CLOCK_REALTIME to put it on the registered callback's clock,
/// sampled now; `None` while none is registered.
pub fn callback_offset() -> Option<i128> {
    let cb = TIMESTAMP_CALLBACK.load(Ordering::SeqCst);
    if cb == 0 {
        return None;
    }
    // SAFETY: a non-zero value is the `TimestampFn` a client registered (it must stay callable).
    let cb = unsafe { std::mem::transmute::<usize, TimestampFn>(cb) };
    let real = now();
    // SAFETY: as above.
    let theirs = unsafe { cb() };
    Some(i128::from(theirs) - i128::from(real))
}

/// `cuptiActivityRegisterTimestampCallback`: process-wide, as in CUPTI (vendor notes, seen on an H200
/// with PyTorch's profiler): every buffer completed after it carries the callback's clock, every
/// client's, records of work done before it included (the mock maps a buffer's times when it hands it
/// back). Refused while a user-defined-record subscriber is live (13.3+), as the plain
/// `cuptiGetTimestamp` is; NULL is refused (stricter: what CUPTI does with NULL is not known).
#[no_mangle]
pub extern "C" fn cuptiActivityRegisterTimestampCallback(cb: Option<TimestampFn>) -> u32 {
    let Some(cb) = cb else { return INVALID_PARAMETER };
    if let Some(code) = crate::activity::v1_not_compatible() {
        return code;
    }
    REGISTERED_AT.store(now(), Ordering::SeqCst);
    TIMESTAMP_CALLBACK.store(cb as usize, Ordering::SeqCst);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetTimestamp(out: *mut u64) -> u32 {
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    if let Some(code) = crate::activity::v1_not_compatible() {
        return code;
    }
    // SAFETY: the caller passes a writable u64.
    unsafe { *out = now() };
    SUCCESS
}

#[no_mangle]
pub extern "C" fn cuptiSetThreadIdType(kind: u32) -> u32 {
    if kind > 1 {
        return INVALID_PARAMETER;
    }
    if let Some(code) = crate::activity::v1_refused() {
        return code;
    }
    set_thread_id_type(kind)
}

/// The thread id type API records carry (0 default, 1 system), for every sink.
pub fn set_thread_id_type(kind: u32) -> u32 {
    THREAD_ID_TYPE.store(kind, Ordering::Relaxed);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuptiGetThreadIdType(out: *mut u32) -> u32 {
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    // SAFETY: the caller passes a writable enum slot (a u32).
    unsafe { *out = THREAD_ID_TYPE.load(Ordering::Relaxed) };
    SUCCESS
}
