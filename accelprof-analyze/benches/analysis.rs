//! The analysis over many synthetic ranks: its time and peak memory, next to HolisticTraceAnalysis (HTA)
//! loading the same events as JSON, in one run.
//!
//! 1. A small job (`--ranks` x `--hta-rows` events) written as Parquet and as JSON; our analysis and HTA's
//!    (`python/bench_hta.py`, when `--python` names an interpreter with HTA installed) alternate for
//!    `--rounds` rounds; medians. Each runs in a child process, whose peak RSS `wait4` reports.
//! 2. The large job (`--ranks` x `--rows` events, Parquet only; kept in `--dir` and reused when present):
//!    our analysis alone, with its time and peak RSS next to the data's size.
//!
//! ```text
//! cargo bench -p accelprof-analyze --bench analysis -- [--ranks 8] [--rows 10000000] [--hta-rows 200000]
//!     [--rounds 3] [--python python3] [--dir /tmp/accelprof-bench] [--memory-limit-mib 1024]
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use accelprof_export::parquet::{ParquetOptions, ParquetWriter};
use accelprof_export::synthetic::SyntheticRank;
use accelprof_export::trace::{ChromeTrace, RunMeta};

struct Args {
    ranks: u32,
    rows: u64,
    hta_rows: u64,
    rounds: usize,
    python: Option<String>,
    dir: PathBuf,
    memory_limit_mib: usize,
}

fn parse() -> Args {
    let mut a = Args {
        ranks: 8,
        rows: 10_000_000,
        hta_rows: 200_000,
        rounds: 3,
        python: None,
        // SAFETY: getuid has no preconditions.
        dir: std::env::temp_dir().join(format!("accelprof-bench-analysis-{}", unsafe { libc::getuid() })),
        memory_limit_mib: 1024,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut v = || it.next().expect("a value");
        match arg.as_str() {
            "--ranks" => a.ranks = v().parse().unwrap(),
            "--rows" => a.rows = v().parse().unwrap(),
            "--hta-rows" => a.hta_rows = v().parse().unwrap(),
            "--rounds" => a.rounds = v().parse().unwrap(),
            "--python" => a.python = Some(v()),
            "--dir" => a.dir = v().into(),
            "--memory-limit-mib" => a.memory_limit_mib = v().parse().unwrap(),
            _ => {} // cargo bench passes --bench
        }
    }
    a
}

const KERNELS_PER_STEP: u32 = 200;

/// Writes the job's ranks (two at a time); returns the bytes written and the seconds it took.
fn write_job(dir: &Path, ranks: u32, rows: u64, json: bool) -> (u64, u64, f64) {
    std::fs::create_dir_all(dir).unwrap();
    let t = Instant::now();
    let written: Vec<(u64, u64)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2u32)
            .map(|w| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for rank in (w..ranks).step_by(2) {
                        out.push(write_rank(dir, rank, ranks, rows, json));
                    }
                    out
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    let parquet = written.iter().map(|w| w.0).sum();
    let json_bytes = written.iter().map(|w| w.1).sum();
    (parquet, json_bytes, t.elapsed().as_secs_f64())
}

fn write_rank(dir: &Path, rank: u32, ranks: u32, rows: u64, json: bool) -> (u64, u64) {
    let mut spec = SyntheticRank::new(
        rank,
        ranks,
        SyntheticRank::steps_for_rows(rows, KERNELS_PER_STEP),
        KERNELS_PER_STEP,
    );
    // A straggler: rank 3's compute is 30% slower. No nested driver calls: HTA would count kernels twice.
    if rank == 3 {
        spec.slowdown = 1.3;
    }
    spec.nested_driver_calls = false;
    let meta = spec.meta();
    let mut w =
        ParquetWriter::create(dir.join(format!("rank{rank}.parquet")), &meta, ParquetOptions::default())
            .unwrap();
    // The synthetic run is CUPTI's: its style makes driver calls `cuda_driver`.
    let mut chrome =
        json.then(|| ChromeTrace::new(RunMeta { start_unix_ns: meta.clock.unix_ns, ..meta.clone() }));
    let time = meta.clock.time_map();
    spec.run(|b, n| {
        w.write_batch(b, n).unwrap();
        if let Some(c) = chrome.as_mut() {
            c.add_batch(b, n, &time);
        }
    });
    let parquet = w.finish().unwrap().bytes;
    let json_bytes = match chrome {
        Some(c) => {
            let path = dir.join(format!("rank{rank}.json"));
            c.write_to(&path).unwrap();
            std::fs::metadata(&path).unwrap().len()
        }
        None => 0,
    };
    (parquet, json_bytes)
}

