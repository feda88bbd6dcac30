use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use prost::Message;

use super::protos::{Trace, TrackEventType, SEQ_INCREMENTAL_STATE_CLEARED};
use crate::Error;

/// Decodes a whole `.pftrace` file with our message definitions.
pub fn read_perfetto(path: impl AsRef<Path>) -> Result<Trace, Error> {
    let bytes = std::fs::read(path)?;
    Ok(Trace::decode(bytes.as_slice())?)
}

/// What a trace holds, read the way a trace processor reads it: interned names resolved per packet
/// sequence, slices per category, every begin matched by an end on its track.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraceSummary {
    /// Packets in the file.
    pub packets: usize,
    /// Track descriptors.
    pub tracks: usize,
    /// Slices and instants per category (`kernel`, `gpu_memcpy`, `cuda_runtime`, ...).
    pub events_by_category: BTreeMap<String, u64>,
    /// Slices and instants per (category, name).
    pub events_by_name: BTreeMap<(String, String), u64>,
    /// Counter values.
    pub counter_values: u64,
    /// Distinct flow ids that start at some event and terminate at another.
    pub linked_flows: usize,
    /// Ends without a begin on their track, and begins without an end: 0 in a well-formed trace.
    pub unbalanced: u64,
    /// Events naming an interned id (name or category) not interned before them on their sequence.
    pub unresolved: u64,
    /// Events on a track no descriptor declares.
    pub undeclared_tracks: u64,
}

impl TraceSummary {
    /// Summarizes a decoded trace.
    pub fn of(trace: &Trace) -> TraceSummary {
        let mut s = TraceSummary { packets: trace.packet.len(), ..Default::default() };
        let mut names: HashMap<(u32, u64), String> = HashMap::new();
        let mut categories: HashMap<(u32, u64), String> = HashMap::new();
        let mut declared: HashSet<u64> = HashSet::new();
        let mut open: HashMap<u64, u64> = HashMap::new();
        let mut starts: HashSet<u64> = HashSet::new();
        let mut ends: HashSet<u64> = HashSet::new();
        for p in &trace.packet {
            let seq = p.trusted_packet_sequence_id.unwrap_or(0);
            if p.sequence_flags.unwrap_or(0) & SEQ_INCREMENTAL_STATE_CLEARED != 0 {
                names.retain(|(s, _), _| *s != seq);
                categories.retain(|(s, _), _| *s != seq);
            }
            if let Some(i) = &p.interned_data {
                for n in &i.event_names {
                    names.insert((seq, n.iid.unwrap_or(0)), n.name.clone().unwrap_or_default());
                }
                for c in &i.event_categories {
                    categories.insert((seq, c.iid.unwrap_or(0)), c.name.clone().unwrap_or_default());
                }
            }
            if let Some(t) = &p.track_descriptor {
                s.tracks += 1;
                declared.insert(t.uuid.unwrap_or(0));
            }
            let Some(e) = &p.track_event else { continue };
            let track = e.track_uuid.unwrap_or(0);
            if !declared.contains(&track) {
                s.undeclared_tracks += 1;
            }
            starts.extend(&e.flow_ids);
            ends.extend(&e.terminating_flow_ids);
            match e.r#type() {
                TrackEventType::SliceEnd => match open.get_mut(&track) {
                    Some(n) if *n > 0 => *n -= 1,
                    _ => s.unbalanced += 1,
                },
                TrackEventType::Counter => s.counter_values += 1,
                kind @ (TrackEventType::SliceBegin | TrackEventType::Instant) => {
                    if kind == TrackEventType::SliceBegin {
                        *open.entry(track).or_default() += 1;
                    }
                    let name = match (&e.name, e.name_iid) {
                        (Some(n), _) => Some(n.clone()),
                        (None, Some(iid)) => names.get(&(seq, iid)).cloned(),
                        (None, None) => Some(String::new()),
                    };
                    let category = match e.category_iids.first() {
                        Some(iid) => categories.get(&(seq, *iid)).cloned(),
                        None => Some(String::new()),
                    };
                    let (Some(name), Some(category)) = (name, category) else {
                        s.unresolved += 1;
                        continue;
                    };
                    *s.events_by_category.entry(category.clone()).or_default() += 1;
                    *s.events_by_name.entry((category, name)).or_default() += 1;
                }
                TrackEventType::Unspecified => {}
            }
        }
        s.unbalanced += open.values().sum::<u64>();
        s.linked_flows = starts.intersection(&ends).count();
        s
    }

    /// Slices and instants of one category.
    pub fn events(&self, category: &str) -> u64 {
        self.events_by_category.get(category).copied().unwrap_or(0)
    }
}
