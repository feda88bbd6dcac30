//! The callback API of the MSPTI guide, section by section, through the safe `mspti` crate
//! against the mock, plus the traps of the real library (vendor notes) it must survive.
//! Each test names the guide section it covers.

#[macro_use]
mod support;

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Barrier, Mutex};
use std::thread::ThreadId;
use std::time::Duration;

use mspti::{CallbackDomain, CallbackId, CallbackSite, Error, HcclCbid, RuntimeCbid};
use support::{acl, assert_child_passed, in_child, mock, mspti, run_child, serial, ENTER, HCCL, RUNTIME};

/// (thread, site, id, function name) of each callback.
type Log = Arc<Mutex<Vec<(ThreadId, CallbackSite, CallbackId, String)>>>;

fn logging() -> (Log, impl Fn(&mspti::CallbackData<'_>) + Send + Sync + 'static) {
    let log: Log = Arc::default();
    let sink = Arc::clone(&log);
    let f = move |cb: &mspti::CallbackData<'_>| {
        let name = cb.function_name().unwrap_or("?").to_string();
        sink.lock().unwrap().push((std::thread::current().id(), cb.site(), cb.id(), name));
    };
    (log, f)
}

/// Another tool's callback (for a subscription made through the raw function table).
unsafe extern "C" fn foreign_tool(
    _: *mut c_void,
    _: mspti_sys::msptiCallbackDomain,
    _: mspti_sys::msptiCallbackId,
    _: *const mspti_sys::msptiCallbackData,
) {
}

/// `msptiSubscribe` as another tool calls it: the result code, and the handle.
fn foreign_subscribe() -> (u32, mspti_sys::msptiSubscriberHandle) {
    let mut handle: mspti_sys::msptiSubscriberHandle = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; a callback that touches nothing, with no userdata.
    let r = unsafe { mspti().sys().msptiSubscribe(&mut handle, Some(foreign_tool), std::ptr::null_mut()) };
    (r.expect("msptiSubscribe").0, handle)
}

fn foreign_unsubscribe(handle: mspti_sys::msptiSubscriberHandle) {
    // SAFETY: the live handle `foreign_subscribe` returned.
    assert_eq!(unsafe { mspti().sys().msptiUnsubscribe(handle) }.expect("msptiUnsubscribe").0, 0);
}

preloaded_test! {
    /// Guide 1.1 and 3.1.1: the subscriber is globally unique. This crate's subscribers share it
    /// (see `two_consumers_share_msptis_one_subscription`); while another tool holds it,
    /// subscribing is a typed error that says so, and it is free again once given back; while any
    /// of ours exists, the other tool is refused.
    fn guide_1_1_and_3_1_1_one_subscriber_and_a_second_is_a_typed_error() {
        let _g = serial();
        let (r, foreign) = foreign_subscribe();
        assert_eq!(r, 0);
        let err = mspti().subscribe(|_| {}).expect_err("another tool holds MSPTI");
        assert!(matches!(err, Error::MultipleSubscribers));
        assert_eq!(err.code(), Some(mspti::ResultCode(2)));
        assert!(err.to_string().contains("one subscriber at a time"), "{err}");
        foreign_unsubscribe(foreign);
        let first = mspti().subscribe(|_| {}).expect("free once the other tool gave it back");
        let second = mspti().subscribe(|_| {}).expect("a second subscriber of ours shares it");
        assert_eq!(foreign_subscribe().0, 2, "the other tool is refused while ours hold it");
        drop(first);
        assert_eq!(foreign_subscribe().0, 2, "still held for the second");
        second.unsubscribe().expect("unsubscribe");
        let (r, foreign) = foreign_subscribe();
        assert_eq!(r, 0, "the last one of ours gave it back");
        foreign_unsubscribe(foreign);
    }
}

/// (site, cbid, slot at the call, paired) of each callback a consumer got.
type Calls = Arc<Mutex<Vec<(CallbackSite, u32, u64, bool)>>>;

/// A consumer's closure: logs each callback and stores `tag * 1000 + cbid` in its slot at ENTER.
fn consumer(tag: u64) -> (Calls, impl Fn(&mspti::CallbackData<'_>) + Send + Sync + 'static) {
    let calls: Calls = Arc::default();
    let sink = Arc::clone(&calls);
    let f = move |cb: &mspti::CallbackData<'_>| {
        let slot = cb.correlation_slot();
        sink.lock().unwrap().push((cb.site(), cb.id().cbid, slot.get(), slot.paired()));
        if cb.is_enter() {
            slot.set(tag * 1000 + u64::from(cb.id().cbid));
        }
    };
    (calls, f)
}

/// ENTER and EXIT of `cbid` as `tag`'s consumer sees a whole call.
fn pair(tag: u64, cbid: RuntimeCbid) -> [(CallbackSite, u32, u64, bool); 2] {
    [
        (CallbackSite::ENTER, cbid.0, 0, true),
        (CallbackSite::EXIT, cbid.0, tag * 1000 + u64::from(cbid.0), true),
    ]
}

fn taken(calls: &Calls) -> Vec<(CallbackSite, u32, u64, bool)> {
    std::mem::take(&mut *calls.lock().unwrap())
}

