//! The callback API: ENTER/EXIT pairs on the calling thread, the shared correlation slot,
//! callback data and parameters in the real layouts, enable rules, callback names.

use std::collections::{HashMap, HashSet};
use std::ffi::{c_char, CStr};
use std::ptr::null;

use cupti_sys::{CUpti_CallbackDomain, CUpti_SubscriberHandle};

use super::harness::{mock, ok, Mock};
use super::layout::{u32_at, u64_at};
use super::recorder::{self, slot_mark};
use super::subscribe::{subscribe, unsubscribe};

const DRIVER: CUpti_CallbackDomain = CUpti_CallbackDomain(1);
const RUNTIME: CUpti_CallbackDomain = CUpti_CallbackDomain(2);
const RESOURCE: CUpti_CallbackDomain = CUpti_CallbackDomain(3);
const SYNCHRONIZE: CUpti_CallbackDomain = CUpti_CallbackDomain(4);

fn enable_domain(m: &Mock, h: CUpti_SubscriberHandle, domain: CUpti_CallbackDomain, on: bool) {
    // SAFETY: plain arguments, valid handle.
    assert_eq!(ok(unsafe { m.f().cuptiEnableDomain(u32::from(on), h, domain) }), 0);
}

fn enable_callback(
    m: &Mock,
    h: CUpti_SubscriberHandle,
    domain: CUpti_CallbackDomain,
    cbid: u32,
    on: bool,
) -> u32 {
    // SAFETY: plain arguments.
    ok(unsafe { m.f().cuptiEnableCallback(u32::from(on), h, domain, cbid) })
}

#[test]
fn enter_and_exit_share_one_slot_and_one_correlation_id() {
    let (_g, m) = mock();
    let h = subscribe(m, 7).expect("subscribe");
    enable_domain(m, h, RUNTIME, true);
    let k1 = m.launch(c"vector_add", [64, 2, 1], [256, 1, 1], 1024, 0x51, 10_000);
    let k2 = m.launch(c"reduce", [8, 1, 1], [128, 2, 2], 0, 0x52, 10_000);
    let cp = m.memcpy(0x1000, 0x7f00_0000_0000, 4096, 1, 0x51, 1, 1_000);
    assert_eq!(HashSet::from([k1, k2, cp]).len(), 3, "a correlation id per call");

    let events = recorder::api_events();
    assert_eq!(events.len(), 6);
    for corr in [k1, k2, cp] {
        let pair: Vec<_> = events.iter().filter(|(_, a)| a.correlation_id == corr).collect();
        assert_eq!(pair.len(), 2);
        let ((enter_e, enter), (_, exit)) = (pair[0], pair[1]);
        assert!(!enter.exit && exit.exit, "ENTER precedes EXIT");
        assert_eq!(enter_e.tag, 7, "userdata reaches the callback");
        assert_eq!(enter.slot, exit.slot, "one correlationData slot per call");
        assert_eq!(enter.slot_value, 0, "the slot starts at zero");
        assert_eq!(exit.slot_value, slot_mark(7, corr), "a value stored at ENTER is read at EXIT");
        assert_eq!(exit.return_value, Some(0));
        assert_ne!(enter.context, 0);
        assert_eq!(enter.context_uid, 1);
    }
    let (_, launch) = events.iter().find(|(_, a)| a.correlation_id == k1).expect("launch");
    assert_eq!(launch.function_name, "cudaLaunchKernel");
    assert_eq!(launch.symbol_name.as_deref(), Some("vector_add"));
    // cudaLaunchKernel_v7000_params: func 0, gridDim 8, blockDim 20, args 32, sharedMem 40, stream 48.
    let p = &launch.params;
    assert_eq!([u32_at(p, 8), u32_at(p, 12), u32_at(p, 16)], [64, 2, 1]);
    assert_eq!([u32_at(p, 20), u32_at(p, 24), u32_at(p, 28)], [256, 1, 1]);
    assert_eq!(u64_at(p, 40), 1024);
    assert_eq!(u64_at(p, 48), 0x51);
    let (_, copy) = events.iter().find(|(_, a)| a.correlation_id == cp).expect("memcpy");
    assert_eq!(copy.function_name, "cudaMemcpyAsync");
    assert_eq!(copy.symbol_name, None, "symbolName is for launches only");
    // cudaMemcpyAsync_v3020_params: dst 0, src 8, count 16, kind 24, stream 32.
    let p = &copy.params;
    assert_eq!((u64_at(p, 0), u64_at(p, 8), u64_at(p, 16)), (0x1000, 0x7f00_0000_0000, 4096));
    assert_eq!((u32_at(p, 24), u64_at(p, 32)), (1, 0x51));
    assert_eq!(unsubscribe(m, h), 0);
}

