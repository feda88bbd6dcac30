//! The Ascend door: an ELF constructor.
//!
//! MSPTI has no tool-loading mechanism of its own, and it interposes the runtime's `aclrt*`/`Hccl*`
//! functions only when `libmspti.so` is preloaded. So the program is started with
//! `LD_PRELOAD=<toolkit>/lib64/libmspti.so:libaccelprof_inject.so` and `ACCELPROF_VENDOR=mspti`
//! (the launcher sets both), and this library's constructor, which runs before `main`, starts the
//! engine with [`Vendor::Mspti`] on the preloaded copy. The constructor does nothing unless
//! `ACCELPROF_VENDOR` names MSPTI *and* a `libmspti.so` is preloaded (named in `LD_PRELOAD`, its
//! functions in the global scope): the same library loaded by the CUDA driver or rocprofiler-sdk,
//! or preloaded into a program without MSPTI, stays quiet.
//!
//! Where it ends: an exit handler registered from a constructor runs inside the loader's `_dl_fini`
//! (the loader registers that after every constructor ran), in the libraries' finalization order, and
//! there libmspti's C++ singletons may already be destroyed: the real library then crashes in
//! `msptiUnsubscribe` (a double free, or SIGSEGV in `CallbackManager::UnInit`; docs/VENDOR-NOTES.md).
//! So the door also interposes ACL's `aclInit` and `aclFinalize` (forwarded to the next definition,
//! the runtime's): at `aclInit`, inside `main`, it registers the exit handler again (C `atexit`,
//! which now runs before `_dl_fini`, and Python's `Py_AtExit` in a Python program); at
//! `aclFinalize` it finishes the trace before the runtime ends. The constructor's handler stays as
//! the last resort of a program that never calls `aclInit` (finishing is idempotent).
//!
//! A program that never calls `aclFinalize`: even the handler registered at `aclInit` runs too late
//! on the real libmspti, whose parsers are function-local C++ statics made at the first kernel
//! launch, after `aclInit`; their destructors, registered then, run before it (exit handlers run
//! last-registered first), and MSPTI aborts (`std::system_error`) or hangs in the finish. What runs
//! at `exit` before every exit handler is the exiting thread's `thread_local` destructors (glibc's
//! `exit` runs them first). So the constructor (on the main thread, before `main`) also arms a
//! destructor of a main-thread `thread_local` that finishes: a program that returns from `main` or
//! calls `exit` is finished while libmspti is whole, whichever thread called `aclInit`. (A main
//! thread that ends with `pthread_exit` while other threads run on finishes the trace then: later
//! work is not traced.)

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering};

use accel_profiling::{Tracer, Vendor};

/// What the constructor does (also callable by a program that loaded this library itself).
pub fn start_if_asked() {
    crate::guarded("Ascend", || {
        let asked = std::env::var("ACCELPROF_VENDOR")
            .ok()
            .and_then(|v| v.trim().parse::<Vendor>().ok())
            .is_some_and(|v| v == Vendor::Mspti);
        if !asked {
            return;
        }
        if !mspti::preload::is_preloaded() {
            crate::say(&format!(
                "pid {}: ACCELPROF_VENDOR asks for MSPTI, but no libmspti.so is preloaded (LD_PRELOAD must name \
                 <toolkit>/lib64/libmspti.so before this library): not tracing",
                std::process::id()
            ));
            return;
        }
        if crate::start(Vendor::Mspti, "Ascend", Tracer::new) {
            STARTED.store(true, Ordering::SeqCst);
            crate::finish_at_exit(crate::When::BeforeMain);
            finish_before_exit_handlers();
        }
    });
}

extern "C" fn constructor() {
    start_if_asked();
}

/// Run by the dynamic loader when it loads this library (before `main` for a preloaded one).
#[used]
#[link_section = ".init_array"]
static CONSTRUCTOR: extern "C" fn() = constructor;

/// Whether the engine was started by the constructor (so `aclInit`/`aclFinalize` act).
static STARTED: AtomicBool = AtomicBool::new(false);
/// Whether the in-program exit handler was registered (once).
static IN_PROGRAM: AtomicBool = AtomicBool::new(false);

/// The next definition of `name` after this library (the runtime's `libascendcl.so`, or MSPTI's).
fn next(name: &CStr) -> *mut c_void {
    // SAFETY: a lookup by a NUL-terminated name; RTLD_NEXT from this library's code.
    unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) }
}

/// Finishes when the main thread's `thread_local`s are destroyed: at `exit` (or the return from
/// `main`), before any exit handler, so before libmspti's statics are destroyed.
struct FinishBeforeExitHandlers;

impl Drop for FinishBeforeExitHandlers {
    fn drop(&mut self) {
        crate::guarded("Ascend", crate::finish_bounded);
    }
}

thread_local! {
    static FINISH_BEFORE_EXIT_HANDLERS: FinishBeforeExitHandlers = const { FinishBeforeExitHandlers };
}

/// Arms [`FinishBeforeExitHandlers`] when called on the process's main thread (its thread id is
/// the process id; a library `dlopen`ed later may run its constructor on another).
fn finish_before_exit_handlers() {
    // SAFETY: gettid takes no argument and cannot fail.
    let tid = unsafe { libc::syscall(libc::SYS_gettid) };
    if tid == libc::c_long::from(std::process::id() as libc::pid_t) {
        // Touching it registers its destructor (on the C library's list for this thread's exit).
        FINISH_BEFORE_EXIT_HANDLERS.with(|_| {});
    }
}

/// ACL's `aclInit`, interposed: registers the exit handler from inside the program, then forwards.
///
/// # Safety
/// As ACL's own `aclInit(const char *configPath)`: `config` is NULL or a C string.
#[no_mangle]
pub unsafe extern "C" fn aclInit(config: *const c_char) -> c_int {
    if STARTED.load(Ordering::SeqCst) && !IN_PROGRAM.swap(true, Ordering::SeqCst) {
        crate::guarded("Ascend", || crate::finish_at_exit(crate::When::InProgram));
    }
    let f = next(c"aclInit");
    if f.is_null() {
        return ACL_ERROR_INTERNAL;
    }
    // SAFETY: the runtime's `aclInit`, with the caller's argument.
    unsafe { std::mem::transmute::<*mut c_void, unsafe extern "C" fn(*const c_char) -> c_int>(f)(config) }
}

/// ACL's `aclFinalize`, interposed: finishes the trace while MSPTI and the runtime are whole, then
/// forwards.
///
/// # Safety
/// As ACL's own `aclFinalize(void)`.
#[no_mangle]
pub unsafe extern "C" fn aclFinalize() -> c_int {
    if STARTED.load(Ordering::SeqCst) {
        crate::guarded("Ascend", crate::finish);
    }
    let f = next(c"aclFinalize");
    if f.is_null() {
        return ACL_ERROR_INTERNAL;
    }
    // SAFETY: the runtime's `aclFinalize`.
    unsafe { std::mem::transmute::<*mut c_void, unsafe extern "C" fn() -> c_int>(f)() }
}

/// `ACL_ERROR_INTERNAL_ERROR`: what the door answers when no runtime defines the call it forwards.
const ACL_ERROR_INTERNAL: c_int = 500000;
