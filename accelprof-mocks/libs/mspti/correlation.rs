//! Correlation ids, as `ContextManager` keeps them: one process-wide counter starting at 1,
//! advanced only where the real library calls `UpdateAndReportCorrelationId` (the launch and
//! memory wrappers, and each kernel task track), remembered per thread; every other record of a
//! thread carries the thread's last id (0 before its first). Each advance also writes the
//! EXTERNAL_CORRELATION records of the pushed external ids.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::Mutex;

static NEXT: AtomicU64 = AtomicU64::new(1);
static BY_THREAD: Mutex<Option<HashMap<u32, u64>>> = Mutex::new(None);

/// A new id for thread `tid` (its records carry it from now on).
pub fn advance(tid: u32) -> u64 {
    let id = NEXT.fetch_add(1, SeqCst);
    crate::external::report(id);
    BY_THREAD.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new).insert(tid, id);
    id
}

/// The last id of thread `tid` (0: none yet).
pub fn current(tid: u32) -> u64 {
    BY_THREAD
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .and_then(|m| m.get(&tid).copied())
        .unwrap_or(0)
}

/// Whether a runtime-domain call of `cbid` advances the id: launches (10..=14) and memory calls
/// (15..=36), as the real wrappers do; device, context and stream calls do not.
pub fn advances(cbid: u32) -> bool {
    (10..=36).contains(&cbid)
}

/// Forgets every thread's id (a control; the counter keeps counting, as it does in the process).
pub fn reset() {
    *BY_THREAD.lock().unwrap_or_else(|e| e.into_inner()) = None;
}
