//! Closing a trace whose writer died in the middle of a write.
//!
//! A streamed trace ([`ChromeTraceWriter`](super::ChromeTraceWriter)) is whole between two chunks (a batch
//! is written in chunks of a bounded size), so a process that dies (a crash, `SIGKILL`, `_exit`) leaves a
//! `.partial-<pid>` file that Perfetto and HolisticTraceAnalysis open as it is. Only a death during the
//! write of a chunk (one `pwrite`) can leave it torn: [`recover`] keeps every complete event before it
//! and closes the file.
//!
//! It streams: memory stays bounded whatever the file holds (a line longer than [`MAX_LINE`] is taken as
//! torn), and it reads only a regular file, never through a symbolic link.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use serde_json::Value;

use super::emit::RenderStats;
use super::finished_path;
use super::layout::{hta_guard, EVENTS_OPEN};
use super::output::{create_private, is_gzip_name, temporary_path};
use super::recover_binary::{recover_binary, Binary};

/// What [`recover`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovery {
    /// The trace now in place.
    pub path: PathBuf,
    /// Events kept: Chrome trace events; for Perfetto, the packets holding a track event (a slice's
    /// begin and its end are two); for Parquet, the rows.
    pub events: u64,
    /// Perfetto: the packets kept (`None` for the other formats).
    pub packets: Option<u64>,
    /// The file was already whole (it was only renamed).
    pub was_complete: bool,
    /// Bytes of the file (as it is on disk: compressed, for gzip) after the last event kept: a torn last
    /// chunk, left out. (For a gzip file of a single member holding a torn trace, which is not the
    /// writer's, the kept events end inside the member: counted from where the decoder had read to when
    /// they ended.)
    pub dropped_bytes: u64,
}

/// Reads through a decoder, taking a decoding error (a torn gzip member) as the end of the data.
struct UntilError<R> {
    inner: R,
    failed: bool,
}

impl<R: Read> Read for UntilError<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.failed {
            return Ok(0);
        }
        match self.inner.read(buf) {
            Ok(n) => Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(_) => {
                self.failed = true;
                Ok(0)
            }
        }
    }
}

/// Makes a whole trace of `partial` (a streamed trace left behind by a writer that did not finish) at
/// `output` (default: the name it would have had, `trace.partial-123.json.gz` -> `trace.json.gz`) and
/// removes `partial`.
///
/// A whole file is only renamed. Otherwise the head and every complete event line are kept, the rest
/// (a torn chunk) dropped and counted, and the file closed where it is (cut after its last complete
/// event or gzip member and the closing appended: no second copy, so a trace a full disk left is closed
/// on that disk; a file this user cannot write is closed into a new one) (with the HolisticTraceAnalysis guard event
/// when the trace needs it, and `"traceRecovered"` saying what was kept). `Err` when `partial` does not
/// start like a trace this crate writes, or when a directory is at `output` (checked before `partial` is
/// touched).
///
/// `.pftrace` (Perfetto): the file is cut after its last whole packet ([`Recovery::packets`] counts the
/// packets kept, [`Recovery::events`] those holding a track event); `Err` for a file without the writer's
/// whole first packet (an empty file, garbage). `.parquet`: a file whose footer reads whole (every column
/// chunk before it) is only renamed, its rows counted as the events; one without (killed while a row
/// group was written over the previous footer) cannot be recovered: `Err`, the file left in place.
pub fn recover(partial: impl AsRef<Path>, output: Option<&Path>) -> io::Result<Recovery> {
    let partial = partial.as_ref();
    let output = match output {
        Some(path) => path.to_path_buf(),
        None => finished_path(partial).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is not named like a partial trace (name.partial-<pid>.json[.gz])",
                    partial.display()
                ),
            )
        })?,
    };
    // Only a regular file, never through a link (nor a FIFO or a device, which could block or never end).
    let file = open_regular(partial)?;
    // The destination is checked before the partial is touched (it is cut in place).
    check_destination(&output)?;
    if let Some(kind) = Binary::of(partial) {
        return recover_binary(kind, file, partial, &output);
    }
    // Closed where it is: a trace left by a full disk is closed on that disk (no second copy). A file
    // this user may read but not write, or a gzip file with no whole member to cut after (one member
    // holding a torn trace: not the writer's), is closed into a new one instead.
    match super::recover_in_place::recover_in_place(partial, &output) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {}
        Ok(None) => {}
        Ok(Some(done)) => return Ok(done),
        Err(e) => return Err(e),
    }
    recover_by_copy(file, partial, output)
}

