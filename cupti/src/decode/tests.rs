//! The walker on synthetic buffers written at the generated structs' offsets.

use accelprof_core::columns::{CopyKind, MemoryKind, HOST_DEVICE};
use accelprof_core::intern::Interner;
use accelprof_core::{Batch, RecordWalker};

use super::records::{Kernel, Records};
use super::*;

/// A walker that reads the records' strings: the test buffers' string fields are NULL or point at
/// `'static` C strings (`Records::ptr` takes only those).
fn trusted(layouts: RecordLayouts) -> Walker {
    // SAFETY: as said above.
    unsafe { Walker::new(layouts) }
}

fn walk(walker: &mut Walker, bytes: &[u8]) -> (Batch, Interner, accelprof_core::WalkStats) {
    let mut batch = Batch::new();
    let mut names = Interner::new();
    let stats = walker.walk(bytes, &mut batch, &mut names);
    (batch, names, stats)
}

#[test]
fn kernels_decode_with_the_layout_of_each_version() {
    for (version, size) in [(VERSION_12_9, 208), (VERSION_13_0, 216), (VERSION_13_2, 224)] {
        let mut recs = Records::new();
        let k = Kernel {
            start: 10,
            end: 25,
            device: 3,
            context: 9,
            stream: 13,
            correlation: 77,
            grid: [4, 5, 6],
            block: [32, 2, 1],
            static_shared: 1024,
            dynamic_shared: 512,
            registers: 40,
            name: c"gemm_kernel",
        };
        recs.kernel(size, kinds::CONCURRENT_KERNEL, &k);
        recs.kernel(size, kinds::KERNEL, &Kernel { correlation: 78, ..k });
        let mut walker = trusted(RecordLayouts::for_version(version));
        let (batch, names, stats) = walk(&mut walker, recs.bytes());
        assert_eq!((stats.records, stats.skipped_unknown), (2, 0), "version {version}");
        let row = batch.kernels.row(0).unwrap();
        assert_eq!((row.start, row.end, row.device, row.context, row.stream), (10, 25, 3, 9, 13));
        assert_eq!((row.grid_x, row.grid_y, row.grid_z, row.block_x, row.block_y), (4, 5, 6, 32, 2));
        assert_eq!((row.shared_memory, row.registers, row.correlation), (1536, 40, 77));
        assert_eq!(names.names().resolve(row.name), "gemm_kernel");
        assert_eq!(batch.kernels.correlation(), &[77, 78]);
        assert_eq!(batch.kernels.name()[0], batch.kernels.name()[1], "one name, interned once");
        assert_eq!(names.len(), 1);
    }
}

#[test]
fn a_13_0_buffer_walked_with_the_12_9_table_goes_wrong_which_is_why_layouts_matter() {
    let mut recs = Records::new();
    recs.kernel(216, kinds::KERNEL, &Kernel::default());
    recs.api(5, 211, 1, 2, 3, 4, 5);
    let mut walker = trusted(RecordLayouts::for_version(VERSION_12_9));
    let (batch, _, stats) = walk(&mut walker, recs.bytes());
    // Stepping 208 lands inside the kernel record's tail: the API record is not found.
    assert_eq!(batch.api_calls.len(), 0);
    assert!(stats.skipped_unknown > 0);
}

