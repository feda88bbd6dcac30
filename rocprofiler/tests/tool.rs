//! The safe `rocprofiler` crate against the mock SDK: tool lifecycle, callback tracing of every
//! kind, buffers decoded into columns, agents and counters, errors.

mod support;

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use accelprof_core::columns::{CopyKind, HOST_DEVICE};
use rocprofiler::{
    AgentKind, BufferConfig, BufferKind, BufferPolicy, CallbackDomain, CallbackSite, Context, Error,
    FamilySet, Operation, ResultCode, Tool,
};
use support::tool::{configure, lib, on_finalize, shutdown, TestTool, FINALIZED};
use support::{ctl, exclusive, gpu};

fn kernel(name: &std::ffi::CStr) -> u64 {
    ctl().kernel_symbol(name)
}

fn set<T: Send + 'static>(slot: &Arc<Mutex<Option<T>>>, value: T) {
    *slot.lock().unwrap() = Some(value);
}

fn get<T: Clone>(slot: &Arc<Mutex<Option<T>>>) -> T {
    slot.lock().unwrap().clone().expect("setup ran")
}

#[test]
fn setup_runs_in_the_window_and_finalize_sees_every_record_without_an_explicit_flush() {
    let _g = exclusive();
    let kernels = Arc::new(Mutex::new(0usize));
    let sink = kernels.clone();
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
        cfg.buffer_tracing(&ctx, BufferKind::KERNEL_DISPATCH, &[], &buffer)?;
        buffer.subscribe(FamilySet::KERNEL, move |b, _| *sink.lock().unwrap() += b.kernels.len());
        ctx.start()
    })
    .expect("setup succeeds");
    let k = kernel(c"saxpy");
    for _ in 0..10 {
        ctl().dispatch(gpu(0), 1, k, 256, 1, 1, 64, 1, 1);
    }
    assert_eq!(*kernels.lock().unwrap(), 0, "below the watermark nothing was delivered yet");
    let seen_at_finalize = Arc::new(Mutex::new(None));
    let s = seen_at_finalize.clone();
    let k2 = kernels.clone();
    on_finalize(move || set(&s, *k2.lock().unwrap()));
    let before = FINALIZED.load(Ordering::SeqCst);
    shutdown();
    assert_eq!(FINALIZED.load(Ordering::SeqCst), before + 1);
    assert_eq!(get(&seen_at_finalize), 10, "buffers are flushed before the tool's finalize");
}

#[test]
fn force_configure_once_and_setup_errors_come_back() {
    let _g = exclusive();
    let err = configure(|cfg| {
        let ctx = cfg.create_context()?;
        // No counting service yet: set_agents says so.
        ctx.set_counting_agents(&[])
    })
    .expect_err("setup failed");
    assert!(matches!(err, Error::ContextNotFound), "{err}");
    // The newest SDKs ignore a configure function forced before (SUCCESS, not run): the crate
    // says the setup did not run (the old mock answered CONFIGURATION_LOCKED).
    let again = configure(|_| Ok(())).expect_err("configured already");
    assert!(matches!(again, Error::NotConfigured(_)), "{again}");
    support::tool::setup_slot().take();
}

/// A second tool type, forced after the window.
struct LateTool;
static LATE_SETUP: Mutex<Option<support::tool::Setup>> = Mutex::new(None);

impl Tool for LateTool {
    const NAME: &'static str = "late-tool";
    fn setup(cfg: &mut rocprofiler::Configurator<'_>) -> rocprofiler::Result<Self> {
        let setup = LATE_SETUP.lock().unwrap().take().expect("a late setup was given");
        setup(cfg)?;
        Ok(LateTool)
    }
}

/// Notes: "`rocprofiler_force_configure` in the newest `registration.cpp` supports late start:
/// after init it adds and runs the client; [...] after finalize it returns FINALIZED".
#[test]
fn force_configure_after_init_starts_the_tool_late_and_after_finalize_is_finalized() {
    let _g = exclusive();
    configure(|_| Ok(())).unwrap();
    let late = Arc::new(Mutex::new(None));
    let l = late.clone();
    *LATE_SETUP.lock().unwrap() = Some(Box::new(move |cfg: &mut rocprofiler::Configurator<'_>| {
        let ctx = cfg.create_context()?;
        set(&l, ctx);
        Ok(())
    }));
    rocprofiler::force_configure::<LateTool>(lib()).expect("a late start");
    let ctx: Context = get(&late);
    ctx.start().unwrap();
    assert!(ctx.is_active().unwrap());
    shutdown();
    let after = rocprofiler::force_configure::<LateTool>(lib()).expect_err("finalized");
    assert!(matches!(after, Error::Finalized), "{after}");
}

