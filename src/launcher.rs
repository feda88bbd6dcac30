//! What the launcher and the traced processes share, kept apart from the CUDA parts (any vendor's tracer
//! uses it as it is): the report channel, the check of the outputs before anything runs, the names a
//! process may write, and how both say things on stderr ([`say_on_stderr`]: never a panic, never a
//! SIGPIPE).
//!
//! **The channel** is a private directory the launcher makes with `mkdtemp` (mode 0700, in `$TMPDIR`):
//! no other user can create, replace or append to anything in it. Each traced process appends its lines
//! to its own file there, `<pid>`, opened without following links; the launcher reads the regular files
//! it finds, owned by itself, and believes nothing in them it did not expect: a path a line names is
//! acted on (closed, renamed) only when it is one the launcher itself derives from the outputs it
//! resolved and the reporting process's pid. The directory also holds the claims on output names
//! ([`claim`]): the first process of a run that asks for a name without `%p` gets it, the others a
//! numbered name ([`numbered`]).

use std::ffi::CString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// One line a traced process tells the launcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A trace file is being written at `partial` and becomes `output` when the process ends.
    Start {
        /// The file written until the end.
        partial: PathBuf,
        /// Its final name.
        output: PathBuf,
    },
    /// The trace was finished at `path`.
    End {
        /// The finished file.
        path: PathBuf,
        /// Events in it.
        events: u64,
        /// Its size.
        bytes: u64,
    },
    /// A trace could not be written (or not completely): why (the output not named: a tracer of an
    /// earlier version, or an output that is no file).
    Failed(String),
    /// The trace `output` could not be written (or not completely): why.
    TraceFailed {
        /// The file asked for (expanded), as the [`Line::Start`] of it names it.
        output: PathBuf,
        /// The error (it says where what was written is).
        why: String,
    },
    /// Tracing did not start in the process (no trace of it is written): why.
    StartFailed(String),
    /// The summary JSON (`--summary-json`) could not be written at `path`: why.
    SummaryFailed {
        /// The file asked for (expanded).
        path: PathBuf,
        /// The error.
        why: String,
    },
    /// Records were lost to another client of the vendor library in the process: buffers of ours it took, and buffers
    /// of its that reached us (`ActivityCounts::other_client`).
    Lost {
        /// Our buffers never given back to us.
        taken: u64,
        /// The other client's buffers completed to our callbacks.
        foreign: u64,
    },
}

impl Line {
    /// The line as written (`None` when a field holds a tab or a line break, which the format cannot
    /// carry: the launcher refuses such output names before anything runs).
    fn encode(&self) -> Option<String> {
        let fields: Vec<String> = match self {
            Line::Start { partial, output } => {
                vec!["start".into(), partial.display().to_string(), output.display().to_string()]
            }
            Line::End { path, events, bytes } => {
                vec!["end".into(), path.display().to_string(), events.to_string(), bytes.to_string()]
            }
            Line::Failed(why) => vec!["failed".into(), why.replace(['\t', '\n', '\r'], " ")],
            Line::TraceFailed { output, why } => vec![
                "trace-failed".into(),
                output.display().to_string(),
                why.replace(['\t', '\n', '\r'], " "),
            ],
            Line::StartFailed(why) => vec!["start-failed".into(), why.replace(['\t', '\n', '\r'], " ")],
            Line::SummaryFailed { path, why } => vec![
                "summary-failed".into(),
                path.display().to_string(),
                why.replace(['\t', '\n', '\r'], " "),
            ],
            Line::Lost { taken, foreign } => vec!["lost".into(), taken.to_string(), foreign.to_string()],
        };
        if fields.iter().any(|f| f.contains(['\t', '\n', '\r'])) {
            return None;
        }
        Some(fields.join("\t") + "\n")
    }

