//! The record rate the engine sustains, per output format: the release `accel_profiling::Tracer` fed
//! by the mock libcupti (accelprof-mocks), a fresh process per run.
//!
//! Per round, in an order that rotates from round to round (paired, alternating rounds):
//! - the producer alone: the mock launching kernels as fast as it goes with no tracer (its launches
//!   then make no record), the baseline;
//! - per format, the engine under the lossless policy with the mock launching as fast as it goes
//!   (once the pool and its overflow buffers are out, the launching thread waits for the decoding):
//!   T = records delivered / the process's whole time (tracer made, launches, every output
//!   finished), with nothing dropped, and the peak RSS.
//!
//! - the engine with no output (`none`: records decoded and counted, nothing rendered), which
//!   separates the cost of collecting from that of writing.
//!
//! T / (the producer's launch rate alone x records per launch) is the share of the untraced
//! producer's rate the engine keeps up with: 1 would mean the producer, not the engine, is the
//! limit. Each figure is a geometric mean over the rounds with a 95 % bootstrap interval of the
//! per-round ratios (paired within a round). Next to it, the CPU time (user + system, every thread
//! of the process) per record: what the two cores of the development machine can give at most is
//! 2 s / that, whoever else runs.
//!
//! Then the lossy onset, per format: the engine under the lossy policy with the producer paced at
//! multiples of that format's T (and unpaced), the multiples alternating within each round; the
//! share of records dropped at each.
//!
//! ```text
//! cargo bench --bench record_rate -- [--seconds 2] [--rounds 5] [--lossy-rounds 3]
//!     [--formats none,json,json.gz,parquet,pftrace] [--no-lossy]
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use accel_profiling::{BufferPolicy, Distributed, Synchronize, Tracer, TracerConfig, Vendor};
use accelprof_mocks::cupti::{MockCupti, LIBRARY};

/// Set in a child's environment: what it runs (`untraced` or `FORMAT:POLICY`).
const CHILD: &str = "RECORD_RATE_CHILD";
/// How long each kernel lasts on the mock GPU's timeline, ns. The mock runs a stream's kernels one after
/// another and the final synchronize waits for the last to end, so a stream delivers at most 1 / this
/// kernels per second: at the mock's usual 2 us that was 0.5 M launches/s, 1.5 M records/s, whatever the
/// engine did. 100 ns puts that ceiling at 30 M records/s, far above what is measured.
const KERNEL_NS: u64 = 100;
/// The lossy runs' paces, as multiples of the format's lossless T (0: unpaced).
const LOSSY_FACTORS: [f64; 6] = [0.5, 0.8, 1.0, 1.25, 2.0, 0.0];

