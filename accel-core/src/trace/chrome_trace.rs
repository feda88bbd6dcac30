use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::emit::{Emit, EventList};
use super::flows::Flows;
use super::json_object::JsonObject;
use super::meta::RESERVED_KEYS;
use super::{TimeMap, TraceMeta};
use crate::columns::Batch;
use crate::intern::Names;

/// A Chrome trace being built: add batches as they are delivered, then [`write_to`](Self::write_to).
///
/// Events are rendered to JSON when added (the batch can be reused right away); flow arrows are written at
/// the end, because an API call and its kernel usually arrive in different batches. External-correlation
/// rows are not written as events.
#[derive(Debug)]
pub struct ChromeTrace {
    meta: TraceMeta,
    events: EventList,
    flows: Flows,
    devices: BTreeSet<u32>,
    process_names: BTreeMap<u64, String>,
    thread_names: BTreeMap<(u64, u64), String>,
    scratch: String,
}

impl ChromeTrace {
    /// An empty trace with this metadata.
    pub fn new(meta: TraceMeta) -> Self {
        ChromeTrace {
            meta,
            events: EventList::default(),
            flows: Flows::default(),
            devices: BTreeSet::new(),
            process_names: BTreeMap::new(),
            thread_names: BTreeMap::new(),
            scratch: String::new(),
        }
    }

    /// The metadata the file will carry.
    pub fn meta(&self) -> &TraceMeta {
        &self.meta
    }

    /// Events added so far (not counting process/thread names and flow arrows).
    pub fn event_count(&self) -> usize {
        self.events.count
    }

    /// Adds every row of `batch` as events; `names` resolves its name ids, `time` maps its timestamps to Unix
    /// time.
    pub fn add_batch(&mut self, batch: &Batch, names: &Names, time: &TimeMap) {
        let mut emit = Emit {
            out: &mut self.events,
            flows: &mut self.flows,
            devices: &mut self.devices,
            names,
            categories: &self.meta.categories,
            time: *time,
            base_ns: self.meta.base_time_unix_ns,
            scratch: std::mem::take(&mut self.scratch),
        };
        emit.api_calls(&batch.api_calls);
        emit.markers(&batch.markers);
        emit.kernels(&batch.kernels);
        emit.memcpys(&batch.memcpys);
        emit.memsets(&batch.memsets);
        emit.collectives(&batch.collectives);
        emit.syncs(&batch.syncs);
        emit.memory(&batch.memory);
        emit.counters(&batch.counters);
        self.scratch = emit.scratch;
    }

    /// Names a process timeline (a host `pid`, or a device's: by default devices are named `GPU <n>`).
    pub fn add_process_name(&mut self, pid: u64, name: impl Into<String>) {
        self.process_names.insert(pid, name.into());
    }

    /// Names a thread (or a device stream) timeline.
    pub fn add_thread_name(&mut self, pid: u64, tid: u64, name: impl Into<String>) {
        self.thread_names.insert((pid, tid), name.into());
    }

    /// Adds a CPU range (e.g. `ProfilerStep#3`, `cat` `cpu_op` or `user_annotation`); times in Unix ns.
    pub fn add_cpu_range(
        &mut self,
        cat: &str,
        name: &str,
        pid: u64,
        tid: u64,
        start_unix_ns: u64,
        end_unix_ns: u64,
    ) {
        let base = i128::from(self.meta.base_time_unix_ns);
        let mut o = self.events.begin();
        o.str("ph", "X").str("cat", cat).str("name", name).uint("pid", pid).uint("tid", tid);
        o.micros("ts", i128::from(start_unix_ns) - base);
        o.micros("dur", i128::from(end_unix_ns.saturating_sub(start_unix_ns)));
        o.end();
    }

