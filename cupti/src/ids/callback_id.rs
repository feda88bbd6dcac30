//! [`CallbackId`] and the per-domain callback-id newtypes.
//!
//! Names come from `cupti-sys`'s tables, generated from the cbid enums of the 13.0 and 12.9
//! headers; the constants (`RuntimeCbid::cudaLaunchKernel_v7000`, ...) are generated from the
//! same enums into `cbids.rs`.

use std::fmt;

use cupti_sys::cbid_names::*;

use super::CallbackDomain;

/// `(cbid, name)` pairs sorted by cbid.
type Names = &'static [(u32, &'static str)];

/// The last (newest) id whose name is `name` in `names13`, else in `names12`.
fn find_by_name(names13: Names, names12: Names, name: &str) -> Option<u32> {
    let last = |t: Names| t.iter().rev().find(|(_, n)| *n == name).map(|&(id, _)| id);
    last(names13).or_else(|| last(names12))
}

macro_rules! cbid_newtype {
    (
        $(#[$meta:meta])*
        $T:ident, $domain:ident, $sys:ident, $names:ident, $names12:ident
    ) => {
        accelprof_core::id_newtype! {
            $(#[$meta])*
            ///
            /// Every id of the headers is a constant named like the C enum constant without its
            /// prefix; any other value is representable (a newer CUPTI's ids).
            #[derive(Default)]
            pub struct $T(pub u32) from cupti_sys::$sys, in CallbackDomain::$domain => CallbackId, named by hand;
        }

        impl $T {
            /// The traced function or event (`"cudaLaunchKernel"`, `"CONTEXT_CREATED"`) as the
            /// 13.x headers name it; `None` for an id they do not know.
            pub fn name(self) -> Option<&'static str> {
                self.name_for(cupti_sys::CUPTI_API_VERSION)
            }

            /// The name as the CUPTI whose `cuptiGetVersion` returned `api_version` uses it
            /// (CUDA 13 dropped the `_v2`/`_v3` suffixes of some runtime functions).
            pub fn name_for(self, api_version: u32) -> Option<&'static str> {
                cupti_sys::cbid_name(Self::DOMAIN.into(), self.0, api_version)
            }

            /// The id of a function or event name (`"cuLaunchKernel"`, `"cudaMemcpy"`), as
            /// either the 13.x or the 12.x headers name it. Where several ids share a name
            /// (an API and its older versions), the newest id.
            pub fn from_name(name: &str) -> Option<$T> {
                find_by_name($names, $names12, name).map($T)
            }

            /// Every id the 13.x headers define, in numeric order.
            pub fn all() -> impl Iterator<Item = $T> {
                $names.iter().map(|&(id, _)| $T(id))
            }
        }
    };
}

cbid_newtype!(
    /// A CUDA driver API callback id (`CUpti_driver_api_trace_cbid`).
    DriverCbid, DRIVER_API, CUpti_driver_api_trace_cbid_enum, DRIVER_CBID_NAMES, DRIVER_CBID_NAMES_12
);
cbid_newtype!(
    /// A CUDA runtime API callback id (`CUpti_runtime_api_trace_cbid`).
    RuntimeCbid, RUNTIME_API, CUpti_runtime_api_trace_cbid_enum, RUNTIME_CBID_NAMES, RUNTIME_CBID_NAMES_12
);
cbid_newtype!(
    /// A resource callback id (`CUpti_CallbackIdResource`).
    ResourceCbid, RESOURCE, CUpti_CallbackIdResource, RESOURCE_CBID_NAMES, RESOURCE_CBID_NAMES_12
);
cbid_newtype!(
    /// A synchronization callback id (`CUpti_CallbackIdSync`).
    SynchronizeCbid, SYNCHRONIZE, CUpti_CallbackIdSync, SYNCHRONIZE_CBID_NAMES, SYNCHRONIZE_CBID_NAMES_12
);
cbid_newtype!(
    /// An NVTX callback id (`CUpti_nvtx_api_trace_cbid`).
    NvtxCbid, NVTX, CUpti_nvtx_api_trace_cbid, NVTX_CBID_NAMES, NVTX_CBID_NAMES_12
);
cbid_newtype!(
    /// A CUPTI state callback id (`CUpti_CallbackIdState`).
    StateCbid, STATE, CUpti_CallbackIdState, STATE_CBID_NAMES, STATE_CBID_NAMES_12
);

