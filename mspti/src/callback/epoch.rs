//! How many times each callback id was switched off: what tells a frame left by an ENTER whose
//! EXIT never came from the frame of the call an EXIT belongs to.
//!
//! MSPTI checks whether an id is enabled at each site of a call: switched off in the middle of a
//! call, the call's ENTER arrives but its EXIT does not; switched on in the middle, the EXIT arrives
//! without its ENTER. The first leaves a frame on the thread's stack; the second must not take that
//! frame as its own (it would read the stale call's value and claim to be paired). A frame records
//! its id's epoch at ENTER; an EXIT pairs with it only if the id has not been switched off since.
//! (An EXIT whose ENTER came before a switch-off and which still arrives is then reported
//! unpaired: a lost pairing, never a wrong one.)

use std::sync::atomic::{AtomicU64, Ordering::SeqCst};

/// Domains 0..=2 (MSPTI accepts 1 and 2), ids 0..64 (MSPTI accepts ids below 64).
const DOMAINS: usize = 3;
const IDS: usize = 64;

static EPOCHS: [[AtomicU64; IDS]; DOMAINS] = [const { [const { AtomicU64::new(0) }; IDS] }; DOMAINS];

fn cell(domain: u32, cbid: u32) -> Option<&'static AtomicU64> {
    EPOCHS.get(domain as usize)?.get(cbid as usize)
}

/// The epoch of (domain, cbid) now (0 for ids MSPTI cannot enable).
pub(crate) fn current(domain: u32, cbid: u32) -> u64 {
    cell(domain, cbid).map_or(0, |c| c.load(SeqCst))
}

/// After `msptiEnableCallback(0, ...)`: frames of this id on any thread may never see their EXIT.
pub(crate) fn switched_off(domain: u32, cbid: u32) {
    if let Some(c) = cell(domain, cbid) {
        c.fetch_add(1, SeqCst);
    }
}

/// After `msptiEnableDomain(0, ...)`: every id of the domain.
pub(crate) fn domain_switched_off(domain: u32) {
    if let Some(ids) = EPOCHS.get(domain as usize) {
        for c in ids {
            c.fetch_add(1, SeqCst);
        }
    }
}