/// From inside a tool's setup the newest SDK would wait for its own registration lock: the
/// crate refuses before calling it (the mock aborts when reached).
#[test]
fn force_configure_from_a_setup_is_refused() {
    let _g = exclusive();
    let inner = Arc::new(Mutex::new(None));
    let i = inner.clone();
    configure(move |_| {
        set(&i, rocprofiler::force_configure::<LateTool>(lib()).map_err(|e| e.to_string()));
        Ok(())
    })
    .unwrap();
    let inner = get(&inner).expect_err("refused");
    assert!(inner.contains("inside a tool's setup"), "{inner}");
}

#[test]
fn the_runtime_path_registers_the_tool_and_setup_calls_after_the_window_are_locked() {
    let _g = exclusive();
    let slot = Arc::new(Mutex::new(None));
    let s = slot.clone();
    // The registered-configure path plays a tool library found by the runtime.
    *support::tool::setup_slot() = Some(Box::new(move |cfg: &mut rocprofiler::Configurator<'_>| {
        let ctx = cfg.create_context()?;
        set(&s, ctx);
        Ok(())
    }));
    {
        // SAFETY: the crate's configure function for `TestTool`.
        unsafe { ctl().register_configure(rocprofiler::configure_function::<TestTool>()) };
        assert_eq!(ctl().load_tools().0, 0);
        assert_eq!(ctl().client_count(), 1);
    }
    let ctx: Context = get(&slot);
    ctx.start().unwrap();
    assert!(ctx.is_active().unwrap());
    ctx.stop().unwrap();
    ctx.stop().expect("stopping a stopped context is fine");
    assert!(ctx.is_valid().unwrap());
    assert_eq!(lib().initialization_status().unwrap(), 1);
}

/// `configure_with`: the setup borrows the test's own state (not `'static`, not `Send`) and its
/// handles come back as the call's result; nothing goes through a static.
#[test]
fn configure_with_takes_the_callers_state_and_returns_the_setups_result() {
    let _g = exclusive();
    let mut windows_seen = Vec::new();
    let kernels = Arc::new(Mutex::new(0usize));
    let sink = kernels.clone();
    let (ctx, buffer) = rocprofiler::configure_with(lib(), |cfg| {
        windows_seen.push("in the window");
        let ctx = cfg.create_context()?;
        let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
        cfg.buffer_tracing(&ctx, BufferKind::KERNEL_DISPATCH, &[], &buffer)?;
        buffer.subscribe(FamilySet::KERNEL, move |b, _| *sink.lock().unwrap() += b.kernels.len());
        Ok((ctx, buffer))
    })
    .expect("the setup ran in the window");
    assert_eq!(windows_seen, ["in the window"]);
    assert_eq!(ctl().client_count(), 1);
    // The window closed: the Configurator cannot be had any more, and the handles work.
    ctx.start().unwrap();
    let k = kernel(c"saxpy");
    for _ in 0..3 {
        ctl().dispatch(gpu(0), 1, k, 256, 1, 1, 64, 1, 1);
    }
    shutdown();
    assert_eq!(*kernels.lock().unwrap(), 3, "finalize flushed the setup's buffer");
    assert!(buffer.id() != 0);
}

/// The setup's error comes back (and what it started is stopped); its panic is the caller's; a
/// second `configure_with` in one process is refused typed, never run.
#[test]
fn configure_with_returns_the_setups_error_resumes_its_panic_and_runs_once() {
    let _g = exclusive();
    let mut started = None;
    let err = rocprofiler::configure_with(lib(), |cfg| -> rocprofiler::Result<()> {
        let ctx = cfg.create_context()?;
        ctx.start()?;
        started = Some(ctx);
        Err(Error::NotConfigured("the test's own failure"))
    })
    .expect_err("the setup failed");
    assert!(matches!(err, Error::NotConfigured("the test's own failure")), "{err}");
    assert!(!started.expect("the context").is_active().unwrap(), "a failed setup's contexts are stopped");
    let mut ran = false;
    let again = rocprofiler::configure_with(lib(), |_| {
        ran = true;
        Ok(())
    })
    .expect_err("one forced configure function, run once");
    assert!(matches!(again, Error::NotConfigured(_)), "{again}");
    assert!(!ran);

    let _g2 = (drop(_g), exclusive());
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = rocprofiler::configure_with(lib(), |_| -> rocprofiler::Result<()> { panic!("in the setup") });
    }))
    .expect_err("the setup's panic reaches the caller");
    assert_eq!(panic.downcast_ref::<&str>(), Some(&"in the setup"));
}

