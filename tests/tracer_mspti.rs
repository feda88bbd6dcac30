//! The tracer on the mock `libmspti.so`, each test in a process of its own started the way an MSPTI
//! program is started (`libmspti.so` preloaded, CANN at `ASCEND_HOME_PATH`) or, where the test is
//! about the preload, without it. The program's calls go through the global symbol scope
//! (`accelprof_mocks::ascend::Acl`), where MSPTI's interposed functions see them.

mod support;

use std::collections::BTreeSet;

use accel_profiling::{Distributed, Family, FamilySet, Tracer, TracerConfig, Vendor};
use accelprof_mocks::ascend::{Acl, MemcpyKind};
use accelprof_mocks::mspti::{MockMspti, LIBRARY};
use support::{in_child, ChildEnv};

fn config(outputs: Vec<accel_profiling::Output>) -> TracerConfig {
    TracerConfig {
        vendor: Vendor::Mspti,
        outputs,
        distributed: Some(Distributed::default()),
        ..TracerConfig::default()
    }
}

/// The runtime through the global symbol scope, `aclInit` done (before subscribing: MSPTI's
/// subscriber needs what `aclInit` loads).
fn acl() -> Acl {
    let acl = Acl::load().expect("the ACL runtime (CANN stand-ins)");
    acl.init().expect("aclInit");
    acl
}

fn now_ns() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// On device 0: a stream, two kernels launched three times, a copy in, a set, an MSTX mark, a
/// synchronize; then the frees.
fn program(acl: &Acl) {
    acl.set_device(0).expect("aclrtSetDevice");
    let stream = acl.create_stream().expect("aclrtCreateStream");
    let add = acl.kernel("kernels.o", "add_custom").expect("a kernel");
    let matmul = acl.kernel("kernels.o", "matmul_custom").expect("a kernel");
    let (dev, host) =
        (acl.malloc(1 << 20).expect("aclrtMalloc"), acl.malloc_host(1 << 20).expect("host memory"));
    acl.memcpy(dev, host, 1 << 20, MemcpyKind::HostToDevice).expect("aclrtMemcpy");
    assert!(acl.mark("phase"), "MSTX is installed with the stand-ins");
    for kernel in [add, matmul, add] {
        acl.launch(kernel, 8, stream).expect("aclrtLaunchKernel");
    }
    acl.memset(dev, 0, 1 << 20).expect("aclrtMemset");
    acl.synchronize_stream(stream).expect("aclrtSynchronizeStream");
    acl.free(dev).expect("aclrtFree");
    acl.free_host(host).expect("aclrtFreeHost");
    acl.destroy_stream(stream).expect("aclrtDestroyStream");
}

#[test]
fn an_acl_programs_records_reach_the_trace() {
    if !in_child("an_acl_programs_records_reach_the_trace", ChildEnv::mspti_preloaded()) {
        return;
    }
    let acl = acl();
    let dir = support::temp_dir("mspti-all");
    let path = dir.join("trace.json");
    let tracer = Tracer::new(config(vec![path.as_path().into()])).expect("a tracer on the mock libmspti.so");
    assert_eq!(tracer.vendor(), Vendor::Mspti);
    assert_eq!(tracer.library().found, "already loaded in this process", "the preloaded copy");
    tracer.start().expect("start");
    assert!(tracer.skipped().is_empty(), "preloaded, subscribed: every kind is on: {:?}", tracer.skipped());
    assert_eq!(tracer.families(), TracerConfig::COMMON);
    program(&acl);
    // The program's HCCL calls here are barriers and calls without device work: the HCCL and
    // COMMUNICATION records of this test are written through the mock's controls (an all-reduce's
    // COMMUNICATION record from CANN's reports is mspti's `an_all_reduce_gives_its_communication_record_from_cann_reports`).
    let mock = MockMspti::open(LIBRARY).expect("the mock's controls");
    let t = now_ns();
    mock.hccl(t, t + 40_000, 0, 1, 12.5, "hcom_allReduce_", "hccl_world_group");
    mock.communication(4, 1024, 0, 1, t + 50_000, t + 80_000, "ring", "allReduce", "hccl_world_group", 7);
    assert_eq!(tracer.api_domain_name(10).as_deref(), Some("acl_api"));
    let report = tracer.stop();

    assert!(report.is_complete(), "{}", report.render(10));
    for (family, rows) in [
        (Family::KERNEL, 3),
        (Family::MEMCPY, 1),
        (Family::MEMSET, 1),
        (Family::MARKER, 1),
        (Family::COLLECTIVE, 2),
    ] {
        assert_eq!(report.rows_of(family), rows, "{family:?}: {}", report.render(10));
    }
    assert!(report.rows_of(Family::API) >= 10, "the ACL calls: {}", report.render(10));
    assert!(report.counts.adds_up() && report.counts.dropped() == 0, "{}", report.counts);
    assert_eq!(report.counts.vendor, Vendor::Mspti);

    let trace = support::trace::check(&path);
    assert_eq!(trace.count("kernel"), 3, "{:?}", trace.by_cat);
    assert_eq!((trace.count("gpu_memcpy"), trace.count("gpu_memset")), (1, 1), "{:?}", trace.by_cat);
    assert_eq!(trace.count("collective"), 2, "{:?}", trace.by_cat);
    assert_eq!(trace.instants.get("user_annotation"), Some(&1), "the MSTX mark: {:?}", trace.instants);
    assert!(
        trace.count("cuda_runtime") >= 10,
        "ACL calls as runtime calls (HTA reads them): {:?}",
        trace.by_cat
    );
    assert!(trace.flows >= 3, "an arrow from each launch to its kernel: {}", trace.flows);
    let names: Vec<&str> = trace.events("kernel").iter().filter_map(|e| e["name"].as_str()).collect();
    assert_eq!(names.iter().filter(|n| **n == "add_custom").count(), 2, "{names:?}");
    let npu = trace.doc["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["ph"] == "M" && e["args"]["name"] == "NPU 0");
    assert!(npu, "the device timeline is an NPU's");
}

#[test]
fn without_the_preload_what_needs_it_is_left_out_and_says_how() {
    if !in_child("without_the_preload_what_needs_it_is_left_out_and_says_how", ChildEnv::mspti_found()) {
        return;
    }
    let acl = acl();
    let tracer = Tracer::new(config(Vec::new())).expect("a tracer on the mock libmspti.so");
    tracer.start().expect("start: what can be collected is");
    let skipped = tracer.skipped();
    let kinds: BTreeSet<&str> = skipped.iter().filter_map(|s| s.kind.as_deref()).collect();
    assert_eq!(kinds, ["HCCL", "MEMCPY", "MEMSET"].into_iter().collect(), "{skipped:?}");
    for s in &skipped {
        assert!(s.reason.contains("LD_PRELOAD=<toolkit>/lib64/libmspti.so"), "says what to do: {s}");
    }
    // Kernels, API calls and markers need the subscriber only; COMMUNICATION records no preload.
    assert_eq!(tracer.families(), TracerConfig::COMMON - FamilySet::MEMCPY - FamilySet::MEMSET);
    program(&acl);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 3, "{}", report.render(5));
    assert_eq!(report.rows_of(Family::MEMCPY), 0);
    assert!(report.render(5).contains("not collected: memcpy (MEMCPY): "), "{}", report.render(5));
}

