//! The traced program of the tests: what each scenario does on the mock once the tracer is injected.

use std::path::Path;
use std::time::Duration;

use super::{child_init, launch, SCENARIO};

pub fn kernel_name(tag: &str) -> std::ffi::CString {
    // `_ZN4demo<len><tag>Ev`: demangled `demo::<tag>()`.
    std::ffi::CString::new(format!("_ZN4demo{}{tag}Ev", tag.len())).unwrap()
}

/// Waits until the file `flag` exists (the parent's go-ahead).
fn wait_for_file(flag: &Path) {
    for _ in 0..3000 {
        if flag.exists() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no {}", flag.display());
}

/// The traced program: plays the scenario named by [`SCENARIO`].
pub fn run() {
    let scenario = std::env::var(SCENARIO).expect("run by a test of this file");
    if scenario == "devices" {
        // A CUDA program: its driver (the mock libcuda.so.1, two GPUs) is loaded, runs the tracer inside
        // cuInit (the driver answers device queries only once cuInit returns), then kernels.
        let driver = accelprof_mocks::cuda::MockCuda::open(accelprof_mocks::cuda::LIBRARY)
            .expect("the mock CUDA driver");
        driver.reset();
        driver.set_device_count(2);
        let m = child_init();
        driver.init().expect("cuInit of the mock driver");
        for i in 0..50 {
            launch(&m, &kernel_name("kernel"), 3 + i % 2);
        }
        m.memcpy(0x1, 0x2, 4096, 1, 3, 0, 1_000);
        // The driver stays loaded until the process ends (the tracer finishes at exit).
        std::mem::forget(driver);
        return;
    }
    if scenario == "sigpipe_default" {
        // SIGPIPE at its default, as a C program has it (Rust's runtime ignores it): a write of the
        // tracer's to a pipe whose reader went away would kill the program.
        // SAFETY: signal(2) with the default disposition, before any thread of the tracer runs.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    }
    let m = child_init();
    let dir = std::env::var("TEST_DIR").map(std::path::PathBuf::from).unwrap_or_default();
    match scenario.as_str() {
        "wait" => {
            for _ in 0..50 {
                launch(&m, &kernel_name("kernel"), 3);
            }
            m.memcpy(0x1, 0x2, 4096, 1, 3, 0, 1_000);
            // Until the signal: the program keeps launching work.
            let later = kernel_name("later");
            let mut announced = false;
            loop {
                launch(&m, &later, 4);
                if !announced {
                    // Give the periodic flush a chance to stream the first batch.
                    std::thread::sleep(Duration::from_millis(400));
                    println!("ready");
                    announced = true;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        "segv" | "abort" | "exit" => {
            for _ in 0..50 {
                launch(&m, &kernel_name("kernel"), 3);
            }
            // The periodic flush (200 ms here) streams them to the file.
            std::thread::sleep(Duration::from_millis(1_500));
            println!("ready");
            match scenario.as_str() {
                // SAFETY: ending the process on purpose, as a crash would (Rust's own SIGSEGV handler, for
                // stack overflows, is put back to the default first).
                "segv" => unsafe {
                    libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                    libc::raise(libc::SIGSEGV);
                },
                "abort" => std::process::abort(),
                // SAFETY: as above; _exit skips the atexit handlers.
                _ => unsafe { libc::_exit(3) },
            }
            unreachable!();
        }
        "toggle" => {
            for _ in 0..10 {
                launch(&m, &kernel_name("before"), 3);
            }
            println!("ready1");
            wait_for_file(&dir.join("go1"));
            for _ in 0..10 {
                launch(&m, &kernel_name("paused"), 3);
            }
            println!("ready2");
            wait_for_file(&dir.join("go2"));
            for _ in 0..10 {
                launch(&m, &kernel_name("after"), 3);
            }
        }
        "ranges" => {
            let (start, stop) =
                (cupti::RuntimeCbid::cudaProfilerStart_v4000.0, cupti::RuntimeCbid::cudaProfilerStop_v4000.0);
            let call = |cbid| m.api_call(2, cbid, None, 0);
            for round in [7, 3] {
                for _ in 0..5 {
                    launch(&m, &kernel_name("outside"), 3);
                }
                call(start);
                for _ in 0..round {
                    launch(&m, &kernel_name("inside"), 3);
                }
                call(stop);
            }
            for _ in 0..5 {
                launch(&m, &kernel_name("outside"), 3);
            }
        }
        "duration" => {
            for _ in 0..5 {
                launch(&m, &kernel_name("early"), 3);
            }
            let output = std::env::var("ACCELPROF_OUTPUT").unwrap();
            for _ in 0..500 {
                if Path::new(&output).exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            assert!(Path::new(&output).exists(), "the trace is written at the end of the window");
            for _ in 0..5 {
                launch(&m, &kernel_name("late"), 3);
            }
            println!("ran on after the window");
        }
        "another_client" => {
            // PyTorch's profiler in the same process (the mock's foreign client, in Kineto's order of
            // calls) starts after the tracer: its buffer callbacks replace ours for the whole process.
            for _ in 0..10 {
                launch(&m, &kernel_name("before"), 3);
            }
            assert_eq!(m.foreign_start(), 0);
            println!("its cuptiSubscribe returned {}", m.foreign_stat(c"subscribe_result"));
            for _ in 0..20 {
                launch(&m, &kernel_name("while_both"), 3);
            }
            assert_eq!(m.foreign_stop(), 0);
            println!("it got {} of our buffers", m.foreign_stat(c"unknown_buffers"));
        }
        "sigpipe_default" => {
            for _ in 0..10 {
                launch(&m, &kernel_name("kernel"), 3);
            }
        }
        "many" => {
            for _ in 0..3000 {
                launch(&m, &kernel_name("kernel"), 3);
            }
        }
        "reexec" => {
            // A program that replaces itself with exec (same pid), twice: each image a CUDA program of
            // its own, its kernels named after it, streamed (the flush period) before the next exec.
            let left: u32 = std::env::var("REEXEC_LEFT").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
            for _ in 0..5 {
                launch(&m, &kernel_name(&format!("image{left}")), 3);
            }
            std::thread::sleep(Duration::from_millis(800));
            if left > 0 {
                use std::os::unix::process::CommandExt;
                let err = std::process::Command::new(std::env::current_exe().unwrap())
                    .args(std::env::args_os().skip(1))
                    .env("REEXEC_LEFT", (left - 1).to_string())
                    .exec();
                panic!("exec: {err}");
            }
        }
        "killed" => {
            // Two flush periods' worth of kernels, a second apart (a Parquet row group ends at the first
            // batch a second after the last), then SIGKILL: no exit handler runs.
            for round in 0..3 {
                for _ in 0..50 {
                    launch(&m, &kernel_name("kernel"), 3);
                }
                std::thread::sleep(Duration::from_millis(if round < 2 { 1_100 } else { 600 }));
            }
            // SAFETY: ending the process on purpose, as the OOM killer would.
            unsafe { libc::raise(libc::SIGKILL) };
        }
        other => panic!("unknown scenario {other}"),
    }
}
