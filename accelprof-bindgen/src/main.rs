//! Regenerates the committed bindings of the `-sys` crates from vendor headers.
//!
//! ```text
//! cargo run -p accelprof-bindgen -- <cupti|mspti|rocprofiler> [vendor-specific arguments]
//! ```
//!
//! Each vendor module says which headers it needs and how to get them (see `--help`). The
//! output is bindgen's, with comments off (no vendor prose enters the tree), C enums as
//! `#[repr(transparent)]` newtypes (any value stays representable), layout tests on, and the
//! `extern "C"` block turned into a lazily-resolved `accelprof_loader::function_table!`.
//! libclang is opened at run time, so only running the generator needs it, never building it.

mod common;
mod cupti;
mod mspti;
mod rocprofiler;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((vendor, rest)) = args.split_first() else {
        eprintln!("usage: accelprof-bindgen <cupti|mspti|rocprofiler> [arguments]");
        return ExitCode::from(2);
    };
    let result = match vendor.as_str() {
        "cupti" => cupti::run(rest),
        "mspti" => mspti::run(rest),
        "rocprofiler" => rocprofiler::run(rest),
        other => Err(format!(
            "unknown vendor `{other}`; expected cupti, mspti or rocprofiler ({} arguments)",
            rest.len()
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("accelprof-bindgen: {e}");
            ExitCode::FAILURE
        }
    }
}
