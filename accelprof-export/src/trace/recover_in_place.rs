//! Closing a torn streamed trace where it is: no second copy, so that a trace left by a full disk (or
//! `ulimit -f`) is closed on that same disk.
//!
//! The file is read once, keeping the offset where the last complete event ends (for gzip: where the
//! last whole member ends); it is then cut there and the closing bytes appended (a gzip member of them
//! for gzip), synced, and renamed to its final name. When there is no room for the closing there (a full
//! disk, a quota, `ulimit -f`: the write fails with `ENOSPC`, `EDQUOT` or `EFBIG`), the file is cut a few
//! events earlier instead, where the closing fits within the file's length.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::Path;

use flate2::bufread::GzDecoder;
use serde_json::Value;

use super::emit::RenderStats;
use super::layout::{hta_guard, EVENTS_OPEN};
use super::output::gzip_member;
use super::recover::{note, Recovery, MAX_LINE};

/// What reading the file found.
struct Scan {
    /// Complete (a `]` closing the events was found, and for a plain file what follows it ends the JSON):
    /// only a rename is needed.
    complete: bool,
    /// Where the line closing the events starts (plain files).
    close_at: u64,
    /// Where the kept bytes end.
    keep: u64,
    events: u64,
    stats: RenderStats,
    host_pid: Option<u64>,
    /// The last places the file could be cut at (`keep` and what the scan knew there), newest last: the
    /// closing must fit in the file's length (a full disk, `ulimit -f`), so a few events may go.
    cuts: std::collections::VecDeque<Cut>,
}

/// A place the file can be cut at.
#[derive(Clone, Copy)]
struct Cut {
    keep: u64,
    /// Where the line of the last kept event ends (after its comma and newline): the bytes after it are
    /// the ones left out, counted as the copying recovery counts them.
    line_end: u64,
    events: u64,
    stats: RenderStats,
    host_pid: Option<u64>,
}

/// Cuts remembered: the closing (about 300 bytes) never needs more than a few events' room.
const CUTS: usize = 256;

impl Scan {
    fn cut_here(&mut self, keep: u64, line_end: u64) {
        self.keep = keep;
        if self.cuts.len() == CUTS {
            self.cuts.pop_front();
        }
        let cut = Cut { keep, line_end, events: self.events, stats: self.stats, host_pid: self.host_pid };
        self.cuts.push_back(cut);
    }
}

/// Follows the lines of the decoded trace (head, then events), fed in pieces.
struct Lines {
    line: Vec<u8>,
    in_events: bool,
    scan: Scan,
    /// Offset (in decoded bytes, plain files only) where the current line starts.
    offset: u64,
    /// A torn line was met: nothing after it is kept.
    torn: bool,
}

impl Lines {
    /// Takes one complete line (without its newline) that starts at decoded offset `start`. For a plain
    /// file, sets `keep` after each complete event.
    fn take(&mut self, text: &[u8], start: u64, plain: bool) {
        if self.torn || self.scan.complete {
            return;
        }
        if !self.in_events {
            self.in_events = text == EVENTS_OPEN.as_bytes();
            if self.in_events && plain {
                let end = start + text.len() as u64 + 1;
                self.scan.cut_here(end, end);
            }
            return;
        }
        // An empty line, or the comma a gzip chunk starts with (its line began in the member before).
        if text.is_empty() || text == b"," {
            return;
        }
        if text.starts_with(b"  ]") {
            self.scan.complete = true;
            self.scan.close_at = start;
            return;
        }
        let body = text.strip_suffix(b",").unwrap_or(text);
        match text.starts_with(b"    {").then(|| serde_json::from_slice::<Value>(body)) {
            Some(Ok(event)) if event.is_object() => {
                note(&event, &mut self.scan.stats, &mut self.scan.host_pid);
                self.scan.events += 1;
                if plain {
                    self.scan.cut_here(start + body.len() as u64, start + text.len() as u64 + 1);
                }
            }
            _ => self.torn = true,
        }
    }

    fn feed(&mut self, bytes: &[u8], plain: bool) {
        for &b in bytes {
            if b == b'\n' {
                let line = std::mem::take(&mut self.line);
                let start = self.offset;
                self.offset += line.len() as u64 + 1;
                self.take(&line, start, plain);
                self.line = line;
                self.line.clear();
            } else if self.line.len() < MAX_LINE {
                self.line.push(b);
            } else {
                // A line longer than any the writer writes: torn, and memory stays bounded.
                self.torn = true;
            }
        }
    }
}

