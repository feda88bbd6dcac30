//! Test and example support for the workspace: where `build.rs` put the mock vendor libraries.
//!
//! The mocks export the real C symbols of each vendor library with the behaviour recorded in the
//! vendor notes, plus a `mock_*` test-control interface that plays the runtime. Tests and
//! examples open them with the crates' own loaders, exactly as a user's program opens the real
//! library.

pub mod mock;

/// Absolute path of the mock `libcupti` built for this checkout.
pub const MOCK_CUPTI: &str = env!("ACCEL_MOCK_CUPTI");
/// Absolute path of the mock `libmspti` built for this checkout.
pub const MOCK_MSPTI: &str = env!("ACCEL_MOCK_MSPTI");
/// Absolute path of the mock `librocprofiler-sdk` built for this checkout.
pub const MOCK_ROCPROFILER: &str = env!("ACCEL_MOCK_ROCPROFILER");
/// Directory holding the mock CANN libraries (`libascendalog.so`, `libprofapi.so`) that make
/// the MSPTI loader's preflight pass, laid out like `$ASCEND_HOME_PATH/lib64`.
pub const MOCK_ASCEND_HOME: &str = env!("ACCEL_MOCK_ASCEND_HOME");
