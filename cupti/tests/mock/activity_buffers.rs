//! The activity buffer protocol: requests on the producing thread, completion on CUPTI's own
//! thread in fill order, flush semantics (default vs FORCED with an in-flight kernel), dropped
//! records, `maxNumRecords`, walking with `cuptiActivityGetNextRecord`.

use std::ptr::null_mut;

use super::buffers::{self, DECLINE_NULL, DECLINE_SIZE0, MISALIGNED};
use super::harness::{mock, ok};
use super::layout::{kernel, kind, kinds, sync, u32_at, u64_at};

const FORCED: u32 = 1;

fn kernel_records() -> Vec<Vec<u8>> {
    buffers::records().into_iter().filter(|r| kind(r) == kinds::CONCURRENT_KERNEL).collect()
}

#[test]
fn buffers_are_requested_on_the_producer_and_completed_on_another_thread() {
    let (_g, m) = mock();
    buffers::register();
    m.enable(kinds::CONCURRENT_KERNEL);
    m.enable(kinds::RUNTIME);
    let producer = std::thread::spawn(move || {
        (0..3).for_each(|i| {
            m.launch(c"k", [1, 1, 1], [32, 1, 1], 0, 0x10, 1_000 + i);
        });
        std::thread::current().id()
    })
    .join()
    .expect("producer");
    assert!(buffers::completed().is_empty(), "a partial buffer waits for a flush");
    assert_eq!(m.flush(0), 0);
    let requests = buffers::requests();
    assert_eq!(requests, vec![producer], "one buffer, requested on the producing thread");
    let done = buffers::completed();
    assert_eq!(done.len(), 1, "FlushAll returns after the completion callback ran");
    let me = std::thread::current().id();
    assert!(done[0].thread != me && done[0].thread != producer, "completed on CUPTI's own thread");
    assert_eq!(done[0].records.len(), 6, "3 RUNTIME + 3 kernel records");
    assert_eq!(done[0].walk_end, 12, "the walk ends with MAX_LIMIT_REACHED");
    assert_eq!(done[0].valid, 3 * 40 + 3 * kernel::SIZE_13_0);
    assert_eq!(done[0].size, 1 << 20);
    assert_eq!(m.stat(c"buffers_completed"), 1);
    // Nothing left: another flush delivers nothing.
    assert_eq!(m.flush(0), 0);
    assert_eq!(buffers::completed().len(), 1);
}

#[test]
fn flushing_requires_registered_callbacks() {
    let (_g, m) = mock();
    assert_eq!(m.flush(0), 7, "CUPTI_ERROR_INVALID_OPERATION");
    // SAFETY: NULL callbacks are an invalid parameter.
    assert_eq!(ok(unsafe { m.f().cuptiActivityRegisterCallbacks(None, None) }), 1);
}

#[test]
fn full_buffers_are_delivered_without_a_flush_in_fill_order() {
    let (_g, m) = mock();
    buffers::set_size(4 * 40); // four API records
    buffers::register();
    m.enable(kinds::RUNTIME);
    let corrs: Vec<u32> = (0..10).map(|_| m.api_call(2, 3, None, 0)).collect();
    m.wait_idle();
    let done = buffers::completed();
    assert_eq!(done.len(), 2, "two full buffers went back on their own");
    assert!(done.iter().all(|c| c.valid == 160));
    assert_eq!(m.flush(0), 0);
    let seen: Vec<u32> = buffers::records().iter().map(|r| u32_at(r, 32)).collect();
    assert_eq!(seen, corrs, "every record once, in fill order");
    assert_eq!(buffers::requests().len(), 3);
}

#[test]
fn max_num_records_caps_each_buffer() {
    let (_g, m) = mock();
    buffers::set_max_records(2);
    buffers::register();
    m.enable(kinds::RUNTIME);
    (0..5).for_each(|_| {
        m.api_call(2, 3, None, 0);
    });
    assert_eq!(m.flush(0), 0);
    let counts: Vec<usize> = buffers::completed().iter().map(|c| c.records.len()).collect();
    assert_eq!(counts, vec![2, 2, 1]);
}