/// After the runtime's window closed: the newest SDK starts the setup late, an SDK before late
/// start answers CONFIGURATION_LOCKED (the setup does not run); from inside a setup, refused.
#[test]
fn configure_with_after_the_window_starts_late_or_is_locked_and_never_nests() {
    let _g = exclusive();
    assert_eq!(ctl().load_tools().0, 0, "the runtime's window, no tool in it");
    ctl().set_late_start(0);
    let mut ran = false;
    let locked = rocprofiler::configure_with(lib(), |_| {
        ran = true;
        Ok(())
    })
    .expect_err("an SDK before late start");
    assert!(matches!(locked, Error::ConfigurationLocked), "{locked}");
    assert!(!ran);

    let _g2 = (drop(_g), exclusive());
    assert_eq!(ctl().load_tools().0, 0);
    let nested = rocprofiler::configure_with(lib(), |cfg| {
        let inner = rocprofiler::configure_with(lib(), |_| Ok(()));
        Ok((cfg.create_context()?, inner))
    })
    .expect("the newest SDK starts it late");
    assert!(matches!(nested.1, Err(Error::WouldDeadlock(_))), "{:?}", nested.1);
    nested.0.start().expect("a context of the late window");
}

#[test]
fn callback_tracing_for_every_kind_with_names_phases_and_the_slot() {
    let _g = exclusive();
    let lib = lib();
    let kinds = lib.callback_kinds().unwrap();
    assert_eq!(kinds, CallbackDomain::ALL.to_vec(), "every kind the library has is one this crate names");
    for k in &kinds {
        assert!(!lib.callback_kind_name(*k).unwrap().is_empty());
        assert!(!lib.callback_operations(*k).unwrap().is_empty(), "{k:?}");
    }
    assert_eq!(lib.callback_kind_name(CallbackDomain::HIP_RUNTIME_API).unwrap(), "HIP_RUNTIME_API");

    type Seen = (u32, Option<String>, u32, u64, u64, u64, Option<String>);
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let dup = Arc::new(Mutex::new(None));
    let (s, d) = (seen.clone(), dup.clone());
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        for kind in CallbackDomain::ALL {
            let s = s.clone();
            cfg.callback_tracing(&ctx, *kind, &[], move |r| {
                let before = r.correlation_slot().get();
                if r.site() == CallbackSite::ENTER {
                    r.correlation_slot().set(1000 + r.correlation().internal);
                }
                let message = r.marker_message();
                s.lock().unwrap().push((
                    r.domain().0,
                    r.function_name().map(str::to_string),
                    r.site().0,
                    r.correlation().internal,
                    before,
                    r.thread_id(),
                    message,
                ));
            })?;
        }
        let again = cfg.callback_tracing(&ctx, CallbackDomain::HIP_RUNTIME_API, &[], |_| {});
        set(&d, again.err().map(|e| e.to_string()));
        ctx.start()
    })
    .unwrap();
    assert!(get(&dup).unwrap().contains("SERVICE_ALREADY_CONFIGURED"));

    let hip = CallbackDomain::HIP_RUNTIME_API.0;
    let malloc = lib.callback_operations(CallbackDomain::HIP_RUNTIME_API).unwrap();
    let malloc = malloc.iter().find(|(_, n)| n == "hipMalloc").unwrap().0;
    let (call, other, mark) = {
        let call = ctl().api_call(hip, malloc.0);
        let other = std::thread::spawn(move || ctl().api_call(hip, malloc.0)).join().unwrap();
        let mark = ctl().marker(1, Some(c"step 7"));
        (call, other, mark)
    };
    let seen = seen.lock().unwrap().clone();
    for c in [call, other] {
        let enter = seen.iter().find(|x| x.3 == c && x.2 == CallbackSite::ENTER.0).unwrap();
        let exit = seen.iter().find(|x| x.3 == c && x.2 == CallbackSite::EXIT.0).unwrap();
        assert_eq!(enter.1.as_deref(), Some("hipMalloc"));
        assert_eq!((enter.4, exit.4), (0, 1000 + c), "the slot carries ENTER's value to EXIT");
        assert_eq!(enter.5, exit.5);
    }
    assert_ne!(seen.iter().find(|x| x.3 == call).unwrap().5, seen.iter().find(|x| x.3 == other).unwrap().5);
    let marker = seen.iter().find(|x| x.3 == mark && x.2 == CallbackSite::ENTER.0).unwrap();
    assert_eq!(marker.1.as_deref(), Some("roctxRangePushA"));
    assert_eq!(marker.6.as_deref(), Some("step 7"));
}

