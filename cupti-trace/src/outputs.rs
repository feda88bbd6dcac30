//! The trace files of one collection: each output in its name's format, fed through one [`Outputs`]
//! sink, which also asks the CUDA driver for the devices until it answers.
//!
//! | name | format |
//! | --- | --- |
//! | `.parquet` | Parquet, `accelprof-export`'s events table (feature `columns`) |
//! | `.pftrace`, `.perfetto-trace` | Perfetto's protobuf trace (feature `columns`) |
//! | `.json`, `.json.gz`, any other | Chrome trace JSON (Kineto's conventions) |
//!
//! The first Chrome JSON output is the main one (the others are written alongside): what
//! [`TraceReport::trace`](crate::TraceReport) describes. Every output is written as
//! `name.partial-<pid>.ext` until the process ends; one left by a dead process is readable (the JSON
//! trace after each chunk, the Parquet file after each row group, which is written with a footer, the
//! Perfetto file after each batch), and the launcher puts each under its name (`recover`). Writes of ours
//! past `ulimit -f` fail (EFBIG, reported) rather than killing the program with SIGXFSZ.

use std::io;
use std::path::{Path, PathBuf};

use accelprof_core::{Batch, Names};
use accelprof_export::trace::{
    ChromeTraceWriter, CudaDeviceWatch, DeviceProperties, RunMeta, TimeMap, TraceFile, TraceSink,
    WriterOptions,
};
use serde_json::Value;

/// Which writer a file name asks for.
fn format_of(path: &Path) -> &'static str {
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    if name.ends_with(".parquet") {
        "parquet"
    } else if name.ends_with(".pftrace") || name.ends_with(".perfetto-trace") {
        "perfetto"
    } else {
        "json"
    }
}

/// The sink of one file.
fn create_one(
    path: &Path,
    meta: &RunMeta,
    options: &WriterOptions,
    process: &str,
) -> io::Result<Box<dyn TraceSink>> {
    match format_of(path) {
        #[cfg(feature = "columns")]
        "parquet" => {
            let options = accelprof_export::parquet::ParquetOptions::default();
            Ok(Box::new(accelprof_export::sink::ParquetSink::create(path, meta, options)?))
        }
        #[cfg(feature = "columns")]
        "perfetto" => {
            let options = accelprof_export::perfetto::PerfettoOptions {
                categories: accelprof_export::trace::Style::of_vendor(&meta.vendor).categories,
                device_label: accelprof_export::trace::Style::of_vendor(&meta.vendor).device_label,
                process_name: Some(process.to_owned()),
                ..Default::default()
            };
            Ok(Box::new(accelprof_export::sink::PerfettoSink::create(path, meta, options)?))
        }
        "json" => {
            let mut writer = ChromeTraceWriter::create_with(path, meta.clone(), options.clone())?;
            writer.add_process_name(meta.process_id.into(), process)?;
            Ok(Box::new(writer))
        }
        _ => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!(
                "{}: this build writes Chrome JSON only (built without the `columns` feature)",
                path.display()
            ),
        )),
    }
}

/// Every output of the collection as one sink.
pub(crate) struct Outputs {
    /// The main output first.
    sinks: Vec<(PathBuf, Option<Box<dyn TraceSink>>)>,
    /// Why an output other than the main one stopped being written.
    errors: Vec<String>,
    devices: Option<CudaDeviceWatch>,
}

impl Outputs {
    /// Creates every file of `paths` (the main output is the first Chrome JSON one, else the first).
    /// The first failure is the error (the files made before it are left as they are, unfinished).
    pub(crate) fn create(
        paths: &[PathBuf],
        meta: &RunMeta,
        options: &WriterOptions,
        process: &str,
    ) -> Result<Outputs, String> {
        let mut ordered: Vec<&PathBuf> = paths.iter().collect();
        if let Some(main) = ordered.iter().position(|p| format_of(p) == "json") {
            let main = ordered.remove(main);
            ordered.insert(0, main);
        }
        let mut sinks = Vec::new();
        for path in ordered {
            let sink = crate::launcher::without_sigxfsz(|| create_one(path, meta, options, process))
                .map_err(|e| format!("could not create the trace for {}: {e}", path.display()))?;
            sinks.push((path.clone(), Some(sink)));
        }
        let devices = meta.device_properties.is_empty().then(CudaDeviceWatch::new);
        Ok(Outputs { sinks, errors: Vec::new(), devices })
    }

