//! Sessions on CUPTI 13.3 and later (the mock playing 13.4 and 13.5): a subscriber of the session's own
//! through the V2 API, user-defined records decoded by the layouts each buffer comes with, the field
//! selection (the union of what consumers ask for), and another tool tracing the process at the same time.

use std::ffi::c_int;
use std::mem::size_of;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicUsize, Ordering};

use accelprof_core::{Batch, FamilySet};
use cupti::activity::{
    ActivityApi, ActivityConfig, ActivityKind, ActivitySession, ApiFilter, ExternalCorrelationKind,
    FieldSelection,
};
use cupti::sys::v13_5::{
    CUpti_ActivityConfig, CUpti_ActivityFieldSelection, CUpti_ActivityKernelFieldIds as K,
    CUpti_BufferCallbackCompleteInfo, CUpti_BufferCallbackRequestInfo, CUpti_SubscriberParams,
};
use cupti::sys::CUpti_ActivityKind;
use cupti::{Cupti, Error, RuntimeCbid};

use super::{assert_accounted, config, setup, Mock, TIMELINE};

/// A workload with every family a timeline has; returns the launches' correlation ids.
fn workload(m: &Mock, cupti: &Cupti) -> Vec<u32> {
    let mut launched = Vec::new();
    for i in 0..40u64 {
        launched.push(m.launch_kernel(c"udr_gemm", 8, 4, 2, 256, 2, 1, 2048, 3 + i % 2, 2_000));
    }
    let tag = cupti.external_correlation(ExternalCorrelationKind::CUSTOM0, 4242).unwrap();
    launched.push(m.launch(c"tagged", 5));
    drop(tag);
    m.memcpy(0x1000, 0x2000, 4096, 1, 3, 1, 500);
    m.memset(0x3000, 0x7f, 512, 3, 1, 300);
    m.api_call(2, RuntimeCbid::cudaGetDevice_v3020.0, None, 0);
    launched
}

/// Runs the workload in a session of `version` and returns what it delivered.
type Run = (Batch, cupti::activity::ActivityCounts, bool, Vec<u32>, accelprof_core::Names);

fn run(version: u32, api_filter: ApiFilter) -> Run {
    let (_g, _, m) = setup();
    m.set_version(version);
    let cupti = &*Box::leak(Box::new(Cupti::open_path(super::path()).unwrap()));
    let kinds = [&TIMELINE[..], &[ActivityKind::EXTERNAL_CORRELATION]].concat();
    let session = ActivitySession::new(cupti, ActivityConfig { api_filter, ..config(&kinds) }).unwrap();
    let udr = session.uses_user_defined_records();
    let rows = session.collect(FamilySet::all());
    session.start().unwrap();
    let launched = workload(m, cupti);
    assert!(session.fence().unwrap().fenced, "the fence works through the V2 API too");
    let names = session.names();
    let counts = session.stop().unwrap();
    assert_accounted(m, &counts);
    (rows.take(), counts, udr, launched, names)
}