#[test]
fn operations_filter_and_bad_kinds() {
    let _g = exclusive();
    let seen: Arc<Mutex<Vec<(u32, i32)>>> = Arc::default();
    let errs = Arc::new(Mutex::new(None));
    let (s, e) = (seen.clone(), errs.clone());
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        // Refused by the crate before the SDK sees them: a kind past LAST would throw out of C,
        // NONE names no service, and a bad operation would leave the kind half-configured.
        let past_last = cfg.callback_tracing(&ctx, CallbackDomain(999), &[], |_| {}).unwrap_err();
        let none = cfg.callback_tracing(&ctx, CallbackDomain(0), &[], |_| {}).unwrap_err();
        let bad_op =
            cfg.callback_tracing(&ctx, CallbackDomain::HSA_CORE_API, &[Operation(9999)], |_| {}).unwrap_err();
        let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
        let bad_buffer_kind = cfg.buffer_tracing(&ctx, BufferKind(999), &[], &buffer).unwrap_err();
        set(&e, [past_last, none, bad_op, bad_buffer_kind].map(|e| e.to_string()));
        // So the kind can still be configured: nothing was registered.
        let s2 = s.clone();
        cfg.callback_tracing(&ctx, CallbackDomain::HSA_CORE_API, &[Operation(0)], move |r| {
            s2.lock().unwrap().push((r.domain().0, r.operation().0))
        })?;
        cfg.callback_tracing(&ctx, CallbackDomain::HIP_RUNTIME_API, &[Operation(2)], move |r| {
            s.lock().unwrap().push((r.domain().0, r.operation().0))
        })?;
        ctx.start()
    })
    .unwrap();
    let [past_last, none, bad_op, bad_buffer_kind] = get(&errs);
    assert!(past_last.contains("KIND_NOT_FOUND") && none.contains("KIND_NOT_FOUND"), "{past_last} / {none}");
    assert!(bad_op.contains("OPERATION_NOT_FOUND") && bad_buffer_kind.contains("KIND_NOT_FOUND"), "{bad_op}");
    ctl().api_call(5, 1);
    ctl().api_call(5, 2);
    ctl().api_call(1, 0);
    ctl().api_call(1, 1);
    assert_eq!(
        *seen.lock().unwrap(),
        vec![(5, 2), (5, 2), (1, 0), (1, 0)],
        "only the chosen operations, ENTER and EXIT; the retried kind works"
    );
}

/// A panic in a callback-tracing closure never reaches the SDK: it is caught, counted and its
/// message kept on the [`rocprofiler::Subscriber`] (which used to count it and tell nobody); the
/// calls go on, and the other sites still arrive.
#[test]
fn a_panicking_tracing_closure_is_counted_on_its_subscriber() {
    let _g = exclusive();
    let subscriber = Arc::new(Mutex::new(None));
    let calls = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let (sub, c) = (subscriber.clone(), calls.clone());
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        let s = cfg.callback_tracing(&ctx, CallbackDomain::HIP_RUNTIME_API, &[], move |r| {
            c.fetch_add(1, Ordering::SeqCst);
            if r.is_enter() {
                panic!("hip boom {}", r.correlation().internal);
            }
        })?;
        set(&sub, s);
        ctx.start()
    })
    .unwrap();
    let s: rocprofiler::Subscriber = get(&subscriber);
    assert_eq!((s.panics(), s.last_panic()), (0, None));
    let before = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let hip = CallbackDomain::HIP_RUNTIME_API.0;
    let first = ctl().api_call(hip, 1);
    let second = ctl().api_call(hip, 1);
    std::panic::set_hook(before);
    assert_eq!(calls.load(Ordering::SeqCst), 4, "ENTER and EXIT of both calls arrived");
    assert_eq!(s.panics(), 2);
    assert_eq!(s.last_panic(), Some(format!("hip boom {second}")));
    assert_ne!(first, second);
    assert_eq!(s.domain(), CallbackDomain::HIP_RUNTIME_API);
}