#[test]
fn copies_sets_api_calls_and_external_correlations() {
    let mut recs = Records::new();
    recs.api(5, 211, 100, 110, 4242, 17, 5); // cudaLaunchKernel
    recs.api(4, 307, 101, 109, 4242, 17, 6); // cuLaunchKernel
    recs.memcpy(1, 1, 3, 4096, 120, 130, 7, 8);
    recs.memset(0xAB, 256, 140, 141, 7, 9);
    recs.external(2, 0xDEAD_BEEF, 5);
    let mut walker = trusted(RecordLayouts::for_version(VERSION_13_0));
    let (batch, names, stats) = walk(&mut walker, recs.bytes());
    assert_eq!((stats.records, stats.skipped_unknown), (5, 0));
    let names = names.names();
    let call = batch.api_calls.row(0).unwrap();
    assert_eq!((call.start, call.end, call.process, call.thread, call.correlation), (100, 110, 4242, 17, 5));
    assert_eq!((call.domain, call.cbid), (API_DOMAIN_RUNTIME, 211));
    assert_eq!(names.resolve(call.name), "cudaLaunchKernel");
    let driver = batch.api_calls.row(1).unwrap();
    assert_eq!((driver.domain, names.resolve(driver.name)), (API_DOMAIN_DRIVER, "cuLaunchKernel"));
    let copy = batch.memcpys.row(0).unwrap();
    assert_eq!(
        (copy.copy_kind, copy.src_kind, copy.dst_kind),
        (CopyKind::HTOD, MemoryKind::PAGEABLE, MemoryKind::DEVICE)
    );
    assert_eq!(
        (copy.bytes, copy.start, copy.end, copy.stream, copy.correlation, copy.is_async),
        (4096, 120, 130, 7, 8, true)
    );
    let set = batch.memsets.row(0).unwrap();
    assert_eq!((set.value, set.bytes, set.memory_kind, set.correlation), (0xAB, 256, MemoryKind::DEVICE, 9));
    let link = batch.external_correlations.row(0).unwrap();
    assert_eq!((link.external_kind, link.external_id, link.correlation), (2, 0xDEAD_BEEF, 5));
}

#[test]
fn sync_records_move_the_fence_clock_and_become_rows_only_when_asked() {
    let mut recs = Records::new();
    recs.kernel(216, kinds::KERNEL, &Kernel { device: 2, context: 5, ..Kernel::default() });
    recs.sync(4, 500, 900, 5, u32::MAX, 12);
    recs.sync(3, 950, 990, 5, 7, 13);
    let mut emitting = trusted(RecordLayouts::for_version(VERSION_13_0));
    let (batch, names, stats) = walk(&mut emitting, recs.bytes());
    assert_eq!(stats.records, 3);
    assert_eq!(batch.syncs.len(), 2);
    let row = batch.syncs.row(0).unwrap();
    assert_eq!((row.device, row.context, row.sync_type, row.correlation), (2, 5, 4, 12));
    assert_eq!(names.names().resolve(row.name), "Context Sync");
    assert_eq!(names.names().resolve(batch.syncs.row(1).unwrap().name), "Stream Sync");
    assert_eq!(emitting.shared().stats().max_sync_end, 990);

    let mut fence_only = trusted(RecordLayouts::for_version(VERSION_13_0)).emit_sync_rows(false);
    let (batch, _, stats) = walk(&mut fence_only, recs.bytes());
    assert_eq!((stats.records, stats.skipped_unknown), (3, 0));
    assert_eq!(batch.syncs.len(), 0);
    let shared = fence_only.shared().stats();
    assert_eq!((shared.max_sync_end, shared.fence_records), (990, 2));
}

#[test]
fn nvtx_ranges_are_paired_across_buffers() {
    let mut first = Records::new();
    first.marker(2, 100, 1, 11, Some(c"forward")); // start
    first.marker(1, 150, 2, 11, Some(c"checkpoint")); // instant
    let mut second = Records::new();
    second.marker(4, 300, 1, 11, None); // end of range 1
    second.marker(4, 310, 99, 11, None); // end without a start
    let mut walker = trusted(RecordLayouts::for_version(VERSION_13_0));
    let (batch, names, stats) = walk(&mut walker, first.bytes());
    assert_eq!((stats.records, batch.markers.len()), (2, 1));
    assert_eq!(walker.shared().stats().open_ranges, 1);
    let instant = batch.markers.row(0).unwrap();
    assert_eq!((instant.start, instant.end, instant.device), (150, 150, HOST_DEVICE));
    assert_eq!(names.names().resolve(instant.name), "checkpoint");
    let mut batch = Batch::new();
    let mut names2 = names;
    let stats = walker.walk(second.bytes(), &mut batch, &mut names2);
    assert_eq!((stats.records, stats.skipped_unknown), (1, 1));
    let range = batch.markers.row(0).unwrap();
    assert_eq!((range.start, range.end, range.thread, range.process), (100, 300, 11, 4242));
    assert_eq!(names2.names().resolve(range.name), "forward");
    let shared = walker.shared().stats();
    assert_eq!((shared.open_ranges, shared.unpaired_range_ends), (0, 1));
}