    /// A line read back; `None` for anything else.
    fn decode(text: &str) -> Option<Line> {
        let fields: Vec<&str> = text.split('\t').collect();
        match fields.as_slice() {
            ["start", partial, output] => {
                Some(Line::Start { partial: PathBuf::from(partial), output: PathBuf::from(output) })
            }
            ["end", path, events, bytes] => Some(Line::End {
                path: PathBuf::from(path),
                events: events.parse().ok()?,
                bytes: bytes.parse().ok()?,
            }),
            ["failed", why] => Some(Line::Failed((*why).to_owned())),
            ["trace-failed", output, why] => {
                Some(Line::TraceFailed { output: PathBuf::from(output), why: (*why).to_owned() })
            }
            ["start-failed", why] => Some(Line::StartFailed((*why).to_owned())),
            ["summary-failed", path, why] => {
                Some(Line::SummaryFailed { path: PathBuf::from(path), why: (*why).to_owned() })
            }
            ["lost", taken, foreign] => {
                Some(Line::Lost { taken: taken.parse().ok()?, foreign: foreign.parse().ok()? })
            }
            _ => None,
        }
    }
}

/// Whether `dir` is a directory of this user that no one else can write (checked without following a
/// link): the only kind of channel a traced process writes to.
fn is_private_dir(dir: &Path) -> bool {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir() && m.uid() == me && m.mode() & 0o077 == 0)
}

/// In a traced process: appends `line` to this process's file of the channel `dir`. `Err` says why not
/// (the directory is not private, the file is a link, ...).
pub fn tell(dir: &Path, line: &Line) -> io::Result<()> {
    if !is_private_dir(dir) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} is not a private directory of this user: not written", dir.display()),
        ));
    }
    let text = line.encode().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "a path with a tab or a line break cannot be reported")
    })?;
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(dir.join(std::process::id().to_string()))?;
    file.write_all(text.as_bytes())
}

/// In a traced process: claims `output` for this process in the channel `dir`. `true` when no other
/// process of the run claimed it before (or when there is no private channel to claim it in).
pub fn claim(dir: &Path, output: &Path) -> bool {
    if !is_private_dir(dir) {
        return true;
    }
    // FNV-1a of the path: a fixed-length name whatever the path's length.
    let hash = output
        .as_os_str()
        .as_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3));
    let created = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(dir.join(format!("claim-{hash:016x}")));
    match created {
        Ok(mut file) => {
            let _ = file.write_all(output.as_os_str().as_bytes());
            true
        }
        Err(e) => e.kind() != io::ErrorKind::AlreadyExists,
    }
}

/// The extensions of the formats a trace can be written in, longest first (a name keeps its extension
/// when it is numbered or named `.partial`).
pub const EXTENSIONS: [&str; 5] = [".json.gz", ".json", ".parquet", ".pftrace", ".perfetto-trace"];

/// How `name` ends of [`EXTENSIONS`], in its own case (`T.JSON.GZ`: `.JSON.GZ`); `""` for none.
fn extension(name: &str) -> &str {
    accelprof_export::trace::name_extension(name, &EXTENSIONS)
}

/// `same.json` -> `same.<pid>.json` (the extension kept): the name of a second process's trace.
pub fn numbered(path: &Path, pid: u32) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "trace".into());
    let ext = extension(&name);
    path.with_file_name(format!("{}.{pid}{ext}", &name[..name.len() - ext.len()]))
}

/// The private channel, on the launcher's side: made before the program starts, read once it ended,
/// removed with what is in it when dropped.
#[derive(Debug)]
pub struct Channel {
    dir: PathBuf,
}

impl Channel {
    /// Makes `$TMPDIR/accelprof.XXXXXX` (mode 0700) with `mkdtemp`.
    pub fn create() -> io::Result<Channel> {
        let template = std::env::temp_dir().join("accelprof.XXXXXX");
        let mut raw = CString::new(template.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "TMPDIR holds a NUL byte"))?
            .into_bytes_with_nul();
        // SAFETY: `raw` is a NUL-terminated template ending in XXXXXX that mkdtemp fills in place.
        if unsafe { libc::mkdtemp(raw.as_mut_ptr().cast()) }.is_null() {
            return Err(io::Error::last_os_error());
        }
        raw.pop();
        let dir = PathBuf::from(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(raw));
        Ok(Channel { dir })
    }

    /// The directory (what the traced processes are told).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every process's lines, by pid: only regular files of this user named by a pid, opened without
    /// following links; lines that do not parse are left out.
    pub fn read(&self) -> Vec<(u32, Vec<Line>)> {
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        let mut found = Vec::new();
        let Ok(entries) = fs::read_dir(&self.dir) else { return found };
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
            let opened = OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
                .open(entry.path());
            let Ok(file) = opened else { continue };
            if !file.metadata().is_ok_and(|m| m.is_file() && m.uid() == me) {
                continue;
            }
            let mut text = String::new();
            // A bounded read: a process's few lines, never more than a megabyte.
            let _ = file.take(1 << 20).read_to_string(&mut text);
            found.push((pid, text.lines().filter_map(Line::decode).collect()));
        }
        found.sort_by_key(|(pid, _)| *pid);
        found
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// An output the launcher resolved: an absolute path, `%p` and `%r` still in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputPattern(pub PathBuf);

