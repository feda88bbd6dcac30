//! Who receives activity records: sink 0 is the process-wide (V1) activity API, sinks 1.. are V2
//! subscribers (`cuptiActivityEnable_v2` and the like, 13.2 and later), each with its own kinds, callback
//! filters, record format and buffers (multiple subscribers, production from 13.3).
//!
//! Per sink, what gets a record (the rules the vendor notes give, from the headers' documentation):
//! - A kind is on or off (`cuptiActivityEnable`/`Disable`, `_v2`).
//! - For RUNTIME and DRIVER, each callback id is on or off: enabling the kind turns every id on,
//!   disabling it turns every id off, and `cuptiActivityEnableRuntimeApi`/`DriverApi(cbid, on)` sets one
//!   id either way (so ids can be enabled without the kind). A record of a call is written only when its
//!   id is on: a filtered call is never written, so it is neither delivered nor counted as dropped.
//! - User-defined records (a V2 subscriber with `CUPTI_ACTIVITY_ATTR_USER_DEFINED_RECORDS`): each kind
//!   carries the field selection it was enabled with; records hold those fields only ([`super::udr`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use super::kinds;
use crate::callback_names::{DOMAIN_DRIVER, DOMAIN_RUNTIME};

/// Sinks: the V1 API and up to seven V2 subscribers.
pub const MAX_SINKS: usize = 8;
/// The process-wide (V1) activity API.
pub const GLOBAL: usize = 0;
/// Callback ids per domain a sink tracks (the 13.5 headers have 877 driver and 567 runtime ids).
const CBID_WORDS: usize = 16;

/// One bit per callback id.
struct CbidBits([AtomicU64; CBID_WORDS]);

impl CbidBits {
    const fn new() -> Self {
        CbidBits([const { AtomicU64::new(0) }; CBID_WORDS])
    }

    fn fill(&self, on: bool) {
        self.0.iter().for_each(|w| w.store(if on { u64::MAX } else { 0 }, Ordering::Relaxed));
    }

    fn set(&self, cbid: u32, on: bool) {
        let Some(word) = self.0.get(cbid as usize / 64) else { return };
        let bit = 1u64 << (cbid % 64);
        if on {
            word.fetch_or(bit, Ordering::Relaxed);
        } else {
            word.fetch_and(!bit, Ordering::Relaxed);
        }
    }

    fn get(&self, cbid: u32) -> bool {
        self.0.get(cbid as usize / 64).is_some_and(|w| w.load(Ordering::Relaxed) & (1 << (cbid % 64)) != 0)
    }
}

pub struct Sink {
    /// The V2 subscriber's id (0: free; sink 0 is the V1 API).
    subscriber: AtomicU64,
    kinds: [AtomicBool; 64],
    runtime: CbidBits,
    driver: CbidBits,
    /// User-defined records (V2 only).
    user_defined: AtomicBool,
    /// Per kind, the field selection it was last enabled with (kept after disabling, until a forced
    /// flush: the layouts of buffers filled before still need it).
    selections: Mutex<Vec<Option<Vec<u32>>>>,
}

impl Sink {
    const fn new() -> Self {
        Sink {
            subscriber: AtomicU64::new(0),
            kinds: [const { AtomicBool::new(false) }; 64],
            runtime: CbidBits::new(),
            driver: CbidBits::new(),
            user_defined: AtomicBool::new(false),
            selections: Mutex::new(Vec::new()),
        }
    }