#[test]
fn user_defined_records_decode_to_the_rows_fixed_records_give() {
    let (fixed, _, udr_fixed, l1, n1) = run(130001, ApiFilter::all());
    let (udr, counts, udr_used, l2, n2) = run(130500, ApiFilter::all());
    assert!(!udr_fixed && udr_used, "13.0: fixed layouts; 13.5: user-defined records");
    assert_eq!(counts.vendor.decoder.truncated_buffers, 0);
    assert_eq!((fixed.kernels.len(), udr.kernels.len()), (41, 41));
    let shape = |batch: &Batch, launched: &[u32], names: &accelprof_core::Names| {
        let mut rows: Vec<_> = (0..batch.kernels.len())
            .map(|i| {
                let k = batch.kernels.row(i).unwrap();
                let order =
                    launched.iter().position(|&c| u64::from(c) == k.correlation).expect("a launched kernel");
                let dims = (k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y);
                (
                    order,
                    names.resolve(k.name).to_owned(),
                    dims,
                    k.shared_memory,
                    k.registers,
                    k.stream,
                    k.device,
                    k.context,
                    k.end - k.start,
                )
            })
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(shape(&fixed, &l1, &n1), shape(&udr, &l2, &n2), "kernels decode the same");
    for batch in [&fixed, &udr] {
        let c = batch.memcpys.row(0).unwrap();
        assert_eq!((c.bytes, c.stream, c.is_async, c.end - c.start), (4096, 3, true, 500));
        let s = batch.memsets.row(0).unwrap();
        assert_eq!((s.bytes, s.value, s.end - s.start), (512, 0x7f, 300));
        let ec = batch.external_correlations.row(0).unwrap();
        assert_eq!((ec.external_kind, ec.external_id), (ExternalCorrelationKind::CUSTOM0.0, 4242));
        let api_threads: Vec<u64> =
            (0..batch.api_calls.len()).map(|i| batch.api_calls.row(i).unwrap().thread).collect();
        assert!(
            api_threads.iter().all(|&t| t != 0),
            "thread ids decoded (64-bit under user-defined records)"
        );
    }
    let tagged = *l2.last().unwrap();
    let ec = udr.external_correlations.row(0).unwrap();
    assert_eq!(
        ec.correlation,
        u64::from(tagged),
        "pushed through the subscriber (the V1 push is refused then)"
    );
}

#[test]
fn filters_reach_cupti_through_the_v2_api_from_13_4_and_13_3_falls_back_to_v1() {
    let (batch, _, udr, _, _) = run(130401, ApiFilter::timeline());
    assert!(udr);
    let cbids: Vec<u32> = (0..batch.api_calls.len()).map(|i| batch.api_calls.row(i).unwrap().cbid).collect();
    assert!(
        !cbids.contains(&RuntimeCbid::cudaGetDevice_v3020.0),
        "denied in CUpti_ActivityConfig::pKindOptions"
    );
    assert!(cbids.contains(&RuntimeCbid::cudaLaunchKernel_v7000.0));
    // 13.3 cannot filter user-defined API records: fixed records then.
    let (batch, _, udr, _, _) = run(130301, ApiFilter::timeline());
    assert!(!udr);
    let cbids: Vec<u32> = (0..batch.api_calls.len()).map(|i| batch.api_calls.row(i).unwrap().cbid).collect();
    assert!(!cbids.contains(&RuntimeCbid::cudaGetDevice_v3020.0));
    let (_, _, udr, _, _) = run(130301, ApiFilter::all());
    assert!(udr);
}

#[test]
fn consumers_select_fields_and_the_decoder_fills_only_those() {
    let (_g, _, m) = setup();
    m.set_version(130500);
    let cupti = &Cupti::open_path(super::path()).unwrap();
    let session = ActivitySession::new(
        cupti,
        ActivityConfig { fields: FieldSelection::empty(), ..config(&[ActivityKind::CONCURRENT_KERNEL]) },
    )
    .unwrap();
    let times = FieldSelection::empty()
        .with(ActivityKind::CONCURRENT_KERNEL, [K::KERNEL_FIELD_START.0, K::KERNEL_FIELD_END.0])
        .unwrap();
    let names =
        FieldSelection::empty().with(ActivityKind::CONCURRENT_KERNEL, [K::KERNEL_FIELD_NAME.0]).unwrap();
    session.select_fields(&times).unwrap();
    session.select_fields(&names).unwrap();
    let rows = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    m.launch(c"selected", 3);
    session.fence().unwrap();
    let batch = rows.take();
    let k = batch.kernels.row(0).unwrap();
    assert_eq!(session.names().resolve(k.name), "selected");
    assert_eq!(k.end - k.start, 1_000);
    assert_eq!((k.grid_x, k.block_x, k.stream, k.correlation), (0, 0, 0, 0), "not selected: 0");
    assert!(session.select_fields(&names).is_ok(), "already enabled");
    let more =
        FieldSelection::empty().with(ActivityKind::CONCURRENT_KERNEL, [K::KERNEL_FIELD_GRID_X.0]).unwrap();
    assert!(matches!(session.select_fields(&more), Err(Error::InvalidOperation { .. })));
    session.stop().unwrap();
}

static FOREIGN_RECORDS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn foreign_request(
    b: *mut *mut u8,
    size: *mut usize,
    max: *mut usize,
    _i: *mut CUpti_BufferCallbackRequestInfo,
) {
    // SAFETY: CUPTI's out-pointers; the buffer is leaked back at completion.
    unsafe {
        *b = Box::into_raw(vec![0u64; 8192].into_boxed_slice()).cast();
        *size = 8 * 8192;
        *max = 0;
    }
}

unsafe extern "C" fn foreign_complete(
    buffer: *mut u8,
    _size: usize,
    valid: usize,
    info: *mut CUpti_BufferCallbackCompleteInfo,
) {
    // SAFETY: the buffer holds `valid` bytes; the layouts are valid for the call.
    unsafe {
        let info = &*info;
        let layout = &**info.ppRecordLayouts.add(ActivityKind::CONCURRENT_KERNEL.0 as usize);
        FOREIGN_RECORDS.fetch_add(valid / layout.recordSize, Ordering::Relaxed);
        drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(buffer.cast::<u64>(), 8192)));
    }
}

