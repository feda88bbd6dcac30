//! Read-copy-update for the callback path.
//!
//! Readers are CUPTI callbacks on application threads, inside CUDA calls: they take no lock and
//! do no read-modify-write. A reader marks its thread's slot active, loads the current snapshot
//! pointer (one atomic load), uses it, and marks the slot quiescent. A writer publishes a new
//! snapshot with one atomic swap and then waits for a *grace period* ([`synchronize`]): every
//! reader that could still hold the old snapshot has left its read section. Only then is the
//! old snapshot (and a closure only it reached) freed.
//!
//! The protocol is liburcu's "memb" flavour (two-phase grace period counter). On Linux the
//! reader's fences are compiler fences and the writer forces the matching memory barriers on
//! every thread of the process with `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)`; where that
//! system call is unavailable, readers fall back to `SeqCst` fences.

use std::cell::Cell;
use std::marker::PhantomData;
use std::ptr;
use std::sync::atomic::{compiler_fence, fence, AtomicBool, AtomicPtr, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, Once};
use std::time::Duration;

use super::frames::Frames;

/// One nesting level in a slot's counter.
const NEST_ONE: usize = 1;
/// The nesting count of a slot's counter.
const NEST_MASK: usize = (1 << (usize::BITS / 2)) - 1;
/// The grace-period phase bit.
const PHASE: usize = 1 << (usize::BITS / 2);

/// The grace-period counter: [`PHASE`] flips once per grace period; the low bits hold
/// [`NEST_ONE`] so that a reader copies "active, nesting 1, current phase" in one store.
static GP_CTR: AtomicUsize = AtomicUsize::new(NEST_ONE);
/// Serializes grace periods.
static GP_LOCK: Mutex<()> = Mutex::new(());
/// Head of the push-only list of reader slots (never freed, reused across threads).
static SLOTS: AtomicPtr<ReaderSlot> = AtomicPtr::new(ptr::null_mut());
/// Readers on threads whose thread-local state is gone (running thread-local destructors):
/// they announce themselves here, with full fences, instead of in a slot.
static ORPHANS: AtomicUsize = AtomicUsize::new(0);

/// How readers order their slot store before the snapshot load.
static MODE: AtomicU8 = AtomicU8::new(MODE_FENCE);
/// Readers use `SeqCst` fences.
const MODE_FENCE: u8 = 0;
/// Readers use compiler fences; writers call `membarrier`.
const MODE_MEMBARRIER: u8 = 1;
static INIT: Once = Once::new();

/// One thread's reader state, padded to its own cache lines, and its frame stack.
#[repr(align(128))]
pub(crate) struct ReaderSlot {
    ctr: AtomicUsize,
    in_use: AtomicBool,
    next: AtomicPtr<ReaderSlot>,
    /// Whether this slot's reads use `SeqCst` fences: [`MODE`] as its thread first read it.
    /// [`MODE`] changes once, from fences to `membarrier`, so a stale `true` is only slower.
    /// Touched only by the thread that holds the slot.
    fenced: Cell<bool>,
    /// Touched only by the thread that holds the slot.
    frames: Frames,
}

// SAFETY: other threads touch only the atomics; `fenced` and `frames` are used only by the thread
// holding the slot (`in_use`), through `ReadGuard`, which is neither `Send` nor `Sync`.
unsafe impl Sync for ReaderSlot {}

/// Set (to anything) to make readers use `SeqCst` fences instead of `membarrier`: for
/// comparing the two, or where `membarrier` misbehaves.
pub const NO_MEMBARRIER_VAR: &str = "CUPTI_RS_NO_MEMBARRIER";

/// Chooses the barrier flavour once; called before the first subscription.
pub(crate) fn init() {
    INIT.call_once(|| {
        if std::env::var_os(NO_MEMBARRIER_VAR).is_none() && membarrier::register() {
            MODE.store(MODE_MEMBARRIER, Ordering::SeqCst);
        }
    });
}

/// Whether callback dispatch runs without hardware fences: the process registered for
/// `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)` (Linux 4.14+, unless a seccomp filter forbids
/// it), so grace periods force the barriers instead. Otherwise (or with
/// `CUPTI_RS_NO_MEMBARRIER` set) each dispatch pays two `SeqCst` fences. Decided at the first
/// subscription.
pub fn uses_membarrier() -> bool {
    MODE.load(Ordering::Relaxed) == MODE_MEMBARRIER
}

