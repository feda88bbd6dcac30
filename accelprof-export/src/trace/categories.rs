use std::borrow::Cow;

/// The `cat` written for each kind of event. The defaults are Kineto's; vendor crates change what differs.
///
/// API calls get `api` unless their raw domain (the `domain` column of `ApiColumns`) is listed in
/// `api_by_domain`. CUPTI: runtime `cuda_runtime`, driver `cuda_driver`. HIP keeps `cuda_runtime` (as Kineto
/// does on AMD), and MSPTI/ACL can use it too so HTA analyses them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Categories {
    /// API calls whose domain is not in `api_by_domain` (default `cuda_runtime`).
    pub api: Cow<'static, str>,
    /// Per raw API domain overrides, e.g. `(driver_domain, "cuda_driver")`.
    pub api_by_domain: Vec<(u32, Cow<'static, str>)>,
    /// Kernels (default `kernel`).
    pub kernel: Cow<'static, str>,
    /// Memory copies (default `gpu_memcpy`).
    pub memcpy: Cow<'static, str>,
    /// Memory sets (default `gpu_memset`).
    pub memset: Cow<'static, str>,
    /// Host markers and ranges (default `user_annotation`).
    pub marker: Cow<'static, str>,
    /// Device ranges (default `gpu_user_annotation`).
    pub gpu_marker: Cow<'static, str>,
    /// Collectives (default `collective`; not `kernel`, so HTA does not count an NCCL kernel twice).
    pub collective: Cow<'static, str>,
    /// Synchronizations (default `cuda_sync`).
    pub sync: Cow<'static, str>,
    /// Allocations and frees (default `gpu_memory`).
    pub memory: Cow<'static, str>,
    /// Counter values (default `gpu_counter`).
    pub counter: Cow<'static, str>,
}

impl Categories {
    /// Adds (or replaces) the category of API calls of one raw domain.
    pub fn with_api_domain(mut self, domain: u32, category: impl Into<Cow<'static, str>>) -> Self {
        self.api_by_domain.retain(|(d, _)| *d != domain);
        self.api_by_domain.push((domain, category.into()));
        self
    }

    /// The category of an API call of raw `domain`.
    pub fn api_category(&self, domain: u32) -> &str {
        self.api_by_domain.iter().find(|(d, _)| *d == domain).map_or(&*self.api, |(_, c)| c)
    }
}

impl Default for Categories {
    fn default() -> Self {
        Categories {
            api: "cuda_runtime".into(),
            api_by_domain: Vec::new(),
            kernel: "kernel".into(),
            memcpy: "gpu_memcpy".into(),
            memset: "gpu_memset".into(),
            marker: "user_annotation".into(),
            gpu_marker: "gpu_user_annotation".into(),
            collective: "collective".into(),
            sync: "cuda_sync".into(),
            memory: "gpu_memory".into(),
            counter: "gpu_counter".into(),
        }
    }
}
