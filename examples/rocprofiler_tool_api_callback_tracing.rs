//! The `rocprofiler_api_callback_tracing` example built as a tool library (`cdylib`) exporting
//! `rocprofiler_configure`, for `ROCP_TOOL_LIBRARIES`: the same source, its own target file.

#[path = "rocprofiler_api_callback_tracing.rs"]
mod tool;
