//! The control interface of the bundled mock vendor libraries: safe wrappers over the `mock_*`
//! symbols each mock exports next to the vendor's own C API, with which a test or an example
//! plays the runtime (API calls, kernels, devices) and reads the mock's counters.
//!
//! Each wrapper opens the mock with `dlopen` on the same file that the crate's own loader opened
//! (one handle, one mock state per process). The mocks are one per process: tests that drive one
//! must not run concurrently, and start from its `reset` control.

pub mod cupti;
pub mod mspti;
pub mod rocprofiler;
