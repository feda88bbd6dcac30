use std::fmt;
use std::sync::{Arc, Mutex};

use crate::columns::{Batch, FamilySet};
use crate::intern::Names;
use crate::pipeline::Pipeline;

/// Rows of a session kept by a consumer of its own ([`Session::collect`](super::Session::collect)).
#[derive(Clone)]
pub struct Collected {
    rows: Arc<Mutex<Batch>>,
    names: Names,
}

impl Collected {
    /// Subscribes a consumer to `pipeline` that keeps a copy of every row of `families`.
    pub fn subscribe(pipeline: &Pipeline, families: FamilySet) -> Collected {
        let collected = Collected { rows: Arc::new(Mutex::new(Batch::new())), names: pipeline.names() };
        let rows = Arc::clone(&collected.rows);
        pipeline.subscribe(families, move |batch, _| {
            let mut rows = rows.lock().unwrap_or_else(|e| e.into_inner());
            copy_families(&mut rows, batch, families);
        });
        collected
    }

    /// Takes the rows kept so far (flush first to have everything up to now).
    pub fn take(&self) -> Batch {
        std::mem::take(&mut *self.rows.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Names of the rows' `NameId`s.
    pub fn names(&self) -> &Names {
        &self.names
    }
}

impl fmt::Debug for Collected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.rows.lock().map(|b| b.len()).unwrap_or(0);
        f.debug_struct("Collected").field("rows", &rows).finish()
    }
}

/// Appends the rows of `families` of `src` to `dst`.
pub fn copy_families(dst: &mut Batch, src: &Batch, families: FamilySet) {
    if families.contains(FamilySet::KERNEL) {
        dst.kernels.extend_from(&src.kernels);
    }
    if families.contains(FamilySet::MEMCPY) {
        dst.memcpys.extend_from(&src.memcpys);
    }
    if families.contains(FamilySet::MEMSET) {
        dst.memsets.extend_from(&src.memsets);
    }
    if families.contains(FamilySet::API) {
        dst.api_calls.extend_from(&src.api_calls);
    }
    if families.contains(FamilySet::MARKER) {
        dst.markers.extend_from(&src.markers);
    }
    if families.contains(FamilySet::COLLECTIVE) {
        dst.collectives.extend_from(&src.collectives);
    }
    if families.contains(FamilySet::MEMORY) {
        dst.memory.extend_from(&src.memory);
    }
    if families.contains(FamilySet::SYNC) {
        dst.syncs.extend_from(&src.syncs);
    }
    if families.contains(FamilySet::EXTERNAL_CORRELATION) {
        dst.external_correlations.extend_from(&src.external_correlations);
    }
    if families.contains(FamilySet::COUNTER) {
        dst.counters.extend_from(&src.counters);
    }
}
