//! The CUDA runtime the tests play through `mock_cupti_*`: API calls with their callbacks and
//! API records, and the GPU work they cause (kernels, copies, sets, synchronizations) with its
//! activity records.
//!
//! Identities: device `d` (per thread, `mock_cupti_set_device`) has context id `d + 1` and a fake
//! non-NULL `CUcontext`; a stream handle `s` has stream id `s as u32`, the NULL stream id 7.
//! Correlation ids are unique per API call, process-wide, except that driver calls made inside a
//! runtime call share its id ([`nesting`], on by default as in the real library).
//!
//! Timing: an API record spans the call (start after the ENTER callbacks, end before the EXIT
//! ones). GPU work starts 1 us after its API call or when the previous work on its stream ends,
//! whichever is later, and lasts the given duration. Blocking calls (`cudaMemcpy`,
//! `cudaMemset`, synchronizations) really wait until the work they wait for has ended, so a
//! timestamp taken after them is past it. Records follow the API record in the buffer:
//! EXTERNAL_CORRELATION records, the API record, then the GPU record.

mod api_call;
mod events;
mod gpu;
mod identity;
mod launch;
mod memory;
mod nesting;
mod sync;

pub use api_call::{api_call, begin, finish, on_own_thread, ApiCall};
pub use events::{marker, resource};
pub use gpu::{complete_kernel, kernels_in_flight};
pub use identity::{fail_next_call, set_device};
pub use launch::{launch_kernel, Launch};
pub use memory::{free, malloc, memcpy, memset, Copy, Set};
pub use nesting::set_enabled as set_nested_driver_calls;
pub use sync::synchronize;

/// Forgets the played runtime's state: per-thread devices and failures, the GPU timeline, open
/// runtime calls; nested driver calls are played again.
pub fn reset() {
    identity::reset();
    gpu::reset();
    nesting::reset();
}