    fn clear(&self) {
        self.kinds.iter().for_each(|k| k.store(false, Ordering::Relaxed));
        self.runtime.fill(false);
        self.driver.fill(false);
        self.user_defined.store(false, Ordering::Relaxed);
        self.selections.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    pub fn set_kind(&self, kind: u32, on: bool) {
        if let Some(k) = self.kinds.get(kind as usize) {
            k.store(on, Ordering::Relaxed);
        }
        match kind {
            kinds::RUNTIME => self.runtime.fill(on),
            kinds::DRIVER => self.driver.fill(on),
            _ => {}
        }
    }

    pub fn kind(&self, kind: u32) -> bool {
        self.kinds.get(kind as usize).is_some_and(|k| k.load(Ordering::Relaxed))
    }

    /// Sets callback id `cbid` of `domain` on or off.
    pub fn set_cbid(&self, domain: u32, cbid: u32, on: bool) {
        match domain {
            DOMAIN_RUNTIME => self.runtime.set(cbid, on),
            DOMAIN_DRIVER => self.driver.set(cbid, on),
            _ => {}
        }
    }

    /// Whether a call `cbid` of `domain` gets a record here.
    pub fn records_call(&self, domain: u32, cbid: u32) -> bool {
        match domain {
            DOMAIN_RUNTIME => self.runtime.get(cbid),
            DOMAIN_DRIVER => self.driver.get(cbid),
            _ => false,
        }
    }

    /// Whether any id of the API kind `kind` is on (the kind, or some ids enabled on their own).
    pub fn any_call(&self, kind: u32) -> bool {
        let bits = match kind {
            kinds::RUNTIME => &self.runtime,
            kinds::DRIVER => &self.driver,
            _ => return self.kind(kind),
        };
        bits.0.iter().any(|w| w.load(Ordering::Relaxed) != 0)
    }

    pub fn user_defined(&self) -> bool {
        self.user_defined.load(Ordering::Relaxed)
    }

    pub fn set_user_defined(&self, on: bool) {
        self.user_defined.store(on, Ordering::Relaxed);
    }

    /// The selection `kind` is recorded with (user-defined records), if it has one.
    pub fn selection(&self, kind: u32) -> Option<Vec<u32>> {
        self.selections.lock().unwrap_or_else(|e| e.into_inner()).get(kind as usize).cloned().flatten()
    }

    /// Every kind's selection, indexed by kind (for the layouts a buffer is completed with).
    pub fn selections(&self) -> Vec<Option<Vec<u32>>> {
        self.selections.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Sets the selection of `kind`; false when it differs from the one it was last enabled with (which
    /// buffers may still hold): CUPTI's documented rule is disable, `cuptiActivityFlushAll(1)`, enable.
    pub fn select(&self, kind: u32, fields: Vec<u32>) -> bool {
        let mut selections = self.selections.lock().unwrap_or_else(|e| e.into_inner());
        let slot = kind as usize;
        if selections.len() <= slot {
            selections.resize(slot + 1, None);
        }
        if selections[slot].as_ref().is_some_and(|old| *old != fields) {
            return false;
        }
        selections[slot] = Some(fields);
        true
    }

    /// A forced flush handed every buffer out: the selections of disabled kinds are forgotten (they may
    /// change now).
    pub fn forced_flush(&self) {
        let mut selections = self.selections.lock().unwrap_or_else(|e| e.into_inner());
        for (kind, s) in selections.iter_mut().enumerate() {
            if !self.kind(kind as u32) {
                *s = None;
            }
        }
    }
}

static SINKS: [Sink; MAX_SINKS] = [const { Sink::new() }; MAX_SINKS];

pub fn get(sink: usize) -> &'static Sink {
    &SINKS[sink]
}

/// Whether `sink` is the V1 API or belongs to a live subscriber.
pub fn is_live(sink: usize) -> bool {
    sink == GLOBAL || SINKS[sink].subscriber.load(Ordering::Relaxed) != 0
}

/// The sinks (indices) that record `kind`.
pub fn recording(kind: u32) -> impl Iterator<Item = usize> {
    (0..MAX_SINKS).filter(move |&s| is_live(s) && SINKS[s].kind(kind))
}

/// The sinks that record a call `cbid` of `domain` (API kind `kind`).
pub fn recording_call(domain: u32, cbid: u32) -> impl Iterator<Item = usize> {
    (0..MAX_SINKS).filter(move |&s| is_live(s) && SINKS[s].records_call(domain, cbid))
}

/// The sink of V2 subscriber `id`, made on first use; `None` when every sink is taken.
pub fn of_subscriber(id: u64) -> Option<usize> {
    static ALLOC: Mutex<()> = Mutex::new(());
    let _guard = ALLOC.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = (1..MAX_SINKS).find(|&s| SINKS[s].subscriber.load(Ordering::Relaxed) == id) {
        return Some(s);
    }
    let free = (1..MAX_SINKS).find(|&s| SINKS[s].subscriber.load(Ordering::Relaxed) == 0)?;
    SINKS[free].clear();
    SINKS[free].subscriber.store(id, Ordering::Relaxed);
    Some(free)
}

/// The sink of V2 subscriber `id`, if it has one.
pub fn find_subscriber(id: u64) -> Option<usize> {
    (1..MAX_SINKS).find(|&s| SINKS[s].subscriber.load(Ordering::Relaxed) == id)
}

/// The subscriber `id` is gone: its sink stops recording (its buffers are forgotten, not handed back).
pub fn release_subscriber(id: u64) {
    if let Some(s) = find_subscriber(id) {
        SINKS[s].clear();
        SINKS[s].subscriber.store(0, Ordering::Relaxed);
        super::buffers::forget(s);
    }
}

/// Whether a V2 sink with user-defined records is live (CUPTI then refuses several V1 calls).
pub fn user_defined_live() -> bool {
    (1..MAX_SINKS).any(|s| SINKS[s].subscriber.load(Ordering::Relaxed) != 0 && SINKS[s].user_defined())
}

/// A forced flush ran.
pub fn forced_flush() {
    SINKS.iter().for_each(Sink::forced_flush);
}

pub fn reset() {
    for s in &SINKS {
        s.clear();
        s.subscriber.store(0, Ordering::Relaxed);
    }
}
