//! The `rocprofiler_two_gpu_counting` example built as a tool library (`cdylib`) exporting
//! `rocprofiler_configure`, for `ROCP_TOOL_LIBRARIES`: the same source, its own target file.

#[path = "rocprofiler_two_gpu_counting.rs"]
mod tool;
