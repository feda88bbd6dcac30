//! rocprofiler-sdk bindings from the `ROCm/rocm-systems` monorepo.
//!
//! ```text
//! cargo run -p accelprof-bindgen -- rocprofiler <tree of ROCm/rocm-systems> [out dir]
//! ```
//!
//! The tree is a checkout (or `git archive` extract) of `ROCm/rocm-systems` holding
//! `projects/rocprofiler-sdk/source/include` and, for the HSA and KFD types that `agent.h` and
//! the HSA argument unions need, `projects/rocr-runtime/runtime/hsa-runtime/inc` and
//! `projects/rocr-runtime/libhsakmt/include`. The committed output was generated from the
//! snapshot at commit `1b1610fc2b2ab32af71e6e04e4d4a6a4ae597992` (August 2025).
//!
//! Everything is prepared in a temporary include tree; nothing is written into the vendor tree
//! and no vendor file enters this repository:
//! - `rocprofiler-sdk/version.h`, `ext_version.h` and `rocprofiler-sdk-roctx/version.h` are
//!   written from their CMake `.h.in` templates (version from `projects/rocprofiler-sdk/VERSION`,
//!   HSA table versions from `hsa_api_trace_version.h`).
//! - HIP's headers are not in the monorepo, so `rocprofiler-sdk/hip/api_args.h` is replaced by a
//!   stand-in that keeps the header's own return-value union (whose members need only two small
//!   HIP types, declared with HIP's layout) and declares the HIP argument union as a placeholder.
//!   The argument union's size depends on the HIP version, so it and the two structs that embed
//!   it by value are left out of the output ([`NEEDS_HIP`]). The bundled rocDecode, rocJPEG and
//!   RCCL headers need one HIP type, `hipStream_t`, which a stand-in `hip/hip_runtime.h` declares
//!   exactly as HIP does (a pointer to an opaque struct). HIP's API-table step version, which
//!   decides which HIP operation ids exist, is set to the newest step the id header knows.
//! - Declarations that arrived after the snapshot are added when the snapshot lacks them
//!   ([`NEWER`]): `rocprofiler_dispatch_counting_service_set_agents` (commit
//!   `eb1c36b271b218387e565bac8646a2fc569877f9`) and the status 41 under its mainline name,
//!   `ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION` (commit
//!   `04098322519e300d7f8462e9d21d8792a6cd4f50`; a feature branch once called it
//!   `ROCPROFILER_STATUS_FIRMWARE_INCOMPATIBLE`). On a tree that has them this is a no-op.
//!
//! The argument unions of the other runtimes (HSA, markers, RCCL, OMPT, rocDecode, rocJPEG) are
//! kept opaque: their size and alignment come from the real headers, their members are read
//! through `rocprofiler_iterate_callback_tracing_kind_operation_args` instead.
//! `rocprofiler_configure` is the symbol a *tool* exports, so it is not in the function table.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{builder, generate, Output};

/// Types whose layout needs HIP's headers; left out of the output.
const NEEDS_HIP: &[&str] = &[
    "rocprofiler_hip_api_args_t",
    "rocprofiler_callback_tracing_hip_api_data_t",
    "rocprofiler_buffer_tracing_hip_api_ext_record_t",
];

/// Argument unions emitted as opaque blobs of their real size.
const OPAQUE: &[&str] = &[
    "rocprofiler_hsa_api_args_t",
    "rocprofiler_marker_api_args_t",
    "rocprofiler_rccl_api_args_t",
    "rocprofiler_ompt_args_t",
    "rocprofiler_rocdecode_api_args_t",
    "rocprofiler_rocjpeg_api_args_t",
];

/// Types of the bundled rocDecode/rocJPEG/OMPT headers that only the opaque argument unions
/// use; bindgen would otherwise still emit them.
const ONLY_IN_ARGS: &[&str] =
    &["_?Rocdec.*", "_?RocJpeg.*", "_?RocDec.*", "rocDec.*", "rocJpeg.*", "PFNVID.*"];

/// A declaration newer than the snapshot: (file, marker that proves it is present, text to
/// insert, the line it goes before).
struct Newer {
    file: &'static str,
    present_if: &'static str,
    insert: &'static str,
    before: &'static str,
    source: &'static str,
}

