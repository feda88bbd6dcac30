//! Kernels, copies and sets: `pid` = device, `tid` = stream, the flow's `f` end.

use super::emit::{bandwidth_gbps, Emit};
use super::flows::Endpoint;
use super::op_names::{write_memcpy_name, write_memset_name};
use crate::columns::{KernelColumns, MemcpyColumns, MemsetColumns};

impl Emit<'_> {
    fn gpu_target(&mut self, device: u32, stream: u64, correlation: u64, start: u64) {
        self.devices.insert(device);
        let at = Endpoint { pid: u64::from(device), tid: stream, ts: self.rel(start) };
        self.flows.target(correlation, at);
    }

    pub(crate) fn kernels(&mut self, kernels: &KernelColumns) {
        let (categories, names) = (self.categories, self.names);
        for k in kernels.rows() {
            self.gpu_target(k.device, k.stream, k.correlation, k.start);
            let name = names.lookup(k.name).unwrap_or("kernel");
            let mut o = self.complete(&categories.kernel, name, k.device.into(), k.stream, k.start, k.end);
            let mut args = o.object("args");
            args.uint("device", k.device.into()).uint("context", k.context.into());
            args.uint("stream", k.stream).uint("correlation", k.correlation);
            args.uint("registers per thread", k.registers.into())
                .uint("shared memory", k.shared_memory.into());
            args.uints("grid", &[k.grid_x.into(), k.grid_y.into(), k.grid_z.into()]);
            args.uints("block", &[k.block_x.into(), k.block_y.into(), k.block_z.into()]);
            args.end();
            o.end();
        }
    }

    pub(crate) fn memcpys(&mut self, copies: &MemcpyColumns) {
        let categories = self.categories;
        let mut name = std::mem::take(&mut self.scratch);
        for c in copies.rows() {
            self.gpu_target(c.device, c.stream, c.correlation, c.start);
            write_memcpy_name(&mut name, c.copy_kind, c.src_kind, c.dst_kind);
            let mut o = self.complete(&categories.memcpy, &name, c.device.into(), c.stream, c.start, c.end);
            let mut args = o.object("args");
            args.uint("device", c.device.into()).uint("context", c.context.into());
            args.uint("stream", c.stream).uint("correlation", c.correlation).uint("bytes", c.bytes);
            args.float("memory bandwidth (GB/s)", bandwidth_gbps(c.bytes, c.end.saturating_sub(c.start)));
            args.end();
            o.end();
        }
        self.scratch = name;
    }

    pub(crate) fn memsets(&mut self, sets: &MemsetColumns) {
        let categories = self.categories;
        let mut name = std::mem::take(&mut self.scratch);
        for s in sets.rows() {
            self.gpu_target(s.device, s.stream, s.correlation, s.start);
            write_memset_name(&mut name, s.memory_kind);
            let mut o = self.complete(&categories.memset, &name, s.device.into(), s.stream, s.start, s.end);
            let mut args = o.object("args");
            args.uint("device", s.device.into()).uint("context", s.context.into());
            args.uint("stream", s.stream).uint("correlation", s.correlation).uint("bytes", s.bytes);
            args.float("memory bandwidth (GB/s)", bandwidth_gbps(s.bytes, s.end.saturating_sub(s.start)));
            args.uint("value", s.value.into());
            args.end();
            o.end();
        }
        self.scratch = name;
    }
}