#[test]
fn prepare_process_restarts_the_program_with_the_preload() {
    const NAME: &str = "prepare_process_restarts_the_program_with_the_preload";
    if support::is_child() {
        let config = config(Vec::new());
        // Not preloaded the first time: this restarts the child, which comes back here preloaded.
        Tracer::prepare_process(&config).expect("restarted, or preloaded already");
        assert!(mspti::preload::is_preloaded(), "prepare_process returns only once preloaded");
        assert_eq!(std::env::var("MSPTI_RS_REEXECED").as_deref(), Ok("1"), "after a restart");
        let acl = acl();
        let tracer = Tracer::new(config).expect("a tracer");
        tracer.start().expect("start");
        assert!(tracer.skipped().is_empty(), "{:?}", tracer.skipped());
        program(&acl);
        assert_eq!(tracer.stop().rows_of(Family::MEMCPY), 1, "copies come with the preload");
        println!("preloaded after the restart");
        return;
    }
    let out = support::child_output(NAME, &ChildEnv::mspti_found());
    let text = support::output_text(&out);
    assert!(out.status.success() && text.contains("1 passed"), "{text}");
    assert!(text.contains("preloaded after the restart"), "{text}");
}

#[test]
fn another_consumer_of_the_crate_shares_msptis_subscription_with_the_tracer() {
    if !in_child(
        "another_consumer_of_the_crate_shares_msptis_subscription_with_the_tracer",
        ChildEnv::mspti_preloaded(),
    ) {
        return;
    }
    let acl = acl();
    // Another part of the program subscribed through this crate first: the two share MSPTI's one
    // subscription, so the tracer has its own subscriber and skips nothing for want of one.
    let mspti = mspti::Mspti::open().expect("the preloaded copy");
    let other = mspti.subscribe(|_| {}).expect("the first subscriber");
    let tracer = Tracer::new(config(Vec::new())).expect("a tracer all the same");
    tracer.start().expect("start");
    let skipped = tracer.skipped();
    assert!(!skipped.iter().any(|s| s.reason.contains("subscription")), "{skipped:?}");
    program(&acl);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 3, "{}", report.render(5));
    assert_eq!(other.panics(), 0);
    drop(other);
}

/// Another tool's callback, subscribed through MSPTI's own function table.
unsafe extern "C" fn foreign_tool(
    _: *mut std::ffi::c_void,
    _: mspti::sys::msptiCallbackDomain,
    _: mspti::sys::msptiCallbackId,
    _: *const mspti::sys::msptiCallbackData,
) {
}