#[test]
fn kinds_not_decoded_are_skipped_and_counted_and_walking_goes_on() {
    let mut recs = Records::new();
    recs.record(37, 24); // STREAM: known size, not decoded
    recs.api(5, 211, 1, 2, 3, 4, 5);
    let mut walker = trusted(RecordLayouts::for_version(VERSION_13_0));
    let (batch, _, stats) = walk(&mut walker, recs.bytes());
    assert_eq!((stats.records, stats.skipped_unknown, batch.api_calls.len()), (1, 1, 1));
    assert_eq!(walker.shared().stats().skipped_kinds, 1 << 37);
}

#[test]
fn an_unsizable_kind_stops_the_buffer_and_is_counted() {
    let mut recs = Records::new();
    recs.api(5, 211, 1, 2, 3, 4, 5);
    recs.record(6, 24); // EVENT: removed in 13.0, no size in the 13.0 table
    recs.api(5, 211, 1, 2, 3, 4, 6);
    let mut walker = trusted(RecordLayouts::for_version(VERSION_13_0));
    let (batch, _, stats) = walk(&mut walker, recs.bytes());
    assert_eq!((stats.records, stats.skipped_unknown, batch.api_calls.len()), (1, 1, 1));
    assert_eq!(walker.shared().stats().truncated_buffers, 1);
    // The API record after it is in no count: the walk says how many bytes it could not walk.
    let api = std::mem::size_of::<cupti_sys::CUpti_ActivityAPI>();
    assert_eq!(stats.abandoned_bytes, (recs.bytes().len() - api) as u64);
}

#[test]
fn a_stride_probe_sizes_unknown_kinds_and_corrects_unverified_tables() {
    // A probe that knows the true sizes: EVENT records are 24 bytes, kernels 232 (a future release).
    let probe = |rest: &[u8]| -> Option<usize> {
        let kind = u32::from_ne_bytes(rest[..4].try_into().unwrap());
        Some(match kind {
            6 => 24,
            3 => 232,
            5 => 40,
            _ => return None,
        })
    };
    let mut recs = Records::new();
    recs.record(6, 24);
    recs.kernel(232, kinds::KERNEL, &Kernel::default());
    recs.api(5, 211, 1, 2, 3, 4, 5);
    let future = RecordLayouts::for_version(140_000);
    assert!(!future.is_verified());
    let mut walker = trusted(future).with_stride_probe(Box::new(probe));
    let (batch, _, stats) = walk(&mut walker, recs.bytes());
    assert_eq!((stats.records, stats.skipped_unknown), (2, 1), "EVENT skipped, kernel and API decoded");
    assert_eq!((batch.kernels.len(), batch.api_calls.len()), (1, 1));
    assert_eq!(walker.layouts().size_of(3), Some(232));
    assert_eq!(walker.shared().stats().stride_corrections, 1);
}

#[test]
fn truncated_and_short_records_never_read_past_the_buffer() {
    let mut recs = Records::new();
    recs.api(5, 211, 1, 2, 3, 4, 5);
    recs.kernel(216, kinds::KERNEL, &Kernel::default());
    let bytes = recs.bytes();
    for cut in 0..bytes.len() {
        let mut walker = trusted(RecordLayouts::for_version(VERSION_13_0));
        let (batch, _, stats) = walk(&mut walker, &bytes[..cut]);
        let complete = usize::from(cut >= 40) + usize::from(cut >= 256);
        assert_eq!(batch.len(), complete, "cut at {cut}");
        assert_eq!(stats.records as usize, complete);
        assert_eq!(stats.skipped_unknown, u64::from(cut != 0 && cut != 40 && cut != 256), "cut at {cut}");
    }
}

#[test]
fn kernel_names_can_be_transformed_once_per_name() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&calls);
    let mut walker =
        trusted(RecordLayouts::for_version(VERSION_13_0)).with_kernel_name_transform(Box::new(move |raw| {
            seen.fetch_add(1, Ordering::Relaxed);
            (raw == b"_Z3fooi").then(|| "foo(int)".to_owned())
        }));
    let mut recs = Records::new();
    for name in [c"_Z3fooi", c"_Z3fooi", c"plain"] {
        recs.kernel(216, kinds::KERNEL, &Kernel { name, ..Kernel::default() });
    }
    let (batch, names, _) = walk(&mut walker, recs.bytes());
    let names = names.names();
    let shown: Vec<&str> = batch.kernels.name().iter().map(|id| names.resolve(*id)).collect();
    assert_eq!(shown, ["foo(int)", "foo(int)", "plain"]);
    assert_eq!(calls.load(Ordering::Relaxed), 2);
}

