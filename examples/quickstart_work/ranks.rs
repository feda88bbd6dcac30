//! `--ranks N`: a simulated job of N ranks, one process each, as torch.distributed starts them
//! (`RANK`, `WORLD_SIZE`, `LOCAL_RANK` set); each writes its own trace (`trace_%r.json` unless
//! `--output` names another file with `%r` in it).

use std::process::{Command, ExitCode, Stdio};

use super::Args;

/// Starts the ranks, waits for them, prints what each printed (prefixed with its rank).
pub fn run(ranks: u32, args: &Args) -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The same command line without `--ranks N`.
    let mut passed = Vec::new();
    let mut it = args.raw.iter();
    while let Some(a) = it.next() {
        if a == "--ranks" {
            it.next();
        } else {
            passed.push(a.clone());
        }
    }
    if args.output.is_none() {
        passed.extend(["--output".to_owned(), "trace_%r.json".to_owned()]);
    }
    let children: Vec<_> = (0..ranks)
        .map(|rank| {
            Command::new(&exe)
                .args(&passed)
                .env("RANK", rank.to_string())
                .env("WORLD_SIZE", ranks.to_string())
                .env("LOCAL_RANK", rank.to_string())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
        })
        .collect();
    let mut ok = true;
    for (rank, child) in children.into_iter().enumerate() {
        let out = match child.and_then(|c| c.wait_with_output()) {
            Ok(out) => out,
            Err(e) => {
                eprintln!("[rank {rank}] could not run: {e}");
                ok = false;
                continue;
            }
        };
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            println!("[rank {rank}] {line}");
        }
        for line in String::from_utf8_lossy(&out.stderr).lines() {
            eprintln!("[rank {rank}] {line}");
        }
        if !out.status.success() {
            eprintln!("[rank {rank}] failed: {}", out.status);
            ok = false;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