#[test]
fn another_tool_holding_mspti_leaves_the_tracer_without_its_own() {
    if !in_child("another_tool_holding_mspti_leaves_the_tracer_without_its_own", ChildEnv::mspti_preloaded())
    {
        return;
    }
    let acl = acl();
    // Another tool of the program holds MSPTI's one subscription (not through this crate).
    let mspti = mspti::Mspti::open().expect("the preloaded copy");
    let mut handle: mspti::sys::msptiSubscriberHandle = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; a callback that touches nothing, with no userdata.
    let r = unsafe { mspti.sys().msptiSubscribe(&mut handle, Some(foreign_tool), std::ptr::null_mut()) };
    assert_eq!(r.expect("msptiSubscribe").0, 0, "the other tool subscribed");
    let tracer = Tracer::new(config(Vec::new())).expect("a tracer all the same");
    tracer.start().expect("start");
    let skipped = tracer.skipped();
    assert!(
        skipped.iter().any(|s| s.reason.contains("another subscriber holds MSPTI's one subscription")),
        "{skipped:?}"
    );
    // MSPTI would write kernel records while the other tool's subscription lives, but the crate
    // cannot know that it does (nor for how long): each kind that needs a subscriber is skipped
    // and names the other subscriber (not "subscribe first", which the user cannot do); the
    // records that need no subscriber come.
    for kind in ["KERNEL", "MARKER", "API", "ACL_API"] {
        let s = skipped.iter().find(|s| s.kind.as_deref() == Some(kind));
        assert!(
            s.is_some_and(|s| s.reason.contains("another subscriber holds MSPTI's one subscription")),
            "{kind}: {skipped:?}"
        );
    }
    assert!(!skipped.iter().any(|s| s.reason.contains("subscribe first")), "{skipped:?}");
    program(&acl);
    let report = tracer.stop();
    assert_eq!(report.rows_of(Family::KERNEL), 0, "{}", report.render(5));
    assert_eq!(report.rows_of(Family::MEMCPY), 1, "{}", report.render(5));
    // SAFETY: the live handle msptiSubscribe returned.
    assert_eq!(unsafe { mspti.sys().msptiUnsubscribe(handle) }.expect("msptiUnsubscribe").0, 0);
}

/// A way to run `n` kernels on device 0 (each waited for, so that its record is written). The
/// device is opened at each call: MSPTI writes kernel records of a device opened while subscribed,
/// and the scenario makes the tracer after this is made.
fn kernel_runner(acl: &Acl) -> impl Fn(usize) + '_ {
    move |n| {
        acl.set_device(0).expect("aclrtSetDevice");
        let stream = acl.create_stream().expect("aclrtCreateStream");
        let add = acl.kernel("kernels.o", "add_custom").expect("a kernel");
        for _ in 0..n {
            acl.launch(add, 8, stream).expect("aclrtLaunchKernel");
        }
        acl.synchronize_stream(stream).expect("aclrtSynchronizeStream");
        acl.destroy_stream(stream).expect("aclrtDestroyStream");
    }
}

#[test]
fn paused_work_is_not_collected_and_the_windows_are_counted() {
    if !in_child("paused_work_is_not_collected_and_the_windows_are_counted", ChildEnv::mspti_preloaded()) {
        return;
    }
    let acl = acl();
    support::window::pause_and_resume(config(Vec::new()), &kernel_runner(&acl));
}

#[test]
fn collection_begins_after_the_delay_and_the_outputs_are_finished_after_the_duration() {
    let name = "collection_begins_after_the_delay_and_the_outputs_are_finished_after_the_duration";
    if !in_child(name, ChildEnv::mspti_preloaded()) {
        return;
    }
    let acl = acl();
    let dir = support::temp_dir("mspti-window");
    support::window::delay_then_duration(config(Vec::new()), dir.path(), &kernel_runner(&acl));
}

#[test]
fn the_file_follows_the_run_within_the_flush_period() {
    if !in_child("the_file_follows_the_run_within_the_flush_period", ChildEnv::mspti_preloaded()) {
        return;
    }
    let acl = acl();
    let dir = support::temp_dir("mspti-periodic");
    support::window::the_file_follows_the_run(config(Vec::new()), dir.path(), &kernel_runner(&acl));
}

#[test]
fn the_toggle_signal_pauses_and_resumes() {
    if !in_child("the_toggle_signal_pauses_and_resumes", ChildEnv::mspti_preloaded()) {
        return;
    }
    let acl = acl();
    support::window::toggle_signal(config(Vec::new()), &kernel_runner(&acl));
}

#[test]
fn a_terminating_signal_finishes_the_outputs_then_kills() {
    if support::is_child() {
        let acl = acl();
        return support::window::signal_child(config(Vec::new()), &kernel_runner(&acl));
    }
    support::window::signal_finishes_the_outputs(
        "a_terminating_signal_finishes_the_outputs_then_kills",
        ChildEnv::mspti_preloaded(),
        Vendor::Mspti,
    );
}

/// MSPTI has no profiler start/stop calls to follow: asking is a typed error.
#[test]
fn a_capture_range_is_a_typed_error_on_mspti() {
    if !in_child("a_capture_range_is_a_typed_error_on_mspti", ChildEnv::mspti_preloaded()) {
        return;
    }
    let _acl = acl();
    support::window::capture_range_unsupported(config(Vec::new()), Vendor::Mspti);
}