/// Runs `cmd` to its end; returns seconds, its peak RSS in KiB, and its standard output.
// The child is reaped by `wait4`, which std's `wait` cannot replace (it does not return the rusage).
#[allow(clippy::zombie_processes)]
fn measured(cmd: &mut Command) -> (f64, u64, String) {
    let t = Instant::now();
    let err_path = std::env::temp_dir().join(format!("accelprof-bench-{}.stderr", std::process::id()));
    // O_EXCL (create_new): never through a link or into a file someone else made.
    let _ = std::fs::remove_file(&err_path);
    let err = std::os::unix::fs::OpenOptionsExt::mode(
        std::fs::OpenOptions::new().write(true).create_new(true),
        0o600,
    )
    .open(&err_path)
    .unwrap();
    let mut child = cmd.stdout(Stdio::piped()).stderr(err).spawn().expect("spawn");
    let mut out = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of that plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `child.id()` is our child, not yet waited for (std waits only in `wait`, which we do not
    // call); both out-pointers are valid for the call.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let _ = std::fs::remove_file(&err_path);
    let tail: String =
        stderr.lines().rev().take(20).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n");
    assert!(
        pid > 0 && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{cmd:?} failed: {status}\n{tail}"
    );
    (t.elapsed().as_secs_f64(), usage.ru_maxrss as u64, out)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ours(dir: &Path, memory_limit_mib: usize) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_accelprof-analyze"));
    cmd.arg("analyze").arg(dir).arg("--json").arg("--memory-limit").arg(memory_limit_mib.to_string());
    cmd
}

/// `dir`, made private (mode 0700) if new; an existing one is used only when it is a directory (not a
/// link), ours, and writable by nobody else: the job cached in it is read back and its files removed.
fn private_dir(dir: &Path) {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let meta = std::fs::symlink_metadata(dir).unwrap();
            // SAFETY: getuid has no preconditions.
            let ours = meta.uid() == unsafe { libc::getuid() };
            assert!(
                meta.is_dir() && ours && meta.mode() & 0o022 == 0,
                "{} is a link, another user's, or writable by others: pass --dir",
                dir.display()
            );
        }
        Err(e) => panic!("cannot create {}: {e}", dir.display()),
    }
}

fn main() {
    let a = parse();
    private_dir(&a.dir);
    let small = a.dir.join(format!("small-{}x{}", a.ranks, a.hta_rows));
    let big = a.dir.join(format!("big-{}x{}", a.ranks, a.rows));
    let _ = std::fs::remove_dir_all(&small);
    let (small_parquet, small_json, _) = write_job(&small, a.ranks, a.hta_rows, true);
    let json_per_event = small_json as f64 / (u64::from(a.ranks) * a.hta_rows) as f64;
    let (big_parquet, big_secs) = if big.join("done").exists() {
        (std::fs::read_to_string(big.join("done")).unwrap().trim().parse().unwrap(), None)
    } else {
        let _ = std::fs::remove_dir_all(&big);
        let (bytes, _, secs) = write_job(&big, a.ranks, a.rows, false);
        std::fs::write(big.join("done"), bytes.to_string()).unwrap();
        (bytes, Some(secs))
    };

    // 1. The small job: ours and HTA's, alternating.
    let hta_script = concat!(env!("CARGO_MANIFEST_DIR"), "/python/bench_hta.py");
    let (mut our_secs, mut our_rss, mut hta_secs, mut hta_rss, mut hta_child_rss) = (vec![], 0, vec![], 0, 0);
    for round in 0..a.rounds {
        let mut sides = vec![true, false];
        if round % 2 == 1 {
            sides.reverse();
        }
        for mine in sides {
            if mine {
                let (s, rss, _) = measured(&mut ours(&small, a.memory_limit_mib));
                our_secs.push(s);
                our_rss = our_rss.max(rss);
            } else if let Some(py) = &a.python {
                let (_, _, out) = measured(Command::new(py).arg(hta_script).arg(&small));
                let v: serde_json::Value = serde_json::from_str(out.trim().lines().last().unwrap()).unwrap();
                hta_secs.push(v["seconds"].as_f64().unwrap());
                hta_rss = hta_rss.max(v["maxrss_kib"].as_u64().unwrap());
                hta_child_rss = hta_child_rss.max(v["maxrss_children_kib"].as_u64().unwrap());
            }
        }
    }

    // 2. The large job: ours.
    let (big_time, big_rss, _) = measured(&mut ours(&big, a.memory_limit_mib));

    let events_small = u64::from(a.ranks) * a.hta_rows;
    let events_big = u64::from(a.ranks) * a.rows;
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!("small job: {} ranks x {} events = {events_small} events; JSON {:.1} MiB ({json_per_event:.0} B/event), Parquet {:.1} MiB", a.ranks, a.hta_rows, small_json as f64 / 1048576.0, small_parquet as f64 / 1048576.0);
    println!("  {:<34} {:>10} {:>14}", "", "seconds", "peak RSS MiB");
    println!(
        "  {:<34} {:>10.2} {:>14.1}",
        "ours (accelprof-analyze, Parquet)",
        median(our_secs.clone()),
        mib(our_rss)
    );
    if !hta_secs.is_empty() {
        let h = median(hta_secs.clone());
        println!(
            "  {:<34} {:>10.2} {:>14.1}   (+ largest parse worker {:.1} MiB)",
            "HTA 0.5 (JSON)",
            h,
            mib(hta_rss),
            mib(hta_child_rss)
        );
        println!(
            "  ratio: ours {:.1}x faster, {:.1}x less memory (HTA's main process alone)",
            h / median(our_secs.clone()),
            hta_rss as f64 / our_rss as f64
        );
    } else {
        println!("  HTA: not run (pass --python with HolisticTraceAnalysis installed)");
    }
    println!(
        "large job: {} ranks x {} events = {events_big} events; Parquet {:.1} MiB ({:.1} B/event), as JSON about {:.1} GiB{}",
        a.ranks,
        a.rows,
        big_parquet as f64 / 1048576.0,
        big_parquet as f64 / events_big as f64,
        json_per_event * events_big as f64 / 1073741824.0,
        big_secs.map_or(String::new(), |s| format!("; written in {s:.1} s ({:.2} M events/s)", events_big as f64 / s / 1e6))
    );
    println!(
        "  ours: {big_time:.1} s ({:.2} M events/s), peak RSS {:.1} MiB (memory limit {} MiB) = {:.2} of the Parquet files, {:.3} of the JSON",
        events_big as f64 / big_time / 1e6,
        mib(big_rss),
        a.memory_limit_mib,
        (big_rss * 1024) as f64 / big_parquet as f64,
        (big_rss * 1024) as f64 / (json_per_event * events_big as f64)
    );
}
