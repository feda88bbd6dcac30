//! Which runtime and driver API calls get activity records: a filter per callback id, applied inside
//! CUPTI (`cuptiActivityEnableRuntimeApi` / `cuptiActivityEnableDriverApi`), so a call left out costs
//! CUPTI no record at all.
//!
//! What CUPTI itself costs grows with the records it writes, and API records dominate a framework's
//! trace: a PyTorch training step makes about 13 `cudaGetDevice` and 4 `cuDevicePrimaryCtxGetState`
//! calls per kernel. [`ApiFilter::timeline`] leaves out what PyTorch's profiler (Kineto) leaves out;
//! [`ApiFilter::all`] records every call.

use std::collections::BTreeSet;
use std::fmt;

use crate::ids::{DriverCbid, RuntimeCbid};

/// Which callback ids of one API domain (runtime or driver) get activity records.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CbidFilter<C: Ord> {
    /// Every call (the kind enabled as a whole).
    #[default]
    All,
    /// Every call but these: the kind is enabled, then each of these is disabled.
    Except(BTreeSet<C>),
    /// Only these calls: the kind itself is not enabled, each of these is.
    Only(BTreeSet<C>),
}

impl<C: Ord + Copy> CbidFilter<C> {
    /// Every call but `ids`.
    pub fn except(ids: impl IntoIterator<Item = C>) -> Self {
        CbidFilter::Except(ids.into_iter().collect())
    }

    /// Only `ids`.
    pub fn only(ids: impl IntoIterator<Item = C>) -> Self {
        CbidFilter::Only(ids.into_iter().collect())
    }

    /// No call at all.
    pub fn none() -> Self {
        CbidFilter::Only(BTreeSet::new())
    }

    /// Whether a call of `id` gets a record.
    pub fn records(&self, id: C) -> bool {
        match self {
            CbidFilter::All => true,
            CbidFilter::Except(ids) => !ids.contains(&id),
            CbidFilter::Only(ids) => ids.contains(&id),
        }
    }

    /// Records calls of `id` too.
    pub fn add(&mut self, id: C) {
        match self {
            CbidFilter::All => {}
            CbidFilter::Except(ids) => {
                ids.remove(&id);
                if ids.is_empty() {
                    *self = CbidFilter::All;
                }
            }
            CbidFilter::Only(ids) => {
                ids.insert(id);
            }
        }
    }

    /// Records no call of `id`.
    pub fn remove(&mut self, id: C) {
        match self {
            CbidFilter::All => *self = CbidFilter::Except([id].into()),
            CbidFilter::Except(ids) => {
                ids.insert(id);
            }
            CbidFilter::Only(ids) => {
                ids.remove(&id);
            }
        }
    }

    /// True for [`CbidFilter::All`].
    pub fn is_all(&self) -> bool {
        matches!(self, CbidFilter::All)
    }
}

/// Which runtime and driver API calls get activity records (RUNTIME and DRIVER kinds). Applies only
/// to the kinds the session collects: the driver filter means nothing when DRIVER is not collected.
///
/// Applied inside CUPTI when the session starts: a call that is filtered out is never written, so it is
/// neither delivered nor counted as dropped. Ids the running library does not know (an id of newer
/// headers, or 0) are not passed to it: it cannot produce records for them anyway.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ApiFilter {
    /// Runtime API calls (`cuda*`).
    pub runtime: CbidFilter<RuntimeCbid>,
    /// Driver API calls (`cu*`).
    pub driver: CbidFilter<DriverCbid>,
}

/// Runtime calls PyTorch's profiler (Kineto) does not write: `cudaGetDevice` it disables in CUPTI (CUDA
/// 12.5 and later, `libkineto/src/CuptiActivityApi.cpp`), the others it drops when it writes the trace
/// (the blocklist of `libkineto/src/CuptiCbidRegistry.cpp`).
pub const KINETO_RUNTIME_LEFT_OUT: [RuntimeCbid; 6] = [
    RuntimeCbid::cudaGetDevice_v3020,
    RuntimeCbid::cudaSetDevice_v3020,
    RuntimeCbid::cudaGetLastError_v3020,
    RuntimeCbid::cudaEventCreate_v3020,
    RuntimeCbid::cudaEventCreateWithFlags_v3020,
    RuntimeCbid::cudaEventDestroy_v3020,
];

