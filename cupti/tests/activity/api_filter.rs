//! What a session records of the runtime and driver calls: `ApiFilter` applied inside the (mock)
//! library, so a call left out is never written, never delivered and never counted as dropped; or
//! applied while decoding (`ApiFilterAt::Decode`), so a call left out is written, and counted as
//! filtered.

use std::collections::HashMap;

use accelprof_core::FamilySet;
use cupti::activity::{
    ActivityApi, ActivityConfig, ActivityCounts, ActivitySession, ApiFilter, ApiFilterAt, CbidFilter,
    KINETO_RUNTIME_LEFT_OUT,
};
use cupti::decode::{API_DOMAIN_DRIVER, API_DOMAIN_RUNTIME};
use cupti::{DriverCbid, RuntimeCbid};

use super::{assert_accounted, config, setup, Mock, TIMELINE};

const RUNTIME: u32 = 2;
const DRIVER: u32 = 1;

/// A PyTorch-like step per launch: 13 `cudaGetDevice`, 4 `cuDevicePrimaryCtxGetState` and one
/// `cuKernelGetAttribute`, a `cudaGetLastError`, then the launch; after the loop a Triton-like
/// `cuLaunchKernel` no runtime call encloses, an event created and destroyed, a `cudaSetDevice`.
fn framework(m: &Mock, launches: usize) {
    let rt = |id: RuntimeCbid| m.api_call(RUNTIME, id.0, None, 0);
    let drv = |id: DriverCbid| m.api_call(DRIVER, id.0, None, 0);
    for i in 0..launches {
        (0..13).for_each(|_| {
            rt(RuntimeCbid::cudaGetDevice_v3020);
        });
        (0..4).for_each(|_| {
            drv(DriverCbid::cuDevicePrimaryCtxGetState);
        });
        drv(DriverCbid::cuKernelGetAttribute);
        rt(RuntimeCbid::cudaGetLastError_v3020);
        m.launch(if i % 2 == 0 { c"aten_gemm" } else { c"aten_add" }, 3);
    }
    m.launch_kernel_driver(c"triton_poi_fused_add_0", 4, 1, 1, 128, 1, 1, 0, 3, 1_000);
    rt(RuntimeCbid::cudaEventCreateWithFlags_v3020);
    rt(RuntimeCbid::cudaEventDestroy_v3020);
    rt(RuntimeCbid::cudaSetDevice_v3020);
    rt(RuntimeCbid::cudaStreamIsCapturing_v10000);
}

/// What a session of [`framework`] delivered: API rows per (domain, cbid), kernel names with their
/// counts, and the records the mock produced.
type Collected = (HashMap<(u32, u32), usize>, HashMap<String, usize>, u64);

fn collect(filter: ApiFilter, launches: usize) -> Collected {
    let (collected, counts) = collect_at(filter, ApiFilterAt::Cupti, 130_001, launches);
    assert_eq!(counts.records_filtered(), 0, "a filter inside CUPTI leaves nothing to the decoder");
    collected
}

/// [`collect`] with the filter applied `at`, on a mock of `version`; the session's counts too.
fn collect_at(
    filter: ApiFilter,
    at: ApiFilterAt,
    version: u32,
    launches: usize,
) -> (Collected, ActivityCounts) {
    let (_g, cupti, m) = setup();
    m.set_version(version);
    // A `Cupti` reads the library's version when opened: one opened on this version.
    let cupti = if version == 130_001 {
        cupti
    } else {
        &*Box::leak(Box::new(cupti::Cupti::open_path(super::path()).unwrap()))
    };
    let session = ActivitySession::new(
        cupti,
        ActivityConfig { api_filter: filter, api_filter_at: at, ..config(&TIMELINE) },
    )
    .unwrap();
    assert_eq!(session.uses_user_defined_records(), version >= 130_400, "version {version}");
    let rows = session.collect(FamilySet::all());
    session.start().unwrap();
    framework(m, launches);
    assert!(session.fence().unwrap().fenced);
    let batch = rows.take();
    let names = session.names();
    let mut api = HashMap::new();
    for i in 0..batch.api_calls.len() {
        let r = batch.api_calls.row(i).unwrap();
        *api.entry((r.domain, r.cbid)).or_insert(0) += 1;
    }
    let mut kernels = HashMap::new();
    for i in 0..batch.kernels.len() {
        *kernels.entry(names.resolve(batch.kernels.row(i).unwrap().name).to_owned()).or_insert(0) += 1;
    }
    let counts = session.stop().unwrap();
    assert_accounted(m, &counts);
    assert!(counts.is_balanced(), "{counts:#?}");
    ((api, kernels, m.produced()), counts)
}