preloaded_test! {
    /// MSPTI allows one subscriber per process, as CUPTI did before 13.2: two consumers of this
    /// crate in one process (two tools, two libraries) share it. Each enables its own ids, some
    /// the same; neither disables the other's; each gets exactly the callbacks it enabled, with
    /// its own entry/exit slot. (Runs against the real library too: the runtime is driven
    /// through the global symbol scope.)
    fn two_consumers_share_msptis_one_subscription() {
        let _g = serial();
        let (calls_a, a) = consumer(1);
        let (calls_b, b) = consumer(2);
        let a = mspti().subscribe(a).expect("the first consumer");
        let b = mspti().subscribe(b).expect("the second consumer, sharing the subscription");
        a.enable(RuntimeCbid::MALLOC).unwrap();
        a.enable(RuntimeCbid::FREE).unwrap();
        b.enable(RuntimeCbid::FREE).unwrap();
        b.enable(RuntimeCbid::MEM_SET).unwrap();
        let work = |memset: bool| {
            let p = acl().malloc(64).unwrap();
            if memset {
                acl().memset(p, 0, 64).unwrap();
            }
            acl().free(p).unwrap();
        };
        work(true);
        assert_eq!(taken(&calls_a), [pair(1, RuntimeCbid::MALLOC), pair(1, RuntimeCbid::FREE)].concat());
        assert_eq!(taken(&calls_b), [pair(2, RuntimeCbid::MEM_SET), pair(2, RuntimeCbid::FREE)].concat());

        // The second leaving the shared id leaves it on for the first.
        b.disable(RuntimeCbid::FREE).unwrap();
        work(true);
        assert_eq!(taken(&calls_a), [pair(1, RuntimeCbid::MALLOC), pair(1, RuntimeCbid::FREE)].concat());
        assert_eq!(taken(&calls_b), pair(2, RuntimeCbid::MEM_SET));

        // The first's drop leaves the second's ids on, and the second takes the shared id again.
        drop(a);
        b.enable(RuntimeCbid::FREE).unwrap();
        work(true);
        assert_eq!(taken(&calls_b), [pair(2, RuntimeCbid::MEM_SET), pair(2, RuntimeCbid::FREE)].concat());
        assert!(taken(&calls_a).is_empty(), "nothing after the first consumer's drop");
        assert_eq!(b.panics(), 0);
        b.unsubscribe().unwrap();
        work(true);
        assert!(taken(&calls_b).is_empty());
        assert_eq!(foreign_subscribe().0, 0, "the last consumer gave MSPTI's subscription back");
    }
}

preloaded_test! {
    /// Guide 1.1 (Userdata): user data is whatever the closure captures, passed to every callback.
    fn guide_1_1_user_data_is_carried_by_the_closure() {
        let _g = serial();
        struct UserData {
            context: u64,
            stream: u64,
            seen: AtomicU64,
        }
        let ud = Arc::new(UserData { context: 0xC0, stream: 0x57, seen: AtomicU64::new(0) });
        let mine = Arc::clone(&ud);
        let sub = mspti()
            .subscribe(move |_| {
                mine.seen.fetch_add(mine.context + mine.stream, SeqCst);
            })
            .unwrap();
        sub.enable(RuntimeCbid::LAUNCH).unwrap();
        support::call(RUNTIME, 10, "aclrtLaunchKernel");
        assert_eq!(ud.seen.load(SeqCst), 2 * (0xC0 + 0x57));
        sub.unsubscribe().unwrap();
        assert_eq!(Arc::strong_count(&ud), 1, "the closure (and its user data) is dropped after unsubscribe");
    }
}

preloaded_test! {
    /// Guide 1.2: subscribe -> enable -> run -> callbacks (ENTER/EXIT) -> unsubscribe.
    fn guide_1_2_working_process() {
        let _g = serial();
        let (log, f) = logging();
        let sub = mspti().subscribe(f).unwrap();
        support::call(RUNTIME, 1, "aclrtSetDevice");
        assert!(log.lock().unwrap().is_empty(), "subscribing enables nothing");
        sub.enable_domain(CallbackDomain::RUNTIME).unwrap();
        support::call(RUNTIME, 1, "aclrtSetDevice");
        let sites: Vec<CallbackSite> = log.lock().unwrap().iter().map(|e| e.1).collect();
        assert_eq!(sites, vec![CallbackSite::ENTER, CallbackSite::EXIT]);
        sub.unsubscribe().unwrap();
        support::call(RUNTIME, 1, "aclrtSetDevice");
        assert_eq!(log.lock().unwrap().len(), 2, "nothing after unsubscribe");
    }
}

preloaded_test! {
    /// Guide 2.1, 2.2, 2.3: domain, site and the callback data (function name); the library's
    /// uninitialised fields are never touched.
    fn guide_2_1_to_2_3_domain_site_and_callback_data() {
        let _g = serial();
        let (log, f) = logging();
        let sub = mspti().subscribe(f).unwrap();
        sub.enable_domain(CallbackDomain::RUNTIME).unwrap();
        sub.enable_domain(CallbackDomain::HCCL).unwrap();
        support::call(RUNTIME, 15, "aclrtMalloc");
        support::call(HCCL, 1, "HcclAllReduce");
        let log = log.lock().unwrap().clone();
        let got: Vec<(CallbackSite, CallbackId, &str)> = log.iter().map(|e| (e.1, e.2, e.3.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (CallbackSite::ENTER, RuntimeCbid::MALLOC.id(), "aclrtMalloc"),
                (CallbackSite::EXIT, RuntimeCbid::MALLOC.id(), "aclrtMalloc"),
                (CallbackSite::ENTER, HcclCbid::ALLREDUCE.id(), "HcclAllReduce"),
                (CallbackSite::EXIT, HcclCbid::ALLREDUCE.id(), "HcclAllReduce"),
            ]
        );
        assert_eq!(got[0].1.domain, CallbackDomain::RUNTIME);
        assert_eq!(got[2].1.domain, CallbackDomain::HCCL);
        if let Some(m) = support::mock_if_any() {
            assert_eq!(m.counter("garbage_writes"), 0, "MSPTI's correlationData was never written");
        }
    }
}

