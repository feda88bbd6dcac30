//! Mock `librocprofiler-sdk.so`: the real C symbols a rocprofiler tool uses, with the behaviour the
//! vendor notes record, plus `mock_rocprofiler_*` controls that play the ROCm runtime.
//!
//! What it simulates (each rule is checked by `rocprofiler/tests/mock.rs`):
//! - the configure window: `mock_rocprofiler_load_tools` (or `rocprofiler_force_configure`) finds
//!   every `rocprofiler_configure` (libraries in `ROCP_TOOL_LIBRARIES`, a function registered
//!   with `mock_rocprofiler_register_configure`, the global symbol), calls each with
//!   (version, version string, priority, client id), then each `initialize(finalize, tool_data)`.
//!   Contexts, buffers and services can be created only while that runs; before and after, those
//!   calls return `CONFIGURATION_LOCKED`. `mock_rocprofiler_shutdown` finalizes the tools.
//! - contexts (zeroed id required; no destroy), callback tracing (once per kind per context,
//!   NULL operation list = all, phases ENTER/EXIT, a `rocprofiler_user_data_t` kept from ENTER
//!   to EXIT of one call), kind and operation names;
//! - buffers (size, watermark, DISCARD/LOSSLESS, cumulative drop count) delivered as arrays of
//!   `rocprofiler_record_header_t*` on one internal thread (or an assigned callback thread), in
//!   the order records complete, which is not time order;
//! - one CPU and three GPU agents (none when playing a machine without KFD), counters with
//!   dimensions (one result record per dimension instance), counter configs, dispatch counting
//!   (buffered and callback) with per-dispatch config choice between ENQUEUE ENTER and EXIT, one
//!   user-data slot per dispatch, results delivered later on the SDK's counting thread and
//!   drained by `rocprofiler_stop_context`, per-agent reference-counted serialization,
//!   `CONTEXT_CONFLICT`, and `rocprofiler_dispatch_counting_service_set_agents` (absent from the
//!   mainline build, `libs/rocprofiler-mainline`);
//! - completions as on a GPU (`signal.rs`): a kernel's COMPLETE callbacks, records and counter
//!   results, and a memory copy's EXIT (its ENTER at submit, timestamps 0), come later on one
//!   async-signal thread, to the contexts of enqueue, kernels only when timing could be read;
//!   `rocprofiler_stop_context` waits for those queued before it; a full LOSSLESS buffer makes
//!   its producer wait for the buffer callback; the queue callback lock (read-held around the
//!   enqueue callbacks, written by a counting context's first start) and inline result delivery
//!   under the counting consumer's mutex, both of which hang where the SDK deadlocks;
//! - status names and strings, NULL at and past LAST.
//!
//! Where the real library crashes (a NULL list with a count, a kind past LAST, an unknown counter
//! config chosen for a dispatch, ...) the mock aborts with a message instead of returning an
//! error the real library would not give.
//!
//! Quirks of the real library kept on purpose: `ROCP_TOOL_LIBRARIES` is split on `:` and, when
//! it holds a `:`, the text after the last `:` is ignored; stopping a context that is not active
//! returns `CONTEXT_NOT_FOUND`; the drop count handed to a buffer callback is cumulative; a
//! record bigger than the whole buffer is lost without being counted.

#![allow(clippy::missing_safety_doc, clippy::too_many_arguments)]

#[allow(
    dead_code,
    unused_imports,
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    clippy::all,
    unsafe_op_in_unsafe_fn
)]
mod types {
    include!(concat!(env!("ACCELPROF_ROCPROFILER_GENERATED"), "/types.rs"));
}

mod agents;
mod api;
mod base;
mod buffers;
mod contexts;
mod counting;
mod dispatch;
mod names;
mod registration;
mod results;
mod set_agents;
mod signal;
mod state;

pub(crate) use base::*;
pub(crate) use types::*;

/// The controls' one declaration (`controls.rs`, which `accelprof-mocks` compiles into
/// `MockRocprofiler` too): each names a function defined here, with exactly the declared C
/// signature, or the mock does not compile.
macro_rules! mock_controls {
    ($( $(#[$doc:meta])* $kind:ident fn $method:ident = $symbol:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        $( const _: unsafe extern "C" fn($($ty),*) $(-> $ret)? = $symbol; )*
    };
}

mod declared {
    use super::agents::*;
    use super::api::*;
    use super::buffers::*;
    use super::counting::*;
    use super::dispatch::*;
    use super::registration::*;
    use super::results::*;
    use super::signal::*;
    use super::*;
    use std::ffi::c_char;
    include!("controls.rs");
}
