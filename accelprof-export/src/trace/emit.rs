use super::json_object::{key, pair};
use std::collections::BTreeSet;

use super::flows::{Endpoint, FlowStats, Flows};
use super::json_object::{write_json_str, JsonObject};
use super::{Categories, TimeMap};
use accelprof_core::columns::Batch;
use accelprof_core::intern::{NameId, Names};

/// JSON events separated by `,\n`, ready to go inside the `traceEvents` array, one event per line.
#[derive(Debug)]
pub(crate) struct EventList {
    pub(crate) bytes: Vec<u8>,
    /// Events in `bytes`.
    pub(crate) count: u64,
    /// Whether events were written before `bytes` (the first event of `bytes` then needs a separator).
    pub(crate) after_others: bool,
    /// Events begun in this list since it was made (`reset` keeps counting).
    pub(crate) total: u64,
    /// Past this many bytes the renderer hands the events out at the next row's end (see [`Spill`]).
    pub(crate) limit: usize,
}

impl Default for EventList {
    fn default() -> Self {
        EventList { bytes: Vec::new(), count: 0, after_others: false, total: 0, limit: usize::MAX }
    }
}

impl EventList {
    /// Empties the list for events that follow `after_others` events already written.
    pub(crate) fn reset(&mut self, after_others: bool) {
        self.bytes.clear();
        self.count = 0;
        self.after_others = after_others;
    }

    /// Opens the next event object.
    #[inline]
    pub(crate) fn begin(&mut self) -> JsonObject<'_> {
        if self.count > 0 || self.after_others {
            self.bytes.extend_from_slice(b",\n");
        }
        self.bytes.extend_from_slice(b"    ");
        self.count += 1;
        self.total += 1;
        JsonObject::begin(&mut self.bytes)
    }

    /// Whether the events are past [`limit`](Self::limit).
    #[inline]
    fn full(&self) -> bool {
        self.bytes.len() >= self.limit
    }
}

/// Where a batch's events go while it is rendered, each time the list is past its limit (at the end of
/// a row: an API call, a kernel with its arrow, ...; every event whole): the callee takes the events out
/// and resets the list. With the stats of what was rendered up to there. A streaming writer so renders a
/// batch of any size in chunks of a bounded size.
pub(crate) type Spill<'s> = dyn FnMut(&mut EventList, &RenderStats) + 's;

/// What was rendered so far, for the file's summary and for the HolisticTraceAnalysis guard.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RenderStats {
    /// Events rendered (every line of `traceEvents`: timeline names and flow ends included).
    pub(crate) events: u64,
    /// The largest `correlation` arg written.
    pub(crate) max_correlation: u64,
    /// The earliest `ts` and latest end written (ns relative to the base), when any.
    pub(crate) span: Option<(i128, i128)>,
    /// Events made from rows (not timeline names, not flow ends).
    pub(crate) rows: u64,
    /// The host process of the first API call (where the HTA guard event is drawn).
    pub(crate) host_pid: Option<u64>,
}

/// Turns batches into Chrome trace events: the state kept across batches (flow table, devices seen,
/// encoded names) and the rendering itself. Used by the in-memory [`ChromeTrace`](super::ChromeTrace)
/// and the streaming [`ChromeTraceWriter`](super::ChromeTraceWriter) alike.
#[derive(Debug)]
pub(crate) struct Renderer {
    /// The categories' JSON text, made once (see [`EncodedCategories`]).
    pub(crate) encoded_categories: EncodedCategories,
    pub(crate) base_ns: u64,
    pub(crate) device_label: String,
    pub(crate) flows: Flows,
    /// Devices whose timeline was named (a `process_name` event written).
    devices: BTreeSet<u32>,
    /// Processes named by the caller (a device among them is not given the default name).
    named: BTreeSet<u64>,
    /// Each name's JSON text (quoted, escaped), by `NameId`: a name is escaped once, not per event.
    encoded: Vec<Option<Box<[u8]>>>,
    pub(crate) stats: RenderStats,
    scratch: String,
}

impl Renderer {
    pub(crate) fn new(
        categories: Categories,
        base_ns: u64,
        device_label: String,
        pending_flows: usize,
    ) -> Self {
        Renderer {
            encoded_categories: EncodedCategories::new(&categories),
            base_ns,
            device_label,
            flows: Flows::new(pending_flows),
            devices: BTreeSet::new(),
            named: BTreeSet::new(),
            encoded: Vec::new(),
            stats: RenderStats::default(),
            scratch: String::new(),
        }
    }

