//! A rocprofiler tool whose setup each test supplies, run against the mock.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rocprofiler::{Configurator, Rocprofiler, Tool};

pub type Setup = Box<dyn for<'a, 'b> FnOnce(&'a mut Configurator<'b>) -> rocprofiler::Result<()> + Send>;
type Hook = Box<dyn FnOnce() + Send>;

static SETUP: Mutex<Option<Setup>> = Mutex::new(None);
static FINALIZE: Mutex<Option<Hook>> = Mutex::new(None);
/// How many times a TestTool was finalized.
pub static FINALIZED: AtomicUsize = AtomicUsize::new(0);

/// A tool running the setup given to [`configure`].
pub struct TestTool;

impl Tool for TestTool {
    const NAME: &'static str = "test-tool";

    fn setup(cfg: &mut Configurator<'_>) -> rocprofiler::Result<Self> {
        let setup = SETUP.lock().unwrap().take().expect("a setup was given");
        setup(cfg)?;
        Ok(TestTool)
    }

    fn finalize(&mut self) {
        FINALIZED.fetch_add(1, Ordering::SeqCst);
        if let Some(hook) = FINALIZE.lock().unwrap().take() {
            hook();
        }
    }
}

/// The mock SDK through the safe crate (the same copy the controls use).
pub fn lib() -> &'static Rocprofiler {
    let _ = super::mock();
    Rocprofiler::open_path(std::path::Path::new(super::mock_path())).expect("the mock")
}

/// Runs the configure window now with `setup` as the tool's setup (force_configure path).
pub fn configure<F>(setup: F) -> rocprofiler::Result<()>
where
    F: for<'a, 'b> FnOnce(&'a mut Configurator<'b>) -> rocprofiler::Result<()> + Send + 'static,
{
    *SETUP.lock().unwrap() = Some(Box::new(setup));
    rocprofiler::force_configure::<TestTool>(lib())
}

/// The setup the next TestTool will run (for tests that register the tool themselves).
pub fn setup_slot() -> std::sync::MutexGuard<'static, Option<Setup>> {
    SETUP.lock().unwrap()
}

/// Runs `hook` inside the tool's finalize (after its buffers were flushed).
pub fn on_finalize(hook: impl FnOnce() + Send + 'static) {
    *FINALIZE.lock().unwrap() = Some(Box::new(hook));
}

/// Plays process exit: the SDK finalizes the tool.
pub fn shutdown() {
    super::mock().1.shutdown();
}