/// [`recover`] into a new file: the trace's head and complete events copied to a temporary file, closed,
/// and renamed to `output` (a whole `partial` is only renamed).
fn recover_by_copy(mut file: File, partial: &Path, output: PathBuf) -> io::Result<Recovery> {
    let mut magic = [0u8; 2];
    let gzip = file.read(&mut magic)? == 2 && magic == [0x1f, 0x8b];
    file.rewind()?;
    let length = file.metadata()?.len();
    // Left out: counted in bytes of the file, as the recovery in place counts them. A gzip file is copied
    // up to where the recovery in place would cut it (after its last whole member ending after whole
    // events), the same events kept; one without such a place (a single member) up to its torn line.
    let cut = if gzip { super::recover_in_place::gzip_cut(&file)? } else { None };
    let again = file.try_clone()?;
    let reader: Box<dyn Read> = match (gzip, cut) {
        (true, Some(keep)) => Box::new(MultiGzDecoder::new(file.take(keep))),
        (true, None) => Box::new(MultiGzDecoder::new(file)),
        (false, _) => Box::new(file),
    };
    let mut lines = BufReader::new(UntilError { inner: reader, failed: false });
    // The bytes of the file after the kept text (`kept`: its decoded bytes; `dropped`: the decoded bytes
    // read after it, the file's own for a plain file).
    let mut left_out = |kept: u64, dropped: u64| -> io::Result<u64> {
        match (gzip, cut) {
            (false, _) => Ok(dropped),
            (true, Some(keep)) => Ok(length - keep),
            (true, None) => Ok(length.saturating_sub(compressed_end(&again, kept)?)),
        }
    };

    let tmp = temporary_path(&output);
    let result = (|| {
        // A new file, never one that is there already (nor through a link).
        let sink = BufWriter::new(create_private(&tmp)?);
        let file = if is_gzip_name(&output) {
            let mut gz = GzEncoder::new(sink, flate2::Compression::new(1));
            let kept = copy_complete(&mut lines, &mut gz, &mut left_out)?;
            (kept, gz.finish()?)
        } else {
            let mut plain = sink;
            (copy_complete(&mut lines, &mut plain, &mut left_out)?, plain)
        };
        let (kept, sink) = file;
        sink.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
        Ok::<_, io::Error>(kept)
    })();
    let kept = match result {
        Ok(kept) => kept,
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
    };
    if kept.complete {
        let _ = fs::remove_file(&tmp);
        if partial != output {
            fs::rename(partial, &output)?;
        }
        return Ok(Recovery {
            path: output,
            events: kept.events,
            packets: None,
            was_complete: true,
            dropped_bytes: 0,
        });
    }
    fs::rename(&tmp, &output)?;
    if partial != output {
        let _ = fs::remove_file(partial);
    }
    Ok(Recovery {
        path: output,
        events: kept.events,
        packets: None,
        was_complete: false,
        dropped_bytes: kept.dropped,
    })
}

/// Where the compressed bytes of `file` (a gzip file) that decode to its first `decoded` bytes end, as
/// near as the decoder tells (it reads ahead within a deflate block).
fn compressed_end(file: &File, decoded: u64) -> io::Result<u64> {
    use super::recover_in_place::Counting;
    let mut file = file;
    file.rewind()?;
    let mut input = BufReader::new(Counting { inner: file, read: 0 });
    let mut gz = flate2::bufread::MultiGzDecoder::new(&mut input);
    io::copy(&mut UntilError { inner: &mut gz, failed: false }.take(decoded), &mut io::sink())?;
    drop(gz);
    Ok(input.get_ref().read - input.buffer().len() as u64)
}

