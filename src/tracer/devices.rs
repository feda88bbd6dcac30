//! The devices of a trace, when the vendor describes them only once the program started using them:
//! a CUDA driver answers its device queries after the program's `cuInit`, usually after the tracer
//! began. The consumer asks with each batch until the driver answers ([`CudaDeviceWatch`]: device
//! queries of the driver the process loaded, never `cuInit`, nothing loaded), then hands the devices
//! to every sink (`deviceProperties` of the Chrome trace, the Parquet footer).

use accelprof_export::trace::{CudaDeviceWatch, DeviceProperties};

use super::Vendor;

/// What a consumer asks, per vendor.
#[derive(Debug)]
pub(crate) struct LateDevices(Option<CudaDeviceWatch>);

impl LateDevices {
    /// For `vendor` (only CUPTI's devices come late: rocprofiler-sdk lists its agents at once, MSPTI none),
    /// unless the trace has its devices already.
    pub(crate) fn new(vendor: Vendor, known: &[DeviceProperties]) -> LateDevices {
        LateDevices((vendor == Vendor::Cupti && known.is_empty()).then(CudaDeviceWatch::new))
    }

    /// The devices, the first time they are known.
    pub(crate) fn poll(&mut self) -> Option<Vec<DeviceProperties>> {
        self.0.as_mut()?.poll()
    }
}
