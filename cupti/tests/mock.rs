//! Fidelity of the mock `libcupti` (`accelprof-mocks/libs/cupti/`): opened through `cupti_sys::Library` exactly
//! as a user's program opens the real one, driven through its `mock_cupti_*` controls, and
//! checked against what the real CUPTI 12.9 and 13.0 do (vendor notes, headers, and the probed
//! libraries: see `real_library` for the checks that run when a real one is at hand).

#[path = "mock/buffers.rs"]
mod buffers;
#[path = "mock/harness.rs"]
mod harness;
#[path = "mock/layout.rs"]
mod layout;
#[path = "mock/recorder.rs"]
mod recorder;

#[path = "mock/activity_buffers.rs"]
mod activity_buffers;
#[path = "mock/activity_filter.rs"]
mod activity_filter;
#[path = "mock/activity_records.rs"]
mod activity_records;
#[path = "mock/activity_v2.rs"]
mod activity_v2;
#[path = "mock/callbacks.rs"]
mod callbacks;
#[path = "mock/nesting.rs"]
mod nesting;
#[path = "mock/real_library.rs"]
mod real_library;
#[path = "mock/subscribe.rs"]
mod subscribe;
#[path = "mock/versions.rs"]
mod versions;
