//! The names of a trace file while it is written (`.partial-<pid>`) and once finished, shared by every
//! writer of the crate (Chrome JSON, Parquet, Perfetto).

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

/// Where a trace for `path` is written until it is finished: `trace.json.gz` -> `trace.partial-<pid>.json.gz`
/// in the same directory (the same extension, so Perfetto and HolisticTraceAnalysis open it as it is).
pub fn partial_path(path: &Path, pid: u32) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "trace".into());
    let ext = extension(&name);
    let stem = &name[..name.len() - ext.len()];
    path.with_file_name(format!("{stem}.partial-{pid}{ext}"))
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
}