#[test]
fn runs_of_api_records_decode_row_for_row_like_single_records() {
    // Long runs of runtime and driver calls (growing the columns, many cbids met mid-run, cbids without a
    // name and past the tables), broken by kernels, with a truncated call at the end.
    let mut recs = Records::new();
    let mut expected = Vec::new();
    let cbids = [211, 31, 41, 20, 440, 0, 9999, 70_000, 1, 307];
    for i in 0..3000u32 {
        let (kind, domain) =
            if (i / 700) % 2 == 0 { (5, API_DOMAIN_RUNTIME) } else { (4, API_DOMAIN_DRIVER) };
        let cbid = cbids[(i as usize * 7 + i as usize / 13) % cbids.len()];
        let (start, end) = (u64::from(i) * 10, u64::from(i) * 10 + 3);
        recs.api(kind, cbid, start, end, 4242 + i % 3, 17 + i, i + 1);
        expected.push((start, end, 4242 + i % 3, u64::from(17 + i), u64::from(i + 1), domain, cbid));
        if i % 997 == 996 {
            recs.kernel(216, kinds::KERNEL, &Kernel { correlation: i, ..Kernel::default() });
        }
    }
    let whole = recs.bytes().len();
    recs.api(5, 211, 1, 2, 3, 4, 5);
    let bytes = &recs.bytes()[..whole + 39];
    let mut walker = trusted(RecordLayouts::for_version(VERSION_13_0));
    let (batch, names, stats) = walk(&mut walker, bytes);
    assert_eq!((stats.records, stats.skipped_unknown), (3003, 1));
    assert_eq!(walker.shared().stats().truncated_buffers, 1);
    assert_eq!(stats.abandoned_bytes, 0, "the record cut short was the last one: exactly one lost");
    assert_eq!(batch.kernels.len(), 3);
    let names = names.names();
    let rows: Vec<_> = batch.api_calls.rows().collect();
    assert_eq!(rows.len(), expected.len());
    for (row, &(start, end, process, thread, correlation, domain, cbid)) in rows.iter().zip(&expected) {
        assert_eq!(
            (row.start, row.end, row.process, row.thread, row.correlation, row.domain, row.cbid),
            (start, end, process, thread, correlation, domain, cbid)
        );
        let name = cupti_sys::cbid_name(
            cupti_sys::CUpti_CallbackDomain(domain),
            cbid,
            walker.layouts().api_version(),
        );
        match name {
            Some(name) => assert_eq!(names.resolve(row.name), name, "cbid {cbid} of domain {domain}"),
            None => assert_eq!(row.name, accelprof_core::NameId::NONE, "cbid {cbid} of domain {domain}"),
        }
    }
    assert_eq!(names.resolve(rows[0].name), "cudaLaunchKernel");
    // A second walk finds every name in the tables: the same ids again.
    let (again, _, _) = walk(&mut walker, bytes);
    assert_eq!(again.api_calls, batch.api_calls);
}

#[test]
fn an_untrusted_walker_follows_no_pointer_in_the_bytes() {
    // The 216-byte 13.0 kernel record of the issue, its name pointer 0x4141414141414141, and NVTX
    // markers whose name and domain point nowhere: walked from safe code, they decode without a
    // fault, every string reading as no name.
    let mut recs = Records::new();
    recs.kernel(216, kinds::CONCURRENT_KERNEL, &Kernel { correlation: 5, ..Kernel::default() });
    let name = std::mem::offset_of!(cupti_sys::CUpti_ActivityKernel9, name);
    let mut bytes = recs.bytes().to_vec();
    bytes[name..name + 8].copy_from_slice(&0x4141_4141_4141_4141u64.to_ne_bytes());
    let mut markers = Records::new();
    markers.marker(1, 7, 1, 2, Some(c"instant"));
    let marker = std::mem::offset_of!(cupti_sys::CUpti_ActivityMarker2, name);
    let domain = std::mem::offset_of!(cupti_sys::CUpti_ActivityMarker2, domain);
    let mut hostile = markers.bytes().to_vec();
    hostile[marker..marker + 8].copy_from_slice(&0x4141_4141_4141_4141u64.to_ne_bytes());
    hostile[domain..domain + 8].copy_from_slice(&8u64.to_ne_bytes());
    bytes.extend_from_slice(&hostile);
    let mut walker = Walker::untrusted(RecordLayouts::for_version(VERSION_13_0));
    let (batch, names, stats) = walk(&mut walker, &bytes);
    assert_eq!((stats.records, stats.skipped_unknown), (2, 0));
    assert_eq!(batch.kernels.correlation(), &[5]);
    assert_eq!(batch.kernels.name(), &[accelprof_core::NameId::NONE]);
    let m = batch.markers.row(0).unwrap();
    assert_eq!((m.start, m.name, m.domain), (7, accelprof_core::NameId::NONE, accelprof_core::NameId::NONE));
    assert_eq!(names.len(), 0);
}