fn main() {
    if let Ok(what) = std::env::var(CHILD) {
        child(&what);
        return;
    }
    let mut args = std::env::args().skip(1);
    let (mut seconds, mut rounds, mut lossy_rounds) = (2.0f64, 5usize, 3usize);
    let mut formats = "none,json,json.gz,parquet,pftrace".to_owned();
    let mut lossy = true;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => seconds = args.next().and_then(|v| v.parse().ok()).expect("--seconds S"),
            "--rounds" => rounds = args.next().and_then(|v| v.parse().ok()).expect("--rounds N"),
            "--lossy-rounds" => {
                lossy_rounds = args.next().and_then(|v| v.parse().ok()).expect("--lossy-rounds N")
            }
            "--formats" => formats = args.next().expect("--formats LIST"),
            "--no-lossy" => lossy = false,
            _ => {} // cargo bench's own (--bench)
        }
    }
    let formats: Vec<&str> = formats.split(',').collect();
    let dir = private_dir();

    println!("{seconds} s of launching per run, {rounds} paired rounds, a fresh process per run");
    // Lossless: the untraced producer and each format, the order rotating per round.
    let mut modes: Vec<Option<&str>> = vec![None];
    modes.extend(formats.iter().map(|f| Some(*f)));
    let mut untraced = Vec::new();
    let mut lossless: Vec<Vec<Run>> = formats.iter().map(|_| Vec::new()).collect();
    for round in 0..rounds {
        for k in 0..modes.len() {
            match modes[(k + round) % modes.len()] {
                None => untraced.push(run(&dir, None, "lossless", 0.0, seconds)),
                Some(format) => {
                    let i = formats.iter().position(|f| *f == format).expect("a format");
                    let r = run(&dir, Some(format), "lossless", 0.0, seconds);
                    assert_eq!(r.dropped, 0, "{format}: records dropped under the lossless policy");
                    // The engine's default API filter applies while decoding: a call it leaves out is
                    // produced and counted as filtered, not delivered and not dropped.
                    assert_eq!(
                        r.delivered + r.filtered,
                        r.produced,
                        "{format}: every record delivered or filtered"
                    );
                    lossless[i].push(r);
                }
            }
        }
    }
    let producer: Vec<f64> = untraced.iter().map(|r| r.launches as f64 / r.launch_seconds).collect();
    let (p, p_lo, p_hi) = interval(&producer);
    println!(
        "\nproducer alone (the mock untraced): {:.3} M launches/s [{:.3}, {:.3}]",
        p / 1e6,
        p_lo / 1e6,
        p_hi / 1e6
    );
    println!("\nlossless: T = records delivered / process time (nothing dropped in any run); geometric means, 95 % bootstrap intervals");
    let cpu_alone: Vec<f64> = untraced.iter().map(|r| r.cpu / r.launches as f64).collect();
    println!(
        "producer alone: {:.3} us CPU per launch [{:.3}, {:.3}]",
        interval(&cpu_alone).0 * 1e6,
        interval(&cpu_alone).1 * 1e6,
        interval(&cpu_alone).2 * 1e6
    );
    println!(
        "| output | T, M records/s | producer alone, M records/s | T / producer | CPU us/record (2 cores: at most M records/s) | peak RSS, MiB | records/launch |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut ts = Vec::new();
    for (format, runs) in formats.iter().zip(&lossless) {
        let t: Vec<f64> = runs.iter().map(Run::throughput).collect();
        let per_launch =
            runs.iter().map(|r| r.produced as f64 / r.launches as f64).sum::<f64>() / runs.len() as f64;
        // Paired: round i's T over round i's untraced producer (in records/s).
        let alone: Vec<f64> = producer.iter().map(|l| l * per_launch).collect();
        let ratio: Vec<f64> = t.iter().zip(&alone).map(|(t, a)| t / a).collect();
        let rss: Vec<f64> = runs.iter().map(|r| r.rss_kib as f64 / 1024.0).collect();
        let (tm, tl, th) = interval(&t);
        let (am, al, ah) = interval(&alone);
        let (rm, rl, rh) = interval(&ratio);
        let rss_max = rss.iter().cloned().fold(0.0, f64::max);
        let cpu: Vec<f64> = runs.iter().map(|r| r.cpu / r.delivered.max(1) as f64 * 1e6).collect();
        let (cm, cl, ch) = interval(&cpu);
        println!(
            "| {format} | {:.3} [{:.3}, {:.3}] | {:.3} [{:.3}, {:.3}] | **{rm:.2}** [{rl:.2}, {rh:.2}] | {cm:.3} [{cl:.3}, {ch:.3}] ({:.2}) | {:.0} (max {rss_max:.0}) | {per_launch:.2} |",
            tm / 1e6,
            tl / 1e6,
            th / 1e6,
            am / 1e6,
            al / 1e6,
            ah / 1e6,
            2.0 / cm,
            geo_mean(&rss),
        );
        ts.push((tm, per_launch));
    }
    if lossy {
        println!("\nlossy onset: the producer paced at multiples of the format's T ({lossy_rounds} rounds, paces alternating); records/s produced (the pace reached) and share dropped, min..max over rounds");
        println!("| output | paced at | M records/s produced | dropped % |");
        println!("|---|---|---|---|");
        for (format, (t, per_launch)) in formats.iter().zip(&ts) {
            if *format == "none" {
                continue; // nothing written: the onset of the formats is what is asked
            }
            let mut by_factor: Vec<Vec<Run>> = LOSSY_FACTORS.iter().map(|_| Vec::new()).collect();
            for round in 0..lossy_rounds {
                for k in 0..LOSSY_FACTORS.len() {
                    let i = (k + round) % LOSSY_FACTORS.len();
                    let rate = t * LOSSY_FACTORS[i] / per_launch;
                    by_factor[i].push(run(&dir, Some(format), "lossy", rate, seconds));
                }
            }
            for (factor, runs) in LOSSY_FACTORS.iter().zip(&by_factor) {
                let label = if *factor == 0.0 { "unpaced".to_owned() } else { format!("{factor} T") };
                let produced: Vec<f64> = runs.iter().map(|r| r.produced as f64 / r.launch_seconds).collect();
                let dropped: Vec<f64> =
                    runs.iter().map(|r| 100.0 * r.dropped as f64 / r.produced.max(1) as f64).collect();
                let lo = dropped.iter().cloned().fold(f64::INFINITY, f64::min);
                let hi = dropped.iter().cloned().fold(0.0, f64::max);
                println!(
                    "| {format} | {label} | {:.3} | {lo:.2}..{hi:.2} |",
                    produced.iter().sum::<f64>() / produced.len() as f64 / 1e6
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory of this user's only (0700), new: nothing another user made is written into.
fn private_dir() -> PathBuf {
    use std::os::unix::fs::DirBuilderExt;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    let dir = std::env::temp_dir().join(format!("accelprof-record-rate-{}-{nanos}", std::process::id()));
    std::fs::DirBuilder::new().mode(0o700).create(&dir).expect("a new private directory");
    dir
}

/// Geometric mean and its 95 % percentile-bootstrap interval (2,000 resamples of the values, with
/// replacement; a fixed seed, so a run's figures can be recomputed).
fn interval(values: &[f64]) -> (f64, f64, f64) {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let n = values.len();
    let mut means: Vec<f64> = (0..2000)
        .map(|_| {
            let logs: f64 = (0..n).map(|_| values[(next() % n as u64) as usize].ln()).sum();
            (logs / n as f64).exp()
        })
        .collect();
    means.sort_by(f64::total_cmp);
    (geo_mean(values), means[50], means[1949])
}

fn geo_mean(values: &[f64]) -> f64 {
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

/// What one child process reported.
#[derive(Debug)]
struct Run {
    launches: u64,
    /// Seconds the launching took.
    launch_seconds: f64,
    /// Seconds from the tracer's creation to its outputs finished.
    seconds: f64,
    produced: u64,
    delivered: u64,
    dropped: u64,
    /// Left out by the API filter while decoding (neither delivered nor dropped).
    filtered: u64,
    rss_kib: u64,
    /// CPU seconds of the whole process (user + system).
    cpu: f64,
}

impl Run {
    fn throughput(&self) -> f64 {
        self.delivered as f64 / self.seconds
    }
}

fn run(dir: &Path, format: Option<&str>, policy: &str, launches_per_s: f64, seconds: f64) -> Run {
    let what = format.map_or("untraced".to_owned(), |f| format!("{f}:{policy}"));
    let out = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, &what)
        .env("RECORD_RATE_DIR", dir)
        .env("RECORD_RATE_LAUNCHES_PER_S", launches_per_s.to_string())
        .env("RECORD_RATE_SECONDS", seconds.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let f: Vec<f64> = stdout.split_whitespace().map(|v| v.parse().expect("a number")).collect();
    assert_eq!(f.len(), 9, "{what}: {stdout}");
    Run {
        launches: f[0] as u64,
        launch_seconds: f[1],
        seconds: f[2],
        produced: f[3] as u64,
        delivered: f[4] as u64,
        dropped: f[5] as u64,
        rss_kib: f[6] as u64,
        cpu: f[7],
        filtered: f[8] as u64,
    }
}

/// The traced program: the engine on the mock (unless `untraced`), kernels at the rate asked for
/// the time asked, the engine stopped (every output finished). Prints launches, launching seconds,
/// whole seconds, produced, delivered, dropped, peak RSS (KiB), CPU seconds, filtered.
fn child(what: &str) {
    let rate: f64 = std::env::var("RECORD_RATE_LAUNCHES_PER_S").unwrap().parse().unwrap();
    let seconds: f64 = std::env::var("RECORD_RATE_SECONDS").unwrap().parse().unwrap();
    let dir = PathBuf::from(std::env::var_os("RECORD_RATE_DIR").unwrap());
    let m: &'static MockCupti = Box::leak(Box::new(MockCupti::open(LIBRARY).expect("the mock's controls")));
    m.reset();
    let started = Instant::now();
    if what == "untraced" {
        let (launches, launching) = produce(m, rate, seconds);
        let whole = started.elapsed().as_secs_f64();
        println!("{launches} {launching} {whole} 0 0 0 {} {} 0", peak_rss_kib(), cpu_seconds());
        return;
    }
    let (format, policy) = what.split_once(':').expect("FORMAT:POLICY");
    let trace = dir.join(format!("trace.{}.{format}", std::process::id()));
    let outputs = if format == "none" { vec![] } else { vec![trace.as_path().into()] };
    let tracer = Tracer::new(TracerConfig {
        vendor: Vendor::Cupti,
        library: Some(LIBRARY.into()),
        outputs,
        distributed: Some(Distributed::default()),
        // The mock's cudaDeviceSynchronize: CUPTI's fence then proves every record is in.
        synchronize: Some(Synchronize::new(move || {
            m.device_synchronize();
            Ok(true)
        })),
        policy: if policy == "lossy" { BufferPolicy::Lossy } else { BufferPolicy::Lossless },
        ..TracerConfig::default()
    })
    .expect("the engine on the mock");
    tracer.start().expect("collecting");
    let (launches, launching) = produce(m, rate, seconds);
    let report = tracer.stop();
    let whole = started.elapsed().as_secs_f64();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(report.traces.iter().all(|t| t.result.is_ok()), "{:?}", report.traces);
    let c = &report.counts;
    println!(
        "{launches} {launching} {whole} {} {} {} {} {} {}",
        c.produced(),
        c.delivered(),
        c.dropped(),
        peak_rss_kib(),
        cpu_seconds(),
        c.filtered()
    );
    let _ = std::fs::remove_file(&trace);
}

/// Launches at `rate` launches/s (0: as fast as the mock goes) for `seconds`; the launches and the
/// seconds they took.
fn produce(m: &MockCupti, rate: f64, seconds: f64) -> (u64, f64) {
    let name = c"_ZN4demo6kernelEv";
    let start = Instant::now();
    let mut launches = 0u64;
    loop {
        let elapsed = start.elapsed().as_secs_f64();
        if elapsed >= seconds {
            break;
        }
        let due = if rate > 0.0 { (elapsed * rate) as u64 } else { launches + 1024 };
        while launches < due {
            m.launch_kernel(name, 4, 2, 1, 128, 1, 1, 0, 7, KERNEL_NS);
            launches += 1;
        }
        if rate > 0.0 {
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    (launches, start.elapsed().as_secs_f64())
}

/// CPU time of the whole process so far (every thread, user + system), seconds.
fn cpu_seconds() -> f64 {
    // SAFETY: `getrusage` fills the struct it is given; an all-zero `rusage` is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid out-pointer.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The process's peak resident set (`VmHWM`), KiB.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
