//! Events without an API call of their own: RESOURCE-domain callbacks and NVTX markers.

use std::ffi::CStr;

use super::gpu::with_gpu;
use super::identity::{context_handle, current_device};
use crate::activity::{self, kinds, records};
use crate::clock;
use crate::dispatch;
use crate::sys::CUstream;

/// A RESOURCE-domain event (`CUPTI_CBID_RESOURCE_*`) on the current device's context.
pub fn resource(cbid: u32, stream: u64) {
    dispatch::resource(cbid, context_handle(current_device()), stream as CUstream);
}

/// An NVTX marker: `flags` INSTANTANEOUS (1), START (2) or END (4; `id` from its START).
/// Returns the marker id.
pub fn marker(
    flags: u32,
    id: Option<u32>,
    name: Option<&'static CStr>,
    domain: Option<&'static CStr>,
) -> u32 {
    let id = id.unwrap_or_else(|| with_gpu(|g| g.next_marker_id()));
    activity::emit_if_enabled(kinds::MARKER, || {
        records::marker(&records::Marker {
            flags,
            timestamp: clock::now(),
            id,
            process: clock::process_id(),
            thread: clock::record_thread_id(),
            name,
            domain,
        })
    });
    id
}
