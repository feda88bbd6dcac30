use std::collections::BTreeSet;

use super::flows::Flows;
use super::json_object::JsonObject;
use super::{Categories, TimeMap};
use crate::intern::Names;

/// JSON events separated by `,\n`, ready to go inside the `traceEvents` array.
#[derive(Debug, Default)]
pub(crate) struct EventList {
    pub(crate) bytes: Vec<u8>,
    pub(crate) count: usize,
}

impl EventList {
    /// Opens the next event object.
    pub(crate) fn begin(&mut self) -> JsonObject<'_> {
        if self.count > 0 {
            self.bytes.extend_from_slice(b",\n");
        }
        self.bytes.extend_from_slice(b"    ");
        self.count += 1;
        JsonObject::begin(&mut self.bytes)
    }
}

/// Everything needed to turn one batch's rows into events.
pub(crate) struct Emit<'a> {
    pub(crate) out: &'a mut EventList,
    pub(crate) flows: &'a mut Flows,
    pub(crate) devices: &'a mut BTreeSet<u32>,
    pub(crate) names: &'a Names,
    pub(crate) categories: &'a Categories,
    pub(crate) time: TimeMap,
    pub(crate) base_ns: u64,
    /// Scratch space for built names (no allocation per event once grown).
    pub(crate) scratch: String,
}

impl Emit<'_> {
    /// A vendor timestamp as ns relative to the trace base.
    pub(crate) fn rel(&self, vendor_ns: u64) -> i128 {
        i128::from(self.time.to_unix_ns(vendor_ns)) - i128::from(self.base_ns)
    }

    /// Opens a complete (`ph: "X"`) event with its common fields; the caller adds `args` and ends it.
    pub(crate) fn complete(
        &mut self,
        cat: &str,
        name: &str,
        pid: u64,
        tid: u64,
        start: u64,
        end: u64,
    ) -> JsonObject<'_> {
        let (ts, dur) = (self.rel(start), i128::from(end.saturating_sub(start)));
        let mut o = self.out.begin();
        o.str("ph", "X").str("cat", cat).str("name", name).uint("pid", pid).uint("tid", tid);
        o.micros("ts", ts).micros("dur", dur);
        o
    }

    /// Opens an instant (`ph: "i"`, thread scope) event; the caller adds `args` and ends it.
    pub(crate) fn instant(&mut self, cat: &str, name: &str, pid: u64, tid: u64, at: u64) -> JsonObject<'_> {
        let ts = self.rel(at);
        let mut o = self.out.begin();
        o.str("ph", "i").str("s", "t").str("cat", cat).str("name", name).uint("pid", pid).uint("tid", tid);
        o.micros("ts", ts);
        o
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
