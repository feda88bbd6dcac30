//! The mock `librocprofiler-sdk.so` as every released rocprofiler-sdk is: the same library as
//! `libs/rocprofiler` (its modules are compiled here from there), without
//! `rocprofiler_dispatch_counting_service_set_agents`, which exists only in an open pull request
//! of the SDK. A tool that relies on per-agent scoping meets this library on a real machine;
//! tests open it (in a process of their own) to see that the crate says so and falls back.

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

#[path = "../rocprofiler/agents.rs"]
mod agents;
#[path = "../rocprofiler/api.rs"]
mod api;
#[path = "../rocprofiler/base.rs"]
mod base;
#[path = "../rocprofiler/buffers.rs"]
mod buffers;
#[path = "../rocprofiler/contexts.rs"]
mod contexts;
#[path = "../rocprofiler/counting.rs"]
mod counting;
#[path = "../rocprofiler/dispatch.rs"]
mod dispatch;
#[path = "../rocprofiler/names.rs"]
mod names;
#[path = "../rocprofiler/registration.rs"]
mod registration;
#[path = "../rocprofiler/results.rs"]
mod results;
#[path = "../rocprofiler/signal.rs"]
mod signal;
#[path = "../rocprofiler/state.rs"]
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
    include!("../rocprofiler/controls.rs");
}
