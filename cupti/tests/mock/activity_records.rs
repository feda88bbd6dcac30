//! What the records say: real layouts (gcc offsets, and the generated structs agree), the same
//! correlation id in an API record and the GPU record it caused, disabled kinds produce nothing,
//! external correlation per thread, markers, memory, the driver calls inside runtime calls.

use cupti_sys::{CUpti_ActivityAPI, CUpti_ActivityKernel10};

use super::buffers;
use super::harness::{mock, ok, Mock};
use super::layout::*;

fn run_and_flush(m: &Mock, work: impl FnOnce()) -> Vec<Vec<u8>> {
    buffers::register();
    work();
    assert_eq!(m.flush(0), 0);
    buffers::records()
}

fn of_kind(records: &[Vec<u8>], k: u32) -> Vec<Vec<u8>> {
    records.iter().filter(|r| kind(r) == k).cloned().collect()
}

/// The kernel's id of the calling thread.
fn gettid() -> u32 {
    // SAFETY: gettid takes no arguments and cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as u32 }
}

/// The process and system thread ids of the runtime API record a call (with no GPU work) made now on
/// this thread carries.
fn ids_of_an_api_call(m: &Mock) -> (u32, u32) {
    buffers::clear();
    let records = run_and_flush(m, || {
        m.api_call(2, 3, None, 0);
    });
    let api = of_kind(&records, kinds::RUNTIME);
    assert_eq!(api.len(), 1);
    (u32_at(&api[0], api::PROCESS), u32_at(&api[0], api::THREAD))
}

#[test]
fn api_records_carry_the_ids_of_the_process_and_thread_they_were_made_on() {
    let (_g, m) = mock();
    m.enable(kinds::RUNTIME);
    // SAFETY: a plain value argument (CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM).
    assert_eq!(ok(unsafe { m.f().cuptiSetThreadIdType(cupti_sys::CUpti_ActivityThreadIdType(1)) }), 0);
    assert_eq!(ids_of_an_api_call(m), (std::process::id(), gettid()));
    // Another thread of the same process: its own id.
    let (process, thread, its_tid) = std::thread::scope(|s| {
        s.spawn(|| {
            let (p, t) = ids_of_an_api_call(m);
            (p, t, gettid())
        })
        .join()
        .unwrap()
    });
    assert_eq!((process, thread), (std::process::id(), its_tid));
    assert_ne!(its_tid, gettid());

    // And this thread's are still its own (each thread's id is kept per thread).
    assert_eq!(ids_of_an_api_call(m), (std::process::id(), gettid()));
}

#[test]
fn a_launch_gives_an_api_record_and_a_kernel_record_with_one_correlation_id() {
    let (_g, m) = mock();
    m.enable(kinds::CONCURRENT_KERNEL);
    m.enable(kinds::RUNTIME);
    let mut corr = 0;
    let records =
        run_and_flush(m, || corr = m.launch(c"gemm_kernel", [120, 4, 2], [128, 2, 1], 2048, 0x51, 25_000));
    let (api, k) = (&of_kind(&records, kinds::RUNTIME)[0], &of_kind(&records, kinds::CONCURRENT_KERNEL)[0]);
    assert_eq!((api.len(), k.len()), (api::SIZE, kernel::SIZE_13_0));

    assert_eq!(u32_at(api, api::CBID), 211);
    assert_eq!(u32_at(api, api::CORRELATION), corr);
    assert_eq!(u32_at(api, api::PROCESS), std::process::id());
    assert_eq!(u32_at(api, api::RETURN_VALUE), 0);
    assert!(u64_at(api, api::START) <= u64_at(api, api::END));

    assert_eq!(u32_at(k, kernel::CORRELATION), corr);
    assert_eq!(str_at(k, kernel::NAME).as_deref(), Some("gemm_kernel"));
    let dims =
        [kernel::GRID_X, kernel::GRID_Y, kernel::GRID_Z, kernel::BLOCK_X, kernel::BLOCK_Y, kernel::BLOCK_Z];
    assert_eq!(dims.map(|o| u32_at(k, o)), [120, 4, 2, 128, 2, 1]);
    assert_eq!(u32_at(k, kernel::DYNAMIC_SHARED), 2048);
    assert_eq!(u32_at(k, kernel::STREAM), 0x51);
    assert_eq!((u32_at(k, kernel::DEVICE), u32_at(k, kernel::CONTEXT)), (0, 1));
    assert_eq!(u16_at(k, kernel::REGISTERS), 32);
    assert_eq!(u64_at(k, kernel::END) - u64_at(k, kernel::START), 25_000);
    assert_eq!(u64_at(k, kernel::COMPLETED), u64_at(k, kernel::END));
    assert!(u64_at(k, kernel::START) > u64_at(api, api::START), "the kernel runs after its launch began");

    // The generated structs read the same bytes the same way.
    // SAFETY: the records are full-length byte copies of these structs.
    let (gk, ga) = unsafe {
        (
            k.as_ptr().cast::<CUpti_ActivityKernel10>().read_unaligned(),
            api.as_ptr().cast::<CUpti_ActivityAPI>().read_unaligned(),
        )
    };
    assert_eq!({ gk.correlationId }, corr);
    assert_eq!(({ gk.gridX }, { gk.blockY }, { gk.dynamicSharedMemory }), (120, 2, 2048));
    assert_eq!({ gk.isDeviceLaunched }, 0);
    assert_eq!(({ ga.cbid }, { ga.correlationId }), (211, corr));
}