/// Counts the bytes read through it.
pub(super) struct Counting<R> {
    pub(super) inner: R,
    pub(super) read: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

fn scan(file: &File, gzip: bool) -> io::Result<(Scan, bool)> {
    let scan = Scan {
        complete: false,
        close_at: 0,
        keep: 0,
        events: 0,
        stats: RenderStats::default(),
        host_pid: None,
        cuts: Default::default(),
    };
    let mut lines = Lines { line: Vec::new(), in_events: false, scan, offset: 0, torn: false };
    if !gzip {
        let mut reader = BufReader::new(file);
        loop {
            let buf = reader.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let n = buf.len();
            lines.feed(buf, true);
            reader.consume(n);
            if lines.torn || lines.scan.complete {
                break;
            }
        }
        // A last line without its newline (a complete event a chunk ended with).
        let rest = std::mem::take(&mut lines.line);
        if !rest.is_empty() && !lines.torn && !lines.scan.complete {
            let start = lines.offset;
            lines.take(&rest, start, true);
        }
        // A crash while the closing was being written leaves its `]` and a torn tail: not whole, cut
        // after the last event as any torn file (it was renamed as whole, and was not JSON).
        if lines.scan.complete {
            let mut rest = file;
            rest.seek(SeekFrom::Start(lines.scan.close_at))?;
            let (whole, _) = super::recover::closes_whole(b"", &mut BufReader::new(rest))?;
            lines.scan.complete = whole;
        }
        let in_events = lines.in_events;
        return Ok((lines.scan, in_events));
    }
    // Gzip: member by member; the kept bytes end after the last member that decodes whole and holds
    // whole events (chunks are cut between rows). A member is decoded in pieces as it is read (never
    // held whole: memory stays bounded whatever it holds); what a torn member showed counts for nothing,
    // since every cut is made after a whole member and only a whole member can close the trace.
    let mut reader = BufReader::new(Counting { inner: file, read: 0 });
    let mut piece = vec![0u8; 64 << 10];
    loop {
        if reader.fill_buf()?.is_empty() {
            break;
        }
        let mut member = GzDecoder::new(&mut reader);
        let whole = loop {
            match member.read(&mut piece) {
                Ok(0) => break true,
                Ok(n) => {
                    lines.feed(&piece[..n], false);
                    if lines.torn {
                        break false;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break false,
            }
        };
        if !whole {
            // A torn member: nothing in it is kept, so it closes nothing either.
            lines.scan.complete = false;
            break;
        }
        // A chunk's last event has no newline after it: take it as a line of its own once whole.
        let rest = std::mem::take(&mut lines.line);
        let event_line = rest.starts_with(b"    {") && serde_json::from_slice::<Value>(&rest).is_ok();
        if event_line {
            lines.take(&rest, 0, false);
        } else {
            lines.line = rest;
        }
        if lines.torn || lines.scan.complete {
            break;
        }
        if lines.in_events && lines.line.is_empty() {
            let keep = reader.get_ref().read - reader.buffer().len() as u64;
            lines.scan.cut_here(keep, keep);
        }
    }
    let in_events = lines.in_events;
    Ok((lines.scan, in_events))
}

/// For a gzip file (read only): where its last place to cut at ends, in bytes of the file (after the last
/// whole member that ends after whole events); `None` when there is none, or when the file is whole. What
/// [`recover_in_place`] would cut it at: the copying recovery of a file it cannot write keeps the same
/// events.
pub(super) fn gzip_cut(file: &File) -> io::Result<Option<u64>> {
    let mut file = file;
    file.seek(SeekFrom::Start(0))?;
    let (scan, _) = scan(file, true)?;
    file.seek(SeekFrom::Start(0))?;
    Ok(scan.cuts.back().filter(|_| !scan.complete).map(|cut| cut.line_end))
}

/// A write that failed for want of room (a full disk, a quota, the file size limit).
fn no_room(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT | libc::EFBIG))
}

/// [`recover`](super::recover) without a second copy: `partial` is cut after its last complete event,
/// closed, and renamed to `output`. `None` (the file untouched) when there is no place to cut it at: a
/// gzip file whose events are all in a member that does not end after a whole event (one member holding
/// a whole torn trace, as `gzip` makes of it): only a copy can close it.
pub(super) fn recover_in_place(partial: &Path, output: &Path) -> io::Result<Option<Recovery>> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(partial)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    let mut magic = [0u8; 2];
    let gzip = file.read(&mut magic)? == 2 && magic == [0x1f, 0x8b];
    file.seek(SeekFrom::Start(0))?;
    let (scan, in_events) = scan(&file, gzip)?;
    if !in_events {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a streamed trace: no \"traceEvents\" line in its head",
        ));
    }
    if scan.complete {
        if partial != output {
            fs::rename(partial, output)?;
        }
        return Ok(Some(Recovery {
            path: output.to_path_buf(),
            events: scan.events,
            packets: None,
            was_complete: true,
            dropped_bytes: 0,
        }));
    }
    let length = file.metadata()?.len();
    // The closing of a cut: the HTA guard when needed, `]`, what was recovered.
    let closing = |cut: &Cut| -> io::Result<Vec<u8>> {
        let mut closing = Vec::new();
        if let Some(guard) = hta_guard(&cut.stats, cut.events, cut.host_pid.unwrap_or(0)) {
            closing.extend_from_slice(&guard);
        }
        let dropped = length.saturating_sub(cut.line_end);
        let note = serde_json::json!({ "events": cut.events, "dropped_bytes": dropped, "in_place": true });
        closing.extend_from_slice(format!("\n  ],\n  \"traceRecovered\": {note}\n}}\n").as_bytes());
        if gzip {
            let mut member = Vec::new();
            gzip_member(&mut member, &closing, 1)?;
            return Ok(member);
        }
        Ok(closing)
    };
    // The latest cut first; when the disk is full or the file size limit reached (the closing does not
    // fit after it), the latest cut whose closing fits in the file's length: a few events fewer.
    let Some(&latest) = scan.cuts.back() else {
        return Ok(None);
    };
    let mut candidates = vec![latest];
    for cut in scan.cuts.iter().rev() {
        if cut.keep + closing(cut)?.len() as u64 <= length {
            if cut.keep != latest.keep {
                candidates.push(*cut);
            }
            break;
        }
    }
    let mut kept = None;
    for (i, cut) in candidates.iter().enumerate() {
        let bytes = closing(cut)?;
        file.set_len(cut.keep)?;
        match file.write_all_at(&bytes, cut.keep) {
            Ok(()) => {
                kept = Some(*cut);
                break;
            }
            Err(e) if i + 1 < candidates.len() && no_room(&e) => continue,
            Err(e) => return Err(e),
        }
    }
    let cut = kept.ok_or_else(|| io::Error::other("no room to close the trace"))?;
    let scan = Scan { keep: cut.keep, events: cut.events, ..scan };
    let dropped = length.saturating_sub(cut.line_end);
    file.sync_all()?;
    if partial != output {
        fs::rename(partial, output)?;
    }
    Ok(Some(Recovery {
        path: output.to_path_buf(),
        events: scan.events,
        packets: None,
        was_complete: false,
        dropped_bytes: dropped,
    }))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::MetadataExt;

    use super::*;
    use crate::trace::recover;

    /// A streamed trace's bytes: head, `n` events in chunks of 2 (the first event of a chunk after the
    /// first starts with `,\n`), then a torn chunk over the tail.
    fn pieces(n: usize) -> Vec<Vec<u8>> {
        let mut out = vec![format!("{{\n  \"schemaVersion\": 1,\n{EVENTS_OPEN}\n").into_bytes()];
        for chunk in 0..n.div_ceil(2) {
            let mut c = Vec::new();
            for i in chunk * 2..(chunk * 2 + 2).min(n) {
                if i > 0 {
                    c.extend_from_slice(b",\n");
                }
                c.extend_from_slice(
                    format!("    {{\"ph\": \"i\", \"name\": \"e{i}\", \"ts\": {i}}}").as_bytes(),
                );
            }
            out.push(c);
        }
        out.push(b",\n    {\"ph\": \"i\", \"na".to_vec());
        out
    }

    /// Issue 18: recovering a trace left by a full disk needed room for a second copy of it (it was
    /// written to a new file, then renamed). It is closed where it is now: the same inode, cut and closed.
    #[test]
    fn a_torn_trace_is_closed_in_place_plain_and_gzip() {
        let dir = std::env::temp_dir().join(format!("accelprof-in-place-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for gzip in [false, true] {
            let (partial, output) = if gzip {
                (dir.join("t.partial-1.json.gz"), dir.join("t.json.gz"))
            } else {
                (dir.join("t.partial-1.json"), dir.join("t.json"))
            };
            let mut bytes = Vec::new();
            let parts = pieces(5);
            let last = parts.len() - 1;
            for (i, piece) in parts.iter().enumerate() {
                if gzip && i < last {
                    gzip_member(&mut bytes, piece, 1).unwrap();
                } else {
                    bytes.extend_from_slice(piece);
                }
            }
            fs::write(&partial, &bytes).unwrap();
            let inode = fs::metadata(&partial).unwrap().ino();
            let r = recover(&partial, None).unwrap();
            assert_eq!((r.path.as_path(), r.events, r.was_complete), (output.as_path(), 5, false));
            assert_eq!(fs::metadata(&output).unwrap().ino(), inode, "closed in place (gzip: {gzip})");
            assert!(!partial.exists());
            let mut text = Vec::new();
            let raw = fs::read(&output).unwrap();
            if gzip {
                flate2::read::MultiGzDecoder::new(&raw[..]).read_to_end(&mut text).unwrap();
            } else {
                text = raw;
            }
            let trace: Value = serde_json::from_slice(&text)
                .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&text)));
            assert_eq!(trace["traceEvents"].as_array().unwrap().len(), 5);
            assert_eq!(trace["traceEvents"][4]["name"], "e4");
            assert_eq!(trace["traceRecovered"]["events"], 5);
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