preloaded_test! {
    /// Guide 2.4 and 2.5: every runtime and HCCL id of `mspti_cbid.h` is typed and named (the guide
    /// shows a subset; note HCCL BARRIER 8, ALL_TO_ALLV 7, SCATTER 9, SENDRECV 12), and one call of
    /// each function MSPTI interposes, made through the CANN runtime and HCCL (the stand-ins, or
    /// CANN), arrives with its id and name: the 12 HCCL ids and 28 of the 36 runtime ids. MSPTI
    /// reports none of DEVICE_SET_EX 3, CONTEXT_CREATED_EX 4, the CPU/AICPU/AIV/FFTS launches
    /// 11..=14, MALLOC_CACHED 19 (`aclrtMallocCached` reports MALLOC) and MEMCPY_HOST 23. Against
    /// the real library too.
    fn guide_2_4_and_2_5_every_runtime_and_hccl_id_is_typed_and_named() {
        let _g = serial();
        for id in 1..=36 {
            assert!(RuntimeCbid(id).id().name().is_some(), "runtime {id} has a name");
        }
        for id in 1..=12 {
            assert!(HcclCbid(id).id().name().is_some(), "HCCL {id} has a name");
        }
        assert_eq!(RuntimeCbid(36).id().to_string(), "RUNTIME/MEM_SET_PID_TO_SHAREABLE_HANDLE");
        assert_eq!(HcclCbid::BARRIER.raw(), 8);
        assert_eq!(RuntimeCbid::MEMCPY_ASYNC.raw(), 24);
        let fixture = support::fixture(); // before subscribing: making it fires no callback
        let (comm, buffer) = fixture.comm.expect("libhccl.so is installed");
        let (log, f) = logging();
        let sub = mspti().subscribe(f).unwrap();
        sub.enable_domain(CallbackDomain::RUNTIME).unwrap();
        sub.enable_domain(CallbackDomain::HCCL).unwrap();
        let runtime = acl().each_interposed_runtime_call(fixture.stream, fixture.kernel).expect("the runtime calls");
        let hccl = acl().each_hccl_call(comm, fixture.stream, buffer, 16).expect("the collectives");
        sub.unsubscribe().unwrap();
        let made: Vec<(CallbackId, &str)> = runtime
            .iter()
            .map(|&(id, name)| (RuntimeCbid(id).id(), name))
            .chain(hccl.iter().map(|&(id, name)| (HcclCbid(id).id(), name)))
            .collect();
        let want: Vec<(CallbackSite, CallbackId, &str)> = made
            .iter()
            .flat_map(|&(id, name)| [(CallbackSite::ENTER, id, name), (CallbackSite::EXIT, id, name)])
            .collect();
        let log = log.lock().unwrap();
        let got: Vec<(CallbackSite, CallbackId, &str)> = log.iter().map(|e| (e.1, e.2, e.3.as_str())).collect();
        assert_eq!(got, want, "each call's ENTER and EXIT, typed and named, in call order");
        let reported: std::collections::BTreeSet<u32> = runtime.iter().map(|c| c.0).collect();
        let never: Vec<u32> = (1..=36).filter(|id| !reported.contains(id)).collect();
        assert_eq!(never, [3, 4, 11, 12, 13, 14, 19, 23], "the runtime ids MSPTI reports no call with");
        assert_eq!(hccl.iter().map(|c| c.0).collect::<Vec<_>>(), (1..=12).collect::<Vec<_>>());
        assert!(got.iter().any(|e| e.1 == RuntimeCbid::MALLOC.id() && e.2 == "aclrtMallocCached"));
    }
}

preloaded_test! {
    /// Guide 3.1.2: unsubscribe stops all callbacks.
    fn guide_3_1_2_unsubscribe_stops_callbacks() {
        let _g = serial();
        let calls = Arc::new(AtomicUsize::new(0));
        let c = Arc::clone(&calls);
        let sub = mspti()
            .subscribe(move |_| {
                c.fetch_add(1, SeqCst);
            })
            .unwrap();
        sub.enable_domain(CallbackDomain::RUNTIME).unwrap();
        support::call(RUNTIME, 10, "aclrtLaunchKernel");
        drop(sub);
        support::call(RUNTIME, 10, "aclrtLaunchKernel");
        assert_eq!(calls.load(SeqCst), 2);
    }
}

preloaded_test! {
    /// Guide 3.2.1: EnableDomain enables and disables all of a domain.
    fn guide_3_2_1_enable_and_disable_a_domain() {
        let _g = serial();
        let (log, f) = logging();
        let sub = mspti().subscribe(f).unwrap();
        sub.enable_domain(CallbackDomain::HCCL).unwrap();
        support::call(RUNTIME, 10, "aclrtLaunchKernel");
        support::call(HCCL, 8, "HcclBarrier");
        sub.disable_domain(CallbackDomain::HCCL).unwrap();
        support::call(HCCL, 8, "HcclBarrier");
        let ids: Vec<CallbackId> = log.lock().unwrap().iter().map(|e| e.2).collect();
        assert_eq!(ids, vec![HcclCbid::BARRIER.id(); 2]);
        assert!(matches!(sub.enable_domain(CallbackDomain(7)), Err(Error::InvalidParameter(_))));
    }
}

