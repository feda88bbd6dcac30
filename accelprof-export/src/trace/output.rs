//! The file a streamed trace is written to: named `.partial` until it is finished, complete after every
//! chunk, written on a thread of its own.
//!
//! Layout on disk: the head, then the chunks (a batch is rendered in chunks of a bounded size, cut
//! between rows), then the tail (`]` and `}`). Each chunk is written together with a fresh copy of the
//! tail right after it (one positioned write), and the next chunk overwrites that tail: between two
//! writes the file is always a whole, valid trace. With gzip (`.json.gz`) the head, each chunk and the
//! tail are separate gzip members (RFC 1952 allows a file of several; `gzip -d`, Python's `gzip` module
//! and Perfetto read them as one stream), so the same holds for the compressed file. Being independent,
//! the members are compressed by a few threads in parallel and written in order.
//!
//! Memory is fixed: a set number of chunk buffers circulate between the renderer and these threads (the
//! renderer waits for one when all are in flight), the tail is appended to the chunk in its own buffer
//! for the write (no copy of the chunk), and gzip members are recycled too.

use std::fs::{self, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::partial_path;
use crossbeam_channel::{bounded, Receiver, Sender};

/// A new file at `path` (a temporary one, from [`temporary_path`]), private (0600), never one that is
/// there already nor through a link someone put at the name.
pub(crate) fn create_private(path: &Path) -> io::Result<std::fs::File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
}

/// `dir/.name.<pid>.<n>.tmp` next to `path`, unique within this process (for whole-file writes); `name`
/// cut to what fits within [`NAME_MAX`](super::paths::NAME_MAX) bytes with the rest.
pub(crate) fn temporary_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "trace".into());
    let suffix = format!(".{}.{n}.tmp", std::process::id());
    let room = super::paths::NAME_MAX.saturating_sub(suffix.len() + 1);
    path.with_file_name(format!(".{}{suffix}", super::paths::cut_to(&name, room)))
}

/// Whether `path` names a gzip trace (`.gz`, in any case, as the formats are picked by their extensions).
pub(crate) fn is_gzip_name(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// One gzip member holding `bytes`, appended to `out`.
///
/// Compressed straight into `out`'s spare room by a deflate stream this thread keeps and resets per
/// member: a `GzEncoder` per member set up a new stream each time (its window and tables allocated and
/// zeroed) and went through a buffer of its own.
pub(crate) fn gzip_member(out: &mut Vec<u8>, bytes: &[u8], level: u32) -> io::Result<()> {
    use flate2::{Compress, FlushCompress, Status};
    thread_local! {
        static DEFLATE: std::cell::RefCell<Option<(u32, Compress)>> = const { std::cell::RefCell::new(None) };
    }
    DEFLATE.with(|cell| {
        let mut cell = cell.borrow_mut();
        let deflate = match &mut *cell {
            Some((l, deflate)) if *l == level => {
                deflate.reset();
                deflate
            }
            other => &mut other.insert((level, Compress::new_gzip(flate2::Compression::new(level), 15))).1,
        };
        let mut rest = bytes;
        loop {
            // The trace's JSON compresses about tenfold: room for a quarter of what is left (a recycled
            // member has it already), more if that fills up.
            out.reserve(rest.len() / 4 + 64);
            let before = deflate.total_in();
            let status = deflate.compress_vec(rest, out, FlushCompress::Finish).map_err(io::Error::other)?;
            rest = &rest[(deflate.total_in() - before) as usize..];
            if status == Status::StreamEnd {
                return Ok(());
            }
        }
    })
}

/// Room in a chunk buffer past [`chunk_bytes`](super::WriterOptions::chunk_bytes): the row that crosses
/// the limit (rows are cut only between them) and the tail written after the chunk.
pub(crate) const CHUNK_SLACK: usize = 64 << 10;

/// The file and where its tail begins.
struct FileOut {
    file: crate::guarded_file::GuardedFile,
    /// `Some(level)`: gzip members.
    gzip: Option<u32>,
    /// Where the tail starts (everything before it is head and chunks).
    data_end: u64,
    /// The file's length.
    file_end: u64,
    /// The last tail written, raw and as written (a member when compressing).
    tail: (Vec<u8>, Vec<u8>),
    bytes_in: u64,
}

impl FileOut {
    /// Writes `body` (a chunk as it goes to the file: JSON, or a gzip member of `raw` bytes of JSON; may
    /// be empty) at the tail's place with `tail` after it, in one positioned write: the tail is appended
    /// to `body` for the write and cut off again (no copy of the chunk).
    fn write_chunk(&mut self, body: &mut Vec<u8>, raw: u64, tail: &[u8]) -> io::Result<()> {
        if body.is_empty() && tail == self.tail.0.as_slice() {
            return Ok(());
        }
        if tail != self.tail.0.as_slice() {
            let mut encoded = Vec::new();
            match self.gzip {
                Some(level) => gzip_member(&mut encoded, tail, level)?,
                None => encoded.extend_from_slice(tail),
            }
            self.tail = (tail.to_vec(), encoded);
        }
        let len = body.len();
        body.extend_from_slice(&self.tail.1);
        let result = self.file.write_all_at(body, self.data_end);
        let end = self.data_end + body.len() as u64;
        body.truncate(len);
        result?;
        if end < self.file_end {
            self.file.set_len(end)?;
        }
        self.file_end = end;
        self.data_end += len as u64;
        self.bytes_in += raw;
        Ok(())
    }
}

enum Message {
    /// Rendered events and the tail that closes the file after them.
    Chunk {
        events: Vec<u8>,
        tail: Vec<u8>,
    },
    /// A chunk compressed: its gzip member and the JSON bytes it holds.
    Member {
        member: Vec<u8>,
        raw: u64,
        tail: Vec<u8>,
    },
    Sync(Sender<()>),
    Finish {
        tail: Vec<u8>,
        reply: Sender<io::Result<()>>,
    },
}

/// Buffers going back for reuse: a fixed number of them circulate, so memory is the same at the
/// billionth chunk as at the tenth. One grown past `max_capacity` (a row larger than the slack) is
/// replaced by an empty one.
#[derive(Clone)]
struct Recycle {
    to: Sender<Vec<u8>>,
    max_capacity: usize,
}

impl Recycle {
    fn give(&self, mut buf: Vec<u8>) {
        buf.clear();
        if buf.capacity() > self.max_capacity {
            buf = Vec::new();
        }
        // The channel holds as many as circulate: it has room for every one that comes back.
        let _ = self.to.try_send(buf);
    }
}

/// Threads that gzip chunks in parallel (the members are independent): a quarter of the cores, 1 to 4.
fn compressors() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 4).clamp(1, 4))
}

