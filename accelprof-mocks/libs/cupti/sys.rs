//! The real CUPTI declarations: `cupti-sys`'s generated bindings of the 13.0 headers (which also
//! carry the 12.9 record `CUpti_ActivityKernel9` through `cupti_activity_deprecated.h`), the 12.9
//! items that differ ([`v12`]), the `functionParams` structs ([`params`]) and the generated
//! callback-id name tables. Nothing here is written by hand.

#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code, unused_imports, clippy::all)]
mod types {
    include!(concat!(env!("ACCELPROF_CUPTI_GENERATED"), "/types.rs"));
}

#[path = "sys_v12.rs"]
pub mod v12;

#[path = "sys_v13_5.rs"]
pub mod v13_5;

/// The `functionParams` structs (`cudaLaunchKernel_v7000_params`, ...), identical in 12.9.
#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code, unused_imports, clippy::all)]
pub mod params {
    include!(concat!(env!("ACCELPROF_CUPTI_GENERATED"), "/params.rs"));
}

#[allow(dead_code)]
pub mod cbid_names {
    include!(concat!(env!("ACCELPROF_CUPTI_GENERATED"), "/cbid_names.rs"));
}

pub use types::*;

/// The generated text of the 13.0 and 12.9 types, scanned for the full callback-id enum names
/// (`cudaLaunchKernel_v7000`) that `cuptiGetCallbackName` returns.
pub const TYPES_SOURCE: &str = include_str!(concat!(env!("ACCELPROF_CUPTI_GENERATED"), "/types.rs"));
pub const V12_TYPES_SOURCE: &str = include_str!(concat!(env!("ACCELPROF_CUPTI_GENERATED"), "/v12/types.rs"));
