//! API calls (the flow's `s` end) and markers. No integer `stream` arg is ever written on these: HTA takes
//! any event with both `stream` and `correlation` for GPU work.

use super::emit::Emit;
use super::flows::Endpoint;
use crate::columns::{ApiColumns, MarkerColumns, HOST_DEVICE};

impl Emit<'_> {
    pub(crate) fn api_calls(&mut self, calls: &ApiColumns) {
        let (categories, names) = (self.categories, self.names);
        let mut fallback = std::mem::take(&mut self.scratch);
        for c in calls.rows() {
            let at = Endpoint { pid: u64::from(c.process), tid: c.thread, ts: self.rel(c.start) };
            self.flows.launch(c.correlation, at, self.rel(c.end));
            let name = match names.lookup(c.name) {
                Some(name) => name,
                None => {
                    use std::fmt::Write;
                    fallback.clear();
                    let _ = write!(fallback, "api {}:{}", c.domain, c.cbid);
                    &fallback
                }
            };
            let category = categories.api_category(c.domain);
            let mut o = self.complete(category, name, c.process.into(), c.thread, c.start, c.end);
            let mut args = o.object("args");
            args.uint("correlation", c.correlation).uint("cbid", c.cbid.into());
            args.end();
            o.end();
        }
        self.scratch = fallback;
    }

    pub(crate) fn markers(&mut self, markers: &MarkerColumns) {
        let (categories, names) = (self.categories, self.names);
        for m in markers.rows() {
            let on_host = m.device == HOST_DEVICE;
            let (category, pid, tid) = if on_host {
                (&*categories.marker, u64::from(m.process), m.thread)
            } else {
                self.devices.insert(m.device);
                (&*categories.gpu_marker, u64::from(m.device), m.stream)
            };
            let name = names.lookup(m.name).unwrap_or("marker");
            let mut o = if m.end == m.start {
                self.instant(category, name, pid, tid, m.start)
            } else {
                self.complete(category, name, pid, tid, m.start, m.end)
            };
            let mut args = o.object("args");
            args.uint("id", m.id);
            if let Some(domain) = names.lookup(m.domain) {
                args.str("domain", domain);
            }
            args.end();
            o.end();
        }
    }
}