impl OutputPattern {
    /// Whether `output` is what process `pid` writes for this pattern (`%p` its pid, `%r` any rank), or
    /// that name numbered because another process of the run took it ([`numbered`]).
    pub fn matches(&self, output: &Path, pid: u32) -> bool {
        let pattern = self.0.to_string_lossy().replace("%p", &pid.to_string());
        let matches = |candidate: &Path| {
            let candidate = candidate.to_string_lossy();
            match_ranks(&pattern, &candidate)
        };
        matches(output) || matches(&numbered_back(output, pid))
    }
}

/// `same.<pid>.json` (or `same.<pid>.<pid>.json`, ..., an image of a program that execs itself)
/// -> `same.json` (anything else as it is).
fn numbered_back(path: &Path, pid: u32) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = extension(&name);
    let (suffix, mut stem) = (format!(".{pid}"), &name[..name.len() - ext.len()]);
    let whole = stem.len();
    while let Some(base) = stem.strip_suffix(&suffix).filter(|b| !b.is_empty()) {
        stem = base;
    }
    if stem.len() == whole {
        return path.to_path_buf();
    }
    path.with_file_name(format!("{stem}{ext}"))
}

/// Whether `text` is `pattern` with each `%r` replaced by a number.
fn match_ranks(pattern: &str, text: &str) -> bool {
    match pattern.split_once("%r") {
        None => pattern == text,
        Some((head, rest)) => {
            let Some(after) = text.strip_prefix(head) else { return false };
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            (1..=digits).any(|n| match_ranks(rest, &after[n..]))
        }
    }
}

/// Whether an entry of an output list means no trace (`none`, `off` or `0`, in any case): what both the
/// launcher's check and the tracer's reading of `ACCELPROF_OUTPUT` take it for.
pub fn means_no_trace(entry: &str) -> bool {
    matches!(entry.to_ascii_lowercase().as_str(), "none" | "off" | "0")
}

/// The numbers a traced process puts in its file names (`%r`, `%l`, `%p`), as far as the launcher can
/// know them before the program runs, each as wide as it may be: the rank and the local rank that its
/// environment gives the program (`RANK`, `LOCAL_RANK`; unknown, one digit: a program that sets them
/// for its own processes, as `torchrun` does, may give wider ones, which only the process can check),
/// and a process id as wide as the largest this system gives (`/proc/sys/kernel/pid_max`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameNumbers {
    /// What `%r` becomes (its width is what counts).
    pub rank: String,
    /// What `%l` becomes.
    pub local_rank: String,
    /// What `%p` becomes.
    pub pid: String,
}

impl NameNumbers {
    /// From this process's environment, which the program inherits (`RANK`, `LOCAL_RANK`), and the
    /// system's largest process id.
    pub fn from_env() -> NameNumbers {
        NameNumbers::from_vars(|name| std::env::var(name).ok(), widest_pid())
    }

    /// From any source of variables, with `pid` the widest process id.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>, pid: u64) -> NameNumbers {
        let number = |name: &str| var(name).and_then(|v| v.trim().parse::<u32>().ok());
        let rank = number("RANK");
        NameNumbers {
            rank: rank.unwrap_or(0).to_string(),
            local_rank: number("LOCAL_RANK").or(rank).unwrap_or(0).to_string(),
            pid: pid.to_string(),
        }
    }

    /// `name` as the program's tracer expands it with these numbers.
    fn expand(&self, name: &str) -> String {
        crate::tracer::substitute(name, &self.rank, &self.local_rank, &self.pid).0
    }

    /// What the numbers were taken as, for the patterns in `name`: `%p a process id of 7 digits (the
    /// widest this system gives), %r the rank 3` (empty when it has none).
    fn said(&self, name: &str) -> String {
        let mut said = Vec::new();
        if name.contains("%p") {
            said.push(format!("%p a process id of {} digits (the widest this system gives)", self.pid.len()));
        }
        if name.contains("%r") {
            said.push(format!("%r the rank {}", self.rank));
        }
        if name.contains("%l") {
            said.push(format!("%l the local rank {}", self.local_rank));
        }
        said.join(", ")
    }
}

