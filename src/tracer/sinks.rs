//! The tracer's own consumer: every batch to every sink, the kernel summary and the row counts.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use accelprof_core::columns::{Family, PerFamily};
use accelprof_core::{Batch, Names};
use accelprof_export::trace::{DeviceProperties, RunMeta, TimeMap, TraceFile, TraceSink};
use serde_json::Value;

use super::{Distributed, Format, Output, TracerError};
use accelprof_export::summary::KernelSummary;

/// One output while it is written.
struct Slot {
    /// The file (expanded), or `None` for a caller's sink.
    path: Option<PathBuf>,
    /// The sink; `None` once a write failed.
    sink: Option<Box<dyn TraceSink>>,
    /// Why it stopped being written.
    error: Option<String>,
}

/// How one output ended.
#[derive(Debug)]
pub struct TraceOutcome {
    /// The file asked for (`%r`, `%p` replaced), or `None` for a caller's sink.
    pub path: Option<PathBuf>,
    /// The file written (its final path, events, size), or why it is not complete: the message says
    /// where what was written is (a whole trace up to the last batch written).
    pub result: Result<TraceFile, String>,
}

/// What the consumer builds, shared with the tracer.
pub(crate) struct Collected {
    slots: Vec<Slot>,
    pub(crate) summary: KernelSummary,
    pub(crate) rows: PerFamily<u64>,
}

pub(crate) type Shared = Arc<Mutex<Collected>>;

pub(crate) fn lock(shared: &Shared) -> MutexGuard<'_, Collected> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

/// Creates the sinks of `outputs`. A file output whose name no format takes, or that cannot be
/// created, is an error (and the sinks made before it are finished and removed).
pub(crate) fn create(
    outputs: &[Output],
    formats: &[Format],
    distributed: &Distributed,
    meta: &RunMeta,
    process_label: &str,
    launcher_report: Option<&Path>,
) -> Result<Shared, TracerError> {
    let mut slots: Vec<Slot> = Vec::new();
    let fail = |slots: Vec<Slot>, e: TracerError| {
        for slot in slots {
            if let Some(sink) = slot.sink {
                let partial = sink.partial_path().to_path_buf();
                let _ = sink.finish(None);
                if let Some(path) = &slot.path {
                    let _ = std::fs::remove_file(path);
                }
                let _ = std::fs::remove_file(partial);
            }
        }
        Err(e)
    };
    for output in outputs {
        let (path, made) = match output {
            Output::Path(asked) => {
                let mut path = match distributed.expand(asked) {
                    Ok(p) => p,
                    Err(e) => return fail(slots, e),
                };
                // Under the launcher each name is claimed for this process; a name another process of
                // the run took already becomes `name.<pid>.ext`, and this is said. A program that
                // execs itself keeps its pid: each image numbers the name once more (`name.<pid>.<pid>.ext`)
                // until it claims one, so that no image replaces an earlier one's trace.
                if let Some(dir) = launcher_report {
                    if !crate::launcher::claim(dir, &path) {
                        let pid = std::process::id();
                        let mut mine = crate::launcher::numbered(&path, pid);
                        for _ in 0..64 {
                            if crate::launcher::claim(dir, &mine) {
                                break;
                            }
                            mine = crate::launcher::numbered(&mine, pid);
                        }
                        super::finish::say(&format!(
                            "pid {pid}: another process of this run writes {}: this one writes {}",
                            path.display(),
                            mine.display()
                        ));
                        path = mine;
                    }
                }
                // A name longer than a file name may be could be written only under its shortened
                // `.partial` name, and failed at the end (the rename): refused now, naming the file.
                let length = path.file_name().map_or(0, |n| n.len());
                if length > accelprof_export::trace::NAME_MAX {
                    let source = std::io::Error::other(format!(
                        "the file name is {length} bytes, longer than the {} a file name may have",
                        accelprof_export::trace::NAME_MAX
                    ));
                    return fail(slots, TracerError::Output { path, source });
                }
                // Two outputs of one file wrote one partial file twice over, and the second's rename
                // failed at the end.
                let same = |other: &Path| {
                    let whole = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
                    whole(other).components().eq(whole(&path).components())
                };
                if slots.iter().filter_map(|s| s.path.as_deref()).any(same) {
                    let e = TracerError::Config(format!(
                        "the output {} is given twice (each output is a file of its own)",
                        path.display()
                    ));
                    return fail(slots, e);
                }
                let Some(format) = formats.iter().find(|f| f.takes(&path)) else {
                    let known = formats
                        .iter()
                        .flat_map(|f| f.extensions().iter().map(|e| format!("*.{e}")))
                        .collect();
                    return fail(slots, TracerError::UnknownFormat { path, known });
                };
                let made = format.create(&path, meta);
                (Some(path), made)
            }
            Output::Sink(make) => (None, make(meta)),
        };
        match made {
            Ok(mut sink) => {
                let pid = std::process::id();
                let _ = sink.add_process_name(pid.into(), &format!("{process_label} (pid {pid})"));
                slots.push(Slot { path, sink: Some(sink), error: None });
            }
            Err(source) => {
                let path = path.unwrap_or_else(|| PathBuf::from("(sink)"));
                return fail(slots, TracerError::Output { path, source });
            }
        }
    }
    Ok(Arc::new(Mutex::new(Collected { slots, summary: KernelSummary::default(), rows: Default::default() })))
}

