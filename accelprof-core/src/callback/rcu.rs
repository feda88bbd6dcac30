//! Read-copy-update for the callback path: when a retired routing table (and a closure only it
//! reached) may be freed.
//!
//! Readers are vendor callbacks on application threads, inside the vendor's API calls: they take
//! no lock and do no read-modify-write. A reader marks its thread's slot active ([`read`]), loads
//! the current table pointer (one atomic load), uses it, and marks the slot quiescent. Sections
//! are scoped (a closure): they nest lexically, and nothing borrowed from one outlives it.
//!
//! A writer (this crate's switchboard: the writers' side is not public) publishes a new table with
//! one atomic swap and then either waits for a *grace period* (`synchronize`: every reader that
//! could still hold the old table has left its read section) and frees the old table, or hands it
//! to `defer`, which frees it once a grace period has passed, found without waiting: by the next
//! `synchronize`, or by a [`poll`] (the next change, or a vendor trampoline after its read section,
//! where a drop must not wait).
//!
//! The protocol is liburcu's "memb" flavour: a counter whose phase bit flips; a reader copies
//! "active, current phase" into its slot. A *step* checks that no reader of the old phase is left
//! and flips the phase; two steps that began after a table was unpublished make a grace period
//! for it (the second cannot pass while a reader that began before the first flip is active).
//! `synchronize` makes its steps waiting; [`poll`] makes them only if no reader is in the way.
//!
//! On Linux the reader's fences are compiler fences and writers force the matching memory
//! barriers on every thread of the process with `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)`;
//! where that system call is unavailable, readers fall back to `SeqCst` fences.
//!
//! Each reader slot also holds its thread's entry/exit [`FrameStack`].

use std::cell::Cell;
use std::marker::PhantomData;
use std::ptr;
use std::sync::Once;

use super::frames::FrameStack;
use super::sync::{
    backoff, compiler_fence, fence, local, lock, statics, AtomicBool, AtomicPtr, AtomicU64, AtomicU8,
    AtomicUsize, Mutex, Ordering,
};
use super::trampoline::guard;

/// One nesting level in a slot's counter.
const NEST_ONE: usize = 1;
/// The nesting count of a slot's counter.
const NEST_MASK: usize = (1 << (usize::BITS / 2)) - 1;
/// The grace-period phase bit.
const PHASE: usize = 1 << (usize::BITS / 2);

statics! {
    /// The grace-period counter: [`PHASE`] flips once per step; the low bits hold [`NEST_ONE`] so that
    /// a reader copies "active, nesting 1, current phase" in one store.
    static GP_CTR: AtomicUsize = AtomicUsize::new(NEST_ONE);
    /// Serializes steps.
    static GP_LOCK: Mutex<()> = Mutex::new(());
    /// Steps completed (each flipped the phase), changed under [`GP_LOCK`].
    static GP_SEQ: AtomicU64 = AtomicU64::new(0);
    /// Head of the push-only list of reader slots (never freed, reused across threads).
    static SLOTS: AtomicPtr<ReaderSlot> = AtomicPtr::new(ptr::null_mut());
    /// Readers on threads whose thread-local state is gone (running thread-local destructors):
    /// they announce themselves here, with full fences, instead of in a slot.
    static ORPHANS: AtomicUsize = AtomicUsize::new(0);

    /// What [`defer`] was given, each with the step count after which it may be freed.
    #[allow(clippy::type_complexity)]
    static DEFERRED: Mutex<Vec<(u64, Box<dyn Send>)>> = Mutex::new(Vec::new());
    /// Entries of [`DEFERRED`], read by [`poll`] without the lock.
    static PENDING: AtomicUsize = AtomicUsize::new(0);
    /// Items taken out of [`DEFERRED`] by a [`reclaim`] and not yet freed: [`synchronize`] waits
    /// for them (another thread's poll may have taken what the grace period was for).
    static FREEING: AtomicUsize = AtomicUsize::new(0);

    /// How readers order their slot store before the table load.
    static MODE: AtomicU8 = AtomicU8::new(MODE_FENCE);
}
/// Readers use `SeqCst` fences.
const MODE_FENCE: u8 = 0;
/// Readers use compiler fences; writers call `membarrier`.
const MODE_MEMBARRIER: u8 = 1;
static INIT: Once = Once::new();

