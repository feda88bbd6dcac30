//! Pairs the ENTER and EXIT callbacks of API calls.
//!
//! A correlation id does not name one call: a runtime call and the driver calls it makes inside
//! (`cudaMemcpy` -> `cuMemcpyHtoD_v2`, `cudaDeviceSynchronize` -> `cuCtxGetCurrent` then
//! `cuCtxSynchronize_v2`) all carry the runtime call's id. What does hold: a call's ENTER and
//! EXIT come on the calling thread, and calls nest strictly there (inner calls end before outer
//! ones). So each thread keeps a stack of open calls, and an EXIT closes the innermost open call
//! with the same domain, callback id and correlation id.

#![allow(dead_code)]

use std::collections::HashMap;
use std::thread::ThreadId;

use cupti::{CallbackDomain, CallbackId};

/// What was seen, by domain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Runtime calls whose ENTER and EXIT were both seen.
    pub runtime: usize,
    /// Driver calls whose ENTER and EXIT were both seen.
    pub driver: usize,
    /// EXITs without an open ENTER (the subscription began inside the call).
    pub unpaired_exits: usize,
    /// ENTERs closed without their EXIT: an outer call's EXIT came first (its callback was disabled
    /// in between), or the call was still open at the end.
    pub unpaired_enters: usize,
}

/// Open calls per thread, innermost last.
#[derive(Debug, Default)]
pub struct Pairing {
    open: HashMap<ThreadId, Vec<(CallbackId, u32)>>,
    totals: Totals,
}

impl Pairing {
    /// An ENTER of call `id` with `correlation` on the calling thread.
    pub fn enter(&mut self, id: CallbackId, correlation: u32) {
        self.open.entry(std::thread::current().id()).or_default().push((id, correlation));
    }

    /// An EXIT of call `id` with `correlation` on the calling thread. Returns whether it closed an
    /// open ENTER.
    pub fn exit(&mut self, id: CallbackId, correlation: u32) -> bool {
        let stack = self.open.entry(std::thread::current().id()).or_default();
        let Some(at) = stack.iter().rposition(|&open| open == (id, correlation)) else {
            self.totals.unpaired_exits += 1;
            return false;
        };
        self.totals.unpaired_enters += stack.len() - at - 1;
        stack.truncate(at);
        if id.domain == CallbackDomain::RUNTIME_API {
            self.totals.runtime += 1;
        } else {
            self.totals.driver += 1;
        }
        true
    }

    /// The totals, counting calls still open as ENTERs without EXIT.
    pub fn finish(&self) -> Totals {
        let still_open: usize = self.open.values().map(Vec::len).sum();
        Totals { unpaired_enters: self.totals.unpaired_enters + still_open, ..self.totals }
    }
}
