//! A check of trace files with HolisticTraceAnalysis (HTA), Meta's analysis of PyTorch profiler
//! traces, as a user would load them: [`CHECK_TRACES_SCRIPT`] is a Python script,
//!
//! ```text
//! python3 check_traces.py DIR KERNELS LINKED [DIR KERNELS LINKED ...]
//! ```
//!
//! Each `DIR` holds one trace file (`.json` or `.json.gz`). For each, HTA's `TraceAnalysis` must
//! load it and run its kernel and temporal breakdowns, see `KERNELS` kernel events and link
//! `LINKED` of them to the API call that launched them (`-1`: not checked). It prints one JSON line
//! per trace and exits 1 on the first failure. It needs a Python with `HolisticTraceAnalysis`
//! installed (`pip install HolisticTraceAnalysis psutil`).

/// Absolute path of the script (shipped in this crate's `hta/` directory).
pub const CHECK_TRACES_SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/hta/check_traces.py");