/// The largest process id this system gives (`/proc/sys/kernel/pid_max` less one; 4194303, the most a
/// 64-bit Linux allows, when it cannot be read).
fn widest_pid() -> u64 {
    fs::read_to_string("/proc/sys/kernel/pid_max")
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
        .map_or(4_194_303, |max| max.saturating_sub(1).max(1))
}

/// Checks the outputs of `-o` before anything runs, and resolves them to absolute paths (what the traced
/// processes are given, so that a process that changes directory writes where asked). `Err`: what is
/// wrong with the first bad one. `formats` are the extensions this build writes; `numbers` what `%p`,
/// `%r` and `%l` may become (a name that would be too long with them is refused here).
pub fn check_outputs(
    list: &str,
    formats: &[&str],
    numbers: &NameNumbers,
) -> Result<Vec<OutputPattern>, String> {
    let names: Vec<&str> = list.split(',').map(str::trim).filter(|o| !o.is_empty()).collect();
    match (names.as_slice(), names.iter().find(|o| means_no_trace(o))) {
        ([], _) => return Err(format!("output {list:?}: no file named (`none` for no trace)")),
        ([_], Some(_)) => return Ok(Vec::new()),
        (_, Some(none)) => {
            return Err(format!(
                "output {list:?}: {none:?} (no trace) with other outputs: name the files, or `none` alone"
            ))
        }
        (_, None) => {}
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let mut resolved = Vec::new();
    for name in names {
        if name.chars().any(char::is_control) {
            return Err(format!("output {name:?}: a control character (tab, line break) in the name"));
        }
        let lower = name.to_ascii_lowercase();
        if !formats.iter().any(|e| lower.len() > e.len() && lower.ends_with(e)) {
            return Err(format!(
                "output {name:?}: unknown format (the name must end in one of {})",
                formats.join(", ")
            ));
        }
        let path = cwd.join(name);
        check_writable(&format!("output {name:?}"), &path, numbers)?;
        // The same file twice: the second writer took the first's file for another process's and wrote
        // a second copy beside it under a numbered name. (Paths compare by component: `./a.json` too.)
        if resolved.iter().any(|OutputPattern(p)| *p == path) {
            return Err(format!("output {name:?}: named twice"));
        }
        resolved.push(OutputPattern(path));
    }
    Ok(resolved)
}

/// Checks the summary JSON's name (`ACCELPROF_SUMMARY_JSON`, `--summary-json`) before anything runs, as
/// [`check_outputs`] checks a trace's (a file that is there needs only to be writable itself: the summary
/// is written in place), and resolves it to an absolute path (`%p`, `%r` still in it).
pub fn check_summary_json(name: &str, numbers: &NameNumbers) -> Result<PathBuf, String> {
    let what = format!("summary JSON {name:?}");
    if name.trim().is_empty() {
        return Err(format!("{what}: no file named"));
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let path = cwd.join(name.trim());
    // The summary is written in place (not renamed into place, as a trace is), never through a link: a
    // file that is there, and that this user may write, is enough, whatever its directory (`/dev/full` of
    // a user who cannot write in `/dev`). Whether its writes succeed is known only when it is written: a
    // failure then is said, and is the run's exit status.
    if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "{what}: {} is a symbolic link: the summary is never written through one (name the file itself)",
            path.display()
        ));
    }
    if fs::metadata(&path).is_ok_and(|m| !m.is_dir()) {
        let c = CString::new(path.as_os_str().as_bytes()).map_err(|_| format!("{what}: NUL"))?;
        // SAFETY: access(2) on a NUL-terminated path.
        if unsafe { libc::access(c.as_ptr(), libc::W_OK) } != 0 {
            return Err(format!("{what}: cannot write {}: {}", path.display(), io::Error::last_os_error()));
        }
        return Ok(path);
    }
    check_writable(&what, &path, numbers)?;
    Ok(path)
}