#[test]
fn buffered_tracing_is_decoded_into_columns_out_of_order_included() {
    let _g = exclusive();
    let rows: Arc<Mutex<Vec<String>>> = Arc::default();
    let buf_slot = Arc::new(Mutex::new(None));
    let (r, b) = (rows.clone(), buf_slot.clone());
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
        for k in [
            BufferKind::KERNEL_DISPATCH,
            BufferKind::MEMORY_COPY,
            BufferKind::HIP_RUNTIME_API,
            BufferKind::MARKER_CORE_API,
        ] {
            cfg.buffer_tracing(&ctx, k, &[], &buffer)?;
        }
        buffer.subscribe(FamilySet::all(), move |batch, names| {
            let mut out = r.lock().unwrap();
            for k in batch.kernels.rows() {
                out.push(format!(
                    "kernel {} dev{} grid{}x{} block{} corr{} {}..{}",
                    names.resolve(k.name),
                    k.device,
                    k.grid_x,
                    k.grid_y,
                    k.block_x,
                    k.correlation,
                    k.start,
                    k.end
                ));
            }
            for c in batch.memcpys.rows() {
                assert_eq!(c.copy_kind, CopyKind::HTOD);
                out.push(format!("copy {} dev{} corr{}", c.bytes, c.device, c.correlation));
            }
            for a in batch.api_calls.rows() {
                out.push(format!("api {} corr{}", names.resolve(a.name), a.correlation));
            }
            for m in batch.markers.rows() {
                assert_eq!(m.device, HOST_DEVICE);
                out.push(format!("marker {} {}", names.resolve(m.domain), names.resolve(m.name)));
            }
        });
        set(&b, buffer);
        ctx.start()
    })
    .unwrap();
    let buffer = get(&buf_slot);
    let k = kernel(c"matmul_tiled");
    let launch = {
        let launch = ctl().api_begin(5, 5); // hipLaunchKernel
        let first = ctl().dispatch_begin(gpu(1), 7, k, 1024, 2, 1, 256, 1, 1);
        ctl().api_end();
        let second = ctl().dispatch_begin(gpu(2), 8, k, 64, 1, 1, 64, 1, 1);
        std::thread::sleep(std::time::Duration::from_millis(1));
        ctl().dispatch_end(second);
        ctl().dispatch_end(first);
        ctl().memory_copy(2, support::cpu(), gpu(0), 4096);
        ctl().marker(0, Some(c"checkpoint"));
        launch
    };
    ctl().sync(); // the kernels' and the copy's records come on HSA's async-signal thread
    buffer.flush().unwrap();
    let rows = rows.lock().unwrap().clone();
    let kernels: Vec<&String> = rows.iter().filter(|r| r.starts_with("kernel")).collect();
    assert_eq!(kernels.len(), 2, "{rows:#?}");
    assert!(kernels[0].starts_with("kernel matmul_tiled dev2 grid1x1 block64"), "{}", kernels[0]);
    assert!(
        kernels[1].starts_with(&format!("kernel matmul_tiled dev1 grid4x2 block256 corr{launch} ")),
        "{}",
        kernels[1]
    );
    // The first-delivered kernel started later than the second-delivered one.
    let start = |s: &str| s.rsplit(' ').next().unwrap().split("..").next().unwrap().parse::<u64>().unwrap();
    assert!(start(kernels[0]) > start(kernels[1]));
    assert!(rows.contains(&format!("api hipLaunchKernel corr{launch}")), "{rows:#?}");
    assert!(rows.iter().any(|r| r.starts_with("copy 4096 dev0")), "{rows:#?}");
    assert!(rows.contains(&"marker roctx checkpoint".to_string()), "{rows:#?}");
    let counts = buffer.counts().pipeline;
    assert_eq!(counts.records_delivered, 5);
    assert_eq!(counts.records_produced(), counts.records_delivered + counts.records_dropped());
}