/// The reader's side of a barrier pair: orders its slot store against the snapshot load.
/// `fenced`: the slot's [`ReaderSlot::fenced`].
#[inline(always)]
fn reader_fence(fenced: bool) {
    if fenced {
        fence(Ordering::SeqCst);
    } else {
        compiler_fence(Ordering::SeqCst);
    }
}

/// The writer's side: makes every thread's earlier slot stores visible, and its own stores
/// visible to them, whichever flavour the readers use.
fn writer_fence() {
    if MODE.load(Ordering::SeqCst) == MODE_MEMBARRIER && !membarrier::all_threads() {
        // Registered but refused now: cannot happen per the kernel's contract. Readers that
        // use compiler fences only are still ordered by this slower, global form.
        membarrier::global();
    }
    fence(Ordering::SeqCst);
}

impl ReaderSlot {
    /// A free slot from the list, or a new one pushed onto it.
    fn acquire() -> &'static ReaderSlot {
        let mut p = SLOTS.load(Ordering::Acquire);
        while !p.is_null() {
            // SAFETY: slots are leaked and never freed, so every pointer in the list is valid.
            let slot = unsafe { &*p };
            if !slot.in_use.load(Ordering::Relaxed)
                && slot.in_use.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_ok()
            {
                return slot;
            }
            p = slot.next.load(Ordering::Acquire);
        }
        let slot: &'static ReaderSlot = Box::leak(Box::new(ReaderSlot {
            ctr: AtomicUsize::new(0),
            in_use: AtomicBool::new(true),
            next: AtomicPtr::new(ptr::null_mut()),
            fenced: Cell::new(true),
            frames: Frames::new(),
        }));
        let mut head = SLOTS.load(Ordering::Relaxed);
        loop {
            slot.next.store(head, Ordering::Relaxed);
            match SLOTS.compare_exchange_weak(
                head,
                slot as *const ReaderSlot as *mut ReaderSlot,
                Ordering::Release,
                Ordering::Relaxed,
            ) {
                Ok(_) => return slot,
                Err(h) => head = h,
            }
        }
    }

    /// Enters a read section (nestable); returns the counter to restore on leaving.
    #[inline(always)]
    fn lock(&self) -> usize {
        let prev = self.ctr.load(Ordering::Relaxed);
        if prev & NEST_MASK == 0 {
            self.ctr.store(GP_CTR.load(Ordering::Relaxed), Ordering::Relaxed);
            reader_fence(self.fenced.get());
        } else {
            self.ctr.store(prev + NEST_ONE, Ordering::Relaxed);
        }
        prev
    }

    /// Leaves a read section, restoring the counter `lock` returned (no reload of the counter
    /// just stored).
    #[inline(always)]
    fn unlock(&self, prev: usize) {
        if prev & NEST_MASK == 0 {
            reader_fence(self.fenced.get());
            self.ctr.store(0, Ordering::Release);
        } else {
            self.ctr.store(prev, Ordering::Relaxed);
        }
    }
}

thread_local! {
    /// The calling thread's slot: null before first use, [`DEAD`] once handed back. Drop-free,
    /// so reading it is a plain thread-local load.
    static LOCAL: Cell<*const ReaderSlot> = const { Cell::new(ptr::null()) };
}

/// [`LOCAL`] after the thread handed its slot back (its thread-locals are being destroyed).
const DEAD: *const ReaderSlot = 1 as *const ReaderSlot;

/// Hands the thread's slot back when the thread ends.
struct Release;

impl Drop for Release {
    fn drop(&mut self) {
        let p = LOCAL.with(|l| l.replace(DEAD));
        if !p.is_null() && p != DEAD {
            // SAFETY: slots are never freed; this thread held it.
            let slot = unsafe { &*p };
            // SAFETY: this thread held the slot and is outside any read section.
            unsafe { slot.frames.clear() };
            slot.ctr.store(0, Ordering::Release);
            slot.in_use.store(false, Ordering::Release);
        }
    }
}

thread_local! {
    static RELEASE: Release = const { Release };
}

