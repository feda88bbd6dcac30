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
/// headers do not know (a newer CUPTI) or an unknown domain.
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