/// Set (to anything) to make readers use `SeqCst` fences instead of `membarrier`: for comparing
/// the two, or where `membarrier` misbehaves. (`CUPTI_RS_NO_MEMBARRIER`, its former name, works
/// too.)
pub const NO_MEMBARRIER_VAR: &str = "ACCELPROF_NO_MEMBARRIER";

/// One thread's reader state, padded to its own cache lines, and its frame stack.
#[repr(align(128))]
struct ReaderSlot {
    ctr: AtomicUsize,
    in_use: AtomicBool,
    next: AtomicPtr<ReaderSlot>,
    /// Whether this slot's reads use `SeqCst` fences: [`MODE`] as its thread first read it.
    /// [`MODE`] changes once, from fences to `membarrier`, so a stale `true` is only slower.
    /// Touched only by the thread that holds the slot.
    fenced: Cell<bool>,
    /// Touched only by the thread that holds the slot.
    frames: FrameStack,
}

// SAFETY: other threads touch only the atomics; `fenced` and `frames` are used only by the thread
// holding the slot (`in_use`), through `ReadSection`, which is neither `Send` nor `Sync`.
unsafe impl Sync for ReaderSlot {}

/// Chooses the barrier flavour once; called before the first subscription (and by the first
/// [`read`] otherwise).
pub fn init() {
    INIT.call_once(|| {
        let off = std::env::var_os(NO_MEMBARRIER_VAR).is_some()
            || std::env::var_os("CUPTI_RS_NO_MEMBARRIER").is_some();
        if !off && membarrier::register() {
            MODE.store(MODE_MEMBARRIER, Ordering::SeqCst);
        }
    });
}

/// Whether callback dispatch runs without hardware fences: the process registered for
/// `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)` (Linux 4.14+, unless a seccomp filter forbids
/// it), so grace periods force the barriers instead. Otherwise (or with [`NO_MEMBARRIER_VAR`]
/// set) each dispatch pays two `SeqCst` fences. Decided at the first subscription.
pub fn uses_membarrier() -> bool {
    MODE.load(Ordering::Relaxed) == MODE_MEMBARRIER
}

/// The reader's side of a barrier pair: orders its slot store against the table load.
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
        // Registered but refused now: cannot happen per the kernel's contract. Readers that use
        // compiler fences only are still ordered by this slower, global form.
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
            frames: FrameStack::new(),
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

local! {
    /// The calling thread's slot: null before first use, [`DEAD`] once handed back. Drop-free,
    /// so reading it is a plain thread-local load.
    static LOCAL: Cell<*const ReaderSlot> = Cell::new(ptr::null());
}

/// [`LOCAL`] after the thread handed its slot back (its thread-locals are being destroyed).
const DEAD: *const ReaderSlot = 1 as *const ReaderSlot;

/// Hands the thread's slot back when the thread ends.
struct Release;