#[test]
fn kernel_kind_follows_what_is_enabled_and_failed_calls_run_nothing() {
    let (_g, m) = mock();
    m.enable(kinds::KERNEL);
    m.enable(kinds::RUNTIME);
    m.enable(kinds::DRIVER);
    let mut driver_launch = 0;
    let records = run_and_flush(m, || {
        m.launch(c"serial", [1, 1, 1], [1, 1, 1], 0, 0, 100);
        m.fail_next_call(98); // cudaErrorInvalidDeviceFunction
        m.launch(c"bad", [1, 1, 1], [1, 1, 1], 0, 0, 100);
        driver_launch = m.launch_kernel_driver(c"drv", 1, 1, 1, 1, 1, 1, 0, 0, 100);
    });
    let kernels = of_kind(&records, kinds::KERNEL);
    assert_eq!(kernels.len(), 2, "the failed launch ran no kernel");
    assert_eq!(str_at(&kernels[0], kernel::NAME).as_deref(), Some("serial"));
    assert_eq!(u32_at(&kernels[1], kernel::CORRELATION), driver_launch);
    let apis = of_kind(&records, kinds::RUNTIME);
    assert_eq!(apis.iter().map(|a| u32_at(a, api::RETURN_VALUE)).collect::<Vec<_>>(), vec![0, 98]);
    // The successful cudaLaunchKernel launched through cuLaunchKernel (same correlation id); the
    // failed one never reached the driver.
    let drivers = of_kind(&records, kinds::DRIVER);
    let driver_calls: Vec<_> =
        drivers.iter().map(|d| (u32_at(d, api::CBID), u32_at(d, api::CORRELATION))).collect();
    let serial = u32_at(&kernels[0], kernel::CORRELATION);
    assert_eq!(driver_calls, [(307, serial), (307, driver_launch)]);
    assert_eq!(u32_at(&apis[0], api::CORRELATION), serial);
}

#[test]
fn disabled_kinds_produce_no_records() {
    let (_g, m) = mock();
    m.enable(kinds::RUNTIME);
    let records = run_and_flush(m, || {
        m.memcpy(0x1, 0x2, 64, 1, 0, 0, 100);
        m.launch(c"k", [1, 1, 1], [1, 1, 1], 0, 0, 100);
    });
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|r| kind(r) == kinds::RUNTIME));
    m.disable(kinds::RUNTIME);
    m.memcpy(0x1, 0x2, 64, 1, 0, 0, 100);
    assert_eq!(m.flush(0), 0);
    assert_eq!(buffers::records().len(), 2);
    assert_eq!(m.stat(c"records_written"), 2);
    // SAFETY: plain value; kind 9999 is unknown.
    assert_eq!(ok(unsafe { m.f().cuptiActivityEnable(cupti_sys::CUpti_ActivityKind(9999)) }), 21);
    // SAFETY: as above; EVENT (6) was removed in 13.0.
    assert_eq!(ok(unsafe { m.f().cuptiActivityEnable(cupti_sys::CUpti_ActivityKind(6)) }), 21);
}