/// Whether a file can be made at `path` (`what` names it in the error): its name is at most
/// [`NAME_MAX`](accelprof_export::trace::NAME_MAX) bytes, `%p`, `%r` and `%l` in it replaced by
/// `numbers` (as wide as they may be; a rank that only the process knows is checked there), its directory
/// exists and can be written in, and `path` is not a directory. A directory with `%p` or `%r` in it is
/// made of each process's numbers: not checked.
fn check_writable(what: &str, path: &Path, numbers: &NameNumbers) -> Result<(), String> {
    const NAME_MAX: usize = accelprof_export::trace::NAME_MAX;
    if let Some(name) = path.file_name() {
        // Bytes as they are (a name that is not UTF-8 is counted as it is, not as its lossy text).
        let (length, said) = match name.to_str().filter(|n| n.contains('%')) {
            Some(name) => (numbers.expand(name).len(), numbers.said(name)),
            None => (name.len(), String::new()),
        };
        if length > NAME_MAX {
            let with = if said.is_empty() { said } else { format!(" with {said}") };
            return Err(format!(
                "{what}: the file name is {length} bytes{with}, longer than the {NAME_MAX} a file name may have"
            ));
        }
    }
    let dir = path.parent().unwrap_or(Path::new("/"));
    if dir.to_string_lossy().contains('%') {
        return Ok(());
    }
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(format!("{what}: {} is not a directory", dir.display())),
        Err(e) => return Err(format!("{what}: the directory {}: {e}", dir.display())),
    }
    let c = CString::new(dir.as_os_str().as_bytes()).map_err(|_| format!("{what}: NUL"))?;
    // SAFETY: access(2) on a NUL-terminated path.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } != 0 {
        return Err(format!("{what}: cannot write in {}: {}", dir.display(), io::Error::last_os_error()));
    }
    if path.file_name().is_none() || fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(format!("{what}: {} is a directory", path.display()));
    }
    Ok(())
}

/// Whether `path` is a regular file of this user (not a link): what the launcher may rename or close.
pub fn is_own_file(path: &Path) -> bool {
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file() && m.uid() == me)
}

/// Opens `path` for reading without following a link.
pub fn open_no_follow(path: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC).open(path)
}

/// Runs `f` with SIGXFSZ blocked on this thread, so that a write of ours past the file size limit
/// (`ulimit -f`) fails with `EFBIG` rather than killing the process: the kernel directs the SIGXFSZ of
/// a write at the writing thread, and a blocked one is left pending there, to be taken here before the
/// thread's mask is put back. A thread that had SIGXFSZ blocked already keeps it so, pending included.
/// The signal's disposition is not touched (it is the program's).
pub fn without_sigxfsz<T>(f: impl FnOnce() -> T) -> T {
    with_blocked(libc::SIGXFSZ, f)
}

/// Writes `text` to standard error, in one write, and never fails: a write error is dropped. What the
/// launcher and the tracer in a traced program say goes through here, never through `eprintln!`, which
/// panics when stderr is closed (`accelprof trace ... 2>&1 | head -1`: the tracer of the program lost
/// its trace, the launcher exited 101). A pipe whose reader went away does not kill the process either:
/// SIGPIPE is blocked on this thread for the write (as SIGXFSZ in [`without_sigxfsz`]), so a program
/// that left SIGPIPE at its default (a C program) is not killed by what the tracer says in it.
pub fn say_on_stderr(text: &str) {
    with_blocked(libc::SIGPIPE, || {
        let _ = io::stderr().lock().write_all(text.as_bytes());
    });
}

