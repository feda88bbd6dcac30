//! Driver calls inside runtime calls, as the real CUDA runtime makes them (observed with CUDA
//! 13.0 on an H200: `cudaMemcpy #591` encloses `cuMemcpyHtoD_v2 #591`): nested between the
//! runtime call's ENTER and EXIT on the same thread, with the runtime call's correlation id in
//! their callbacks and DRIVER records, each with its own `correlationData` slot.

use cupti_sys::{CUpti_CallbackDomain, CUpti_SubscriberHandle};

use super::buffers;
use super::harness::{mock, ok, Mock};
use super::layout::*;
use super::recorder::{self, slot_mark};
use super::subscribe::{subscribe, unsubscribe};

const DRIVER: u32 = 1;
const RUNTIME: u32 = 2;

fn enable_api_domains(m: &Mock, h: CUpti_SubscriberHandle) {
    for domain in [DRIVER, RUNTIME] {
        // SAFETY: plain arguments, valid handle.
        assert_eq!(ok(unsafe { m.f().cuptiEnableDomain(1, h, CUpti_CallbackDomain(domain)) }), 0);
    }
}

/// `(domain, function name, exit, correlation id)` of every API callback so far.
fn api_sequence() -> Vec<(u32, String, bool, u32)> {
    recorder::api_events()
        .into_iter()
        .map(|(e, a)| (e.domain, a.function_name, a.exit, a.correlation_id))
        .collect()
}

/// The calls `work` plays, one line per call: its domain and name, the names of the driver calls
/// nested in it, and whether they all share its correlation id.
fn nested_calls(work: impl FnOnce()) -> Vec<(u32, u32, String, Vec<String>)> {
    recorder::clear();
    work();
    let mut calls = Vec::new();
    let mut open: Vec<(u32, u32, String, Vec<String>)> = Vec::new();
    for (domain, name, exit, correlation) in api_sequence() {
        if !exit {
            open.push((domain, correlation, name, Vec::new()));
            continue;
        }
        let call = open.pop().expect("an EXIT closes the innermost open call");
        assert_eq!((call.0, &call.2, call.1), (domain, &name, correlation), "EXIT of the innermost call");
        match open.last_mut() {
            Some(outer) => {
                assert_eq!((outer.0, domain), (RUNTIME, DRIVER), "driver calls nest in runtime calls");
                assert_eq!(outer.1, correlation, "{name} carries its runtime call's correlation id");
                outer.3.push(name);
            }
            None => calls.push(call),
        }
    }
    assert!(open.is_empty());
    calls
}

#[test]
fn runtime_calls_make_their_driver_calls_with_the_same_correlation_id() {
    let (_g, m) = mock();
    let h = subscribe(m, 4).expect("subscribe");
    enable_api_domains(m, h);
    let mut ids = Vec::new();
    let mut address = 0;
    let calls = nested_calls(|| {
        ids.push(m.malloc(4096, &mut address));
        ids.push(m.memcpy(address, 0x7000, 4096, 1, 0, 0, 100));
        ids.push(m.memcpy(0x7000, address, 4096, 2, 0, 0, 100));
        ids.push(m.memcpy(address, address + 64, 64, 3, 0x51, 1, 100));
        ids.push(m.memcpy(0x7000, 0x8000, 64, 0, 0, 0, 100));
        ids.push(m.memset(address, 0, 4096, 0, 0, 100));
        ids.push(m.memset(address, 0, 4096, 0x51, 1, 100));
        ids.push(m.launch(c"k", [1, 1, 1], [32, 1, 1], 0, 0x51, 100));
        ids.push(m.launch_kernel_driver(c"d", 1, 1, 1, 32, 1, 1, 0, 0x51, 100));
        ids.push(m.stream_synchronize(0x51));
        ids.push(m.device_synchronize());
        ids.push(m.free(address));
    });
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let want = [
        (RUNTIME, "cudaMalloc", s(&["cuMemAlloc_v2"])),
        (RUNTIME, "cudaMemcpy", s(&["cuMemcpyHtoD_v2"])),
        (RUNTIME, "cudaMemcpy", s(&["cuMemcpyDtoH_v2"])),
        (RUNTIME, "cudaMemcpyAsync", s(&["cuMemcpyDtoDAsync_v2"])),
        (RUNTIME, "cudaMemcpy", s(&["cuMemcpy"])),
        (RUNTIME, "cudaMemset", s(&["cuMemsetD8_v2"])),
        (RUNTIME, "cudaMemsetAsync", s(&["cuMemsetD8Async"])),
        (RUNTIME, "cudaLaunchKernel", s(&["cuLaunchKernel"])),
        (DRIVER, "cuLaunchKernel", s(&[])),
        (RUNTIME, "cudaStreamSynchronize", s(&["cuStreamSynchronize"])),
        (RUNTIME, "cudaDeviceSynchronize", s(&["cuCtxGetCurrent", "cuCtxSynchronize_v2"])),
        (RUNTIME, "cudaFree", s(&["cuMemFree_v2"])),
    ];
    let got: Vec<_> = calls.iter().map(|(d, _, n, inner)| (*d, n.as_str(), inner.clone())).collect();
    assert_eq!(got, want);
    let call_ids: Vec<u32> = calls.iter().map(|c| c.1).collect();
    assert_eq!(call_ids, ids, "the played call returns the id its callbacks carry");
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), ids.len(), "each top-level call has its own id");

    // Each call has its own slot: the runtime call's value survives its driver calls, and each
    // driver call reads back what it stored, though they all share one correlation id.
    let events = recorder::api_events();
    let copy: Vec<_> = events.iter().filter(|(_, a)| a.correlation_id == ids[1]).collect();
    assert_eq!(copy.len(), 4);
    let (outer_enter, inner_enter, inner_exit, outer_exit) = (&copy[0].1, &copy[1].1, &copy[2].1, &copy[3].1);
    assert_ne!(outer_enter.slot, inner_enter.slot, "a slot per call");
    assert_eq!((outer_enter.slot, inner_enter.slot), (outer_exit.slot, inner_exit.slot));
    assert_eq!(inner_enter.slot_value, 0, "a driver call's slot starts at zero");
    assert_eq!(inner_exit.slot_value, slot_mark(4, ids[1]));
    assert_eq!(outer_exit.slot_value, slot_mark(4, ids[1]));
    // The driver copy gets the driver's params: cuMemcpyHtoD_v2_params {dstDevice, srcHost, ByteCount}.
    let p = &inner_enter.params;
    assert_eq!((u64_at(p, 0), u64_at(p, 8), u64_at(p, 16)), (address, 0x7000, 4096));
    // cuMemAlloc_v2 writes the address through its dptr before its EXIT, as cudaMalloc does.
    let alloc: Vec<_> = events.iter().filter(|(_, a)| a.correlation_id == ids[0]).collect();
    assert_eq!(
        (alloc[2].1.function_name.as_str(), alloc[2].1.malloc_result),
        ("cuMemAlloc_v2", Some(address))
    );
    assert_eq!(alloc[3].1.malloc_result, Some(address));
    assert_eq!(unsubscribe(m, h), 0);
}