preloaded_test! {
    /// Guide 3.2.2: EnableCallback enables one id; MSPTI accepts any id below 64, and the crate
    /// refuses those MSPTI does not define.
    fn guide_3_2_2_enable_one_callback_and_ids_below_64() {
        let _g = serial();
        let (log, f) = logging();
        let sub = mspti().subscribe(f).unwrap();
        sub.enable(RuntimeCbid::LAUNCH).unwrap();
        support::call(RUNTIME, 15, "aclrtMalloc");
        support::call(RUNTIME, 10, "aclrtLaunchKernel");
        // Not a runtime id: MSPTI would accept it and never call back; the crate refuses it.
        let err = sub.enable(RuntimeCbid(50)).expect_err("50 is no runtime id");
        assert!(matches!(err, Error::UnknownCallbackId(_)), "{err}");
        let err = sub.enable(RuntimeCbid(64)).expect_err("64 is out of range");
        assert!(matches!(err, Error::UnknownCallbackId(_)), "{err}");
        sub.disable(RuntimeCbid::LAUNCH).unwrap();
        support::call(RUNTIME, 10, "aclrtLaunchKernel");
        let ids: Vec<String> = log.lock().unwrap().iter().map(|e| e.2.to_string()).collect();
        assert_eq!(ids, ["RUNTIME/LAUNCH", "RUNTIME/LAUNCH"]);
    }
}

preloaded_test! {
    /// Guide 4.1, scenario 1: the whole runtime domain, ENTER and EXIT of each call, on several
    /// threads.
    fn guide_4_1_scenario_domain_level_interception() {
        let _g = serial();
        /// The runtime calls made (against another library, through the CANN runtime).
        const CALLS: [(u32, &str); 4] =
            [(1, "aclrtSetDevice"), (9, "aclrtSynchronizeStream"), (10, "aclrtLaunchKernel"), (15, "aclrtMalloc")];
        let (log, f) = logging();
        let sub = mspti().subscribe(f).unwrap();
        sub.enable_domain(CallbackDomain::RUNTIME).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|t| {
                std::thread::spawn(move || {
                    for i in 0..25usize {
                        let (cbid, name) = CALLS[(t + i) % CALLS.len()];
                        support::call(RUNTIME, cbid, name);
                    }
                    std::thread::current().id()
                })
            })
            .collect();
        let ids: Vec<ThreadId> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let log = log.lock().unwrap();
        assert_eq!(log.len(), 4 * 25 * 2);
        for id in ids {
            let mine: Vec<_> = log.iter().filter(|e| e.0 == id).collect();
            assert_eq!(mine.len(), 50);
            for pair in mine.chunks(2) {
                assert_eq!((pair[0].1, pair[1].1), (CallbackSite::ENTER, CallbackSite::EXIT), "ENTER then EXIT on its thread");
                assert_eq!(pair[0].2, pair[1].2);
                let name = CALLS.iter().find(|c| c.0 == pair[0].2.cbid).expect("one of the calls made").1;
                assert_eq!(pair[0].3, name);
            }
        }
    }
}

preloaded_test! {
    /// Guide 4.2, scenario 2: only LAUNCH, user data carried by the closure, MSTX marks from the
    /// callback collected as MARKER activity together with KERNEL.
    fn guide_4_2_scenario_launch_callback_with_user_data_and_mstx() {
        let _g = serial();
        struct UserData {
            stream: u64,
        }
        let ud = UserData { stream: 3 };
        let marks = Arc::new(AtomicUsize::new(0));
        let m = Arc::clone(&marks);
        let sub = mspti()
            .subscribe(move |cb| {
                if cb.id() != RuntimeCbid::LAUNCH.id() {
                    return;
                }
                let site = if cb.is_enter() { "enter" } else { "exit" };
                acl().mark(&format!("{}:{site}:stream{}", cb.function_name().unwrap_or("?"), ud.stream));
                m.fetch_add(1, SeqCst);
            })
            .unwrap();
        sub.enable(RuntimeCbid::LAUNCH).unwrap();
        let activity = mspti::ActivitySession::new(mspti(), support::no_kinds()).unwrap();
        activity.start().unwrap();
        activity.enable(mspti::ActivityKind::MARKER).unwrap();
        activity.enable(mspti::ActivityKind::KERNEL).unwrap();
        let got = Arc::new(Mutex::new((Vec::new(), Vec::new())));
        let sink = Arc::clone(&got);
        activity.subscribe(mspti::accelprof_core::FamilySet::all(), move |batch, names| {
            let mut g = sink.lock().unwrap();
            g.0.extend(batch.markers.rows().map(|r| names.resolve(r.name).to_string()));
            g.1.extend(batch.kernels.rows().map(|r| (names.resolve(r.name).to_string(), r.correlation)));
        });
        activity.enable(mspti::ActivityKind::ACL_API).unwrap();
        let apis = Arc::new(Mutex::new(Vec::new()));
        let a = Arc::clone(&apis);
        activity.subscribe(mspti::accelprof_core::Family::API.set(), move |batch, names| {
            a.lock().unwrap().extend(batch.api_calls.rows().map(|r| (names.resolve(r.name).to_string(), r.correlation)));
        });
        // The runtime, called as a program calls it: device, stream, memory, one launch.
        acl().set_device(0).unwrap();
        let stream = acl().create_stream().unwrap();
        let kernel = acl().kernel("kernels.o", "add_custom").unwrap();
        let p = acl().malloc(64).unwrap();
        acl().launch(kernel, 1, stream).unwrap();
        acl().synchronize_stream(stream).unwrap();
        acl().free(p).unwrap();
        // The kernel's device times come through the driver's channel: disabling KERNEL drains it.
        assert!(support::wait_for(10, || {
            activity.flush().unwrap();
            !got.lock().unwrap().1.is_empty()
        }));
        let got = got.lock().unwrap();
        assert_eq!(got.0, ["aclrtLaunchKernel:enter:stream3", "aclrtLaunchKernel:exit:stream3"]);
        let corr = apis.lock().unwrap().iter().find(|a| a.0 == "aclrtLaunchKernel").expect("its ACL record").1;
        assert_eq!(got.1, [("add_custom".to_string(), corr)], "the kernel correlates with its launch");
        assert_eq!(marks.load(SeqCst), 2, "only LAUNCH reached the closure's work");
    }
}

