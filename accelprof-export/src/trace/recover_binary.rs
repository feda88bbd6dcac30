//! [`recover`](super::recover) for the binary writers' `.partial` files: Perfetto (`.pftrace`) and Parquet.
//!
//! - Perfetto: the file is a sequence of `Trace.packet` fields, appended batch by batch, so a process
//!   killed in a write leaves every packet before it whole and a torn last one. The packets are walked
//!   (their framing and their fields' framing, streamed: memory stays bounded whatever a packet's size),
//!   and the file is cut after the last whole one (in place; into a new file when this user may not write
//!   it). A file whose first packet is not one the writer starts with (an empty file, garbage) is an error.
//! - Parquet: the writer writes each row group together with a footer naming every row group so far, over
//!   the previous footer, in one write. A file killed between two such writes is whole and only renamed;
//!   one killed during such a write has lost its previous footer (the new row group's bytes are over it)
//!   and cannot be recovered: an error. The footer is read and checked (every column chunk before it),
//!   and its rows are the events counted.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use super::output::{create_private, temporary_path};
use super::recover::Recovery;

fn invalid(message: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.into())
}

/// The file types handled here, by name.
pub(super) enum Binary {
    Perfetto,
    Parquet,
}

impl Binary {
    pub(super) fn of(path: &Path) -> Option<Binary> {
        let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        if name.ends_with(".parquet") {
            Some(Binary::Parquet)
        } else if name.ends_with(".pftrace") || name.ends_with(".perfetto-trace") {
            Some(Binary::Perfetto)
        } else {
            None
        }
    }
}

/// Recovers `partial` (a regular file, open as `file`) into `output`.
pub(super) fn recover_binary(
    kind: Binary,
    file: File,
    partial: &Path,
    output: &Path,
) -> io::Result<Recovery> {
    match kind {
        Binary::Perfetto => recover_perfetto(file, partial, output),
        Binary::Parquet => recover_parquet(&file, partial, output),
    }
}

// ---- Perfetto ---------------------------------------------------------------------------------------

/// `TracePacket` fields the walk looks at.
const TRUSTED_PACKET_SEQUENCE_ID: u64 = 10;
const TRACK_EVENT: u64 = 11;