#[test]
fn driver_records_carry_the_runtime_calls_id_and_end_first() {
    let (_g, m) = mock();
    m.enable(kinds::RUNTIME);
    m.enable(kinds::DRIVER);
    m.enable(kinds::CONCURRENT_KERNEL);
    buffers::register();
    let launch = m.launch(c"k", [1, 1, 1], [32, 1, 1], 0, 0, 500);
    let sync = m.device_synchronize();
    assert_eq!(m.flush(0), 0);
    let records = buffers::records();
    let apis: Vec<(u32, u32, u32, u64, u64)> = records
        .iter()
        .filter(|r| kind(r) == kinds::RUNTIME || kind(r) == kinds::DRIVER)
        .map(|r| {
            (
                kind(r),
                u32_at(r, api::CBID),
                u32_at(r, api::CORRELATION),
                u64_at(r, api::START),
                u64_at(r, api::END),
            )
        })
        .collect();
    let shape: Vec<(u32, u32, u32)> = apis.iter().map(|a| (a.0, a.1, a.2)).collect();
    assert_eq!(
        shape,
        [
            (kinds::DRIVER, 307, launch),
            (kinds::RUNTIME, 211, launch),
            (kinds::DRIVER, 304, sync),
            (kinds::DRIVER, 800, sync),
            (kinds::RUNTIME, 165, sync),
        ],
        "a driver record ends (and is written) before its runtime call's"
    );
    // Each driver call lies within its runtime call.
    for (driver, runtime) in [(0, 1), (2, 4), (3, 4)] {
        let (d, r) = (apis[driver], apis[runtime]);
        assert!(r.3 <= d.3 && d.4 <= r.4, "{d:?} within {r:?}");
    }
    let kernel = records.iter().find(|r| kind(r) == kinds::CONCURRENT_KERNEL).expect("kernel record");
    assert_eq!(u32_at(kernel, kernel::CORRELATION), launch);
}

#[test]
fn without_nesting_runtime_calls_are_alone_and_every_call_has_its_own_id() {
    let (_g, m) = mock();
    let h = subscribe(m, 1).expect("subscribe");
    enable_api_domains(m, h);
    m.set_nested_driver_calls(0);
    let copy = m.memcpy(0x1, 0x2, 64, 1, 0, 0, 100);
    m.device_synchronize();
    let outer = m.api_enter(RUNTIME, 20, None).expect("a runtime call");
    let inner = m.api_call(DRIVER, 243, None, 0);
    let outer = m.api_exit(outer, 0).expect("ended on its thread");
    assert_ne!(inner, outer);
    let domains: Vec<(u32, u32)> = api_sequence().iter().map(|e| (e.0, e.3)).collect();
    assert_eq!(domains.iter().filter(|d| d.0 == DRIVER).count(), 2, "only the explicit driver call");
    assert_eq!(domains[0], (RUNTIME, copy));

    // A failed runtime call never reaches the driver; reset turns nesting back on.
    m.reset();
    recorder::clear();
    let h = subscribe(m, 1).expect("subscribe");
    enable_api_domains(m, h);
    m.fail_next_call(2);
    m.memcpy(0x1, 0x2, 64, 1, 0, 0, 100);
    assert_eq!(api_sequence().iter().filter(|e| e.0 == DRIVER).count(), 0);
    let good = m.memcpy(0x1, 0x2, 64, 1, 0, 0, 100);
    let driver: Vec<_> = api_sequence().into_iter().filter(|e| e.0 == DRIVER).collect();
    assert_eq!(driver.len(), 2);
    assert!(driver.iter().all(|e| e.1 == "cuMemcpyHtoD_v2" && e.3 == good));
    assert_eq!(unsubscribe(m, h), 0);
}

#[test]
fn release_12_9_synchronizes_through_cu_ctx_synchronize() {
    let (_g, m) = mock();
    m.set_version(28);
    let h = subscribe(m, 1).expect("subscribe");
    enable_api_domains(m, h);
    let calls = nested_calls(|| {
        m.device_synchronize();
    });
    let inner: Vec<_> = calls.iter().map(|c| c.3.clone()).collect();
    assert_eq!(inner, [vec!["cuCtxGetCurrent".to_string(), "cuCtxSynchronize".to_string()]]);
    assert_eq!(unsubscribe(m, h), 0);
}