/// Driver calls PyTorch's profiler (Kineto) writes: the launches no runtime call encloses (Triton's
/// `cuLaunchKernel`) and the virtual-memory calls (`libkineto/src/CuptiCbidRegistry.cpp`; every other
/// driver record it drops when writing, and `cuKernelGetAttribute`, `cuDevicePrimaryCtxGetState`,
/// `cuCtxGetCurrent` it disables in CUPTI).
pub const KINETO_DRIVER_KEPT: [DriverCbid; 8] = [
    DriverCbid::cuLaunchKernel,
    DriverCbid::cuLaunchKernelEx,
    DriverCbid::cuMemCreate,
    DriverCbid::cuMemMap,
    DriverCbid::cuMemUnmap,
    DriverCbid::cuMemRelease,
    DriverCbid::cuMemExportToShareableHandle,
    DriverCbid::cuMemImportFromShareableHandle,
];

impl ApiFilter {
    /// Every runtime and driver call (what CUPTI records when the kinds are enabled).
    pub fn all() -> Self {
        ApiFilter::default()
    }

    /// No runtime or driver call (kernels, copies and sets are still recorded).
    pub fn none() -> Self {
        ApiFilter { runtime: CbidFilter::none(), driver: CbidFilter::none() }
    }

    /// What a timeline needs, and no more than PyTorch's profiler writes: every runtime call but
    /// [`KINETO_RUNTIME_LEFT_OUT`], and of the driver calls only [`KINETO_DRIVER_KEPT`] (the launches no
    /// runtime call encloses, such as Triton's, and the virtual-memory calls).
    ///
    /// Kineto enables every runtime and driver call but four in CUPTI and drops the rest when it writes;
    /// this filter leaves all of them out inside CUPTI, so CUPTI writes no record a Kineto trace would not
    /// show. Kernels, copies and sets are not API calls: every one is still recorded.
    pub fn timeline() -> Self {
        ApiFilter {
            runtime: CbidFilter::except(KINETO_RUNTIME_LEFT_OUT),
            driver: CbidFilter::only(KINETO_DRIVER_KEPT),
        }
    }

    /// Whether this filter records every call (nothing to ask of CUPTI).
    pub fn is_all(&self) -> bool {
        self.runtime.is_all() && self.driver.is_all()
    }

    /// Whether `cupti` can apply a filter: it exports `cuptiActivityEnableRuntimeApi` and
    /// `cuptiActivityEnableDriverApi` (CUPTI 12.5 and later). Without them a session with a filter other
    /// than [`all`](Self::all) fails to start with [`Error::MissingSymbol`](crate::Error::MissingSymbol).
    pub fn supported_by(cupti: &crate::Cupti) -> bool {
        let f = cupti.functions();
        f.has("cuptiActivityEnableRuntimeApi") && f.has("cuptiActivityEnableDriverApi")
    }

    /// Whether a runtime call `cbid` gets a record.
    pub fn records_runtime(&self, cbid: RuntimeCbid) -> bool {
        self.runtime.records(cbid)
    }

    /// Whether a driver call `cbid` gets a record.
    pub fn records_driver(&self, cbid: DriverCbid) -> bool {
        self.driver.records(cbid)
    }

    /// Parses a filter: comma-separated items, each a preset (`timeline`, `all`, `none`), which replaces
    /// what came before, a preset of one domain (`runtime:all`, `runtime:none`, `driver:all`,
    /// `driver:none`), or an API function name that adds it (`cuMemAlloc_v2`, `+cuMemAlloc_v2`) or
    /// leaves it out (`-cudaStreamIsCapturing`). Names are those of the CUDA 12 or 13 headers; runtime and
    /// driver calls are told apart by name. Starts from `timeline` unless the first item is a preset.
    /// Returns the items that name no preset and no API as the error.
    ///
    /// ```
    /// use cupti::activity::ApiFilter;
    /// use cupti::{DriverCbid, RuntimeCbid};
    ///
    /// let f = ApiFilter::parse("timeline,+cuMemAlloc_v2,-cudaStreamIsCapturing").unwrap();
    /// assert!(f.records_driver(DriverCbid::cuMemAlloc_v2));
    /// assert!(!f.records_runtime(RuntimeCbid::cudaStreamIsCapturing_v10000));
    /// assert!(!f.records_runtime(RuntimeCbid::cudaGetDevice_v3020));
    /// assert_eq!(ApiFilter::parse("all").unwrap(), ApiFilter::all());
    /// assert_eq!(ApiFilter::parse("timeline,cuNoSuchCall"), Err(vec!["cuNoSuchCall".to_owned()]));
    /// ```
    pub fn parse(spec: &str) -> Result<ApiFilter, Vec<String>> {
        let mut filter = ApiFilter::timeline();
        let mut unknown = Vec::new();
        for item in spec.split([',', ' ', ';']).map(str::trim).filter(|s| !s.is_empty()) {
            match item.to_ascii_lowercase().as_str() {
                "timeline" | "default" | "kineto" => {
                    filter = ApiFilter::timeline();
                    continue;
                }
                "all" => {
                    filter = ApiFilter::all();
                    continue;
                }
                "none" => {
                    filter = ApiFilter::none();
                    continue;
                }
                "runtime:all" => {
                    filter.runtime = CbidFilter::All;
                    continue;
                }
                "runtime:none" => {
                    filter.runtime = CbidFilter::none();
                    continue;
                }
                "driver:all" => {
                    filter.driver = CbidFilter::All;
                    continue;
                }
                "driver:none" => {
                    filter.driver = CbidFilter::none();
                    continue;
                }
                _ => {}
            }
            let (add, name) = match item.as_bytes()[0] {
                b'-' => (false, &item[1..]),
                b'+' => (true, &item[1..]),
                _ => (true, item),
            };
            match api_by_name(name) {
                Some(Api::Runtime(id)) if add => filter.runtime.add(id),
                Some(Api::Runtime(id)) => filter.runtime.remove(id),
                Some(Api::Driver(id)) if add => filter.driver.add(id),
                Some(Api::Driver(id)) => filter.driver.remove(id),
                None => unknown.push(item.to_owned()),
            }
        }
        if unknown.is_empty() {
            Ok(filter)
        } else {
            Err(unknown)
        }
    }
}