impl Drop for Release {
    fn drop(&mut self) {
        // (`LOCAL` is never destroyed with std; loom may have destroyed it first: then the slot
        // stays taken, outside any read section, which holds no grace period off.)
        let p = LOCAL.try_with(|l| l.replace(DEAD)).unwrap_or(ptr::null());
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

local! {
    static RELEASE: Release = Release;
}

local! {
    /// Of [`FREEING`], the items the calling thread is freeing.
    static FREEING_HERE: Cell<usize> = Cell::new(0);
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
    init();
    let slot = ReaderSlot::acquire();
    slot.fenced.set(MODE.load(Ordering::SeqCst) != MODE_MEMBARRIER);
    LOCAL.with(|l| l.set(slot));
    Some(slot)
}

/// A read section of the calling thread, lent to the closure of [`read`]: a table loaded inside
/// it (borrowed for the reference's lifetime, e.g. by
/// [`Switchboard::routes`](super::Switchboard::routes)) stays valid until [`read`] returns.
///
/// Never owned outside this module, so it cannot be dropped early, forgotten, kept past its
/// section, or moved or shared to another thread (it is neither `Send` nor `Sync`).
#[derive(Debug)]
pub struct ReadSection {
    slot: Option<&'static ReaderSlot>,
    /// The slot's counter before this section.
    prev: usize,
    /// Ends on the thread that began it; not shared with another (its frame stack is this
    /// thread's).
    _not_send: PhantomData<*const ()>,
}

impl std::fmt::Debug for ReaderSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReaderSlot").field("ctr", &self.ctr).finish_non_exhaustive()
    }
}

impl ReadSection {
    /// The calling thread's frame stack; `None` on a thread whose locals are being destroyed.
    #[inline(always)]
    pub fn frames(&self) -> Option<&FrameStack> {
        self.slot.map(|s| &s.frames)
    }

    /// Enters a read section on the calling thread (nestable). Private: a section ends where it
    /// began, in [`read`], so sections nest lexically (an outer one cannot end before an inner
    /// one: that would mark the thread idle under the inner one, and the inner one's end would
    /// then restore a mark that no section ends).
    #[inline(always)]
    fn enter() -> ReadSection {
        let slot = local_slot();
        let prev = match slot {
            Some(s) => s.lock(),
            None => {
                ORPHANS.fetch_add(1, Ordering::SeqCst);
                fence(Ordering::SeqCst);
                0
            }
        };
        ReadSection { slot, prev, _not_send: PhantomData }
    }
}

