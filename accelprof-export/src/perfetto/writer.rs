use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::trace::{memcpy_name, memset_name, Categories, TimeMap};
use accelprof_core::columns::HOST_DEVICE;
use accelprof_core::{Batch, Family, NameId, Names, PerFamily};
use prost::Message;

use super::protos::{
    Clock, ClockSnapshot, DebugAnnotation, DebugAnnotationName, EventCategory, EventName, InternedData,
    TracePacket, TracePacketDefaults, TrackEvent, TrackEventType, CLOCK_REALTIME,
    SEQ_INCREMENTAL_STATE_CLEARED, SEQ_NEEDS_INCREMENTAL_STATE,
};
use super::tracks::{Lane, Tracks};
use crate::atomic_file::AtomicFile;
use crate::writer::count_rows;
use crate::{BatchWriter, Error, Finished, RunMeta};

/// How a [`PerfettoWriter`] names and decorates events.
#[derive(Clone, Debug, PartialEq)]
pub struct PerfettoOptions {
    /// Event categories, as the JSON trace's (Kineto's: `kernel`, `gpu_memcpy`, `cuda_runtime`, ...).
    pub categories: Categories,
    /// Prefix of a device track's name (`GPU` gives `GPU 0`, `GPU 1`, ...).
    pub device_label: String,
    /// The name of the process track (default `process <pid>`).
    pub process_name: Option<String>,
    /// Write each event's arguments (correlation, grid, block, bytes, ...) as debug annotations (default
    /// true; false makes the file about half as large).
    pub args: bool,
}

impl Default for PerfettoOptions {
    fn default() -> Self {
        PerfettoOptions {
            categories: Categories::default(),
            device_label: "GPU".into(),
            process_name: None,
            args: true,
        }
    }
}

/// Where packets go.
enum Out {
    File(AtomicFile),
    Writer(Box<dyn Write + Send>, u64),
}

/// Writes Perfetto's native protobuf trace (`.pftrace`) as batches arrive: each batch's events are encoded
/// and appended at once (a trace file is a sequence of `TracePacket`s), so memory does not grow with the
/// run.
///
/// - Tracks: one per device, with a child per stream (and, where work could overlap, per lane: collectives,
///   syncs, device ranges, allocations); one per host process, with one per thread (API calls) and one for
///   each thread's markers; a counter track per device and counter.
/// - Events: slices (`TYPE_SLICE_BEGIN`/`TYPE_SLICE_END`), zero-length work as instants, counter values;
///   names, categories and argument names interned per sequence. Within a batch, events are in time order
///   (an end before a begin at the same time, an enclosing slice's begin first); across batches the trace
///   processor sorts.
/// - Flows: an API call carries its correlation id as a flow, the GPU work with that id terminates it, so
///   Perfetto draws an arrow from each launch to its kernel, copy or set (the driver call inside a runtime
///   call carries the same id: the arrow goes runtime call, driver call, kernel).
/// - Time: Unix nanoseconds (the run's clock anchor applied), declared as `CLOCK_REALTIME` and as the trace
///   clock, so that traces of many hosts line up.
///
/// The file is written as `name.partial-<pid>.pftrace` and renamed at [`finish`](Self::finish); after a crash the
/// temporary file holds every batch written before it, readable as a trace.
pub struct PerfettoWriter {
    out: Out,
    sequence: u32,
    time: TimeMap,
    options: PerfettoOptions,
    tracks: Tracks,
    interned: Interned,
    events: Vec<Ev>,
    pending: Vec<TracePacket>,
    packet: TracePacket,
    bytes: Vec<u8>,
    rows: PerFamily<u64>,
}

impl std::fmt::Debug for PerfettoWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerfettoWriter")
            .field("sequence", &self.sequence)
            .field("rows", &self.rows)
            .finish_non_exhaustive()
    }
}

/// One event to write: a slice's begin or end, an instant, or a counter value.
#[derive(Clone, Copy, Debug)]
struct Ev {
    /// Unix ns.
    ts: u64,
    /// At equal times: ends (0), then instants and counters (1), then begins (2).
    order: u8,
    /// At equal times and order: ends of later-begun slices first, begins of longer slices first.
    tie: u64,
    track: u64,
    name_iid: u64,
    category_iid: u64,
    family: Family,
    kind: TrackEventType,
    row: u32,
}