    /// Writes the trace to `path` atomically: into a temporary file in the same directory, then renamed over
    /// `path`. On error the temporary file is removed and `path` is untouched.
    pub fn write_to(&self, path: impl AsRef<Path>) -> io::Result<()> {
        let path = path.as_ref();
        let tmp = temporary_path(path);
        let result = (|| {
            let mut w = BufWriter::new(File::create(&tmp)?);
            self.write(&mut w)?;
            w.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
            fs::rename(&tmp, path)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    /// Writes the trace JSON to any writer.
    pub fn write(&self, w: &mut impl Write) -> io::Result<()> {
        let meta = &self.meta;
        let mut head = Vec::new();
        head.extend_from_slice(b"{\n  \"schemaVersion\": ");
        head.extend_from_slice(meta.schema_version.to_string().as_bytes());
        head.extend_from_slice(b",\n  \"deviceProperties\": [");
        for (i, device) in meta.device_properties.iter().enumerate() {
            head.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
            device.write(&mut head);
        }
        head.extend_from_slice(if meta.device_properties.is_empty() { b"]" } else { b"\n  ]" });
        for (key, value) in meta.metadata.iter().filter(|(k, _)| !RESERVED_KEYS.contains(&k.as_str())) {
            head.extend_from_slice(b",\n  ");
            head.extend_from_slice(serde_json::to_string(key)?.as_bytes());
            head.extend_from_slice(b": ");
            head.extend_from_slice(serde_json::to_string(value)?.as_bytes());
        }
        head.extend_from_slice(b",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
        head.extend_from_slice(meta.base_time_unix_ns.to_string().as_bytes());
        head.extend_from_slice(b",\n  \"traceEvents\": [\n");
        w.write_all(&head)?;

        let timeline_names = self.timeline_names();
        let mut flows = EventList::default();
        self.flows.write(&mut flows);
        let mut first = true;
        for list in [&timeline_names, &self.events, &flows].into_iter().filter(|l| l.count > 0) {
            if !first {
                w.write_all(b",\n")?;
            }
            first = false;
            w.write_all(&list.bytes)?;
        }

        let mut tail = Vec::new();
        tail.extend_from_slice(b"\n  ],\n  \"distributedInfo\": ");
        let mut info = JsonObject::begin(&mut tail);
        if let Some(backend) = &meta.backend {
            info.str("backend", backend);
        }
        info.uint("rank", meta.rank.into()).uint("world_size", meta.world_size.into());
        info.end();
        if let Some(name) = &meta.trace_name {
            tail.extend_from_slice(b",\n  \"traceName\": ");
            tail.extend_from_slice(serde_json::to_string(name)?.as_bytes());
        }
        tail.extend_from_slice(b"\n}\n");
        w.write_all(&tail)
    }

    /// `process_name` / `thread_name` metadata events: the names given, and `GPU <n>` for unnamed devices.
    fn timeline_names(&self) -> EventList {
        let mut out = EventList::default();
        let device_names = self.devices.iter().map(|d| (u64::from(*d), None));
        let named = self.process_names.iter().map(|(pid, name)| (*pid, Some(name.as_str())));
        let mut processes: BTreeMap<u64, Option<&str>> = device_names.collect();
        processes.extend(named);
        for (pid, name) in processes {
            let label;
            let name = match name {
                Some(name) => name,
                None => {
                    label = format!("{} {pid}", self.meta.device_label);
                    &label
                }
            };
            metadata_event(&mut out, "process_name", pid, 0, name);
        }
        for ((pid, tid), name) in &self.thread_names {
            metadata_event(&mut out, "thread_name", *pid, *tid, name);
        }
        out
    }
}

fn metadata_event(out: &mut EventList, kind: &str, pid: u64, tid: u64, name: &str) {
    let mut o = out.begin();
    o.str("name", kind).str("ph", "M").uint("pid", pid).uint("tid", tid);
    let mut args = o.object("args");
    args.str("name", name);
    args.end();
    o.end();
}

/// `dir/.name.<pid>.<n>.tmp` next to `path`, unique within this process.
fn temporary_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "trace".into());
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}