impl Drop for ReadSection {
    /// Ends the section, also when the closure of [`read`] unwinds.
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

/// Runs `f` in a read section of the calling thread (nestable): whatever `f` loads through the
/// section stays valid until `f` returns, and nothing borrowed from the section can leave it.
///
/// ```
/// use accelprof_core::callback::rcu;
/// let depth = rcu::read(|outer| {
///     assert!(rcu::in_read_section() && outer.frames().is_some());
///     rcu::read(|_inner| 2)
/// });
/// assert_eq!(depth, 2);
/// assert!(!rcu::in_read_section());
/// ```
///
/// The section cannot leave the closure, by its result or by a variable outside it:
///
/// ```compile_fail
/// let escaped = accelprof_core::callback::rcu::read(|section| section);
/// ```
///
/// ```compile_fail
/// let mut kept = None;
/// accelprof_core::callback::rcu::read(|section| kept = Some(section));
/// ```
///
/// nor reach another thread (it marks this thread's slot, and lends this thread's frame stack):
///
/// ```compile_fail
/// accelprof_core::callback::rcu::read(|section| {
///     std::thread::scope(|s| {
///         s.spawn(|| section.frames().is_some());
///     })
/// });
/// ```
#[inline(always)]
pub fn read<R>(f: impl FnOnce(&ReadSection) -> R) -> R {
    let section = ReadSection::enter();
    f(&section)
}

/// Whether the calling thread is inside a read section (a callback dispatch): a grace period
/// waited for here would wait for itself. On a thread whose slot is handed back (its locals are
/// being destroyed), whether any such thread is: its sections are counted together, so it cannot
/// tell its own apart.
pub fn in_read_section() -> bool {
    let p = LOCAL.with(Cell::get);
    if p == DEAD {
        return ORPHANS.load(Ordering::SeqCst) != 0;
    }
    // SAFETY: slots are never freed.
    !p.is_null() && unsafe { &*p }.ctr.load(Ordering::Relaxed) & NEST_MASK != 0
}

/// Whether `ctr` belongs to a reader that started before the current phase.
fn is_old_reader(ctr: usize, gp: usize) -> bool {
    ctr & NEST_MASK != 0 && (ctr ^ gp) & PHASE != 0
}

/// Whether a reader that started before the current phase is still in its section.
fn old_readers() -> bool {
    let gp = GP_CTR.load(Ordering::Relaxed);
    if ORPHANS.load(Ordering::SeqCst) != 0 {
        return true;
    }
    let mut p = SLOTS.load(Ordering::Acquire);
    while !p.is_null() {
        // SAFETY: slots are never freed.
        let slot = unsafe { &*p };
        if is_old_reader(slot.ctr.load(Ordering::Acquire), gp) {
            return true;
        }
        p = slot.next.load(Ordering::Acquire);
    }
    false
}

/// Waits until no reader of the old phase is left.
fn wait_for_old_readers() {
    let mut spins = 0u32;
    while old_readers() {
        spins += 1;
        backoff(spins);
    }
}

/// One step, [`GP_LOCK`] held: waits for (`wait`) or finds no readers of the old phase, then
/// flips the phase. False (nothing done) when readers are in the way and `wait` is false.
fn step(wait: bool) -> bool {
    writer_fence();
    if wait {
        wait_for_old_readers();
    } else if old_readers() {
        return false;
    }
    fence(Ordering::SeqCst);
    GP_CTR.store(GP_CTR.load(Ordering::Relaxed) ^ PHASE, Ordering::Relaxed);
    fence(Ordering::SeqCst);
    GP_SEQ.fetch_add(1, Ordering::SeqCst);
    true
}

/// Waits for a grace period: when it returns, every read section that was running when it was
/// called has ended, so nothing can still hold a table unpublished before the call; and whatever
/// was [`defer`]red before the call has been freed (also where another thread's [`poll`] took it
/// and is still freeing it; except when called from inside the drop of a deferred item, where
/// waiting for other threads' frees could wait for a thread that waits for this one).
///
/// Must not be called inside a read section (see [`in_read_section`]): it would wait for itself.
pub(crate) fn synchronize() {
    debug_assert!(!in_read_section(), "a grace period inside a read section never ends");
    let serial = lock(&GP_LOCK);
    let seq = GP_SEQ.load(Ordering::SeqCst);
    let deferred = lock(&DEFERRED).iter().map(|(target, _)| *target).max().unwrap_or(0);
    let goal = (seq + 2).max(deferred);
    while GP_SEQ.load(Ordering::SeqCst) < goal {
        step(true);
    }
    writer_fence();
    drop(serial);
    reclaim(goal);
    wait_for_frees();
}

/// Waits until no other thread is freeing deferred items: one may have taken out, before this
/// grace period ended, an item it was for. Not on a thread freeing items itself (an item's drop
/// that drops a subscriber): another thread could be waiting for this one (its items then outlive
/// this call, and are freed when that drop returns).
fn wait_for_frees() {
    if FREEING_HERE.try_with(Cell::get).unwrap_or(1) != 0 {
        return;
    }
    let mut spins = 0u32;
    while FREEING.load(Ordering::Acquire) != 0 {
        spins += 1;
        backoff(spins);
    }
}

/// Frees `item` once a grace period has passed, without waiting for one: at once if no reader is
/// in the way, else by the next [`synchronize`] or successful [`poll`]. Usable anywhere, inside a
/// read section too.
pub(crate) fn defer(item: Box<dyn Send>) {
    defer_unpolled(item);
    poll();
}

/// [`defer`] without freeing anything now, for a caller that holds a lock a closure's drop could
/// need: the item is queued (so a grace period begun after this call frees it), and the caller
/// [`poll`]s once the lock is released.
pub(crate) fn defer_unpolled(item: Box<dyn Send>) {
    // Two steps that begin after this call make the grace period; without the lock a step may be
    // running now (it began before the item was unpublished), so one more.
    let target = match GP_LOCK.try_lock() {
        Ok(_serial) => GP_SEQ.load(Ordering::SeqCst) + 2,
        Err(_) => GP_SEQ.load(Ordering::SeqCst) + 3,
    };
    lock(&DEFERRED).push((target, item));
    PENDING.fetch_add(1, Ordering::SeqCst);
}

/// Frees what `defer` holds whose grace period is over, making steps that no reader is in the
/// way of; never waits (another thread making steps, or a reader of the old phase, ends it). One
/// relaxed load when nothing is deferred. Usable anywhere, inside a read section too (the
/// caller's own section then holds the steps off).
#[inline]
pub fn poll() {
    if PENDING.load(Ordering::Relaxed) != 0 {
        poll_slow();
    }
}

#[cold]
#[inline(never)]
fn poll_slow() {
    let Ok(serial) = GP_LOCK.try_lock() else { return };
    let goal = lock(&DEFERRED).iter().map(|(target, _)| *target).max().unwrap_or(0);
    let mut stepped = false;
    while GP_SEQ.load(Ordering::SeqCst) < goal && step(false) {
        stepped = true;
    }
    if stepped {
        // Readers' accesses before they left are ordered before the frees.
        writer_fence();
    }
    let seq = GP_SEQ.load(Ordering::SeqCst);
    drop(serial);
    reclaim(seq);
}

/// Frees the deferred items whose grace period ended by step `seq`, outside every lock (a
/// closure's `Drop` may change subscribers) and under [`guard`] (it may run inside a vendor's
/// callback, and may panic).
fn reclaim(seq: u64) {
    let ready: Vec<Box<dyn Send>> = {
        let mut deferred = lock(&DEFERRED);
        if deferred.iter().all(|(target, _)| *target > seq) {
            return;
        }
        let (ready, kept): (Vec<_>, Vec<_>) = deferred.drain(..).partition(|(target, _)| *target <= seq);
        *deferred = kept;
        // Counted before the lock is let go: a `synchronize` that finds the list without them
        // finds them here.
        FREEING.fetch_add(ready.len(), Ordering::SeqCst);
        PENDING.fetch_sub(ready.len(), Ordering::SeqCst);
        ready.into_iter().map(|(_, item)| item).collect()
    };
    let here = FREEING_HERE.try_with(|n| n.set(n.get() + ready.len())).is_ok();
    for item in ready {
        guard(move || drop(item));
        if here {
            let _ = FREEING_HERE.try_with(|n| n.set(n.get() - 1));
        }
        FREEING.fetch_sub(1, Ordering::Release);
    }
}

/// Items [`defer`] holds now (for tests).
#[cfg(test)]
pub(crate) fn pending() -> usize {
    PENDING.load(Ordering::SeqCst)
}

#[cfg(all(target_os = "linux", not(loom), not(miri)))]
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

/// Elsewhere, and under loom and Miri (which cannot model a barrier forced on other threads: they
/// check the fenced flavour), readers use fences.
#[cfg(any(not(target_os = "linux"), loom, miri))]
mod membarrier {
    pub(super) fn register() -> bool {
        false
    }
    pub(super) fn all_threads() -> bool {
        false
    }
    pub(super) fn global() {}
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    /// A value that a writer poisons after the grace period: a reader that still saw it would
    /// read the poison.
    struct Cellar {
        value: AtomicU64,
    }

