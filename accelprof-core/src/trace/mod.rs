//! Chrome trace JSON, written with the conventions of PyTorch's profiler (Kineto), streamed as it is
//! collected.
//!
//! Perfetto, chrome://tracing, HolisticTraceAnalysis (HTA) and TensorBoard all read Kineto's files, so we
//! write the same: metadata keys first (`schemaVersion`, `distributedInfo` with `"rank": N` and a space
//! after the colon, which HTA's regex needs, `deviceProperties`, ..., `traceName`, `baseTimeNanoseconds`),
//! then `traceEvents`. `ts`/`dur` are microseconds relative to `baseTimeNanoseconds`, 3 decimals.
//!
//! - GPU work (`kernel`, `gpu_memcpy`, `gpu_memset`): `pid` = device, `tid` = stream, args `device`,
//!   `context`, `stream`, `correlation` (+ `grid`, `block`, `registers per thread`, `shared memory` for
//!   kernels; `bytes`, `memory bandwidth (GB/s)` for copies and sets).
//! - API calls (`cuda_runtime` / `cuda_driver`, chosen per vendor domain by [`Categories`]): host
//!   `pid`/`tid`, args `correlation` and `cbid`, never an integer `stream` (HTA would take them for GPU work).
//! - Flow arrows `ph: "s"` / `ph: "f"`, `cat: "ac2g"`, `id` = correlation, `bp: "e"` on the `f` end, from each
//!   API call to the GPU work with its correlation id, written as soon as both ends are seen. API calls
//!   nested in another with the same id (the driver calls of a CUDA runtime call) start no arrow of their
//!   own: it starts at the outermost call.
//! - Markers: `user_annotation` on the host, `gpu_user_annotation` on a device.
//! - One event per line, so that a torn file can be cut after its last complete event.
//!
//! Two writers share the renderer: [`ChromeTrace`] builds a trace in memory and writes it at once
//! (atomically: a temporary file renamed); [`ChromeTraceWriter`] streams batches to a file that is whole
//! after every batch (the [`TraceSink`] of tracers), and [`recover`] closes one left behind by a writer
//! that died in the middle of a write.

mod categories;
mod chrome_trace;
pub mod cuda_devices;
mod device_events;
mod device_properties;
mod emit;
mod flows;
mod gpu_events;
mod host_events;
mod json_object;
mod layout;
mod meta;
mod op_names;
mod output;
mod recover;
mod recover_in_place;
mod sink;
mod time_map;
mod writer;

pub use categories::Categories;
pub use chrome_trace::ChromeTrace;
pub use cuda_devices::{
    cuda_device_properties, cuda_devices, cuda_driver_version, CudaDeviceWatch, CudaDevicesError,
};
pub use device_properties::DeviceProperties;
pub use flows::FlowStats;
pub use meta::{host_name, TraceMeta};
pub use op_names::{memcpy_name, memset_name};
pub use output::{finished_path, partial_path, OutputStats};
pub use recover::{recover, Recovery, MAX_LINE};
pub use sink::TraceSink;
pub use time_map::{ClockAnchor, TimeMap};
pub use writer::{ChromeTraceWriter, TraceFile, WriterOptions, DEFAULT_PENDING_FLOWS};