#[test]
fn runs_of_kernel_records_decode_row_for_row_like_single_records() {
    // Runs of both kernel kinds (growing the columns, names changing mid-run, a NULL name, contexts
    // on several devices), broken by API calls and a sync record that needs the device of a context
    // last seen inside a run, with a kernel cut short at the end. Each run gives the rows a walker
    // gives the same records one at a time.
    let names = [c"gemm", c"_Z3addPfS_", c"reduce"];
    let name_at = std::mem::offset_of!(cupti_sys::CUpti_ActivityKernel9, name);
    let mut singles: Vec<Vec<u8>> = Vec::new();
    for i in 0..2000u32 {
        let kind = if (i / 300) % 2 == 0 { kinds::CONCURRENT_KERNEL } else { kinds::KERNEL };
        let k = Kernel {
            start: u64::from(i) * 10,
            end: u64::from(i) * 10 + 4,
            device: i / 500,
            context: 100 + i / 500,
            stream: i % 5,
            correlation: i + 1,
            grid: [i as i32 % 9, 2, -1],
            block: [128, 1, 1],
            static_shared: 16,
            dynamic_shared: i as i32 % 3,
            registers: (i % 64) as u16,
            name: names[(i as usize / 7) % names.len()],
        };
        let mut one = Records::new();
        one.kernel(216, kind, &k);
        let mut bytes = one.bytes().to_vec();
        if i % 101 == 100 {
            bytes[name_at..name_at + 8].copy_from_slice(&0u64.to_ne_bytes());
        }
        singles.push(bytes);
        if i % 450 == 449 {
            let mut api = Records::new();
            api.api(5, 211, 1, 2, 3, 4, i);
            singles.push(api.bytes().to_vec());
        }
    }
    let mut sync = Records::new();
    sync.sync(3, 950, 990, 103, 7, 13);
    singles.push(sync.bytes().to_vec());
    let mut buffer: Vec<u8> = singles.concat();
    let whole = buffer.len();
    buffer.extend_from_slice(&singles[0][..215]);

    let mut walker = trusted(RecordLayouts::for_version(VERSION_13_0));
    let (batch, names_run, stats) = walk(&mut walker, &buffer);
    assert_eq!((stats.records, stats.skipped_unknown), (singles.len() as u64, 1));
    assert_eq!(stats.abandoned_bytes, 0);
    let mut one_by_one = trusted(RecordLayouts::for_version(VERSION_13_0));
    let mut expected = Batch::new();
    let mut names_one = Interner::new();
    for single in &singles {
        one_by_one.walk(single, &mut expected, &mut names_one);
    }
    assert_eq!(batch.kernels.len(), 2000);
    assert_eq!(batch.kernels, expected.kernels);
    assert_eq!(batch.api_calls, expected.api_calls);
    assert_eq!(batch.syncs, expected.syncs);
    assert_eq!(batch.syncs.device(), &[3], "the context's device, learned from a kernel inside a run");
    let (run, one) = (names_run.names(), names_one.names());
    let shown = |names: &accelprof_core::Names, batch: &Batch| -> Vec<String> {
        batch.kernels.name().iter().map(|id| names.resolve(*id).to_owned()).collect()
    };
    assert_eq!(shown(&run, &batch), shown(&one, &expected));
    assert_eq!(batch.kernels.name()[100], accelprof_core::NameId::NONE, "a NULL name is no name");
    assert_eq!(run.resolve(batch.kernels.name()[7]), "_Z3addPfS_");
    assert_eq!(batch.kernels.grid_z()[0], 0, "a negative count reads as 0");
    assert_eq!(&buffer[..whole], &singles.concat()[..]);

    // An untrusted walker follows no name pointer inside a run either.
    let mut untrusted = Walker::untrusted(RecordLayouts::for_version(VERSION_13_0));
    let (batch, names, _) = walk(&mut untrusted, &buffer);
    assert_eq!(batch.kernels.len(), 2000);
    assert!(batch.kernels.name().iter().all(|id| *id == accelprof_core::NameId::NONE));
    assert_eq!(names.len(), 2, "only the API call's and the sync's names, which are no pointers");
}

