//! [`Cupti`]: the loaded `libcupti`, owner of everything else.

use std::ffi::{c_char, CStr};
use std::path::Path;
use std::sync::OnceLock;

use cupti_sys::{CUptiResult, CuptiFunctions, Library, MissingSymbol};

use crate::callback::Hub;
use crate::error::{Result, ResultCode};

/// The loaded CUPTI library.
///
/// Everything this crate hands out borrows it (a [`crate::Subscriber`] is
/// `Subscriber<'lib>`), so nothing can outlive it; [`Cupti::global`] gives a `&'static Cupti`
/// for handles that must live anywhere (an injection tracer, a static).
///
/// The library is never unloaded (CUPTI runs threads and callbacks that could outlive a
/// `dlclose`); dropping a `Cupti` only drops this handle.
#[derive(Debug)]
pub struct Cupti {
    library: Library,
    version: u32,
    hub: OnceLock<&'static Hub>,
}

static GLOBAL: OnceLock<Cupti> = OnceLock::new();

impl Cupti {
    /// Opens `libcupti` from the usual places: `$CUPTI_LIBRARY_PATH`, then `$CUDA_HOME` and
    /// `$CUDA_PATH` (`extras/CUPTI/lib64`, `lib64`, `targets/<arch>-linux/lib`), then
    /// `/usr/local/cuda`, then the CUPTI Python wheels, then the system loader. The error lists
    /// every place tried (see [`cupti_sys::search_places`]). Reads the version at once, so a file
    /// that is not CUPTI fails here.
    #[doc(alias = "cuptiGetVersion")]
    pub fn open() -> Result<Cupti> {
        Cupti::open_from(None)
    }

    /// Opens exactly this file (that file or an error), reading its version at once.
    pub fn open_path(path: impl AsRef<Path>) -> Result<Cupti> {
        Cupti::open_from(Some(path.as_ref()))
    }

    fn open_from(explicit: Option<&Path>) -> Result<Cupti> {
        let library = Library::open(explicit)?;
        let mut version = 0;
        // SAFETY: `version` is a valid out-pointer for the duration of the call.
        let r = unsafe { library.functions().cuptiGetVersion(&mut version) };
        check(library.functions(), "cuptiGetVersion", r)?;
        Ok(Cupti { library, version, hub: OnceLock::new() })
    }

    /// The process-wide `Cupti`, opened with [`Cupti::open`] on first use. A failed first use
    /// is not remembered: a later call tries again.
    pub fn global() -> Result<&'static Cupti> {
        Cupti::init_global(None)
    }

    /// Makes `path` (or the search order of [`Cupti::open`], for `None`) the process-wide `Cupti`
    /// returned by [`Cupti::global`]. When one is already set, returns that one and opens nothing.
    pub fn init_global(path: Option<&Path>) -> Result<&'static Cupti> {
        if let Some(cupti) = GLOBAL.get() {
            return Ok(cupti);
        }
        let cupti = Cupti::open_from(path)?;
        Ok(GLOBAL.get_or_init(|| cupti))
    }

    /// The library's version (`cuptiGetVersion`, read at open), the shape of every vendor crate's
    /// `version()`: 13.x reports `major * 10000 + minor * 100 + patch` (130001 is 13.0.1). CUPTI
    /// 12.x and older count their API revisions instead (12.9 reports 28), with no release number:
    /// that count comes as `0.<count>.0` (`0.28.0`). Always `Ok` (the version was read at open).
    #[doc(alias = "cuptiGetVersion")]
    pub fn version(&self) -> Result<accelprof_core::Version> {
        Ok(if cupti_sys::is_api_version_12(self.version) {
            accelprof_core::Version::new(0, self.version, 0)
        } else {
            accelprof_core::Version::from_encoded(self.version)
        })
    }

    /// What `cuptiGetVersion` returned, as CUPTI encodes it: 12.x counts 1, 2, ... (12.9 is 28),
    /// 13.x reports `major * 10000 + minor * 100 + patch` (13.0 is 130001). What record layouts
    /// and callback names are chosen by.
    #[doc(alias = "cuptiGetVersion")]
    pub fn api_version(&self) -> u32 {
        self.version
    }

    /// Whether the library is CUPTI 12.x or older: record layouts and some callback names
    /// differ (see [`cupti_sys::v12`]).
    pub fn is_12x(&self) -> bool {
        cupti_sys::is_api_version_12(self.version)
    }

    /// The raw library of `cupti-sys`, for what this crate does not wrap: it dereferences to the
    /// function table (`cupti.sys().cuptiGetVersion(..)`; each function is resolved on first call, one
    /// this library lacks returns [`MissingSymbol`]) and tells where it was found
    /// ([`Library::origin`]).
    pub fn sys(&self) -> &Library {
        &self.library
    }

    /// The function table (what [`sys`](Self::sys) dereferences to), for this crate's own calls.
    pub(crate) fn functions(&self) -> &CuptiFunctions {
        self.library.functions()
    }

    /// What was passed to `dlopen`: a path, or a plain soname found by the system loader.
    pub fn path(&self) -> &Path {
        self.library.path()
    }

    /// The library's name for a result code (`"CUPTI_ERROR_INVALID_PARAMETER"`), or `None`
    /// when it has none or lacks `cuptiGetResultString`.
    #[doc(alias = "cuptiGetResultString")]
    pub fn result_string(&self, code: ResultCode) -> Option<String> {
        result_string(self.functions(), code)
    }

    /// `Ok(())` for `CUPTI_SUCCESS`, else the typed error of `function`.
    pub(crate) fn check(
        &self,
        function: &'static str,
        result: std::result::Result<CUptiResult, MissingSymbol>,
    ) -> Result<()> {
        check(self.functions(), function, result)
    }

    /// The callback switchboard of this library (shared by every `Cupti` that opened it).
    pub(crate) fn hub(&self) -> Result<&'static Hub> {
        if let Some(hub) = self.hub.get() {
            return Ok(hub);
        }
        let hub = crate::callback::hub_for(self)?;
        Ok(self.hub.get_or_init(|| hub))
    }
}

/// What `cuptiGetResultString` says about `code`.
pub(crate) fn result_string(functions: &CuptiFunctions, code: ResultCode) -> Option<String> {
    let mut text: *const c_char = std::ptr::null();
    // SAFETY: `text` is a valid out-pointer; CUPTI stores a pointer to a static string.
    let r = unsafe { functions.cuptiGetResultString(code.into(), &mut text) };
    if r != Ok(CUptiResult::CUPTI_SUCCESS) || text.is_null() {
        return None;
    }
    // SAFETY: on success `text` points at a NUL-terminated static string owned by CUPTI.
    Some(unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned())
}

/// [`crate::error::check`], with the library's own name for a code the headers do not name.
pub(crate) fn check(
    functions: &CuptiFunctions,
    function: &'static str,
    result: std::result::Result<CUptiResult, MissingSymbol>,
) -> Result<()> {
    let code = result.as_ref().map(|r| ResultCode::from(*r)).ok();
    crate::error::check(result, function)
        .map_err(|e| e.named(|| code.and_then(|code| result_string(functions, code))))
}
