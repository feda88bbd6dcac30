//! Names of callback ids, generated from the cbid enums of the headers.

use crate::generated::cbid_names::*;
use crate::CUpti_CallbackDomain;

/// Whether a `cuptiGetVersion` value is from CUPTI 12.x or older (12.x counts 1, 2, ... 28;
/// 13.0 reports 130001).
pub const fn is_api_version_12(api_version: u32) -> bool {
    api_version < 130_000
}

/// A `(cbid, name)` table sorted by cbid.
type Names = &'static [(u32, &'static str)];

/// The `(13.0 names, 12.x differences)` tables of a callback domain.
fn tables(domain: CUpti_CallbackDomain) -> Option<(Names, Names)> {
    Some(match domain {
        CUpti_CallbackDomain::CUPTI_CB_DOMAIN_DRIVER_API => (DRIVER_CBID_NAMES, DRIVER_CBID_NAMES_12),
        CUpti_CallbackDomain::CUPTI_CB_DOMAIN_RUNTIME_API => (RUNTIME_CBID_NAMES, RUNTIME_CBID_NAMES_12),
        CUpti_CallbackDomain::CUPTI_CB_DOMAIN_RESOURCE => (RESOURCE_CBID_NAMES, RESOURCE_CBID_NAMES_12),
        CUpti_CallbackDomain::CUPTI_CB_DOMAIN_SYNCHRONIZE => {
            (SYNCHRONIZE_CBID_NAMES, SYNCHRONIZE_CBID_NAMES_12)
        }
        CUpti_CallbackDomain::CUPTI_CB_DOMAIN_NVTX => (NVTX_CBID_NAMES, NVTX_CBID_NAMES_12),
        CUpti_CallbackDomain::CUPTI_CB_DOMAIN_STATE => (STATE_CBID_NAMES, STATE_CBID_NAMES_12),
        _ => return None,
    })
}

fn find(table: Names, cbid: u32) -> Option<&'static str> {
    table.binary_search_by_key(&cbid, |&(id, _)| id).ok().map(|i| table[i].1)
}

/// The name of callback id `cbid` of `domain` for the CUPTI whose `cuptiGetVersion` returned
/// `api_version`: the API function (`"cudaLaunchKernel"`, `"cuMemAlloc_v2"`, `"nvtxRangePushA"`)
/// for the API domains, the event (`"CONTEXT_CREATED"`) for the others. `None` for an id these
/// headers (12.9, 13.0, 13.5) do not know (a newer CUPTI) or an unknown domain.
///
/// Where CUDA 13 renamed an API (12.x's `cudaGetDeviceProperties_v2` is 13.0's
/// `cudaGetDeviceProperties`, same id), the name follows `api_version`.
pub fn cbid_name(domain: CUpti_CallbackDomain, cbid: u32, api_version: u32) -> Option<&'static str> {
    let (names13, names12) = tables(domain)?;
    if is_api_version_12(api_version) {
        if let Some(name) = find(names12, cbid) {
            return Some(name);
        }
    }
    find(names13, cbid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    const V13: u32 = CUPTI_API_VERSION;
    const V12: u32 = v12::CUPTI_API_VERSION;

    #[test]
    fn every_id_below_the_size_sentinel_has_a_name() {
        // The tables hold the ids of the newest headers (13.5), a superset of 13.0's.
        let domains = [
            (DRIVER_CBID_NAMES, v13_5::CUPTI_DRIVER_TRACE_CBID_SIZE.0),
            (RUNTIME_CBID_NAMES, v13_5::CUPTI_RUNTIME_TRACE_CBID_SIZE.0),
            (RESOURCE_CBID_NAMES, v13_5::CUPTI_CBID_RESOURCE_SIZE.0),
            (SYNCHRONIZE_CBID_NAMES, CUpti_CallbackIdSync::CUPTI_CBID_SYNCHRONIZE_SIZE.0),
            (NVTX_CBID_NAMES, CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_SIZE.0),
            (STATE_CBID_NAMES, CUpti_CallbackIdState::CUPTI_CBID_STATE_SIZE.0),
        ];
        for (table, size) in domains {
            let ids: Vec<u32> = table.iter().map(|&(id, _)| id).collect();
            assert_eq!(ids, (1..size).collect::<Vec<_>>());
            assert!(table.iter().all(|(_, name)| !name.is_empty()));
        }
        // 12.9's differences stay below its own sentinel.
        let size12 = v12::CUPTI_RUNTIME_TRACE_CBID_SIZE.0;
        assert!(RUNTIME_CBID_NAMES_12.iter().all(|&(id, _)| id < size12));
        assert!(RUNTIME_CBID_NAMES_12.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn names_are_the_traced_functions() {
        let runtime = CUpti_CallbackDomain::CUPTI_CB_DOMAIN_RUNTIME_API;
        let driver = CUpti_CallbackDomain::CUPTI_CB_DOMAIN_DRIVER_API;
        let launch = CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000.0;
        assert_eq!(cbid_name(runtime, launch, V13), Some("cudaLaunchKernel"));
        assert_eq!(cbid_name(runtime, launch, V12), Some("cudaLaunchKernel"));
        let alloc = CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2.0;
        assert_eq!(cbid_name(driver, alloc, V13), Some("cuMemAlloc_v2"));
        let push = CUpti_nvtx_api_trace_cbid::CUPTI_CBID_NVTX_nvtxRangePushA.0;
        assert_eq!(cbid_name(CUpti_CallbackDomain::CUPTI_CB_DOMAIN_NVTX, push, V13), Some("nvtxRangePushA"));
        let created = CUpti_CallbackIdResource::CUPTI_CBID_RESOURCE_CONTEXT_CREATED.0;
        assert_eq!(
            cbid_name(CUpti_CallbackDomain::CUPTI_CB_DOMAIN_RESOURCE, created, V13),
            Some("CONTEXT_CREATED")
        );
    }

    #[test]
    fn names_follow_the_library_version() {
        let runtime = CUpti_CallbackDomain::CUPTI_CB_DOMAIN_RUNTIME_API;
        let props =
            CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v12000.0;
        assert_eq!(props, v12::CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v2_v12000.0);
        assert_eq!(cbid_name(runtime, props, V13), Some("cudaGetDeviceProperties"));
        assert_eq!(cbid_name(runtime, props, V12), Some("cudaGetDeviceProperties_v2"));
        // An id newer than every header, or an unknown domain, has no name.
        let size = v13_5::CUPTI_RUNTIME_TRACE_CBID_SIZE.0;
        assert_eq!(cbid_name(runtime, size, V13), None);
        // Ids 13.0 lacks have the 13.5 names; those of removed APIs keep their 13.0 names (13.5
        // calls id 25 `cuda25`).
        let old_size = CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_SIZE.0;
        assert!(cbid_name(runtime, old_size, V13).is_some(), "13.5's first new runtime id is named");
        let driver = CUpti_CallbackDomain::CUPTI_CB_DOMAIN_DRIVER_API;
        assert_eq!(cbid_name(driver, 25, V13), Some("cu64ModuleGetGlobal"));
        assert_eq!(cbid_name(CUpti_CallbackDomain(77), 1, V13), None);
        assert!(is_api_version_12(V12) && !is_api_version_12(V13));
    }
}
