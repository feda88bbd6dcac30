//! Collectives, synchronizations, allocations and counter values: drawn on the device's timeline.

use super::emit::Emit;
use crate::columns::{CollectiveColumns, CounterColumns, MemoryColumns, SyncColumns};

impl Emit<'_> {
    pub(crate) fn collectives(&mut self, ops: &CollectiveColumns) {
        let (categories, names) = (self.categories, self.names);
        for c in ops.rows() {
            self.devices.insert(c.device);
            let name = names.lookup(c.name).unwrap_or("collective");
            let mut o =
                self.complete(&categories.collective, name, c.device.into(), c.stream, c.start, c.end);
            let mut args = o.object("args");
            args.uint("device", c.device.into()).uint("stream", c.stream).uint("correlation", c.correlation);
            args.str("Collective name", name).str("Process Group Name", names.resolve(c.comm_name));
            args.uint("In msg nelems", c.count).uint("bytes", c.bytes).uint("dtype", c.data_type.into());
            if let Some(algorithm) = names.lookup(c.algorithm) {
                args.str("algorithm", algorithm);
            }
            args.float("memory bandwidth (GB/s)", c.bandwidth_gbps);
            args.end();
            o.end();
        }
    }

    pub(crate) fn syncs(&mut self, syncs: &SyncColumns) {
        let (categories, names) = (self.categories, self.names);
        for s in syncs.rows() {
            self.devices.insert(s.device);
            let name = names.lookup(s.name).unwrap_or("Synchronization");
            let mut o = self.complete(&categories.sync, name, s.device.into(), s.stream, s.start, s.end);
            let mut args = o.object("args");
            args.uint("device", s.device.into()).uint("context", s.context.into());
            args.uint("stream", s.stream).uint("correlation", s.correlation);
            args.uint("sync_type", s.sync_type.into()).uint("event", s.event);
            args.end();
            o.end();
        }
    }

    pub(crate) fn memory(&mut self, ops: &MemoryColumns) {
        let categories = self.categories;
        for m in ops.rows() {
            self.devices.insert(m.device);
            let mut o = self.instant(&categories.memory, "[memory]", m.device.into(), m.stream, m.start);
            let mut args = o.object("args");
            args.uint("Device Id", m.device.into()).uint("Addr", m.address).uint("Bytes", m.bytes);
            args.uint("op", m.op.into()).uint("memory kind", m.memory_kind.into());
            args.uint("correlation", m.correlation).uint("process", m.process.into());
            args.end();
            o.end();
        }
    }

    pub(crate) fn counters(&mut self, values: &CounterColumns) {
        let (categories, names) = (self.categories, self.names);
        for c in values.rows() {
            self.devices.insert(c.device);
            let name = names.lookup(c.counter).unwrap_or("counter");
            let ts = self.rel(c.start);
            let mut o = self.out.begin();
            o.str("ph", "C").str("cat", &categories.counter).str("name", name).uint("pid", c.device.into());
            o.uint("tid", 0).micros("ts", ts);
            let mut args = o.object("args");
            args.float(name, c.value);
            args.end();
            o.end();
        }
    }
}
