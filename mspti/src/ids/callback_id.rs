//! [`CallbackId`]: a callback id together with its domain.

use std::fmt;

use super::{CallbackDomain, HcclCbid, RuntimeCbid};

/// Which API function a callback is about: an id within its domain (`RuntimeCbid::LAUNCH.id()`,
/// `HcclCbid::ALLREDUCE.into()`), any pair representable (a newer library's).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallbackId {
    /// The domain.
    pub domain: CallbackDomain,
    /// The id within the domain (`msptiCallbackId`).
    pub cbid: u32,
}

impl CallbackId {
    /// The id `cbid` of `domain`, as MSPTI sends it.
    pub const fn new(domain: CallbackDomain, cbid: u32) -> CallbackId {
        CallbackId { domain, cbid }
    }

    /// The runtime id, for the RUNTIME domain.
    pub fn runtime(self) -> Option<RuntimeCbid> {
        (self.domain == CallbackDomain::RUNTIME).then_some(RuntimeCbid(self.cbid))
    }

    /// The HCCL id, for the HCCL domain.
    pub fn hccl(self) -> Option<HcclCbid> {
        (self.domain == CallbackDomain::HCCL).then_some(HcclCbid(self.cbid))
    }

    /// Whether MSPTI defines this callback (in the headers this crate was built from: RUNTIME
    /// 1..=36, HCCL 1..=12; id 0 of each domain is INVALID). MSPTI accepts any id below 64 and
    /// never calls back one it does not define.
    pub fn is_defined(self) -> bool {
        self.cbid != 0 && self.name().is_some()
    }

    /// The id's name (`"LAUNCH"`, `"ALLREDUCE"`), when known.
    pub fn name(self) -> Option<&'static str> {
        match self.domain {
            CallbackDomain::RUNTIME => RuntimeCbid(self.cbid).name(),
            CallbackDomain::HCCL => HcclCbid(self.cbid).name(),
            _ => None,
        }
    }
}

impl fmt::Debug for CallbackId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CallbackId({self})")
    }
}

impl fmt::Display for CallbackId {
    /// `RUNTIME/LAUNCH`, `HCCL/ALLREDUCE`, `RUNTIME/unknown(50)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "{}/{n}", self.domain),
            None => write!(f, "{}/unknown({})", self.domain, self.cbid),
        }
    }
}