#[test]
fn copies_and_sets_carry_kind_bytes_stream_and_async_flag() {
    let (_g, m) = mock();
    m.enable(kinds::MEMCPY);
    m.enable(kinds::MEMSET);
    let mut blocking_end = 0;
    let records = run_and_flush(m, || {
        m.memcpy(0x7000, 0x9000, 1 << 20, 1, 0x44, 1, 3_000); // HtoD async
        m.memcpy(0x9000, 0x7000, 4096, 2, 0x44, 0, 400_000); // DtoH blocking
        blocking_end = m.timestamp();
        m.memset(0x7000, 0xAB, 512, 0x44, 1, 800);
    });
    let copies = of_kind(&records, kinds::MEMCPY);
    assert_eq!(copies.len(), 2);
    let (a, b) = (&copies[0], &copies[1]);
    assert_eq!(a.len(), memcpy::SIZE);
    assert_eq!(
        [memcpy::COPY_KIND, memcpy::SRC_KIND, memcpy::DST_KIND, memcpy::FLAGS].map(|o| u8_at(a, o)),
        [1, 2, 3, 1]
    );
    assert_eq!((u64_at(a, memcpy::BYTES), u32_at(a, memcpy::STREAM)), (1 << 20, 0x44));
    assert_eq!(u64_at(a, memcpy::COPY_COUNT), 1);
    assert_eq!(
        [memcpy::COPY_KIND, memcpy::SRC_KIND, memcpy::DST_KIND, memcpy::FLAGS].map(|o| u8_at(b, o)),
        [2, 3, 1, 0]
    );
    assert_eq!(u32_at(b, memcpy::STREAM), 7, "cudaMemcpy runs on the NULL stream");
    assert_eq!(u64_at(b, memcpy::END) - u64_at(b, memcpy::START), 400_000);
    assert!(blocking_end >= u64_at(b, memcpy::END), "a blocking copy returns after it ended");

    let sets = of_kind(&records, kinds::MEMSET);
    let s = &sets[0];
    assert_eq!(s.len(), memset::SIZE);
    assert_eq!((u32_at(s, memset::VALUE), u64_at(s, memset::BYTES)), (0xAB, 512));
    assert_eq!((u16_at(s, memset::FLAGS), u16_at(s, memset::MEMORY_KIND)), (1, 3));
    assert_eq!(u32_at(s, memset::STREAM), 0x44);
    assert!(u32_at(s, memset::CORRELATION) > u32_at(b, memcpy::CORRELATION));
}

#[test]
fn external_correlation_ids_are_per_thread_and_precede_the_api_record() {
    let (_g, m) = mock();
    m.enable(kinds::RUNTIME);
    m.enable(kinds::EXTERNAL_CORRELATION);
    let f = m.f();
    let custom0 = cupti_sys::CUpti_ExternalCorrelationKind(3);
    let custom1 = cupti_sys::CUpti_ExternalCorrelationKind(4);
    let (mut tagged, mut nested, mut untagged) = (0, 0, 0);
    let records = run_and_flush(m, || {
        // SAFETY: plain values and valid out-pointers throughout.
        unsafe {
            assert_eq!(ok(f.cuptiActivityPushExternalCorrelationId(custom0, 42)), 0);
            tagged = m.api_call(2, 3, None, 0);
            untagged = std::thread::scope(|s| s.spawn(|| m.api_call(2, 3, None, 0)).join().expect("t"));
            assert_eq!(ok(f.cuptiActivityPushExternalCorrelationId(custom0, 43)), 0);
            assert_eq!(ok(f.cuptiActivityPushExternalCorrelationId(custom1, 7)), 0);
            nested = m.api_call(2, 3, None, 0);
            let mut last = 0;
            assert_eq!(ok(f.cuptiActivityPopExternalCorrelationId(custom0, &mut last)), 0);
            assert_eq!(last, 43);
            assert_eq!(ok(f.cuptiActivityPopExternalCorrelationId(custom1, &mut last)), 0);
            assert_eq!(ok(f.cuptiActivityPopExternalCorrelationId(custom0, std::ptr::null_mut())), 0);
            assert_eq!(ok(f.cuptiActivityPopExternalCorrelationId(custom0, &mut last)), 18, "QUEUE_EMPTY");
            let invalid = cupti_sys::CUpti_ExternalCorrelationKind(0);
            assert_eq!(ok(f.cuptiActivityPushExternalCorrelationId(invalid, 1)), 1);
        }
    });
    let seq: Vec<(u32, u32, u64)> = records
        .iter()
        .map(|r| match kind(r) {
            kinds::EXTERNAL_CORRELATION => {
                assert_eq!(r.len(), external::SIZE);
                (kinds::EXTERNAL_CORRELATION, u32_at(r, external::CORRELATION), u64_at(r, external::ID))
            }
            k => (k, u32_at(r, api::CORRELATION), 0),
        })
        .collect();
    let ext = kinds::EXTERNAL_CORRELATION;
    assert_eq!(
        seq,
        vec![
            (ext, tagged, 42),
            (kinds::RUNTIME, tagged, 0),
            (kinds::RUNTIME, untagged, 0),
            (ext, nested, 43),
            (ext, nested, 7),
            (kinds::RUNTIME, nested, 0),
        ]
    );
    let kinds_of_nested: Vec<u32> =
        records.iter().filter(|r| kind(r) == ext).skip(1).map(|r| u32_at(r, external::KIND)).collect();
    assert_eq!(kinds_of_nested, vec![3, 4]);
}

