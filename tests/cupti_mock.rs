//! Fidelity of the mock `libcupti` (`mocks/cupti/`): opened through `cupti_sys::Library` exactly
//! as a user's program opens the real one, driven through its `mock_cupti_*` controls, and
//! checked against what the real CUPTI 12.9 and 13.0 do (vendor notes, headers, and the probed
//! libraries: see `real_library` for the checks that run when a real one is at hand).

#[path = "cupti_mock/buffers.rs"]
mod buffers;
#[path = "cupti_mock/harness.rs"]
mod harness;
#[path = "cupti_mock/layout.rs"]
mod layout;
#[path = "cupti_mock/recorder.rs"]
mod recorder;

#[path = "cupti_mock/activity_buffers.rs"]
mod activity_buffers;
#[path = "cupti_mock/activity_filter.rs"]
mod activity_filter;
#[path = "cupti_mock/activity_records.rs"]
mod activity_records;
#[path = "cupti_mock/activity_v2.rs"]
mod activity_v2;
#[path = "cupti_mock/callbacks.rs"]
mod callbacks;
#[path = "cupti_mock/nesting.rs"]
mod nesting;
#[path = "cupti_mock/real_library.rs"]
mod real_library;
#[path = "cupti_mock/subscribe.rs"]
mod subscribe;
#[path = "cupti_mock/versions.rs"]
mod versions;
