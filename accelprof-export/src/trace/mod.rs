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
//! Two writers share the renderer (feature `chrome`, on by default): `ChromeTrace` builds a trace in
//! memory and writes it at once (atomically: a temporary file renamed); `ChromeTraceWriter` streams
//! batches to a file that is whole after every batch (a [`TraceSink`]), and `recover` closes one left
//! behind by a writer that died in the middle of a write.
//!
//! What every writer of the crate shares is here whatever the features: the sink trait ([`TraceSink`],
//! which the Parquet and Perfetto sinks implement too), the run's metadata ([`RunMeta`],
//! [`DeviceProperties`], [`Categories`]), the `.partial` file names, the operation names, and the CUDA
//! driver's device queries ([`cuda_devices`](mod@cuda_devices)) that fill a CUDA trace's `deviceProperties`. The clock
//! mapping ([`TimeMap`], [`ClockAnchor`]) is the core crate's (`accelprof_core::time`, which the vendor
//! crates use): it is re-exported here.

mod categories;
pub mod cuda_devices;
mod device_properties;
mod meta;
mod op_names;
pub(crate) mod paths;
mod sink;
mod style;

#[cfg(feature = "chrome")]
mod chrome_trace;
#[cfg(feature = "chrome")]
mod device_events;
#[cfg(feature = "chrome")]
mod emit;
#[cfg(feature = "chrome")]
mod flows;
#[cfg(feature = "chrome")]
mod gpu_events;
#[cfg(feature = "chrome")]
mod host_events;
#[cfg(feature = "chrome")]
mod json_object;
#[cfg(feature = "chrome")]
mod layout;
#[cfg(feature = "chrome")]
mod output;
#[cfg(feature = "chrome")]
mod recover;
#[cfg(feature = "chrome")]
mod recover_binary;
#[cfg(feature = "chrome")]
mod recover_in_place;
#[cfg(feature = "chrome")]
mod writer;

pub use crate::meta::RunMeta;
pub use accelprof_core::time::{ClockAnchor, TimeMap};
pub use categories::Categories;
pub use cuda_devices::{
    cuda_device_properties, cuda_devices, cuda_driver_version, CudaDeviceWatch, CudaDevicesError,
};
pub use device_properties::DeviceProperties;
pub use meta::{clock_anchor_json, host_name};
pub use op_names::{memcpy_name, memset_name};
pub use paths::{create_private, finished_path, name_extension, partial_path, NAME_MAX};
pub use sink::{FlowStats, TraceFile, TraceSink};
pub use style::{Style, CUPTI_API_DOMAIN_DRIVER, CUPTI_API_DOMAIN_OVERHEAD};

#[cfg(feature = "chrome")]
pub use chrome_trace::ChromeTrace;
#[cfg(feature = "chrome")]
pub use output::OutputStats;
#[cfg(feature = "chrome")]
pub use recover::{recover, Recovery, MAX_LINE};
#[cfg(feature = "chrome")]
pub use writer::{ChromeTraceWriter, WriterOptions, DEFAULT_PENDING_FLOWS};
