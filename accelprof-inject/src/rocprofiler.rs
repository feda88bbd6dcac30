//! The rocprofiler-sdk door: `rocprofiler_configure`.
//!
//! With `ROCP_TOOL_LIBRARIES=libaccelprof_inject.so` the SDK (loaded by the ROCm runtime at its
//! first use) opens this library and calls its exported `rocprofiler_configure`, then the tool's
//! initialize, which opens the configure window: there the engine's context and buffer are
//! created ([`accel_profiling::tracer::setup_in_configure_window`]), the tracer is made on them and
//! its context started, so the first HIP call is traced. At the SDK's finalize (process exit; the
//! SDK has stopped the contexts and this crate flushed the buffer) the tracer is finished.

use accel_profiling::tracer::setup_in_configure_window;
use accel_profiling::{Tracer, TracerError, Vendor};
use rocprofiler::{Configurator, Tool};

/// The engine as a rocprofiler tool.
#[derive(Debug)]
pub struct Door;

impl Tool for Door {
    const NAME: &'static str = "accelprof";

    fn setup(cfg: &mut Configurator<'_>) -> rocprofiler::Result<Self> {
        // A failure is said by `start`; the SDK would ignore one returned (and the program runs on).
        crate::start(Vendor::Rocprofiler, "rocprofiler-sdk", |config| {
            if let Err(e) = setup_in_configure_window(cfg, config.families) {
                let e = TracerError::Config(format!(
                    "{}: setting up in the configure window: {e}",
                    Vendor::Rocprofiler
                ));
                // Told the launcher, as `Tracer::new` tells it of its own failures.
                crate::tell_start_failed(&config, &e);
                return Err(e);
            }
            Tracer::new(config)
        });
        Ok(Door)
    }

    fn finalize(&mut self) {
        crate::guarded("rocprofiler-sdk", crate::finish);
    }
}

rocprofiler::export_tool!(Door);