    pub(crate) fn flow_stats(&self) -> FlowStats {
        self.flows.stats()
    }

    /// Renders every row of `batch` (and the arrows it completes) into `out`, handing the events to
    /// `spill` whenever `out` is past its limit.
    pub(crate) fn batch(
        &mut self,
        batch: &Batch,
        names: &Names,
        time: &TimeMap,
        out: &mut EventList,
        spill: Option<&mut Spill<'_>>,
    ) {
        let before = out.total;
        let mut emit = Emit { r: self, out, names, time: *time, spill: spill.map(|s| s as &mut Spill<'_>) };
        // API calls first: a batch's launches are all known before its arrows are written.
        emit.api_calls(&batch.api_calls);
        emit.ready_flows();
        emit.markers(&batch.markers);
        emit.kernels(&batch.kernels);
        emit.memcpys(&batch.memcpys);
        emit.memsets(&batch.memsets);
        emit.collectives(&batch.collectives);
        emit.syncs(&batch.syncs);
        emit.memory(&batch.memory);
        emit.counters(&batch.counters);
        self.stats.events += out.total - before;
        self.stats.rows += (batch.len() - batch.external_correlations.len()) as u64;
    }

    /// A `process_name` event (a host `pid`, or a device's: by default devices are named `GPU <n>`).
    pub(crate) fn process_name(&mut self, pid: u64, name: &str, out: &mut EventList) {
        self.named.insert(pid);
        if let Ok(device) = u32::try_from(pid) {
            self.devices.insert(device);
        }
        metadata_event(out, "process_name", pid, 0, name);
        self.stats.events += 1;
    }

    /// A `thread_name` event.
    pub(crate) fn thread_name(&mut self, pid: u64, tid: u64, name: &str, out: &mut EventList) {
        metadata_event(out, "thread_name", pid, tid, name);
        self.stats.events += 1;
    }

    /// A CPU range (times in Unix ns).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn cpu_range(
        &mut self,
        cat: &str,
        name: &str,
        pid: u64,
        tid: u64,
        start_unix_ns: u64,
        end_unix_ns: u64,
        out: &mut EventList,
    ) {
        let base = i128::from(self.base_ns);
        let (ts, end) = (i128::from(start_unix_ns) - base, i128::from(end_unix_ns) - base);
        self.widen_span(ts, end.max(ts));
        let mut o = out.begin();
        o.pair(pair!("ph", "X"))
            .str(key!("cat"), cat)
            .str(key!("name"), name)
            .uint(key!("pid"), pid)
            .uint(key!("tid"), tid);
        o.micros(key!("ts"), ts).micros(key!("dur"), (end - ts).max(0));
        o.end();
        self.stats.events += 1;
        self.stats.rows += 1;
    }

    fn widen_span(&mut self, start: i128, end: i128) {
        self.stats.span = Some(match self.stats.span {
            None => (start, end),
            Some((s, e)) => (s.min(start), e.max(end)),
        });
    }

    /// The JSON text of name `id` (its cached encoding); `None` for no name or an unknown id.
    fn encoded_name(&mut self, id: NameId, names: &Names) -> Option<&[u8]> {
        let index = id.0 as usize;
        if id.is_none() {
            return None;
        }
        if !matches!(self.encoded.get(index), Some(Some(_))) {
            let name = names.lookup(id)?;
            if self.encoded.len() <= index {
                self.encoded.resize(index + 1, None);
            }
            let mut text = Vec::with_capacity(name.len() + 2);
            write_json_str(&mut text, name);
            self.encoded[index] = Some(text.into_boxed_slice());
        }
        self.encoded[index].as_deref()
    }
}

fn metadata_event(out: &mut EventList, kind: &str, pid: u64, tid: u64, name: &str) {
    let mut o = out.begin();
    o.str(key!("name"), kind).pair(pair!("ph", "M")).uint(key!("pid"), pid).uint(key!("tid"), tid);
    let mut args = o.object(key!("args"));
    args.str(key!("name"), name);
    args.end();
    o.end();
}

/// Each category's JSON text (quoted, escaped), made when the renderer is: an event's `cat` is one
/// copy, not a string scanned for escapes per event.
#[derive(Debug, Default)]
pub(crate) struct EncodedCategories {
    pub(crate) api: Box<[u8]>,
    pub(crate) api_by_domain: Vec<(u32, Box<[u8]>)>,
    pub(crate) kernel: Box<[u8]>,
    pub(crate) memcpy: Box<[u8]>,
    pub(crate) memset: Box<[u8]>,
    pub(crate) marker: Box<[u8]>,
    pub(crate) gpu_marker: Box<[u8]>,
    pub(crate) collective: Box<[u8]>,
    pub(crate) sync: Box<[u8]>,
    pub(crate) memory: Box<[u8]>,
    pub(crate) counter: Box<[u8]>,
}

impl EncodedCategories {
    pub(crate) fn new(c: &Categories) -> Self {
        let json = |text: &str| {
            let mut out = Vec::with_capacity(text.len() + 2);
            write_json_str(&mut out, text);
            out.into_boxed_slice()
        };
        EncodedCategories {
            api: json(&c.api),
            api_by_domain: c.api_by_domain.iter().map(|(d, text)| (*d, json(text))).collect(),
            kernel: json(&c.kernel),
            memcpy: json(&c.memcpy),
            memset: json(&c.memset),
            marker: json(&c.marker),
            gpu_marker: json(&c.gpu_marker),
            collective: json(&c.collective),
            sync: json(&c.sync),
            memory: json(&c.memory),
            counter: json(&c.counter),
        }
    }

