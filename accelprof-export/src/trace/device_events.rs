//! Collectives, synchronizations, allocations and counter values: drawn on the device's timeline.

use super::emit::{Emit, Name};
use super::json_object::{key, pair};
use accelprof_core::columns::{CollectiveColumns, CounterColumns, MemoryColumns, SyncColumns};

impl Emit<'_> {
    pub(crate) fn collectives(&mut self, ops: &CollectiveColumns) {
        let categories = std::mem::take(&mut self.r.encoded_categories);
        let names = self.names;
        for c in ops.rows() {
            self.device(c.device);
            self.correlation(c.correlation);
            let name = names.lookup(c.name).unwrap_or("collective");
            let mut o = self.complete(
                &categories.collective,
                Name::Text(name),
                c.device.into(),
                c.stream,
                c.start,
                c.end,
            );
            let mut args = o.object(key!("args"));
            args.uint(key!("device"), c.device.into())
                .uint(key!("stream"), c.stream)
                .uint(key!("correlation"), c.correlation);
            args.str(key!("Collective name"), name)
                .str(key!("Process Group Name"), names.resolve(c.comm_name));
            args.uint(key!("In msg nelems"), c.count)
                .uint(key!("bytes"), c.bytes)
                .uint(key!("dtype"), c.data_type.into());
            if let Some(algorithm) = names.lookup(c.algorithm) {
                args.str(key!("algorithm"), algorithm);
            }
            args.float(key!("memory bandwidth (GB/s)"), c.bandwidth_gbps);
            args.end();
            o.end();
            self.row_done();
        }
        self.r.encoded_categories = categories;
    }

    pub(crate) fn syncs(&mut self, syncs: &SyncColumns) {
        let categories = std::mem::take(&mut self.r.encoded_categories);
        let names = self.names;
        for s in syncs.rows() {
            self.device(s.device);
            self.correlation(s.correlation);
            let name = names.lookup(s.name).unwrap_or("Synchronization");
            let mut o =
                self.complete(&categories.sync, Name::Text(name), s.device.into(), s.stream, s.start, s.end);
            let mut args = o.object(key!("args"));
            args.uint(key!("device"), s.device.into()).uint(key!("context"), s.context.into());
            args.uint(key!("stream"), s.stream).uint(key!("correlation"), s.correlation);
            args.uint(key!("sync_type"), s.sync_type.into()).uint(key!("event"), s.event);
            args.end();
            o.end();
            self.row_done();
        }
        self.r.encoded_categories = categories;
    }

    pub(crate) fn memory(&mut self, ops: &MemoryColumns) {
        let categories = std::mem::take(&mut self.r.encoded_categories);
        for m in ops.rows() {
            self.device(m.device);
            let mut o = self.instant(&categories.memory, "[memory]", m.device.into(), m.stream, m.start);
            let mut args = o.object(key!("args"));
            args.uint(key!("Device Id"), m.device.into())
                .uint(key!("Addr"), m.address)
                .uint(key!("Bytes"), m.bytes);
            args.uint(key!("op"), m.op.into()).uint(key!("memory kind"), m.memory_kind.into());
            args.uint(key!("correlation"), m.correlation).uint(key!("process"), m.process.into());
            args.end();
            o.end();
            self.row_done();
        }
        self.r.encoded_categories = categories;
    }

    pub(crate) fn counters(&mut self, values: &CounterColumns) {
        let categories = std::mem::take(&mut self.r.encoded_categories);
        let names = self.names;
        for c in values.rows() {
            self.device(c.device);
            let name = names.lookup(c.counter).unwrap_or("counter");
            let ts = self.rel(c.start);
            let mut o = self.out.begin();
            o.pair(pair!("ph", "C"))
                .encoded(key!("cat"), &categories.counter)
                .str(key!("name"), name)
                .uint(key!("pid"), c.device.into());
            o.uint(key!("tid"), 0).micros(key!("ts"), ts);
            let mut args = o.object(key!("args"));
            args.float_dyn(name, c.value);
            args.end();
            o.end();
            self.row_done();
        }
        self.r.encoded_categories = categories;
    }
}