/// Why a packet could not be read.
enum Stop {
    /// The data ended inside it: a torn last write.
    Torn,
    /// Bytes that are not a packet the writer writes.
    Malformed,
    Io(io::Error),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

/// A byte reader that counts what it consumed.
struct Walk<R> {
    inner: R,
    pos: u64,
}

impl<R: BufRead> Walk<R> {
    /// The next byte, `None` at the end of the data.
    fn byte(&mut self) -> io::Result<Option<u8>> {
        let b = loop {
            match self.inner.fill_buf() {
                Ok(buf) => break buf.first().copied(),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if b.is_some() {
            self.inner.consume(1);
            self.pos += 1;
        }
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, Stop> {
        let mut value = 0u64;
        for i in 0..10 {
            let b = self.byte()?.ok_or(Stop::Torn)?;
            if i == 9 && b > 1 {
                return Err(Stop::Malformed);
            }
            value |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Stop::Malformed)
    }

    /// Skips `n` bytes without keeping them.
    fn skip(&mut self, n: u64) -> Result<(), Stop> {
        let skipped = io::copy(&mut (&mut self.inner).take(n), &mut io::sink())?;
        self.pos += skipped;
        if skipped < n {
            return Err(Stop::Torn);
        }
        Ok(())
    }
}

/// What one packet held.
struct Packet {
    track_event: bool,
    sequence_id: bool,
}

/// Reads one `Trace.packet` field (its tag already read): its length, then its fields' framing.
fn packet(walk: &mut Walk<impl BufRead>) -> Result<Packet, Stop> {
    let len = walk.varint()?;
    let end = walk.pos.checked_add(len).ok_or(Stop::Malformed)?;
    let mut seen = Packet { track_event: false, sequence_id: false };
    while walk.pos < end {
        let tag = walk.varint()?;
        let field = tag >> 3;
        if field == 0 {
            return Err(Stop::Malformed);
        }
        match tag & 7 {
            0 => {
                walk.varint()?;
            }
            1 => walk.skip(8)?,
            2 => {
                let n = walk.varint()?;
                if n > end.saturating_sub(walk.pos) {
                    // Past the packet's end: either torn (the data ends first) or not a packet.
                    let rest = end - walk.pos;
                    return Err(if walk.skip(rest).is_ok() { Stop::Malformed } else { Stop::Torn });
                }
                walk.skip(n)?;
            }
            5 => walk.skip(4)?,
            _ => return Err(Stop::Malformed),
        }
        if walk.pos > end {
            return Err(Stop::Malformed);
        }
        seen.track_event |= field == TRACK_EVENT;
        seen.sequence_id |= field == TRUSTED_PACKET_SEQUENCE_ID;
    }
    Ok(seen)
}

/// Where the whole packets end, how many there are and how many carry a track event.
struct PacketScan {
    keep: u64,
    packets: u64,
    events: u64,
    /// Every byte belongs to a whole packet.
    complete: bool,
}

fn scan_packets(file: &File) -> io::Result<PacketScan> {
    let mut walk = Walk { inner: BufReader::with_capacity(1 << 16, file), pos: 0 };
    let mut scan = PacketScan { keep: 0, packets: 0, events: 0, complete: false };
    loop {
        let stop = match walk.byte()? {
            None => {
                scan.complete = true;
                return Ok(scan);
            }
            // Field 1 (`packet`), length-delimited: the only field the writer writes at the top.
            Some(0x0a) => match packet(&mut walk) {
                // The writer's first packet names its sequence.
                Ok(p) if scan.packets > 0 || p.sequence_id => {
                    scan.packets += 1;
                    scan.events += u64::from(p.track_event);
                    scan.keep = walk.pos;
                    continue;
                }
                Ok(_) => Stop::Malformed,
                Err(stop) => stop,
            },
            Some(_) => Stop::Malformed,
        };
        match stop {
            Stop::Io(e) => return Err(e),
            Stop::Torn | Stop::Malformed => return Ok(scan),
        }
    }
}

fn recover_perfetto(file: File, partial: &Path, output: &Path) -> io::Result<Recovery> {
    let length = file.metadata()?.len();
    let scan = scan_packets(&file)?;
    if scan.packets == 0 {
        return Err(invalid(if length == 0 {
            "an empty file: no Perfetto packet to keep".to_owned()
        } else {
            format!(
                "not a Perfetto trace of this crate's writer: no whole first packet in its {length} bytes"
            )
        }));
    }
    let recovery = |was_complete: bool| Recovery {
        path: output.to_path_buf(),
        events: scan.events,
        packets: Some(scan.packets),
        was_complete,
        dropped_bytes: length - scan.keep,
    };
    if scan.complete {
        if partial != output {
            fs::rename(partial, output)?;
        }
        return Ok(recovery(true));
    }
    drop(file);
    // Cut where it is (no second copy: a trace a full disk left is closed on that disk); into a new file
    // when this user may read it but not write it.
    match OpenOptions::new().write(true).custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC).open(partial) {
        Ok(file) => {
            file.set_len(scan.keep)?;
            file.sync_all()?;
            if partial != output {
                fs::rename(partial, output)?;
            }
        }
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            let tmp = temporary_path(output);
            let copied = (|| {
                let mut from = File::open(partial)?.take(scan.keep);
                let mut to = create_private(&tmp)?;
                io::copy(&mut from, &mut to)?;
                to.sync_all()?;
                fs::rename(&tmp, output)
            })();
            if let Err(e) = copied {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
            if partial != output {
                let _ = fs::remove_file(partial);
            }
        }
        Err(e) => return Err(e),
    }
    Ok(recovery(false))
}

// ---- Parquet ----------------------------------------------------------------------------------------

/// The rows of a whole Parquet file (its footer read and checked), or why it is not one.
#[cfg(feature = "parquet")]
fn parquet_rows(file: &File, length: u64) -> io::Result<u64> {
    use std::os::unix::fs::FileExt;
    let mut tail = [0u8; 8];
    file.read_exact_at(&mut tail, length - 8)?;
    let footer_len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    let no_footer = || {
        invalid(
            "not recoverable: no whole Parquet footer at its end (the process died while writing a row \
             group, which is written over the previous footer)",
        )
    };
    let footer_start = length.checked_sub(8 + footer_len).filter(|&s| s >= 4).ok_or_else(no_footer)?;
    let meta = parquet::file::metadata::ParquetMetaDataReader::new()
        .parse_and_finish(file)
        .map_err(|_| no_footer())?;
    let mut rows = 0u64;
    for group in meta.row_groups() {
        for column in group.columns() {
            let (start, len) = column.byte_range();
            if start < 4 || start.checked_add(len).is_none_or(|end| end > footer_start) {
                return Err(no_footer());
            }
        }
        rows += u64::try_from(group.num_rows()).map_err(|_| no_footer())?;
    }
    Ok(rows)
}

#[cfg(not(feature = "parquet"))]
fn parquet_rows(_: &File, _: u64) -> io::Result<u64> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "cannot check a Parquet file: built without accelprof-export's `parquet` feature",
    ))
}

fn recover_parquet(file: &File, partial: &Path, output: &Path) -> io::Result<Recovery> {
    use std::os::unix::fs::FileExt;
    let length = file.metadata()?.len();
    let mut head = [0u8; 4];
    if length < 12 || file.read_exact_at(&mut head, 0).is_err() || head != *b"PAR1" {
        return Err(invalid(if length == 0 {
            "an empty file: not a Parquet file".to_owned()
        } else {
            format!("not a Parquet file (no `PAR1` at its start, or shorter than 12 bytes: {length})")
        }));
    }
    let rows = parquet_rows(file, length)?;
    if partial != output {
        fs::rename(partial, output)?;
    }
    Ok(Recovery {
        path: output.to_path_buf(),
        events: rows,
        packets: None,
        was_complete: true,
        dropped_bytes: 0,
    })
}
