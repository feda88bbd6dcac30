//! Where the [`ApiFilter`] applies: inside CUPTI (no record is written for a call left out) or while
//! decoding (CUPTI records nearly every call, the decoder drops the calls left out, counted).
//!
//! The H200 measured a CUPTI with many per-callback-id exclusions (the timeline filter applied one id at a
//! time) costing more per call kept than a CUPTI that records every call: about 1.95 µs per record kept
//! against 0.3 µs per record on a loop of tiny kernels. PyTorch's profiler (Kineto) does the latter: it
//! disables four ids in CUPTI and drops the rest when it reads the records. [`ApiFilterAt::Decode`] does
//! the same with any [`ApiFilter`].

use super::filter::CbidFilter;
use super::ApiFilter;
use crate::ids::{DriverCbid, RuntimeCbid};

/// Where a session applies its [`ApiFilter`] (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ApiFilterAt {
    /// Inside CUPTI: each call left out is disabled by its id (`cuptiActivityEnableRuntimeApi` /
    /// `cuptiActivityEnableDriverApi` before CUPTI 13.4's user-defined records, the denylist or
    /// allowlist of `cuptiActivityEnable_v2` from 13.4). A call left out is never written: it is in no
    /// count at all. Needs CUPTI 12.5 or later for any filter but [`ApiFilter::all`].
    Cupti,
    /// While decoding, as Kineto does: CUPTI records every runtime and driver call but those of
    /// [`KINETO_CUPTI_DISABLED_RUNTIME`] and [`KINETO_CUPTI_DISABLED_DRIVER`] that the filter also
    /// leaves out (disabled in CUPTI by id, as Kineto disables them), and the decoder drops the other
    /// calls the filter leaves out: each is counted in `Counts::records_filtered` (not dropped: it was
    /// asked to be left out) and is in no batch. On a CUPTI without the per-id functions (before 12.5)
    /// nothing is disabled in CUPTI and the decoder drops every call the filter leaves out.
    ///
    /// The default: on the H200 (libcupti 13.0.1, a loop of 2,000 tiny PyTorch ops per step, 4 rounds)
    /// the engine added 0.57 [0.31, 0.92] (95 % interval) of the time per step with the timeline filter
    /// applied here as with the same filter inside CUPTI, although CUPTI wrote twice the records.
    #[default]
    Decode,
}

impl ApiFilterAt {
    /// Parses `cupti` or `decode` (any case).
    pub fn parse(s: &str) -> Option<ApiFilterAt> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cupti" => Some(ApiFilterAt::Cupti),
            "decode" => Some(ApiFilterAt::Decode),
            _ => None,
        }
    }

    /// The name [`parse`](Self::parse) reads.
    pub fn name(self) -> &'static str {
        match self {
            ApiFilterAt::Cupti => "cupti",
            ApiFilterAt::Decode => "decode",
        }
    }
}

/// The runtime call Kineto disables inside CUPTI (`cuptiActivityEnableRuntimeApi(id, 0)`, CUDA 12.5 and
/// later; `libkineto/src/CuptiActivityApi.cpp`), as logged from PyTorch 2.11 on the H200.
pub const KINETO_CUPTI_DISABLED_RUNTIME: [RuntimeCbid; 1] = [RuntimeCbid::cudaGetDevice_v3020];

/// The driver calls Kineto disables inside CUPTI (`cuptiActivityEnableDriverApi(id, 0)`;
/// `libkineto/src/CuptiActivityApi.cpp`), as logged from PyTorch 2.11 on the H200.
pub const KINETO_CUPTI_DISABLED_DRIVER: [DriverCbid; 3] =
    [DriverCbid::cuKernelGetAttribute, DriverCbid::cuDevicePrimaryCtxGetState, DriverCbid::cuCtxGetCurrent];

/// What CUPTI itself is asked to filter when `filter` applies while decoding: every call but those of
/// Kineto's CUPTI-side lists that `filter` leaves out.
pub(crate) fn cupti_side(filter: &ApiFilter) -> ApiFilter {
    fn side<C: Ord + Copy>(filter: &CbidFilter<C>, disabled: &[C]) -> CbidFilter<C> {
        if filter.is_all() {
            return CbidFilter::All;
        }
        let out: Vec<C> = disabled.iter().copied().filter(|&id| !filter.records(id)).collect();
        if out.is_empty() {
            CbidFilter::All
        } else {
            CbidFilter::except(out)
        }
    }
    ApiFilter {
        runtime: side(&filter.runtime, &KINETO_CUPTI_DISABLED_RUNTIME),
        driver: side(&filter.driver, &KINETO_CUPTI_DISABLED_DRIVER),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cupti_is_left_kinetos_four_ids_and_only_those_the_filter_leaves_out() {
        let t = cupti_side(&ApiFilter::timeline());
        assert_eq!(t.runtime, CbidFilter::except(KINETO_CUPTI_DISABLED_RUNTIME));
        assert_eq!(t.driver, CbidFilter::except(KINETO_CUPTI_DISABLED_DRIVER));
        assert_eq!(cupti_side(&ApiFilter::all()), ApiFilter::all());
        let keeps_get_device = ApiFilter::parse("timeline,+cudaGetDevice,+cuCtxGetCurrent").unwrap();
        let k = cupti_side(&keeps_get_device);
        assert!(k.runtime.is_all(), "nothing the filter keeps is disabled in CUPTI");
        assert!(k.driver.records(DriverCbid::cuCtxGetCurrent));
        assert!(!k.driver.records(DriverCbid::cuKernelGetAttribute));
        assert!(k.driver.records(DriverCbid::cuMemAlloc_v2), "the rest is dropped while decoding");
        let names: Vec<_> = KINETO_CUPTI_DISABLED_DRIVER.iter().map(|id| id.name().unwrap()).collect();
        assert_eq!(names, ["cuKernelGetAttribute", "cuDevicePrimaryCtxGetState", "cuCtxGetCurrent"]);
        assert_eq!(KINETO_CUPTI_DISABLED_RUNTIME[0].name(), Some("cudaGetDevice"));
        for at in [ApiFilterAt::Cupti, ApiFilterAt::Decode] {
            assert_eq!(ApiFilterAt::parse(at.name()), Some(at));
        }
        assert_eq!(ApiFilterAt::parse(" Decode "), Some(ApiFilterAt::Decode));
        assert_eq!(ApiFilterAt::parse("both"), None);
    }
}
