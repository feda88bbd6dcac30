//! Where a walk appends rows: one [`RowWriter`] per family the walker produces.
//!
//! A writer appends a row with one store per field; the columns' lengths are set once, when the walk ends
//! (`push` would update every column's length for every record).

use accelprof_core::columns::{
    ApiColumns, ExternalCorrelationColumns, KernelColumns, MarkerColumns, MemcpyColumns, MemoryColumns,
    MemsetColumns, RowWriter, SyncColumns,
};
use accelprof_core::Batch;

/// The writers of one walk, borrowing the batch's columns.
pub(super) struct Sinks<'a> {
    pub(super) kernels: RowWriter<'a, KernelColumns>,
    pub(super) memcpys: RowWriter<'a, MemcpyColumns>,
    pub(super) memsets: RowWriter<'a, MemsetColumns>,
    pub(super) api_calls: RowWriter<'a, ApiColumns>,
    pub(super) markers: RowWriter<'a, MarkerColumns>,
    pub(super) memory: RowWriter<'a, MemoryColumns>,
    pub(super) syncs: RowWriter<'a, SyncColumns>,
    pub(super) external_correlations: RowWriter<'a, ExternalCorrelationColumns>,
}

impl<'a> Sinks<'a> {
    pub(super) fn new(out: &'a mut Batch) -> Self {
        let Batch {
            kernels, memcpys, memsets, api_calls, markers, memory, syncs, external_correlations, ..
        } = out;
        Sinks {
            kernels: kernels.writer(0),
            memcpys: memcpys.writer(0),
            memsets: memsets.writer(0),
            api_calls: api_calls.writer(0),
            markers: markers.writer(0),
            memory: memory.writer(0),
            syncs: syncs.writer(0),
            external_correlations: external_correlations.writer(0),
        }
    }
}
