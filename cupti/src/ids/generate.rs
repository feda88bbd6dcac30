//! Generates `cbids.rs` (a constant per callback id) from the callback-id enums of `cupti-sys`'s
//! generated bindings, and checks that the committed file is current.
//!
//! ```text
//! CUPTI_REGENERATE=1 cargo test -p cupti --lib ids::generate
//! ```

use std::fmt::Write;

/// `(our newtype, cupti-sys enum, C prefix stripped from the constant names)`.
const ENUMS: [(&str, &str, &str); 6] = [
    ("DriverCbid", "CUpti_driver_api_trace_cbid_enum", "CUPTI_DRIVER_TRACE_CBID_"),
    ("RuntimeCbid", "CUpti_runtime_api_trace_cbid_enum", "CUPTI_RUNTIME_TRACE_CBID_"),
    ("ResourceCbid", "CUpti_CallbackIdResource", "CUPTI_CBID_RESOURCE_"),
    ("SynchronizeCbid", "CUpti_CallbackIdSync", "CUPTI_CBID_SYNCHRONIZE_"),
    ("NvtxCbid", "CUpti_nvtx_api_trace_cbid", "CUPTI_CBID_NVTX_"),
    ("StateCbid", "CUpti_CallbackIdState", "CUPTI_CBID_STATE_"),
];

/// Sentinels of the C enums, not ids.
const SKIP: [&str; 3] = ["INVALID", "SIZE", "FORCE_INT"];

/// The generated types of `cupti-sys`, read where cargo put that crate.
fn sys_types() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let path = std::path::Path::new(cupti_sys::GENERATED_DIR).join("types.rs");
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    })
}
const OUTPUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/ids/cbids.rs");

/// The constant names of `impl <sys> { ... }` in the generated types.
fn constants(sys: &str) -> Vec<String> {
    let types = sys_types();
    let start = types.find(&format!("impl {sys} {{")).unwrap_or_else(|| panic!("no impl {sys}"));
    let body = &types[start..];
    let body = &body[..body.find("\n}").expect("impl block ends")];
    body.split("pub const ")
        .skip(1)
        .map(|item| item[..item.find(':').expect("a typed constant")].trim().to_owned())
        .collect()
}

fn render() -> String {
    let mut out = String::from(
        "// @generated from cupti-sys's generated callback-id enums; do not edit.\n\
         // Regenerate: CUPTI_REGENERATE=1 cargo test -p cupti --lib ids::generate\n\n\
         #![allow(non_upper_case_globals)]\n\n\
         use cupti_sys::*;\n\n\
         use super::callback_id::*;\n",
    );
    for (ours, sys, prefix) in ENUMS {
        writeln!(out, "\nimpl {ours} {{").unwrap();
        for c in constants(sys) {
            let short = c.strip_prefix(prefix).unwrap_or_else(|| panic!("{c} lacks {prefix}"));
            if SKIP.contains(&short) {
                continue;
            }
            writeln!(out, "    /// `{c}`.").unwrap();
            writeln!(out, "    pub const {short}: {ours} = {ours}({sys}::{c}.0);").unwrap();
        }
        out.push_str("}\n");
    }
    out
}

#[test]
fn cbid_constants_are_current() {
    let text = render();
    if std::env::var_os("CUPTI_REGENERATE").is_some() {
        std::fs::write(OUTPUT, &text).expect("write cbids.rs");
    }
    let committed = std::fs::read_to_string(OUTPUT).unwrap_or_default();
    assert!(
        committed == text,
        "cupti/src/ids/cbids.rs is stale: run CUPTI_REGENERATE=1 cargo test -p cupti --lib ids::generate"
    );
}
