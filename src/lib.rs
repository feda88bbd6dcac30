//! The `accel-profiling` package of the repository: the examples of the `cupti`, `mspti` and
//! `rocprofiler` crates (each runs on the real library where the machine has it, otherwise on the
//! mocks of `accelprof-mocks`), the tests that run them, and the scripts for a GPU machine
//! (`gpu/`). The vendor-neutral layer over the three crates belongs here (see
//! `docs/ARCHITECTURE.md`).
