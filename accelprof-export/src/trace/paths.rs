//! The names of a trace file while it is written (`.partial-<pid>`) and once finished, shared by every
//! writer of the crate (Chrome JSON, Parquet, Perfetto).

use std::fs;
use std::io;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The extensions a trace file keeps when it is named `.partial` (readers pick the format by them):
/// Chrome JSON, and the Parquet and Perfetto files of the export crate, which are named the same way.
const EXTENSIONS: [&str; 6] = [".json.gz", ".json", ".gz", ".parquet", ".pftrace", ".perfetto-trace"];

/// How `name` ends of [`EXTENSIONS`], in its own case; `""` for none.
fn extension(name: &str) -> &str {
    name_extension(name, &EXTENSIONS)
}

/// The first of `extensions` (longest first) that `name` ends with, compared in any case (formats are
/// picked by their extensions in any case) and returned in `name`'s own (`T.JSON.GZ`: `.JSON.GZ`); `""`
/// for none, and for a name that is only the extension.
pub fn name_extension<'a>(name: &'a str, extensions: &[&str]) -> &'a str {
    let found = extensions.iter().find(|e| {
        name.len() > e.len()
            && name.is_char_boundary(name.len() - e.len())
            && name[name.len() - e.len()..].eq_ignore_ascii_case(e)
    });
    found.map_or("", |e| &name[name.len() - e.len()..])
}

/// The longest file name (bytes) the file systems of Linux take (`NAME_MAX`): a name that a suffix makes
/// longer fails to be created (`ENAMETOOLONG`).
pub const NAME_MAX: usize = 255;

/// `text` cut to at most `max` bytes, at a character boundary.
pub(crate) fn cut_to(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Where a trace for `path` is written until it is finished: `trace.json.gz` -> `trace.partial-<pid>.json.gz`
/// in the same directory (the same extension, so Perfetto and HolisticTraceAnalysis open it as it is).
///
/// A name too long to take the `.partial-<pid>` suffix within [`NAME_MAX`] bytes keeps as much of its
/// start as fits (the final name is the one asked for all the same: the writer renames the file to it;
/// [`finished_path`] of such a name gives the shortened one).
pub fn partial_path(path: &Path, pid: u32) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "trace".into());
    let ext = extension(&name);
    let suffix = format!(".partial-{pid}{ext}");
    let stem = cut_to(&name[..name.len() - ext.len()], NAME_MAX.saturating_sub(suffix.len()));
    path.with_file_name(format!("{stem}{suffix}"))
}

/// The finished name of a `.partial-<pid>` file ([`partial_path`] reversed); `None` for other names.
pub fn finished_path(partial: &Path) -> Option<PathBuf> {
    let name = partial.file_name()?.to_str()?;
    let ext = extension(name);
    let stem = &name[..name.len() - ext.len()];
    let at = stem.rfind(".partial-")?;
    let pid = &stem[at + ".partial-".len()..];
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(partial.with_file_name(format!("{}{ext}", &stem[..at])))
}

/// Creates `path` as a new file, private (0600), never through a link: a trace's `.partial` file, or the
/// tracer's summary JSON. A regular file this user owns at the name (the `.partial` that this process
/// id left in an earlier run, this process before an `exec`, an earlier run's summary) is removed
/// first: a new file replaces it, so a second name (hard link) of it keeps what it held. Anything else
/// at the name (another user's file, a link, a directory) is never written into nor removed: an
/// `AlreadyExists` error that names it.
pub fn create_private(path: &Path) -> io::Result<std::fs::File> {
    let create = || {
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)
    };
    match create() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let there = fs::symlink_metadata(path)?;
            // SAFETY: geteuid has no preconditions.
            let me = unsafe { libc::geteuid() };
            if there.file_type().is_file() && there.uid() == me {
                fs::remove_file(path)?;
                return create();
            }
            let what = if there.file_type().is_symlink() {
                "it is a symbolic link".to_owned()
            } else if there.file_type().is_file() {
                format!("it is a file of user {}", there.uid())
            } else {
                "it is not a regular file".to_owned()
            };
            Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} is there already ({what}): left as it is, nothing written", path.display()),
            ))
        }
        made => made,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formats take their extensions in any case: so does the `.partial` name, and gzip
    /// (`T.JSON.GZ` was written as plain JSON, named `T.JSON.GZ.partial-7`).
    #[test]
    fn an_extension_in_any_case_is_kept_where_it_is() {
        for (name, partial) in [
            ("/d/t.json.gz", "/d/t.partial-7.json.gz"),
            ("/d/T.JSON.GZ", "/d/T.partial-7.JSON.GZ"),
            ("/d/T.Parquet", "/d/T.partial-7.Parquet"),
        ] {
            assert_eq!(partial_path(Path::new(name), 7), Path::new(partial));
            assert_eq!(finished_path(Path::new(partial)).as_deref(), Some(Path::new(name)));
        }
        assert!(super::super::output::is_gzip_name(Path::new("/d/T.partial-7.JSON.GZ")));
    }

    /// A name of 255 bytes (the most a file name may have) could not be written: its `.partial-<pid>`
    /// name was longer than that. It keeps its start and its extension now.
    #[test]
    fn the_partial_name_of_a_name_of_the_longest_length_fits() {
        for ext in [".json", ".json.gz", ".parquet", ".pftrace"] {
            let name = "é".repeat(100) + &"a".repeat(55 - ext.len()) + ext;
            assert_eq!(name.len(), NAME_MAX);
            let partial = partial_path(&Path::new("/d").join(&name), 4_194_304);
            let short = partial.file_name().unwrap().to_str().unwrap();
            assert!(short.len() <= NAME_MAX, "{} bytes: {short}", short.len());
            assert!(short.starts_with("éé") && short.ends_with(&format!(".partial-4194304{ext}")), "{short}");
            let finished = finished_path(&partial).unwrap();
            assert!(name.starts_with(finished.file_name().unwrap().to_str().unwrap().trim_end_matches(ext)));
        }
        // The temporary name of a whole-file write (recover's copy) fits too.
        let tmp = super::super::output::temporary_path(&Path::new("/d").join("b".repeat(NAME_MAX)));
        assert!(tmp.file_name().unwrap().len() <= NAME_MAX, "{}", tmp.display());
        // A name that fits is untouched.
        assert_eq!(partial_path(Path::new("/d/t.json"), 4_194_304), Path::new("/d/t.partial-4194304.json"));
    }
}
