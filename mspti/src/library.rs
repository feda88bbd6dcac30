//! [`Mspti`]: the opened library, the owner every other handle borrows.

use std::ffi::CString;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::OnceLock;

use mspti_sys::{self as sys, msptiResult, MissingSymbol};

use crate::callback::{CallbackData, Subscriber};
use crate::error::{check, Error, Result};
use crate::ids::ExternalKind;

/// An opened `libmspti.so`.
///
/// Opening runs the loader of `mspti-sys`: an explicit path, else a copy already loaded in the
/// process (`LD_PRELOAD`), `$MSPTI_LIBRARY_PATH`, the CANN toolkit directories
/// (`$ASCEND_HOME_PATH`, `$ASCEND_TOOLKIT_HOME`, `/usr/local/Ascend/ascend-toolkit/latest`, each
/// with `lib64` and `tools/mspti/lib64`), then `libmspti.so` on the loader path. A library whose
/// CANN dependencies are missing is refused (opening it would abort the process): the error
/// says what to install or set.
///
/// [`Subscriber`] and [`ActivitySession`](crate::ActivitySession) borrow it, so they cannot outlive it:
///
/// ```compile_fail
/// let mspti = mspti::Mspti::open().unwrap();
/// let subscriber = mspti.subscribe(|_| {}).unwrap();
/// drop(mspti); // error: `mspti` is still borrowed by `subscriber`
/// drop(subscriber);
/// ```
///
/// Dropped in the right order, it compiles:
///
/// ```no_run
/// let mspti = mspti::Mspti::open()?;
/// let subscriber = mspti.subscribe(|_| {})?;
/// drop(subscriber);
/// drop(mspti);
/// # Ok::<(), mspti::Error>(())
/// ```
#[derive(Debug)]
pub struct Mspti {
    lib: sys::Library,
    /// Set once interposition was seen live (it cannot stop being live).
    live: AtomicBool,
}

static GLOBAL: OnceLock<Mspti> = OnceLock::new();

/// `msptiGetVersion` (newer MSPTI releases; not in the headers the bindings were generated from).
type GetVersion = unsafe extern "C" fn(*mut u32) -> msptiResult;

impl Mspti {
    /// Opens `libmspti.so` through the search order (see the type's documentation).
    pub fn open() -> Result<Mspti> {
        Ok(Mspti { lib: sys::Library::open(None)?, live: AtomicBool::new(false) })
    }

    /// Opens exactly this file (and nothing else).
    pub fn open_path(path: impl AsRef<Path>) -> Result<Mspti> {
        Ok(Mspti { lib: sys::Library::open(Some(path.as_ref()))?, live: AtomicBool::new(false) })
    }