/// An error naming `output` when a trace cannot be renamed onto it: a directory is there.
fn check_destination(output: &Path) -> io::Result<()> {
    match fs::symlink_metadata(output) {
        Ok(meta) if meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} is a directory: the trace is not put in its place", output.display()),
        )),
        _ => Ok(()),
    }
}

/// The longest line [`recover`] reads (16 MiB): a longer one is taken as torn, and it and what follows are
/// left out (counted in [`Recovery::dropped_bytes`]). The writer's event lines are far shorter.
pub const MAX_LINE: usize = 16 << 20;

/// Opens `path` for reading if it is a regular file, without following a symbolic link (nor blocking on a
/// FIFO or a device while opening it).
fn open_regular(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is a symbolic link: not followed", path.display()),
            ),
            _ => e,
        })?;
    if !file.metadata()?.file_type().is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", path.display()),
        ));
    }
    // O_NONBLOCK means nothing for a regular file's reads; it only kept the open from waiting.
    Ok(file)
}

/// Reads one line (up to and with its `\n`) into `line`, at most `max` bytes: returns the bytes read and
/// whether the line ended within them (`false` at the end of the data without a `\n`, or past `max`).
fn read_line_bounded(lines: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<(usize, bool)> {
    let mut read = 0;
    loop {
        let available = match lines.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok((read, false));
        }
        let room = max - line.len();
        let (take, done) = match available.iter().position(|&b| b == b'\n') {
            Some(at) if at < room => (at + 1, true),
            _ => (available.len().min(room), false),
        };
        line.extend_from_slice(&available[..take]);
        lines.consume(take);
        read += take;
        if done || line.len() == max {
            return Ok((read, done));
        }
    }
}

/// Reads the rest of `lines` without keeping it: the bytes read.
fn count_rest(lines: &mut impl BufRead) -> io::Result<u64> {
    io::copy(lines, &mut io::sink())
}

struct Kept {
    events: u64,
    complete: bool,
    /// Bytes of the file left out.
    dropped: u64,
}

fn not_a_trace() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "not a streamed trace: no \"traceEvents\" line in its head")
}

