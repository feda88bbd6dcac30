//! `deviceProperties` from the CUDA driver the process loaded, against the mock driver
//! (`accelprof-mocks`'s `libcuda.so.1`, found by its soname as the real one is).

use accelprof_export::trace::{cuda_devices, cuda_driver_version, CudaDeviceWatch, CudaDevicesError};
use accelprof_mocks::cuda::{MockCuda, LIBRARY};
use serde_json::json;

#[test]
fn devices_come_from_the_loaded_driver_once_it_is_initialized() {
    // No driver in the process: a typed error, and nothing is loaded by asking.
    assert!(matches!(cuda_devices(), Err(CudaDevicesError::NotLoaded(_))), "{:?}", cuda_devices());
    assert_eq!(cuda_driver_version(), None);
    let mut watch = CudaDeviceWatch::new();
    assert_eq!(watch.poll(), None);
    assert!(matches!(watch.last_error(), Some(CudaDevicesError::NotLoaded(_))));
    assert!(!watch.is_done(), "the program may load its driver later");

    // The program loads the driver; until cuInit the driver answers only its version.
    let driver = MockCuda::open(LIBRARY).expect("the mock CUDA driver");
    driver.reset();
    assert_eq!(cuda_driver_version().as_deref(), Some("13.0"));
    assert_eq!(cuda_devices(), Err(CudaDevicesError::NotInitialized), "not initialized yet: ask again later");
    assert_eq!(watch.poll(), None);
    assert_eq!(watch.last_error(), Some(&CudaDevicesError::NotInitialized));
    assert!(!driver.is_initialized(), "asking does not initialize the driver");

    driver.init().expect("cuInit of the mock driver");
    let devices = watch.poll().expect("an initialized driver answers");
    assert_eq!(watch.poll(), None, "the devices are given once");
    assert!(watch.is_done() && watch.last_error().is_none());
    assert_eq!(devices.len(), 1);
    let d = &devices[0];
    assert_eq!((d.id, d.name.as_str()), (0, "Mock NVIDIA H200"));
    assert_eq!((d.compute_major, d.compute_minor, d.num_sms), (Some(9), Some(0), Some(132)));
    assert_eq!(d.total_global_mem, Some(143_771 << 20));
    assert_eq!((d.max_threads_per_block, d.max_threads_per_multiprocessor), (Some(1024), Some(2048)));
    assert_eq!(
        (d.regs_per_block, d.regs_per_multiprocessor, d.warp_size),
        (Some(65_536), Some(65_536), Some(32))
    );
    assert_eq!(
        (d.shared_mem_per_block, d.shared_mem_per_multiprocessor, d.shared_mem_per_block_optin),
        (Some(49_152), Some(233_472), Some(232_448))
    );
    assert_eq!(
        d.extra,
        [
            ("uuid".to_owned(), json!("GPU-4d4f434b-6375-6461-2d75-7569642d0000")),
            ("pciBusId".to_owned(), json!(0x19)),
            ("pciDeviceId".to_owned(), json!(0)),
            ("pciDomainId".to_owned(), json!(0))
        ]
    );

    // Only the devices the driver counts.
    driver.set_device_count(4);
    let devices = cuda_devices().unwrap();
    let ids: Vec<u32> = devices.iter().map(|d| d.id).collect();
    assert_eq!(ids, [0, 1, 2, 3]);
    assert_eq!(devices[3].extra[0].1, json!("GPU-4d4f434b-6375-6461-2d75-7569642d0003"));
    driver.set_device_count(0);
    assert_eq!(cuda_devices(), Ok(Vec::new()), "a machine without GPUs");
    driver.reset();
}