#[test]
fn markers_memory_and_sync_records() {
    let (_g, m) = mock();
    for k in [kinds::MARKER, kinds::MEMORY2, kinds::SYNCHRONIZATION] {
        m.enable(k);
    }
    let (mut range, mut address, mut alloc_corr, mut sync_corr) = (0, 0, 0, 0);
    let records = run_and_flush(m, || {
        range = m.marker_start(c"step", Some(c"train"));
        alloc_corr = m.malloc(1000, &mut address);
        m.marker_end(range);
        m.marker_instant(c"tick", None);
        m.free(address);
        sync_corr = m.stream_synchronize(0x99);
    });
    let markers = of_kind(&records, kinds::MARKER);
    assert_eq!(markers.len(), 3);
    assert!(markers.iter().all(|r| r.len() == marker::SIZE));
    let flags: Vec<u32> = markers.iter().map(|r| u32_at(r, marker::FLAGS)).collect();
    assert_eq!(flags, vec![2, 4, 1], "START, END, INSTANTANEOUS");
    assert_eq!(u32_at(&markers[0], marker::ID), range);
    assert_eq!(u32_at(&markers[1], marker::ID), range);
    assert_eq!(str_at(&markers[0], marker::NAME).as_deref(), Some("step"));
    assert_eq!(str_at(&markers[0], marker::DOMAIN).as_deref(), Some("train"));
    assert_eq!(str_at(&markers[1], marker::NAME), None, "an end marker has no name");
    assert_eq!(str_at(&markers[2], marker::DOMAIN), None, "default domain");
    assert_eq!(u32_at(&markers[0], marker::OBJECT_KIND), 2, "THREAD");
    assert_eq!(u32_at(&markers[0], marker::OBJECT_PROCESS), std::process::id());
    assert!(u64_at(&markers[1], marker::TIMESTAMP) >= u64_at(&markers[0], marker::TIMESTAMP));

    let mem = of_kind(&records, kinds::MEMORY2);
    assert_eq!(mem.len(), 2);
    assert_eq!(mem[0].len(), memory::SIZE);
    assert_eq!((u32_at(&mem[0], memory::OPERATION), u32_at(&mem[1], memory::OPERATION)), (1, 2));
    assert_eq!((u64_at(&mem[0], memory::ADDRESS), u64_at(&mem[0], memory::BYTES)), (address, 1000));
    assert_eq!(u32_at(&mem[0], memory::CORRELATION), alloc_corr);
    assert_eq!(u32_at(&mem[0], memory::MEMORY_KIND), 3, "DEVICE");

    let s = &of_kind(&records, kinds::SYNCHRONIZATION)[0];
    assert_eq!(s.len(), sync::SIZE);
    assert_eq!((u32_at(s, sync::TYPE), u32_at(s, sync::STREAM)), (3, 0x99), "STREAM_SYNCHRONIZE");
    assert_eq!((u32_at(s, sync::CORRELATION), u32_at(s, sync::CONTEXT)), (sync_corr, 1));
    assert_eq!(u32_at(s, sync::EVENT), u32::MAX, "not an event sync");
}