#[test]
fn the_timeline_filter_records_what_kineto_writes_and_every_kernel() {
    let launches = 20;
    let (all, kernels_all, produced_all) = collect(ApiFilter::all(), launches);
    let (timeline, kernels, produced) = collect(ApiFilter::timeline(), launches);
    assert_eq!(kernels, kernels_all, "the same kernels, all of them");
    assert_eq!(kernels.values().sum::<usize>(), launches + 1);
    let rt = |m: &HashMap<(u32, u32), usize>, id: RuntimeCbid| {
        m.get(&(API_DOMAIN_RUNTIME, id.0)).copied().unwrap_or(0)
    };
    let drv = |m: &HashMap<(u32, u32), usize>, id: DriverCbid| {
        m.get(&(API_DOMAIN_DRIVER, id.0)).copied().unwrap_or(0)
    };
    assert_eq!(rt(&all, RuntimeCbid::cudaGetDevice_v3020), 13 * launches);
    assert_eq!(drv(&all, DriverCbid::cuDevicePrimaryCtxGetState), 4 * launches);
    for id in KINETO_RUNTIME_LEFT_OUT {
        assert_eq!(rt(&timeline, id), 0, "{id:?} is left out");
    }
    assert_eq!(rt(&timeline, RuntimeCbid::cudaLaunchKernel_v7000), launches);
    assert_eq!(rt(&timeline, RuntimeCbid::cudaStreamIsCapturing_v10000), 1, "other runtime calls stay");
    // Of the driver calls only the launches: the one Triton makes and those nested in cudaLaunchKernel
    // (the mock plays the runtime's driver calls underneath, with the runtime call's correlation id).
    let driver: HashMap<u32, usize> =
        timeline.iter().filter(|((d, _), _)| *d == API_DOMAIN_DRIVER).map(|((_, c), n)| (*c, *n)).collect();
    assert_eq!(driver, HashMap::from([(DriverCbid::cuLaunchKernel.0, launches + 1)]));
    // What CUPTI wrote (produced) shrank by at least the calls of the workload left out (the fences'
    // own driver calls are left out too; how many fences ran depends on timing).
    let left_out = (13 + 1 + 4 + 1) * launches + 3;
    assert!(produced_all - produced >= left_out as u64, "{produced_all} - {produced} < {left_out}");
}

#[test]
fn filters_apply_to_the_kinds_collected_and_edits_take_effect() {
    let (api, _, _) =
        collect(ApiFilter::parse("timeline,+cuKernelGetAttribute,-cudaStreamIsCapturing").unwrap(), 2);
    assert_eq!(api.get(&(API_DOMAIN_DRIVER, DriverCbid::cuKernelGetAttribute.0)), Some(&2));
    assert_eq!(api.get(&(API_DOMAIN_RUNTIME, RuntimeCbid::cudaStreamIsCapturing_v10000.0)), None);
    let (api, kernels, _) = collect(ApiFilter::none(), 2);
    assert!(api.is_empty(), "{api:?}");
    assert_eq!(kernels.values().sum::<usize>(), 3);
    let only_launches = ApiFilter {
        runtime: CbidFilter::only([RuntimeCbid::cudaLaunchKernel_v7000]),
        driver: CbidFilter::none(),
    };
    let (api, _, _) = collect(only_launches, 3);
    assert_eq!(api, HashMap::from([((API_DOMAIN_RUNTIME, RuntimeCbid::cudaLaunchKernel_v7000.0), 3)]));
}

#[test]
fn ending_a_filtered_session_leaves_no_id_enabled() {
    {
        let (_g, cupti, m) = setup();
        let session = ActivitySession::new(
            cupti,
            ActivityConfig { api_filter: ApiFilter::timeline(), ..config(&TIMELINE) },
        )
        .unwrap();
        session.start().unwrap();
        framework(m, 1);
        session.stop().unwrap();
        let written = m.stat(c"records_written");
        framework(m, 3);
        m.wait_idle();
        assert_eq!(m.stat(c"records_written"), written, "nothing is recorded once the session ended");
    }
    // The V1 path by choice, on a release that has the V2 one.
    let (_g, cupti, m) = setup();
    m.set_version(130500);
    let session = ActivitySession::new(
        cupti,
        ActivityConfig { api_filter: ApiFilter::timeline(), api: ActivityApi::V1, ..config(&TIMELINE) },
    )
    .unwrap();
    assert!(!session.uses_user_defined_records());
    session.start().unwrap();
    session.stop().unwrap();
}

#[test]
fn a_filter_applied_while_decoding_delivers_the_same_calls_and_counts_the_rest_as_filtered() {
    let launches = 20;
    // 13.0 (130001): V1, per-id disables; 13.5: V2 with user-defined records, the denylist of
    // `cuptiActivityEnable_v2`, decoded by the user-defined-record walk.
    for version in [130_001, 130_500] {
        let ((in_cupti, kernels_cupti, _), c) =
            collect_at(ApiFilter::timeline(), ApiFilterAt::Cupti, version, launches);
        assert_eq!(c.records_filtered(), 0, "version {version}");
        let ((decoded, kernels, produced), counts) =
            collect_at(ApiFilter::timeline(), ApiFilterAt::Decode, version, launches);
        let ((_, _, produced_all), _) = collect_at(ApiFilter::all(), ApiFilterAt::Decode, version, launches);
        assert_eq!(decoded, in_cupti, "version {version}: the same calls delivered");
        assert_eq!(kernels, kernels_cupti, "version {version}");
        // The calls the filter leaves out that CUPTI still records: cudaGetLastError per launch, the
        // event's two calls and cudaSetDevice (and the fences' own driver calls: how many depends on
        // timing). Counted as filtered, in no batch.
        let filtered = counts.records_filtered();
        assert!(filtered >= launches as u64 + 3, "version {version}: {counts:#?}");
        // Kineto's four ids are disabled inside CUPTI: not written, so neither filtered nor produced.
        let kineto_four = (13 + 4 + 1) * launches as u64;
        assert!(filtered < kineto_four, "version {version}: {filtered} filtered");
        assert!(produced_all - produced >= kineto_four, "version {version}: {produced_all} - {produced}");
        assert_eq!(
            counts.records_produced(),
            counts.records_delivered() + counts.records_dropped() + filtered,
            "version {version}"
        );
    }
}