preloaded_test! {
    /// Guide 4.3, scenario 3: data shared between ENTER and EXIT, through this crate's slot, for
    /// nested calls and on several threads; MSPTI's own garbage pointer is never touched. The calls
    /// nest the way a tool's do: its callback calls the runtime at a launch's ENTER (an allocation,
    /// a memset whose ENTER synchronizes the stream, a free), so each inner call's ENTER and EXIT
    /// come between the launch's. Made through the CANN runtime: against the real library too.
    fn guide_4_3_scenario_entry_exit_shared_data() {
        let _g = serial();
        /// (cbid, value stored at ENTER, value read at EXIT, paired)
        type Exit = (u32, u64, u64, bool);
        let fixture = support::fixture(); // before subscribing: making it fires no callback
        let stream = fixture.stream;
        let results: Arc<Mutex<Vec<Exit>>> = Arc::default();
        let r = Arc::clone(&results);
        let sub = mspti()
            .subscribe(move |cb| {
                let tid = format!("{:?}", std::thread::current().id());
                let tid: u64 = tid.chars().filter(char::is_ascii_digit).collect::<String>().parse().unwrap_or(0);
                let stamp = (tid << 32) | u64::from(cb.id().cbid) << 8 | 0xAA;
                if !cb.is_enter() {
                    r.lock().unwrap().push((cb.id().cbid, stamp, cb.correlation_slot().get(), cb.correlation_slot().paired()));
                    return;
                }
                cb.correlation_slot().set(stamp);
                // The nested calls, made between this call's ENTER and EXIT.
                if cb.id() == RuntimeCbid::LAUNCH.id() {
                    let p = acl().malloc(64).unwrap();
                    acl().memset(p, 0, 64).unwrap();
                    acl().free(p).unwrap();
                } else if cb.id() == RuntimeCbid::MEM_SET.id() {
                    acl().synchronize_stream(stream).unwrap();
                }
                assert_eq!(cb.correlation_slot().get(), stamp, "the nested calls left this call's slot alone");
            })
            .unwrap();
        sub.enable_domain(CallbackDomain::RUNTIME).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        acl().launch(fixture.kernel, 1, stream).unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(sub.panics(), 0, "no assertion in the callback failed: {:?}", sub.last_panic());
        sub.unsubscribe().unwrap();
        let results = results.lock().unwrap();
        // Per launch: LAUNCH, MALLOC, MEM_SET, STREAM_SYNCHRONIZED, FREE.
        assert_eq!(results.len(), 4 * 50 * 5);
        for cbid in [9, 10, 15, 16, 27] {
            assert_eq!(results.iter().filter(|e| e.0 == cbid).count(), 200, "cbid {cbid}: one per launch");
        }
        for (cbid, expected, got, paired) in results.iter() {
            assert_eq!(got, expected, "cbid {cbid}: EXIT reads what its own ENTER stored");
            assert!(paired);
        }
        if let Some(m) = support::mock_if_any() {
            assert_eq!(m.counter("garbage_writes"), 0);
        }
    }
}

preloaded_test! {
    /// Guide 4.4, scenario 4: the HCCL domain, operations by name.
    fn guide_4_4_scenario_hccl_callbacks() {
        let _g = serial();
        let ops: Arc<Mutex<Vec<String>>> = Arc::default();
        let o = Arc::clone(&ops);
        let sub = mspti()
            .subscribe(move |cb| {
                if cb.domain() != CallbackDomain::HCCL {
                    return;
                }
                let op = cb.id().hccl().and_then(HcclCbid::op_name).unwrap_or("Unknown");
                o.lock().unwrap().push(format!("[HCCL] {} {op}", cb.site()));
            })
            .unwrap();
        sub.enable_domain(CallbackDomain::HCCL).unwrap();
        sub.enable_domain(CallbackDomain::RUNTIME).unwrap();
        for (cbid, name) in [(1, "HcclAllReduce"), (8, "HcclBarrier")] {
            support::call(HCCL, cbid, name);
        }
        support::call(RUNTIME, 10, "aclrtLaunchKernel");
        assert_eq!(
            *ops.lock().unwrap(),
            [
                "[HCCL] ENTER AllReduce",
                "[HCCL] EXIT AllReduce",
                "[HCCL] ENTER Barrier",
                "[HCCL] EXIT Barrier",
            ]
        );
    }
}

preloaded_test! {
    /// Trap: a callback can arrive after unsubscribe returned. It finds its (never freed)
    /// registration retired and returns without touching the closure, which is gone; a newer
    /// subscription's closure is not called for it either.
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn trap_callbacks_after_unsubscribe_are_absorbed() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        let old_calls = Arc::new(AtomicUsize::new(0));
        let c = Arc::clone(&old_calls);
        let sub = mspti()
            .subscribe(move |_| {
                c.fetch_add(1, SeqCst);
            })
            .unwrap();
        sub.enable_domain(CallbackDomain::RUNTIME).unwrap();
        let late = mock().stall_callback(RUNTIME, 10, ENTER, "aclrtLaunchKernel");
        assert_ne!(late, 0);
        drop(sub);
        assert_eq!(Arc::strong_count(&old_calls), 1, "closure dropped at once: nothing was inside it");
        let new_calls = Arc::new(AtomicUsize::new(0));
        let n = Arc::clone(&new_calls);
        let newer = mspti()
            .subscribe(move |_| {
                n.fetch_add(1, SeqCst);
            })
            .unwrap();
        newer.enable_domain(CallbackDomain::RUNTIME).unwrap();
        assert_eq!(mock().release_stalled(late), 1, "MSPTI called the old subscription's callback");
        assert_eq!(old_calls.load(SeqCst), 0);
        assert_eq!(new_calls.load(SeqCst), 0, "not routed to the newer closure");
        mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", None);
        assert_eq!(new_calls.load(SeqCst), 2);
    }
}