    /// Every file: (the file written until the end, its final name), the main one first.
    pub(crate) fn files(&self) -> Vec<(PathBuf, PathBuf)> {
        self.sinks
            .iter()
            .filter_map(|(path, sink)| sink.as_ref().map(|s| (s.partial_path().to_path_buf(), path.clone())))
            .collect()
    }

    /// Runs `f` on every sink still written; a failure of the main one is the error, one of another
    /// output stops that output only (said at the end).
    fn each(&mut self, mut f: impl FnMut(&mut dyn TraceSink) -> io::Result<()>) -> io::Result<()> {
        let mut main_failed = None;
        for (i, (path, slot)) in self.sinks.iter_mut().enumerate() {
            let Some(sink) = slot.as_mut() else { continue };
            // The Parquet and Perfetto writers write on the calling thread: past `ulimit -f` their
            // write fails rather than killing the program.
            if let Err(e) = crate::launcher::without_sigxfsz(|| f(sink.as_mut())) {
                if i == 0 {
                    main_failed = Some(e);
                } else {
                    self.errors.push(format!("{} NOT complete (writing failed: {e})", path.display()));
                    *slot = None;
                }
            }
        }
        main_failed.map_or(Ok(()), Err)
    }
}

impl TraceSink for Outputs {
    fn add_batch(&mut self, batch: &Batch, names: &Names, time: &TimeMap) -> io::Result<()> {
        // The driver describes its devices once the program initialized it (CUDA runs this library
        // inside cuInit, before that): asked with each batch until it answers.
        if let Some(devices) = self.devices.as_mut().and_then(CudaDeviceWatch::poll) {
            self.add_device_properties(&devices)?;
        }
        self.each(|s| s.add_batch(batch, names, time))
    }

    fn add_process_name(&mut self, pid: u64, name: &str) -> io::Result<()> {
        self.each(|s| s.add_process_name(pid, name))
    }

    fn add_thread_name(&mut self, pid: u64, tid: u64, name: &str) -> io::Result<()> {
        self.each(|s| s.add_thread_name(pid, tid, name))
    }

    fn add_device_properties(&mut self, devices: &[DeviceProperties]) -> io::Result<()> {
        self.each(|s| s.add_device_properties(devices))
    }

    fn sync(&mut self) -> io::Result<()> {
        self.each(|s| s.sync())
    }

    fn partial_path(&self) -> &Path {
        self.sinks[0].1.as_ref().map_or(Path::new(""), |s| s.partial_path())
    }

    /// Finishes every file; the main one's result is the result, the others are reported on stderr.
    fn finish(self: Box<Self>, summary: Option<&Value>) -> io::Result<TraceFile> {
        let Outputs { sinks, mut errors, .. } = *self;
        let mut main = None;
        for (i, (path, sink)) in sinks.into_iter().enumerate() {
            let Some(sink) = sink else { continue };
            let done = crate::launcher::without_sigxfsz(|| sink.finish(summary));
            if i == 0 {
                main = Some(done);
                continue;
            }
            match done {
                Ok(file) => crate::report(&format!(
                    "also: {} ({} rows, {})",
                    file.path.display(),
                    file.rows,
                    crate::tracer::human_bytes(file.file_bytes)
                )),
                Err(e) => errors.push(format!("{} NOT complete (finishing failed: {e})", path.display())),
            }
        }
        for e in errors {
            crate::report(&e);
        }
        main.unwrap_or_else(|| Err(io::Error::other("the trace was not written")))
    }
}
