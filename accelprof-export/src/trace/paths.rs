//! The names of a trace file while it is written (`.partial-<pid>`) and once finished, shared by every
//! writer of the crate (Chrome JSON, Parquet, Perfetto).

use std::path::{Path, PathBuf};

/// The extensions a trace file keeps when it is named `.partial` (readers pick the format by them):
/// Chrome JSON, and the Parquet and Perfetto files of the export crate, which are named the same way.
const EXTENSIONS: [&str; 6] = [".json.gz", ".json", ".gz", ".parquet", ".pftrace", ".perfetto-trace"];

/// Where a trace for `path` is written until it is finished: `trace.json.gz` -> `trace.partial-<pid>.json.gz`
/// in the same directory (the same extension, so Perfetto and HolisticTraceAnalysis open it as it is).
pub fn partial_path(path: &Path, pid: u32) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "trace".into());
    let ext = EXTENSIONS.iter().find(|e| name.len() > e.len() && name.ends_with(*e)).copied().unwrap_or("");
    let stem = &name[..name.len() - ext.len()];
    path.with_file_name(format!("{stem}.partial-{pid}{ext}"))
}

/// The finished name of a `.partial-<pid>` file ([`partial_path`] reversed); `None` for other names.
pub fn finished_path(partial: &Path) -> Option<PathBuf> {
    let name = partial.file_name()?.to_str()?;
    let ext = EXTENSIONS.iter().find(|e| name.len() > e.len() && name.ends_with(*e)).copied().unwrap_or("");
    let stem = &name[..name.len() - ext.len()];
    let at = stem.rfind(".partial-")?;
    let pid = &stem[at + ".partial-".len()..];
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(partial.with_file_name(format!("{}{ext}", &stem[..at])))
}