#[test]
fn discarded_records_reach_the_counts() {
    let _g = exclusive();
    let buf_slot = Arc::new(Mutex::new(None));
    let b = buf_slot.clone();
    let record =
        16 + std::mem::size_of::<rocprofiler::sys::rocprofiler_buffer_tracing_kernel_dispatch_record_t>();
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        let size = (record * 4).max(rocprofiler::MIN_BUFFER_SIZE);
        let buffer = cfg.create_buffer(
            &ctx,
            BufferConfig { size, watermark: size, policy: BufferPolicy::Discard, ..Default::default() },
        )?;
        cfg.buffer_tracing(&ctx, BufferKind::KERNEL_DISPATCH, &[], &buffer)?;
        buffer.subscribe(FamilySet::KERNEL, |_, _| {});
        set(&b, buffer);
        ctx.start()
    })
    .unwrap();
    let buffer = get(&buf_slot);
    let fits = (rocprofiler::MIN_BUFFER_SIZE.max(record * 4)) / record;
    let k = kernel(c"k");
    for _ in 0..fits + 3 {
        ctl().dispatch(gpu(0), 1, k, 64, 1, 1, 64, 1, 1);
    }
    ctl().sync();
    buffer.flush().unwrap();
    let counts = buffer.counts().pipeline;
    assert_eq!(buffer.sdk_drop_count(), 3);
    assert_eq!(counts.vendor_dropped, 3);
    assert_eq!(counts.records_delivered, fits as u64);
    assert_eq!(counts.records_produced(), fits as u64 + 3);
}

#[test]
fn agents_and_counters() {
    let _g = exclusive();
    let lib = lib();
    let agents = lib.agents().unwrap();
    assert_eq!(agents.len(), 4);
    assert_eq!(agents[0].kind, AgentKind::Cpu);
    let gpus = lib.gpus().unwrap();
    assert_eq!(gpus.iter().map(|a| a.id.0).collect::<Vec<_>>(), vec![gpu(0), gpu(1), gpu(2)]);
    assert_eq!(gpus[1].type_index, 1);
    assert_eq!(gpus[0].name, "gfx942");
    let counters = lib.counters(gpus[0].id).unwrap();
    let names: Vec<&str> = counters.iter().map(|c| c.name.as_str()).collect();
    assert!(names.contains(&"SQ_WAVES") && names.contains(&"FETCH_SIZE"));
    assert!(counters.iter().find(|c| c.name == "FETCH_SIZE").unwrap().is_derived);
    // Notes: "on a CPU agent iterate returns AGENT_ARCH_NOT_SUPPORTED".
    assert!(matches!(lib.counters(agents[0].id), Err(Error::AgentArchNotSupported)));
    assert!(matches!(lib.counters(rocprofiler::AgentId(12345)), Err(Error::AgentNotFound)));
    // A name the agent lacks says which name, and on which agent; its status is COUNTER_NOT_FOUND.
    let e = lib.counter_config_by_name(gpus[0].id, &["SQ_WAVES", "NOPE"]).unwrap_err();
    assert!(
        matches!(&e, Error::CounterNameNotFound { name, agent, .. } if name == "NOPE" && *agent == gpus[0].id.0)
    );
    let text = e.to_string();
    assert!(text.contains("\"NOPE\"") && text.contains(&format!("agent {}", gpus[0].id.0)), "{text}");
    assert_eq!(e.status_name(), Some("ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND"));
    let config = lib.counter_config_by_name(gpus[0].id, &["SQ_WAVES"]).unwrap();
    assert!(config.handle() != 0 && config.agent() == gpus[0].id);
}

#[test]
fn status_codes_past_last_are_unknown_and_have_no_string() {
    let _g = exclusive();
    let lib = lib();
    assert_eq!(lib.version().unwrap(), rocprofiler::accelprof_core::Version::new(1, 0, 0));
    for code in 1..=41 {
        let e = Error::from_code(ResultCode(code), "test").unwrap();
        assert!(lib.describe(&e).is_some(), "{code}");
        // The crate's C names are the library's own (status 41 by its mainline name).
        assert_eq!(lib.status_name(code).as_deref(), e.status_name(), "{code}");
    }
    assert_eq!(
        lib.status_name(41).as_deref(),
        Some("ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION")
    );
    let past = Error::from_code(ResultCode(42), "test").unwrap();
    assert!(matches!(past, Error::Unknown { code: ResultCode(42), .. }));
    assert_eq!(lib.describe(&past), None);
    // An SDK older than status 41: the variant still exists, the library has no string.
    ctl().set_status_last(41);
    assert_eq!(lib.describe(&Error::IncompatibleRegisterVersion), None);
    assert_eq!(lib.status_string(41), None);
    ctl().set_status_last(0);
    assert!(lib.status_string(41).is_some());
    assert_eq!(TestTool::NAME, "test-tool");
}

