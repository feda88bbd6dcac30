//! The Ascend door: an ELF constructor.
//!
//! MSPTI has no tool-loading mechanism of its own, and it interposes the runtime's `aclrt*`/`Hccl*`
//! functions only when `libmspti.so` is preloaded. So the program is started with
//! `LD_PRELOAD=<toolkit>/lib64/libmspti.so:libaccelprof_inject.so` and `ACCELPROF_VENDOR=mspti`
//! (the launcher sets both), and this library's constructor, which runs before `main`, starts the
//! engine with [`Vendor::Mspti`] on the preloaded copy. The constructor does nothing unless
//! `ACCELPROF_VENDOR` names MSPTI *and* a `libmspti.so` is preloaded (named in `LD_PRELOAD`, its
//! functions in the global scope): the same library loaded by the CUDA driver or rocprofiler-sdk,
//! or preloaded into a program without MSPTI, stays quiet. The engine is finished at exit (C
//! `atexit` only: before `main` no Python interpreter exists to register with, so a Python program
//! killed by its own SIGINT after a `KeyboardInterrupt` leaves the `.partial` trace, whole up to the
//! last flush).

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
            crate::finish_at_exit(crate::When::BeforeMain);
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