#[test]
fn the_exit_callback_sees_the_return_value() {
    let (_g, m) = mock();
    let h = subscribe(m, 1).expect("subscribe");
    enable_domain(m, h, RUNTIME, true);
    m.fail_next_call(2); // cudaErrorMemoryAllocation
    let mut address = 0;
    let corr = m.malloc(1 << 20, &mut address);
    let ok_corr = m.malloc(1 << 20, &mut address);
    let events = recorder::api_events();
    let exit_of =
        |c: u32| events.iter().find(|(_, a)| a.correlation_id == c && a.exit).expect("exit").1.clone();
    assert_eq!(exit_of(corr).return_value, Some(2));
    let good = exit_of(ok_corr);
    assert_eq!(good.return_value, Some(0));
    assert_eq!(good.function_name, "cudaMalloc");
    assert_eq!(good.malloc_result, Some(address), "*devPtr is set before EXIT");
    assert_ne!(address, 0);
    assert_eq!(u64_at(&good.params, 8), 1 << 20, "cudaMalloc_v3020_params.size");
    assert_eq!(unsubscribe(m, h), 0);
}

#[test]
fn only_enabled_callbacks_arrive() {
    let (_g, m) = mock();
    let h = subscribe(m, 1).expect("subscribe");
    m.launch(c"k", [1, 1, 1], [1, 1, 1], 0, 0, 100);
    assert!(recorder::events().is_empty(), "subscribing enables nothing");

    assert_eq!(enable_callback(m, h, RUNTIME, 31, true), 0); // cudaMemcpy_v3020
    m.launch(c"k", [1, 1, 1], [1, 1, 1], 0, 0, 100);
    let copy = m.memcpy(0x10, 0x20, 8, 2, 0, 0, 100);
    let events = recorder::api_events();
    assert_eq!(events.len(), 2);
    assert!(events.iter().all(|(e, a)| e.cbid == 31 && a.correlation_id == copy));

    let mut state = 9;
    // SAFETY: valid out-pointer and handle.
    assert_eq!(ok(unsafe { m.f().cuptiGetCallbackState(&mut state, h, RUNTIME, 31) }), 0);
    assert_eq!(state, 1);
    // SAFETY: as above.
    assert_eq!(ok(unsafe { m.f().cuptiGetCallbackState(&mut state, h, RUNTIME, 211) }), 0);
    assert_eq!(state, 0);

    recorder::clear();
    enable_domain(m, h, DRIVER, true);
    let drv = m.launch_kernel_driver(c"dk", 2, 1, 1, 32, 1, 1, 0, 0, 100);
    let rk = m.launch(c"rk", [3, 1, 1], [1, 1, 1], 0, 0, 100);
    let events = recorder::api_events();
    // The runtime launch's own callbacks are not enabled; the cuLaunchKernel it makes is.
    assert_eq!(events.len(), 4, "{events:?}");
    assert!(events
        .iter()
        .all(|(e, a)| e.domain == 1 && e.cbid == 307 && a.function_name == "cuLaunchKernel"));
    let ids: Vec<u32> = events.iter().map(|(_, a)| a.correlation_id).collect();
    assert_eq!(ids, [drv, drv, rk, rk]);
    assert_eq!(u32_at(&events[0].1.params, 8), 2, "cuLaunchKernel_params.gridDimX");
    assert_eq!(u32_at(&events[2].1.params, 8), 3, "the runtime launch's grid");

    recorder::clear();
    // SAFETY: plain arguments.
    assert_eq!(ok(unsafe { m.f().cuptiEnableAllDomains(0, h) }), 0);
    m.launch_kernel_driver(c"dk", 1, 1, 1, 1, 1, 1, 0, 0, 100);
    m.memcpy(0x10, 0x20, 8, 2, 0, 0, 100);
    assert!(recorder::events().is_empty());

    // Invalid arguments.
    assert_eq!(enable_callback(m, h, RUNTIME, 0, true), 1, "cbid 0 is INVALID");
    assert_eq!(enable_callback(m, h, RUNTIME, 100_000, true), 1);
    assert_eq!(enable_callback(m, h, CUpti_CallbackDomain(9), 1, true), 1);
    assert_eq!(enable_callback(m, std::ptr::null_mut(), RUNTIME, 31, true), 1);
    assert_eq!(unsubscribe(m, h), 0);
}

