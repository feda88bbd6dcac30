//! A callback id together with its domain.

use std::fmt;

use super::{Domain, HcclCbid, RuntimeCbid};

/// Which API function a callback is about: a typed id in its domain, or a raw pair for a
/// domain this crate does not know.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CallbackId {
    /// A runtime (`aclrt*`) function.
    Runtime(RuntimeCbid),
    /// An HCCL operation.
    Hccl(HcclCbid),
    /// Any other domain.
    Other {
        /// The raw domain.
        domain: Domain,
        /// The raw id.
        cbid: u32,
    },
}

impl CallbackId {
    /// The pair as MSPTI sends it.
    pub fn from_raw(domain: Domain, cbid: u32) -> CallbackId {
        match domain {
            Domain::RUNTIME => CallbackId::Runtime(RuntimeCbid(cbid)),
            Domain::HCCL => CallbackId::Hccl(HcclCbid(cbid)),
            domain => CallbackId::Other { domain, cbid },
        }
    }

    /// The domain.
    pub fn domain(self) -> Domain {
        match self {
            CallbackId::Runtime(_) => Domain::RUNTIME,
            CallbackId::Hccl(_) => Domain::HCCL,
            CallbackId::Other { domain, .. } => domain,
        }
    }

    /// The raw id within the domain.
    pub fn raw(self) -> u32 {
        match self {
            CallbackId::Runtime(c) => c.0,
            CallbackId::Hccl(c) => c.0,
            CallbackId::Other { cbid, .. } => cbid,
        }
    }

    /// The id's name (`"LAUNCH"`, `"ALLREDUCE"`), when known.
    pub fn name(self) -> Option<&'static str> {
        match self {
            CallbackId::Runtime(c) => c.name(),
            CallbackId::Hccl(c) => c.name(),
            CallbackId::Other { .. } => None,
        }
    }
}

impl From<RuntimeCbid> for CallbackId {
    fn from(c: RuntimeCbid) -> CallbackId {
        CallbackId::Runtime(c)
    }
}

impl From<HcclCbid> for CallbackId {
    fn from(c: HcclCbid) -> CallbackId {
        CallbackId::Hccl(c)
    }
}

impl fmt::Display for CallbackId {
    /// `RUNTIME/LAUNCH`, `HCCL/ALLREDUCE`, `RUNTIME/unknown(50)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "{}/{n}", self.domain()),
            None => write!(f, "{}/unknown({})", self.domain(), self.raw()),
        }
    }
}