/// Names of events that are not interned names (derived or fallback names).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Derived {
    Memcpy(u8, u8, u8),
    Memset(u8),
    Api(u32, u32),
    Fallback(&'static str),
}

/// What this sequence has interned so far.
#[derive(Debug, Default)]
struct Interned {
    /// Interner ids whose name was emitted (index = id).
    names: Vec<bool>,
    derived: HashMap<Derived, u64>,
    categories: HashMap<String, u64>,
    /// To emit before the batch's events.
    new_names: Vec<EventName>,
    new_categories: Vec<EventCategory>,
}

/// iids of derived names start above every interner id.
const DERIVED_IID_BASE: u64 = 1 << 32;

impl Interned {
    fn name(&mut self, id: NameId, names: &Names, fallback: &'static str) -> u64 {
        if id.is_none() {
            return self.derived(Derived::Fallback(fallback), || fallback.to_owned());
        }
        let i = id.0 as usize;
        if self.names.len() <= i {
            self.names.resize(i + 1, false);
        }
        if !self.names[i] {
            self.names[i] = true;
            let name = names.lookup(id).unwrap_or(fallback).to_owned();
            self.new_names.push(EventName { iid: Some(u64::from(id.0)), name: Some(name) });
        }
        u64::from(id.0)
    }

    fn derived(&mut self, key: Derived, text: impl FnOnce() -> String) -> u64 {
        if let Some(iid) = self.derived.get(&key) {
            return *iid;
        }
        let iid = DERIVED_IID_BASE + self.derived.len() as u64;
        self.derived.insert(key, iid);
        self.new_names.push(EventName { iid: Some(iid), name: Some(text()) });
        iid
    }

    fn category(&mut self, name: &str) -> u64 {
        if let Some(iid) = self.categories.get(name) {
            return *iid;
        }
        let iid = self.categories.len() as u64 + 1;
        self.categories.insert(name.to_owned(), iid);
        self.new_categories.push(EventCategory { iid: Some(iid), name: Some(name.to_owned()) });
        iid
    }

    fn take(&mut self) -> Option<InternedData> {
        if self.new_names.is_empty() && self.new_categories.is_empty() {
            return None;
        }
        Some(InternedData {
            event_names: std::mem::take(&mut self.new_names),
            event_categories: std::mem::take(&mut self.new_categories),
            debug_annotation_names: Vec::new(),
        })
    }
}

/// Debug annotation names, interned once in the first packet (iid = index + 1).
const ARG_NAMES: [&str; 14] = [
    "correlation",
    "grid",
    "block",
    "registers per thread",
    "shared memory",
    "bytes",
    "memory bandwidth (GB/s)",
    "cbid",
    "domain",
    "Collective name",
    "Process Group Name",
    "In msg nelems",
    "sync_type",
    "event",
];

fn arg_iid(name: &str) -> u64 {
    ARG_NAMES.iter().position(|n| *n == name).map_or(0, |i| i as u64 + 1)
}

fn uint_arg(name: &str, value: u64) -> DebugAnnotation {
    DebugAnnotation { name_iid: Some(arg_iid(name)), uint_value: Some(value), ..Default::default() }
}

fn double_arg(name: &str, value: f64) -> DebugAnnotation {
    DebugAnnotation { name_iid: Some(arg_iid(name)), double_value: Some(value), ..Default::default() }
}

fn string_arg(name: &str, value: &str) -> DebugAnnotation {
    DebugAnnotation {
        name_iid: Some(arg_iid(name)),
        string_value: Some(value.to_owned()),
        ..Default::default()
    }
}

fn array_arg(name: &str, values: [u32; 3]) -> DebugAnnotation {
    DebugAnnotation {
        name_iid: Some(arg_iid(name)),
        array_values: values
            .iter()
            .map(|v| DebugAnnotation { uint_value: Some(u64::from(*v)), ..Default::default() })
            .collect(),
        ..Default::default()
    }
}

/// The packet sequence of this run: `rank + 1`, distinct across the ranks of a job (so that their files
/// concatenate into one trace), and small (it is in every packet).
fn sequence_id(meta: &RunMeta) -> u32 {
    meta.rank.wrapping_add(1).max(1)
}

/// A flow id: the correlation id in this sequence's space.
fn flow_id(sequence: u32, correlation: u64) -> u64 {
    (u64::from(sequence) << 40) ^ correlation
}

