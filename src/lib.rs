//! Test and example support for the workspace: where `build.rs` put the mock vendor libraries.
//!
//! The mocks export the real C symbols of each vendor library with the behaviour recorded in the
//! vendor notes, plus a `mock_*` test-control interface that plays the runtime. Tests and
//! examples open them with the crates' own loaders, exactly as a user's program opens the real
//! library.

pub mod ascend;
pub mod mock;

/// Absolute path of the mock `libcupti` built for this checkout.
pub const MOCK_CUPTI: &str = env!("ACCEL_MOCK_CUPTI");
/// Absolute path of the mock `libmspti` built for this checkout.
pub const MOCK_MSPTI: &str = env!("ACCEL_MOCK_MSPTI");
/// Absolute path of the mock `librocprofiler-sdk` built for this checkout.
pub const MOCK_ROCPROFILER: &str = env!("ACCEL_MOCK_ROCPROFILER");
/// A CANN home for the mock `libmspti`: its `lib64` holds stand-ins of the CANN libraries and the
/// NPU driver that the real `libmspti.so` loads (`libascendalog.so`, `libprofapi.so`,
/// `libc_sec.so`, `libascend_hal.so`) and of the runtime, HCCL and MSTX libraries whose calls it
/// interposes (`libascendcl.so`, `libhccl.so`, `libms_tools_ext.so`), laid out like
/// `$ASCEND_HOME_PATH/lib64`. They report to MSPTI as CANN does, so they also drive the real
/// `libmspti.so` built from source.
pub const MOCK_ASCEND_HOME: &str = env!("ACCEL_MOCK_ASCEND_HOME");
/// A directory holding only a `libascendalog.so` that exports `CheckLogLevelForC` and nothing
/// else (what `libmspti.so` needs of the log library).
pub const MOCK_ASCEND_MIN_LOG: &str = env!("ACCEL_MOCK_ASCEND_MIN_LOG");