    /// The category of an API call of raw `domain` (as [`Categories::api_category`]).
    pub(crate) fn api(&self, domain: u32) -> &[u8] {
        self.api_by_domain.iter().find(|(d, _)| *d == domain).map_or(&*self.api, |(_, c)| c)
    }
}

/// A name for [`Emit::complete`]: a cached encoding, or text to encode.
#[derive(Clone, Copy)]
pub(crate) enum Name<'n> {
    Encoded(&'n [u8]),
    Text(&'n str),
}

/// One batch being rendered.
pub(crate) struct Emit<'a> {
    pub(crate) r: &'a mut Renderer,
    pub(crate) out: &'a mut EventList,
    pub(crate) names: &'a Names,
    pub(crate) time: TimeMap,
    spill: Option<&'a mut Spill<'a>>,
}

impl Emit<'_> {
    /// The end of a row: the events go to the spill when the list is past its limit.
    #[inline]
    pub(crate) fn row_done(&mut self) {
        if self.out.full() {
            spill(self.out, &self.r.stats, self.spill.as_deref_mut());
        }
    }

    /// A vendor timestamp as ns relative to the trace base.
    #[inline]
    pub(crate) fn rel(&self, vendor_ns: u64) -> i128 {
        i128::from(self.time.to_unix_ns(vendor_ns)) - i128::from(self.r.base_ns)
    }

    /// A vendor timestamp as ns relative to the trace base, saturated to `i64` (292 years each way).
    #[inline]
    pub(crate) fn rel64(&self, vendor_ns: u64) -> i64 {
        self.rel(vendor_ns).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    }

    /// Names a device's timeline the first time it appears (unless the caller named it).
    #[inline]
    pub(crate) fn device(&mut self, device: u32) {
        if self.r.devices.insert(device) {
            let label = format!("{} {device}", self.r.device_label);
            metadata_event(self.out, "process_name", device.into(), 0, &label);
        }
    }

    /// Notes a correlation id written on an event (for the HolisticTraceAnalysis guard).
    #[inline]
    pub(crate) fn correlation(&mut self, correlation: u64) {
        self.r.stats.max_correlation = self.r.stats.max_correlation.max(correlation);
    }

    /// Writes the arrows completed by this batch's API calls.
    pub(crate) fn ready_flows(&mut self) {
        let (out, mut to) = (&mut *self.out, self.spill.as_deref_mut());
        let Renderer { flows, stats, .. } = &mut *self.r;
        flows.take_ready(|id, launch, target| {
            flow_pair(out, id, launch, target);
            if out.full() {
                spill(out, stats, to.as_deref_mut());
            }
        });
    }

    /// GPU work with this correlation id starting at `start`: its arrow, when the launch is known.
    #[inline]
    pub(crate) fn gpu_target(&mut self, device: u32, stream: u64, correlation: u64, start: u64) {
        self.device(device);
        let at = Endpoint { pid: u64::from(device), tid: stream, ts: self.rel64(start) };
        if let Some(launch) = self.r.flows.target(correlation, at) {
            flow_pair(self.out, correlation, launch, at);
        }
    }