#[test]
fn another_tool_traces_the_same_process_with_its_own_subscriber() {
    let (_g, _, m) = setup();
    m.set_version(130500);
    let cupti = &Cupti::open_path(super::path()).unwrap();
    FOREIGN_RECORDS.store(0, Ordering::Relaxed);
    // Another tool first: a sharing subscriber with kernel names only.
    let f = cupti.sys();
    let mut params = CUpti_SubscriberParams {
        structSize: size_of::<CUpti_SubscriberParams>(),
        subscriberName: c"another tool".as_ptr(),
        oldSubscriberName: null_mut(),
        oldSubscriberSize: 0,
        allowMultipleSubscribers: 1,
        padding: [0; 7],
    };
    let mut other = null_mut();
    let mut on = 1u8;
    let mut fields: [c_int; 2] = [0, K::KERNEL_FIELD_NAME.0 as c_int];
    let mut cfg = CUpti_ActivityConfig {
        structSize: size_of::<CUpti_ActivityConfig>(),
        fieldSelection: CUpti_ActivityFieldSelection {
            structSize: size_of::<CUpti_ActivityFieldSelection>(),
            numFields: 2,
            pFieldIds: fields.as_mut_ptr(),
        },
        pKindOptions: null_mut(),
    };
    // SAFETY: valid pointers for each call; the callbacks live for the process.
    unsafe {
        assert_eq!(
            f.cuptiSubscribe_v2(
                &mut other,
                None,
                null_mut(),
                (&mut params as *mut CUpti_SubscriberParams).cast()
            )
            .unwrap()
            .0,
            0
        );
        let mut one = 1usize;
        let udr = cupti::sys::v13_5::CUPTI_ACTIVITY_ATTR_USER_DEFINED_RECORDS;
        assert_eq!(
            f.cuptiActivitySetAttribute_v2(other, udr, &mut one, (&mut on as *mut u8).cast()).unwrap().0,
            0
        );
        assert_eq!(
            f.cuptiActivityRegisterCallbacks_v2(other, Some(foreign_request), Some(foreign_complete))
                .unwrap()
                .0,
            0
        );
        assert_eq!(
            f.cuptiActivityEnable_v2(other, CUpti_ActivityKind(ActivityKind::CONCURRENT_KERNEL.0), &mut cfg)
                .unwrap()
                .0,
            0
        );
    }
    // Our session through the V1 API is refused while that tool's subscriber lives; through V2 it works.
    // (The plain timestamp the session calibrates its clock with is refused first: NOT_COMPATIBLE.)
    let v1 = ActivitySession::new(cupti, ActivityConfig { api: ActivityApi::V1, ..config(&TIMELINE) })
        .and_then(|s| s.start().map(|()| s));
    assert!(
        matches!(v1, Err(Error::MultipleSubscribers { .. } | Error::NotCompatible { .. })),
        "CUPTI refuses to mix V1 and V2: {v1:?}"
    );
    drop(v1);
    let session = ActivitySession::new(cupti, config(&TIMELINE)).unwrap();
    assert!(session.uses_user_defined_records());
    let kernels = session.collect(FamilySet::KERNEL);
    session.start().unwrap();
    for _ in 0..25 {
        m.launch(c"both_see_me", 3);
    }
    session.fence().unwrap();
    assert_eq!(kernels.take().kernels.len(), 25);
    let counts = session.stop().unwrap();
    let foreign = FOREIGN_RECORDS.load(Ordering::Relaxed) as u64;
    assert_eq!(foreign, 25, "the other tool got every kernel too");
    let p = counts.pipeline;
    assert_eq!(
        m.produced() - foreign,
        p.records_delivered + p.records_dropped() + counts.vendor.decoder.fence_records,
        "ours are accounted for apart from the other tool's: {counts:#?}"
    );
    // SAFETY: the other tool's live handle.
    assert_eq!(unsafe { f.cuptiUnsubscribe(other) }.unwrap().0, 0);
}
