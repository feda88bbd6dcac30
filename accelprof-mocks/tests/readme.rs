//! The README's examples, run: a user's own callback and activity code on each vendor crate,
//! tested against the mocks. Each module holds one example as the README shows it (a test of
//! this file checks that the README's text is these modules' text, whitespace aside).

mod cupti_example {
    use std::sync::{Arc, Mutex};

    use accelprof_mocks::cupti::{MockCupti, LIBRARY};
    use cupti::activity::{ActivityConfig, ActivitySession};
    use cupti::{CallbackDomain, Cupti, FamilySet};

    #[test]
    fn my_tool_sees_the_launch_and_its_kernel() {
        let _lock = accelprof_mocks::cupti::lock(); // one mock per process
        let mock = MockCupti::open(LIBRARY).expect("the mock's controls");
        mock.reset();
        let cupti = Cupti::open_path(LIBRARY).expect("the mock, opened as the tool opens libcupti");

        // The code under test: a callback and an activity session.
        let calls = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&calls);
        let sub = cupti
            .subscribe(move |cb| {
                if cb.is_exit() {
                    seen.lock().unwrap().push(cb.function_name().unwrap_or("?").to_string());
                }
            })
            .expect("subscribe");
        sub.enable_domain(CallbackDomain::RUNTIME_API).expect("runtime callbacks");
        let session = ActivitySession::new(&cupti, ActivityConfig::default()).expect("a session");
        let kernels = session.collect(FamilySet::KERNEL);
        session.start().expect("collecting");

        // The program, played: one kernel launch (saxpy<<<4, 128>>> on stream 0, 2 µs).
        mock.launch(c"saxpy", [4, 1, 1], [128, 1, 1], 0, 0);

        session.flush().expect("every buffer delivered");
        assert_eq!(kernels.take().kernels.len(), 1);
        assert_eq!(*calls.lock().unwrap(), ["cudaLaunchKernel"]);
    }
}

mod mspti_example {
    use std::sync::{Arc, Mutex};

    use accelprof_mocks::ascend::Acl;
    use mspti::{ActivityConfig, ActivitySession, CallbackDomain, FamilySet, Mspti};

    #[test]
    fn my_tool_sees_the_launch_and_its_kernel() {
        // In a child process with the mock libmspti.so preloaded, as MSPTI needs.
        accelprof_mocks::mspti::run_preloaded(|| {
            let mspti = Mspti::open().expect("the preloaded libmspti.so");

            // The code under test: a callback and an activity session.
            let calls = Arc::new(Mutex::new(Vec::new()));
            let seen = Arc::clone(&calls);
            let sub = mspti
                .subscribe(move |cb| {
                    if cb.is_exit() {
                        seen.lock().unwrap().push(cb.function_name().unwrap_or("?").to_string());
                    }
                })
                .expect("subscribe");
            sub.enable_domain(CallbackDomain::RUNTIME).expect("runtime callbacks");
            let session = ActivitySession::new(&mspti, ActivityConfig::default()).expect("a session");
            let kernels = session.collect(FamilySet::KERNEL);
            session.start().expect("collecting");

            // The program, played through the CANN stand-ins: one kernel launch.
            let acl = Acl::load().expect("the CANN stand-ins");
            acl.init().expect("aclInit");
            acl.set_device(0).expect("aclrtSetDevice");
            let stream = acl.create_stream().expect("a stream");
            let kernel = acl.kernel("add_custom.o", "add_custom").expect("a kernel");
            acl.launch(kernel, 8, stream).expect("a launch");
            acl.synchronize_stream(stream).expect("done");

            session.fence().expect("every record delivered");
            assert_eq!(kernels.take().kernels.len(), 1);
            assert!(calls.lock().unwrap().iter().any(|c| c == "aclrtLaunchKernel"), "{calls:?}");
        });
    }
}

mod rocprofiler_example {
    use std::sync::{Arc, Mutex};

    use accelprof_mocks::rocprofiler::{run_mocked, LIBRARY};
    use rocprofiler::{ActivityConfig, CallbackDomain, FamilySet, Rocprofiler};

    #[test]
    fn my_tool_sees_the_call_and_its_kernel() {
        // The mock's lock held, the mock reset: an SDK not configured yet.
        run_mocked(|mock| {
            let sdk = Rocprofiler::open_path(LIBRARY).expect("the mock, opened as the tool opens the SDK");

            // The code under test, set up in the SDK's configure window; its handles come back.
            let calls = Arc::new(Mutex::new(Vec::new()));
            let seen = Arc::clone(&calls);
            let session = rocprofiler::configure_with(sdk, |cfg| {
                let ctx = cfg.create_context()?;
                cfg.callback_tracing(&ctx, CallbackDomain::HIP_RUNTIME_API, &[], move |rec| {
                    if rec.is_exit() {
                        seen.lock().unwrap().push(rec.function_name().unwrap_or("?").to_string());
                    }
                })?;
                ctx.start()?;
                cfg.activity_session(ActivityConfig::default())
            })
            .expect("the setup ran");
            let kernels = session.collect(FamilySet::KERNEL);
            session.start().expect("collecting");

            // The program, played: a HIP call and a kernel dispatch on GPU 0.
            mock.api_call(CallbackDomain::HIP_RUNTIME_API.0, 3);
            let saxpy = mock.kernel_symbol(c"saxpy");
            mock.dispatch(mock.gpu_agent(0), 1, saxpy, 256, 1, 1, 64, 1, 1);
            mock.sync(); // its completion ran (HSA's async-signal thread)

            session.fence().expect("every record delivered");
            assert_eq!(kernels.take().kernels.len(), 1);
            assert_eq!(calls.lock().unwrap().len(), 1);
            mock.shutdown(); // process exit: the SDK finalizes the tool
        });
    }
}

/// Every example of the README that is a test is one of the modules above, whitespace aside: what
/// a reader copies is what runs here.
#[test]
fn the_readme_examples_are_the_ones_run_here() {
    let squeeze = |s: &str| s.split_whitespace().collect::<String>();
    let here = squeeze(include_str!("readme.rs"));
    let readme = include_str!("../README.md");
    let mut found = 0;
    for block in readme.split("```rust").skip(1) {
        let block = block.split_once('\n').map_or("", |(_, rest)| rest);
        let block = block.split("```").next().unwrap_or("");
        if block.contains("#[test]") {
            found += 1;
            assert!(here.contains(&squeeze(block)), "a README example is not in tests/readme.rs:\n{block}");
        }
    }
    assert_eq!(found, 3, "one example per vendor");
    // The tidier call is shown: `launch` (grid and block as arrays), not `launch_kernel`'s ten
    // positional integers.
    assert!(!readme.contains("launch_kernel("), "the README shows launch_kernel's positional call");
}
