//! The activity API: one real buffer registration; each slot's kinds, per-id API filters, request
//! and complete callbacks and dropped count; every completed real buffer copied record by record
//! into the buffers of each slot that asked for the record's kind.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use cupti_sys::{CUcontext, CUpti_Activity};

use crate::clock;
use crate::real::{real, CompleteFn, Real, RequestFn};
use crate::{INVALID_OPERATION, INVALID_PARAMETER, NOT_INITIALIZED, SUCCESS};

/// Activity clients: slot 0 is every caller of the exported symbols; 1.. are cooperative clients.
pub(crate) const SLOTS: usize = 4;
/// Activity kinds tracked (CUPTI 13.5 has fewer than 128).
const KINDS: usize = 128;
const KERNEL: u32 = 3;
const DRIVER: u32 = 4;
const RUNTIME: u32 = 5;
const CONCURRENT_KERNEL: u32 = 10;
/// `CUPTI_ACTIVITY_FLAG_FLUSH_FORCED`.
const FORCED: u32 = 1;
/// Bytes of each real buffer the shim gives CUPTI.
const BUFFER_BYTES: usize = 4 << 20;
/// Real buffers kept for reuse.
const POOL: usize = 8;

/// A domain's per-callback-id state: the kind's on/off, then per-id overrides since.
#[derive(Clone, Default, PartialEq, Eq)]
struct ApiState {
    all: bool,
    over: BTreeMap<u32, bool>,
}

impl ApiState {
    fn wants(&self, cbid: u32) -> bool {
        self.over.get(&cbid).copied().unwrap_or(self.all)
    }
    fn any(&self) -> bool {
        self.all || self.over.values().any(|&v| v)
    }
}

/// What a slot receives.
#[derive(Clone)]
struct Filter {
    kinds: [bool; KINDS],
    /// Disabled kinds still delivered until this flush number has completed (0: none).
    drain: [u64; KINDS],
    api: [ApiState; 2],
    /// The per-id state of RUNTIME / DRIVER before they were disabled, used while draining.
    drain_api: [ApiState; 2],
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            kinds: [false; KINDS],
            drain: [0; KINDS],
            api: Default::default(),
            drain_api: Default::default(),
        }
    }
}

impl Filter {
    fn on(&self, kind: u32) -> bool {
        match kind {
            RUNTIME => self.api[0].any(),
            DRIVER => self.api[1].any(),
            k => self.kinds.get(k as usize).copied().unwrap_or(false),
        }
    }
    fn active(&self) -> bool {
        (0..KINDS as u32).any(|k| self.on(k))
    }
    /// Whether a record of `kind` (and `cbid` for API records) goes to this slot, `done` flushes completed.
    fn wants(&self, kind: u32, cbid: u32, done: u64) -> bool {
        let draining = |k: u32| self.drain.get(k as usize).is_some_and(|&d| d != 0 && d > done);
        match kind {
            KERNEL | CONCURRENT_KERNEL => {
                [KERNEL, CONCURRENT_KERNEL].iter().any(|&k| self.on(k) || draining(k))
            }
            RUNTIME => self.api[0].wants(cbid) || (draining(RUNTIME) && self.drain_api[0].wants(cbid)),
            DRIVER => self.api[1].wants(cbid) || (draining(DRIVER) && self.drain_api[1].wants(cbid)),
            k => self.on(k) || draining(k),
        }
    }
}

/// A client's buffer being filled: held across real completions, as CUPTI holds a buffer it was given
/// until it is full or flushed (a client may count on holding one: Kineto's flush reads nothing while
/// it has no buffer outstanding).
#[derive(Clone, Copy)]
struct Open {
    buffer: usize,
    capacity: usize,
    used: usize,
    records: usize,
    max: usize,
}

#[derive(Default)]
struct Slot {
    request: Option<RequestFn>,
    complete: Option<CompleteFn>,
    filter: Filter,
    dropped: u64,
    period: u32,
    open: Option<Open>,
}

#[derive(Default)]
struct State {
    slots: [Slot; SLOTS],
    registered: bool,
    real_kinds: BTreeSet<u32>,
    /// The real per-id state applied, per API domain: (kind on, ids that differ from it).
    applied: [(bool, BTreeSet<u32>); 2],
    flush_started: u64,
    flush_done: u64,
    pool: Vec<Box<[u64]>>,
    outstanding: HashMap<usize, Box<[u64]>>,
    /// Fan-outs under way (each holds the open buffers it took): a flush waits for them.
    fanouts: u32,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);
