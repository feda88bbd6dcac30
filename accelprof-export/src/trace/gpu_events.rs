//! Kernels, copies and sets: `pid` = device, `tid` = stream, the flow's `f` end.

use super::emit::{bandwidth_gbps, Emit, Name};
use super::json_object::key;
use super::op_names::{write_memcpy_name, write_memset_name};
use accelprof_core::columns::{KernelColumns, MemcpyColumns, MemsetColumns};

impl Emit<'_> {
    pub(crate) fn kernels(&mut self, kernels: &KernelColumns) {
        let categories = std::mem::take(&mut self.r.encoded_categories);
        for k in kernels.rows() {
            self.gpu_target(k.device, k.stream, k.correlation, k.start);
            self.correlation(k.correlation);
            self.named_complete(
                &categories.kernel,
                k.name,
                "kernel",
                k.device.into(),
                k.stream,
                (k.start, k.end),
                |a| {
                    a.uint(key!("device"), k.device.into()).uint(key!("context"), k.context.into());
                    a.uint(key!("stream"), k.stream).uint(key!("correlation"), k.correlation);
                    a.uint(key!("registers per thread"), k.registers.into())
                        .uint(key!("shared memory"), k.shared_memory.into());
                    a.uints(key!("grid"), &[k.grid_x.into(), k.grid_y.into(), k.grid_z.into()]);
                    a.uints(key!("block"), &[k.block_x.into(), k.block_y.into(), k.block_z.into()]);
                },
            );
            self.row_done();
        }
        self.r.encoded_categories = categories;
    }

    pub(crate) fn memcpys(&mut self, copies: &MemcpyColumns) {
        let categories = std::mem::take(&mut self.r.encoded_categories);
        let mut name = self.take_scratch();
        for c in copies.rows() {
            self.gpu_target(c.device, c.stream, c.correlation, c.start);
            self.correlation(c.correlation);
            write_memcpy_name(&mut name, c.copy_kind, c.src_kind, c.dst_kind);
            let mut o = self.complete(
                &categories.memcpy,
                Name::Text(&name),
                c.device.into(),
                c.stream,
                c.start,
                c.end,
            );
            let mut args = o.object(key!("args"));
            args.uint(key!("device"), c.device.into()).uint(key!("context"), c.context.into());
            args.uint(key!("stream"), c.stream)
                .uint(key!("correlation"), c.correlation)
                .uint(key!("bytes"), c.bytes);
            args.float(
                key!("memory bandwidth (GB/s)"),
                bandwidth_gbps(c.bytes, c.end.saturating_sub(c.start)),
            );
            args.end();
            o.end();
            self.row_done();
        }
        self.put_scratch(name);
        self.r.encoded_categories = categories;
    }

    pub(crate) fn memsets(&mut self, sets: &MemsetColumns) {
        let categories = std::mem::take(&mut self.r.encoded_categories);
        let mut name = self.take_scratch();
        for s in sets.rows() {
            self.gpu_target(s.device, s.stream, s.correlation, s.start);
            self.correlation(s.correlation);
            write_memset_name(&mut name, s.memory_kind);
            let mut o = self.complete(
                &categories.memset,
                Name::Text(&name),
                s.device.into(),
                s.stream,
                s.start,
                s.end,
            );
            let mut args = o.object(key!("args"));
            args.uint(key!("device"), s.device.into()).uint(key!("context"), s.context.into());
            args.uint(key!("stream"), s.stream)
                .uint(key!("correlation"), s.correlation)
                .uint(key!("bytes"), s.bytes);
            args.float(
                key!("memory bandwidth (GB/s)"),
                bandwidth_gbps(s.bytes, s.end.saturating_sub(s.start)),
            );
            args.uint(key!("value"), s.value.into());
            args.end();
            o.end();
            self.row_done();
        }
        self.put_scratch(name);
        self.r.encoded_categories = categories;
    }
}
