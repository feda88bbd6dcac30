//! Per-callback-id activity filtering (`cuptiActivityEnableRuntimeApi` / `cuptiActivityEnableDriverApi`),
//! as the headers document it: the kind enables every id or none, a later per-id call overrides that id
//! either way (also without the kind), enabling the kind afterwards overrides the per-id settings again.
//! A filtered call is never written: neither delivered nor counted as dropped.

use super::buffers;
use super::harness::{mock, ok, Mock};
use super::layout::*;

/// `CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020`, `..._cudaLaunchKernel_v7000`,
/// `CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState`, `..._cuLaunchKernel` of the headers.
const CUDA_GET_DEVICE: u32 =
    cupti_sys::CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020.0;
const CUDA_LAUNCH_KERNEL: u32 =
    cupti_sys::CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000.0;
const CU_PRIMARY_CTX_GET_STATE: u32 =
    cupti_sys::CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState.0;
const CU_LAUNCH_KERNEL: u32 =
    cupti_sys::CUpti_driver_api_trace_cbid_enum::CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel.0;

const RUNTIME: u32 = 2;
const DRIVER: u32 = 1;

impl Mock {
    fn runtime_api(&self, cbid: u32, on: u8) -> u32 {
        // SAFETY: plain values.
        ok(unsafe { self.f().cuptiActivityEnableRuntimeApi(cbid, on) })
    }

    fn driver_api(&self, cbid: u32, on: u8) -> u32 {
        // SAFETY: plain values.
        ok(unsafe { self.f().cuptiActivityEnableDriverApi(cbid, on) })
    }

    /// A PyTorch-like step: 13 `cudaGetDevice` and 4 `cuDevicePrimaryCtxGetState` per kernel launch,
    /// then one driver launch no runtime call encloses (Triton's). Returns the API calls made.
    fn framework_step(&self, launches: usize) -> u64 {
        let before = self.stat(c"api_calls");
        for _ in 0..launches {
            for _ in 0..13 {
                self.api_call(RUNTIME, CUDA_GET_DEVICE, None, 0);
            }
            for _ in 0..4 {
                self.api_call(DRIVER, CU_PRIMARY_CTX_GET_STATE, None, 0);
            }
            self.launch(c"aten_kernel", [1, 1, 1], [32, 1, 1], 0, 0, 500);
        }
        self.launch_kernel_driver(c"triton_poi_fused_add_0", 1, 1, 1, 32, 1, 1, 0, 0, 500);
        self.stat(c"api_calls") - before
    }
}

fn api_records(records: &[Vec<u8>]) -> Vec<(u32, u32)> {
    records
        .iter()
        .filter(|r| kind(r) == kinds::RUNTIME || kind(r) == kinds::DRIVER)
        .map(|r| (kind(r), u32_at(r, api::CBID)))
        .collect()
}

#[test]
fn a_disabled_runtime_id_is_never_written_nor_counted() {
    let (_g, m) = mock();
    buffers::register();
    m.enable(kinds::RUNTIME);
    m.enable(kinds::CONCURRENT_KERNEL);
    assert_eq!(m.runtime_api(CUDA_GET_DEVICE, 0), 0);
    let calls = m.framework_step(3);
    assert_eq!(m.flush(0), 0);
    let records = buffers::records();
    let api = api_records(&records);
    assert!(api.iter().all(|&(_, cbid)| cbid != CUDA_GET_DEVICE), "{api:?}");
    assert_eq!(api.iter().filter(|&&(_, c)| c == CUDA_LAUNCH_KERNEL).count(), 3);
    let kernels = records.iter().filter(|r| kind(r) == kinds::CONCURRENT_KERNEL).count();
    assert_eq!(kernels, 4, "every kernel is recorded, the driver-launched one too");
    assert_eq!(m.stat(c"records_written"), records.len() as u64);
    assert_eq!((m.stat(c"records_dropped"), m.dropped()), (0, 0), "a filtered call is not a dropped record");
    assert_eq!(calls, 3 * (13 + 4 + 2) + 1, "the calls were made (callbacks would see them)");
}

