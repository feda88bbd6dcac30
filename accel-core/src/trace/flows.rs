use std::collections::HashMap;

use super::emit::EventList;

/// One end of a flow arrow.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Endpoint {
    pub(crate) pid: u64,
    pub(crate) tid: u64,
    /// ns relative to the trace base.
    pub(crate) ts: i128,
}

/// Launch -> GPU work links by correlation id, collected across batches (the API call and its kernel
/// usually arrive in different buffers) and written when the file is written.
#[derive(Debug, Default)]
pub(crate) struct Flows {
    launches: HashMap<u64, Endpoint>,
    targets: HashMap<u64, Endpoint>,
}

impl Flows {
    /// An API call with this correlation id (the first one wins; 0 means "none").
    pub(crate) fn launch(&mut self, correlation: u64, at: Endpoint) {
        if correlation != 0 {
            self.launches.entry(correlation).or_insert(at);
        }
    }

    /// GPU work with this correlation id (the first one wins; 0 means "none").
    pub(crate) fn target(&mut self, correlation: u64, at: Endpoint) {
        if correlation != 0 {
            self.targets.entry(correlation).or_insert(at);
        }
    }

    /// Writes an `s`/`f` pair (`cat: "ac2g"`, `bp: "e"` on the `f` end) for each correlation id seen on
    /// both sides, in correlation order.
    pub(crate) fn write(&self, out: &mut EventList) {
        let mut linked: Vec<u64> =
            self.launches.keys().filter(|id| self.targets.contains_key(id)).copied().collect();
        linked.sort_unstable();
        for id in linked {
            for (phase, end) in [("s", &self.launches[&id]), ("f", &self.targets[&id])] {
                let mut o = out.begin();
                o.str("ph", phase).uint("id", id).uint("pid", end.pid).uint("tid", end.tid);
                o.micros("ts", end.ts).str("cat", "ac2g").str("name", "ac2g");
                if phase == "f" {
                    o.str("bp", "e");
                }
                o.end();
            }
        }
    }
}