/// The calling thread's slot, taken on first use; `None` once handed back.
#[inline(always)]
fn local_slot() -> Option<&'static ReaderSlot> {
    let p = LOCAL.with(Cell::get);
    if p.is_null() || p == DEAD {
        return first_use(p);
    }
    // SAFETY: slots are never freed.
    Some(unsafe { &*p })
}

#[cold]
#[inline(never)]
fn first_use(p: *const ReaderSlot) -> Option<&'static ReaderSlot> {
    if p == DEAD || RELEASE.try_with(|_| ()).is_err() {
        return None;
    }
    let slot = ReaderSlot::acquire();
    slot.fenced.set(MODE.load(Ordering::SeqCst) != MODE_MEMBARRIER);
    LOCAL.with(|l| l.set(slot));
    Some(slot)
}

/// A read section: the snapshot loaded inside it stays valid until it is dropped.
pub(crate) struct ReadGuard {
    slot: Option<&'static ReaderSlot>,
    /// The slot's counter before this section.
    prev: usize,
    /// Ends on the thread that began it.
    _not_send: PhantomData<*const ()>,
}

impl ReadGuard {
    /// The calling thread's frame stack; `None` on a thread whose locals are being destroyed.
    #[inline(always)]
    pub(crate) fn frames(&self) -> Option<&Frames> {
        self.slot.map(|s| &s.frames)
    }
}

/// Enters a read section on the calling thread.
#[inline(always)]
pub(crate) fn read_lock() -> ReadGuard {
    let slot = local_slot();
    let prev = match slot {
        Some(s) => s.lock(),
        None => {
            ORPHANS.fetch_add(1, Ordering::SeqCst);
            fence(Ordering::SeqCst);
            0
        }
    };
    ReadGuard { slot, prev, _not_send: PhantomData }
}

impl Drop for ReadGuard {
    #[inline(always)]
    fn drop(&mut self) {
        match self.slot {
            Some(s) => s.unlock(self.prev),
            None => {
                ORPHANS.fetch_sub(1, Ordering::Release);
            }
        }
    }
}

/// Whether the calling thread is inside a read section (a callback dispatch): a grace period
/// started here would wait for itself.
pub(crate) fn in_read_section() -> bool {
    let p = LOCAL.with(Cell::get);
    // SAFETY: slots are never freed.
    !p.is_null() && p != DEAD && unsafe { &*p }.ctr.load(Ordering::Relaxed) & NEST_MASK != 0
}

/// Whether `ctr` belongs to a reader that started before the current phase.
fn is_old_reader(ctr: usize, gp: usize) -> bool {
    ctr & NEST_MASK != 0 && (ctr ^ gp) & PHASE != 0
}

