//! `accelprof recover`: bounded memory (a trace whose last line never ends, here 512 MiB of zeros, and
//! as much again as the executable's size, as a torn write or `/dev/zero` behind the name would give,
//! is closed under an address-space limit of the executable's size and 160 MiB),
//! and names printed escaped. (Ported from cupti-trace's tests of its retired tracer.)

use std::path::PathBuf;
use std::process::Command;

#[test]
fn recover_closes_a_trace_with_an_endless_line_in_bounded_memory() {
    let dir = std::env::temp_dir().join(format!("accelprof-recover-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let partial: PathBuf = dir.join("t.partial-7.json");
    let head = "{\n  \"traceEvents\": [\n    {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \
                \"ts\": 1.0, \"dur\": 1.0},\n";
    std::fs::write(&partial, head).unwrap();
    // The command's own mappings (a debug build with DataFusion maps over 140 MB of code) are
    // counted by the limit: the limit and the zeros both grow by the executable's size, so that the
    // zeros never fit under it.
    let exe = env!("CARGO_BIN_EXE_accelprof");
    let exe_len = std::fs::metadata(exe).unwrap().len();
    let limit_kib = exe_len / 1024 + (160 << 10);
    let zeros: u64 = (512 << 20) + exe_len;
    assert!(zeros > limit_kib * 1024);
    // Sparse: no disk is used.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&partial)
        .unwrap()
        .set_len(head.len() as u64 + zeros)
        .unwrap();

    let out = Command::new("sh")
        .args(["-c", &format!("ulimit -v {limit_kib} && exec \"$0\" recover \"$1\"")])
        .arg(exe)
        .arg(&partial)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(
        stderr.contains(&format!("(1 events kept, {zeros} bytes of a torn last write left out)")),
        "{stderr}"
    );
    let trace: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("t.json")).unwrap()).unwrap();
    assert_eq!(trace["traceRecovered"]["dropped_bytes"], zeros);
    assert_eq!(trace["traceEvents"][0]["name"], "k");
    assert!(!partial.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file name with an escape sequence (clear the screen) reached the terminal raw in the error line.
#[test]
fn recover_prints_names_with_their_control_characters_escaped() {
    let dir = std::env::temp_dir().join(format!("accelprof-recover-names-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let name = dir.join("x\x1b[2J.partial-1.json");
    let out = Command::new(env!("CARGO_BIN_EXE_accelprof")).arg("recover").arg(&name).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("x\\u{1b}[2J.partial-1.json") && !stderr.contains('\x1b'), "{stderr:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