/// A compressing thread: chunks in, members out (other messages pass through in their place).
fn compress(
    jobs: Receiver<(u64, Message)>,
    done: Sender<(u64, Message)>,
    chunks: Recycle,
    members: Receiver<Vec<u8>>,
    level: u32,
    error: Arc<Mutex<Option<(io::ErrorKind, String)>>>,
) {
    for (seq, message) in jobs {
        let message = match message {
            Message::Chunk { events, tail } => {
                let mut member = members.try_recv().unwrap_or_default();
                if let Err(e) = gzip_member(&mut member, &events, level) {
                    error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert((e.kind(), e.to_string()));
                }
                let raw = events.len() as u64;
                chunks.give(events);
                Message::Member { member, raw, tail }
            }
            message => message,
        };
        if done.send((seq, message)).is_err() {
            return;
        }
    }
}

/// What the writing thread reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutputStats {
    /// Bytes of JSON handed to the file (before compression).
    pub json_bytes: u64,
    /// The file's size now.
    pub file_bytes: u64,
    /// Chunks written.
    pub chunks: u64,
}

/// A trace file written on its own thread: the renderer fills chunk buffers and hands them over, each
/// written with a fresh tail.
///
/// Memory is fixed: `buffers` chunk buffers of `chunk_bytes` (plus [`CHUNK_SLACK`]) circulate between
/// the renderer and the threads, and the renderer waits for one to come back when all are in flight (a
/// slow disk slows the renderer down rather than growing memory). Gzip members (about a tenth of their
/// chunk on traces) are recycled the same way; at most as many are in flight as the queues hold.
pub(crate) struct Output {
    /// To the compressing threads (gzip) or straight to the writing thread.
    tx: Option<Sender<(u64, Message)>>,
    /// The order of the messages sent.
    next_seq: AtomicU64,
    compressors: Vec<JoinHandle<()>>,
    /// The chunk buffers not in use.
    free: Receiver<Vec<u8>>,
    /// The capacity a chunk buffer is given.
    chunk_capacity: usize,
    error: Arc<Mutex<Option<(io::ErrorKind, String)>>>,
    stats: Arc<Mutex<OutputStats>>,
    thread: Option<JoinHandle<()>>,
    pub(crate) partial: PathBuf,
    pub(crate) path: PathBuf,
}

