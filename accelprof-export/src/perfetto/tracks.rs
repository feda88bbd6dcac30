use std::collections::HashMap;

use accelprof_core::NameId;

use super::protos::{
    CounterDescriptor, ProcessDescriptor, ThreadDescriptor, TracePacket, TrackDescriptor,
    CHILD_ORDERING_EXPLICIT,
};

/// What runs on one of a device's tracks: slices on one track must nest, so work that can overlap other
/// work of the same stream gets a track of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Lane {
    /// Kernels, copies and sets of one stream.
    Work,
    /// Collectives of one stream.
    Collectives,
    /// Synchronizations on one stream.
    Sync,
    /// Device ranges (markers) of one stream.
    Ranges,
    /// Allocations and frees of the device.
    Memory,
}

/// The tracks of one trace, created as records first use them: a track per device with a child per stream
/// (and lane), a process track with a track per thread (and one for its markers), a counter track per
/// device and counter. Uuids are `n << 16 | sequence` (the sequence is the rank's), distinct across the files
/// of up to 65,535 ranks, which can then be concatenated into one trace, and small (a few bytes per event).
#[derive(Debug)]
pub(crate) struct Tracks {
    sequence: u32,
    next: u32,
    device_label: String,
    devices: HashMap<u32, u64>,
    lanes: HashMap<(u32, Lane, u64), u64>,
    processes: HashMap<u32, u64>,
    process_name: Option<String>,
    process_labels: Vec<String>,
    threads: HashMap<(u32, u64), u64>,
    marker_threads: HashMap<(u32, u64), u64>,
    counters: HashMap<(u32, NameId), u64>,
}

impl Tracks {
    pub(crate) fn new(
        sequence: u32,
        device_label: String,
        process_name: Option<String>,
        labels: Vec<String>,
    ) -> Self {
        Tracks {
            sequence,
            next: 1,
            device_label,
            devices: HashMap::new(),
            lanes: HashMap::new(),
            processes: HashMap::new(),
            process_name,
            process_labels: labels,
            threads: HashMap::new(),
            marker_threads: HashMap::new(),
            counters: HashMap::new(),
        }
    }

    fn uuid(&mut self) -> u64 {
        let uuid = (u64::from(self.next) << 16) | u64::from(self.sequence & 0xffff);
        self.next = self.next.wrapping_add(1).max(1);
        uuid
    }

    fn descriptor(&self, track: TrackDescriptor) -> TracePacket {
        TracePacket {
            trusted_packet_sequence_id: Some(self.sequence),
            track_descriptor: Some(track),
            ..Default::default()
        }
    }

    /// The track of a device (new descriptors are pushed to `out`).
    pub(crate) fn device(&mut self, device: u32, out: &mut Vec<TracePacket>) -> u64 {
        if let Some(uuid) = self.devices.get(&device) {
            return *uuid;
        }
        let uuid = self.uuid();
        self.devices.insert(device, uuid);
        let name =
            if device == u32::MAX { "host".to_owned() } else { format!("{} {device}", self.device_label) };
        out.push(self.descriptor(TrackDescriptor {
            uuid: Some(uuid),
            name: Some(name),
            child_ordering: Some(CHILD_ORDERING_EXPLICIT),
            sibling_order_rank: Some(device as i32),
            ..Default::default()
        }));
        uuid
    }

    /// The track of one lane of a stream of a device (`stream` is ignored for [`Lane::Memory`]).
    pub(crate) fn lane(&mut self, device: u32, lane: Lane, stream: u64, out: &mut Vec<TracePacket>) -> u64 {
        let stream = if lane == Lane::Memory { 0 } else { stream };
        if let Some(uuid) = self.lanes.get(&(device, lane, stream)) {
            return *uuid;
        }
        let parent = self.device(device, out);
        let uuid = self.uuid();
        self.lanes.insert((device, lane, stream), uuid);
        let name = match lane {
            Lane::Work => format!("stream {stream}"),
            Lane::Collectives => format!("stream {stream} collectives"),
            Lane::Sync => format!("stream {stream} sync"),
            Lane::Ranges => format!("stream {stream} ranges"),
            Lane::Memory => "memory".to_owned(),
        };
        // Streams in order, each stream's lanes after it.
        let rank = (stream.min(1 << 26) as i32) * 8 + lane as i32;
        out.push(self.descriptor(TrackDescriptor {
            uuid: Some(uuid),
            parent_uuid: Some(parent),
            name: Some(name),
            sibling_order_rank: Some(rank),
            ..Default::default()
        }));
        uuid
    }

    /// The track of a host process.
    pub(crate) fn process(&mut self, pid: u32, out: &mut Vec<TracePacket>) -> u64 {
        if let Some(uuid) = self.processes.get(&pid) {
            return *uuid;
        }
        let uuid = self.uuid();
        self.processes.insert(pid, uuid);
        let process_name = Some(self.process_name.clone().unwrap_or_else(|| format!("process {pid}")));
        out.push(self.descriptor(TrackDescriptor {
            uuid: Some(uuid),
            process: Some(ProcessDescriptor {
                pid: Some(pid as i32),
                process_name,
                process_labels: self.process_labels.clone(),
            }),
            ..Default::default()
        }));
        uuid
    }

    /// The track of a host thread (API calls).
    pub(crate) fn thread(&mut self, pid: u32, tid: u64, out: &mut Vec<TracePacket>) -> u64 {
        if let Some(uuid) = self.threads.get(&(pid, tid)) {
            return *uuid;
        }
        self.process(pid, out);
        let uuid = self.uuid();
        self.threads.insert((pid, tid), uuid);
        out.push(self.descriptor(TrackDescriptor {
            uuid: Some(uuid),
            thread: Some(ThreadDescriptor {
                pid: Some(pid as i32),
                tid: Some(tid as i64),
                thread_name: None,
            }),
            ..Default::default()
        }));
        uuid
    }

    /// The track of a host thread's markers and ranges (ranges need not nest with the thread's calls).
    pub(crate) fn markers(&mut self, pid: u32, tid: u64, out: &mut Vec<TracePacket>) -> u64 {
        if let Some(uuid) = self.marker_threads.get(&(pid, tid)) {
            return *uuid;
        }
        let parent = self.process(pid, out);
        let uuid = self.uuid();
        self.marker_threads.insert((pid, tid), uuid);
        out.push(self.descriptor(TrackDescriptor {
            uuid: Some(uuid),
            parent_uuid: Some(parent),
            name: Some(format!("markers (thread {tid})")),
            ..Default::default()
        }));
        uuid
    }

    /// The counter track of one counter of a device.
    pub(crate) fn counter(
        &mut self,
        device: u32,
        counter: NameId,
        name: &str,
        out: &mut Vec<TracePacket>,
    ) -> u64 {
        if let Some(uuid) = self.counters.get(&(device, counter)) {
            return *uuid;
        }
        let parent = self.device(device, out);
        let uuid = self.uuid();
        self.counters.insert((device, counter), uuid);
        out.push(self.descriptor(TrackDescriptor {
            uuid: Some(uuid),
            parent_uuid: Some(parent),
            name: Some(name.to_owned()),
            counter: Some(CounterDescriptor::default()),
            ..Default::default()
        }));
        uuid
    }
}