#[test]
fn callback_payloads_kernel_symbols_dispatches_and_copies() {
    let _g = exclusive();
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let s = seen.clone();
    let launcher = std::thread::current().id();
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        for kind in
            [CallbackDomain::CODE_OBJECT, CallbackDomain::KERNEL_DISPATCH, CallbackDomain::MEMORY_COPY]
        {
            let s = s.clone();
            cfg.callback_tracing(&ctx, kind, &[], move |r| {
                let here = if std::thread::current().id() == launcher { "launcher" } else { "async" };
                let line = if let Some((id, name)) = r.kernel_symbol() {
                    format!("symbol {} {}", id.0, name.to_string_lossy())
                } else if let Some(d) = r.kernel_dispatch() {
                    format!(
                        "dispatch {} {} k{} grid{:?} wg{:?} ended:{} {here}",
                        r.function_name().unwrap(),
                        r.site().0,
                        d.info.kernel.0,
                        d.info.grid,
                        d.info.workgroup,
                        d.end > d.start
                    )
                } else if let Some(c) = r.memory_copy() {
                    // The slot carries ENTER's mark to EXIT.
                    if r.is_enter() {
                        r.correlation_slot().set(7);
                    }
                    format!(
                        "copy {} {} {} {}->{} times:{} slot:{} {here}",
                        r.function_name().unwrap(),
                        r.site().0,
                        c.bytes,
                        c.src.0,
                        c.dst.0,
                        if c.start == 0 && c.end == 0 {
                            "zero".to_owned()
                        } else {
                            (c.end > c.start).to_string()
                        },
                        r.correlation_slot().get(),
                    )
                } else {
                    format!("other {:?}", r.domain())
                };
                s.lock().unwrap().push(line);
            })?;
        }
        ctx.start()
    })
    .unwrap();
    let k = kernel(c"stencil");
    ctl().dispatch(gpu(0), 3, k, 512, 4, 1, 128, 2, 1);
    ctl().memory_copy(3, gpu(0), support::cpu(), 100);
    let submitted = seen.lock().unwrap().clone();
    // Completions come later, on HSA's async-signal thread: wait for them (bounded: the mock's
    // sync returns once that thread has run every completion queued).
    ctl().sync();
    let seen = seen.lock().unwrap().clone();
    let (cpu, g0) = (support::cpu(), gpu(0));
    assert_eq!(
        seen,
        vec![
            format!("symbol {k} stencil"),
            format!(
                "dispatch KERNEL_DISPATCH_ENQUEUE 1 k{k} grid[512, 4, 1] wg[128, 2, 1] ended:false launcher"
            ),
            format!(
                "dispatch KERNEL_DISPATCH_ENQUEUE 2 k{k} grid[512, 4, 1] wg[128, 2, 1] ended:false launcher"
            ),
            format!("copy MEMORY_COPY_DEVICE_TO_HOST 1 100 {g0}->{cpu} times:zero slot:7 launcher"),
            format!(
                "dispatch KERNEL_DISPATCH_COMPLETE 0 k{k} grid[512, 4, 1] wg[128, 2, 1] ended:true async"
            ),
            format!("copy MEMORY_COPY_DEVICE_TO_HOST 2 100 {g0}->{cpu} times:true slot:7 async"),
        ]
    );
    assert_eq!(submitted.len(), 4, "before the completions ran: {submitted:?}");
}