preloaded_test! {
    /// Trap: unsubscribing while the closure runs on another thread. `drop` does not wait: the
    /// running call finishes and the last one out frees the closure; `unsubscribe()` waits.
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn trap_closure_running_during_unsubscribe_is_freed_by_the_last_call_out() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        for wait in [false, true] {
            let inside = Arc::new(Barrier::new(2));
            let release = Arc::new(AtomicBool::new(false));
            let dropped = Arc::new(AtomicBool::new(false));
            struct OnDrop(Arc<AtomicBool>);
            impl Drop for OnDrop {
                fn drop(&mut self) {
                    self.0.store(true, SeqCst);
                }
            }
            let guard = OnDrop(Arc::clone(&dropped));
            let (i, r) = (Arc::clone(&inside), Arc::clone(&release));
            let sub = mspti()
                .subscribe(move |cb| {
                    let _keep = &guard;
                    if cb.is_enter() {
                        i.wait();
                        while !r.load(SeqCst) {
                            std::thread::yield_now();
                        }
                    }
                })
                .unwrap();
            sub.enable(RuntimeCbid::LAUNCH).unwrap();
            let worker = std::thread::spawn(|| mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", None));
            inside.wait(); // the closure is running on the worker
            if wait {
                let rel = Arc::clone(&release);
                let releaser = std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(50));
                    rel.store(true, SeqCst);
                });
                sub.unsubscribe().unwrap();
                assert!(release.load(SeqCst), "it waited for the running call, which ends only once released");
                assert!(dropped.load(SeqCst), "unsubscribe() returns after the closure is dropped");
                releaser.join().unwrap();
            } else {
                drop(sub);
                assert!(!dropped.load(SeqCst), "still running: not freed under it");
                release.store(true, SeqCst);
            }
            worker.join().unwrap();
            assert!(dropped.load(SeqCst), "freed by the last call out");
        }
    }
}

preloaded_test! {
    /// Trap: a panic in the closure never unwinds into C; later callbacks still arrive.
    fn trap_a_panicking_closure_does_not_unwind_into_mspti() {
        let _g = serial();
        let calls = Arc::new(AtomicUsize::new(0));
        let c = Arc::clone(&calls);
        let sub = mspti()
            .subscribe(move |cb| {
                c.fetch_add(1, SeqCst);
                if cb.is_enter() {
                    panic!("user code panicked");
                }
            })
            .unwrap();
        sub.enable(RuntimeCbid::MALLOC).unwrap();
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let allocations = [acl().malloc(64), acl().malloc(64)];
        std::panic::set_hook(before);
        for p in allocations {
            acl().free(p.unwrap()).unwrap();
        }
        assert_eq!(calls.load(SeqCst), 4, "every ENTER and EXIT arrived");
        assert_eq!(sub.panics(), 2, "each panic counted");
        assert_eq!(sub.last_panic().as_deref(), Some("user code panicked"));
    }
}

preloaded_test! {
    /// Trap: dropping the subscriber from inside its own callback neither deadlocks nor frees
    /// the closure under the running call.
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn trap_unsubscribing_from_inside_the_callback() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        let holder: Arc<Mutex<Option<mspti::Subscriber<'static>>>> = Arc::default();
        let h = Arc::clone(&holder);
        let calls = Arc::new(AtomicUsize::new(0));
        let c = Arc::clone(&calls);
        let sub = mspti()
            .subscribe(move |_| {
                c.fetch_add(1, SeqCst);
                if let Some(s) = h.lock().unwrap().take() {
                    s.unsubscribe().unwrap();
                }
            })
            .unwrap();
        sub.enable(RuntimeCbid::LAUNCH).unwrap();
        *holder.lock().unwrap() = Some(sub);
        mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", None);
        assert_eq!(calls.load(SeqCst), 1, "unsubscribed at ENTER: no EXIT");
        assert_eq!(Arc::strong_count(&calls), 1, "the closure was freed when its last call returned");
    }
}

/// Trap: with no `libmspti.so` in `LD_PRELOAD` enabling fails with an error that says what to do.
#[test]
fn trap_without_ld_preload_the_error_explains() {
    let (home, lib) = (support::ascend_home(), support::library());
    let out = run_child(
        "child_without_ld_preload_explains",
        &[("ASCEND_HOME_PATH", Some(&home)), ("MSPTI_LIBRARY_PATH", Some(&lib))],
    );
    assert_child_passed(&out);
}

#[test]
#[ignore = "run by trap_without_ld_preload_the_error_explains"]
fn child_without_ld_preload_explains() {
    if !in_child() {
        return;
    }
    assert!(!mspti::preload::is_preloaded());
    let sub = mspti().subscribe(|_| {}).unwrap();
    let err = sub.enable_domain(CallbackDomain::RUNTIME).expect_err("needs LD_PRELOAD");
    assert!(matches!(err, Error::WithoutLdPreload));
    let text = err.to_string();
    assert!(text.contains("LD_PRELOAD=") && text.contains("libmspti.so"), "{text}");
    let activity = mspti::ActivitySession::new(mspti(), support::no_kinds()).unwrap();
    activity.start().unwrap();
    assert!(matches!(activity.enable(mspti::ActivityKind::MEMCPY), Err(Error::WithoutLdPreload)));
    activity.enable(mspti::ActivityKind::KERNEL).expect("KERNEL needs no preload");
}