impl PerfettoWriter {
    /// Creates the file (as `name.partial-<pid>.pftrace` until [`finish`](Self::finish)) and writes the trace's first
    /// packet (clock, interned categories and argument names) and the process track.
    pub fn create(path: impl AsRef<Path>, meta: &RunMeta, options: PerfettoOptions) -> Result<Self, Error> {
        let file = AtomicFile::create(path.as_ref())?;
        PerfettoWriter::start(Out::File(file), meta, options)
    }

    /// A writer into any byte sink (no temporary file; [`finish`](Self::finish) reports an empty path).
    pub fn to_writer(
        out: impl Write + Send + 'static,
        meta: &RunMeta,
        options: PerfettoOptions,
    ) -> Result<Self, Error> {
        PerfettoWriter::start(Out::Writer(Box::new(out), 0), meta, options)
    }

    fn start(out: Out, meta: &RunMeta, options: PerfettoOptions) -> Result<Self, Error> {
        let sequence = sequence_id(meta);
        let mut labels = vec![format!("rank={}", meta.rank), format!("world_size={}", meta.world_size)];
        if !meta.host.is_empty() {
            labels.push(format!("host={}", meta.host));
        }
        if !meta.vendor.is_empty() {
            labels.push(format!("vendor={}", meta.vendor));
        }
        let tracks =
            Tracks::new(sequence, options.device_label.clone(), options.process_name.clone(), labels);
        let mut w = PerfettoWriter {
            out,
            sequence,
            time: meta.clock.time_map(),
            options,
            tracks,
            interned: Interned::default(),
            events: Vec::new(),
            pending: Vec::new(),
            packet: TracePacket::default(),
            bytes: Vec::new(),
            rows: PerFamily::default(),
        };
        let first = TracePacket {
            timestamp: Some(meta.clock.unix_ns),
            trusted_packet_sequence_id: Some(sequence),
            sequence_flags: Some(SEQ_INCREMENTAL_STATE_CLEARED),
            first_packet_on_sequence: Some(true),
            trace_packet_defaults: Some(TracePacketDefaults { timestamp_clock_id: Some(CLOCK_REALTIME) }),
            interned_data: Some(InternedData {
                debug_annotation_names: ARG_NAMES
                    .iter()
                    .enumerate()
                    .map(|(i, n)| DebugAnnotationName {
                        iid: Some(i as u64 + 1),
                        name: Some((*n).to_owned()),
                    })
                    .collect(),
                ..Default::default()
            }),
            clock_snapshot: Some(ClockSnapshot {
                clocks: vec![Clock { clock_id: Some(CLOCK_REALTIME), timestamp: Some(meta.clock.unix_ns) }],
                primary_trace_clock: Some(CLOCK_REALTIME as i32),
            }),
            ..Default::default()
        };
        w.pending.push(first);
        w.tracks.process(meta.process_id, &mut w.pending);
        let pending = std::mem::take(&mut w.pending);
        for packet in &pending {
            w.append(packet);
        }
        w.write_out()?;
        // On disk now: a process that dies before its first batch leaves a trace of no events that
        // `recover` closes (it was an empty file, which it cannot).
        w.flush()?;
        Ok(w)
    }

    /// Encodes `packet` as one `Trace.packet` field at the end of the batch's bytes.
    fn append(&mut self, packet: &TracePacket) {
        self.bytes.push(0x0a); // field 1, length-delimited
        packet.encode_length_delimited(&mut self.bytes).expect("a Vec grows as needed");
    }

    fn write_out(&mut self) -> Result<(), Error> {
        match &mut self.out {
            Out::File(f) => f.write_all(&self.bytes)?,
            Out::Writer(w, n) => {
                w.write_all(&self.bytes)?;
                *n += self.bytes.len() as u64;
            }
        }
        self.bytes.clear();
        Ok(())
    }

    /// Appends every row of `batch` as events.
    pub fn write_batch(&mut self, batch: &Batch, names: &Names) -> Result<(), Error> {
        self.events.clear();
        self.collect(batch, names);
        let sequence = self.sequence;
        let tracks = std::mem::take(&mut self.pending);
        for packet in &tracks {
            self.append(packet);
        }
        self.pending = tracks;
        self.pending.clear();
        if let Some(interned) = self.interned.take() {
            let packet = TracePacket {
                trusted_packet_sequence_id: Some(sequence),
                sequence_flags: Some(SEQ_NEEDS_INCREMENTAL_STATE),
                interned_data: Some(interned),
                ..Default::default()
            };
            self.append(&packet);
        }
        self.events.sort_unstable_by_key(|e| (e.ts, e.order, e.tie, e.family, e.row, e.kind));
        let mut packet = std::mem::take(&mut self.packet);
        for i in 0..self.events.len() {
            let ev = self.events[i];
            self.fill(&mut packet, &ev, batch, names);
            self.append(&packet);
        }
        self.packet = packet;
        count_rows(&mut self.rows, batch);
        self.write_out()
    }