impl Output {
    /// Creates the `.partial` file for `path`, writes `head` and `tail` (a valid, empty trace) and starts
    /// the threads. `buffers` chunk buffers (at least 2) of `chunk_bytes` circulate.
    pub(crate) fn create(
        path: &Path,
        head: &[u8],
        tail: &[u8],
        gzip: Option<u32>,
        chunk_bytes: usize,
        buffers: usize,
    ) -> io::Result<Output> {
        let partial = partial_path(path, std::process::id());
        // A new private file, never one someone put at the name (nor through a link).
        let file = crate::guarded_file::GuardedFile::new(super::paths::create_private(&partial)?)?;
        let mut first = Vec::new();
        match gzip {
            Some(level) => gzip_member(&mut first, head, level)?,
            None => first.extend_from_slice(head),
        }
        let data_end = first.len() as u64;
        let mut out = FileOut {
            file,
            gzip,
            data_end,
            file_end: data_end,
            tail: (Vec::new(), Vec::new()),
            bytes_in: head.len() as u64,
        };
        let written =
            out.file.write_all_at(&first, 0).and_then(|()| out.write_chunk(&mut Vec::new(), 0, tail));
        if let Err(e) = written {
            let _ = fs::remove_file(&partial);
            return Err(e);
        }
        let buffers = buffers.max(2);
        let chunk_capacity = chunk_bytes.saturating_add(CHUNK_SLACK);
        let (free_tx, free) = bounded::<Vec<u8>>(buffers);
        for _ in 0..buffers {
            // Allocated when first used (see `buffer`).
            let _ = free_tx.try_send(Vec::new());
        }
        let chunks = Recycle { to: free_tx, max_capacity: chunk_capacity };
        let workers = if gzip.is_some() { compressors().min(buffers - 1) } else { 0 };
        let (tx, jobs) = bounded::<(u64, Message)>(buffers);
        let (done_tx, rx) = bounded::<(u64, Message)>(buffers);
        let (member_tx, spare_members) = bounded::<Vec<u8>>(workers + 1);
        let members = Recycle { to: member_tx, max_capacity: chunk_capacity };
        let error = Arc::new(Mutex::new(None));
        let mut compressors = Vec::new();
        if let Some(level) = gzip {
            for i in 0..workers {
                let (jobs, done, chunks, spare, error) = (
                    jobs.clone(),
                    done_tx.clone(),
                    chunks.clone(),
                    spare_members.clone(),
                    Arc::clone(&error),
                );
                let spawned = std::thread::Builder::new()
                    .name(format!("trace-gzip-{i}"))
                    .spawn(move || compress(jobs, done, chunks, spare, level, error));
                match spawned {
                    Ok(handle) => compressors.push(handle),
                    Err(e) if compressors.is_empty() => {
                        let _ = fs::remove_file(&partial);
                        return Err(e);
                    }
                    Err(_) => break,
                }
            }
        } else {
            // No compression: messages go straight to the writing thread, in order.
            let done = done_tx.clone();
            compressors.push(std::thread::Builder::new().name("trace-relay".into()).spawn(move || {
                for job in jobs {
                    if done.send(job).is_err() {
                        return;
                    }
                }
            })?);
        }
        drop((done_tx, spare_members));
        let stats = Arc::new(Mutex::new(OutputStats {
            json_bytes: out.bytes_in,
            file_bytes: out.file_end,
            chunks: 0,
        }));
        let (thread_error, thread_stats) = (Arc::clone(&error), Arc::clone(&stats));
        let (thread_partial, thread_path) = (partial.clone(), path.to_path_buf());
        let recycle = (chunks, members);
        let thread = std::thread::Builder::new()
            .name("trace-writer".into())
            .spawn(move || run(out, rx, recycle, thread_error, thread_stats, thread_partial, thread_path))
            .inspect_err(|_| {
                let _ = fs::remove_file(&partial);
            })?;
        Ok(Output {
            tx: Some(tx),
            next_seq: AtomicU64::new(0),
            compressors,
            free,
            chunk_capacity,
            error,
            stats,
            thread: Some(thread),
            partial,
            path: path.to_path_buf(),
        })
    }

    /// A chunk buffer, empty, with room for a chunk; waits while every buffer is in flight. `Err` once
    /// the threads have stopped.
    pub(crate) fn buffer(&self) -> io::Result<Vec<u8>> {
        let mut buf = self.free.recv().map_err(|_| closed())?;
        buf.clear();
        buf.reserve_exact(self.chunk_capacity);
        Ok(buf)
    }

    /// The first write error, if any (later chunks are not written once one failed).
    pub(crate) fn error(&self) -> io::Result<()> {
        match &*self.error.lock().unwrap_or_else(|e| e.into_inner()) {
            Some((kind, message)) => Err(io::Error::new(*kind, message.clone())),
            None => Ok(()),
        }
    }

