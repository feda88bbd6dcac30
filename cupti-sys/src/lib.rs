//! Raw CUPTI declarations, generated from NVIDIA's headers, and a run-time loader for `libcupti`.
//!
//! Nothing links `libcupti`: [`Library::open`] finds and `dlopen`s it (see [`search_places`] for
//! the order), and every function of [`CuptiFunctions`] is resolved on its first call. A function
//! the opened library lacks returns [`accelprof_loader::MissingSymbol`] naming it; a library that
//! cannot be found is a [`LoadError`] listing every place tried.
//!
//! ```no_run
//! let lib = cupti_sys::Library::open(None)?;
//! let mut version = 0;
//! // SAFETY: `version` is a valid out-pointer.
//! let result = unsafe { lib.functions().cuptiGetVersion(&mut version) }?;
//! assert_eq!(result, cupti_sys::CUptiResult::CUPTI_SUCCESS);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # One build for CUPTI 12.9 and 13.0
//!
//! The crate root holds the types of the CUPTI 13.0 headers (`nvidia-cuda-cupti` 13.0.x) and
//! [`CuptiFunctions`], the functions of the 13.0 headers followed by any that only 12.x has
//! (none for 12.9: every 12.9 function is still declared by 13.0). [`v12`] holds the 12.9
//! headers (`nvidia-cuda-cupti-cu12` 12.9.x): their items that differ from 13.0, and everything
//! else re-exported from the root. Which one applies is decided at run time by
//! `cuptiGetVersion`: 12.x counts 1, 2, ... (12.9 reports 28, [`v12::CUPTI_API_VERSION`]), 13.0
//! reports 130001 ([`CUPTI_API_VERSION`]); see [`is_api_version_12`].
//!
//! What differs between the two, as generated:
//! - Record versions. Each library writes the newest record version its headers define, and the
//!   newest changed: kernels are `CUpti_ActivityKernel9` (208 bytes) in 12.9 and
//!   `CUpti_ActivityKernel10` (216 bytes, adds `isDeviceLaunched`) in 13.0; memory pools
//!   `CUpti_ActivityMemoryPool2` (72) / `CUpti_ActivityMemoryPool3` (80, adds `isManagedPool`);
//!   marker data `CUpti_ActivityMarkerData` (32) / `CUpti_ActivityMarkerData2` (40, adds
//!   `cuptiDomainId`). The 13.0 headers still define the older versions, identically, so all of
//!   them are at the crate root.
//! - Records changed in place at the same size: `CUpti_ActivityMemcpy6` and
//!   `CUpti_ActivityMemset4` gained `isDeviceLaunched` in 13.0 where 12.9 has padding
//!   ([`v12::CUpti_ActivityMemcpy6`], [`v12::CUpti_ActivityMemset4`]).
//! - Unions: `CUpti_MetricValue` (13.0 adds `metricValueNvtxExtendedPayload`) and the driver's
//!   `CUlaunchAttributeValue`, same sizes.
//! - Enums: each C enum is one `#[repr(transparent)]` newtype shared by both versions (any
//!   value is representable). 13.0 adds values (result codes, activity and callback ids, device
//!   attributes); 12.9's differing constants are module-level consts in [`v12`]: its `*_SIZE`
//!   / `*_MAX` sentinels, and 19 runtime callback ids that 13.0 renamed, because CUDA 13 dropped
//!   the `_v2`/`_v3` suffix of the runtime functions they trace (12.9's
//!   `CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v2_v12000` is 13.0's
//!   `CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v12000`, both 440). Callback ids are never
//!   renumbered, so one id means one API in both; [`cbid_name`] gives the name each version uses.
//! - Functions: the 12.9 headers declare 98 of the 100 functions of the 13.0 headers, with the
//!   same signatures; 13.0 added `cuptiSubscribe_v2` and
//!   `cuptiActivityEnableCudaEventDeviceTimestamps`, which the 12.9 library does not export
//!   (calling them there returns [`MissingSymbol`]; see [`CuptiFunctions::missing`]).
//!
//! # Newer 13.x
//!
//! [`v13_5`] holds what the 13.5 headers add (the V2 activity API, user-defined records, newer
//! record versions), and [`CuptiFunctions`] declares the 18 functions 13.0 lacks after 13.0's
//! 100 (`cuptiActivityEnable_v2`, `cuptiActivityRegisterCallbacks_v2`, `cuptiGetTimestamp_v2`,
//! ...). Callback-id names ([`cbid_name`]) cover the ids 13.5 added; the ids of APIs CUDA removed,
//! which 13.5 renamed to placeholders, keep their 13.0 names.

