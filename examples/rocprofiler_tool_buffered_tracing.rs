//! The `rocprofiler_buffered_tracing` example built as a tool library (`cdylib`) exporting
//! `rocprofiler_configure`, for `ROCP_TOOL_LIBRARIES`: the same source, its own target file.

#[path = "rocprofiler_buffered_tracing.rs"]
mod tool;