    pub(crate) fn stats(&self) -> OutputStats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn post(&self, message: Message) -> io::Result<()> {
        let tx = self.tx.as_ref().ok_or_else(closed)?;
        let seq = self.next_seq.fetch_add(1, Ordering::Relaxed);
        tx.send((seq, message)).map_err(|_| closed())
    }

    /// Queues a chunk (a buffer from [`buffer`](Self::buffer)).
    pub(crate) fn send(&self, events: Vec<u8>, tail: Vec<u8>) -> io::Result<()> {
        self.error()?;
        self.post(Message::Chunk { events, tail })
    }

    /// Waits until every chunk queued so far is in the file.
    pub(crate) fn sync(&self) -> io::Result<()> {
        let (reply, done) = bounded(1);
        self.post(Message::Sync(reply))?;
        done.recv().map_err(|_| closed())?;
        self.error()
    }

    /// Writes the last tail, syncs the file to disk, renames it into place; what was written.
    pub(crate) fn finish(mut self, tail: Vec<u8>) -> io::Result<OutputStats> {
        let (reply, done) = bounded(1);
        let sent = self.post(Message::Finish { tail, reply });
        drop(self.tx.take());
        let result = match sent {
            Ok(()) => done.recv().unwrap_or_else(|_| Err(closed())),
            Err(e) => Err(e),
        };
        for thread in self.compressors.drain(..) {
            let _ = thread.join();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.error()?;
        result?;
        Ok(self.stats())
    }
}

impl Drop for Output {
    /// Without `finish` (a panic, an early return): the queued chunks are written and the `.partial` file
    /// stays as it is, a valid trace of what was added.
    fn drop(&mut self) {
        drop(self.tx.take());
        for thread in self.compressors.drain(..) {
            let _ = thread.join();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the trace writer thread has stopped")
}

fn run(
    mut out: FileOut,
    rx: Receiver<(u64, Message)>,
    (chunks, members): (Recycle, Recycle),
    error: Arc<Mutex<Option<(io::ErrorKind, String)>>>,
    stats: Arc<Mutex<OutputStats>>,
    partial: PathBuf,
    path: PathBuf,
) {
    // A write past the file size limit (`ulimit -f`) raises SIGXFSZ at the writing thread, which would
    // kill the traced program: blocked on this thread (ours alone), the write fails with EFBIG instead,
    // reported as any write error. The signal's disposition stays the program's.
    // SAFETY: a sigset_t initialised by sigemptyset; pthread_sigmask on this thread only.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGXFSZ);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
    let fail = |e: &io::Error| {
        error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert((e.kind(), e.to_string()));
    };
    let failed = || error.lock().unwrap_or_else(|e| e.into_inner()).is_some();
    // Messages come back from the compressing threads out of order: each is handled in its turn (at most
    // as many wait as the queues hold).
    let mut waiting: std::collections::BTreeMap<u64, Message> = std::collections::BTreeMap::new();
    let mut next = 0u64;
    let in_order = rx.into_iter().flat_map(|(seq, message)| {
        waiting.insert(seq, message);
        let mut turn = Vec::new();
        while let Some(message) = waiting.remove(&next) {
            next += 1;
            turn.push(message);
        }
        turn
    });
    for message in in_order {
        let (mut body, raw, tail, recycle) = match message {
            Message::Chunk { events, tail } => {
                let raw = events.len() as u64;
                (events, raw, tail, &chunks)
            }
            Message::Member { member, raw, tail } => (member, raw, tail, &members),
            Message::Sync(reply) => {
                let _ = reply.send(());
                continue;
            }
            Message::Finish { tail, reply } => {
                let result = if failed() {
                    Err(io::Error::other("an earlier write failed"))
                } else {
                    out.write_chunk(&mut Vec::new(), 0, &tail)
                        .and_then(|()| out.file.sync_all())
                        .and_then(|()| fs::rename(&partial, &path))
                };
                let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
                *s = OutputStats { json_bytes: out.bytes_in, file_bytes: out.file_end, chunks: s.chunks };
                drop(s);
                if let Err(e) = &result {
                    fail(e);
                }
                let _ = reply.send(result);
                return;
            }
        };
        if !failed() {
            match out.write_chunk(&mut body, raw, &tail) {
                Ok(()) => {
                    let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
                    *s = OutputStats {
                        json_bytes: out.bytes_in,
                        file_bytes: out.file_end,
                        chunks: s.chunks + 1,
                    };
                }
                Err(e) => fail(&e),
            }
        }
        recycle.give(body);
    }
}