/// An API function of either domain.
enum Api {
    Runtime(RuntimeCbid),
    Driver(DriverCbid),
}

/// The runtime (`cuda*`) or driver (`cu*`) function named `name`.
fn api_by_name(name: &str) -> Option<Api> {
    if name.starts_with("cuda") {
        if let Some(id) = RuntimeCbid::from_name(name) {
            return Some(Api::Runtime(id));
        }
    }
    DriverCbid::from_name(name).map(Api::Driver).or_else(|| RuntimeCbid::from_name(name).map(Api::Runtime))
}

impl std::str::FromStr for ApiFilter {
    type Err = Vec<String>;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ApiFilter::parse(s)
    }
}

impl fmt::Display for ApiFilter {
    /// In the syntax [`ApiFilter::parse`] reads: a preset (`timeline`, `all`, `none`) and the changes to it
    /// (`timeline,+cuMemAlloc_v2`), or, when no preset leads there by changes, each domain's own
    /// (`runtime:all,-cudaGetDevice,driver:none,+cuLaunchKernel`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let presets =
            [("timeline", ApiFilter::timeline()), ("all", ApiFilter::all()), ("none", ApiFilter::none())];
        let best = presets
            .iter()
            .filter_map(|(name, base)| {
                let runtime = changes(&base.runtime, &self.runtime)?;
                let driver = changes(&base.driver, &self.driver)?;
                Some((name, [runtime, driver].concat()))
            })
            .min_by_key(|(_, changes)| changes.len());
        if let Some((name, changes)) = best {
            f.write_str(name)?;
            return changes.iter().try_for_each(|c| write!(f, ",{c}"));
        }
        for (domain, only, changes) in [
            ("runtime", matches!(self.runtime, CbidFilter::Only(_)), domain_changes(&self.runtime)),
            ("driver", matches!(self.driver, CbidFilter::Only(_)), domain_changes(&self.driver)),
        ] {
            if domain == "driver" {
                f.write_str(",")?;
            }
            write!(f, "{domain}:{}", if only { "none" } else { "all" })?;
            changes.iter().try_for_each(|c| write!(f, ",{c}"))?;
        }
        Ok(())
    }
}

/// The `+name` / `-name` items that turn `from` into `to` (by id), or `None` when no list of changes
/// can (from `Only` to everything-but, or back).
fn changes<C: Ord + Copy + fmt::Display>(from: &CbidFilter<C>, to: &CbidFilter<C>) -> Option<Vec<String>> {
    let explicit = |f: &CbidFilter<C>| match f {
        CbidFilter::All => BTreeSet::new(),
        CbidFilter::Except(s) | CbidFilter::Only(s) => s.clone(),
    };
    let only = |f: &CbidFilter<C>| matches!(f, CbidFilter::Only(_));
    if only(from) != only(to) {
        return None;
    }
    let ids: BTreeSet<C> = explicit(from).union(&explicit(to)).copied().collect();
    Some(
        ids.into_iter()
            .filter(|id| from.records(*id) != to.records(*id))
            .map(|id| format!("{}{id}", if to.records(id) { '+' } else { '-' }))
            .collect(),
    )
}

