//! Mock vendor profiling libraries, and safe controls that play the runtime, for testing a tool
//! built on `cupti`, `mspti` or `rocprofiler` on a machine without a GPU or an NPU.
//!
//! Add it as a dev-dependency (`cargo add --dev accelprof-mocks`). Its build script compiles one
//! mock per vendor (a std-only `cdylib`): `libcupti.so`, `libmspti.so` with stand-ins of the CANN
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
//! let mock = MockCupti::open(LIBRARY);
//! mock.reset();
//! mock.set_version(28); // play CUPTI 12.9
//! assert_eq!(layouts(&lib), "12.x");
//! mock.set_version(130001); // and 13.0
//! assert_eq!(layouts(&lib), "13.x");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The `cupti`, `mspti` and `rocprofiler` crates test themselves this way: their `tests/`
//! directories show each vendor's controls at work (a played CUDA program's callbacks and activity
//! records; an MSPTI program started with the mock preloaded, as the real library needs; a
//! rocprofiler tool configured, run and finalized).
//!
//! # One mock per process
//!
//! Each control wrapper opens the mock with `dlopen` on the same file that your code's loader
//! opened: one handle, one mock state per process. Tests that drive a mock must not run
//! concurrently (take a lock), and start from its `reset` control.
//!
//! See the [vendor notes] for what each mock plays and why, and the [architecture] for where it
//! sits in the crate family.
//!
//! [vendor notes]: https://github.com/accel-profiling/accel-profiling/blob/main/docs/VENDOR-NOTES.md
//! [architecture]: https://github.com/accel-profiling/accel-profiling/blob/main/docs/ARCHITECTURE.md

pub mod ascend;
pub mod cupti;
pub mod hta;
pub mod mspti;
pub mod rocprofiler;

// The README's examples are compiled (and the runnable ones run) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