const NEWER: &[Newer] = &[
    Newer {
        file: "rocprofiler-sdk/fwd.h",
        present_if: "ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION",
        insert: "    ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_REGISTER_VERSION,\n",
        before: "    ROCPROFILER_STATUS_LAST,",
        source: "04098322519e300d7f8462e9d21d8792a6cd4f50",
    },
    Newer {
        file: "rocprofiler-sdk/dispatch_counting_service.h",
        present_if: "rocprofiler_dispatch_counting_service_set_agents",
        insert: "ROCPROFILER_SDK_EXPERIMENTAL\nrocprofiler_status_t\n\
                 rocprofiler_dispatch_counting_service_set_agents(rocprofiler_context_id_t      context_id,\n\
                 const rocprofiler_agent_id_t* agents,\n\
                 size_t num_agents) ROCPROFILER_API;\n\n",
        before: "ROCPROFILER_EXTERN_C_FINI",
        source: "eb1c36b271b218387e565bac8646a2fc569877f9",
    },
];

/// Functions the safe crate relies on; checked so a header change is noticed at generation.
const REQUIRED: &[&str] = &[
    "rocprofiler_get_version",
    "rocprofiler_get_status_string",
    "rocprofiler_force_configure",
    "rocprofiler_create_context",
    "rocprofiler_start_context",
    "rocprofiler_stop_context",
    "rocprofiler_context_is_active",
    "rocprofiler_context_is_valid",
    "rocprofiler_configure_callback_tracing_service",
    "rocprofiler_query_callback_tracing_kind_name",
    "rocprofiler_query_callback_tracing_kind_operation_name",
    "rocprofiler_create_buffer",
    "rocprofiler_flush_buffer",
    "rocprofiler_configure_buffer_tracing_service",
    "rocprofiler_query_available_agents",
    "rocprofiler_iterate_agent_supported_counters",
    "rocprofiler_query_counter_info",
    "rocprofiler_create_counter_config",
    "rocprofiler_configure_buffer_dispatch_counting_service",
    "rocprofiler_configure_callback_dispatch_counting_service",
    "rocprofiler_dispatch_counting_service_set_agents",
];

fn usage() -> String {
    "usage: accelprof-bindgen rocprofiler <tree of ROCm/rocm-systems> [out dir, default rocprofiler-sys/src/generated]"
        .into()
}

/// Generates `rocprofiler-sys/src/generated/{types.rs,functions.rs}`.
pub fn run(args: &[String]) -> Result<(), String> {
    let root = match args.first() {
        Some(a) if a != "--help" && a != "-h" => PathBuf::from(a),
        _ => return Err(usage()),
    };
    let sdk = root.join("projects/rocprofiler-sdk");
    let sdk_include = sdk.join("source/include");
    let hsa_include = root.join("projects/rocr-runtime/runtime/hsa-runtime/inc");
    let kmt_include = root.join("projects/rocr-runtime/libhsakmt/include");
    for dir in [&sdk_include, &hsa_include, &kmt_include] {
        if !dir.is_dir() {
            return Err(format!("{} not found; {}", dir.display(), usage()));
        }
    }
    let out_dir = args.get(1).map_or_else(|| PathBuf::from("rocprofiler-sys/src/generated"), PathBuf::from);

    let tmp = std::env::temp_dir().join(format!("accelprof-bindgen-rocprofiler-{}", std::process::id()));
    // Made here, private (0700), and only if new: never a directory or link someone else put there.
    std::os::unix::fs::DirBuilderExt::mode(&mut fs::DirBuilder::new(), 0o700)
        .create(&tmp)
        .map_err(|e| format!("cannot create the private directory {}: {e}", tmp.display()))?;
    let include = tmp.join("include");
    let result = prepare(&sdk, &sdk_include, &hsa_include, &kmt_include, &include)
        .and_then(|version| run_bindgen(&include, &out_dir, &version));
    let _ = fs::remove_dir_all(&tmp);
    result
}