    #[test]
    fn readers_never_see_a_retired_value() {
        let _g = crate::callback::tests::serial();
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
                        let v = read(|_| {
                            // SAFETY: the pointer is freed only after a grace period that this
                            // read section blocks.
                            let c = unsafe { &*current.load(Ordering::Acquire) };
                            c.value.load(Ordering::Relaxed)
                        });
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
        let _g = crate::callback::tests::serial();
        init();
        let done = Arc::new(AtomicBool::new(false));
        let waiter = read(|_| {
            read(|_| assert!(in_read_section()));
            assert!(in_read_section(), "the outer section goes on after the inner one");
            let waiter = {
                let done = done.clone();
                std::thread::spawn(move || {
                    synchronize();
                    done.store(true, Ordering::SeqCst);
                })
            };
            std::thread::sleep(Duration::from_millis(50));
            assert!(!done.load(Ordering::SeqCst), "the grace period ended inside a read section");
            waiter
        });
        waiter.join().unwrap();
        assert!(done.load(Ordering::SeqCst));
        assert!(!in_read_section());
    }

    /// Sets its flag when dropped.
    struct Flag(Arc<AtomicBool>);
    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_deferred_item_is_freed_by_the_first_poll_after_the_readers_that_could_hold_it_left() {
        let _g = crate::callback::tests::serial();
        init();
        // Nobody reading: freed at once.
        let freed = Arc::new(AtomicBool::new(false));
        defer(Box::new(Flag(freed.clone())));
        assert!(freed.load(Ordering::SeqCst), "no reader was in the way");

        // A reader on another thread holds it off; its leaving and one poll free it.
        let (enter, leave) = (Arc::new(std::sync::Barrier::new(2)), Arc::new(std::sync::Barrier::new(2)));
        let reader = {
            let (enter, leave) = (enter.clone(), leave.clone());
            std::thread::spawn(move || {
                read(|_| {
                    enter.wait();
                    leave.wait();
                });
                poll();
            })
        };
        enter.wait();
        let freed = Arc::new(AtomicBool::new(false));
        defer(Box::new(Flag(freed.clone())));
        poll();
        assert!(!freed.load(Ordering::SeqCst), "a reader that began before the defer is still in");
        leave.wait();
        reader.join().unwrap();
        assert!(freed.load(Ordering::SeqCst), "the reader's own poll freed it once it left");
    }

