//! Mock vendor profiling libraries, and safe controls that play the runtime, for testing a tool
//! built on `cupti`, `mspti` or `rocprofiler` on a machine without a GPU or an NPU.
//!
//! Add it as a dev-dependency (`cargo add --dev accelprof-mocks`). Its build script compiles one
//! mock per vendor (a std-only `cdylib`): `libcupti.so` (and the CUDA driver's device queries in a
//! `libcuda.so.1`), `libmspti.so` with stand-ins of the CANN
//! libraries it loads, and `librocprofiler-sdk.so` twice (with and without `set_agents`). Each
//! exports the real library's C symbols with the behaviour the repository's vendor notes record
//! of the real library, including where it breaks its own documentation (a mock may be stricter
//! than the real library, never kinder), plus `mock_*` controls. Your code opens the mock with
//! `dlopen` exactly as it opens the real library in the field; your test plays the program
//! (API calls, kernels, copies, devices, another tool holding the subscription, an older library
//! version) through the controls and checks what your code made of it.
//!
//! | vendor | library | controls |
//! | --- | --- | --- |
//! | CUPTI | [`cupti::LIBRARY`] | [`cupti::MockCupti`] |
//! | the CUDA driver's device queries | [`cuda::LIBRARY`] (`libcuda.so.1`) | [`cuda::MockCuda`] |
//! | MSPTI | [`mspti::LIBRARY`], CANN stand-ins in [`mspti::ASCEND_HOME`] | [`mspti::MockMspti`]; runtime calls through [`ascend::Acl`] |
//! | rocprofiler-sdk | [`rocprofiler::LIBRARY`], [`rocprofiler::LIBRARY_MAINLINE`] | [`rocprofiler::MockRocprofiler`] |
//!
//! The paths are constants, absolute paths of the files this crate's build wrote: pass one to the
//! crate's loader (`cupti::Cupti::open_path(accelprof_mocks::cupti::LIBRARY)`), to a
//! `-sys` crate's `Library::open`, or to a child process (`CUPTI_LIBRARY_PATH`, `LD_PRELOAD`).
//!
//! # Example: your code against the mock `libcupti`
//!
//! ```
//! use std::path::Path;
//!
//! use accelprof_mocks::cupti::{MockCupti, LIBRARY};
//! use accelprof_mocks::cupti_sys;
//!
//! /// The code under test: which record layouts the tool will read.
//! fn layouts(lib: &cupti_sys::Library) -> &'static str {
//!     let mut version = 0;
//!     // SAFETY: `version` is a valid out-pointer.
//!     match unsafe { lib.functions().cuptiGetVersion(&mut version) } {
//!         Ok(cupti_sys::CUptiResult::CUPTI_SUCCESS) if cupti_sys::is_api_version_12(version) => "12.x",
//!         Ok(cupti_sys::CUptiResult::CUPTI_SUCCESS) => "13.x",
//!         _ => "none",
//!     }
//! }
//!
//! // The mock, opened as the tool opens the real libcupti; its controls, on the same file.
//! let lib = cupti_sys::Library::open(Some(Path::new(LIBRARY)))?;
//! let mock = MockCupti::open(LIBRARY)?;
//! mock.reset();
//! mock.set_version(28); // play CUPTI 12.9
//! assert_eq!(layouts(&lib), "12.x");
//! mock.set_version(130001); // and 13.0
//! assert_eq!(layouts(&lib), "13.x");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The README shows a test of a tool's own callback and activity code on each vendor crate
//! (`cupti`, `mspti` through the preloaded child, `rocprofiler` through `configure_with`); this
//! crate's `tests/readme.rs` runs them as shown. The `cupti`, `mspti` and `rocprofiler` crates test themselves this way: their `tests/`
//! directories show each vendor's controls at work (a played CUDA program's callbacks and activity
//! records; an MSPTI program started with the mock preloaded, as the real library needs; a
//! rocprofiler tool configured, run and finalized).
//!
//! # The test kit
//!
//! - [`mspti::run_preloaded`] (and [`mspti::Preloaded`] to choose the library, the CANN home, the
//!   environment): the calling test's body run with `libmspti.so` preloaded, in a child process
//!   that runs that one test only; its result is the test's.
//! - [`rocprofiler::run_mocked`]: the calling test's body against a fresh mock `librocprofiler-sdk`
//!   (its lock held, reset); the tool under test is set up with `rocprofiler::configure_with`, a
//!   closure run in a configure window the SDK opens for it, which takes the test's state and
//!   returns the tool's handles.
//! - [`cupti::KinetoClient`]: a second CUPTI client in the process, in PyTorch's profiler's order
//!   of calls through the global symbol scope ([`cupti::load_global`] puts the mock there).
//! - [`cupti::lock`], [`mspti::lock`], [`rocprofiler::lock`]: one lock per mock (one mock state
//!   per process), not poisoned by a test that panicked.
//! - Every `open` (and [`ascend::Acl::load`]) returns this crate's [`Error`]: a file that did not
//!   load ([`Error::Open`]), or one without the mock's controls ([`Error::NotTheMock`]).
//! - The controls: every `mock_*` function of a mock is a method of its wrapper ([`cupti::MockCupti`],
//!   [`mspti::MockMspti`], [`rocprofiler::MockRocprofiler`], [`cuda::MockCuda`]), each documented
//!   there with its C name. They are declared once (`libs/<vendor>/controls.rs`): the mock's crate
//!   root checks each declaration against the function it defines, the wrapper resolves them with
//!   those signatures. A control that takes plain values is a safe method as declared; one that
//!   takes a C string, an out-pointer or a call handle has typed arguments (`&CStr`, `&mut u64`,
//!   [`cupti::ApiCall`]); one whose pointer the code under test reads (a played call's `params`,
//!   a configure function) is an `unsafe fn` with its `# Safety`.
//!
//! # One mock per process
//!
//! Each control wrapper opens the mock with `dlopen` on the same file that your code's loader
//! opened: one handle, one mock state per process. Tests that drive a mock must not run
//! concurrently (take its lock: [`cupti::lock`] and the others), and start from its `reset`
//! control.
//!
//! See the [vendor notes] for what each mock plays and why, and the [architecture] for where it
//! sits in the crate family.
//!
//! [vendor notes]: https://github.com/accel-profiling/accel-profiling/blob/main/docs/VENDOR-NOTES.md
//! [architecture]: https://github.com/accel-profiling/accel-profiling/blob/main/docs/ARCHITECTURE.md