#[test]
fn callbacks_run_synchronously_on_the_calling_thread() {
    let (_g, m) = mock();
    let h = subscribe(m, 1).expect("subscribe");
    enable_domain(m, h, RUNTIME, true);
    let callers: HashMap<u32, std::thread::ThreadId> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let me = std::thread::current().id();
                    // cudaDeviceGetCount (cbid 3) with no params.
                    (0..25).map(|_| (m.api_call(2, 3, None, 0), me)).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|t| t.join().expect("caller thread")).collect()
    });
    let events = recorder::api_events();
    assert_eq!(events.len(), 200);
    for (e, a) in &events {
        assert_eq!(Some(&e.thread), callers.get(&a.correlation_id), "callback on the calling thread");
        assert_eq!(a.function_name, "cudaGetDeviceCount");
    }
    assert_eq!(m.stat(c"callbacks_in_flight"), 0);
    assert_eq!(m.stat(c"callbacks_delivered"), 200);
    assert_eq!(unsubscribe(m, h), 0);
}

#[test]
fn nested_calls_pair_and_unsubscribing_between_sites_stops_the_exit() {
    let (_g, m) = mock();
    let h = subscribe(m, 1).expect("subscribe");
    enable_domain(m, h, RUNTIME, true);
    enable_domain(m, h, DRIVER, true);
    let outer = m.api_enter(2, 20, None).expect("a runtime call");
    let inner = m.api_call(1, 243, None, 0); // cuMemAlloc_v2 inside cudaMalloc
    let outer_corr = m.api_exit(outer, 0).expect("ended on its thread");
    assert_eq!(inner, outer_corr, "a driver call inside a runtime call carries its correlation id");
    let order: Vec<(u32, u32, bool)> =
        recorder::api_events().iter().map(|(e, a)| (e.domain, a.correlation_id, a.exit)).collect();
    assert_eq!(
        order,
        vec![(2, outer_corr, false), (1, inner, false), (1, inner, true), (2, outer_corr, true)]
    );
    // After the runtime call, a driver call has an id of its own.
    assert!(m.api_call(1, 243, None, 0) > outer_corr);
    let names: Vec<String> = recorder::api_events().iter().map(|(_, a)| a.function_name.clone()).collect();
    assert_eq!(names[1], "cuMemAlloc_v2");

    // EXIT must come from the thread that made the call.
    let call = m.api_enter(2, 3, None).expect("a runtime call");
    let call = std::thread::spawn(move || loaded_exit(call))
        .join()
        .expect("thread")
        .expect_err("refused on another thread");
    assert_ne!(m.api_exit(call, 0).expect("ended on its thread"), 0);

    // Unsubscribed between ENTER and EXIT: no EXIT is delivered.
    recorder::clear();
    let call = m.api_enter(2, 3, None).expect("a runtime call");
    assert_eq!(unsubscribe(m, h), 0);
    m.api_exit(call, 0).expect("ended on its thread");
    let events = recorder::api_events();
    assert_eq!(events.len(), 1);
    assert!(!events[0].1.exit);
}

fn loaded_exit(call: accelprof_mocks::cupti::ApiCall) -> Result<u32, accelprof_mocks::cupti::ApiCall> {
    super::harness::loaded().api_exit(call, 0)
}