/// The changes that make `filter` from its domain's `all` (or `none`, for `Only`).
fn domain_changes<C: Ord + Copy + fmt::Display>(filter: &CbidFilter<C>) -> Vec<String> {
    let base = if matches!(filter, CbidFilter::Only(_)) {
        CbidFilter::Only(BTreeSet::new())
    } else {
        CbidFilter::All
    };
    changes(&base, filter).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeline_preset_is_kinetos_lists() {
        let t = ApiFilter::timeline();
        for id in KINETO_RUNTIME_LEFT_OUT {
            assert!(!t.records_runtime(id), "{id:?}");
        }
        assert!(t.records_runtime(RuntimeCbid::cudaLaunchKernel_v7000));
        assert!(t.records_runtime(RuntimeCbid::cudaMemcpyAsync_v3020));
        for id in KINETO_DRIVER_KEPT {
            assert!(t.records_driver(id), "{id:?}");
        }
        for id in [
            DriverCbid::cuKernelGetAttribute,
            DriverCbid::cuDevicePrimaryCtxGetState,
            DriverCbid::cuCtxGetCurrent,
        ] {
            assert!(!t.records_driver(id), "{id:?}");
        }
        assert!(!t.records_driver(DriverCbid::cuMemAlloc_v2));
        let names: Vec<_> = KINETO_RUNTIME_LEFT_OUT.iter().map(|id| id.name().unwrap()).collect();
        assert_eq!(
            names,
            [
                "cudaGetDevice",
                "cudaSetDevice",
                "cudaGetLastError",
                "cudaEventCreate",
                "cudaEventCreateWithFlags",
                "cudaEventDestroy"
            ]
        );
    }

    #[test]
    fn edits_move_between_the_three_forms() {
        let mut f = CbidFilter::<RuntimeCbid>::All;
        f.remove(RuntimeCbid::cudaGetDevice_v3020);
        assert_eq!(f, CbidFilter::except([RuntimeCbid::cudaGetDevice_v3020]));
        f.add(RuntimeCbid::cudaGetDevice_v3020);
        assert_eq!(f, CbidFilter::All, "an empty exception list is everything");
        let mut only = CbidFilter::<DriverCbid>::none();
        only.add(DriverCbid::cuLaunchKernel);
        assert!(only.records(DriverCbid::cuLaunchKernel) && !only.records(DriverCbid::cuMemAlloc_v2));
        only.remove(DriverCbid::cuLaunchKernel);
        assert_eq!(only, CbidFilter::none());
    }

    #[test]
    fn specs_parse_and_print_back() {
        assert_eq!(ApiFilter::parse("").unwrap(), ApiFilter::timeline());
        assert_eq!(ApiFilter::parse("none").unwrap(), ApiFilter::none());
        let f = ApiFilter::parse("all,-cudaGetDevice, -cuCtxGetCurrent").unwrap();
        assert!(!f.records_runtime(RuntimeCbid::cudaGetDevice_v3020));
        assert!(!f.records_driver(DriverCbid::cuCtxGetCurrent));
        assert!(f.records_driver(DriverCbid::cuMemAlloc_v2));
        assert_eq!(f.to_string(), "all,-cudaGetDevice,-cuCtxGetCurrent");
        assert_eq!(ApiFilter::timeline().to_string(), "timeline");
        assert_eq!(ApiFilter::all().to_string(), "all");
        let g = ApiFilter::parse("+cuMemAlloc_v2,cudaGetDevice").unwrap();
        assert_eq!(g.to_string(), "timeline,+cudaGetDevice,+cuMemAlloc_v2");
        assert_eq!(g.to_string().parse::<ApiFilter>().unwrap(), g);
        // 12.x names resolve too (CUDA 13 dropped the `_v2` of this runtime function).
        let h = ApiFilter::parse("timeline,-cudaGetDeviceProperties_v2").unwrap();
        assert!(!h.records_runtime(RuntimeCbid::cudaGetDeviceProperties_v12000));
        assert_eq!(ApiFilter::parse("bogus,+cuAlsoBogus"), Err(vec!["bogus".into(), "+cuAlsoBogus".into()]));
        // No preset leads to this one by changes: each domain is written on its own.
        let k = ApiFilter {
            runtime: CbidFilter::only([RuntimeCbid::cudaLaunchKernel_v7000]),
            driver: CbidFilter::All,
        };
        assert_eq!(k.to_string(), "runtime:none,+cudaLaunchKernel,driver:all");
        assert_eq!(k.to_string().parse::<ApiFilter>().unwrap(), k);
        for f in [ApiFilter::timeline(), ApiFilter::all(), ApiFilter::none(), f, g, h] {
            assert_eq!(f.to_string().parse::<ApiFilter>().unwrap(), f, "{f}");
        }
    }
}