/// Builds the temporary include tree; returns the SDK version string.
fn prepare(sdk: &Path, sdk_include: &Path, hsa: &Path, kmt: &Path, include: &Path) -> Result<String, String> {
    copy_tree(sdk_include, include)?;
    copy_tree(hsa, &include.join("hsa"))?;
    copy_tree(&kmt.join("hsakmt"), &include.join("hsakmt"))?;

    let version = read(&sdk.join("VERSION"))?.trim().to_string();
    let mut parts = version.split('.').map(|p| p.trim().to_string());
    let (major, minor, patch) = (
        parts.next().unwrap_or_else(|| "0".into()),
        parts.next().unwrap_or_else(|| "0".into()),
        parts.next().unwrap_or_else(|| "0".into()),
    );
    let cmake_vars = |text: &str| {
        text.replace("@PROJECT_VERSION_MAJOR@", &major)
            .replace("@PROJECT_VERSION_MINOR@", &minor)
            .replace("@PROJECT_VERSION_PATCH@", &patch)
            .replace("@FULL_VERSION_STRING@", &version)
            .replace("@ROCPROFILER_SDK_GIT_DESCRIBE@", &format!("v{version}"))
            .replace("@ROCPROFILER_SDK_GIT_REVISION@", "")
            .replace("@CMAKE_LIBRARY_ARCHITECTURE@", "x86_64-linux-gnu")
            .replace("@CMAKE_SYSTEM_NAME@", "Linux")
            .replace("@CMAKE_SYSTEM_PROCESSOR@", "x86_64")
            .replace("@CMAKE_SYSTEM_VERSION@", "")
            .replace("@CMAKE_CXX_COMPILER_ID@", "")
            .replace("@CMAKE_CXX_COMPILER_VERSION@", "")
    };
    for template in ["rocprofiler-sdk/version.h.in", "rocprofiler-sdk-roctx/version.h.in"] {
        let src = include.join(template);
        if src.is_file() {
            let text = cmake_vars(&read(&src)?);
            write(&include.join(template.trim_end_matches(".in")), &text)?;
        }
    }
    let ext = read(&include.join("rocprofiler-sdk/ext_version.h.in"))?;
    write(
        &include.join("rocprofiler-sdk/ext_version.h"),
        &ext_version(&ext, &read(&hsa.join("hsa_api_trace_version.h"))?),
    )?;

    for n in NEWER {
        let path = include.join(n.file);
        let text = read(&path)?;
        if text.contains(n.present_if) {
            continue;
        }
        let at = text
            .rfind(n.before)
            .ok_or_else(|| format!("{}: `{}` not found to add {}", n.file, n.before, n.present_if))?;
        let patched = format!("{}{}{}", &text[..at], n.insert, &text[at..]);
        write(&path, &patched)?;
        eprintln!("added {} (as in commit {}) to {}", n.present_if, n.source, n.file);
    }

    // The bundled rocDecode, rocJPEG and RCCL headers include HIP for one type, `hipStream_t`,
    // which HIP declares as a pointer to an opaque struct.
    let hip_stream = "#pragma once\ntypedef struct ihipStream_t* hipStream_t;\n";
    fs::create_dir_all(include.join("hip")).map_err(|e| e.to_string())?;
    write(&include.join("hip/hip_runtime.h"), hip_stream)?;
    write(&include.join("hip/hip_runtime_api.h"), hip_stream)?;
    write(&include.join("hip/hip_fp16.h"), "#pragma once\n")?;
    // HIP's API-table step version decides which HIP operation ids exist (and so the numbering
    // of the later ones). The stand-in takes the newest step the id header knows; the numbering
    // of a given library comes from its name queries at run time, never from these constants.
    let ids = read(&include.join("rocprofiler-sdk/hip/runtime_api_id.h"))?;
    let step = ids
        .split("HIP_RUNTIME_API_TABLE_STEP_VERSION >=")
        .skip(1)
        .filter_map(|rest| rest.split_whitespace().next()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    fs::create_dir_all(include.join("hip/amd_detail")).map_err(|e| e.to_string())?;
    write(
        &include.join("hip/amd_detail/hip_api_trace.hpp"),
        &format!("#pragma once\n#define HIP_RUNTIME_API_TABLE_STEP_VERSION {step}\n"),
    )?;
    eprintln!("HIP runtime API table step version for the HIP operation ids: {step}");

    let hip_args = include.join("rocprofiler-sdk/hip/api_args.h");
    write(&hip_args, &hip_stand_in(&read(&hip_args)?)?)?;

    let wrapper = "#include <rocprofiler-sdk/rocprofiler.h>\n#include <rocprofiler-sdk/registration.h>\n";
    write(&include.join("wrapper.h"), wrapper)?;
    Ok(version)
}

/// `ext_version.h` from its template: `#cmakedefine X @X@` lines get the value of the matching
/// `HSA_*` define in the HSA runtime's `hsa_api_trace_version.h`.
fn ext_version(template: &str, hsa_versions: &str) -> String {
    let hsa_value = |name: &str| {
        hsa_versions.lines().find_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some("#define") && w.next() == Some(name)).then(|| w.next().map(str::to_string))?
        })
    };
    let mut out = String::new();
    for line in template.lines() {
        if let Some(rest) = line.strip_prefix("#cmakedefine ") {
            let name = rest.split_whitespace().next().unwrap_or_default();
            match hsa_value(name.trim_start_matches("ROCPROFILER_")) {
                Some(v) => out.push_str(&format!("#define {name} {v}\n")),
                None => out.push_str(&format!("/* {name} not set */\n")),
            }
        } else {
            out.push_str(
                &line.replace("@HSA_RUNTIME_VERSION_MAJOR@", "1").replace("@HSA_RUNTIME_VERSION_MINOR@", "0"),
            );
            out.push('\n');
        }
    }
    out
}

