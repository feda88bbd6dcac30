//! How a vendor's records look in a trace: a writer's presentation, not the run's metadata.

use super::Categories;

/// CUPTI's raw API domain of driver calls (`cupti::decode::API_DOMAIN_DRIVER`; the root package's
/// tests hold the two equal).
pub const CUPTI_API_DOMAIN_DRIVER: u32 = 1;

/// CUPTI's raw API domain of its own overhead ranges (`cupti::decode::API_DOMAIN_OVERHEAD`).
pub const CUPTI_API_DOMAIN_OVERHEAD: u32 = 0x100;

/// How a trace presents one vendor's records: the Chrome/Perfetto `cat` of each kind of event (Kineto's
/// names, so that Perfetto and HolisticTraceAnalysis read them) and the label of a device's timeline
/// (`GPU 0`, `NPU 0`).
///
/// A writer takes the style of its [`RunMeta::vendor`](crate::RunMeta::vendor) unless its options give one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// The `cat` of each kind of event.
    pub categories: Categories,
    /// Prefix of the default process name of a device's timeline (`GPU` gives `GPU 0`, `GPU 1`, ...).
    pub device_label: String,
}

impl Style {
    /// The style of `vendor` (`cupti`, `rocprofiler`, `mspti`; anything else gets Kineto's defaults):
    /// CUPTI's driver calls are `cuda_driver` and its overhead ranges `overhead`; HIP and ACL calls keep
    /// `cuda_runtime` (as Kineto writes HIP's), so HTA analyses them; Ascend devices are `NPU`s.
    pub fn of_vendor(vendor: &str) -> Style {
        let mut categories = Categories::default();
        if vendor == "cupti" {
            categories = categories
                .with_api_domain(CUPTI_API_DOMAIN_DRIVER, "cuda_driver")
                .with_api_domain(CUPTI_API_DOMAIN_OVERHEAD, "overhead");
        }
        let device_label = if vendor == "mspti" { "NPU" } else { "GPU" };
        Style { categories, device_label: device_label.to_owned() }
    }
}

impl Default for Style {
    /// Kineto's categories and `GPU`.
    fn default() -> Self {
        Style::of_vendor("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_vendor_has_its_style() {
        let cupti = Style::of_vendor("cupti");
        assert_eq!(cupti.categories.api_category(CUPTI_API_DOMAIN_DRIVER), "cuda_driver");
        assert_eq!(cupti.categories.api_category(CUPTI_API_DOMAIN_OVERHEAD), "overhead");
        assert_eq!(cupti.categories.api_category(0), "cuda_runtime");
        assert_eq!(Style::of_vendor("rocprofiler").categories.api_category(1), "cuda_runtime");
        assert_eq!(Style::of_vendor("mspti").device_label, "NPU");
        assert_eq!(Style::of_vendor("rocprofiler").device_label, "GPU");
        assert_eq!(Style::default(), Style::of_vendor("other"));
    }
}