#[test]
fn resource_and_synchronize_domains_carry_their_data() {
    let (_g, m) = mock();
    let h = subscribe(m, 1).expect("subscribe");
    enable_domain(m, h, RESOURCE, true);
    enable_domain(m, h, SYNCHRONIZE, true);
    m.resource(3, 0xABC); // CUPTI_CBID_RESOURCE_STREAM_CREATED
    m.set_device(1);
    m.stream_synchronize(0xABC);
    m.device_synchronize();
    let events = recorder::events();
    assert_eq!(events.len(), 3);
    assert_eq!((events[0].domain, events[0].cbid), (3, 3));
    let (ctx0, stream) = events[0].context_stream.expect("resource data");
    assert_eq!(stream, 0xABC);
    assert_eq!((events[1].domain, events[1].cbid), (4, 1), "STREAM_SYNCHRONIZED");
    let (ctx1, stream) = events[1].context_stream.expect("sync data");
    assert_eq!(stream, 0xABC);
    assert_ne!(ctx0, ctx1, "another device, another context");
    assert_eq!((events[2].domain, events[2].cbid), (4, 2), "CONTEXT_SYNCHRONIZED");
    let mut device = 9;
    // SAFETY: the context handle came from the mock; valid out-pointer.
    assert_eq!(ok(unsafe { m.f().cuptiGetDeviceId(ctx1 as cupti_sys::CUcontext, &mut device) }), 0);
    assert_eq!(device, 1);
    assert_eq!(unsubscribe(m, h), 0);
}

fn callback_name(m: &Mock, domain: u32, cbid: u32) -> (u32, Option<String>) {
    let mut name: *const c_char = null();
    // SAFETY: valid out-pointer.
    let r = ok(unsafe { m.f().cuptiGetCallbackName(CUpti_CallbackDomain(domain), cbid, &mut name) });
    // SAFETY: NULL or a static C string.
    (r, (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned()))
}

#[test]
fn callback_names_are_the_enum_names_for_driver_and_runtime_only() {
    let (_g, m) = mock();
    // As probed on the real 12.9 and 13.0.
    assert_eq!(callback_name(m, 2, 211), (0, Some("cudaLaunchKernel_v7000".into())));
    assert_eq!(callback_name(m, 2, 1), (0, Some("cudaDriverGetVersion_v3020".into())));
    assert_eq!(callback_name(m, 2, 0), (0, Some("INVALID".into())));
    assert_eq!(callback_name(m, 1, 307), (0, Some("cuLaunchKernel".into())));
    assert_eq!(callback_name(m, 1, 1), (0, Some("cuInit".into())));
    assert_eq!(callback_name(m, 3, 1), (1, None));
    assert_eq!(callback_name(m, 2, 100_000), (1, None));
    assert_eq!(callback_name(m, 0, 1), (1, None));
}

#[test]
fn names_follow_the_release_where_cuda_13_renamed_an_api() {
    let (_g, m) = mock();
    let h = subscribe(m, 1).expect("subscribe");
    enable_callback(m, h, RUNTIME, 440, true);
    assert_eq!(callback_name(m, 2, 440), (0, Some("cudaGetDeviceProperties_v12000".into())));
    m.api_call(2, 440, None, 0);
    assert_eq!(unsubscribe(m, h), 0);

    m.set_version(28);
    let h = subscribe(m, 1).expect("subscribe");
    enable_callback(m, h, RUNTIME, 440, true);
    assert_eq!(callback_name(m, 2, 440), (0, Some("cudaGetDeviceProperties_v2_v12000".into())));
    m.api_call(2, 440, None, 0);
    let names: Vec<String> = recorder::api_events().iter().map(|(_, a)| a.function_name.clone()).collect();
    let (v13, v12) = ("cudaGetDeviceProperties", "cudaGetDeviceProperties_v2");
    assert_eq!(names, vec![v13, v13, v12, v12], "ENTER and EXIT under 13.0, then under 12.9");
    assert_eq!(callback_name(m, 2, 500), (1, None), "past 12.9's last runtime id");
    assert_eq!(unsubscribe(m, h), 0);
}
