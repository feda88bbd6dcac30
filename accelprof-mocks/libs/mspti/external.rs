//! External correlation: one set of per-kind stacks for the whole process (not per thread), any
//! kind value accepted; popping an empty stack gives QUEUE_EMPTY. Each new correlation id gets an
//! EXTERNAL_CORRELATION record per non-empty stack, with the stack's top.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use crate::records::kind;
use crate::result::*;

static EXTERNAL: Mutex<BTreeMap<u32, Vec<u64>>> = Mutex::new(BTreeMap::new());

fn stacks() -> MutexGuard<'static, BTreeMap<u32, Vec<u64>>> {
    EXTERNAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[no_mangle]
pub extern "C" fn msptiActivityPushExternalCorrelationId(k: u32, id: u64) -> u32 {
    if crate::reentered("msptiActivityPushExternalCorrelationId") {
        return INNER;
    }
    stacks().entry(k).or_default().push(id);
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn msptiActivityPopExternalCorrelationId(k: u32, last_id: *mut u64) -> u32 {
    if crate::reentered("msptiActivityPopExternalCorrelationId") {
        return INNER;
    }
    if last_id.is_null() {
        return INVALID_PARAMETER;
    }
    let mut map = stacks();
    let Some(stack) = map.get_mut(&k) else { return QUEUE_EMPTY };
    let id = stack.pop().expect("empty stacks are removed");
    if stack.is_empty() {
        map.remove(&k);
    }
    // SAFETY: checked non-null; the caller's out-pointer.
    unsafe { *last_id = id };
    SUCCESS
}

/// The EXTERNAL_CORRELATION records of correlation id `corr` (`ReportExternalCorrelationId`).
pub fn report(corr: u64) {
    if !crate::activity::is_enabled(kind::EXTERNAL_CORRELATION) {
        return;
    }
    let tops: Vec<(u32, u64)> = stacks().iter().filter_map(|(k, s)| Some((*k, *s.last()?))).collect();
    for (k, id) in tops {
        crate::activity::record(crate::records::external_correlation(k, id, corr).bytes(), false);
    }
}

/// Empties every stack (a control).
pub fn reset() {
    stacks().clear();
}