#[test]
fn a_forced_flush_returns_an_in_flight_kernel_with_end_zero_and_never_again() {
    let (_g, m) = mock();
    buffers::register();
    m.enable(kinds::CONCURRENT_KERNEL);
    let corr = m.launch_in_flight(c"long_kernel", 0x20);
    assert_eq!(m.stat(c"kernels_in_flight"), 1);
    assert_eq!(m.flush(0), 0);
    assert!(kernel_records().is_empty(), "a default flush holds a buffer with an incomplete record");

    assert_eq!(m.flush(FORCED), 0);
    let ks = kernel_records();
    assert_eq!(ks.len(), 1);
    let k = &ks[0];
    assert_eq!(u32_at(k, kernel::CORRELATION), corr);
    assert_ne!(u64_at(k, kernel::START), 0, "it started");
    assert_eq!(u64_at(k, kernel::END), 0, "FORCED hands it out unfinished");
    assert_eq!(u64_at(k, kernel::COMPLETED), 0);

    assert_eq!(m.complete_kernel(corr, 5_000), 1, "its completion is lost");
    assert_eq!(m.flush(FORCED), 0);
    assert_eq!(m.flush(0), 0);
    assert_eq!(kernel_records().len(), 1, "never re-delivered");
    assert_eq!(m.stat(c"records_lost_after_forced_flush"), 1);
    assert_eq!(m.complete_kernel(corr, 1), -1, "no longer in flight");
}

#[test]
fn an_incomplete_kernel_holds_back_later_buffers_until_it_ends() {
    let (_g, m) = mock();
    buffers::set_size(2 * kernel::SIZE_13_0);
    buffers::register();
    m.enable(kinds::CONCURRENT_KERNEL);
    let long = m.launch_in_flight(c"long", 0x1);
    let later: Vec<u32> = (0..4).map(|_| m.launch(c"short", [1, 1, 1], [1, 1, 1], 0, 0x2, 100)).collect();
    m.wait_idle();
    assert_eq!(m.flush(0), 0);
    assert!(buffers::completed().is_empty(), "fill order: nothing passes the incomplete buffer");
    assert_eq!(m.complete_kernel(long, 7_000), 0);
    assert_eq!(m.flush(0), 0);
    let ks = kernel_records();
    let order: Vec<u32> = ks.iter().map(|k| u32_at(k, kernel::CORRELATION)).collect();
    assert_eq!(order, [vec![long], later].concat());
    let k = &ks[0];
    assert_eq!(u64_at(k, kernel::END) - u64_at(k, kernel::START), 7_000, "patched in place");
    assert_eq!(u64_at(k, kernel::COMPLETED), u64_at(k, kernel::END));
}

#[test]
fn the_sync_fence_delivers_everything_before_it() {
    let (_g, m) = mock();
    buffers::register();
    m.enable(kinds::CONCURRENT_KERNEL);
    m.enable(kinds::SYNCHRONIZATION);
    let running = m.launch_in_flight(c"running", 0x3);
    m.launch(c"queued", [1, 1, 1], [1, 1, 1], 0, 0x3, 200_000);
    let fence = m.timestamp();
    let sync_corr = m.device_synchronize();
    assert!(m.timestamp() >= fence);
    assert_eq!(m.stat(c"kernels_in_flight"), 0, "a device sync ends in-flight kernels");
    assert_eq!(m.flush(0), 0, "no forced flush needed");
    let records = buffers::records();
    let s = records.iter().find(|r| kind(r) == kinds::SYNCHRONIZATION).expect("sync record");
    assert_eq!(u32_at(s, sync::CORRELATION), sync_corr);
    assert_eq!(u32_at(s, sync::TYPE), 4, "CONTEXT_SYNCHRONIZE");
    assert_eq!(u32_at(s, sync::STREAM), u32::MAX, "no stream for a context sync");
    assert!(u64_at(s, sync::END) >= fence, "the sync record is past the fence");
    assert!(u64_at(s, sync::START) <= u64_at(s, sync::END));
    let ks = kernel_records();
    assert_eq!(ks.len(), 2);
    assert_eq!(u32_at(&ks[0], kernel::CORRELATION), running);
    for k in &ks {
        assert_ne!(u64_at(k, kernel::END), 0);
        assert!(u64_at(k, kernel::END) <= u64_at(s, sync::END), "the sync ended after every kernel");
    }
}