/// Trap: the real library aborts when opened without CANN; the crate refuses instead, saying
/// what to install or set.
#[test]
fn trap_missing_cann_is_refused_with_advice() {
    let out = run_child("child_missing_cann", &[("ASCEND_HOME_PATH", None), ("LD_PRELOAD", None)]);
    assert_child_passed(&out);
}

#[test]
#[ignore = "run by trap_missing_cann_is_refused_with_advice"]
fn child_missing_cann() {
    if !in_child() {
        return;
    }
    let err = mspti::Mspti::open_path(support::library()).expect_err("CANN missing");
    assert!(matches!(err, Error::Load(mspti_sys::LoadError::Refused { .. })), "{err}");
    let text = err.to_string();
    assert!(text.contains("Install the CANN toolkit") && text.contains("ASCEND_HOME_PATH"), "{text}");
}

preloaded_test! {
    /// The entry/exit slot keeps callbacks of separate threads apart even when they interleave.
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn slots_are_per_thread() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        let seen: Arc<Mutex<HashMap<u64, u64>>> = Arc::default();
        let s = Arc::clone(&seen);
        let gate = Arc::new(Barrier::new(2));
        let g = Arc::clone(&gate);
        let sub = mspti()
            .subscribe(move |cb| {
                let me = if std::thread::current().name() == Some("a") { 1 } else { 2 };
                if cb.is_enter() {
                    cb.correlation_slot().set(me * 100);
                } else {
                    s.lock().unwrap().insert(me, cb.correlation_slot().get());
                }
            })
            .unwrap();
        sub.enable(RuntimeCbid::LAUNCH).unwrap();
        let spawn = |name: &str| {
            let g = Arc::clone(&g);
            std::thread::Builder::new()
                .name(name.into())
                .spawn(move || {
                    mock().api_call(
                        RUNTIME,
                        10,
                        "aclrtLaunchKernel",
                        Some(&mut || {
                            g.wait(); // both are between ENTER and EXIT here
                        }),
                    );
                })
                .unwrap()
        };
        let (a, b) = (spawn("a"), spawn("b"));
        a.join().unwrap();
        b.join().unwrap();
        drop(gate);
        assert_eq!(*seen.lock().unwrap(), HashMap::from([(1, 100), (2, 200)]));
    }
}

preloaded_test! {
    /// Defect: an ENTER whose EXIT never came (its id switched off mid-call) left a frame that a
    /// later EXIT without ENTER (its id switched on mid-call) took as its own: it read the lost
    /// call's value and said it was paired.
    #[cfg_attr(mspti_test_another_library, ignore = "needs the mock's mock_mspti_* controls")]
    fn trap_a_lost_exit_does_not_pair_with_a_later_exit_without_enter() {
        let _g = serial();
        let _ = mock(); // the mock only (ignored against another library)
        let exits: Arc<Mutex<Vec<(u64, bool)>>> = Arc::default();
        let e = Arc::clone(&exits);
        let sub = Arc::new(Mutex::new(
            mspti()
                .subscribe(move |cb| {
                    if cb.is_enter() {
                        cb.correlation_slot().set(0xDEAD);
                    } else {
                        e.lock().unwrap().push((cb.correlation_slot().get(), cb.correlation_slot().paired()));
                    }
                })
                .unwrap(),
        ));
        sub.lock().unwrap().enable(RuntimeCbid::LAUNCH).unwrap();
        let s = Arc::clone(&sub);
        // ENTER arrives; switched off in the middle, the EXIT does not.
        mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", Some(&mut || s.lock().unwrap().disable(RuntimeCbid::LAUNCH).unwrap()));
        // Off at ENTER; switched on in the middle, the EXIT arrives without its ENTER.
        mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", Some(&mut || s.lock().unwrap().enable(RuntimeCbid::LAUNCH).unwrap()));
        // A whole call pairs normally.
        mock().api_call(RUNTIME, 10, "aclrtLaunchKernel", None);
        assert_eq!(*exits.lock().unwrap(), [(0, false), (0xDEAD, true)], "the second call's EXIT is unpaired, with 0");
    }
}

preloaded_test! {
    /// Defect: a panic payload whose own `Drop` panics was dropped inside the `extern "C"`
    /// callback, where the second panic aborted the process.
    fn trap_a_panic_payload_whose_drop_panics_does_not_abort() {
        let _g = serial();
        struct PanicsOnDrop;
        impl Drop for PanicsOnDrop {
            fn drop(&mut self) {
                panic!("the payload's drop panics too");
            }
        }
        let calls = Arc::new(AtomicUsize::new(0));
        let c = Arc::clone(&calls);
        let sub = mspti()
            .subscribe(move |cb| {
                c.fetch_add(1, SeqCst);
                if cb.is_enter() {
                    std::panic::panic_any(PanicsOnDrop);
                }
            })
            .unwrap();
        sub.enable(RuntimeCbid::MALLOC).unwrap();
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let p = acl().malloc(64).unwrap();
        std::panic::set_hook(before);
        acl().free(p).unwrap();
        assert_eq!(calls.load(SeqCst), 2, "alive, and the EXIT arrived too");
    }
}

