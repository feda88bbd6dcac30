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
///
/// One correlation id can belong to several API calls: CUPTI gives the driver calls a runtime call
/// makes (`cudaLaunchKernel` -> `cuLaunchKernel`) the runtime call's id, and their records arrive
/// first (they end first). The arrow starts at the outermost of them, the user's runtime call, as
/// PyTorch's profiler draws it; each id gets one `s` and one `f`.
#[derive(Debug, Default)]
pub(crate) struct Flows {
    /// The outermost API call seen per id, with its end (ns relative to the trace base).
    launches: HashMap<u64, (Endpoint, i128)>,
    targets: HashMap<u64, Endpoint>,
}

impl Flows {
    /// An API call with this correlation id, from `at` to `end` (0 means "none"). Of calls sharing an
    /// id, the one that starts first (then ends last) encloses the others and is kept.
    pub(crate) fn launch(&mut self, correlation: u64, at: Endpoint, end: i128) {
        if correlation == 0 {
            return;
        }
        let kept = self.launches.entry(correlation).or_insert((at, end));
        if (at.ts, std::cmp::Reverse(end)) < (kept.0.ts, std::cmp::Reverse(kept.1)) {
            *kept = (at, end);
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
            for (phase, end) in [("s", &self.launches[&id].0), ("f", &self.targets[&id])] {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn at(tid: u64, ts: i128) -> Endpoint {
        Endpoint { pid: 1, tid, ts }
    }

    fn written(flows: &Flows) -> String {
        let mut out = EventList::default();
        flows.write(&mut out);
        String::from_utf8(out.bytes).unwrap()
    }

    #[test]
    fn a_shared_id_starts_one_arrow_at_the_enclosing_call_whatever_the_arrival_order() {
        let mut flows = Flows::default();
        // cuLaunchKernel [2000, 3000] arrives before the cudaLaunchKernel [1000, 5000] enclosing it.
        flows.launch(7, at(11, 2_000), 3_000);
        flows.launch(7, at(12, 1_000), 5_000);
        flows.launch(7, at(13, 1_500), 4_000);
        // Same start: the longer call encloses the shorter.
        flows.launch(8, at(21, 1_000), 1_500);
        flows.launch(8, at(22, 1_000), 2_500);
        flows.target(7, Endpoint { pid: 0, tid: 7, ts: 9_000 });
        flows.target(8, Endpoint { pid: 0, tid: 7, ts: 9_500 });
        flows.launch(9, at(31, 1_000), 2_000); // no GPU work: no arrow
        let text = written(&flows);
        assert_eq!(text.matches(r#""ph": "s""#).count(), 2, "{text}");
        assert_eq!(text.matches(r#""ph": "f""#).count(), 2, "{text}");
        assert!(text.contains(r#""ph": "s", "id": 7, "pid": 1, "tid": 12, "ts": 1.000,"#), "{text}");
        assert!(text.contains(r#""ph": "s", "id": 8, "pid": 1, "tid": 22, "ts": 1.000,"#), "{text}");
        assert!(!text.contains(r#""id": 9"#), "{text}");
    }
}
