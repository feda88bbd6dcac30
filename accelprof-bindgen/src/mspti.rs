//! MSPTI (Huawei Ascend) bindings from the `Ascend/mspti` repository's `csrc/include`.
//!
//! ```text
//! cargo run -p accelprof-bindgen -- mspti <checkout of Ascend/mspti>/csrc/include
//! ```
//!
//! The activity record structs are `__attribute__((packed, aligned(8)))` under GCC: bindgen's
//! output for them does not compile (E0588, a packed type cannot contain an aligned one) and its
//! layout would be wrong anyway. They are left out here and written by hand in
//! `mspti-sys/src/records.rs`, with layout tests pinned to sizes measured with gcc. Only the
//! common header `msptiActivity` is kept, as an opaque 8-byte blob, because
//! `msptiActivityGetNextRecord`'s signature names it.

use std::path::{Path, PathBuf};

use crate::common::{builder, generate, Output};

/// Packed record types written by hand in `mspti-sys/src/records.rs`.
const HAND_WRITTEN: &[&str] = &[
    "msptiObjectId",
    "msptiActivityMarker",
    "msptiActivityApi",
    "msptiActivityKernel",
    "msptiActivityHccl",
    "msptiActivityMemory",
    "msptiActivityMemset",
    "msptiActivityMemcpy",
    "msptiActivityExternalCorrelation",
    "msptiActivityCommunication",
];

/// Every function `libmspti.so` exports (checked so that a header change is noticed).
const FUNCTIONS: &[&str] = &[
    "msptiSubscribe",
    "msptiUnsubscribe",
    "msptiEnableCallback",
    "msptiEnableDomain",
    "msptiActivityRegisterCallbacks",
    "msptiActivityEnable",
    "msptiActivityDisable",
    "msptiActivityIsEnabled",
    "msptiActivityEnableMarkerDomain",
    "msptiActivityDisableMarkerDomain",
    "msptiActivityGetNextRecord",
    "msptiActivityFlushAll",
    "msptiActivityFlushPeriod",
    "msptiActivityPushExternalCorrelationId",
    "msptiActivityPopExternalCorrelationId",
];

fn usage() -> String {
    "usage: accelprof-bindgen mspti <Ascend/mspti checkout>/csrc/include [out dir, default mspti-sys/src/generated]"
        .into()
}

/// Generates `mspti-sys/src/generated/{types.rs,functions.rs}`.
pub fn run(args: &[String]) -> Result<(), String> {
    let include = match args.first() {
        Some(a) if a != "--help" && a != "-h" => PathBuf::from(a),
        _ => return Err(usage()),
    };
    let header = include.join("mspti.h");
    if !header.is_file() {
        return Err(format!("{} not found; {}", header.display(), usage()));
    }
    let all_headers = read_all(&include)?;
    for f in FUNCTIONS {
        if !all_headers.contains(&format!("{f}(")) {
            return Err(format!("the headers no longer declare {f}: update FUNCTIONS"));
        }
    }
    let out_dir = args.get(1).map_or_else(|| PathBuf::from("mspti-sys/src/generated"), PathBuf::from);

    let mut b = builder()
        .header(header.to_string_lossy())
        .clang_args(["-x", "c", "-std=c11"])
        .clang_arg(format!("-I{}", include.display()))
        .allowlist_function("mspti.*")
        .allowlist_type("mspti.*")
        .allowlist_var("MSPTI_.*")
        .opaque_type("msptiActivity");
    for t in HAND_WRITTEN {
        // The record and its anonymous inner structs (`msptiActivityApi__bindgen_ty_1`, ...).
        b = b.blocklist_type(t).blocklist_type(format!("{t}__.*"));
    }
    generate(
        b,
        &Output {
            dir: &out_dir,
            table: "MsptiFunctions",
            source: "Ascend/mspti csrc/include (mspti.h)",
            command: "cargo run -p accelprof-bindgen -- mspti <Ascend/mspti checkout>/csrc/include",
        },
    )
}

fn read_all(dir: &Path) -> Result<String, String> {
    let mut all = String::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_some_and(|e| e == "h") {
            all.push_str(&std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?);
        }
    }
    Ok(all)
}