/// Waits until no reader is in a read section that began before the current phase.
fn wait_for_old_readers() {
    let mut spins = 0u32;
    loop {
        let gp = GP_CTR.load(Ordering::Relaxed);
        let mut busy = ORPHANS.load(Ordering::SeqCst) != 0;
        let mut p = SLOTS.load(Ordering::Acquire);
        while !p.is_null() && !busy {
            // SAFETY: slots are never freed.
            let slot = unsafe { &*p };
            busy = is_old_reader(slot.ctr.load(Ordering::Acquire), gp);
            p = slot.next.load(Ordering::Acquire);
        }
        if !busy {
            return;
        }
        spins += 1;
        if spins < 100 {
            std::hint::spin_loop();
        } else if spins < 1_000 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}

/// Waits for a grace period: when it returns, every read section that was running when it was
/// called has ended, so nothing can still hold a snapshot unpublished before the call.
///
/// Must not be called inside a read section (see [`in_read_section`]): it would wait for
/// itself.
pub(crate) fn synchronize() {
    debug_assert!(!in_read_section(), "a grace period inside a read section never ends");
    let _serial = GP_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    writer_fence();
    wait_for_old_readers();
    fence(Ordering::SeqCst);
    GP_CTR.store(GP_CTR.load(Ordering::Relaxed) ^ PHASE, Ordering::Relaxed);
    fence(Ordering::SeqCst);
    wait_for_old_readers();
    writer_fence();
}

#[cfg(target_os = "linux")]
mod membarrier {
    const CMD_QUERY: libc::c_int = 0;
    const CMD_GLOBAL: libc::c_int = 1;
    const CMD_PRIVATE_EXPEDITED: libc::c_int = 1 << 3;
    const CMD_REGISTER_PRIVATE_EXPEDITED: libc::c_int = 1 << 4;

    fn call(cmd: libc::c_int) -> libc::c_long {
        // SAFETY: membarrier takes (cmd, flags, cpu_id) integers and touches no memory of ours.
        unsafe { libc::syscall(libc::SYS_membarrier, cmd, 0 as libc::c_uint, 0 as libc::c_int) }
    }

    /// Registers the process for expedited private barriers; false when the kernel (or a
    /// seccomp filter) does not offer them.
    pub(super) fn register() -> bool {
        let supported = call(CMD_QUERY);
        let needed = (CMD_PRIVATE_EXPEDITED | CMD_REGISTER_PRIVATE_EXPEDITED) as libc::c_long;
        supported >= 0 && supported & needed == needed && call(CMD_REGISTER_PRIVATE_EXPEDITED) == 0
    }

    /// A full memory barrier on every running thread of the process.
    pub(super) fn all_threads() -> bool {
        call(CMD_PRIVATE_EXPEDITED) == 0
    }

    /// The same for every thread of the system (slow; a fallback).
    pub(super) fn global() {
        call(CMD_GLOBAL);
    }
}

#[cfg(not(target_os = "linux"))]
mod membarrier {
    pub(super) fn register() -> bool {
        false
    }
    pub(super) fn all_threads() -> bool {
        false
    }
    pub(super) fn global() {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;
    use std::sync::Arc;

    /// A value that a writer poisons after the grace period: a reader that still saw it would
    /// read the poison.
    struct Cellar {
        value: AtomicU64,
    }

    #[test]
    fn readers_never_see_a_retired_value() {
        init();
        let current = Arc::new(AtomicPtr::new(Box::into_raw(Box::new(Cellar { value: AtomicU64::new(1) }))));
        let stop = Arc::new(AtomicBool::new(false));
        // Readers that have read at least once: the writer starts when all have (on a loaded
        // machine a reader thread may otherwise first run after the writer is done).
        let started = Arc::new(AtomicU64::new(0));
        let readers: Vec<_> = (0..3)
            .map(|_| {
                let (current, stop, started) = (current.clone(), stop.clone(), started.clone());
                std::thread::spawn(move || {
                    let mut reads = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let _guard = read_lock();
                        // SAFETY: the pointer is freed only after a grace period that this
                        // read section blocks.
                        let c = unsafe { &*current.load(Ordering::Acquire) };
                        let v = c.value.load(Ordering::Relaxed);
                        assert_ne!(v, u64::MAX, "read a retired value");
                        reads += 1;
                        if reads == 1 {
                            started.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                    reads
                })
            })
            .collect();
        while started.load(Ordering::SeqCst) < 3 {
            std::thread::yield_now();
        }
        for i in 2..300u64 {
            let new = Box::into_raw(Box::new(Cellar { value: AtomicU64::new(i) }));
            let old = current.swap(new, Ordering::AcqRel);
            synchronize();
            // SAFETY: the grace period has passed: no reader holds `old`.
            unsafe {
                (*old).value.store(u64::MAX, Ordering::Relaxed);
                drop(Box::from_raw(old));
            }
        }
        stop.store(true, Ordering::Relaxed);
        for r in readers {
            assert!(r.join().expect("reader panicked") > 0);
        }
        // SAFETY: every reader has ended.
        drop(unsafe { Box::from_raw(current.load(Ordering::Acquire)) });
    }

    #[test]
    fn nested_read_sections_are_one_section_and_synchronize_waits_for_them() {
        init();
        let outer = read_lock();
        let inner = read_lock();
        assert!(in_read_section());
        drop(inner);
        assert!(in_read_section());
        let done = Arc::new(AtomicBool::new(false));
        let waiter = {
            let done = done.clone();
            std::thread::spawn(move || {
                synchronize();
                done.store(true, Ordering::SeqCst);
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(!done.load(Ordering::SeqCst), "the grace period ended inside a read section");
        drop(outer);
        waiter.join().unwrap();
        assert!(done.load(Ordering::SeqCst));
        assert!(!in_read_section());
    }
}