/// Runs `f` with `signal` (one a write directs at the writing thread) blocked on this thread, a pending
/// one taken before the thread's mask is put back (see [`without_sigxfsz`]).
fn with_blocked<T>(signal: libc::c_int, f: impl FnOnce() -> T) -> T {
    // SAFETY: sigset_t values initialised by sigemptyset; pthread_sigmask and sigtimedwait on this
    // thread only, with a zero timeout (never blocks).
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        let result = f();
        if libc::sigismember(&old, signal) == 0 {
            let zero = libc::timespec { tv_sec: 0, tv_nsec: 0 };
            while libc::sigtimedwait(&set, std::ptr::null_mut(), &zero) == signal {}
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_a_tab_cannot_be_smuggled() {
        let lines = [
            Line::Start { partial: "/a/t.partial-7.json".into(), output: "/a/t.json".into() },
            Line::End { path: "/a/t.json".into(), events: 12, bytes: 345 },
            Line::Failed("No space left on device (os error 28)".into()),
            Line::TraceFailed {
                output: "/a/t.json".into(),
                why: "No space left on device (os error 28)".into(),
            },
            Line::StartFailed("RANK=x is not a rank number".into()),
            Line::SummaryFailed {
                path: "/dev/full".into(),
                why: "No space left on device (os error 28)".into(),
            },
        ];
        for line in &lines {
            assert_eq!(Line::decode(line.encode().unwrap().trim_end()), Some(line.clone()));
        }
        let bad = Line::Start { partial: "/a/x\tend".into(), output: "/a/t.json".into() };
        assert_eq!(bad.encode(), None);
        assert_eq!(Line::decode("end\t/a\tnot-a-number\t1"), None);
    }

    #[test]
    fn names_are_numbered_and_matched_back() {
        assert_eq!(numbered(Path::new("/d/same.json.gz"), 42), Path::new("/d/same.42.json.gz"));
        assert_eq!(numbered(Path::new("/d/t.parquet"), 42), Path::new("/d/t.42.parquet"));
        assert_eq!(numbered_back(Path::new("/d/t.42.42.parquet"), 42), Path::new("/d/t.parquet"));
        assert_eq!(numbered_back(Path::new("/d/t.42.parquet"), 42), Path::new("/d/t.parquet"));
        assert_eq!(numbered_back(Path::new("/d/42.json"), 42), Path::new("/d/42.json"));
        assert_eq!(numbered(Path::new("/d/T.JSON.GZ"), 42), Path::new("/d/T.42.JSON.GZ"));
        assert!(OutputPattern("/d/T.JSON.GZ".into()).matches(Path::new("/d/T.42.JSON.GZ"), 42));
        let p = OutputPattern("/d/t_%r.json".into());
        assert!(p.matches(Path::new("/d/t_3.json"), 9));
        assert!(p.matches(Path::new("/d/t_3.9.json"), 9));
        assert!(!p.matches(Path::new("/d/t_3.8.json"), 9));
        assert!(!p.matches(Path::new("/d/t_.json"), 9));
        assert!(!p.matches(Path::new("/etc/passwd"), 9));
        let p = OutputPattern("/d/t_%p.json".into());
        assert!(p.matches(Path::new("/d/t_9.json"), 9) && !p.matches(Path::new("/d/t_8.json"), 9));
    }

    /// Issue 18: a write past `ulimit -f` raised SIGXFSZ and killed the traced program.
    #[test]
    fn a_write_past_the_file_size_limit_fails_and_does_not_kill() {
        let dir = std::env::temp_dir().join(format!("accelprof-fsize-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big");
        // In a child: the limit and the write there, the test process left as it is.
        // SAFETY: fork in a test; the child only calls async-signal-safe functions and _exit.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            let limit = libc::rlimit { rlim_cur: 4096, rlim_max: libc::RLIM_INFINITY };
            // SAFETY: as above.
            unsafe { libc::setrlimit(libc::RLIMIT_FSIZE, &limit) };
            let written = without_sigxfsz(|| {
                let mut file = File::create(&path).ok()?;
                Some(file.write_all(&[0u8; 8192]).err()?.raw_os_error())
            });
            // SAFETY: as above.
            unsafe { libc::_exit(if written == Some(Some(libc::EFBIG)) { 7 } else { 1 }) };
        }
        let mut status = 0;
        // SAFETY: waiting for our child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        let _ = fs::remove_dir_all(&dir);
        assert!(libc::WIFEXITED(status), "killed by signal {}", libc::WTERMSIG(status));
        assert_eq!(libc::WEXITSTATUS(status), 7, "the write failed with EFBIG");
    }

    #[test]
    fn bad_outputs_are_refused_before_anything_runs() {
        let formats = &EXTENSIONS[..];
        let n = NameNumbers::from_vars(|_| None, 4_194_303);
        assert!(check_outputs("t.xyz", formats, &n).unwrap_err().contains("unknown format"));
        assert!(check_outputs("a\tb.json", formats, &n).unwrap_err().contains("control character"));
        assert!(check_outputs("/no/such/dir/t.json", formats, &n).unwrap_err().contains("/no/such/dir"));
        let ok = check_outputs("t_%p.json, t.parquet", formats, &n).unwrap();
        assert_eq!(ok.len(), 2);
        assert!(ok[0].0.is_absolute() && ok[0].0.ends_with("t_%p.json"));
        assert_eq!(check_outputs("none", formats, &n), Ok(Vec::new()));
        // `none` with other names wrote nothing; an empty list too.
        assert!(check_outputs("none,keep.json", formats, &n).unwrap_err().contains("with other outputs"));
        assert!(check_outputs("keep.json, off", formats, &n).unwrap_err().contains("with other outputs"));
        assert!(check_outputs("", formats, &n).unwrap_err().contains("no file named"));
        assert!(check_outputs(" , ", formats, &n).unwrap_err().contains("no file named"));
        // The same file twice wrote a second, numbered copy of it.
        assert!(check_outputs("a.json,a.json", formats, &n).unwrap_err().contains("named twice"));
        assert!(check_outputs("a.json, ./a.json", formats, &n).unwrap_err().contains("named twice"));
        assert_eq!(check_outputs("a.json,a.json.gz", formats, &n).map(|o| o.len()), Ok(2));
        assert!(check_summary_json("/no/such/dir/s.json", &n).unwrap_err().contains("/no/such/dir"));
        assert!(check_summary_json(&std::env::temp_dir().display().to_string(), &n)
            .unwrap_err()
            .contains("is a directory"));
        assert!(check_summary_json("s_%p.json", &n).unwrap().is_absolute());
        // A name longer than a file name may be failed only inside the program.
        let long = "a".repeat(252) + ".json";
        assert!(check_outputs(&long, formats, &n).unwrap_err().contains("longer than the 255"), "{long}");
        assert!(check_summary_json(&long, &n).unwrap_err().contains("257 bytes"), "{long}");
        assert_eq!(check_outputs(&long[2..], formats, &n).map(|o| o.len()), Ok(1), "255 bytes: fine");
    }

    /// An output name that only its expansion (`%p`, `%r`) made longer than 255 bytes failed only inside
    /// the traced program, where the end line counted two incomplete files for it: what the launcher can
    /// bound (the rank it gives the program, the widest process id) is checked before anything runs.
    #[test]
    fn a_name_too_long_once_expanded_is_refused_before_anything_runs() {
        let formats = &EXTENSIONS[..];
        let n = NameNumbers::from_vars(|_| None, 4_194_303);
        // `%p` is up to 7 digits here: 246 + 7 + 5 = 258 bytes.
        let long = "t".repeat(246) + "%p.json";
        let e = check_outputs(&long, formats, &n).unwrap_err();
        assert!(e.contains("258 bytes with %p a process id of 7 digits"), "{e}");
        assert!(e.contains("longer than the 255 a file name may have"), "{e}");
        assert!(check_summary_json(&long, &n).unwrap_err().contains("258 bytes"));
        // 243 + 7 + 5 = 255: fits whatever the pid.
        assert_eq!(check_outputs(&long[3..], formats, &n).map(|o| o.len()), Ok(1));
        // The rank the program is given counts as it is; unknown, it is one digit.
        let rank = |r: &str| NameNumbers::from_vars(|v| (v == "RANK").then(|| r.to_owned()), 99);
        let name = "t".repeat(248) + "_%r.json";
        assert_eq!(check_outputs(&name, formats, &rank("7")).map(|o| o.len()), Ok(1), "255 bytes");
        let e = check_outputs(&name, formats, &rank("12345")).unwrap_err();
        assert!(e.contains("259 bytes with %r the rank 12345"), "{e}");
        assert_eq!(check_outputs(&name, formats, &n).map(|o| o.len()), Ok(1), "rank unknown: 1 digit");
        // `%%` is one byte, `%l` the local rank (the rank when unset).
        let name = "t".repeat(248) + "%%%l.json";
        assert_eq!(check_outputs(&name, formats, &rank("3")).map(|o| o.len()), Ok(1), "255 bytes");
        assert!(check_outputs(&name, formats, &rank("10")).is_err(), "256 bytes");
    }
}