    /// Resolves tracks and names, and lists the batch's events.
    fn collect(&mut self, batch: &Batch, names: &Names) {
        let cats = &self.options.categories;
        let time = self.time;
        let (tracks, interned, events, pending) =
            (&mut self.tracks, &mut self.interned, &mut self.events, &mut self.pending);
        let mut slice = |family: Family,
                         row: usize,
                         track: u64,
                         name_iid: u64,
                         cat: u64,
                         start: u64,
                         end: u64| {
            let (ts, te) = (time.to_unix_ns(start), time.to_unix_ns(end.max(start)));
            let row = row as u32;
            let base = Ev {
                ts,
                order: 1,
                tie: 0,
                track,
                name_iid,
                category_iid: cat,
                family,
                kind: TrackEventType::Instant,
                row,
            };
            if te == ts {
                events.push(base);
            } else {
                events.push(Ev { order: 2, tie: u64::MAX - te, kind: TrackEventType::SliceBegin, ..base });
                events.push(Ev {
                    ts: te,
                    order: 0,
                    tie: u64::MAX - ts,
                    kind: TrackEventType::SliceEnd,
                    ..base
                });
            }
        };

        let k = &batch.kernels;
        if !k.is_empty() {
            let cat = interned.category(&cats.kernel);
            for i in 0..k.len() {
                let track = tracks.lane(k.device()[i], Lane::Work, k.stream()[i], pending);
                let name = interned.name(k.name()[i], names, "kernel");
                slice(Family::KERNEL, i, track, name, cat, k.start()[i], k.end()[i]);
            }
        }
        let m = &batch.memcpys;
        if !m.is_empty() {
            let cat = interned.category(&cats.memcpy);
            for i in 0..m.len() {
                let track = tracks.lane(m.device()[i], Lane::Work, m.stream()[i], pending);
                let (kind, src, dst) = (m.copy_kind()[i], m.src_kind()[i], m.dst_kind()[i]);
                let name =
                    interned.derived(Derived::Memcpy(kind.0, src.0, dst.0), || memcpy_name(kind, src, dst));
                slice(Family::MEMCPY, i, track, name, cat, m.start()[i], m.end()[i]);
            }
        }
        let s = &batch.memsets;
        if !s.is_empty() {
            let cat = interned.category(&cats.memset);
            for i in 0..s.len() {
                let track = tracks.lane(s.device()[i], Lane::Work, s.stream()[i], pending);
                let kind = s.memory_kind()[i];
                let name = interned.derived(Derived::Memset(kind.0), || memset_name(kind));
                slice(Family::MEMSET, i, track, name, cat, s.start()[i], s.end()[i]);
            }
        }
        let a = &batch.api_calls;
        for i in 0..a.len() {
            let cat = interned.category(cats.api_category(a.domain()[i]));
            let track = tracks.thread(a.process()[i], a.thread()[i], pending);
            let (domain, cbid) = (a.domain()[i], a.cbid()[i]);
            let name = if a.name()[i].is_none() {
                interned.derived(Derived::Api(domain, cbid), || format!("api {domain}:{cbid}"))
            } else {
                interned.name(a.name()[i], names, "api")
            };
            slice(Family::API, i, track, name, cat, a.start()[i], a.end()[i]);
        }
        let mk = &batch.markers;
        for i in 0..mk.len() {
            let (track, cat) = if mk.device()[i] == HOST_DEVICE {
                (tracks.markers(mk.process()[i], mk.thread()[i], pending), interned.category(&cats.marker))
            } else {
                (
                    tracks.lane(mk.device()[i], Lane::Ranges, mk.stream()[i], pending),
                    interned.category(&cats.gpu_marker),
                )
            };
            let name = interned.name(mk.name()[i], names, "marker");
            slice(Family::MARKER, i, track, name, cat, mk.start()[i], mk.end()[i]);
        }
        let c = &batch.collectives;
        if !c.is_empty() {
            let cat = interned.category(&cats.collective);
            for i in 0..c.len() {
                let track = tracks.lane(c.device()[i], Lane::Collectives, c.stream()[i], pending);
                let name = interned.name(c.name()[i], names, "collective");
                slice(Family::COLLECTIVE, i, track, name, cat, c.start()[i], c.end()[i]);
            }
        }
        let y = &batch.syncs;
        if !y.is_empty() {
            let cat = interned.category(&cats.sync);
            for i in 0..y.len() {
                let track = tracks.lane(y.device()[i], Lane::Sync, y.stream()[i], pending);
                let name = interned.name(y.name()[i], names, "Synchronization");
                slice(Family::SYNC, i, track, name, cat, y.start()[i], y.end()[i]);
            }
        }
        let mem = &batch.memory;
        if !mem.is_empty() {
            let cat = interned.category(&cats.memory);
            let name = interned.derived(Derived::Fallback("[memory]"), || "[memory]".to_owned());
            for i in 0..mem.len() {
                let track = tracks.lane(mem.device()[i], Lane::Memory, 0, pending);
                let ts = time.to_unix_ns(mem.start()[i]);
                events.push(Ev {
                    ts,
                    order: 1,
                    tie: 0,
                    track,
                    name_iid: name,
                    category_iid: cat,
                    family: Family::MEMORY,
                    kind: TrackEventType::Instant,
                    row: i as u32,
                });
            }
        }
        let v = &batch.counters;
        if !v.is_empty() {
            let cat = interned.category(&cats.counter);
            for i in 0..v.len() {
                let counter = v.counter()[i];
                let label = names.lookup(counter).unwrap_or("counter");
                let track = tracks.counter(v.device()[i], counter, label, pending);
                let ts = time.to_unix_ns(v.start()[i]);
                events.push(Ev {
                    ts,
                    order: 1,
                    tie: 0,
                    track,
                    name_iid: 0,
                    category_iid: cat,
                    family: Family::COUNTER,
                    kind: TrackEventType::Counter,
                    row: i as u32,
                });
            }
        }
    }