/// Defect: `LD_PRELOAD` set with `setenv` inside the process passes MSPTI's check, every enable
/// returns success and nothing is ever delivered; the crate says interposition is not live.
#[test]
fn trap_ld_preload_set_inside_the_process_is_an_error() {
    let (home, lib) = (support::ascend_home(), support::library());
    assert_child_passed(&run_child(
        "child_ld_preload_set_inside_is_an_error",
        &[("ASCEND_HOME_PATH", Some(&home)), ("MSPTI_LIBRARY_PATH", Some(&lib))],
    ));
}

#[test]
#[ignore = "run by trap_ld_preload_set_inside_the_process_is_an_error"]
fn child_ld_preload_set_inside_is_an_error() {
    if !in_child() {
        return;
    }
    std::env::set_var("LD_PRELOAD", support::library());
    assert!(mspti::preload::ld_preload_names_mspti());
    assert!(!mspti::preload::is_preloaded(), "named, but nothing was preloaded");
    let sub = mspti().subscribe(|_| {}).unwrap();
    let err = sub.enable_domain(CallbackDomain::RUNTIME).expect_err("not live");
    assert!(matches!(err, Error::InterpositionNotLive(_)), "{err}");
    let text = err.to_string();
    assert!(text.contains("was not preloaded") && text.contains("LD_PRELOAD="), "{text}");
    assert!(matches!(sub.enable(RuntimeCbid::MALLOC), Err(Error::InterpositionNotLive(_))));
    let activity = mspti::ActivitySession::new(mspti(), support::no_kinds()).unwrap();
    activity.start().unwrap();
    assert!(matches!(activity.enable(mspti::ActivityKind::MEMORY), Err(Error::InterpositionNotLive(_))));
    activity.enable(mspti::ActivityKind::ACL_API).expect("API records come from the runtime's reports");
}

preloaded_test! {
    /// Defect: a second `libmspti.so` opened by path while another copy is preloaded accepts
    /// every enable and sees nothing; the crate says which copy the calls reach, and refuses to
    /// subscribe with it.
    fn trap_a_second_copy_opened_by_path_is_an_error() {
        let dir = std::env::temp_dir().join(format!("mspti-second-copy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let copy = dir.join("libmspti.so");
        std::fs::copy(support::library(), &copy).unwrap();
        let second = mspti::Mspti::open_path(&copy).expect("opens");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(second.sys().loaded().origin(), "explicit path");
        let err = second.interposition_live().expect_err("not live");
        let text = err.to_string();
        assert!(matches!(err, Error::InterpositionNotLive(_)), "{text}");
        assert!(text.contains("another libmspti.so") && text.contains("open the preloaded copy"), "{text}");
        // Subscribing with it would take CANN's reporters from the preloaded copy: refused.
        let err = second.subscribe(|_| {}).expect_err("a second copy must not subscribe");
        assert!(matches!(err, Error::AnotherCopyLoaded { .. }), "{err}");
        // The preloaded copy, found by the usual search, is live.
        let preloaded = mspti();
        assert_eq!(preloaded.sys().loaded().origin(), "already loaded in this process");
        preloaded.interposition_live().expect("the preloaded copy is live");
        let sub = preloaded.subscribe(|_| {}).unwrap();
        sub.enable_domain(CallbackDomain::RUNTIME).expect("live");
    }
}

preloaded_test! {
    /// Defect: callback ids MSPTI does not define (RUNTIME 37..=63, HCCL 13..=63) were accepted
    /// (MSPTI accepts any id below 64) and never fired. A typed error names them; the last
    /// defined id of each domain is accepted. Against the real library too.
    fn callback_ids_mspti_does_not_define_are_a_typed_error() {
        let _g = serial();
        let sub = mspti().subscribe(|_| {}).unwrap();
        for id in [CallbackId::new(CallbackDomain::RUNTIME, 37), CallbackId::new(CallbackDomain::RUNTIME, 63)]
            .into_iter()
            .chain([HcclCbid(13).into(), HcclCbid(63).into(), RuntimeCbid::INVALID.into()])
        {
            let err = sub.enable(id).expect_err("not defined by MSPTI");
            assert!(matches!(err, Error::UnknownCallbackId(e) if e == id), "{id}: {err}");
            assert!(err.to_string().contains("never call back"), "{err}");
            assert!(!sub.is_enabled(id), "{id}");
        }
        sub.enable(RuntimeCbid(36)).expect("the last runtime id MSPTI defines");
        sub.enable(HcclCbid(12)).expect("the last HCCL id MSPTI defines");
    }
}

preloaded_test! {
    /// Defect: a second `libmspti.so` (another file) opened by path beside the preloaded one: its
    /// `subscribe()` succeeded and took CANN's reporters from the first copy for good (its
    /// records stopped). Refused at subscribe with a typed error naming both files; the
    /// preloaded copy still subscribes. Against the real library too.
    fn a_second_copy_of_libmspti_is_refused_at_subscribe() {
        let _g = serial();
        let dir = std::env::temp_dir().join(format!("mspti-second-copy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let copy = dir.join("libmspti.so");
        std::fs::copy(support::library(), &copy).unwrap();
        let second = Box::leak(Box::new(mspti::Mspti::open_path(&copy).expect("the copy opens")));
        let err = second.subscribe(|_| {}).expect_err("a second copy must not subscribe");
        let Error::AnotherCopyLoaded { ours, other } = &err else { panic!("expected AnotherCopyLoaded, got {err}") };
        assert!(ours.contains("mspti-second-copy"), "{ours}");
        assert!(!other.contains("mspti-second-copy") && other.contains("libmspti"), "{other}");
        let first = mspti().subscribe(|_| {}).expect("the preloaded copy subscribes");
        drop(first);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
