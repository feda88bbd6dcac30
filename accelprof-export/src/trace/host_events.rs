//! API calls (the flow's `s` end) and markers. No integer `stream` arg is ever written on these: HTA takes
//! any event with both `stream` and `correlation` for GPU work.

use super::emit::{Emit, Name};
use super::flows::Endpoint;
use super::json_object::key;
use accelprof_core::columns::{ApiColumns, MarkerColumns, HOST_DEVICE};

impl Emit<'_> {
    pub(crate) fn api_calls(&mut self, calls: &ApiColumns) {
        let categories = std::mem::take(&mut self.r.encoded_categories);
        if let Some(first) = calls.rows().next() {
            self.r.stats.host_pid.get_or_insert(u64::from(first.process));
        }
        for c in calls.rows() {
            let at = Endpoint { pid: u64::from(c.process), tid: c.thread, ts: self.rel64(c.start) };
            let end = self.rel64(c.end);
            self.r.flows.launch(c.correlation, at, end);
            self.correlation(c.correlation);
            let category = categories.api(c.domain);
            let args = |a: &mut super::json_object::JsonObject<'_>| {
                a.uint(key!("correlation"), c.correlation).uint(key!("cbid"), c.cbid.into());
            };
            if self.names.lookup(c.name).is_some() {
                self.named_complete(category, c.name, "", c.process.into(), c.thread, (c.start, c.end), args);
            } else {
                use std::fmt::Write;
                let mut fallback = self.take_scratch();
                fallback.clear();
                let _ = write!(fallback, "api {}:{}", c.domain, c.cbid);
                let mut o = self.complete(
                    category,
                    Name::Text(&fallback),
                    c.process.into(),
                    c.thread,
                    c.start,
                    c.end,
                );
                let mut a = o.object(key!("args"));
                args(&mut a);
                a.end();
                o.end();
                self.put_scratch(fallback);
            }
            self.row_done();
        }
        self.r.encoded_categories = categories;
    }

    pub(crate) fn markers(&mut self, markers: &MarkerColumns) {
        let categories = std::mem::take(&mut self.r.encoded_categories);
        let names = self.names;
        for m in markers.rows() {
            let on_host = m.device == HOST_DEVICE;
            let (category, pid, tid) = if on_host {
                (&*categories.marker, u64::from(m.process), m.thread)
            } else {
                self.device(m.device);
                (&*categories.gpu_marker, u64::from(m.device), m.stream)
            };
            let name = names.lookup(m.name).unwrap_or("marker");
            let mut o = if m.end == m.start {
                self.instant(category, name, pid, tid, m.start)
            } else {
                self.complete(category, Name::Text(name), pid, tid, m.start, m.end)
            };
            let mut args = o.object(key!("args"));
            args.uint(key!("id"), m.id);
            if let Some(domain) = names.lookup(m.domain) {
                args.str(key!("domain"), domain);
            }
            args.end();
            o.end();
            self.row_done();
        }
        self.r.encoded_categories = categories;
    }
}