    /// The packet of one event.
    fn fill(&self, packet: &mut TracePacket, ev: &Ev, batch: &Batch, names: &Names) {
        let mut event = packet.track_event.take().unwrap_or_default();
        event.category_iids.clear();
        event.debug_annotations.clear();
        event.flow_ids.clear();
        event.terminating_flow_ids.clear();
        event.name_iid = None;
        event.name = None;
        event.double_counter_value = None;
        event.r#type = Some(ev.kind as i32);
        event.track_uuid = Some(ev.track);
        if ev.kind != TrackEventType::SliceEnd {
            if ev.kind != TrackEventType::Counter {
                event.name_iid = Some(ev.name_iid);
                event.category_iids.push(ev.category_iid);
            }
            self.details(&mut event, ev, batch, names);
        }
        *packet = TracePacket {
            timestamp: Some(ev.ts),
            trusted_packet_sequence_id: Some(self.sequence),
            sequence_flags: Some(SEQ_NEEDS_INCREMENTAL_STATE),
            track_event: Some(event),
            ..Default::default()
        };
    }

    /// Flows, counter values and arguments of a begin or instant.
    fn details(&self, e: &mut TrackEvent, ev: &Ev, batch: &Batch, names: &Names) {
        let i = ev.row as usize;
        let seq = self.sequence;
        let args = self.options.args;
        let target = |e: &mut TrackEvent, correlation: u64| {
            if correlation != 0 {
                e.terminating_flow_ids.push(flow_id(seq, correlation));
            }
        };
        match ev.family {
            Family::KERNEL => {
                let k = &batch.kernels;
                target(e, k.correlation()[i]);
                if args {
                    let a = &mut e.debug_annotations;
                    a.push(uint_arg("correlation", k.correlation()[i]));
                    a.push(array_arg("grid", [k.grid_x()[i], k.grid_y()[i], k.grid_z()[i]]));
                    a.push(array_arg("block", [k.block_x()[i], k.block_y()[i], k.block_z()[i]]));
                    a.push(uint_arg("registers per thread", k.registers()[i].into()));
                    a.push(uint_arg("shared memory", k.shared_memory()[i].into()));
                }
            }
            Family::MEMCPY => {
                let m = &batch.memcpys;
                target(e, m.correlation()[i]);
                if args {
                    let a = &mut e.debug_annotations;
                    a.push(uint_arg("correlation", m.correlation()[i]));
                    a.push(uint_arg("bytes", m.bytes()[i]));
                    let dur = m.end()[i].saturating_sub(m.start()[i]);
                    a.push(double_arg("memory bandwidth (GB/s)", bandwidth(m.bytes()[i], dur)));
                }
            }
            Family::MEMSET => {
                let s = &batch.memsets;
                target(e, s.correlation()[i]);
                if args {
                    let a = &mut e.debug_annotations;
                    a.push(uint_arg("correlation", s.correlation()[i]));
                    a.push(uint_arg("bytes", s.bytes()[i]));
                }
            }
            Family::API => {
                let c = &batch.api_calls;
                if c.correlation()[i] != 0 {
                    e.flow_ids.push(flow_id(seq, c.correlation()[i]));
                }
                if args {
                    let a = &mut e.debug_annotations;
                    a.push(uint_arg("correlation", c.correlation()[i]));
                    a.push(uint_arg("cbid", c.cbid()[i].into()));
                }
            }
            Family::MARKER => {
                if let (true, Some(domain)) = (args, names.lookup(batch.markers.domain()[i])) {
                    e.debug_annotations.push(string_arg("domain", domain));
                }
            }
            Family::COLLECTIVE if args => {
                let (c, a) = (&batch.collectives, &mut e.debug_annotations);
                a.push(uint_arg("correlation", c.correlation()[i]));
                a.push(string_arg("Collective name", names.resolve(c.name()[i])));
                a.push(string_arg("Process Group Name", names.resolve(c.comm_name()[i])));
                a.push(uint_arg("In msg nelems", c.count()[i]));
                a.push(uint_arg("bytes", c.bytes()[i]));
            }
            Family::SYNC if args => {
                let (s, a) = (&batch.syncs, &mut e.debug_annotations);
                a.push(uint_arg("correlation", s.correlation()[i]));
                a.push(uint_arg("sync_type", s.sync_type()[i].into()));
                a.push(uint_arg("event", s.event()[i]));
            }
            Family::MEMORY if args => {
                let (m, a) = (&batch.memory, &mut e.debug_annotations);
                a.push(uint_arg("correlation", m.correlation()[i]));
                a.push(uint_arg("bytes", m.bytes()[i]));
            }
            Family::COUNTER => e.double_counter_value = Some(batch.counters.value()[i]),
            _ => {}
        }
    }