#[test]
fn records_without_a_buffer_are_dropped_and_counted() {
    let (_g, m) = mock();
    buffers::set_mode(DECLINE_NULL);
    buffers::register();
    m.enable(kinds::RUNTIME);
    (0..3).for_each(|_| {
        m.api_call(2, 3, None, 0);
    });
    assert_eq!(buffers::requests().len(), 3, "asked again for each record");
    assert_eq!(m.dropped(), 3);
    assert_eq!(m.dropped(), 0, "the count resets when read");

    buffers::set_mode(DECLINE_SIZE0);
    m.api_call(2, 3, None, 0);
    assert_eq!(m.dropped(), 1);

    buffers::set_mode(MISALIGNED);
    m.api_call(2, 3, None, 0);
    assert_eq!(m.dropped(), 1);
    assert_eq!(m.stat(c"buffers_misaligned"), 1);
    m.wait_idle();
    let back = buffers::completed();
    assert_eq!(back.len(), 1, "the unusable buffer is handed back");
    assert_eq!(back[0].valid, 0);

    buffers::set_mode(buffers::GIVE);
    m.api_call(2, 3, None, 0);
    assert_eq!(m.flush(0), 0);
    assert_eq!(buffers::records().len(), 1);
    assert_eq!(m.stat(c"records_dropped"), 5);
    let mut n = 7;
    // SAFETY: valid out-pointer; a context's own queue is empty.
    let r = ok(unsafe { m.f().cuptiActivityGetNumDroppedRecords(0x1000 as cupti_sys::CUcontext, 0, &mut n) });
    assert_eq!((r, n), (0, 0));
    // SAFETY: NULL out-pointer is an invalid parameter.
    assert_eq!(ok(unsafe { m.f().cuptiActivityGetNumDroppedRecords(null_mut(), 0, null_mut()) }), 1);
}

#[test]
fn get_next_record_walks_by_the_release_record_sizes() {
    let (_g, m) = mock();
    let f = m.f();
    let mut buf = vec![0u64; 64];
    let p = buf.as_mut_ptr().cast::<u8>();
    let mut rec: *mut cupti_sys::CUpti_Activity = null_mut();
    // SAFETY: `buf` is 512 readable bytes; `rec` starts NULL and is only fed back.
    unsafe {
        assert_eq!(ok(f.cuptiActivityGetNextRecord(null_mut(), 0, &mut rec)), 1);
        assert_eq!(ok(f.cuptiActivityGetNextRecord(p, 0, &mut rec)), 12, "empty");
        buf[0] = u64::from(kinds::RUNTIME);
        buf[5] = u64::from(kinds::CONCURRENT_KERNEL);
        assert_eq!(ok(f.cuptiActivityGetNextRecord(p, 20, &mut rec)), 12, "the record does not fit");
        assert_eq!(ok(f.cuptiActivityGetNextRecord(p, 512, &mut rec)), 0);
        assert_eq!(rec as usize, p as usize);
        assert_eq!(ok(f.cuptiActivityGetNextRecord(p, 512, &mut rec)), 0);
        assert_eq!(rec as usize - p as usize, 40, "an API record is 40 bytes");
        assert_eq!(ok(f.cuptiActivityGetNextRecord(p, 512, &mut rec)), 21, "kind 0 after the kernel");
        rec = null_mut();
        buf[0] = 9999;
        assert_eq!(ok(f.cuptiActivityGetNextRecord(p, 512, &mut rec)), 21, "unknown kind");
    }
}