impl Collected {
    /// Takes one delivered batch.
    pub(crate) fn add(&mut self, batch: &Batch, names: &Names, time: &TimeMap) {
        for family in Family::ALL {
            self.rows[family] += batch.len_of(family) as u64;
        }
        self.summary.add(batch);
        for slot in &mut self.slots {
            let Some(sink) = slot.sink.as_mut() else { continue };
            if let Err(e) = sink.add_batch(batch, names, time) {
                // What was written stays a whole trace in the partial file.
                slot.error = Some(format!("writing {} failed: {e}", sink.partial_path().display()));
                slot.sink = None;
            }
        }
    }

    /// The devices, learned after the sinks were made (see `devices.rs`).
    pub(crate) fn add_device_properties(&mut self, devices: &[DeviceProperties]) {
        for slot in &mut self.slots {
            let Some(sink) = slot.sink.as_mut() else { continue };
            if let Err(e) = sink.add_device_properties(devices) {
                slot.error = Some(format!("writing {} failed: {e}", sink.partial_path().display()));
                slot.sink = None;
            }
        }
    }

    /// Waits until every sink has what it was given on disk; the first failure.
    pub(crate) fn sync(&mut self) -> Result<(), String> {
        let mut first = None;
        for slot in &mut self.slots {
            if let Some(sink) = slot.sink.as_mut() {
                if let Err(e) = sink.sync() {
                    let message = format!("writing {} failed: {e}", sink.partial_path().display());
                    first.get_or_insert_with(|| message.clone());
                    slot.error = Some(message);
                    slot.sink = None;
                }
            } else if let Some(e) = &slot.error {
                first.get_or_insert_with(|| e.clone());
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// The files being written (readable after each [`sync`](Self::sync)).
    pub(crate) fn partial_paths(&self) -> Vec<PathBuf> {
        self.slots.iter().filter_map(|s| s.sink.as_ref().map(|s| s.partial_path().to_path_buf())).collect()
    }

    /// Each file being written: (the file written until the end, its final name).
    pub(crate) fn files(&self) -> Vec<(PathBuf, PathBuf)> {
        self.slots
            .iter()
            .filter_map(|s| Some((s.sink.as_ref()?.partial_path().to_path_buf(), s.path.clone()?)))
            .collect()
    }

    /// Each output as known before it is finished: its final name (`None` for a caller's sink) and, when
    /// it stopped being written, why. What the summary written inside the files says of them.
    pub(crate) fn planned(&self) -> Vec<(Option<PathBuf>, Option<String>)> {
        self.slots
            .iter()
            .map(|s| {
                let stopped = match (&s.sink, &s.error) {
                    (_, Some(e)) => Some(e.clone()),
                    (None, None) => Some("the trace was not written".to_owned()),
                    (Some(_), None) => None,
                };
                (s.path.clone(), stopped)
            })
            .collect()
    }

    /// Finishes every sink with `summary` in it.
    pub(crate) fn finish(&mut self, summary: &Value) -> Vec<TraceOutcome> {
        std::mem::take(&mut self.slots)
            .into_iter()
            .map(|slot| {
                let result = match (slot.sink, slot.error) {
                    (_, Some(e)) => Err(e),
                    (Some(sink), None) => {
                        let partial = sink.partial_path().to_path_buf();
                        sink.finish(Some(summary)).map_err(|e| {
                            format!(
                                "could not finish the trace (what was written is in {}): {e}",
                                partial.display()
                            )
                        })
                    }
                    (None, None) => Err("the trace was not written".to_owned()),
                };
                TraceOutcome { path: slot.path, result }
            })
            .collect()
    }
}

/// `python train.py --lr 1e-3` from `/proc/self/cmdline` (else the executable's name), shortened.
pub(crate) fn process_label() -> String {
    let from_cmdline = std::fs::read("/proc/self/cmdline").ok().map(|raw| {
        raw.split(|b| *b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    });
    let label = from_cmdline.filter(|l| !l.is_empty()).unwrap_or_else(|| {
        std::env::current_exe()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "process".to_owned())
    });
    let label = match label.split_once(' ') {
        // The executable's name, not its whole path.
        Some((exe, rest)) => format!("{} {rest}", short(exe)),
        None => short(&label).to_owned(),
    };
    if label.chars().count() > 80 {
        label.chars().take(77).collect::<String>() + "..."
    } else {
        label
    }
}

fn short(exe: &str) -> &str {
    Path::new(exe).file_name().and_then(|n| n.to_str()).unwrap_or(exe)
}
