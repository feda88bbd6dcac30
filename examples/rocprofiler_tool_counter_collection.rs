//! The `rocprofiler_counter_collection` example built as a tool library (`cdylib`) exporting
//! `rocprofiler_configure`, for `ROCP_TOOL_LIBRARIES`: the same source, its own target file.

#[path = "rocprofiler_counter_collection.rs"]
mod tool;
