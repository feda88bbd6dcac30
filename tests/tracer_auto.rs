//! `Vendor::Auto`: which library the tracer takes, and what it says when there is none. Each case
//! runs in a child process whose environment points the vendors' searches at the mocks or at
//! nothing (`CUPTI_LIBRARY_PATH`, `ROCPROFILER_LIBRARY_PATH`, `MSPTI_LIBRARY_PATH`).

mod support;

use std::path::Path;

use accel_profiling::{Tracer, TracerConfig, TracerError, Vendor};
use support::{in_child, ChildEnv};

const NO_CUPTI: &str = "/nonexistent/accel-tracer-test/libcupti.so";
const NO_ROCPROFILER: &str = "/nonexistent/accel-tracer-test/librocprofiler-sdk.so";
const NO_MSPTI: &str = "/nonexistent/accel-tracer-test/libmspti.so";

/// Nothing of the vendors' usual places in the environment, each vendor's variable naming `cupti`,
/// `rocprofiler` and `mspti` (a path each).
fn env(cupti: &str, rocprofiler: &str, mspti: &str) -> ChildEnv {
    let mut env =
        if mspti == accelprof_mocks::mspti::LIBRARY { ChildEnv::mspti_found() } else { ChildEnv::new() };
    for var in [
        "CUDA_HOME",
        "CUDA_PATH",
        "ROCM_PATH",
        "ASCEND_TOOLKIT_HOME",
        "VIRTUAL_ENV",
        "CONDA_PREFIX",
        "PYTHONPATH",
    ] {
        env = env.remove(var);
    }
    if mspti != accelprof_mocks::mspti::LIBRARY {
        env = env.remove("ASCEND_HOME_PATH");
    }
    env.set("CUPTI_LIBRARY_PATH", cupti)
        .set("ROCPROFILER_LIBRARY_PATH", rocprofiler)
        .set("MSPTI_LIBRARY_PATH", mspti)
}

fn auto() -> TracerConfig {
    TracerConfig::default()
}

#[test]
fn with_nothing_found_the_error_lists_what_each_vendor_tried() {
    if !in_child(
        "with_nothing_found_the_error_lists_what_each_vendor_tried",
        env(NO_CUPTI, NO_ROCPROFILER, NO_MSPTI),
    ) {
        return;
    }
    let e = match Tracer::new(auto()) {
        Err(e) => e,
        // A vendor library installed where the search looks: the test cannot show the error here, and
        // says so by failing (a skip would count as a pass).
        Ok(t) => panic!(
            "this machine has {} installed where the tracer's search looks: run this test where no vendor \
             library is installed",
            t.library()
        ),
    };
    let TracerError::NotFound { attempts } = &e else { panic!("{e}") };
    let vendors: Vec<Vendor> = attempts.iter().map(|a| a.vendor).collect();
    assert_eq!(vendors, [Vendor::Cupti, Vendor::Rocprofiler, Vendor::Mspti], "{e}");
    for (attempt, path, var) in [
        (&attempts[0], NO_CUPTI, "CUPTI_LIBRARY_PATH"),
        (&attempts[1], NO_ROCPROFILER, "ROCPROFILER_LIBRARY_PATH"),
        (&attempts[2], NO_MSPTI, "MSPTI_LIBRARY_PATH"),
    ] {
        let tried = attempt.tried.iter().find(|t| t.path == Path::new(path));
        let tried = tried.unwrap_or_else(|| panic!("{} tried ${var}: {attempt}", attempt.vendor));
        assert!(tried.origin.contains(var), "{tried}");
        assert!(attempt.tried.len() > 1, "and the vendor's other places: {attempt}");
    }
    let text = format!("{e:?}");
    assert!(text.starts_with("no accelerator profiling library found here\n- CUPTI: "), "{text}");
    assert!(text.contains(NO_CUPTI) && text.contains(NO_ROCPROFILER) && text.contains(NO_MSPTI), "{text}");
    // Nothing to prepare without a library.
    Tracer::prepare_process(&auto()).expect("nothing found: nothing to do");
}

/// The vendor `Auto` takes with the mocks found by `env`.
fn auto_takes(name: &str, env: ChildEnv, expected: Vendor) {
    if !in_child(name, env) {
        return;
    }
    let info = Tracer::locate(&auto()).expect("a library is found");
    assert_eq!(info.vendor, expected, "{info}");
    let tracer = Tracer::new(auto()).expect("a tracer on it");
    assert_eq!(tracer.vendor(), expected);
    tracer.start().expect("start");
    assert!(tracer.stop().counts.adds_up());
}

#[test]
fn auto_takes_cupti_first() {
    let env = env(
        accelprof_mocks::cupti::LIBRARY,
        accelprof_mocks::rocprofiler::LIBRARY,
        accelprof_mocks::mspti::LIBRARY,
    );
    auto_takes("auto_takes_cupti_first", env, Vendor::Cupti);
}

#[test]
fn auto_takes_rocprofiler_when_there_is_no_cupti() {
    let env = env(NO_CUPTI, accelprof_mocks::rocprofiler::LIBRARY, accelprof_mocks::mspti::LIBRARY);
    auto_takes("auto_takes_rocprofiler_when_there_is_no_cupti", env, Vendor::Rocprofiler);
}

#[test]
fn auto_takes_mspti_when_it_is_all_there_is() {
    let env = env(NO_CUPTI, NO_ROCPROFILER, accelprof_mocks::mspti::LIBRARY);
    auto_takes("auto_takes_mspti_when_it_is_all_there_is", env, Vendor::Mspti);
}

#[test]
fn a_libcupti_that_cannot_reach_a_gpu_driver_is_passed_over() {
    let env = env(accelprof_mocks::cupti::LIBRARY, accelprof_mocks::rocprofiler::LIBRARY, NO_MSPTI);
    if !in_child("a_libcupti_that_cannot_reach_a_gpu_driver_is_passed_over", env) {
        return;
    }
    // A machine without an NVIDIA driver: libcupti loads, and refuses to subscribe.
    // (The controls' handle is kept: the last handle's dlclose would unload the mock and its state.)
    let mock = accelprof_mocks::cupti::MockCupti::open(accelprof_mocks::cupti::LIBRARY)
        .expect("the mock libcupti's controls");
    mock.set_driver_present(0);
    let info = Tracer::locate(&auto()).expect("rocprofiler-sdk is found");
    assert_eq!(info.vendor, Vendor::Rocprofiler, "CUPTI without a driver is passed over: {info}");
    let cupti = TracerConfig { vendor: Vendor::Cupti, ..auto() };
    let e = Tracer::locate(&cupti).expect_err("asked for CUPTI by name: not found either");
    let attempt = &e.attempts()[0];
    assert_eq!(attempt.vendor, Vendor::Cupti);
    assert!(attempt.reason.contains("loads, but CUPTI cannot reach a GPU driver"), "{e}");
    assert!(attempt.reason.contains("no NVIDIA GPU driver"), "the vendor crate's advice: {e}");
    drop(mock);
}

#[test]
fn a_library_file_needs_its_vendor() {
    let config = TracerConfig { library: Some(accelprof_mocks::cupti::LIBRARY.into()), ..auto() };
    let e = Tracer::new(config).expect_err("whose file is it?");
    assert!(matches!(&e, TracerError::Config(m) if m.contains("TracerConfig::vendor")), "{e}");
}
