//! Where a tracer's end goes besides its outputs: the summary JSON, the summary on stderr, and the
//! launcher's private channel ([`crate::launcher`]), as the CUDA injection library did before the
//! engine was one.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::{Distributed, TracerConfig, TracerError, TracerReport};
use crate::launcher::{self, Line};

/// Reports on stderr, prefixed so it stands out of the traced program's output (control characters
/// escaped: a message may hold a name the program chose). A closed stderr drops it
/// ([`launcher::say_on_stderr`]).
pub(crate) fn say(message: &str) {
    launcher::say_on_stderr(&format!(
        "[accelprof] {}\n",
        accelprof_export::summary::escape_control_lines(message)
    ));
}

/// What the end of a tracer does besides finishing the outputs.
pub(crate) struct EndOptions {
    /// Where the report goes as JSON (expanded).
    summary_json: Option<PathBuf>,
    /// Print the report on stderr.
    print_summary: bool,
    /// The launcher's channel.
    pub(crate) launcher_report: Option<PathBuf>,
}

impl EndOptions {
    pub(crate) fn new(config: &TracerConfig, distributed: &Distributed) -> Result<EndOptions, TracerError> {
        Ok(EndOptions {
            summary_json: config.summary_json.as_deref().map(|p| distributed.expand(p)).transpose()?,
            print_summary: config.print_summary,
            launcher_report: config.launcher_report.clone(),
        })
    }

    /// Tells the launcher `line`, when a launcher set a channel; whether it was told.
    pub(crate) fn tell(&self, line: &Line) -> bool {
        let Some(dir) = &self.launcher_report else { return false };
        match launcher::tell(dir, line) {
            Ok(()) => true,
            Err(e) => {
                say(&format!("could not tell the launcher ({}): {e}", dir.display()));
                false
            }
        }
    }

    /// The outputs were finished: the summary JSON, the summary on stderr, the launcher told how each
    /// ended.
    pub(crate) fn ended(&self, report: &TracerReport, top: usize) {
        if let Some(path) = &self.summary_json {
            let json = report.to_json().to_string();
            // A failure is told the launcher, which says it (once, with the pid) and makes it the run's
            // exit status; without a launcher to tell, it is said here. Never the program's end.
            if let Err(e) = launcher::without_sigxfsz(|| write_new(path, json.as_bytes())) {
                if !self.tell(&Line::SummaryFailed { path: path.clone(), why: e.to_string() }) {
                    say(&format!("the summary JSON {} was NOT written: {e}", path.display()));
                }
            }
        }
        if self.print_summary {
            let text = report.render(top);
            launcher::say_on_stderr(&text.lines().map(|l| format!("[accelprof] {l}\n")).collect::<String>());
        }
        let other = report.counts.other_client;
        if other.seen() {
            // The launcher exits non-zero for it.
            self.tell(&Line::Lost { taken: other.buffers_taken, foreign: other.foreign_buffers });
        }
        for trace in &report.traces {
            let line = match (&trace.result, &trace.path) {
                (Ok(file), _) => {
                    Line::End { path: file.path.clone(), events: file.events, bytes: file.file_bytes }
                }
                (Err(e), Some(output)) => Line::TraceFailed { output: output.clone(), why: e.clone() },
                (Err(e), None) => Line::Failed(e.clone()),
            };
            self.tell(&line);
        }
    }
}

/// Writes `bytes` to `path` in a new file (created private, mode 0600, as the traces are: the launcher
/// often runs as root in a shared directory), never following a link there and never writing through
/// one. A regular file of this user there is replaced (removed first: a second name of it keeps what it
/// held); another user's file, or a link, is refused and left as it is; a FIFO or a device
/// (`/dev/null`, `/dev/stdout`) is written.
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let special = std::fs::symlink_metadata(path).is_ok_and(|there| {
        let kind = there.file_type();
        !kind.is_file() && !kind.is_symlink() && !kind.is_dir()
    });
    let mut file = if special {
        // A FIFO or a device: written as it is (never through a link).
        std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC).open(path)?
    } else {
        accelprof_export::trace::create_private(path)?
    };
    file.write_all(bytes)?;
    // A regular file is synced; a FIFO or a device (`/dev/null`, `/dev/stdout`) cannot be (EINVAL) and
    // has taken the bytes already: that is no failure.
    match file.sync_all() {
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) && !file.metadata()?.is_file() => Ok(()),
        other => other,
    }
}
