//! `params.rs`: the `functionParams` structs of the CUDA calls whose parameters the safe crate
//! reads (kernel launches, memory copies and sets, allocations and frees), from CUDA's
//! `generated_cuda_runtime_api_meta.h` and `generated_cuda_meta.h`, which `cupti.h` users
//! include. Types that `types.rs` already defines are used from there, not repeated.

use std::collections::BTreeMap;

use super::{group, is_newtype_enum, split, Item, Release};
use crate::common;

/// The runtime functions, without version suffix (`cudaMemcpy` covers `cudaMemcpy_v3020` and
/// `cudaMemcpy_ptds_v7000`).
const RUNTIME: &str = "cudaLaunchKernel|cudaLaunchKernelExC|cudaLaunchCooperativeKernel|cudaMemcpy|\
    cudaMemcpyAsync|cudaMemcpy2D|cudaMemcpy2DAsync|cudaMemcpyPeer|cudaMemcpyPeerAsync|cudaMemset|\
    cudaMemsetAsync|cudaMemset2D|cudaMemset2DAsync|cudaMalloc|cudaMallocHost|cudaMallocManaged|\
    cudaMallocAsync|cudaMallocPitch|cudaHostAlloc|cudaFree|cudaFreeHost|cudaFreeAsync";

/// The driver functions, without `_v2` / `_ptds` / `_ptsz` suffixes.
const DRIVER: &str = "cuLaunchKernel|cuLaunchKernelEx|cuLaunchCooperativeKernel|cuMemcpy|cuMemcpyAsync|\
    cuMemcpyHtoD|cuMemcpyDtoH|cuMemcpyDtoD|cuMemcpyHtoDAsync|cuMemcpyDtoHAsync|cuMemcpyDtoDAsync|\
    cuMemcpyPeer|cuMemcpyPeerAsync|cuMemsetD8|cuMemsetD16|cuMemsetD32|cuMemsetD8Async|cuMemsetD16Async|\
    cuMemsetD32Async|cuMemAlloc|cuMemAllocHost|cuMemAllocManaged|cuMemAllocAsync|cuMemAllocPitch|\
    cuMemAllocFromPoolAsync|cuMemHostAlloc|cuMemFree|cuMemFreeHost|cuMemFreeAsync";

fn allowlist() -> String {
    let strip = |s: &str| s.split_whitespace().collect::<String>();
    format!(
        "({})_(ptds_|ptsz_)?v[0-9]+_params(_st)?|({})(_v2)?(_ptds|_ptsz)?_params(_st)?",
        strip(RUNTIME),
        strip(DRIVER)
    )
}

/// bindgen's text for the selected params structs of `release`.
fn bindings(release: &Release) -> Result<String, String> {
    let mut b = common::builder()
        .header_contents(
            "cupti_params.h",
            "#include <cuda.h>\n#include <cuda_runtime_api.h>\n#include <generated_cuda_meta.h>\n\
             #include <generated_cuda_runtime_api_meta.h>\n",
        )
        .allowlist_type(allowlist())
        // The meta header declares the params of the legacy (pre-`_v2`) functions too, whose
        // types `cuda.h` defines only for CUDA's own build.
        .clang_arg("-D__CUDA_API_VERSION_INTERNAL")
        .clang_arg("-xc")
        .clang_arg("-std=c11");
    for inc in &release.includes {
        b = b.clang_arg(format!("-I{}", inc.display()));
    }
    let bindings =
        b.generate().map_err(|e| format!("bindgen on the params of {} failed: {e}", release.version))?;
    // Without bindgen's banner, which `split` would glue to the first item.
    let text = bindings.to_string();
    Ok(text.lines().filter(|l| !l.starts_with("/* automatically generated")).collect::<Vec<_>>().join("\n"))
}

/// The items of `text` that `types13` does not define; a struct, union or alias both define
/// differently is an error (the two files would disagree on a layout).
fn new_items(text: &str, types13: &[Item]) -> Result<Vec<Item>, String> {
    let (items, externs) = split(text);
    if !externs.is_empty() {
        return Err("the params bindings declare functions: check the allowlist".into());
    }
    let known = group(types13);
    let mine = group(&items);
    let mut keep = std::collections::BTreeSet::new();
    for (subject, text) in &mine {
        match known.get(subject) {
            None => {
                keep.insert(subject.to_string());
            }
            Some(t) if t == text => {}
            // `__CUDA_API_VERSION_INTERNAL` adds private values (`*_MAX`) to some enums; the
            // newtype is the same u32 either way, so the public one in types.rs serves.
            Some(_) if is_newtype_enum(types13, subject) && is_newtype_enum(&items, subject) => {}
            Some(_) => return Err(format!("`{subject}` differs between types.rs and the params bindings")),
        }
    }
    Ok(items.into_iter().filter(|i| keep.contains(&i.subject)).collect())
}

/// The text of `params.rs` (from `v13`), after checking that `v12` lays every struct out the same.
pub(super) fn render(v13: &Release, v12: &Release, types13: &[Item], header: &str) -> Result<String, String> {
    let items13 = new_items(&bindings(v13)?, types13)?;
    let (items12, _) = split(&bindings(v12)?);
    let by12: BTreeMap<&str, String> = group(&items12);
    let by13 = group(&items13);
    let differing: Vec<&str> = by13
        .iter()
        .filter(|(s, text)| s.ends_with("_params_st") && by12.get(*s).is_some_and(|t12| t12 != *text))
        .map(|(s, _)| *s)
        .collect();
    if !differing.is_empty() {
        return Err(format!("params structs that 12.x lays out differently: {}", differing.join(", ")));
    }
    let count = items13.iter().filter(|i| i.subject.ends_with("_params_st")).count();
    eprintln!("params: {count} structs ({} items), identical in {}", items13.len(), v12.version);
    let body: Vec<&str> = items13.iter().map(|i| i.text.as_str()).collect();
    Ok(format!("{header}\nuse super::types::*;\n\n{}", body.join("\n")))
}