#[allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    dead_code,
    missing_debug_implementations,
    unsafe_op_in_unsafe_fn,
    clippy::all,
    clippy::undocumented_unsafe_blocks,
    rustdoc::all
)]
mod generated {
    pub mod cbid_names;
    pub mod functions;
    pub mod params;
    pub mod types;
    pub mod v12 {
        pub mod types;
    }
    pub mod v13_5 {
        pub mod types;
    }
}

mod cbid;
mod loader;

pub use accelprof_loader::{LoadError, MissingSymbol, Resolver};
pub use cbid::{cbid_name, is_api_version_12};
pub use generated::functions::CuptiFunctions;
pub use generated::types::*;
pub use loader::{search_places, shared_resolver, Library, LIBRARY_PATH_VAR, SPEC};

/// The directory of this crate's generated files (`types.rs`, `params.rs`, `cbid_names.rs`,
/// `functions.rs`, `v12/`, `v13_5/`), as this build found it. For code that compiles against
/// the very same declarations outside this crate: `accelprof-mocks` builds its mock `libcupti`
/// from them (a build-dependency reads this), so the mock writes the bytes the real library does.
pub const GENERATED_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/generated");

/// Callback-id name tables, generated from the cbid enums of both headers.
pub mod cbid_names {
    pub use crate::generated::cbid_names::*;
}

/// The `functionParams` structs of the CUDA calls most tools read, generated from CUDA's
/// `generated_cuda_runtime_api_meta.h` and `generated_cuda_meta.h` (identical in 12.9 and 13.0):
/// kernel launches (`cudaLaunchKernel_v7000_params`, `cuLaunchKernel_params`, the `Ex` and
/// cooperative forms), memory copies and sets (1D, 2D, peer, async, per-thread-stream), and
/// allocations and frees. `CUpti_CallbackData::functionParams` points at the one of the call's
/// callback id.
pub mod params {
    pub use crate::generated::params::*;
}

/// CUPTI 12.x (generated from the 12.9 headers): the items whose definition differs from 13.0,
/// and every other item of the crate root. Use these layouts when `cuptiGetVersion` says 12.x
/// ([`is_api_version_12`]).
pub mod v12 {
    pub use crate::generated::v12::types::*;
}

/// The newest CUPTI 13.x headers (13.5, `nvidia-cuda-cupti` 13.5.x): what they add to or define
/// differently from 13.0, and every other item of the crate root.
///
/// What is here: the V2 (subscriber-scoped) activity API's structs (`CUpti_ActivityConfig`,
/// `CUpti_ActivityFieldSelection`, `CUpti_BufferCallbackCompleteInfo`, `CUpti_ActivityRecordLayout`,
/// `CUpti_ActivityApiOptions`, ...), the per-kind field ids of user-defined records
/// (`CUpti_ActivityKernelFieldIds`, `CUpti_ActivityApiFieldIds`, ...), the 40-byte
/// `CUpti_SubscriberParams` with `allowMultipleSubscribers`, the newer record versions
/// (`CUpti_ActivityKernel11` of 13.2, `Kernel12` of 13.3, `Kernel13`, `Memcpy7`, `Memset5` of
/// 13.4 and 13.5), the activity kinds, attributes and callback ids added since 13.0 (as
/// module-level consts of the shared enum newtypes), and constants whose value changed
/// (`CUPTI_INVALID_CONTEXT_ID` is 0 from 13.5 on, `0xFFFFFFFF` before).
///
/// The functions they declare are in [`CuptiFunctions`] with the others: calling one on a
/// library that lacks it returns [`MissingSymbol`]. The 13.3 and 13.4 headers declare a subset of
/// these functions with the same signatures; a struct that grew since (`CUpti_ActivityConfig`
/// gained `pKindOptions` in 13.4) carries its size in `structSize`, which the library reads.
pub mod v13_5 {
    pub use crate::generated::v13_5::types::*;
}

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