/// The HIP stand-in: the original header's return-value union, with HIP's `hipError_t` (an
/// `int`-sized enum) and `hipChannelFormatDesc` (four `int`s and an `int`-sized enum) declared
/// with their real layout, and a placeholder for the argument union (left out of the output).
fn hip_stand_in(original: &str) -> Result<String, String> {
    const END: &str = "} rocprofiler_hip_api_retval_t;";
    let start = original
        .find("ROCPROFILER_EXTERN_C_INIT")
        .ok_or("hip/api_args.h: ROCPROFILER_EXTERN_C_INIT not found")?;
    let end = original.find(END).ok_or("hip/api_args.h: the return-value union was not found")? + END.len();
    Ok(format!(
        "#pragma once\n#include <rocprofiler-sdk/defines.h>\n#include <rocprofiler-sdk/fwd.h>\n#include <stdint.h>\n\
         typedef int hipError_t;\n\
         typedef struct hipChannelFormatDesc {{ int x; int y; int z; int w; int f; }} hipChannelFormatDesc;\n\
         {}\n\
         typedef union rocprofiler_hip_api_args_t {{ char needs_hip_headers; }} rocprofiler_hip_api_args_t;\n\
         ROCPROFILER_EXTERN_C_FINI\n",
        &original[start..end]
    ))
}

fn run_bindgen(include: &Path, out_dir: &Path, version: &str) -> Result<(), String> {
    let all = read_all(&include.join("rocprofiler-sdk"))?;
    for f in REQUIRED {
        if !all.contains(&format!("{f}(")) {
            return Err(format!("the headers no longer declare {f}: update REQUIRED"));
        }
    }
    let mut b = builder()
        .header(include.join("wrapper.h").to_string_lossy())
        .clang_args(["-x", "c", "-std=c11", "-D__HIP_PLATFORM_AMD__"])
        .clang_arg(format!("-I{}", include.display()))
        .allowlist_function("rocprofiler_.*")
        .allowlist_type("rocprofiler_.*")
        .allowlist_var("ROCPROFILER_.*")
        .blocklist_function("rocprofiler_configure")
        // bindgen derives Debug for this struct although its opaque union member has none.
        .no_debug("rocprofiler_callback_tracing_ompt_data_t");
    for t in NEEDS_HIP {
        b = b.blocklist_type(t);
    }
    for t in OPAQUE {
        // The union is a blob; its per-function member structs are not needed either.
        b = b.opaque_type(t).blocklist_type(format!("{t}__bindgen_ty_[0-9]+"));
    }
    for t in ONLY_IN_ARGS {
        b = b.blocklist_type(t);
    }
    generate(
        b,
        &Output {
            dir: out_dir,
            table: "RocprofilerFunctions",
            source: &format!(
                "rocprofiler-sdk {version} headers (ROCm/rocm-systems 1b1610fc2b2ab32af71e6e04e4d4a6a4ae597992, \
                 with set_agents from eb1c36b271b2 and status 41 from 04098322519e)"
            ),
            command: "cargo run -p accelprof-bindgen -- rocprofiler <tree of ROCm/rocm-systems>",
        },
    )?;
    let types = read(&out_dir.join("types.rs"))?;
    for t in NEEDS_HIP {
        if types.contains(&format!("pub struct {t}")) || types.contains(&format!("pub union {t}")) {
            return Err(format!("{t} needs HIP's headers but was emitted"));
        }
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let path = entry.path();
        let dst = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &dst)?;
        } else {
            fs::copy(&path, &dst).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

fn read_all(dir: &Path) -> Result<String, String> {
    let mut all = String::new();
    for entry in fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            all.push_str(&read_all(&path)?);
        } else if path.extension().is_some_and(|e| e == "h") {
            all.push_str(&read(&path)?);
        }
    }
    Ok(all)
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
