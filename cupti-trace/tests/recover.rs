//! `cupti-trace recover`: bounded memory (a trace whose last line never ends, here 512 MiB of zeros as a
//! torn write or `/dev/zero` behind the name would give, is closed under a 160 MiB address-space limit),
//! and names printed escaped.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn recover_closes_a_trace_with_an_endless_line_in_bounded_memory() {
    let dir = std::env::temp_dir().join(format!("cupti-trace-recover-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let partial: PathBuf = dir.join("t.partial-7.json");
    let head = "{\n  \"traceEvents\": [\n    {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \
                \"ts\": 1.0, \"dur\": 1.0},\n";
    std::fs::write(&partial, head).unwrap();
    let zeros: u64 = 512 << 20;
    // Sparse: no disk is used.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&partial)
        .unwrap()
        .set_len(head.len() as u64 + zeros)
        .unwrap();

    let out = Command::new("sh")
        .args(["-c", "ulimit -v 163840 && exec \"$0\" recover \"$1\""])
        .arg(env!("CARGO_BIN_EXE_cupti-trace"))
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
    let dir = std::env::temp_dir().join(format!("cupti-trace-recover-names-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let name = dir.join("x\x1b[2J.partial-1.json");
    let out = Command::new(env!("CARGO_BIN_EXE_cupti-trace")).arg("recover").arg(&name).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("x\\u{1b}[2J.partial-1.json") && !stderr.contains('\x1b'), "{stderr:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