    /// Hands what was written to the OS.
    pub fn flush(&mut self) -> Result<(), Error> {
        match &mut self.out {
            Out::File(f) => f.flush()?,
            Out::Writer(w, _) => w.flush()?,
        }
        Ok(())
    }

    /// Rows written so far per family.
    pub fn rows(&self) -> &PerFamily<u64> {
        &self.rows
    }

    /// Maps the timestamps of later batches to Unix time with `time` (instead of the run's clock
    /// anchor given at creation): for a tracer that learns its clock's mapping with the batches.
    pub fn set_time_map(&mut self, time: TimeMap) {
        self.time = time;
    }

    /// The file being written until [`finish`](Self::finish) renames it (`None` for a writer into a
    /// byte sink); readable as a trace after every [`flush`](Self::flush).
    pub fn temporary_path(&self) -> Option<&Path> {
        match &self.out {
            Out::File(f) => Some(f.temporary_path()),
            Out::Writer(..) => None,
        }
    }

    /// Flushes and renames the file into place.
    pub fn finish(self) -> Result<Finished, Error> {
        let rows = self.rows;
        match self.out {
            Out::File(f) => {
                let bytes = f.written();
                let path = f.commit()?;
                Ok(Finished { path, bytes, rows })
            }
            Out::Writer(mut w, bytes) => {
                w.flush()?;
                Ok(Finished { path: PathBuf::new(), bytes, rows })
            }
        }
    }
}

fn bandwidth(bytes: u64, dur_ns: u64) -> f64 {
    if dur_ns == 0 {
        0.0
    } else {
        bytes as f64 / dur_ns as f64
    }
}

impl BatchWriter for PerfettoWriter {
    fn write_batch(&mut self, batch: &Batch, names: &Names) -> Result<(), Error> {
        PerfettoWriter::write_batch(self, batch, names)
    }

    fn flush(&mut self) -> Result<(), Error> {
        PerfettoWriter::flush(self)
    }

    fn finish(self: Box<Self>) -> Result<Finished, Error> {
        PerfettoWriter::finish(*self)
    }
}
