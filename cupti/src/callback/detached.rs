//! The dispatcher without CUPTI, for the dispatch benchmark (`benches/dispatch.rs`). Hidden: not
//! part of the API, may change at any time.
//!
//! [`Detached`] is a switchboard over no library with closures routed by hand. Its
//! [`Detached::callback`] and [`Detached::userdata`] are the very `CUpti_CallbackFunc` and
//! `userdata` the hub hands CUPTI (the first closure routed is the anchor, as a library's first
//! subscriber is), so a benchmark calls them exactly as CUPTI does.

use std::ffi::c_void;
use std::fmt;

use std::sync::Arc;

use accelprof_core::callback::{Callback, Handler, Registration};

use super::anchor::entry;
use super::data::CallbackData;
use super::trampoline::trampoline;
pub use super::vendor::RawCallback;
use super::vendor::{CuptiVendor, Hub};
use crate::ids::{CallbackDomain, CallbackId};

/// Closures and what each one is routed, before the switchboard is built.
#[derive(Default)]
pub struct DetachedBuilder {
    regs: Vec<Registration<CuptiVendor>>,
    /// `entry` for the first closure's type.
    callback: Option<RawCallback>,
}

impl fmt::Debug for DetachedBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DetachedBuilder").field("subscribers", &self.regs.len()).finish()
    }
}

impl DetachedBuilder {
    /// A subscriber with `f`, enabled for `domains` whole and for `ids`.
    pub fn route<F>(mut self, domains: &[CallbackDomain], ids: &[CallbackId], f: F) -> Self
    where
        F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
    {
        self.callback.get_or_insert(entry::<F>);
        self.regs.push(Registration {
            handler: Arc::new(Handler::new(Callback::<CuptiVendor>::new(f))),
            domains: domains.iter().map(|d| d.0).collect(),
            ids: ids.iter().map(|i| (i.domain.0, i.cbid)).collect(),
        });
        self
    }

    /// The switchboard (leaked, as a real one is).
    pub fn build(self) -> Detached {
        let hub = Hub::preset(CuptiVendor::detached(), self.regs, true);
        Detached { hub, callback: self.callback.unwrap_or(trampoline) }
    }
}

/// A switchboard over no library (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct Detached {
    hub: &'static Hub,
    callback: RawCallback,
}

impl Detached {
    /// Starts one.
    pub fn builder() -> DetachedBuilder {
        DetachedBuilder::default()
    }

    /// The callback the switchboard subscribes with.
    pub fn callback(&self) -> RawCallback {
        self.callback
    }

    #[cfg(test)]
    pub(crate) fn hub(&self) -> &'static Hub {
        self.hub
    }

    /// The `userdata` the switchboard subscribes with.
    pub fn userdata(&self) -> *mut c_void {
        self.hub as *const Hub as *mut c_void
    }
}