/// The wrapper side of a mock's one declaration of its controls (`libs/<vendor>/controls.rs`,
/// whose every line the mock's own crate root checks against the function it defines): a table of
/// the controls' function pointers, resolved from the mock's file at `open` (a library without one
/// of them is not the mock: [`Error::NotTheMock`]), and, for each control declared `pub` (one that
/// takes no pointer), a safe method of `$owner` of the same name, documented with the control's C
/// name. The controls declared `raw` are reached through typed methods written by hand.
macro_rules! wrapper_controls {
    ($table:ident, $owner:ident; $( $(#[$doc:meta])* $kind:ident fn $method:ident = $symbol:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        /// The mock's controls, looked up once in its file.
        #[derive(Clone, Copy)]
        #[allow(dead_code)]
        struct $table {
            $( $method: unsafe extern "C" fn($($ty),*) $(-> $ret)?, )*
        }

        impl $table {
            fn resolve(lib: &libloading::Library, path: &std::ffi::OsStr) -> crate::Result<$table> {
                Ok($table {
                    $( $method: {
                        let name = concat!(stringify!($symbol), "\0");
                        // SAFETY: only the address is read here. The type is the control's one
                        // declaration, which the mock's crate root checks against the function it
                        // defines; the pointer is used only while `lib` (kept next to the table in
                        // `$owner`) keeps the library loaded.
                        let f = unsafe { lib.get::<unsafe extern "C" fn($($ty),*) $(-> $ret)?>(name.as_bytes()) }
                            .map_err(|_| crate::Error::NotTheMock {
                                path: std::path::PathBuf::from(path),
                                control: stringify!($symbol),
                            })?;
                        *f
                    }, )*
                })
            }
        }

        impl $owner {
            $( wrapper_controls!(@method $kind $(#[$doc])* fn $method = $symbol ($($arg : $ty),*) $(-> $ret)?); )*
        }
    };
    (@method pub $(#[$doc:meta])* fn $method:ident = $symbol:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)?) => {
        $(#[$doc])*
        #[doc = ""]
        #[doc = concat!("The control `", stringify!($symbol), "`.")]
        #[allow(clippy::too_many_arguments)]
        pub fn $method(&self, $($arg: $ty),*) $(-> $ret)? {
            // SAFETY: a control declared `pub` takes plain values only (its declaration, checked
            // against the mock's definition); the library is loaded while `self` lives.
            unsafe { (self.controls.$method)($($arg),*) }
        }
    };
    (@method raw $($rest:tt)*) => {};
}

mod error;
mod kineto;

pub use error::{Error, Result};

/// The CUPTI declarations (the `cupti-sys` crate), for a test that calls the mock `libcupti`
/// directly: `accelprof_mocks::cupti_sys::Library::open(...)`.
pub use cupti_sys;
/// The rocprofiler-sdk declarations (the `rocprofiler-sys` crate) the mock's controls take.
pub use rocprofiler_sys;

pub mod ascend;
pub mod cuda;
pub mod cupti;
pub mod hta;
pub mod mspti;
pub mod rocprofiler;
pub mod stress;

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
