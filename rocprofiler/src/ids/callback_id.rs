//! [`CallbackId`] and [`Operation`]: what a callback is about, within its domain.

use std::fmt;

use super::CallbackDomain;

/// An operation within a tracing kind (an API function, a copy direction, ...): the SDK's
/// `rocprofiler_tracing_operation_t`, this crate's per-domain callback id for every domain. Its
/// meaning depends on the kind and, for HIP, on the HIP version: use the names the library reports
/// ([`Rocprofiler::callback_operations`](crate::Rocprofiler::callback_operations)).
#[doc(alias = "rocprofiler_tracing_operation_t")]
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Operation(pub i32);

impl Operation {
    /// The raw value.
    pub const fn raw(self) -> i32 {
        self.0
    }
}

/// A callback id with its domain: the tracing kind and the operation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallbackId {
    /// The domain (tracing kind).
    pub domain: CallbackDomain,
    /// The operation.
    #[doc(alias = "operation")]
    pub cbid: Operation,
}

impl CallbackId {
    /// The operation `cbid` of `domain`.
    pub const fn new(domain: CallbackDomain, cbid: Operation) -> CallbackId {
        CallbackId { domain, cbid }
    }
}

impl fmt::Debug for CallbackId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CallbackId({self})")
    }
}

impl fmt::Display for CallbackId {
    /// `HIP_RUNTIME_API/12` (operation names come from the library).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.domain, self.cbid.0)
    }
}