    /// Opens a complete (`ph: "X"`) event with its common fields; the caller adds `args` and ends it.
    #[inline]
    pub(crate) fn complete(
        &mut self,
        cat: &[u8],
        name: Name<'_>,
        pid: u64,
        tid: u64,
        start: u64,
        end: u64,
    ) -> JsonObject<'_> {
        let (ts, dur) = (self.rel(start), i128::from(end.saturating_sub(start)));
        self.r.stats.span = Some(match self.r.stats.span {
            None => (ts, ts + dur),
            Some((s, e)) => (s.min(ts), e.max(ts + dur)),
        });
        let mut o = self.out.begin();
        o.pair(pair!("ph", "X")).encoded(key!("cat"), cat);
        match name {
            Name::Encoded(encoded) => o.encoded(key!("name"), encoded),
            Name::Text(text) => o.str(key!("name"), text),
        };
        o.uint(key!("pid"), pid).uint(key!("tid"), tid).micros(key!("ts"), ts).micros(key!("dur"), dur);
        o
    }

    /// Opens an instant (`ph: "i"`, thread scope) event; the caller adds `args` and ends it.
    pub(crate) fn instant(&mut self, cat: &[u8], name: &str, pid: u64, tid: u64, at: u64) -> JsonObject<'_> {
        let ts = self.rel(at);
        let mut o = self.out.begin();
        o.pair(pair!("ph", "i"))
            .pair(pair!("s", "t"))
            .encoded(key!("cat"), cat)
            .str(key!("name"), name)
            .uint(key!("pid"), pid)
            .uint(key!("tid"), tid);
        o.micros(key!("ts"), ts);
        o
    }

    /// Renders a complete event named by `id` (or `fallback`), via the name cache.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn named_complete(
        &mut self,
        cat: &[u8],
        id: NameId,
        fallback: &'static str,
        pid: u64,
        tid: u64,
        span: (u64, u64),
        args: impl FnOnce(&mut JsonObject<'_>),
    ) {
        // The encoding is cached in the renderer; take it out for the write (no copy).
        let index = id.0 as usize;
        let names = self.names;
        let cached = self.r.encoded_name(id, names).is_some();
        let encoded = if cached { self.r.encoded[index].take() } else { None };
        let name = match &encoded {
            Some(bytes) => Name::Encoded(bytes),
            None => Name::Text(fallback),
        };
        let mut o = self.complete(cat, name, pid, tid, span.0, span.1);
        let mut a = o.object(key!("args"));
        args(&mut a);
        a.end();
        o.end();
        if let Some(bytes) = encoded {
            self.r.encoded[index] = Some(bytes);
        }
    }

    /// The scratch string (for names built per event), taken out; give it back with `put_scratch`.
    pub(crate) fn take_scratch(&mut self) -> String {
        std::mem::take(&mut self.r.scratch)
    }

    pub(crate) fn put_scratch(&mut self, scratch: String) {
        self.r.scratch = scratch;
    }
}

/// Hands `out` to `to` with the stats of what was rendered (none: the events stay in the list).
#[cold]
fn spill(out: &mut EventList, stats: &RenderStats, to: Option<&mut Spill<'_>>) {
    if let Some(to) = to {
        to(out, stats);
    }
}

/// An `s`/`f` pair (`cat: "ac2g"`, `bp: "e"` on the `f` end).
fn flow_pair(out: &mut EventList, id: u64, launch: Endpoint, target: Endpoint) {
    for (phase, end, is_end) in [(pair!("ph", "s"), launch, false), (pair!("ph", "f"), target, true)] {
        let mut o = out.begin();
        o.pair(phase).uint(key!("id"), id).uint(key!("pid"), end.pid).uint(key!("tid"), end.tid);
        o.micros(key!("ts"), i128::from(end.ts)).pair(pair!("cat", "ac2g")).pair(pair!("name", "ac2g"));
        if is_end {
            o.pair(pair!("bp", "e"));
        }
        o.end();
    }
}

/// GB/s of `bytes` moved in `dur_ns` (bytes per ns); 0 for a zero duration.
pub(crate) fn bandwidth_gbps(bytes: u64, dur_ns: u64) -> f64 {
    if dur_ns == 0 {
        0.0
    } else {
        bytes as f64 / dur_ns as f64
    }
}