#[test]
fn an_api_filter_applied_while_decoding_leaves_calls_out_counted_in_runs_and_alone() {
    use crate::activity::{ApiFilter, CbidFilter};
    use crate::ids::{DriverCbid, RuntimeCbid};
    // Keep cudaLaunchKernel (211) and cudaMemcpyAsync (41) of the runtime, cuLaunchKernel (307) and the
    // driver ids past the tables that are not 70_001; leave the rest out.
    let filter = ApiFilter {
        runtime: CbidFilter::only([RuntimeCbid(211), RuntimeCbid(41)]),
        driver: CbidFilter::except([DriverCbid(31), DriverCbid(70_001)]),
    };
    let kept = |kind: u32, cbid: u32| {
        if kind == 5 {
            filter.records_runtime(RuntimeCbid(cbid))
        } else {
            filter.records_driver(DriverCbid(cbid))
        }
    };
    let mut recs = Records::new();
    let mut expected = Vec::new();
    let mut left_out = 0u64;
    let cbids = [211, 31, 41, 20, 440, 0, 9999, 70_000, 70_001, 307];
    for i in 0..2000u32 {
        let kind = if (i / 300) % 2 == 0 { 5 } else { 4 };
        let cbid = cbids[(i as usize * 7 + i as usize / 13) % cbids.len()];
        recs.api(kind, cbid, u64::from(i), u64::from(i) + 1, 7, 8, i + 1);
        if kept(kind, cbid) {
            expected.push((i + 1, cbid));
        } else {
            left_out += 1;
        }
        if i % 499 == 498 {
            // A kernel breaks the run; a lone call follows it (decoded outside the run loop).
            recs.kernel(216, kinds::KERNEL, &Kernel { correlation: i, ..Kernel::default() });
            recs.api(5, 20, 1, 2, 7, 8, 0);
            left_out += 1;
            recs.kernel(216, kinds::KERNEL, &Kernel { correlation: i, ..Kernel::default() });
        }
    }
    assert!(left_out > 500 && expected.len() > 500, "both kept and left-out calls: {left_out}");
    let mut walker = trusted(RecordLayouts::for_version(VERSION_13_0)).with_api_filter(filter.clone());
    let (batch, names, stats) = walk(&mut walker, recs.bytes());
    assert_eq!(stats.filtered, left_out);
    assert_eq!(stats.records, expected.len() as u64 + batch.kernels.len() as u64);
    assert_eq!(stats.skipped_unknown, 0);
    let rows: Vec<_> = batch.api_calls.rows().map(|r| (r.correlation as u32, r.cbid)).collect();
    assert_eq!(rows, expected, "the kept calls, in order, and no other");
    assert!(batch
        .api_calls
        .rows()
        .all(|r| (r.domain, r.cbid) != (API_DOMAIN_RUNTIME, 20) && r.cbid != 70_001));
    assert_eq!(names.names().resolve(batch.api_calls.row(0).unwrap().name), "cudaLaunchKernel");
    // A second walk: the tables hold the filtered slots now; the same result.
    let (again, _, stats2) = walk(&mut walker, recs.bytes());
    assert_eq!((again.api_calls.clone(), stats2), (batch.api_calls.clone(), stats));
    // Without a filter every call is a row.
    let mut all = trusted(RecordLayouts::for_version(VERSION_13_0)).with_api_filter(ApiFilter::all());
    let (every, _, s) = walk(&mut all, recs.bytes());
    assert_eq!((s.filtered, every.api_calls.len() as u64), (0, expected.len() as u64 + left_out));
}