/// Copies the head and the complete events of `lines` to `out`, then closes the trace. `left_out` gives
/// the bytes of the file left out from the decoded bytes kept and those read after them.
fn copy_complete(
    lines: &mut impl BufRead,
    out: &mut dyn Write,
    left_out: &mut dyn FnMut(u64, u64) -> io::Result<u64>,
) -> io::Result<Kept> {
    let mut line = Vec::new();
    let mut in_events = false;
    let mut kept = Kept { events: 0, complete: false, dropped: 0 };
    // Decoded bytes of the lines kept.
    let mut read = 0u64;
    let mut stats = RenderStats::default();
    let mut host_pid = None;
    loop {
        line.clear();
        let (n, ended) = read_line_bounded(lines, &mut line, MAX_LINE)?;
        if n == 0 {
            break;
        }
        if !ended && n == MAX_LINE {
            // Too long to be one of the writer's lines.
            if !in_events {
                return Err(not_a_trace());
            }
            kept.dropped += n as u64 + count_rest(lines)?;
            break;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let before = read;
        read += n as u64;
        if !in_events {
            out.write_all(text)?;
            out.write_all(b"\n")?;
            in_events = text == EVENTS_OPEN.as_bytes();
            continue;
        }
        if text.is_empty() {
            continue;
        }
        if text.starts_with(b"  ]") {
            // Whole only if what follows the events ends the JSON: a crash while the closing was being
            // written leaves the `]` and a torn tail (it was renamed as whole, not JSON).
            let (whole, rest) = closes_whole(text, lines)?;
            if whole {
                kept.complete = true;
            } else {
                kept.dropped += n as u64 + rest;
                read = before;
            }
            break;
        }
        let body = text.strip_suffix(b",").unwrap_or(text);
        let event = match text.starts_with(b"    {").then(|| serde_json::from_slice::<Value>(body)) {
            Some(Ok(event)) if event.is_object() => event,
            _ => {
                // A torn line: it and whatever follows are left out.
                kept.dropped += n as u64 + count_rest(lines)?;
                read = before;
                break;
            }
        };
        note(&event, &mut stats, &mut host_pid);
        out.write_all(if kept.events > 0 { b",\n" } else { b"" })?;
        out.write_all(body)?;
        kept.events += 1;
    }
    if !in_events {
        return Err(not_a_trace());
    }
    if !kept.complete {
        kept.dropped = left_out(read, kept.dropped)?;
        if let Some(guard) = hta_guard(&stats, kept.events, host_pid.unwrap_or(0)) {
            out.write_all(&guard)?;
        }
        let note = serde_json::json!({ "events": kept.events, "dropped_bytes": kept.dropped });
        write!(out, "\n  ],\n  \"traceRecovered\": {note}\n}}\n")?;
    }
    Ok(kept)
}

/// Whether the line closing the events (`close`, without its newline; empty when `rest` starts with it)
/// and `rest`, the file after it, end the trace as JSON; and how many bytes of `rest` there were (all of
/// it is read, in bounded memory).
pub(super) fn closes_whole(close: &[u8], rest: &mut impl Read) -> io::Result<(bool, u64)> {
    let mut head = EVENTS_OPEN.as_bytes().to_vec();
    head.insert(0, b'{');
    head.push(b'\n');
    if !close.is_empty() {
        head.extend_from_slice(close);
        head.push(b'\n');
    }
    let mut counting = super::recover_in_place::Counting { inner: rest, read: 0 };
    let parsed =
        serde_json::from_reader::<_, serde::de::IgnoredAny>(io::Cursor::new(head).chain(&mut counting));
    let whole = match parsed {
        Ok(_) => true,
        Err(e) if e.is_io() => return Err(e.into()),
        Err(_) => false,
    };
    io::copy(&mut counting, &mut io::sink())?;
    Ok((whole, counting.read))
}

/// What the HTA guard needs to know of one kept event.
pub(super) fn note(event: &Value, stats: &mut RenderStats, host_pid: &mut Option<u64>) {
    if event["ph"] != "X" {
        return;
    }
    if let Some(correlation) = event["args"]["correlation"].as_u64() {
        stats.max_correlation = stats.max_correlation.max(correlation);
    }
    let micros = |v: &Value| v.as_f64().map(|us| (us * 1000.0).round() as i128);
    if let (Some(ts), Some(dur)) = (micros(&event["ts"]), micros(&event["dur"])) {
        stats.span = Some(match stats.span {
            None => (ts, ts + dur),
            Some((s, e)) => (s.min(ts), e.max(ts + dur)),
        });
    }
    if host_pid.is_none() && event["cat"].as_str().is_some_and(|c| c.starts_with("cuda_")) {
        *host_pid = event["pid"].as_u64();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::output::gzip_member;

    /// A gzip trace this user may read but not write is closed into a copy: it kept the events of a torn
    /// member the recovery in place leaves out, and counted decompressed bytes. It keeps what the recovery
    /// in place keeps now, and counts the same bytes of the file.
    #[test]
    fn a_gzip_trace_closed_into_a_copy_keeps_and_counts_as_in_place() {
        let dir = std::env::temp_dir().join(format!("accelprof-recover-copy-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let event = |i: u32| format!("    {{\"ph\": \"i\", \"name\": \"e{i}\", \"ts\": {i}}}");
        let mut bytes = Vec::new();
        gzip_member(&mut bytes, format!("{{\n{EVENTS_OPEN}\n").as_bytes(), 1).unwrap();
        gzip_member(&mut bytes, format!("{},\n{}", event(0), event(1)).as_bytes(), 1).unwrap();
        let kept_end = bytes.len() as u64;
        // A member holding a whole event and a torn one, itself cut short.
        let mut torn = Vec::new();
        let text = format!(",\n{},\n    {{\"ph\": \"i\", \"name\": \"{}", event(2), "y".repeat(5000));
        gzip_member(&mut torn, text.as_bytes(), 1).unwrap();
        bytes.extend_from_slice(&torn[..torn.len() - 20]);
        let (mut results, mut texts) = (Vec::new(), Vec::new());
        for by_copy in [false, true] {
            let partial = dir.join("t.partial-3.json.gz");
            let output = dir.join("t.json.gz");
            fs::write(&partial, &bytes).unwrap();
            let r = if by_copy {
                recover_by_copy(open_regular(&partial).unwrap(), &partial, output.clone()).unwrap()
            } else {
                recover(&partial, None).unwrap()
            };
            let mut text = String::new();
            MultiGzDecoder::new(&fs::read(&output).unwrap()[..]).read_to_string(&mut text).unwrap();
            let trace: Value = serde_json::from_str(&text).unwrap();
            texts.push((trace["traceEvents"].clone(), trace["traceRecovered"]["dropped_bytes"].clone()));
            results.push((r.events, r.dropped_bytes, r.was_complete));
            fs::remove_file(&output).unwrap();
        }
        let expected = (2, bytes.len() as u64 - kept_end, false);
        assert_eq!(results, [expected, expected], "in place, then by copy");
        assert_eq!(texts[0], texts[1]);
        assert_eq!(texts[1].1, bytes.len() as u64 - kept_end);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A plain trace cut inside its closing (after the events' `]`: a crash while the closing was
    /// written) was renamed as whole, and was not JSON. It is closed after its last event instead, in
    /// place and by copy; a trace whose closing is whole is still only renamed.
    #[test]
    fn a_plain_trace_cut_inside_its_closing_is_closed_not_renamed_as_whole() {
        let dir = std::env::temp_dir().join(format!("accelprof-recover-tail-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let event = |i: u32| format!("    {{\"ph\": \"i\", \"name\": \"e{i}\", \"ts\": {i}}}");
        let events = format!("{{\n{EVENTS_OPEN}\n{},\n{}\n", event(0), event(1));
        let closing =
            "  ],\n  \"deviceProperties\": [{\"id\": 0}],\n  \"traceSummary\": {\"kernels\": 2}\n}\n";
        let whole = format!("{events}{closing}");
        assert!(serde_json::from_str::<Value>(&whole).is_ok(), "{whole}");
        for cut in [0, 2, 3, 10, 30, closing.len() - 4] {
            for by_copy in [false, true] {
                let bytes = &whole.as_bytes()[..whole.len() - cut];
                let partial = dir.join("t.partial-3.json");
                let output = dir.join("t.json");
                fs::write(&partial, bytes).unwrap();
                let r = if by_copy {
                    recover_by_copy(open_regular(&partial).unwrap(), &partial, output.clone()).unwrap()
                } else {
                    recover(&partial, None).unwrap()
                };
                let text = fs::read_to_string(&output).unwrap();
                let trace: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("cut {cut}, by copy {by_copy}: not JSON ({e}):\n{text}"));
                assert_eq!(trace["traceEvents"].as_array().map(Vec::len), Some(2), "cut {cut}: {text}");
                // A cut of nothing, or of the last newline only, leaves the trace whole.
                let whole_left = cut <= 1;
                assert_eq!(r.was_complete, whole_left, "cut {cut}, by copy {by_copy}");
                if !whole_left {
                    assert_eq!(
                        r.dropped_bytes,
                        (bytes.len() - events.len()) as u64,
                        "cut {cut}, by copy {by_copy}"
                    );
                    assert!(trace["traceRecovered"].is_object(), "{text}");
                }
                fs::remove_file(&output).unwrap();
            }
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