    /// Blocks in its drop until released, then sets its flag.
    struct SlowDrop {
        entered: Arc<std::sync::Barrier>,
        release: Arc<std::sync::Barrier>,
        done: Arc<AtomicBool>,
    }
    impl Drop for SlowDrop {
        fn drop(&mut self) {
            self.entered.wait();
            self.release.wait();
            self.done.store(true, Ordering::SeqCst);
        }
    }

    /// Found by the loom model `loom_rcu_synchronize_returns_after_what_was_deferred_before_it_is_freed`:
    /// another thread's poll had taken the item out of the list and was still freeing it, and
    /// `synchronize` returned (a waiting subscriber drop returned with its closure not yet freed).
    #[test]
    fn synchronize_waits_for_an_item_another_thread_is_still_freeing() {
        let _g = crate::callback::tests::serial();
        init();
        let (entered, release) = (Arc::new(std::sync::Barrier::new(2)), Arc::new(std::sync::Barrier::new(2)));
        let done = Arc::new(AtomicBool::new(false));
        let item = SlowDrop { entered: entered.clone(), release: release.clone(), done: done.clone() };
        // Nobody reading: the deferring thread's own poll frees it at once, and blocks in the drop.
        let freer = std::thread::spawn(move || defer(Box::new(item)));
        entered.wait();
        let waiter = {
            let done = done.clone();
            std::thread::spawn(move || {
                synchronize();
                done.load(Ordering::SeqCst)
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        release.wait();
        assert!(
            waiter.join().unwrap(),
            "synchronize returned while an item deferred before it was being freed"
        );
        freer.join().unwrap();
        assert_eq!(pending(), 0);
    }

    #[test]
    fn a_deferral_inside_a_read_section_waits_for_that_section_and_synchronize_frees_it() {
        let _g = crate::callback::tests::serial();
        init();
        let freed = Arc::new(AtomicBool::new(false));
        read(|_| {
            defer(Box::new(Flag(freed.clone())));
            poll();
            assert!(!freed.load(Ordering::SeqCst), "held off by the caller's own section");
        });
        assert!(!freed.load(Ordering::SeqCst), "nobody polled yet");
        synchronize();
        assert!(freed.load(Ordering::SeqCst), "synchronize frees what was deferred before it");
        assert_eq!(pending(), 0);
    }
}