/// A callback id with its domain: what a CUPTI callback reports and what a subscriber enables.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallbackId {
    /// The domain.
    pub domain: CallbackDomain,
    /// The id within the domain.
    pub cbid: u32,
}

impl CallbackId {
    /// The id `cbid` of `domain`.
    pub const fn new(domain: CallbackDomain, cbid: u32) -> CallbackId {
        CallbackId { domain, cbid }
    }

    /// The traced function or event as the 13.x headers name it (`"cudaLaunchKernel"`);
    /// `None` for an id or domain they do not know.
    pub fn name(self) -> Option<&'static str> {
        self.name_for(cupti_sys::CUPTI_API_VERSION)
    }

    /// The name as the CUPTI whose `cuptiGetVersion` returned `api_version` uses it.
    pub fn name_for(self, api_version: u32) -> Option<&'static str> {
        cupti_sys::cbid_name(self.domain.into(), self.cbid, api_version)
    }
}

impl fmt::Debug for CallbackId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "CallbackId({}/{} {n})", self.domain, self.cbid),
            None => write!(f, "CallbackId({}/{})", self.domain, self.cbid),
        }
    }
}

impl fmt::Display for CallbackId {
    /// `RUNTIME_API/cudaLaunchKernel`, `DRIVER_API/5000`, `domain 42/1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.domain.name() {
            Some(d) => f.write_str(d)?,
            None => write!(f, "domain {}", self.domain.0)?,
        }
        match self.name() {
            Some(n) => write!(f, "/{n}"),
            None => write!(f, "/{}", self.cbid),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_carry_their_domain_and_names_from_the_generated_tables() {
        let launch = RuntimeCbid::cudaLaunchKernel_v7000;
        assert_eq!(launch.name(), Some("cudaLaunchKernel"));
        assert_eq!(launch.id(), CallbackId::new(CallbackDomain::RUNTIME_API, 211));
        assert_eq!(launch.id().to_string(), "RUNTIME_API/cudaLaunchKernel");
        assert_eq!(DriverCbid::from_name("cuLaunchKernel"), Some(DriverCbid::cuLaunchKernel));
        assert_eq!(ResourceCbid::CONTEXT_CREATED.name(), Some("CONTEXT_CREATED"));
        assert_eq!(NvtxCbid::nvtxRangePushA.name(), Some("nvtxRangePushA"));
        assert_eq!(SynchronizeCbid::STREAM_SYNCHRONIZED.raw(), 1);
        assert_eq!(StateCbid::FATAL_ERROR.id().domain, CallbackDomain::STATE);
    }

    #[test]
    fn names_follow_the_library_version_and_unknown_ids_stay_representable() {
        let props = RuntimeCbid::cudaGetDeviceProperties_v12000;
        assert_eq!(props.name_for(130001), Some("cudaGetDeviceProperties"));
        assert_eq!(props.name_for(28), Some("cudaGetDeviceProperties_v2"));
        // A shared name resolves to the newest id; 12.x names resolve too.
        assert_eq!(RuntimeCbid::from_name("cudaGetDeviceProperties"), Some(props));
        assert_eq!(RuntimeCbid::from_name("cudaGetDeviceProperties_v2"), Some(props));
        let future = RuntimeCbid(60_000);
        assert_eq!(future.name(), None);
        assert_eq!(future.to_string(), "unknown(60000)");
        assert_eq!(CallbackId::new(CallbackDomain(42), 1).to_string(), "domain 42/1");
        assert_eq!(RuntimeCbid::from_name("noSuchFunction"), None);
        assert_eq!(DriverCbid::all().count(), DRIVER_CBID_NAMES.len());
    }
}