/// Signalled when a fan-out ends.
static FANOUT_DONE: Condvar = Condvar::new();
/// How long a flush waits for fan-outs under way on other threads.
const FANOUT_WAIT: Duration = Duration::from_secs(2);

thread_local! {
    /// Set while this thread runs a fan-out (a client that flushes from its own callback must not
    /// wait for itself).
    static IN_FANOUT: Cell<bool> = const { Cell::new(false) };
}

fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    let mut guard: MutexGuard<'_, Option<State>> = STATE.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(State::default))
}

/// Serializes the mutating calls, which call the real library outside [`STATE`]'s lock.
static CONFIG: Mutex<()> = Mutex::new(());

thread_local! {
    static IN_CONFIG: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` holding [`CONFIG`]; a call made from inside another (a real call that called back into
/// a client that called the shim) is refused rather than deadlocking.
fn config(f: impl FnOnce(&'static Real) -> u32) -> u32 {
    let Some(real) = real() else { return NOT_INITIALIZED };
    if IN_CONFIG.with(Cell::get) {
        return INVALID_OPERATION;
    }
    let _guard = CONFIG.lock().unwrap_or_else(|e| e.into_inner());
    IN_CONFIG.with(|c| c.set(true));
    let r = f(real);
    IN_CONFIG.with(|c| c.set(false));
    r
}

fn call1(f: Option<unsafe extern "C" fn(u32) -> u32>, v: u32) -> u32 {
    // SAFETY: the real CUPTI function of this signature, with a plain value.
    f.map_or(NOT_INITIALIZED, |f| unsafe { f(v) })
}

fn call_api(real: &Real, domain: usize, cbid: u32, on: bool) -> u32 {
    let f = if domain == 0 { real.enable_runtime_api } else { real.enable_driver_api };
    // SAFETY: the real CUPTI function of this signature, with plain values.
    f.map_or(NOT_INITIALIZED, |f| unsafe { f(cbid, u8::from(on)) })
}

/// Makes the real kinds and per-id states the union of the slots' (called under [`CONFIG`]).
fn apply(real: &Real) -> u32 {
    let (want_kinds, api): (BTreeSet<u32>, [(bool, BTreeSet<u32>); 2]) = with(|s| {
        let kinds = (0..KINDS as u32)
            .filter(|&k| k != RUNTIME && k != DRIVER && s.slots.iter().any(|sl| sl.filter.kinds[k as usize]))
            .collect();
        let api = [0, 1].map(|d| {
            let base = s.slots.iter().any(|sl| sl.filter.api[d].all);
            let ids: BTreeSet<u32> =
                s.slots.iter().flat_map(|sl| sl.filter.api[d].over.keys().copied()).collect();
            let differ = ids
                .into_iter()
                .filter(|&c| s.slots.iter().any(|sl| sl.filter.api[d].wants(c)) != base)
                .collect();
            (base, differ)
        });
        (kinds, api)
    });
    let (have_kinds, applied) = with(|s| (s.real_kinds.clone(), s.applied.clone()));
    let mut result = SUCCESS;
    let mut note = |r: u32| {
        if result == SUCCESS && r != SUCCESS {
            result = r;
        }
    };
    for &k in want_kinds.difference(&have_kinds) {
        note(call1(real.enable, k));
    }
    for &k in have_kinds.difference(&want_kinds) {
        note(call1(real.disable, k));
    }
    for d in 0..2 {
        let kind = if d == 0 { RUNTIME } else { DRIVER };
        let (base, differ) = &api[d];
        let (old_base, old_differ) = &applied[d];
        if base != old_base || (!*base && differ.is_empty() && !old_differ.is_empty()) {
            note(call1(if *base { real.enable } else { real.disable }, kind));
            for &c in differ {
                note(call_api(real, d, c, !*base));
            }
        } else {
            for &c in differ.symmetric_difference(old_differ) {
                note(call_api(real, d, c, differ.contains(&c) != *base));
            }
        }
    }
    with(|s| {
        s.real_kinds = want_kinds;
        s.applied = api;
    });
    result
}

pub(crate) fn register(slot: usize, request: Option<RequestFn>, complete: Option<CompleteFn>) -> u32 {
    if request.is_none() || complete.is_none() {
        return INVALID_PARAMETER;
    }
    let r = register_state(slot, request, complete);
    if r == SUCCESS && with(|s| s.slots[slot].filter.active()) {
        ensure_open(slot);
    }
    r
}

fn register_state(slot: usize, request: Option<RequestFn>, complete: Option<CompleteFn>) -> u32 {
    config(|real| {
        let old = with(|s| {
            let sl = &mut s.slots[slot];
            let old = sl.complete.zip(sl.open.take());
            sl.request = request;
            sl.complete = complete;
            old
        });
        if let Some((old_complete, open)) = old {
            // SAFETY: the buffer came from the slot's previous request callback; it goes back to the
            // complete callback registered with it.
            unsafe {
                old_complete(std::ptr::null_mut(), 0, open.buffer as *mut u8, open.capacity, open.used)
            };
        }
        if with(|s| s.registered) {
            return SUCCESS;
        }
        let Some(f) = real.register else { return NOT_INITIALIZED };
        // SAFETY: the shim's callbacks live for the process.
        let r = unsafe { f(Some(shim_request), Some(shim_complete)) };
        with(|s| s.registered = r == SUCCESS);
        r
    })
}

/// `cuptiActivityEnable` / `Disable` (and the per-context forms, `context` given) for `slot`.
pub(crate) fn set_kind(slot: usize, kind: u32, on: bool, context: Option<CUcontext>) -> u32 {
    if kind as usize >= KINDS || kind == 0 {
        return crate::INVALID_KIND;
    }
    let r = set_kind_state(slot, kind, on, context);
    if on && r == SUCCESS {
        ensure_open(slot);
    }
    r
}

/// Gives `slot` an open buffer now, from its request callback, as CUPTI asks a client for a buffer as
/// soon as a kind is on: a client may take "no buffer of mine outstanding" for "nothing recorded"
/// (Kineto's `activityBuffers()` then reads nothing, not even buffers completed to it before).
fn ensure_open(slot: usize) {
    let Some(request) = with(|s| {
        let sl = &s.slots[slot];
        if sl.open.is_some() || sl.complete.is_none() {
            None
        } else {
            sl.request
        }
    }) else {
        return;
    };
    let (mut buffer, mut size, mut max) = (std::ptr::null_mut::<u8>(), 0usize, 0usize);
    // SAFETY: the slot's own request callback with valid out-pointers.
    unsafe { request(&mut buffer, &mut size, &mut max) };
    if buffer.is_null() || size == 0 {
        return;
    }
    let extra = with(|s| {
        let sl = &mut s.slots[slot];
        let same = sl.request.map(|f| f as usize) == Some(request as usize);
        if same && sl.open.is_none() {
            sl.open = Some(Open { buffer: buffer as usize, capacity: size, used: 0, records: 0, max });
            None
        } else {
            sl.complete
        }
    });
    if let Some(complete) = extra {
        // SAFETY: an empty buffer from the slot's request callback, given back at once.
        unsafe { complete(std::ptr::null_mut(), 0, buffer, size, 0) };
    }
}

fn set_kind_state(slot: usize, kind: u32, on: bool, context: Option<CUcontext>) -> u32 {
    config(|real| {
        let previous = with(|s| {
            let next_flush = s.flush_started + 1;
            let f = &mut s.slots[slot].filter;
            let was = f.on(kind);
            match kind {
                RUNTIME | DRIVER => {
                    let d = usize::from(kind == DRIVER);
                    if was && !on {
                        f.drain_api[d] = f.api[d].clone();
                    }
                    f.api[d] = ApiState { all: on, over: BTreeMap::new() };
                }
                k => f.kinds[k as usize] = on,
            }
            if was && !on {
                f.drain[kind as usize] = next_flush;
            }
            was
        });
        let r = match context {
            Some(ctx) => {
                let f = if on { real.enable_context } else { real.disable_context };
                // SAFETY: the real CUPTI function of this signature, with the caller's context.
                f.map_or(NOT_INITIALIZED, |f| unsafe { f(ctx, kind) })
            }
            None => apply(real),
        };
        if r != SUCCESS && context.is_none() {
            // Refused (an unknown kind, for one): the slot's state goes back.
            with(|s| {
                let f = &mut s.slots[slot].filter;
                match kind {
                    RUNTIME | DRIVER => f.api[usize::from(kind == DRIVER)].all = previous,
                    k => f.kinds[k as usize] = previous,
                }
            });
            apply(real);
        }
        r
    })
}

/// `cuptiActivityEnableRuntimeApi` (`driver` false) / `EnableDriverApi` for `slot`.
pub(crate) fn set_api(slot: usize, driver: bool, cbid: u32, on: bool) -> u32 {
    config(|real| {
        let d = usize::from(driver);
        // Ask the real library first, so an id it refuses is refused to the client too.
        let probe = with(|s| s.applied[d].clone());
        let union_now = probe.1.contains(&cbid) != probe.0;
        let r = call_api(real, d, cbid, on || union_now);
        if r != SUCCESS {
            return r;
        }
        // An id turned off is not drained (unlike a kind): its records still in CUPTI's buffers are
        // no longer delivered to this slot (Kineto turns ids off right after enabling the kind).
        with(|s| {
            s.slots[slot].filter.api[d].over.insert(cbid, on);
        });
        // The real state of `cbid` was just set to `on || union_now`: record it, then converge.
        with(|s| {
            let (base, differ) = &mut s.applied[d];
            if (on || union_now) != *base {
                differ.insert(cbid);
            } else {
                differ.remove(&cbid);
            }
        });
        apply(real)
    })
}

pub(crate) fn flush(slot: usize, flag: u32) -> u32 {
    let Some(real) = real() else { return NOT_INITIALIZED };
    let (n, flag) = with(|s| {
        s.flush_started += 1;
        let others = s.slots.iter().enumerate().any(|(i, sl)| i != slot && sl.filter.active());
        (s.flush_started, if others { flag & !FORCED } else { flag })
    });
    let r = call1(real.flush_all, flag);
    with(|s| s.flush_done = s.flush_done.max(n));
    complete_open(slot);
    r
}

/// Completes `slot`'s open buffer to it on this thread, once no fan-out on another thread holds it
/// (bounded: a fan-out stuck in another client's callback is not waited for past [`FANOUT_WAIT`]).
fn complete_open(slot: usize) {
    let in_fanout = IN_FANOUT.with(Cell::get);
    let taken = {
        let mut guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
        let deadline = Instant::now() + FANOUT_WAIT;
        while !in_fanout && guard.as_ref().is_some_and(|s| s.fanouts > 0) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            guard = FANOUT_DONE.wait_timeout(guard, left).unwrap_or_else(|e| e.into_inner()).0;
        }
        let s = guard.get_or_insert_with(State::default);
        let sl = &mut s.slots[slot];
        sl.complete.zip(sl.open.take())
    };
    if let Some((complete, open)) = taken {
        // SAFETY: the buffer came from the slot's request callback, `used` bytes of whole records.
        unsafe { complete(std::ptr::null_mut(), 0, open.buffer as *mut u8, open.capacity, open.used) };
    }
}

pub(crate) fn flush_period(slot: usize, ms: u32) -> u32 {
    config(|real| {
        let period = with(|s| {
            s.slots[slot].period = ms;
            s.slots.iter().map(|sl| sl.period).filter(|&p| p != 0).min().unwrap_or(0)
        });
        call1(real.flush_period, period)
    })
}

pub(crate) fn dropped(slot: usize, context: CUcontext, stream: u32, out: *mut usize) -> u32 {
    if out.is_null() {
        return INVALID_PARAMETER;
    }
    let Some(real) = real() else { return NOT_INITIALIZED };
    let mut n = 0usize;
    if let Some(f) = real.dropped {
        // SAFETY: the real CUPTI function of this signature, with a valid out-pointer.
        let r = unsafe { f(context, stream, &mut n) };
        if r != SUCCESS {
            return r;
        }
    }
    let mine = with(|s| {
        for (i, sl) in s.slots.iter_mut().enumerate() {
            if i == slot || sl.filter.active() {
                sl.dropped += n as u64;
            }
        }
        std::mem::take(&mut s.slots[slot].dropped)
    });
    // SAFETY: checked non-null; the caller passes a writable size_t.
    unsafe { *out = usize::try_from(mine).unwrap_or(usize::MAX) };
    SUCCESS
}

/// Whether a slot other than `slot` is registered or has kinds on.
pub(crate) fn others_active(slot: usize) -> bool {
    with(|s| {
        s.slots.iter().enumerate().any(|(i, sl)| i != slot && (sl.request.is_some() || sl.filter.active()))
    })
}

/// Releases `slot` (its `cuptiFinalize` while another client stays): its kinds off, its callbacks gone.
pub(crate) fn release(slot: usize) -> u32 {
    complete_open(slot);
    config(|real| {
        with(|s| {
            let sl = &mut s.slots[slot];
            sl.filter = Filter::default();
            sl.request = None;
            sl.complete = None;
            sl.period = 0;
        });
        apply(real)
    })
}

/// After the real `cuptiFinalize`: CUPTI forgot the registration and every enable.
pub(crate) fn forget_real() {
    with(|s| {
        s.registered = false;
        s.real_kinds.clear();
        s.applied = Default::default();
        for sl in &mut s.slots {
            sl.filter = Filter::default();
        }
    });
}

/// The real buffer request: a zeroed 8-byte-aligned buffer of the shim's.
unsafe extern "C" fn shim_request(buffer: *mut *mut u8, size: *mut usize, max: *mut usize) {
    if buffer.is_null() || size.is_null() {
        return;
    }
    let given = std::panic::catch_unwind(|| {
        with(|s| {
            let mut b = s.pool.pop().unwrap_or_else(|| vec![0u64; BUFFER_BYTES / 8].into_boxed_slice());
            let p = b.as_mut_ptr().cast::<u8>();
            s.outstanding.insert(p as usize, b);
            p
        })
    });
    // SAFETY: CUPTI passes writable out-pointers (checked non-null).
    unsafe {
        match given {
            Ok(p) => {
                *buffer = p;
                *size = BUFFER_BYTES;
            }
            Err(_) => {
                *buffer = std::ptr::null_mut();
                *size = 0;
            }
        }
        if !max.is_null() {
            *max = 0;
        }
    }
}

/// One slot's side of a fan-out: the buffer being filled.
struct Writer {
    request: RequestFn,
    complete: CompleteFn,
    filter: Filter,
    current: Option<(*mut u8, usize, usize, usize, usize)>, // (buffer, capacity, used, records, max)
    exhausted: bool,
    dropped: u64,
}

impl Writer {
    fn finish(&mut self, context: CUcontext, stream: u32) {
        if let Some((buffer, capacity, used, _, _)) = self.current.take() {
            // SAFETY: the slot's own complete callback with a buffer its request gave.
            unsafe { (self.complete)(context, stream, buffer, capacity, used) };
        }
    }

    /// Copies `record` into the slot's buffers; false (and counted) when it cannot.
    fn push(&mut self, record: &[u8], context: CUcontext, stream: u32) -> bool {
        loop {
            if let Some((buffer, capacity, used, records, max)) = &mut self.current {
                if *used + record.len() <= *capacity && (*max == 0 || *records < *max) {
                    // SAFETY: the client's buffer has `capacity` writable bytes; `used + len` fits.
                    unsafe {
                        std::ptr::copy_nonoverlapping(record.as_ptr(), buffer.add(*used), record.len())
                    };
                    *used += record.len();
                    *records += 1;
                    return true;
                }
                if *used == 0 {
                    // An empty buffer too small for this record: dropped, the buffer kept.
                    self.dropped += 1;
                    return false;
                }
                self.finish(context, stream);
            }
            if self.exhausted {
                self.dropped += 1;
                return false;
            }
            let (mut buffer, mut size, mut max) = (std::ptr::null_mut::<u8>(), 0usize, 0usize);
            // SAFETY: the slot's own request callback with valid out-pointers.
            unsafe { (self.request)(&mut buffer, &mut size, &mut max) };
            if buffer.is_null() || size == 0 {
                self.exhausted = true;
                self.dropped += 1;
                return false;
            }
            self.current = Some((buffer, size, 0, 0, max));
        }
    }
}

/// The real buffer completion: every record to every slot that asked for its kind.
unsafe extern "C" fn shim_complete(
    context: CUcontext,
    stream: u32,
    buffer: *mut u8,
    _size: usize,
    valid: usize,
) {
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: CUPTI passes a buffer the shim gave, `valid` bytes of records.
        unsafe { complete(context, stream, buffer, valid) }
    });
}

unsafe fn complete(context: CUcontext, stream: u32, buffer: *mut u8, valid: usize) {
    let Some(owned) = with(|s| s.outstanding.remove(&(buffer as usize))) else {
        // Not a buffer of the shim's: left alone.
        return;
    };
    let (mut writers, done) = with(|s| {
        s.fanouts += 1;
        let writers: Vec<(usize, Writer)> = s
            .slots
            .iter_mut()
            .enumerate()
            .filter_map(|(i, sl)| {
                let (request, complete) = (sl.request?, sl.complete?);
                let current =
                    sl.open.take().map(|o| (o.buffer as *mut u8, o.capacity, o.used, o.records, o.max));
                Some((
                    i,
                    Writer {
                        request,
                        complete,
                        filter: sl.filter.clone(),
                        current,
                        exhausted: false,
                        dropped: 0,
                    },
                ))
            })
            .collect();
        (writers, s.flush_done)
    });
    let _fanout = FanoutGuard::enter();
    let valid = valid.min(owned.len() * 8);
    if let (Some(next), false) = (real().and_then(|r| r.next_record), writers.is_empty()) {
        let mut starts = Vec::new();
        let mut record: *mut CUpti_Activity = std::ptr::null_mut();
        loop {
            // SAFETY: the real walker over the shim's buffer of `valid` bytes.
            let r = unsafe { next(buffer, valid, &mut record) };
            // MAX_LIMIT_REACHED: the end; any other error: nothing after it can be walked.
            if r != SUCCESS || record.is_null() {
                break;
            }
            // SAFETY: CUPTI returned a pointer into `buffer`.
            let at = unsafe { record.cast::<u8>().offset_from(buffer) };
            match usize::try_from(at) {
                Ok(at) if at < valid => starts.push(at),
                _ => break,
            }
        }
        // SAFETY: `buffer` is the shim's, `valid` bytes initialised (zeroed, then written by CUPTI).
        let bytes = unsafe { std::slice::from_raw_parts(buffer, valid) };
        // A foreign record clock (a client's `cuptiActivityRegisterTimestampCallback`): the cooperative
        // slots' records go back to CLOCK_REALTIME, with the offset sampled now (see `clock`).
        let offset = if writers.iter().any(|(i, _)| *i >= 1) { clock::offset() } else { None };
        let mut scratch = Vec::new();
        for (n, &at) in starts.iter().enumerate() {
            let end = starts.get(n + 1).copied().unwrap_or(valid);
            if end <= at || end - at < 8 {
                continue;
            }
            let record = &bytes[at..end];
            let kind = u32::from_ne_bytes([record[0], record[1], record[2], record[3]]);
            let cbid = u32::from_ne_bytes([record[4], record[5], record[6], record[7]]);
            // The cooperative slots' copy, on CLOCK_REALTIME (made at most once per record).
            let mut mapped: Option<bool> = None;
            for (i, w) in writers.iter_mut() {
                if !w.filter.wants(kind, cbid, done) {
                    continue;
                }
                match offset {
                    Some(offset) if *i >= 1 => {
                        let ok = *mapped.get_or_insert_with(|| clock::convert(record, offset, &mut scratch));
                        if !ok {
                            clock::count_unconverted(*i);
                        }
                        w.push(&scratch, context, stream);
                    }
                    _ => {
                        w.push(record, context, stream);
                    }
                }
            }
        }
    }
    // Each client's partly filled buffer stays open (completed when full, at its flush, or at its
    // finalize), unless the client asked for periodic flushing, or it re-registered meanwhile, or
    // another fan-out already put an open buffer back.
    let mut to_finish = Vec::new();
    with(|s| {
        for (i, w) in writers.iter_mut() {
            let sl = &mut s.slots[*i];
            sl.dropped += w.dropped;
            if let Some((buffer, capacity, used, records, max)) = w.current.take() {
                let same = sl.complete.map(|f| f as usize) == Some(w.complete as usize);
                if same && sl.period == 0 && sl.open.is_none() {
                    sl.open = Some(Open { buffer: buffer as usize, capacity, used, records, max });
                } else {
                    to_finish.push((w.complete, buffer, capacity, used));
                }
            }
        }
        if s.pool.len() < POOL {
            s.pool.push(owned);
        }
    });
    for (complete, buffer, capacity, used) in to_finish {
        // SAFETY: a buffer from this client's request callback, to its complete callback.
        unsafe { complete(context, stream, buffer, capacity, used) };
    }
}

/// A fan-out under way on this thread (counted in [`State::fanouts`], which the caller raised); its
/// end, a panic's included, is signalled to waiting flushes.
struct FanoutGuard;

impl FanoutGuard {
    fn enter() -> FanoutGuard {
        IN_FANOUT.with(|c| c.set(true));
        FanoutGuard
    }
}

impl Drop for FanoutGuard {
    fn drop(&mut self) {
        IN_FANOUT.with(|c| c.set(false));
        with(|s| s.fanouts = s.fanouts.saturating_sub(1));
        FANOUT_DONE.notify_all();
    }
}

/// The slot's request and complete callbacks, as registered (tests and diagnostics).
pub(crate) fn registered(slot: usize) -> bool {
    with(|s| s.slots[slot].request.is_some())
}