/// Notes: "Agents come from `/sys/class/kfd`: with no KFD there are zero agents, not even a CPU
/// one." The SDK then hands its callback (NULL, 0): the crate's lists are empty (it once built a
/// slice from that NULL, undefined behaviour that a debug build reports as an abort), and a tool
/// still sets up.
#[test]
fn without_kfd_the_agent_lists_are_empty_and_a_tool_still_sets_up() {
    let _g = exclusive();
    ctl().set_kfd(0);
    let lib = lib();
    assert_eq!(lib.agents().unwrap(), vec![]);
    assert_eq!(lib.gpus().unwrap(), vec![]);
    configure(|cfg| {
        let ctx = cfg.create_context()?;
        let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
        cfg.buffer_tracing(&ctx, BufferKind::KERNEL_DISPATCH, &[], &buffer)?;
        ctx.start()
    })
    .expect("setup without agents");
    ctl().set_kfd(1);
}

/// The counter API's codes through the crate (notes: CPU agent, empty list, duplicates,
/// EXCEEDS_HW_LIMIT).
#[test]
fn counter_configs_report_the_sdks_codes() {
    let _g = exclusive();
    let lib = lib();
    let cpu = rocprofiler::AgentId(support::cpu());
    let g0 = rocprofiler::AgentId(gpu(0));
    let ids = |names: &[&str]| -> Vec<rocprofiler::CounterId> {
        let all = lib.counters(g0).unwrap();
        names.iter().map(|n| all.iter().find(|c| c.name == *n).unwrap().id).collect()
    };
    assert!(matches!(lib.counter_config(cpu, &ids(&["SQ_WAVES"])), Err(Error::MetricNotValidForAgent)));
    assert_eq!(lib.counter_config(g0, &[]).unwrap().agent(), g0, "an empty list is a config");
    assert!(lib.counter_config(g0, &ids(&["SQ_WAVES", "SQ_WAVES"])).is_ok(), "duplicates count once");
    assert!(matches!(lib.counter_config_by_name(g0, &["TCC_HIT", "TCC_MISS"]), Err(Error::ExceedsHwLimit)));
}

/// Buffers can be delivered on a callback thread of the tool's own; thread 0 is the SDK's
/// internal one and may be assigned back.
#[test]
fn buffers_on_a_callback_thread_of_their_own() {
    let _g = exclusive();
    let delivered = Arc::new(Mutex::new(0usize));
    let d = delivered.clone();
    let slot = Arc::new(Mutex::new(None));
    let s = slot.clone();
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        let buffer = cfg.create_buffer(&ctx, BufferConfig::default())?;
        let thread = cfg.create_callback_thread()?;
        assert_ne!(thread, rocprofiler::CallbackThread::INTERNAL);
        cfg.assign_callback_thread(&buffer, rocprofiler::CallbackThread::INTERNAL)?;
        cfg.assign_callback_thread(&buffer, thread)?;
        cfg.buffer_tracing(&ctx, BufferKind::KERNEL_DISPATCH, &[], &buffer)?;
        buffer.subscribe(FamilySet::KERNEL, move |b, _| *d.lock().unwrap() += b.kernels.len());
        set(&s, buffer);
        ctx.start()
    })
    .unwrap();
    let k = kernel(c"k");
    ctl().dispatch(gpu(0), 1, k, 64, 1, 1, 64, 1, 1);
    ctl().sync();
    get(&slot).flush().unwrap();
    assert_eq!(*delivered.lock().unwrap(), 1);
}

/// The SDK does not bound a buffer's size (it maps it and aborts when it cannot): the crate
/// refuses sizes past [`rocprofiler::MAX_BUFFER_SIZE`] before calling (the mock aborts past 1 GiB).
#[test]
fn buffer_sizes_the_sdk_cannot_map_are_refused_before_the_call() {
    let _g = exclusive();
    let errs = Arc::new(Mutex::new(Vec::new()));
    let e = errs.clone();
    configure(move |cfg| {
        let ctx = cfg.create_context()?;
        for size in [usize::MAX, rocprofiler::MAX_BUFFER_SIZE + 1, rocprofiler::MIN_BUFFER_SIZE - 1] {
            let err = cfg.create_buffer(&ctx, BufferConfig { size, ..Default::default() }).unwrap_err();
            e.lock().unwrap().push(err.to_string());
        }
        cfg.create_buffer(&ctx, BufferConfig { size: rocprofiler::MAX_BUFFER_SIZE, ..Default::default() })?;
        Ok(())
    })
    .unwrap();
    assert!(
        errs.lock().unwrap().iter().all(|e| e.contains("INVALID_ARGUMENT")),
        "{:?}",
        errs.lock().unwrap()
    );
}