    /// The process-wide `Mspti`, opened with [`Mspti::open`] on first use. A failed first use is not
    /// remembered: a later call tries again.
    pub fn global() -> Result<&'static Mspti> {
        if let Some(mspti) = GLOBAL.get() {
            return Ok(mspti);
        }
        let mspti = Mspti::open()?;
        Ok(GLOBAL.get_or_init(|| mspti))
    }

    /// What was passed to `dlopen`: a path, or a plain soname found by the system loader.
    pub fn path(&self) -> &Path {
        self.lib.path()
    }

    /// The library's version (`msptiGetVersion`: the CANN module version of `mspti`, which MSPTI
    /// encodes `major * 10000 + minor * 100 + patch`). Older libraries do not export the function:
    /// [`Error::MissingSymbol`].
    #[doc(alias = "msptiGetVersion")]
    pub fn version(&self) -> Result<accelprof_core::Version> {
        let Some(f) = self.lib.raw_symbol(c"msptiGetVersion") else {
            return Err(MissingSymbol::new("MSPTI", "msptiGetVersion").into());
        };
        // SAFETY: the library's `msptiGetVersion(uint32_t *version)`, whose C signature `GetVersion` is;
        // the library is never unloaded.
        let get: GetVersion = unsafe { std::mem::transmute(f.as_ptr()) };
        let mut version = 0;
        // SAFETY: `version` is a valid out-pointer for the call.
        check(Ok(unsafe { get(&mut version) }), "msptiGetVersion")?;
        Ok(accelprof_core::Version::from_encoded(version))
    }

    /// Whether the program's calls to the runtime reach this library's interposed functions:
    /// `dlsym(RTLD_DEFAULT, "aclrtMalloc")` (what a normal call or a global-scope lookup gets) is
    /// this copy's own `aclrtMalloc`. It is not when `LD_PRELOAD` was set inside the process (the
    /// variable satisfies MSPTI's check but nothing was preloaded), nor when this copy was opened
    /// by path while another copy is preloaded; MSPTI then accepts every enable and delivers
    /// nothing, so the enables that depend on interposition ([`Subscriber::enable_domain`],
    /// [`Subscriber::enable`], and [`ActivitySession::enable`](crate::ActivitySession::enable) of HCCL, MEMORY, MEMSET and MEMCPY)
    /// return [`Error::InterpositionNotLive`] instead.
    ///
    /// When `LD_PRELOAD` does not name `libmspti.so` at all this returns `Ok` and leaves the answer
    /// to MSPTI ([`Error::WithoutLdPreload`]); a library without an `aclrtMalloc` of its own cannot
    /// be checked and is taken as live.
    pub fn interposition_live(&self) -> Result<()> {
        if self.live.load(Relaxed) || !crate::preload::ld_preload_names_mspti() {
            return Ok(());
        }
        let Some(ours) = self.lib.raw_symbol(c"aclrtMalloc") else { return Ok(()) };
        let global = crate::preload::global_symbol(c"aclrtMalloc");
        if global == Some(ours) {
            self.live.store(true, Relaxed);
            return Ok(());
        }
        let mine = self.lib.loaded().path().display().to_string();
        Err(Error::InterpositionNotLive(match global {
            None => format!(
                "no `aclrtMalloc` is in the program's global symbol scope, so libmspti.so ({mine}) was not \
                 preloaded (LD_PRELOAD names it, but was set after the program started)"
            ),
            Some(p) => match crate::preload::object_of(p) {
                Some(other) if other.contains("libmspti") => format!(
                    "the program's calls reach the `aclrtMalloc` of another libmspti.so ({other}, preloaded), \
                     not of this copy ({mine}): open the preloaded copy instead"
                ),
                other => format!(
                    "the program's calls reach the `aclrtMalloc` of {}, not of libmspti.so ({mine}): it was not \
                     preloaded",
                    other.as_deref().unwrap_or("another library")
                ),
            },
        }))
    }

    /// The raw library of `mspti-sys`, for what this crate does not wrap: it dereferences to the
    /// function table (each function resolved on first call; one this library lacks returns
    /// [`MissingSymbol`]) and tells where it was found.
    pub fn sys(&self) -> &sys::Library {
        &self.lib
    }

    /// Subscribes `callback` to MSPTI's API callbacks (`msptiSubscribe`). Nothing is delivered
    /// until ids are enabled on the returned [`Subscriber`].
    ///
    /// MSPTI allows one subscriber per process: every [`Subscriber`] of this crate shares it (the
    /// first one subscribes, the last one dropped unsubscribes); while another tool holds it, this
    /// returns [`Error::MultipleSubscribers`]. The closure runs on the application's
    /// threads, inside their API calls, concurrently on several threads; user data is whatever it
    /// captures. A panic in it is caught and counted ([`Subscriber::panics`]).
    ///
    /// A subscriber is also what makes MSPTI produce API-family, MARKER and KERNEL activity
    /// records (see [`ActivityKind::NEED_SUBSCRIBER`](crate::ActivityKind::NEED_SUBSCRIBER)): an
    /// activity-only tool subscribes a closure that does nothing, and keeps it.
    #[doc(alias = "msptiSubscribe")]
    pub fn subscribe<F>(&self, callback: F) -> Result<Subscriber<'_>>
    where
        F: Fn(&CallbackData<'_>) + Send + Sync + 'static,
    {
        Subscriber::new(self, callback)
    }

    /// Pushes an id onto MSPTI's stack for `kind` (`msptiActivityPushExternalCorrelationId`).
    /// While it is on top, each API call gets an EXTERNAL_CORRELATION record linking it to this id.
    /// The stack is one per kind for the whole process, not per thread.
    #[doc(alias = "msptiActivityPushExternalCorrelationId")]
    pub fn push_external_correlation(&self, kind: ExternalKind, id: u64) -> Result<()> {
        // SAFETY: plain values.
        check(
            unsafe { self.lib.msptiActivityPushExternalCorrelationId(kind.into(), id) },
            "msptiActivityPushExternalCorrelationId",
        )
    }

    /// Pops the top id of `kind`'s stack (`msptiActivityPopExternalCorrelationId`); `Ok(None)`
    /// when it is empty.
    #[doc(alias = "msptiActivityPopExternalCorrelationId")]
    pub fn pop_external_correlation(&self, kind: ExternalKind) -> Result<Option<u64>> {
        let mut id = 0u64;
        // SAFETY: `id` is a valid out-pointer for the call.
        let popped = unsafe { self.lib.msptiActivityPopExternalCorrelationId(kind.into(), &mut id) };
        match check(popped, "msptiActivityPopExternalCorrelationId") {
            Ok(()) => Ok(Some(id)),
            Err(Error::QueueEmpty) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The old name of [`push_external_correlation`](Self::push_external_correlation).
    #[deprecated(note = "renamed `push_external_correlation`, the name in every vendor crate")]
    pub fn push_external_correlation_id(&self, kind: ExternalKind, id: u64) -> Result<()> {
        self.push_external_correlation(kind, id)
    }

    /// The old name of [`pop_external_correlation`](Self::pop_external_correlation).
    #[deprecated(note = "renamed `pop_external_correlation`, the name in every vendor crate")]
    pub fn pop_external_correlation_id(&self, kind: ExternalKind) -> Result<Option<u64>> {
        self.pop_external_correlation(kind)
    }

    /// Collects MARKER records of the MSTX domain `name` again (every domain is collected
    /// unless disabled). `mstxMarkA` and the other calls without a domain mark in `"default"`.
    /// MSPTI refuses a name of 255 bytes or more ([`Error::InvalidParameter`]).
    #[doc(alias = "msptiActivityEnableMarkerDomain")]
    pub fn enable_marker_domain(&self, name: &str) -> Result<()> {
        let name = CString::new(name).map_err(|_| Error::NulInName)?;
        // SAFETY: a NUL-terminated string that lives across the call.
        check(
            unsafe { self.lib.msptiActivityEnableMarkerDomain(name.as_ptr()) },
            "msptiActivityEnableMarkerDomain",
        )
    }

    /// Stops collecting MARKER records of the MSTX domain `name` (`"default"` for `mstxMarkA`).
    /// MSPTI refuses a name of 255 bytes or more ([`Error::InvalidParameter`]).
    #[doc(alias = "msptiActivityDisableMarkerDomain")]
    pub fn disable_marker_domain(&self, name: &str) -> Result<()> {
        let name = CString::new(name).map_err(|_| Error::NulInName)?;
        // SAFETY: a NUL-terminated string that lives across the call.
        check(
            unsafe { self.lib.msptiActivityDisableMarkerDomain(name.as_ptr()) },
            "msptiActivityDisableMarkerDomain",
        )
    }
}
