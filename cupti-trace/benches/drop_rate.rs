//! At what record rate the tracer starts to drop, per output format: the injected tracer (this build's
//! `libcupti_trace.so`) fed by the mock libcupti, a fresh process per run.
//!
//! For each format: one run under the lossless policy with the mock launching as fast as it can (the
//! producer is slowed to what the tracer sustains once the buffers are full; the records delivered over
//! the process's whole time, nothing dropped, are the tracer's throughput T), then runs under the lossy policy paced at fractions and multiples of T and unpaced,
//! reporting the share of records dropped, and both policies with two producer threads unpaced. Default
//! buffers (16 x 4 MiB, 64 overflow), one producer
//! thread, one kernel name.
//!
//! ```text
//! cargo bench -p cupti-trace --bench drop_rate -- [--seconds 4] [--formats json,json.gz,parquet,pftrace]
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use accelprof_mocks::cupti::MockCupti;

const CHILD: &str = "DROP_RATE_CHILD";

fn main() {
    if std::env::var_os(CHILD).is_some() {
        child();
        return;
    }
    let mut args = std::env::args().skip(1);
    let (mut seconds, mut formats) = (4.0f64, "json,json.gz,parquet,pftrace".to_owned());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => seconds = args.next().and_then(|v| v.parse().ok()).expect("--seconds S"),
            "--formats" => formats = args.next().expect("--formats LIST"),
            _ => {} // cargo bench's own (--bench)
        }
    }
    let dir = std::env::temp_dir().join(format!("cupti-trace-drop-rate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    println!("{seconds} s per run; records/s are the producer's (launches x records per launch)");
    println!("| output | policy | paced at | records/s produced | delivered | dropped | dropped % |");
    println!("|---|---|---|---|---|---|---|");
    // The baseline: the mock's own launch rate, no tracer injected (its launches then produce no record).
    let untraced = untraced(seconds);
    println!("| (none) | untraced | unpaced | {:.3} M launches/s | | | |", untraced / 1e6);
    for format in formats.split(',') {
        let lossless = run(&dir, format, "lossless", 0.0, seconds, 1);
        row(format, "lossless", "unpaced", &lossless);
        // What the tracer sustains: every record delivered over the whole process's time (the producer
        // may run ahead by the pool and its overflow buffers, which the tracer drains before exit).
        let t = lossless.delivered as f64 / lossless.wall;
        let per_launch = lossless.produced as f64 / lossless.launches as f64;
        println!(
            "| {format} | lossless | T = delivered / process time | {:.3} M ({per_launch:.2} per launch; \
             {:.2} of the untraced launch rate) | | | |",
            t / 1e6,
            t / per_launch / untraced
        );
        for (label, factor) in
            [("0.5 T", 0.5), ("0.8 T", 0.8), ("1.25 T", 1.25), ("2 T", 2.0), ("unpaced", 0.0)]
        {
            let r = run(&dir, format, "lossy", t * factor / per_launch, seconds, 1);
            row(format, "lossy", label, &r);
        }
        let r = run(&dir, format, "lossy", 0.0, seconds, 2);
        row(format, "lossy", "unpaced, 2 threads", &r);
        let r = run(&dir, format, "lossless", 0.0, seconds, 2);
        row(format, "lossless", "unpaced, 2 threads", &r);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

struct Run {
    launches: u64,
    produced: u64,
    delivered: u64,
    dropped: u64,
    seconds: f64,
    wall: f64,
}

impl Run {
    fn rate(&self) -> f64 {
        self.produced as f64 / self.seconds
    }
}

fn row(format: &str, policy: &str, paced: &str, r: &Run) {
    println!(
        "| {format} | {policy} | {paced} | {:.3} M | {} | {} | {:.1} |",
        r.rate() / 1e6,
        r.delivered,
        r.dropped,
        100.0 * r.dropped as f64 / (r.delivered + r.dropped).max(1) as f64
    );
}

/// Launches/s of the mock alone, one thread, unpaced.
fn untraced(seconds: f64) -> f64 {
    let out = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .env("DROP_UNTRACED", "1")
        .env("DROP_LAUNCHES_PER_S", "0")
        .env("DROP_SECONDS", seconds.to_string())
        .env_remove("CUDA_INJECTION64_PATH")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut fields = stdout.split_whitespace().map(|f| f.parse::<f64>().unwrap());
    let (launches, elapsed) = (fields.next().unwrap(), fields.next().unwrap());
    launches / elapsed
}

/// The tracer library of this build (next to the benchmark executable).
fn tracer() -> PathBuf {
    std::env::current_exe().unwrap().with_file_name("libcupti_trace.so")
}

fn run(dir: &Path, format: &str, policy: &str, launches_per_s: f64, seconds: f64, threads: usize) -> Run {
    let trace = dir.join(format!("trace.{format}"));
    let summary = dir.join("summary.json");
    let _ = std::fs::remove_file(&summary);
    let started = Instant::now();
    let out = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .env("DROP_LAUNCHES_PER_S", launches_per_s.to_string())
        .env("DROP_SECONDS", seconds.to_string())
        .env("DROP_THREADS", threads.to_string())
        .env("CUPTI_LIBRARY_PATH", accelprof_mocks::cupti::LIBRARY)
        .env("CUDA_INJECTION64_PATH", tracer())
        .env("CUPTI_TRACE_OUTPUT", &trace)
        .env("CUPTI_TRACE_SUMMARY", "0")
        .env("CUPTI_TRACE_SUMMARY_JSON", &summary)
        .env("CUPTI_TRACE_POLICY", policy)
        .output()
        .unwrap();
    let wall = started.elapsed().as_secs_f64();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut fields = stdout.split_whitespace();
    let launches: u64 = fields.next().and_then(|v| v.parse().ok()).expect("launches");
    let elapsed: f64 = fields.next().and_then(|v| v.parse().ok()).expect("seconds");
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    let delivered = s["records_delivered"].as_u64().unwrap();
    let dropped = s["records_dropped"].as_u64().unwrap();
    let _ = std::fs::remove_file(&trace);
    Run { launches, produced: delivered + dropped, delivered, dropped, seconds: elapsed, wall }
}

/// The traced program: what the driver does at `cuInit`, then kernels at the rate asked (launches/s; 0:
/// as fast as the mock goes) for the time asked. Prints the launches and the seconds the
/// launching took; the tracer finishes at exit.
fn child() {
    let rate: f64 = std::env::var("DROP_LAUNCHES_PER_S").unwrap().parse().unwrap();
    let seconds: f64 = std::env::var("DROP_SECONDS").unwrap().parse().unwrap();
    let m = MockCupti::open(accelprof_mocks::cupti::LIBRARY).expect("the mock libcupti's controls");
    m.reset();
    if std::env::var_os("DROP_UNTRACED").is_some() {
        produce(&m, rate, seconds, 1);
        return;
    }
    // SAFETY: the tracer library's initialisers are Rust statics only.
    let lib =
        unsafe { libloading::Library::new(std::env::var_os("CUDA_INJECTION64_PATH").unwrap()) }.unwrap();
    // SAFETY: `int InitializeInjection(void)`, as the CUDA driver calls it.
    let init = unsafe { lib.get::<unsafe extern "C" fn() -> i32>(b"InitializeInjection\0") }.unwrap();
    // SAFETY: as above.
    assert_eq!(unsafe { init() }, 1);
    std::mem::forget(lib);
    let threads: usize = std::env::var("DROP_THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    produce(&m, rate, seconds, threads);
}

/// Launches on `threads` threads at `rate` launches/s in all (0: unpaced) for `seconds`; prints the
/// launches and the seconds it took.
fn produce(m: &MockCupti, rate: f64, seconds: f64, threads: usize) {
    let name = c"_ZN4demo6kernelEv";
    let start = Instant::now();
    let launches: u64 = std::thread::scope(|scope| {
        let producers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(move || {
                    let rate = rate / threads as f64;
                    let mut launches = 0u64;
                    loop {
                        let elapsed = start.elapsed().as_secs_f64();
                        if elapsed >= seconds {
                            return launches;
                        }
                        let due = if rate > 0.0 { (elapsed * rate) as u64 } else { launches + 1024 };
                        while launches < due {
                            m.launch(name, [4, 2, 1], [128, 1, 1], 0, 7);
                            launches += 1;
                        }
                        if rate > 0.0 {
                            std::thread::sleep(Duration::from_micros(200));
                        }
                    }
                })
            })
            .collect();
        producers.into_iter().map(|p| p.join().unwrap()).sum()
    });
    println!("{launches} {}", start.elapsed().as_secs_f64());
}
