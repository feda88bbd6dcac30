//! `accelprof._testing` (feature `mocks`): the mock vendor libraries of accelprof-mocks, and small
//! programs played through their controls, for the package's tests. The paths are those the build
//! wrote on its machine.

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::OnceLock;

use accelprof_mocks::ascend::{Acl, Handle};
use accelprof_mocks::cupti::MockCupti;
use accelprof_mocks::rocprofiler::MockRocprofiler;
use accelprof_mocks::{cupti, mspti, rocprofiler as mock_rocprofiler};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

fn cupti_mock() -> &'static MockCupti {
    static MOCK: OnceLock<MockCupti> = OnceLock::new();
    MOCK.get_or_init(|| MockCupti::open(cupti::LIBRARY).expect("the mock libcupti's controls"))
}

/// The mock `libcupti`'s path.
#[pyfunction]
fn cupti_library() -> &'static str {
    cupti::LIBRARY
}

/// Resets the mock CUPTI and makes it report `version` (`cuptiGetVersion`: 28 is 12.9, 130001 is
/// 13.0).
#[pyfunction]
#[pyo3(signature = (version = None))]
fn cupti_reset(version: Option<u32>) {
    let m = cupti_mock();
    m.reset();
    if let Some(v) = version {
        m.set_version(v);
    }
}

/// `count` runtime launches of kernel `name` on stream `stream` (each a `cudaLaunchKernel` and its
/// kernel), without the GIL.
#[pyfunction]
#[pyo3(signature = (name, count, stream = 1))]
fn cupti_launch(py: Python<'_>, name: &str, count: u32, stream: u64) -> PyResult<()> {
    let name = CString::new(name).map_err(|e| PyValueError::new_err(e.to_string()))?;
    crate::released(py, || {
        for _ in 0..count {
            cupti_mock().launch(&name, [2, 1, 1], [64, 1, 1], 0, stream);
        }
    });
    Ok(())
}

/// `cudaDeviceSynchronize` on the mock (the tracer's fence then proves every record is in).
#[pyfunction]
fn cupti_synchronize() -> bool {
    cupti_mock().device_synchronize();
    true
}

/// The mock `libmspti.so` and the directory of its CANN stand-ins (`ASCEND_HOME_PATH`).
#[pyfunction]
fn mspti_paths() -> (&'static str, &'static str) {
    (mspti::LIBRARY, mspti::ASCEND_HOME)
}

fn acl() -> PyResult<&'static Acl> {
    static ACL: OnceLock<Result<Acl, String>> = OnceLock::new();
    ACL.get_or_init(|| {
        let acl = Acl::load().map_err(|e| e.to_string())?;
        acl.init().map_err(|e| format!("aclInit: {e:?}"))?;
        Ok(acl)
    })
    .as_ref()
    .map_err(|e| PyRuntimeError::new_err(e.clone()))
}

/// Loads the ACL runtime (the CANN stand-ins, through the global symbol scope: start the process
/// with `LD_LIBRARY_PATH` holding them and the mock MSPTI preloaded) and calls `aclInit`: before
/// the tracer, as MSPTI's subscriber needs it.
#[pyfunction]
fn mspti_init() -> PyResult<()> {
    acl().map(|_| ())
}

/// On device 0: `count` launches of `add_custom` on a new stream, then a synchronize.
#[pyfunction]
fn mspti_launch(py: Python<'_>, count: u32) -> PyResult<()> {
    let acl = acl()?;
    let e = |e| PyRuntimeError::new_err(format!("{e:?}"));
    crate::released(py, || {
        acl.set_device(0)?;
        let stream: Handle = acl.create_stream()?;
        let kernel = acl.kernel("kernels.o", "add_custom")?;
        for _ in 0..count {
            acl.launch(kernel, 8, stream)?;
        }
        acl.synchronize_stream(stream)?;
        acl.destroy_stream(stream)
    })
    .map_err(e)
}

/// The mock `librocprofiler-sdk.so`.
#[pyfunction]
fn rocprofiler_library() -> &'static str {
    mock_rocprofiler::LIBRARY
}

/// `count` `hipLaunchKernel` calls of kernel `name` on GPU `gpu`, each dispatching it.
#[pyfunction]
#[pyo3(signature = (name, count, gpu = 0))]
fn rocprofiler_launch(py: Python<'_>, name: &str, count: u32, gpu: u32) -> PyResult<()> {
    let sdk = rocprofiler::Rocprofiler::open_path(mock_rocprofiler::LIBRARY)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let hip: HashMap<String, i32> = sdk
        .callback_operations(rocprofiler::CallbackDomain::HIP_RUNTIME_API)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?
        .into_iter()
        .map(|(op, name)| (name, op.0))
        .collect();
    let launch = *hip.get("hipLaunchKernel").ok_or_else(|| PyRuntimeError::new_err("no hipLaunchKernel"))?;
    let name = CString::new(name).map_err(|e| PyValueError::new_err(e.to_string()))?;
    crate::released(py, || {
        let mock = MockRocprofiler::open(mock_rocprofiler::LIBRARY).expect("the mock SDK's controls");
        let kernel = mock.kernel_symbol(&name);
        let agent = mock.gpu_agent(gpu);
        for _ in 0..count {
            mock.api_begin(rocprofiler::CallbackDomain::HIP_RUNTIME_API.0, launch);
            mock.dispatch(agent, 1, kernel, 1024, 1, 1, 64, 1, 1);
            mock.api_end();
        }
    });
    Ok(())
}

/// `hipDeviceSynchronize` on the mock: every completion queued so far reached the tools (the
/// SDK's flush hands over what completed; it does not wait for the device).
#[pyfunction]
fn rocprofiler_synchronize(py: Python<'_>) {
    crate::released(py, || {
        MockRocprofiler::open(mock_rocprofiler::LIBRARY).expect("the mock SDK's controls").sync()
    });
}

pub(crate) fn add(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "_testing")?;
    m.add_function(wrap_pyfunction!(cupti_library, &m)?)?;
    m.add_function(wrap_pyfunction!(cupti_reset, &m)?)?;
    m.add_function(wrap_pyfunction!(cupti_launch, &m)?)?;
    m.add_function(wrap_pyfunction!(cupti_synchronize, &m)?)?;
    m.add_function(wrap_pyfunction!(mspti_paths, &m)?)?;
    m.add_function(wrap_pyfunction!(mspti_init, &m)?)?;
    m.add_function(wrap_pyfunction!(mspti_launch, &m)?)?;
    m.add_function(wrap_pyfunction!(rocprofiler_library, &m)?)?;
    m.add_function(wrap_pyfunction!(rocprofiler_launch, &m)?)?;
    m.add_function(wrap_pyfunction!(rocprofiler_synchronize, &m)?)?;
    parent.add_submodule(&m)?;
    Ok(())
}
