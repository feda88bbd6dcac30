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
        stderr.contains(&format!("(1 events kept, {zeros} bytes of the file, a torn last write, left out)")),
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

/// Writes `value`'s low `len` bits, least significant first (deflate's bit order).
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    fn put(&mut self, value: u64, len: u32) {
        self.acc |= value << self.n;
        self.n += len;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    /// A Huffman code: its bits most significant first.
    fn code(&mut self, code: u64, len: u32) {
        let reversed = code.reverse_bits() >> (64 - len);
        self.put(reversed, len);
    }
}

/// A gzip member that decodes to `x` repeated `len` times (about) and never ends (a deflate block of
/// fixed codes: a literal `x`, then copies of 258 bytes at distance 1), a few MB for any `len`.
fn endless_x_member(len: u64) -> Vec<u8> {
    let mut bits = Bits { out: vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff], acc: 0, n: 0 };
    bits.put(1, 1); // the last block
    bits.put(1, 2); // fixed Huffman codes
    bits.code(0x30 + u64::from(b'x'), 8);
    for _ in 0..len / 258 + 1 {
        bits.code(0xc0 + (285 - 280), 8); // length 258
        bits.code(0, 5); // distance 1
    }
    bits.out
}

/// A gzip member was read whole into memory (`read_to_end`) before its lines were looked at: a trace
/// torn by a member of gigabytes of one line took that much memory. Members are decoded in pieces now,
/// and a line past the limit is taken as torn without reading the rest: the command's peak resident
/// memory stays far below what the member decodes to. (An address-space limit does not show it:
/// `read_to_end` gives up on an allocation that fails and the member was taken as torn, with the same
/// result.)
#[test]
#[allow(clippy::zombie_processes)] // waited for with wait4, which gives its rusage
fn recover_closes_a_gzip_trace_with_an_endless_member_in_bounded_memory() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("accelprof-recover-gz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let partial: PathBuf = dir.join("t.partial-33.json.gz");
    let member = |text: &str| {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).unwrap();
        gz.finish().unwrap()
    };
    // The writer's members: the head, then a chunk of one event (its last line without a newline).
    let mut bytes = member("{\n  \"traceEvents\": [\n");
    bytes.extend(member(
        "    {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": 1.0, \"dur\": 1.0}",
    ));
    let kept = bytes.len() as u64;
    let xs: u64 = 512 << 20;
    bytes.extend(endless_x_member(xs));
    std::fs::write(&partial, &bytes).unwrap();

    let mut child = Command::new(env!("CARGO_BIN_EXE_accelprof"))
        .arg("recover")
        .arg(&partial)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    // The child's own peak (not every child's of this process, as RUSAGE_CHILDREN would give).
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our child's, not waited for yet; both pointers are to live locals.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "{status}: {stderr}");
    let peak_mib = usage.ru_maxrss / 1024; // KiB on Linux
    assert!(peak_mib < 160, "peak resident memory {peak_mib} MiB for a member of {} MiB", xs >> 20);
    let dropped = bytes.len() as u64 - kept;
    assert!(
        stderr
            .contains(&format!("(1 events kept, {dropped} bytes of the file, a torn last write, left out)")),
        "{stderr}"
    );
    let mut text = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(dir.join("t.json.gz")).unwrap()),
        &mut text,
    )
    .unwrap();
    let trace: serde_json::Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(trace["traceEvents"][0]["name"], "k");
    assert_eq!(trace["traceRecovered"]["events"], 1);
    assert!(!partial.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bytes left out were counted in bytes of the file for a gzip trace closed in place, and in
/// decompressed bytes for one closed into a copy (a single gzip member holding a torn trace): 300 kB said
/// left out of a file of a few hundred bytes. Both count bytes of the file now, and say so.
#[test]
fn bytes_left_out_are_bytes_of_the_file_for_gzip_too() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("accelprof-recover-gzip-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let event = |i: u32| format!("    {{\"ph\": \"i\", \"name\": \"e{i}\", \"ts\": {i}}}");
    let head = "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n";
    let torn = format!(",\n    {{\"ph\": \"i\", \"name\": \"{}", "x".repeat(300_000));
    let gzip = |parts: &[&str]| {
        let mut out = Vec::new();
        for part in parts {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(part.as_bytes()).unwrap();
            out.extend(gz.finish().unwrap());
        }
        out
    };
    let events = format!("{},\n{}", event(0), event(1));
    // One member holding the torn trace (as `gzip` makes of it): closed into a copy.
    let single = gzip(&[&format!("{head}{events}{torn}")]);
    // The writer's members (head, a chunk, a torn chunk): closed in place.
    let members = gzip(&[head, &events, &torn]);
    for (name, bytes) in [("single", single), ("members", members)] {
        let partial = dir.join(format!("{name}.partial-7.json.gz"));
        std::fs::write(&partial, &bytes).unwrap();
        let out =
            Command::new(env!("CARGO_BIN_EXE_accelprof")).arg("recover").arg(&partial).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        let said: u64 = stderr
            .split("events kept, ")
            .nth(1)
            .and_then(|rest| rest.strip_suffix(" bytes of the file, a torn last write, left out)\n"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{name}: {stderr}"));
        let length = bytes.len() as u64;
        assert!(said > 0 && said < length, "{name}: {said} bytes left out of a file of {length}: {stderr}");
        let mut text = String::new();
        let raw = std::fs::read(dir.join(format!("{name}.json.gz"))).unwrap();
        std::io::Read::read_to_string(&mut flate2::read::MultiGzDecoder::new(&raw[..]), &mut text).unwrap();
        let trace: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(trace["traceEvents"].as_array().unwrap().len(), 2, "{name}");
        assert_eq!(trace["traceRecovered"]["dropped_bytes"], said, "{name}: the file says the same");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `.partial` name that was shortened to take its suffix (the name asked for was too long) was renamed by
/// a hand-run `recover` to the shortened name without a word: it says so now. A short name is not said of.
#[test]
fn recover_says_when_the_name_it_gives_may_be_a_shortened_one() {
    let dir = std::env::temp_dir().join(format!("accelprof-recover-short-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let head = "{\n  \"traceEvents\": [\n    {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \
                \"ts\": 1.0, \"dur\": 1.0},\n";
    let suffix = ".partial-7.json";
    let long = dir.join("t".repeat(255 - suffix.len()) + suffix);
    let short = dir.join("s.partial-7.json");
    for partial in [&long, &short] {
        std::fs::write(partial, head).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_accelprof")).arg("recover").arg(partial).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let finished = accelprof_export::trace::finished_path(partial).unwrap();
        assert!(finished.is_file(), "{stderr}");
        let said = stderr.contains("may have been longer and shortened to fit");
        assert_eq!(said, partial == &long, "{stderr}");
        if said {
            assert!(stderr.contains(&finished.display().to_string()), "the name given: {stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
