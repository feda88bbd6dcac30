//! Where a tracer's records go: [`Output`]s, and the [`Format`]s that turn a file name into a
//! [`TraceSink`].

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use accelprof_export::trace::{ChromeTraceWriter, RunMeta, TraceSink, WriterOptions};

/// Makes the sink of a file: given its path (`%r`, `%p` already replaced) and the trace's metadata.
pub type FileSinkFn = dyn Fn(&Path, &RunMeta) -> io::Result<Box<dyn TraceSink>> + Send + Sync;

/// Makes a sink that is not a file of a known format: given the trace's metadata.
pub type SinkFn = dyn Fn(&RunMeta) -> io::Result<Box<dyn TraceSink>> + Send + Sync;

/// One destination of the records.
///
/// `"trace.json".into()` is a file whose format its name picks (see [`Format`]).
#[derive(Clone)]
pub enum Output {
    /// A file; the first of [`TracerConfig::formats`](super::TracerConfig::formats) whose extension
    /// it ends with writes it. `%r` is replaced by the rank, `%l` by the local rank, `%p` by the
    /// process id.
    Path(PathBuf),
    /// A sink made by the caller (any [`TraceSink`]: an in-memory one, a socket, ...).
    Sink(Arc<SinkFn>),
}

impl Output {
    /// A sink from a closure.
    pub fn sink(make: impl Fn(&RunMeta) -> io::Result<Box<dyn TraceSink>> + Send + Sync + 'static) -> Output {
        Output::Sink(Arc::new(make))
    }
}

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Output::Path(p) => f.debug_tuple("Path").field(p).finish(),
            Output::Sink(_) => f.write_str("Sink(..)"),
        }
    }
}

impl From<&str> for Output {
    fn from(path: &str) -> Output {
        Output::Path(path.into())
    }
}

impl From<String> for Output {
    fn from(path: String) -> Output {
        Output::Path(path.into())
    }
}

impl From<PathBuf> for Output {
    fn from(path: PathBuf) -> Output {
        Output::Path(path)
    }
}

impl From<&Path> for Output {
    fn from(path: &Path) -> Output {
        Output::Path(path.into())
    }
}

/// A trace format: the file names it takes and how to make its sink.
///
/// [`Format::built_in`] are in [`TracerConfig::formats`](super::TracerConfig::formats) by default
/// (Chrome JSON; Parquet and Perfetto with the `columns` feature); other crates bring theirs and add
/// them:
///
/// ```
/// use std::sync::Arc;
/// use accel_profiling::{Format, TracerConfig};
/// use accelprof_export::trace::{ChromeTraceWriter, TraceSink};
///
/// // A stand-in for another writer: Chrome JSON under another extension.
/// let mine = Format::new("my format", ["mine"], |path, meta| {
///     Ok(Box::new(ChromeTraceWriter::create(path, meta.clone())?) as Box<dyn TraceSink>)
/// });
/// let mut config = TracerConfig { outputs: vec!["run.json.gz".into(), "run.mine".into()], ..Default::default() };
/// config.formats.push(mine);
/// assert_eq!(config.formats.first().map(|f| f.name()), Some("Chrome trace JSON"));
/// assert_eq!(config.formats.last().map(|f| f.name()), Some("my format"));
/// ```
#[derive(Clone)]
pub struct Format {
    name: String,
    extensions: Vec<String>,
    make: Arc<FileSinkFn>,
}

impl Format {
    /// A format named `name` for files ending in `.<extension>` (e.g. `parquet`, `json.gz`).
    pub fn new(
        name: impl Into<String>,
        extensions: impl IntoIterator<Item = impl Into<String>>,
        make: impl Fn(&Path, &RunMeta) -> io::Result<Box<dyn TraceSink>> + Send + Sync + 'static,
    ) -> Format {
        Format {
            name: name.into(),
            extensions: extensions.into_iter().map(Into::into).collect(),
            make: Arc::new(make),
        }
    }

    /// The Chrome trace JSON of PyTorch's profiler (Kineto), streamed ([`ChromeTraceWriter`]):
    /// `.json`, or gzip-compressed `.json.gz`. Perfetto, chrome://tracing and
    /// HolisticTraceAnalysis read it.
    pub fn chrome_json() -> Format {
        Format::new("Chrome trace JSON", ["json", "json.gz"], |path, meta| {
            Ok(Box::new(ChromeTraceWriter::create(path, meta.clone())?) as Box<dyn TraceSink>)
        })
    }

    /// [`chrome_json`](Self::chrome_json) written with `options` (the `.json.gz` compression level,
    /// the launch -> kernel arrows that may wait for their other end).
    pub fn chrome_json_with(options: WriterOptions) -> Format {
        Format::new("Chrome trace JSON", ["json", "json.gz"], move |path, meta| {
            Ok(Box::new(ChromeTraceWriter::create_with(path, meta.clone(), options.clone())?)
                as Box<dyn TraceSink>)
        })
    }

    /// The formats this build knows, by file name: [`chrome_json`](Self::chrome_json) (`.json`,
    /// `.json.gz`) and, with the `columns` feature (on by default), `parquet` (`.parquet`) and `perfetto`
    /// (`.pftrace`, `.perfetto-trace`).
    pub fn built_in() -> Vec<Format> {
        #[allow(unused_mut)]
        let mut formats = vec![Format::chrome_json()];
        #[cfg(feature = "columns")]
        formats.extend([Format::parquet(), Format::perfetto()]);
        formats
    }

    /// The format's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The extensions it takes (without the dot).
    pub fn extensions(&self) -> &[String] {
        &self.extensions
    }

    /// Whether `path`'s name ends in one of its extensions.
    pub fn takes(&self, path: &Path) -> bool {
        let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        self.extensions.iter().any(|e| {
            let e = e.to_ascii_lowercase();
            name.len() > e.len() + 1
                && name.ends_with(&e)
                && name.as_bytes()[name.len() - e.len() - 1] == b'.'
        })
    }

    /// Makes the sink of `path`.
    pub fn create(&self, path: &Path, meta: &RunMeta) -> io::Result<Box<dyn TraceSink>> {
        (self.make)(path, meta)
    }
}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Format").field("name", &self.name).field("extensions", &self.extensions).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_takes_its_extensions_only() {
        let json = Format::chrome_json();
        for yes in ["trace.json", "out/trace_0.JSON", "t.json.gz"] {
            assert!(json.takes(Path::new(yes)), "{yes}");
        }
        for no in ["trace.parquet", "json", "trace.jsonl", "trace.gz", ".json"] {
            assert!(!json.takes(Path::new(no)), "{no}");
        }
    }
}