#[test]
fn ids_enabled_without_their_kind_are_the_only_ones_recorded() {
    let (_g, m) = mock();
    buffers::register();
    m.enable(kinds::CONCURRENT_KERNEL);
    m.enable(kinds::RUNTIME);
    // The driver kind stays off: only cuLaunchKernel gets DRIVER records.
    assert_eq!(m.driver_api(CU_LAUNCH_KERNEL, 1), 0);
    m.framework_step(2);
    assert_eq!(m.flush(0), 0);
    let records = buffers::records();
    let driver: Vec<u32> =
        api_records(&records).iter().filter(|r| r.0 == kinds::DRIVER).map(|r| r.1).collect();
    // Two launches nested in cudaLaunchKernel (the mock plays the runtime's nested driver calls, which
    // share the runtime call's correlation id) and the one no runtime call encloses.
    assert_eq!(driver, [CU_LAUNCH_KERNEL; 3]);
    let nested: Vec<_> = records
        .iter()
        .filter(|r| kind(r) == kinds::DRIVER)
        .map(|r| u32_at(r, api::CORRELATION))
        .filter(|c| records.iter().any(|r| kind(r) == kinds::RUNTIME && u32_at(r, api::CORRELATION) == *c))
        .collect();
    assert_eq!(nested.len(), 2, "the nested launches carry their runtime call's correlation id");
}

#[test]
fn enabling_the_kind_again_overrides_per_id_settings_and_disabling_clears_them() {
    let (_g, m) = mock();
    buffers::register();
    m.enable(kinds::RUNTIME);
    assert_eq!(m.runtime_api(CUDA_GET_DEVICE, 0), 0);
    m.enable(kinds::RUNTIME); // "the kind overrides the settings of this API when called after it"
    m.api_call(RUNTIME, CUDA_GET_DEVICE, None, 0);
    m.disable(kinds::RUNTIME);
    m.api_call(RUNTIME, CUDA_GET_DEVICE, None, 0);
    assert_eq!(m.driver_api(CU_LAUNCH_KERNEL, 1), 0);
    m.disable(kinds::DRIVER); // the kind off turns its ids off too
    m.launch_kernel_driver(c"k", 1, 1, 1, 1, 1, 1, 0, 0, 100);
    assert_eq!(m.flush(0), 0);
    assert_eq!(api_records(&buffers::records()), [(kinds::RUNTIME, CUDA_GET_DEVICE)]);
}

#[test]
fn external_correlation_records_come_only_with_recorded_calls() {
    let (_g, m) = mock();
    buffers::register();
    m.enable(kinds::RUNTIME);
    m.enable(kinds::EXTERNAL_CORRELATION);
    assert_eq!(m.runtime_api(CUDA_GET_DEVICE, 0), 0);
    let custom0 = cupti_sys::CUpti_ExternalCorrelationKind(3);
    // SAFETY: plain values.
    let pushed = ok(unsafe { m.f().cuptiActivityPushExternalCorrelationId(custom0, 77) });
    assert_eq!(pushed, 0);
    m.api_call(RUNTIME, CUDA_GET_DEVICE, None, 0);
    let launch = m.launch(c"k", [1, 1, 1], [1, 1, 1], 0, 0, 100);
    assert_eq!(m.flush(0), 0);
    let records = buffers::records();
    let ec: Vec<_> = records.iter().filter(|r| kind(r) == kinds::EXTERNAL_CORRELATION).collect();
    assert_eq!(ec.len(), 1, "one for the launch, none for the filtered cudaGetDevice");
    assert_eq!(u32_at(ec[0], external::CORRELATION), launch);
}

#[test]
fn ids_outside_the_release_are_refused_and_no_driver_fails_as_the_rest() {
    let (_g, m) = mock();
    let size = cupti_sys::CUpti_runtime_api_trace_cbid_enum::CUPTI_RUNTIME_TRACE_CBID_SIZE.0;
    assert_eq!(m.runtime_api(0, 0), 1);
    assert_eq!(m.runtime_api(size, 0), 1, "13.0 has no id {size}");
    m.set_version(130500);
    assert_eq!(m.runtime_api(size, 0), 0, "13.5 does");
    m.set_version(28);
    let size12 = cupti_sys::v12::CUPTI_DRIVER_TRACE_CBID_SIZE.0;
    assert_eq!(m.driver_api(size12, 1), 1);
    m.set_driver_present(0);
    assert_eq!(m.driver_api(CU_LAUNCH_KERNEL, 1), 15, "12.x without a driver");
    m.set_version(130001);
    assert_eq!(m.driver_api(CU_LAUNCH_KERNEL, 1), 999, "13.0 without a driver");
}
