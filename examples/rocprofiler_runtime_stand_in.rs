//! Plays the ROCm runtime for tool *libraries*: loads the (mock) SDK, lets it configure every
//! tool named by `ROCP_TOOL_LIBRARIES` (each library's exported `rocprofiler_configure`, which
//! reuses this process's SDK), runs a small HIP workload on two GPUs, and finalizes.
//!
//! ```text
//! cargo rustc --example rocprofiler_buffered_tracing --crate-type cdylib
//! ROCP_TOOL_LIBRARIES=$PWD/target/debug/examples/librocprofiler_buffered_tracing.so \
//!     cargo run --example rocprofiler_runtime_stand_in
//! ```
//!
//! Note: the SDK splits `ROCP_TOOL_LIBRARIES` on `:` and ignores what follows the last `:`
//! when there is one; end a list of several libraries with `:`.

mod rocprofiler_common;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tools = std::env::var("ROCP_TOOL_LIBRARIES").unwrap_or_default();
    if tools.is_empty() {
        return Err("set ROCP_TOOL_LIBRARIES to a tool library (see the example's documentation)".into());
    }
    let runtime = rocprofiler_common::MockRuntime::open()?;
    runtime.load_tools()?;
    runtime.workload(&[0, 1]);
    runtime.shutdown();
    Ok(())
}
